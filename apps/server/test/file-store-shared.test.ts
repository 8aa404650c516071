import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/infra/db/database.js';
import { CHUNK_BYTES, FileStore } from '../src/infra/file-store.js';
import { client, createTestDatabase, registerAndLogin, waitForAnalysis, type Api } from './support/harness.js';
import { spawnServer, stopProc, type Proc } from './support/processes.js';

/**
 * Files every machine reads (issue 36 item 5): with DATABASE_URL the bytes of generated files live in PostgreSQL
 * (stored_files, stored_file_chunks), not under the DATA_DIR of the process that made them. Two real server processes
 * on one database with different DATA_DIRs: A runs the jobs, B none (RUN_JOBS_IN_PROCESS=false, as a web server beside
 * `npm run worker` machines). A report requested on B is rendered on A and downloads from B byte for byte as from A; an
 * export made on A downloads from B; a 96 MB file written by a third process (this test, through the same FileStore a
 * worker uses) streams from B with a Range and with bounded memory in both processes; another company's user gets
 * 404s. Needs real processes sharing one database: PostgreSQL only (TEST_DB=postgres).
 */

const onPostgres = process.env.TEST_DB === 'postgres';
const HAZARDS = ['River Flood', 'Typhoon', 'Storm Surge'];
/**
 * Large enough that holding it whole (the file, and the driver's copy or hex text of it: 190-290 MB) stands far above
 * the garbage of the 1 MiB chunk buffers before a collection (17-45 MB measured, whatever the file's size).
 */
const LARGE_BYTES = 96 * 1_048_576;
const SECTIONS = ['climate_heatmap', 'executive_summary', 'physical_risk', 'transition_risk', 'financial_impact', 'adaptation'];

/** Deterministic bytes that do not compress (xorshift32), `total` of them in 64 KiB pieces: never whole in memory. */
async function* noise(total: number, seed = 0x9e3779b9): AsyncIterable<Uint8Array> {
  let x = seed >>> 0;
  for (let done = 0; done < total;) {
    const n = Math.min(65_536, total - done);
    const b = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i += 4) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      b.writeUInt32LE(x, i);
    }
    done += n;
    yield b;
  }
}

/** Resident memory of a process, MiB (Linux /proc). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Downloads `url` as a stream, answering its status, headers, SHA-256 and length (the body is never kept). */
async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const hash = createHash('sha256');
  let bytes = 0;
  const parts: Buffer[] = [];
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(c);
    bytes += c.length;
    if (bytes <= 4_194_304) parts.push(Buffer.from(c));
  }
  return { status: res.status, headers: res.headers, sha256: hash.digest('hex'), bytes, head: Buffer.concat(parts) };
}

