import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { ParseSandbox } from '../src/lib/parse-sandbox.js';
import { AppError } from '../src/lib/errors.js';
import { deflateBomb, lzwTableOverrun, lzwZeroRunBomb, singleStripTiff } from '../../../packages/hazards/test/tiff-hostile.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';
import { SHEET_HEAD, SHEET_TAIL, xlsxWith, type ZipEntry } from './support/zip.js';

/**
 * Issue 32: hostile files through the real server on a real database. Every file below must answer a 4xx (or a
 * bounded 201) within seconds, the server stays up, its memory stays under a bound, and another company's requests
 * keep being answered quickly while the hostile uploads run.
 *
 * The p95 bound (300 ms) is the product's goal for every user's request; on a quiet machine the innocent user's GET
 * answers in 5-20 ms. The test runs on a shared 2-core CI machine beside other test files (load 4-8): the parse
 * children run at nice 5 so the server's thread gets the cores first, and the request loop measures only what the
 * server adds (each request is a fresh authenticated GET of a small list, one at a time). A miss is a real stall of
 * the event loop (a synchronous parse or inflate in the server, which this issue removed), not noise: before the fix,
 * one deflate bomb blocked every user for 26 s.
 */
const MiB = 1_048_576;
/** Most the server's own RSS may grow during the test: the company budget (256 MB) loaded once, plus transit. */
const SERVER_RSS_GROWTH_MB = 700;

const rssMb = () => process.memoryUsage().rss / MiB;

/** A valid single-strip GeoTIFF of `side` × `side` uint8 pixels of value 1 (1 m of flood), deflated. */
const flatLayer = (side: number) =>
  singleStripTiff({
    width: side,
    height: side,
    bits: 8,
    sampleFormat: 1,
    compression: 8,
    strip: deflateSync(Buffer.alloc(side * side, 1), { level: 9 }),
    res: 0.0001,
  });

/** Forged IFDs: a directory that points at itself, one past the end of the file, strips past the end, 10^6 × 10^6 declared. */
function forgedIfds(): [string, Buffer][] {
  const base = () => singleStripTiff({ width: 16, height: 16, bits: 8, sampleFormat: 1, compression: 1, strip: Buffer.alloc(256, 1) });
  const loop = base();
  const n = loop.readUInt16LE(8);
  loop.writeUInt32LE(8, 10 + n * 12); // next IFD = this one
  const pastEnd = base();
  pastEnd.writeUInt32LE(0xfffffff0, 4);
  const field = (b: Buffer, tag: number) => {
    for (let i = 0; i < b.readUInt16LE(8); i++) if (b.readUInt16LE(10 + i * 12) === tag) return 10 + i * 12 + 8;
    throw new Error(`no tag ${tag}`);
  };
  const stripPastEnd = base();
  stripPastEnd.writeUInt32LE(0x7ffffff0, field(stripPastEnd, 273));
  const hugeCount = base();
  hugeCount.writeUInt32LE(0xfffffff0, field(hugeCount, 279));
  const huge = base();
  huge.writeUInt32LE(1_000_000, field(huge, 256));
  huge.writeUInt32LE(1_000_000, field(huge, 257));
  return [
    ['IFD loop', loop],
    ['IFD past the end', pastEnd],
    ['strip past the end', stripPastEnd],
    ['strip byte count of 4 GB', hugeCount],
    ['10^6 x 10^6 pixels', huge],
  ];
}

/**
 * A sheet entry whose XML inflates to `gib` GiB of asset rows, made without holding them: one MiB of rows deflated
 * with a full flush (byte-aligned, no back-reference across it) repeated. Its CRC is not computed (the reader refuses
 * it before any CRC check); `declaredSize` is the size its headers state.
 */
