import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import { loadHazardLayers, addToByoCatalog } from '../src/index.js';

/** A small EPSG:4326 float GeoTIFF over Hong Kong (113.8-114.5E, 22.1-22.6N, 0.1°) with a nodata hole. */
function writeTiff(dir: string, name: string, value: number): string {
  const width = 7, height = 5;
  const data = new Float32Array(width * height).fill(value);
  data[0] = -9999; // north-west corner pixel is nodata
  const buf = writeArrayBuffer(data, {
    width, height, BitsPerSample: [32], SampleFormat: [3], SamplesPerPixel: 1,
    ModelPixelScale: [0.1, 0.1, 0], ModelTiepoint: [0, 0, 0, 113.8, 22.6, 0], GeographicTypeGeoKey: 4326, GDAL_NODATA: '-9999',
  });
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(buf));
  return path;
}

test('a registered GeoTIFF replaces the built-in value where it covers the point, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'byo-'));
  const l = loadHazardLayers();
  const builtIn = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood;
  await l.registerGeoTiff({ id: 'test-rf-100', hazard: 'river_flood', returnPeriodYears: 100, scenario: '85', year: 2050, file: writeTiff(dir, 'rf100.tif', 1.5), label: 'Test flood 100-yr' });
  await l.registerGeoTiff({ id: 'test-rf-10', hazard: 'river_flood', returnPeriodYears: 10, scenario: '85', year: 2050, file: writeTiff(dir, 'rf10.tif', 0.6), label: 'Test flood 10-yr' });
  const r = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood;
  assert.equal(r.value, 1.5);
  assert.deepEqual(r.return_periods, { returnPeriodsYears: [10, 100], intensities: [0.6, 1.5] });
  assert.match(r.source, /bring-your-own/);
  assert.equal(r.band, 'High');
  // another scenario: not covered by the registered layers → built-in
  const other = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '26', year: 2050 }).river_flood;
  assert.match(other.source, /^built-in/);
  // outside the raster → built-in; inside the nodata pixel → built-in
  assert.match(l.samplePoint(30, 114.17, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood.source, /^built-in/);
  assert.match(l.samplePoint(22.58, 113.82, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood.source, /^built-in/);
  assert.equal(builtIn.source.startsWith('built-in'), true);
  assert.ok(l.catalog().some((e) => e.kind === 'byo' && e.layer === 'test-rf-100'));
});

test('BYO catalogue file (HAZARD_BYO_CATALOG) is read with paths relative to it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'byo-cat-'));
  writeTiff(dir, 'heat.tif', 41.5);
  const cat = join(dir, 'catalog.json');
  process.env.HAZARD_BYO_CATALOG = cat;
  try {
    addToByoCatalog({ id: 'hk-heat', hazard: 'extreme_heat', file: 'heat.tif', label: 'User heat layer', license: 'test' });
    addToByoCatalog({ id: 'hk-heat', hazard: 'extreme_heat', file: 'heat.tif', label: 'User heat layer v2', license: 'test' });
    assert.equal(JSON.parse(readFileSync(cat, 'utf8')).length, 1);
    const l = loadHazardLayers();
    assert.equal(await l.loadByoCatalog(), 1);
    const v = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '45', year: 2080 }).extreme_heat;
    assert.equal(v.value, 41.5);
    assert.match(v.source, /User heat layer v2/);
    assert.throws(() => addToByoCatalog({ id: 'x', hazard: 'nope' as never, file: 'a.tif' }));
  } finally {
    delete process.env.HAZARD_BYO_CATALOG;
  }
});

test('the fast path (sampleCurves) applies BYO return-period layers on the engine curve', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'byo-fast-'));
  const l = loadHazardLayers();
  await l.registerGeoTiff({ id: 'surge-10', hazard: 'storm_surge', returnPeriodYears: 10, file: writeTiff(dir, 's10.tif', 0.5) });
  await l.registerGeoTiff({ id: 'surge-100', hazard: 'storm_surge', returnPeriodYears: 100, file: writeTiff(dir, 's100.tif', 2.5) });
  const out = l.sampleCurves(22.3, 114.17, { analysisType: 'ssp', scenario: '45', year: 2030 });
  const N = 9, ci = 1; // storm_surge is curve 1, RPS = 2,5,10,25,50,100,250,500,1000
  assert.equal(out.curves[ci * N + 2], 0.5);
  assert.equal(out.curves[ci * N + 5], 2.5);
  assert.ok(out.curves[ci * N + 3]! > 0.5 && out.curves[ci * N + 3]! < 2.5);
  assert.equal(out.curves[ci * N + 8], 2.5);
  assert.ok(out.scores[2]! >= 75);
});
