import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import proj4 from 'proj4';
import { typedGeoTiff } from './support/geotiff.js';
import { netcdfClassic } from './support/netcdf.js';
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

  test('NetCDF (CF): the chosen variable and time slice, scale_factor, _FillValue, latitude running south to north', async () => {
    const b = await registerAndLogin(s.api);
    const lats = Array.from({ length: 20 }, (_, i) => 21.0 + i * 0.05); // south to north, cell centres
    const lons = Array.from({ length: 30 }, (_, j) => 113.5 + j * 0.05);
    // depth (cm as short, scale_factor 0.01 → m) at time t, latitude index i, longitude index j: (1000 t + 30 i + j) cm
    const depth = new Int16Array(3 * 20 * 30);
    for (let t = 0; t < 3; t++)
      for (let i = 0; i < 20; i++) for (let j = 0; j < 30; j++) depth[(t * 20 + i) * 30 + j] = t === 0 && i === 0 && j === 0 ? -999 : t * 1000 + i * 30 + j;
    const nc = netcdfClassic({
      dims: { time: 3, lat: 20, lon: 30 },
      globalAttrs: { Conventions: 'CF-1.8' },
      vars: [
        { name: 'time', dims: ['time'], type: 'double', values: [0, 365, 730], attrs: { units: 'days since 2050-01-01' } },
        { name: 'lat', dims: ['lat'], type: 'float', values: lats, attrs: { standard_name: 'latitude', units: 'degrees_north' } },
        { name: 'lon', dims: ['lon'], type: 'float', values: lons, attrs: { standard_name: 'longitude', units: 'degrees_east' } },
        { name: 'depth', dims: ['time', 'lat', 'lon'], type: 'short', values: depth, attrs: { units: 'm', scale_factor: 0.01, _FillValue: -999 } },
        { name: 'depth_upper', dims: ['time', 'lat', 'lon'], type: 'short', values: depth, attrs: { units: 'm', scale_factor: 0.001 } },
      ],
    });
    const fields = { hazard: 'river_flood', return_period_years: '100' };
    // two gridded variables: which one must be said
    const which = await upload(b, fields, { filename: 'flood.nc', data: nc });
    assert.equal(which.status, 400, JSON.stringify(which.body));
    assert.match(which.body.detail, /^variable: 'flood\.nc' was refused: The file has 2 gridded variables \(depth, depth_upper\); say which one/);
    const unknown = await upload(b, { ...fields, variable: 'rain' }, { filename: 'flood.nc', data: nc });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /no variable "rain"; its gridded variables are depth, depth_upper/);
    const noSlice = await upload(b, { ...fields, variable: 'depth', band: '4' }, { filename: 'flood.nc', data: nc });
    assert.equal(noSlice.status, 400);
    assert.match(noSlice.body.detail, /^band: .*has 3 slices along time \(3\); band must be from 1 to 3 \(sent 4\)/);

    const res = await upload(b, { ...fields, variable: 'depth', band: '2', label: 'NetCDF depth, 2051' }, { filename: 'flood.nc', data: nc });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.layer.crs, 'EPSG:4326');
    assert.equal(res.body.layer.valid_pixels, 600, 'time slice 2 has no fill value');
    close(res.body.layer.value_min, 10, 'smallest depth of slice 2 (1000 cm)');
    close(res.body.layer.value_max, 10 + 5.99, 'largest depth of slice 2 (1599 cm)');
    for (const [i, j] of [
      [0, 0],
      [5, 12],
      [19, 29],
    ] as const) {
      const p = { latitude: lats[i]!, longitude: lons[j]! };
      const metres = (1000 + 30 * i + j) / 100;
      const point = await pointValue(b, 'river_flood', p);
      assert.equal(point.tier, 'own data', JSON.stringify(point));
      close(point.value, metres, `NetCDF point API at lat index ${i}, lon index ${j}`);
      close((await postedIntensity(b, 'river_flood', p)).intensity, metres, `NetCDF posted asset at lat index ${i}, lon index ${j}`);
    }

    // slice 1 has the fill value at the south-west corner: not a value
    const first = await upload(b, { ...fields, scenario: '45', variable: 'depth', band: '1' }, { filename: 'flood_2050.nc', data: nc });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.layer.valid_pixels, 599);

    // a header declaring 10^10 pixels in a file of a few hundred bytes: refused from the header, nothing allocated
    const huge = netcdfClassic({
      dims: { lat: 100_000, lon: 100_000 },
      vars: [
        { name: 'lat', dims: ['lat'], type: 'float', values: [1, 2], attrs: { units: 'degrees_north' } },
        { name: 'lon', dims: ['lon'], type: 'float', values: [1, 2], attrs: { units: 'degrees_east' } },
        { name: 'depth', dims: ['lat', 'lon'], type: 'float', values: [1] },
      ],
    });
    const started = Date.now();
    const bomb = await upload(b, { ...fields, year: '2040' }, { filename: 'huge.nc', data: huge });
    assert.equal(bomb.status, 400, JSON.stringify(bomb.body));
    assert.match(bomb.body.detail, /100000 × 100000 = 10,000,000,000 pixels; the limit is/);
    assert.ok(Date.now() - started < 5000, `refused in ${Date.now() - started} ms`);

    // a NetCDF-4 (HDF5) file: named, with the way to convert it
    const hdf5 = Buffer.concat([Buffer.from('\x89HDF\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]);
    const h = await upload(b, { ...fields, year: '2030' }, { filename: 'flood4.nc', data: hdf5 });
    assert.equal(h.status, 400);
    assert.match(h.body.detail, /NetCDF-4 \(HDF5\), which is not read; convert it to the classic format \(`nccopy -k classic/);
  });

  test('a 3-band GeoTIFF: the band chosen is read; a band the file does not have is a 400 naming band', async () => {
    const c = await registerAndLogin(s.api);
    const g = { x0: 103.6, y0: 1.5, res: 0.01 };
    const tif = typedGeoTiff({
      width: 30,
      height: 30,
      ...g,
      type: 'float32',
      bands: 3,
      value: (col, _r, band) => (band + 1) * 10 + col / 100,
      epsg: 4326,
      projected: false,
    });
    const fields = { hazard: 'river_flood', return_period_years: '100' };
    const four = await upload(c, { ...fields, band: '4' }, { filename: 'three.tif', data: tif });
    assert.equal(four.status, 400);
    assert.ok(four.body.errors.some((e: { field: string }) => e.field === 'band'));
    assert.match(four.body.detail, /^band: 'three\.tif' was refused: The raster has 3 bands; band must be from 1 to 3 \(sent 4\)/);
    const zero = await upload(c, { ...fields, band: '0' }, { filename: 'three.tif', data: tif });
    assert.equal(zero.status, 400);
    assert.match(zero.body.detail, /band must be a whole number from 1/);
    const res = await upload(c, { ...fields, band: '3' }, { filename: 'three.tif', data: tif });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    for (const col of [0, 17, 29]) {
      const p = centre(g.x0, g.y0, g.res, col, 11);
      close((await pointValue(c, 'river_flood', p)).value, 30 + col / 100, `band 3 at column ${col}`);
      close((await postedIntensity(c, 'river_flood', p)).intensity, 30 + col / 100, `posted, band 3 at column ${col}`);
    }
    // the default band is 1
    const one = await upload(c, { ...fields, scenario: '85' }, { filename: 'three.tif', data: tif });
    assert.equal(one.status, 201, JSON.stringify(one.body));
    close(one.body.layer.value_max, 10.29, 'band 1');
  });

  test('truncated files: a 400 naming the file and saying it is truncated', async () => {
    const d = await registerAndLogin(s.api);
    const tif = typedGeoTiff({ width: 50, height: 50, x0: 114, y0: 22.5, res: 0.01, type: 'float32', bands: 1, value: () => 1, epsg: 4326, projected: false });
    const nc = netcdfClassic({
      dims: { lat: 40, lon: 40 },
      vars: [
        { name: 'lat', dims: ['lat'], type: 'double', values: Array.from({ length: 40 }, (_, i) => 22.5 - i * 0.01), attrs: { units: 'degrees_north' } },
        { name: 'lon', dims: ['lon'], type: 'double', values: Array.from({ length: 40 }, (_, i) => 114 + i * 0.01), attrs: { units: 'degrees_east' } },
        { name: 'depth', dims: ['lat', 'lon'], type: 'float', values: new Float32Array(1600).fill(1) },
      ],
    });
    const fields = { hazard: 'river_flood', return_period_years: '100' };
    for (const [filename, data, re] of [
      ['half.tif', tif.subarray(0, Math.floor(tif.length / 2)), /header points to data up to byte 10,\d{3}/],
      ['header_only.tif', tif.subarray(0, 100), /The file is truncated/],
      ['half.nc', nc.subarray(0, Math.floor(nc.length / 2)), /The file is truncated/],
      ['header_only.nc', nc.subarray(0, 60), /The file is truncated/],
    ] as const) {
      const res = await upload(d, fields, { filename, data: Buffer.from(data) });
      assert.equal(res.status, 400, `${filename}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.detail.startsWith(`file: '${filename}' was refused: The file is truncated: it ends after ${data.length.toLocaleString('en-US')} bytes`),
        `${filename}: ${res.body.detail}`,
      );
      assert.match(res.body.detail, re, filename);
      assert.match(res.body.detail, /interrupted download or copy/);
      assert.doesNotMatch(res.body.detail, /DataView|Offset is outside/);
    }
  });
});
