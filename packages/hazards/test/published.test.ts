import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import { BlockCache, ByoRegistry, loadHazardLayers, parseFloodFileName, PublishedDatasets, readGeoTiffLayer, scanPublishedDirectory } from '../src/index.js';

/**
 * Published flood maps (issue 34 item 2), package side: the names as WRI Aqueduct Floods and the JRC publish them,
 * the nearest scenario/year/variant rules, files written by geotiff.js's own writer read by the window reader, and a
 * company's own layer before the published map at the same point.
 */
test('names: Aqueduct riverine and coastal, JRC v1 and v2 tiles; anything else refused naming the file', () => {
  assert.deepEqual(parseFloodFileName('inunriver_historical_000000000WATCH_1980_rp00100.tif'), {
    source: 'aqueduct',
    hazard: 'river_flood',
    scenario: 'historical',
    model: 'WATCH',
    year: null,
    returnPeriodYears: 100,
    subsidence: null,
    slrPercentile: null,
    tile: null,
  });
  const r = parseFloodFileName('inunriver_rcp8p5_00000NorESM1-M_2050_rp00100.tif');
  assert.deepEqual([r.scenario, r.model, r.year, r.returnPeriodYears], ['rcp8p5', 'NorESM1-M', 2050, 100]);
  assert.equal(parseFloodFileName('inunriver_rcp4p5_MIROC-ESM-CHEM_2080_rp01000.tif').model, 'MIROC-ESM-CHEM');
  const c = parseFloodFileName('inuncoast_rcp8p5_wtsub_2050_rp0100_0.tif');
  assert.deepEqual([c.hazard, c.scenario, c.year, c.subsidence, c.slrPercentile, c.returnPeriodYears], ['storm_surge', 'rcp8p5', 2050, true, 95, 100]);
  assert.equal(parseFloodFileName('inuncoast_historical_nosub_hist_rp0100_0.tif').year, null);
  assert.equal(parseFloodFileName('inuncoast_rcp4p5_nosub_2030_rp0001_5_0_perc_50.tif').returnPeriodYears, 1.5);
  assert.equal(parseFloodFileName('inuncoast_rcp4p5_nosub_2030_rp0010_0_perc_05.tif').slrPercentile, 5);
  assert.deepEqual([parseFloodFileName('floodMapGL_rp100y.tif').source, parseFloodFileName('floodMapGL_rp100y.tif').scenario], ['jrc', 'historical']);
  assert.equal(parseFloodFileName('ID14_N49_W130_RP100_depth.tif').tile, 'ID14_N49_W130');
  for (const [name, why] of [
    ['flood.tif', /flood\.tif: not a published flood-map file name/],
    ['inunriver_rcp8p5_00000NorESM1-M_2050_rp00100.TIF.tif', /not a published/],
    ['inunriver_rcp2p6_00000NorESM1-M_2050_rp00100.tif', /not a published/],
    ['inunriver_rcp8p5_00000NorESM1-M_2050_rp00075.tif', /return period 75 is not one of Aqueduct's/],
    ['inunriver_rcp8p5_000000000WATCH_2050_rp00100.tif', /WATCH is the historical baseline/],
    ['inunriver_historical_00000NorESM1-M_1980_rp00100.tif', /historical riverine maps are 000000000WATCH_1980/],
    ['inunriver_rcp8p5_0000000MyModel_2050_rp00100.tif', /model 'MyModel' is not one of Aqueduct's/],
    ['inuncoast_rcp8p5_wtsub_hist_rp0100_0.tif', /historical coastal maps are '_hist_'/],
    ['inuncoast_historical_wtsub_hist_rp0100_0.tif', /historical coastal maps are nosub/],
    ['floodMapGL_rp1000y.tif', /return period 1000 is not one of the JRC maps'/],
  ] as const) {
    assert.throws(
      () => parseFloodFileName(name),
      (e: Error) => e.name === 'FloodNameError' && why.test(e.message),
      name,
    );
  }
});

/** A 4 × 4 EPSG:4326 float GeoTIFF over 89-93°E, 21-25°N (1° pixels), geotiff.js's writer (strips, no compression). */
function write(dir: string, name: string, value: number) {
  const data = new Float32Array(16).fill(value);
  data[0] = -9999;
  const buf = writeArrayBuffer(data, {
    width: 4,
    height: 4,
    BitsPerSample: [32],
    SampleFormat: [3],
    SamplesPerPixel: 1,
    ModelPixelScale: [1, 1, 0],
    ModelTiepoint: [0, 0, 0, 89, 25, 0],
    GeographicTypeGeoKey: 4326,
    GDAL_NODATA: '-9999',
  });
  writeFileSync(join(dir, name), new Uint8Array(buf));
}

test('nearest scenario, year, variant and model; nodata not covered; own data before the published map', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'published-'));
  write(dir, 'inunriver_historical_000000000WATCH_1980_rp00100.tif', 1);
  write(dir, 'inunriver_rcp8p5_00000NorESM1-M_2030_rp00100.tif', 2);
  write(dir, 'inunriver_rcp8p5_00000NorESM1-M_2080_rp00100.tif', 4);
  write(dir, 'inunriver_rcp8p5_0000GFDL-ESM2M_2080_rp00100.tif', 5);
  write(dir, 'inuncoast_rcp8p5_nosub_2050_rp0100_0.tif', 7);
  write(dir, 'inuncoast_rcp8p5_wtsub_2050_rp0100_0.tif', 8);
  const scan = scanPublishedDirectory(dir);
  assert.deepEqual(scan.errors, []);
  const ds = new PublishedDatasets([{ id: 1, name: 'T', directory: dir, files: scan.files, registeredAt: 0 }]);
  const at = (sc: '26' | '45' | '85' | null, year: number, lat = 23.5, lng = 91.5) =>
    Object.fromEntries(ds.lookup(lat, lng, sc, year).map((h) => [h.entry.hazard, [h.value, h.entry.label]]));
  assert.deepEqual(at(null, 2020).river_flood, [1, 'T (river, historical, WATCH)']);
  assert.deepEqual(at('85', 2040).river_flood, [2, 'T (river, RCP8.5, 2030, NorESM1-M)']);
  assert.deepEqual(at('85', 2055).river_flood, [4.5, 'T (river, RCP8.5, 2080, mean of 2 models)'], 'tie 2030/2080 at 2055: the later; two models averaged');
  assert.equal(at('26', 2050).river_flood![1], 'T (river, RCP8.5, 2030, NorESM1-M)', 'no RCP4.5 registered: the other RCP');
  assert.deepEqual(at('85', 2050).storm_surge, [8, 'T (coast, RCP8.5, 2050, with subsidence, SLR p95)']);
  assert.equal(at(null, 2020).storm_surge![0], 8, 'no historical coastal map registered: the nearest registered set (RCP8.5 2050)');
  assert.deepEqual(at('85', 2050, 24.5, 89.5), {}, 'nodata pixel: not covered');
  assert.deepEqual(at('85', 2050, 30, 91.5), {}, 'outside the grid');

  // read ahead: the synchronous lookup then reads no file
  const cache = new BlockCache(1_000_000);
  const fresh = new PublishedDatasets([{ id: 1, name: 'T', directory: dir, files: scan.files, registeredAt: 0 }], cache);
  await fresh.prefetch([{ latitude: 23.5, longitude: 91.5 }], [{ scenario: '85', year: 2050 }]);
  const reads = cache.reads;
  assert.ok(reads > 0);
  assert.equal(fresh.lookup(23.5, 91.5, '85', 2050).length, 2);
  assert.equal(cache.reads, reads, 'no block read on the synchronous path after prefetch');

  // the point answer: the published map over the built-in layer, and a company's own layer over both
  const l = loadHazardLayers();
  const opts = { analysisType: 'ssp' as const, scenario: '85' as const, year: 2030 };
  const p = l.samplePoint(23.5, 91.5, opts, null, ds).river_flood;
  assert.deepEqual([p.value, p.tier], [2, 'published dataset']);
  const own = new ByoRegistry();
  const data = new Float32Array(16).fill(0.5);
  const buf = writeArrayBuffer(data, {
    width: 4,
    height: 4,
    BitsPerSample: [32],
    SampleFormat: [3],
    SamplesPerPixel: 1,
    ModelPixelScale: [1, 1, 0],
    ModelTiepoint: [0, 0, 0, 89, 25, 0],
    GeographicTypeGeoKey: 4326,
  });
  own.add(await readGeoTiffLayer(Buffer.from(buf), { id: 'own-1', hazard: 'river_flood', returnPeriodYears: 100, label: 'My study' }));
  const both = l.samplePoint(23.5, 91.5, opts, own, ds).river_flood;
  assert.deepEqual([both.value, both.tier], [0.5, 'own data']);
});
