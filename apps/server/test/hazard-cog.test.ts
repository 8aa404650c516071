// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (hazard layers rendered as GeoTIFF: the database holds only the test's account).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fromArrayBuffer, fromUrl } from 'geotiff';
import { HAZARD_KEYS } from '@crp/contracts';
import { CURVE_HAZARDS, defaultHazardLayers, newCurveSample, RETURN_PERIODS_YEARS } from '@crp/hazards';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** Walks the TIFF structure by hand (TIFF 6.0): IFD offsets and each IFD's tile offsets, in file order. */
function tiffLayout(buf: Buffer): { ifds: { at: number; subfile: number; width: number; tileOffsets: number[]; tileWidth: number }[] } {
  assert.equal(buf.toString('latin1', 0, 2), 'II');
  assert.equal(buf.readUInt16LE(2), 42, 'classic TIFF');
  const ifds = [];
  for (let at = buf.readUInt32LE(4); at;) {
    const n = buf.readUInt16LE(at);
    const tags = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      const p = at + 2 + i * 12;
      const tag = buf.readUInt16LE(p),
        type = buf.readUInt16LE(p + 2),
        count = buf.readUInt32LE(p + 4);
      const size = type === 3 ? 2 : type === 4 ? 4 : type === 12 ? 8 : 1;
      const base = count * size > 4 ? buf.readUInt32LE(p + 8) : p + 8;
      const vals: number[] = [];
      if (type === 3 || type === 4) for (let k = 0; k < count; k++) vals.push(type === 3 ? buf.readUInt16LE(base + 2 * k) : buf.readUInt32LE(base + 4 * k));
      tags.set(tag, vals);
    }
    ifds.push({ at, subfile: tags.get(254)?.[0] ?? 0, width: tags.get(256)![0]!, tileOffsets: tags.get(324) ?? [], tileWidth: tags.get(322)?.[0] ?? 0 });
    at = buf.readUInt32LE(at + 2 + n * 12);
  }
  return { ifds };
}

