import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import proj4 from 'proj4';
import { typedGeoTiff } from './support/geotiff.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Own hazard layers as GIS tools write them (issue 38 item 4), through the real server: the layers are written byte
 * by byte by the test, uploaded, and read back at known points through the point API and a posted-asset analysis.
 */
const require = createRequire(import.meta.url);
/** The EPSG registry's proj4 definition of a code, as the epsg-index package carries it. */
const epsgProj4 = (code: number) => (require(`epsg-index/s/${code}.json`) as { proj4: string }).proj4;

type Login = Awaited<ReturnType<typeof registerAndLogin>>;

/** The centre of pixel (col, row) of a geographic grid: top-left (x0, y0), pixel size res degrees. */
const centre = (x0: number, y0: number, res: number, col: number, row: number) => ({ longitude: x0 + (col + 0.5) * res, latitude: y0 - (row + 0.5) * res });

describe('own layers: scale and offset, CRSs of the EPSG registry, bands, NetCDF, truncated files', () => {
  let s: TestServer;
  let a: Login;
  before(async () => {
    s = await startServer({ LOG_LEVEL: 'warn' });
    a = await registerAndLogin(s.api);
  });
  after(() => s.close());

  const upload = (login: Login, fields: Record<string, string>, file: { filename: string; data: Buffer }) =>
    s.api.post('/api/v2/own_layers/', { token: login.token, multipart: { ...fields, file } });
  const pointValue = async (login: Login, hazard: string, p: { latitude: number; longitude: number }) => {
    const res = await s.api.get(`/api/v2/hazard/point/?latitude=${p.latitude}&longitude=${p.longitude}&scenario=45&year=2050`, { token: login.token });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    return res.body.hazards[hazard] as { value: number; tier: string; source: string };
  };
  const postedIntensity = async (login: Login, hazard: string, p: { latitude: number; longitude: number }) => {
    const asset = { name: 'Site', ...p, property_type: 'Office', valuation: 1e8 };
    const res = await s.api.post('/api/v2/asset_results/', {
      token: login.token,
      json: { assets: [asset], hazards: [hazard], scenarios: ['45'], years: [2050] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    return res.body.results[0] as { intensity: number; data_tier: string; own_data_layer: string | null };
  };
  const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual} ≠ ${expected}`);

  test('GDAL scale and offset are applied: an Int16 layer × 0.1 and a UInt8 layer + offset', async () => {
    // river flood depth, 100-year: stored 10 + column as Int16 with scale 0.1 (so 17 at column 7 is 1.7 m, not 17 m)
    const flood = { x0: 114.0, y0: 22.5, res: 0.02 };
    const int16 = typedGeoTiff({
      width: 20,
      height: 20,
      ...flood,
      type: 'int16',
      bands: 1,
      value: (c, r) => (r === 19 ? -32768 : 10 + c),
      epsg: 4326,
      projected: false,
      nodata: -32768,
      scaleOffset: [{ scale: 0.1, offset: 0 }],
    });
    const res = await upload(a, { hazard: 'river_flood', return_period_years: '100', label: 'Scaled depth' }, { filename: 'depth_int16.tif', data: int16 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    close(res.body.layer.value_min, 1.0, 'smallest depth (10 × 0.1)');
    close(res.body.layer.value_max, 2.9, 'largest depth (29 × 0.1)');
    assert.equal(res.body.layer.valid_pixels, 20 * 19, 'the nodata row (raw −32768, compared before scaling) is left out');
    for (const [col, row, metres] of [
      [7, 3, 1.7],
      [0, 10, 1.0],
      [19, 18, 2.9],
    ] as const) {
      const p = centre(flood.x0, flood.y0, flood.res, col, row);
      const point = await pointValue(a, 'river_flood', p);
      assert.equal(point.tier, 'own data');
      close(point.value, metres, `point API, column ${col}`);
      const posted = await postedIntensity(a, 'river_flood', p);
      assert.equal(posted.data_tier, 'own data');
      close(posted.intensity, metres, `posted asset, column ${col}`);
    }
    // the nodata row: not own data
    assert.notEqual((await pointValue(a, 'river_flood', centre(flood.x0, flood.y0, flood.res, 7, 19))).tier, 'own data');

    // extreme heat (°C): UInt8 with an offset of 20 (and no scale), so the stored 20 + row is 40 + row °C
    const heat = { x0: -3.9, y0: 40.6, res: 0.05 };
    const uint8 = typedGeoTiff({
      width: 10,
      height: 10,
      ...heat,
      type: 'uint8',
      bands: 1,
      value: (_c, r) => 20 + r,
      epsg: 4326,
      projected: false,
      scaleOffset: [{ offset: 20 }],
    });
    const h = await upload(a, { hazard: 'extreme_heat', label: 'Offset heat' }, { filename: 'heat_uint8.tif', data: uint8 });
    assert.equal(h.status, 201, JSON.stringify(h.body));
    for (const row of [0, 4, 9]) {
      const p = centre(heat.x0, heat.y0, heat.res, 5, row);
      close((await pointValue(a, 'extreme_heat', p)).value, 40 + row, `heat at row ${row}`);
      close((await postedIntensity(a, 'extreme_heat', p)).intensity, 40 + row, `posted heat at row ${row}`);
    }
  });

  test('a scale that takes values out of the plausible range is refused naming the scale', async () => {
    const tif = typedGeoTiff({
      width: 4,
      height: 4,
      x0: 10,
      y0: 50,
      res: 0.1,
      type: 'int16',
      bands: 1,
      value: () => 30,
      epsg: 4326,
      projected: false,
      scaleOffset: [{ scale: 10 }],
    });
    const res = await upload(a, { hazard: 'storm_surge', return_period_years: '100' }, { filename: 'surge.tif', data: tif });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.detail, /outside the plausible range of storm_surge .*e\.g\. 300 m.*the file's scale \(10\) and offset \(0\)/);
  });

  /**
   * A depth layer of 100 m pixels in a projected CRS whose value tells its pixel (row + column / 100), the point at the
   * centre of pixel (20, 20) and a few more; the expected pixels come from the CRS's own definition in the test, so a
   * datum shift left out (100-300 m in both grids) lands in another pixel and fails.
   */
  async function projectedLayer(code: number, def: string, at: { latitude: number; longitude: number }, hazardFields: Record<string, string>) {
    const toGrid = proj4('EPSG:4326', def);
    const [x, y] = toGrid.forward([at.longitude, at.latitude]) as [number, number];
    const res = 100;
    const x0 = x - 20.5 * res,
      y0 = y + 20.5 * res;
    const tif = typedGeoTiff({ width: 40, height: 40, x0, y0, res, type: 'float32', bands: 1, value: (c, r) => r + c / 100, epsg: code, projected: true });
    const up = await upload(a, { ...hazardFields, label: `EPSG:${code} layer` }, { filename: `grid_${code}.tif`, data: tif });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.layer.crs, `EPSG:${code}`);
    for (const [col, row] of [
      [20, 20],
      [3, 35],
      [36, 2],
    ] as const) {
      const [lng, lat] = toGrid.inverse([x0 + (col + 0.5) * res, y0 - (row + 0.5) * res]) as [number, number];
      const p = { latitude: lat, longitude: lng };
      const point = await pointValue(a, 'river_flood', p);
      assert.equal(point.tier, 'own data', `EPSG:${code} (${col}, ${row}): ${JSON.stringify(point)}`);
      close(point.value, row + col / 100, `EPSG:${code} point API at column ${col}, row ${row}`);
      close((await postedIntensity(a, 'river_flood', p)).intensity, row + col / 100, `EPSG:${code} posted asset at column ${col}, row ${row}`);
    }
  }

  test('EPSG:2326 (Hong Kong 1980 Grid) and EPSG:27700 (British National Grid) layers read at known points', async () => {
    // Hong Kong 1980 Grid: the registry's definition carries its 7-parameter shift to WGS 84
    await projectedLayer(2326, epsgProj4(2326), { latitude: 22.3, longitude: 114.17 }, { hazard: 'river_flood', year: '2050', return_period_years: '100' });
    // British National Grid: the registry shifts OSGB36 with the OSTN15 grid (not shipped); the expected pixels use the
    // EPSG's 7-parameter transformation OSGB36 to WGS 84 (EPSG:1314), which the reader falls back to
    const bng = epsgProj4(27700).replace(/\s*\+nadgrids=\S+/, ' +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489');
    await projectedLayer(27700, bng, { latitude: 51.5072, longitude: -0.1276 }, { hazard: 'river_flood', scenario: '45', return_period_years: '100' });
  });
});
