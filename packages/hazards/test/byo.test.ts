import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import { loadHazardLayers, addToByoCatalog, readGeoTiffLayer, ByoRegistry, OwnLayerError } from '../src/index.js';

/** A small EPSG:4326 float GeoTIFF over Hong Kong (113.8-114.5E, 22.1-22.6N, 0.1°) with a nodata hole. */
function writeTiff(dir: string, name: string, value: number): string {
  const width = 7,
    height = 5;
  const data = new Float32Array(width * height).fill(value);
  data[0] = -9999; // north-west corner pixel is nodata
  const buf = writeArrayBuffer(data, {
    width,
    height,
    BitsPerSample: [32],
    SampleFormat: [3],
    SamplesPerPixel: 1,
    ModelPixelScale: [0.1, 0.1, 0],
    ModelTiepoint: [0, 0, 0, 113.8, 22.6, 0],
    GeographicTypeGeoKey: 4326,
    GDAL_NODATA: '-9999',
  });
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(buf));
  return path;
}

test('a registered GeoTIFF replaces the built-in value where it covers the point, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'byo-'));
  const l = loadHazardLayers();
  const builtIn = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood;
  await l.registerGeoTiff({
    id: 'test-rf-100',
    hazard: 'river_flood',
    returnPeriodYears: 100,
    scenario: '85',
    year: 2050,
    file: writeTiff(dir, 'rf100.tif', 1.5),
    label: 'Test flood 100-yr',
  });
  await l.registerGeoTiff({
    id: 'test-rf-10',
    hazard: 'river_flood',
    returnPeriodYears: 10,
    scenario: '85',
    year: 2050,
    file: writeTiff(dir, 'rf10.tif', 0.6),
    label: 'Test flood 10-yr',
  });
  const r = l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '85', year: 2050 }).river_flood;
  assert.equal(r.value, 1.5);
  assert.deepEqual(r.return_periods, { returnPeriodsYears: [10, 100], intensities: [0.6, 1.5] });
  assert.match(r.source, /^own data: Test flood/);
  assert.equal(r.tier, 'own data');
  assert.doesNotMatch(JSON.stringify(r), /\/tmp|byo-/, 'no server path in the answer');
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
    assert.deepEqual(await l.loadByoCatalog(), { loaded: 1, skipped: [] });
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
  const N = 9,
    ci = 1; // storm_surge is curve 1, RPS = 2,5,10,25,50,100,250,500,1000
  assert.equal(out.curves[ci * N + 2], 0.5);
  assert.equal(out.curves[ci * N + 5], 2.5);
  assert.ok(out.curves[ci * N + 3]! > 0.5 && out.curves[ci * N + 3]! < 2.5);
  assert.equal(out.curves[ci * N + 8], 2.5);
  assert.ok(out.scores[2]! >= 75);
});

/** A float GeoTIFF in any CRS: origin (x0, y0) top-left and pixel size in CRS units. */
function tiffBytes(o: {
  width: number;
  height: number;
  x0: number;
  y0: number;
  res: number;
  fill: number | ((col: number, row: number) => number);
  geo: Record<string, number>;
  nodata?: string;
}): Uint8Array {
  const data = new Float32Array(o.width * o.height);
  for (let r = 0; r < o.height; r++) for (let c = 0; c < o.width; c++) data[r * o.width + c] = typeof o.fill === 'number' ? o.fill : o.fill(c, r);
  return new Uint8Array(
    writeArrayBuffer(data, {
      width: o.width,
      height: o.height,
      BitsPerSample: [32],
      SampleFormat: [3],
      SamplesPerPixel: 1,
      ModelPixelScale: [o.res, o.res, 0],
      ModelTiepoint: [0, 0, 0, o.x0, o.y0, 0],
      ...o.geo,
      ...(o.nodata ? { GDAL_NODATA: o.nodata } : {}),
    }),
  );
}