describe('hazard layers as Cloud-Optimised GeoTIFF', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
  });
  after(() => s.close());
  const get = async (path: string, token: string | undefined = owner.token) => {
    const res = await fetch(s.url + path, { headers: token ? { authorization: `Token ${token}` } : {} });
    return { res, buf: Buffer.from(await res.arrayBuffer()) };
  };

  test("river flood, 100-year, SSP5-8.5 2050 over South-East Asia: a tiled COG with overviews, EPSG:4326, nodata, the model's values", async () => {
    const { res, buf } = await get('/api/v2/hazard_layers/river_flood/cog/?analysis_type=ssp&scenario=85&year=2050&return_period=100&bbox=100,0,130,30');
    assert.equal(res.status, 200, buf.toString().slice(0, 300));
    assert.match(res.headers.get('content-type')!, /^image\/tiff/);
    const res_deg = Number(res.headers.get('x-cell-size-deg'));
    assert.ok(res_deg > 0 && res_deg <= 0.1, `native grid, got ${res_deg}`);

    // Structure, read by hand: IFDs first (all before any tile data), overviews reduced, smallest data first.
    const { ifds } = tiffLayout(buf);
    assert.ok(ifds.length >= 2, 'full resolution plus overview(s)');
    assert.equal(ifds[0]!.at, 8, 'the first IFD follows the header');
    const firstTile = Math.min(...ifds.flatMap((i) => i.tileOffsets));
    assert.ok(
      ifds.every((i) => i.at < firstTile),
      'every IFD before the tile data',
    );
    assert.equal(ifds[0]!.subfile, 0);
    assert.ok(
      ifds.slice(1).every((i) => i.subfile === 1),
      'overviews are reduced-resolution images',
    );
    assert.ok(
      ifds.every((i) => i.tileWidth === 256),
      'tiled 256',
    );
    for (let k = 1; k < ifds.length; k++) assert.equal(ifds[k]!.width, Math.ceil(ifds[k - 1]!.width / 2));
    assert.ok(Math.max(...ifds.at(-1)!.tileOffsets) < Math.min(...ifds[0]!.tileOffsets), 'overview data before full-resolution data');

    // Read with the geotiff package.
    const tiff = await fromArrayBuffer(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    assert.equal(await tiff.getImageCount(), ifds.length);
    const img = await tiff.getImage(0);
    assert.ok(img.isTiled);
    assert.equal(img.getTileWidth(), 256);
    const keys = img.getGeoKeys() as Record<string, number>;
    assert.equal(keys.GeographicTypeGeoKey, 4326);
    assert.equal(keys.GTModelTypeGeoKey, 2);
    assert.deepEqual(img.getOrigin().slice(0, 2), [100, 30]);
    assert.deepEqual(img.getResolution().slice(0, 2), [res_deg, -res_deg]);
    assert.equal(img.getGDALNoData(), -9999);
    assert.equal(img.getWidth(), Math.ceil(30 / res_deg - 1e-9));
    const [band] = (await img.readRasters()) as unknown as Float32Array[];

    // Each cell is the hazard model at the cell centre (no invented numbers): compare with @crp/hazards directly.
    const layers = await defaultHazardLayers();
    const ctx = layers.resolveScenario({ analysisType: 'ssp', scenario: '85', year: 2050 });
    const out = newCurveSample();
    const N = RETURN_PERIODS_YEARS.length,
      block = CURVE_HAZARDS.indexOf('river_flood'),
      rp = RETURN_PERIODS_YEARS.indexOf(100);
    let wet = 0;
    const w = img.getWidth(),
      h = img.getHeight();
    for (let k = 0; k < 400; k++) {
      const r = Math.floor((k * 7919) % h),
        c = Math.floor((k * 104729) % w);
      const v = layers.sampleCurves(30 - (r + 0.5) * res_deg, 100 + (c + 0.5) * res_deg, ctx, out).curves[block * N + rp]!;
      const got = band![r * w + c]!;
      if (Number.isNaN(v)) assert.equal(got, -9999, `cell ${r},${c} no data`);
      else {
        assert.equal(got, Math.fround(v), `cell ${r},${c}`);
        if (v > 0) wet++;
      }
    }
    assert.ok(wet > 0, 'some flooded cells in the sample');
    const ov = await tiff.getImage(1);
    assert.equal(ov.getWidth(), Math.ceil(w / 2));
  });

  test("a hazard without return period over the whole world comes at a coarser grid; the values are the model's indicator", async () => {
    const { res, buf } = await get('/api/v2/hazard_layers/extreme_heat/cog/?analysis_type=ssp&scenario=45&year=2050');
    assert.equal(res.status, 200, buf.toString().slice(0, 300));
    const tiff = await fromArrayBuffer(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    const img = await tiff.getImage(0);
    const resDeg = Number(res.headers.get('x-cell-size-deg'));
    assert.equal(img.getWidth() * resDeg, 360);
    assert.deepEqual(img.getBoundingBox(), [-180, -90, 180, 90]);
    // Hong Kong's warmest month is near 29 °C: read one pixel window
    const c = Math.floor((114.17 + 180) / resDeg),
      r = Math.floor((90 - 22.3) / resDeg);
    const [px] = (await img.readRasters({ window: [c, r, c + 1, r + 1] })) as unknown as Float32Array[];
    const layers = await defaultHazardLayers();
    const v = layers.sampleCurves(90 - (r + 0.5) * resDeg, -180 + (c + 0.5) * resDeg, { analysisType: 'ssp', scenario: '45', year: 2050 }).values[
      HAZARD_KEYS.indexOf('extreme_heat')
    ]!;
    assert.equal(px![0], Math.fround(v));
    assert.ok(v > 25 && v < 35, `Hong Kong warmest month ${v} °C`);
  });

  test('bad parameters answer 400 naming the field; no token 401', async () => {
    const field = async (path: string) => {
      const r = await s.api.get(path, { token: owner.token });
      assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
      return r.body.errors[0].field as string;
    };
    assert.equal(await field('/api/v2/hazard_layers/extreme_heat/cog/?return_period=100&bbox=0,0,10,10'), 'return_period');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?return_period=7&bbox=0,0,10,10'), 'return_period');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?bbox=10,0,0,10'), 'bbox');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?bbox=0,0,10'), 'bbox');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?bbox=0,0,10,10&res_deg=0.0001'), 'res_deg');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?res_deg=0.1'), 'res_deg');
    assert.equal(await field('/api/v2/hazard_layers/river_flood/cog/?year=2031&bbox=0,0,10,10'), 'year');
    assert.equal(await field('/api/v2/hazard_layers/volcano/cog/'), 'hazard');
    assert.equal((await get('/api/v2/hazard_layers/river_flood/cog/?bbox=0,0,1,1', '')).res.status, 401);
  });

  test('Range requests (issue 36 item 4): 206 with the bytes of the whole file, 416 past its end; rendered once, then answered from the cache', async () => {
    const path = '/api/v2/hazard_layers/river_flood/cog/?scenario=85&year=2050&return_period=250&bbox=100,0,120,20';
    const renders = s.app.services.cogFiles.renders;
    const range = (r: string, extra: Record<string, string> = {}) =>
      fetch(s.url + path, { headers: { authorization: `Token ${owner.token}`, range: r, ...extra } }).then(async (res) => ({
        res,
        buf: Buffer.from(await res.arrayBuffer()),
      }));
    // GDAL's first read: the header and IFDs
    const head = await range('bytes=0-4095');
    assert.equal(head.res.status, 206);
    const whole = await get(path);
    assert.equal(whole.res.status, 200);
    assert.equal(whole.res.headers.get('accept-ranges'), 'bytes');
    const size = whole.buf.byteLength;
    assert.ok(size > 8192, `a file larger than the first read (${size} bytes)`);
    assert.equal(head.res.headers.get('content-range'), `bytes 0-4095/${size}`);
    assert.deepEqual(head.buf, whole.buf.subarray(0, 4096));
    // a tile somewhere inside, the end of the file, a range past the end of the file
    const mid = await range(`bytes=${size >> 1}-${(size >> 1) + 999}`);
    assert.equal(mid.res.status, 206);
    assert.deepEqual(mid.buf, whole.buf.subarray(size >> 1, (size >> 1) + 1000));
    const tail = await range('bytes=-100');
    assert.equal(tail.res.headers.get('content-range'), `bytes ${size - 100}-${size - 1}/${size}`);
    assert.deepEqual(tail.buf, whole.buf.subarray(size - 100));
    const open = await range(`bytes=${size - 10}-`);
    assert.deepEqual(open.buf, whole.buf.subarray(size - 10));
    const past = await range(`bytes=${size}-${size + 10}`);
    assert.equal(past.res.status, 416);
    assert.equal(past.res.headers.get('content-range'), `bytes */${size}`);
    // If-Range with another file's validator: the whole (current) file
    const stale = await range('bytes=0-9', { 'if-range': '"another"' });
    assert.equal(stale.res.status, 200);
    assert.equal(stale.buf.byteLength, size);
    const fresh = await range('bytes=0-9', { 'if-range': whole.res.headers.get('etag')! });
    assert.equal(fresh.res.status, 206);
    assert.equal(s.app.services.cogFiles.renders - renders, 1, 'eight requests, one rendering');
    // the ranges read by a COG reader give the same raster as the whole file
    const viaRanges = await fromUrl(s.url + path, { headers: { authorization: `Token ${owner.token}` } } as never);
    const img = await viaRanges.getImage();
    const fromWhole = await (await fromArrayBuffer(whole.buf.buffer.slice(whole.buf.byteOffset, whole.buf.byteOffset + size))).getImage();
    assert.deepEqual(
      Array.from((await img.readRasters({ window: [0, 0, 40, 40] }))[0] as Float32Array),
      Array.from((await fromWhole.readRasters({ window: [0, 0, 40, 40] }))[0] as Float32Array),
    );
  });
});