function sheetBomb(gib: number, declaredSize: number): ZipEntry {
  const row = '<row><c t="inlineStr"><is><t>Site</t></is></c><c><v>22.3</v></c><c><v>114.2</v></c></row>';
  const mib = Buffer.from(row.repeat(Math.ceil(MiB / row.length))).subarray(0, MiB);
  const head = deflateRawSync(Buffer.from(SHEET_HEAD), { finishFlush: constants.Z_FULL_FLUSH });
  const chunk = deflateRawSync(mib, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const tail = deflateRawSync(Buffer.from(SHEET_TAIL));
  const parts = [head, ...Array.from({ length: gib * 1024 }, () => chunk), tail];
  return { name: 'xl/worksheets/sheet1.xml', deflated: Buffer.concat(parts), size: declaredSize, crc: 0 };
}

describe('hostile files (issue 32): refused or bounded, the server alive and responsive', () => {
  let s: TestServer;
  let attacker: Awaited<ReturnType<typeof registerAndLogin>>;
  let hoarder: Awaited<ReturnType<typeof registerAndLogin>>;
  let innocent: Awaited<ReturnType<typeof registerAndLogin>>;
  let rp = 1;
  const upload = (token: string, filename: string, data: Buffer, returnPeriod = rp++) =>
    s.api.post('/api/v2/own_layers/', { token, multipart: { hazard: 'river_flood', return_period_years: String(returnPeriod), file: { filename, data } } });

  /** Another company's cheap authenticated GET, one after another, while `work` runs: latencies in ms. */
  async function whileMeasuring<T>(work: () => Promise<T>): Promise<{ out: T; latencies: number[]; peakRssMb: number }> {
    const latencies: number[] = [];
    let done = false;
    let peakRssMb = rssMb();
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb())), 100);
    const loop = (async () => {
      while (!done) {
        const t0 = performance.now();
        const res = await s.api.get('/api/v2/own_layers/', { token: innocent.token });
        latencies.push(performance.now() - t0);
        assert.equal(res.status, 200);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      const out = await work();
      return { out, latencies, peakRssMb };
    } finally {
      done = true;
      clearInterval(sampler);
      await loop;
    }
  }
  const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

  before(async () => {
    s = await startServer({ LOG_LEVEL: 'silent' });
    [attacker, hoarder, innocent] = [await registerAndLogin(s.api), await registerAndLogin(s.api), await registerAndLogin(s.api)];
    // a warm parse child, as after the first upload of a running server (its cold start is measured in decisions.md)
    const warm = await upload(attacker.token, 'warm-up.tif', flatLayer(16));
    assert.equal(warm.status, 201, JSON.stringify(warm.body));
    // and the built-in hazard layers loaded (the first point query of a process reads them from disk)
    assert.equal((await s.api.get('/api/v2/hazard/point/?latitude=22.59&longitude=113.81', { token: innocent.token })).status, 200);
  });
  after(() => s.close());

  test('GeoTIFF corpus: LZW crash files, deflate bombs, forged IFDs: 4xx or a bounded 201 within seconds', async () => {
    const corpus: [string, Buffer][] = [
      ['lzw-overrun.tif', singleStripTiff({ width: 256, height: 256, bits: 8, sampleFormat: 1, compression: 5, strip: lzwTableOverrun() })],
      ['lzw-bomb.tif', singleStripTiff({ width: 256, height: 256, bits: 32, sampleFormat: 3, compression: 5, strip: lzwZeroRunBomb(60_000) })],
      // 1 MiB that inflates to 1 GiB, in a strip declared 256 × 256 float32 (256 KiB) and in one declared 4096 × 4096 uint8 (16 MiB)
      ['deflate-bomb.tif', singleStripTiff({ width: 256, height: 256, bits: 32, sampleFormat: 3, compression: 8, strip: deflateBomb(1024) })],
      ['deflate-bomb-16m.tif', singleStripTiff({ width: 4096, height: 4096, bits: 8, sampleFormat: 1, compression: 8, strip: deflateBomb(1024) })],
      ...forgedIfds().map(([name, b]) => [`${name.replace(/\W+/g, '-')}.tif`, b] as [string, Buffer]),
    ];
    const { out, latencies, peakRssMb } = await whileMeasuring(async () => {
      const answers: { name: string; status: number; ms: number; detail: string }[] = [];
      for (const [name, data] of corpus) {
        const t0 = performance.now();
        const res = await upload(attacker.token, name, data);
        answers.push({ name, status: res.status, ms: performance.now() - t0, detail: String(res.body.detail) });
      }
      return answers;
    });
    for (const a of out) {
      assert.ok((a.status >= 400 && a.status < 500) || a.status === 201, `${a.name}: ${a.status} ${a.detail}`);
      if (a.status !== 201) assert.match(a.detail, /^file: '[^']+'/, `${a.name} names the field and the file: ${a.detail}`);
      assert.ok(a.ms < 10_000, `${a.name}: ${Math.round(a.ms)} ms`);
    }
    assert.match(out.find((a) => a.name === 'deflate-bomb.tif')!.detail, /inflates beyond its declared size/);
    assert.equal(out.find((a) => a.name === '10-6-x-10-6-pixels.tif')!.status, 400);
    console.log(`GeoTIFF corpus: ${out.map((a) => `${a.name} ${a.status} ${Math.round(a.ms)} ms`).join('; ')}`);
    console.log(`other user's GET: ${latencies.length} requests, p95 ${Math.round(p95(latencies))} ms; server RSS peak ${Math.round(peakRssMb)} MB`);
    assert.ok(p95(latencies) < 300, `p95 ${p95(latencies)} ms`);
    assert.equal((await s.api.get('/api/v2/own_layers/', { token: attacker.token })).status, 200, 'the server is alive');
  });

  test('50 layers at the pixel limit for one company: the budget takes what fits, the rest 413 naming it', async () => {
    const file = flatLayer(4096); // 16,777,216 pixels: 64 MiB decoded, 16 KB on the wire
    assert.equal(4096 * 4096, s.config.OWN_LAYER_MAX_PIXELS);
    const rss0 = rssMb();
    const { out, latencies, peakRssMb } = await whileMeasuring(async () => {
      const statuses: number[] = [];
      let detail = '';
      for (let i = 0; i < 50; i++) {
        const res = await upload(hoarder.token, `big-${i}.tif`, file, 1000 + i);
        statuses.push(res.status);
        if (res.status === 413) detail ||= res.body.detail;
      }
      // the layers are loaded for an analysis or a point query: at most the budget is held
      const point = await s.api.get('/api/v2/hazard/point/?latitude=22.59&longitude=113.81', { token: hoarder.token });
      assert.equal(point.status, 200, JSON.stringify(point.body).slice(0, 300));
      return { statuses, detail };
    });
    const budget = s.config.OWN_LAYER_COMPANY_MB;
    const fits = Math.floor((budget * MiB) / (64 * MiB));
    assert.deepEqual(
      out.statuses,
      out.statuses.map((_, i) => (i < fits ? 201 : 413)),
    );
    assert.match(out.detail, new RegExp(`^file: 'big-${fits}\\.tif' takes 64\\.0 MB decoded .*may take ${budget}\\.0 MB and use ${budget}\\.0 MB`));
    const list = await s.api.get('/api/v2/own_layers/', { token: hoarder.token });
    assert.equal(list.body.limits.company_budget_bytes, budget * MiB);
    assert.equal(list.body.limits.company_used_bytes, fits * 64 * MiB);
    console.log(
      `50 layers at the pixel limit: ${fits} stored, ${50 - fits} refused; other user's p95 ${Math.round(p95(latencies))} ms over ${latencies.length} requests; ` +
        `server RSS ${Math.round(rss0)} -> peak ${Math.round(peakRssMb)} MB`,
    );
    assert.ok(peakRssMb - rss0 < SERVER_RSS_GROWTH_MB, `server RSS grew ${Math.round(peakRssMb - rss0)} MB`);
    assert.ok(p95(latencies) < 300, `p95 ${p95(latencies)} ms`);
  });

  test('asset uploads: XLSX zip bombs (GBs of rows), a 16 MB CSV line, 200,000 columns: 4xx or a bounded 201 within seconds', async () => {
    const csvLine = Buffer.concat([Buffer.from('name,latitude,longitude\n'), Buffer.alloc(16 * MiB, 'a'), Buffer.from(',22.3,114.2\n')]);
    const columns = 200_000;
    const wide = Buffer.from(
      `${Array.from({ length: columns }, (_, i) => (i < 3 ? ['name', 'latitude', 'longitude'][i] : `c${i}`)).join(',')}\nSite,22.3,114.2${',1'.repeat(columns - 3)}\n`,
    );
    // [file, bytes, the answer's detail, 201 allowed (bounded: one asset, a warning naming the unknown columns)]
    const corpus: [string, Buffer, RegExp, boolean?][] = [
      ['bomb.xlsx', xlsxWith(sheetBomb(3, 3 * 1024 * MiB)), /would unpack to more than/],
      ['liar.xlsx', xlsxWith({ ...sheetBomb(3, 3 * 1024 * MiB), size: 4096 }), /unpacks to more than its zip headers declare/],
      ['zip64.xlsx', xlsxWith({ ...sheetBomb(1, 0), size: 0xffffffff }), /unpack|needs more than|could not be read/],
      ['line.csv', csvLine, /name is longer than 200 characters/],
      ['wide.csv', wide, /created with 1 assets|column/, true],
    ];
    const { out, latencies, peakRssMb } = await whileMeasuring(async () => {
      const answers: { name: string; status: number; ms: number; detail: string; bytes: number }[] = [];
      for (const [name, data] of corpus) {
        const t0 = performance.now();
        const res = await s.api.post('/api/v2/create_project/', {
          token: attacker.token,
          multipart: { portfolio_name: `Hostile ${name}`, upload_file: { filename: name, data } },
        });
        answers.push({ name, status: res.status, ms: performance.now() - t0, detail: String(res.body.detail ?? ''), bytes: data.length });
      }
      return answers;
    });
    console.log(`asset uploads: ${out.map((a) => `${a.name} (${(a.bytes / MiB).toFixed(1)} MB) ${a.status} ${Math.round(a.ms)} ms`).join('; ')}`);
    console.log(`other user's GET: ${latencies.length} requests, p95 ${Math.round(p95(latencies))} ms; server RSS peak ${Math.round(peakRssMb)} MB`);
    // 40 s: 1-3 s each on a quiet machine; the reader runs at nice 5, so on a shared CI machine at load 10-25 it gets a
    // small share of the two cores (the zip64 entry is inflated up to the 512 MB unpacked limit before it is refused)
    out.forEach((a, i) => {
      assert.ok((a.status >= 400 && a.status < 500) || (a.status === 201 && corpus[i]![3]), `${a.name}: ${a.status} ${a.detail.slice(0, 300)}`);
      assert.match(a.detail, corpus[i]![2], a.name);
      assert.ok(a.ms < 40_000, `${a.name}: ${Math.round(a.ms)} ms`);
    });
    assert.equal((await s.api.get('/api/v2/own_layers/', { token: attacker.token })).status, 200, 'the server is alive');
    assert.ok(p95(latencies) < 300, `p95 ${p95(latencies)} ms`);
  });

  test('a parser that runs away takes down its child, never the server: V8 fatal, heap, native memory, time', async () => {
    // the time limit is long enough for the others to reach their memory limit on a loaded machine
    // the task modules a sandbox runs are named when it is made: the child loads them (with tsx when they are sources)
    const tasks = new URL('./support/parse-tasks.ts', import.meta.url);
    const sandbox = new ParseSandbox([tasks], { memoryMb: 128, timeoutS: 30, concurrency: 3 });
    const quick = new ParseSandbox([tasks], { memoryMb: 128, timeoutS: 2, concurrency: 1 });
    try {
      const t0 = performance.now();
      assert.deepEqual(await sandbox.run(tasks, 'echo', { a: 1 }, { field: 'file', filename: 'x' }), { a: 1 });
      const cold = performance.now() - t0;
      const t1 = performance.now();
      await sandbox.run(tasks, 'echo', 1, { field: 'file', filename: 'x' });
      console.log(`parse child: cold start + round trip ${Math.round(cold)} ms, warm round trip ${Math.round(performance.now() - t1)} ms`);
      const overrun = singleStripTiff({ width: 256, height: 256, bits: 8, sampleFormat: 1, compression: 5, strip: lzwTableOverrun() });
      const cases: [string, string, Buffer | undefined, number, RegExp][] = [
        ['stock geotiff.js on the LZW overrun', 'stockGeoTiff', overrun, 413, /^file: 'overrun\.tif' needs more than the 128 MB/],
        ['heap', 'heapHog', undefined, 413, /needs more than the 128 MB a file may use while it is read/],
        ['native memory', 'bufferHog', undefined, 413, /needs more than the 128 MB a file may use while it is read/],
        ['time', 'spin', undefined, 413, /takes more than the 2 s a file may take to be read/],
      ];
      const settled = await Promise.allSettled(
        cases.map(([, fn, file]) =>
          (fn === 'spin' ? quick : sandbox).run(tasks, fn, null, { field: 'file', filename: fn === 'stockGeoTiff' ? 'overrun.tif' : `${fn}.bin` }, { file }),
        ),
      );
      settled.forEach((r, i) => {
        const [what, , , status, re] = cases[i]!;
        assert.equal(r.status, 'rejected', what);
        const err = (r as PromiseRejectedResult).reason as AppError;
        assert.ok(err instanceof AppError, `${what}: ${String(err)}`);
        assert.equal(err.statusCode, status, `${what}: ${err.message}`);
        assert.match(err.message, re, what);
      });
      // the sandbox goes on with a fresh child
      assert.equal(await sandbox.run(tasks, 'echo', 2, { field: 'file', filename: 'x' }), 2);
    } finally {
      sandbox.close();
      quick.close();
    }
    assert.equal((await s.api.get('/api/v2/own_layers/', { token: innocent.token })).status, 200, 'the server is alive');
  });
});