describe(
  'file store shared by machines: PostgreSQL holds the files',
  {
    timeout: 600_000,
    skip: onPostgres
      ? false
      : 'needs TEST_DB=postgres: two server processes share files through a PostgreSQL server (PGlite keeps files in its DATA_DIR and belongs to one process)',
  },
  () => {
    let dropDb: (() => Promise<void>) | null = null;
    let db: DatabaseHandle;
    let a: Proc, b: Proc;
    let apiA: Api, apiB: Api;
    let owner: Awaited<ReturnType<typeof registerAndLogin>>;
    let stranger: Awaited<ReturnType<typeof registerAndLogin>>;
    let projectId: number;
    const dirs = [0, 1, 2].map((i) => mkdtempSync(join(tmpdir(), `crp-fs${i}-`)));
    const figures: Record<string, number> = {};

    before(async () => {
      const t = await createTestDatabase();
      dropDb = t.drop;
      const url = t.overrides.DATABASE_URL!;
      a = await spawnServer({ DATABASE_URL: url, DATA_DIR: dirs[0]! });
      b = await spawnServer({ DATABASE_URL: url, DATA_DIR: dirs[1]!, RUN_JOBS_IN_PROCESS: 'false' });
      apiA = client(a.url);
      apiB = client(b.url);
      db = await openDatabase(loadConfig({}, { LOG_LEVEL: 'silent', SEED_DEMO: false, DATABASE_URL: url }));
      owner = await registerAndLogin(apiA);
      stranger = await registerAndLogin(apiB);
      await db.db
        .updateTable('companies')
        .set({ tier: 'enterprise', tier_permissions: JSON.stringify(Object.fromEntries(SECTIONS.map((k) => [k, true]))) })
        .execute();
      const data = [
        { name: 'Kwai Chung terminal', latitude: 22.35, longitude: 114.125, property_type: 'Industrial', valuation: 8e7, revenue: 2.5e7 },
        { name: 'Central office', latitude: 22.282, longitude: 114.158, property_type: 'Commercial', valuation: 1.2e8, revenue: 9e6 },
        { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
      ];
      const res = await apiA.post('/api/v2/create_project/', {
        token: owner.token,
        json: { portfolio_name: 'Shared files', data, portfolio_variables: HAZARDS },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      projectId = res.body.project.project_id;
      assert.equal((await waitForAnalysis({ api: apiA }, owner.token, projectId)).status, 'done');
    });
    after(async () => {
      if (b) await stopProc(b, 'SIGTERM');
      if (a) await stopProc(a, 'SIGTERM');
      await db?.close();
      await dropDb?.();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      if (Object.keys(figures).length) console.log(`[file-store-shared] ${JSON.stringify(figures)}`);
    });

    /** Files under a server's DATA_DIR/files (none: the bytes are in the database). */
    const localFiles = (dir: string) => (existsSync(join(dir, 'files')) ? readdirSync(join(dir, 'files')) : []);

    test('a report requested on B, rendered by the jobs of A, downloads byte-identical from both', async () => {
      const res = await apiB.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'ssp' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, 'done', 'the job ran on A (B runs none)');
      const fromB = await download(b.url + res.body.url);
      const fromA = await download(a.url + res.body.url);
      assert.equal(fromB.status, 200);
      assert.equal(fromB.headers.get('content-type'), 'application/pdf');
      assert.equal(fromB.head.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.equal(Number(fromB.headers.get('content-length')), fromB.bytes);
      assert.equal(fromB.sha256, fromA.sha256, 'the same bytes from either machine');
      const pptx = await download(b.url + res.body.pptx_url);
      assert.equal(pptx.status, 200);
      assert.equal(pptx.head.subarray(0, 2).toString('latin1'), 'PK');
      // the stored checksum is the content's, and the ETag names it
      const row = await db.db.selectFrom('files').select(['sha256', 'bytes', 'stored_as']).where('sha256', '=', fromB.sha256).executeTakeFirst();
      assert.ok(row, 'files.sha256 is the SHA-256 of the bytes served');
      assert.equal(row.bytes, fromB.bytes);
      assert.equal(fromB.headers.get('etag'), `"${fromB.sha256}"`);
      assert.ok(await db.db.selectFrom('stored_files').select('key').where('key', '=', row.stored_as).executeTakeFirst(), 'in stored_files');
      assert.deepEqual([localFiles(dirs[0]!), localFiles(dirs[1]!)], [[], []], 'nothing under either DATA_DIR/files');
    });

    test('an export made on A downloads from B; another company sees none of it', async () => {
      const res = await apiA.post('/api/v2/summary_report/', { token: owner.token, form: { project_name: 'Shared files' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const url: string = res.body.url;
      assert.match(url, /^\/api\/v2\/files\//, JSON.stringify(res.body));
      const fromA = await download(a.url + url);
      const fromB = await download(b.url + url);
      assert.equal(fromB.status, 200);
      assert.equal(fromB.head.subarray(0, 2).toString('latin1'), 'PK', 'an .xlsx (zip)');
      assert.equal(fromB.sha256, fromA.sha256);
      // a fresh link made on B for the file A wrote; the old link stops working on both
      const renewed = await apiB.post(`/api/report/get_link/${owner.userId}/`, { token: owner.token, json: { url } });
      assert.equal(renewed.status, 201, JSON.stringify(renewed.body));
      assert.equal((await download(a.url + renewed.body.url)).sha256, fromA.sha256);
      assert.equal((await fetch(b.url + url)).status, 404);
      // permissions as before: another company's user can neither renew the link nor make the project's files
      assert.equal((await apiB.post(`/api/report/get_link/${stranger.userId}/`, { token: stranger.token, json: { url: renewed.body.url } })).status, 404);
      assert.equal((await apiB.post('/api/v2/summary_report/', { token: stranger.token, form: { project_name: 'Shared files' } })).status, 404);
      assert.equal((await apiB.post('/api/v2/generate_pdf_report/', { token: stranger.token, form: { project_id: String(projectId) } })).status, 404);
      assert.equal((await fetch(`${b.url}/api/v2/files/${'x'.repeat(43)}/a.xlsx`)).status, 404, 'an unknown link');
    });

    test('a 96 MB file written by another process streams from B with bounded memory, whole and by range', async () => {
      // this process as a third machine (a worker): the FileStore the servers use, its own DATA_DIR
      const store = new FileStore(db.db, { DATA_DIR: dirs[2]!, DATABASE_URL: 'set' });
      assert.equal(store.storage.kind, 'postgres');
      global.gc?.();
      const rss0 = process.memoryUsage().rss / 1_048_576;
      let peak = rss0;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 1_048_576)), 20);
      const t0 = performance.now();
      const saved = await store.store(owner.userId, 'big.bin', 'application/octet-stream', noise(LARGE_BYTES));
      clearInterval(sampler);
      figures.write_s = Math.round(performance.now() - t0) / 1000;
      figures.writer_rss_growth_mb = Math.round(peak - rss0);
      assert.deepEqual(localFiles(dirs[2]!), []);
      const expected = createHash('sha256');
      for await (const c of noise(LARGE_BYTES)) expected.update(c);
      const sha = expected.digest('hex');
      const chunks = await db.db
        .selectFrom('stored_file_chunks')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.ok(Number(chunks.n) >= LARGE_BYTES / CHUNK_BYTES, `${chunks.n} chunk rows`);

      const pid = b.child.pid!;
      const base = rssMb(pid);
      let serverPeak = base;
      const watch = setInterval(() => (serverPeak = Math.max(serverPeak, rssMb(pid))), 20);
      const t1 = performance.now();
      const got = await download(b.url + saved.url);
      clearInterval(watch);
      figures.read_s = Math.round(performance.now() - t1) / 1000;
      figures.server_rss_base_mb = Math.round(base);
      figures.server_rss_growth_mb = Math.round(serverPeak - base);
      assert.equal(got.status, 200);
      assert.equal(got.bytes, LARGE_BYTES);
      assert.equal(Number(got.headers.get('content-length')), LARGE_BYTES);
      assert.equal(got.sha256, sha, 'byte-identical');
      // Held whole, the file would add its 96 MB and the driver's copy (or hex text) of it; chunk by chunk, the server
      // reads by binary COPY (measured 0 MB growth with 30 MB) and the writer's chunk buffers are garbage until a
      // collection (17-45 MB with 30 MB).
      assert.ok(serverPeak - base < 48, `server RSS grew ${(serverPeak - base).toFixed(1)} MB serving a 96 MB file`);
      assert.ok(peak - rss0 < 80, `writer RSS grew ${(peak - rss0).toFixed(1)} MB storing a 96 MB file`);

      // a range across a chunk boundary, and one at the end
      const whole: Buffer[] = [];
      for await (const c of noise(CHUNK_BYTES + 64)) whole.push(Buffer.from(c));
      const first = Buffer.concat(whole);
      const r = await download(b.url + saved.url, { range: `bytes=${CHUNK_BYTES - 10}-${CHUNK_BYTES + 9}` });
      assert.equal(r.status, 206);
      assert.equal(r.headers.get('content-range'), `bytes ${CHUNK_BYTES - 10}-${CHUNK_BYTES + 9}/${LARGE_BYTES}`);
      assert.deepEqual(r.head, first.subarray(CHUNK_BYTES - 10, CHUNK_BYTES + 10));
      const tail = await download(b.url + saved.url, { range: 'bytes=-5' });
      assert.equal(tail.status, 206);
      assert.equal(tail.bytes, 5);
      assert.equal((await fetch(b.url + saved.url, { headers: { range: `bytes=${LARGE_BYTES}-` } })).status, 416);

      // expiry as the local store does it: past its time the link answers 410, and the sweep deletes rows and bytes
      await db.db
        .updateTable('files')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .execute();
      // a content whose files row went with its owner (cascade), written two hours ago, and one being written now
      await store.storage.write(`${'0'.repeat(32)}.bin`, 'text/plain', Buffer.from('orphan'));
      await store.storage.write(`${'1'.repeat(32)}.bin`, 'text/plain', Buffer.from('in flight'));
      await db.db
        .updateTable('stored_files')
        .set({ created_at: new Date(Date.now() - 7_200_000) })
        .where('key', '=', `${'0'.repeat(32)}.bin`)
        .execute();
      assert.equal((await fetch(b.url + saved.url)).status, 410);
      assert.ok((await store.sweep()) >= 1);
      const left = await db.db
        .selectFrom('stored_file_chunks')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 1, 'no chunks left after the sweep but those of the file being written');
      assert.deepEqual(
        (await db.db.selectFrom('stored_files').select('key').execute()).map((r) => r.key),
        [`${'1'.repeat(32)}.bin`],
        'the orphan is gone, the file in flight kept',
      );
      assert.equal((await fetch(b.url + saved.url)).status, 404);
    });
  },
);