test('EPSG:3857 and UTM rasters are read through their GeoKeys and sampled at the right pixel', async () => {
  // Web Mercator: 114.17E, 22.3N is x = 12,709,297 m, y = 2,547,843 m (spherical Mercator, R = 6,378,137 m)
  const R = 6378137,
    x = ((114.17 * Math.PI) / 180) * R,
    y = R * Math.log(Math.tan(Math.PI / 4 + (22.3 * Math.PI) / 180 / 2));
  const merc = await readGeoTiffLayer(
    tiffBytes({ width: 10, height: 10, x0: x - 5000, y0: y + 5000, res: 1000, fill: (c) => c, geo: { ProjectedCSTypeGeoKey: 3857, GTModelTypeGeoKey: 1 } }),
    { id: 'm', hazard: 'typhoon', returnPeriodYears: 100 },
  );
  assert.equal(merc.crs, 'EPSG:3857');
  assert.ok(Math.abs(merc.bounds.west - 114.125) < 0.01 && Math.abs(merc.bounds.east - 114.215) < 0.01, JSON.stringify(merc.bounds));
  const reg = new ByoRegistry();
  reg.add(merc);
  assert.equal(reg.lookup(22.3, 114.17, '45', 2050)[0]?.value, 5, 'the point is in column 5');
  assert.equal(reg.lookup(22.3, 114.3, '45', 2050).length, 0, 'outside');
  // UTM zone 50N (EPSG:32650): central meridian 117E; 114.17E, 22.3N is about x = 208,850 m, y = 2,469,600 m
  const utm = await readGeoTiffLayer(
    tiffBytes({ width: 20, height: 20, x0: 190_000, y0: 2_480_000, res: 1000, fill: (c, r) => r, geo: { ProjectedCSTypeGeoKey: 32650, GTModelTypeGeoKey: 1 } }),
    { id: 'u', hazard: 'river_flood', returnPeriodYears: 100 },
  );
  assert.equal(utm.crs, 'EPSG:32650');
  const reg2 = new ByoRegistry();
  reg2.add(utm);
  const hit = reg2.lookup(22.3, 114.17, '45', 2050)[0];
  assert.ok(hit && hit.value >= 9 && hit.value <= 11, `row about 10 (${hit?.value})`);
});

test('bad rasters are refused with the reason: a vertical CRS, garbage, out of range, all nodata, wrong unit', async () => {
  const ok = { width: 4, height: 4, x0: 114, y0: 22.5, res: 0.1, fill: 1, geo: { GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2 } };
  const refuse = async (bytes: Uint8Array, entry: Parameters<typeof readGeoTiffLayer>[1], re: RegExp) => {
    await assert.rejects(readGeoTiffLayer(bytes, entry), (err: unknown) => err instanceof OwnLayerError && re.test(err.message));
  };
  await refuse(
    tiffBytes({ ...ok, geo: { ProjectedCSTypeGeoKey: 5703, GTModelTypeGeoKey: 1 } }),
    { id: 'a', hazard: 'extreme_heat' },
    /EPSG:5703\) is not supported/,
  );
  await refuse(new TextEncoder().encode('latitude,longitude\n1,2\n'), { id: 'b', hazard: 'extreme_heat' }, /not a GeoTIFF/);
  await refuse(tiffBytes({ ...ok, fill: 400 }), { id: 'c', hazard: 'extreme_heat' }, /outside the plausible range of extreme_heat/);
  await refuse(tiffBytes({ ...ok, fill: -9999, nodata: '-9999' }), { id: 'd', hazard: 'extreme_heat' }, /Every pixel is nodata/);
  await refuse(tiffBytes({ ...ok }), { id: 'e', hazard: 'extreme_heat', unit: 'furlongs' }, /unit "furlongs" is not accepted/);
  await refuse(tiffBytes({ ...ok, x0: 300 }), { id: 'f', hazard: 'extreme_heat' }, /outside the world/);
  // a unit conversion: centimetres of flood depth are stored as metres
  const cm = await readGeoTiffLayer(tiffBytes({ ...ok, fill: 150 }), { id: 'g', hazard: 'river_flood', returnPeriodYears: 100, unit: 'cm' });
  assert.equal(cm.max, 1.5);
});

test('a bad catalogue entry is skipped with its reason; the good ones load', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'byo-bad-'));
  writeTiff(dir, 'heat.tif', 41.5);
  writeFileSync(join(dir, 'broken.tif'), 'not a tiff');
  const cat = join(dir, 'catalog.json');
  writeFileSync(
    cat,
    JSON.stringify([
      { id: 'missing', hazard: 'extreme_heat', file: 'nope.tif' },
      { id: 'broken', hazard: 'extreme_heat', file: 'broken.tif' },
      { id: 'good', hazard: 'extreme_heat', file: 'heat.tif', label: 'Good heat' },
    ]),
  );
  const l = loadHazardLayers();
  const r = await l.loadByoCatalog(cat);
  assert.equal(r.loaded, 1);
  assert.deepEqual(
    r.skipped.map((s) => s.id),
    ['missing', 'broken'],
  );
  assert.ok(
    r.skipped.every((s) => !s.reason.includes(dir)),
    'no server path in the reasons',
  );
  assert.equal(l.samplePoint(22.3, 114.17, { analysisType: 'ssp', scenario: '45', year: 2080 }).extreme_heat.value, 41.5);
  assert.doesNotMatch(JSON.stringify(l.catalog().filter((e) => e.kind === 'byo')), new RegExp(dir.replaceAll('/', '\\/')));
});
