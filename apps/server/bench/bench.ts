/**
 * Server benchmark (npm run bench): a portfolio from upload to finished analysis, and dashboard query latency,
 * on the real app over real HTTP with the embedded database. Sizes: BENCH_ASSETS (default 10,000).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { cpus, loadavg, totalmem } from 'node:os';
import { warmCountries } from '@crp/geo';
import { loadConfig } from '../src/config.js';
import { spawnWorker, stopProc } from '../test/support/processes.js';
import { benchPortfolio, enterpriseTier, startBenchApp } from './fixtures.js';

const N = Number(process.env.BENCH_ASSETS ?? 10_000);
const QUERIES = Number(process.env.BENCH_DASHBOARD_QUERIES ?? 30);

const config = loadConfig(
  {},
  {
    LOG_LEVEL: (process.env.BENCH_LOG_LEVEL ?? 'silent') as 'silent',
    DATA_DIR: 'memory://',
    SEED_DEMO: false,
    ARGON2_MEMORY_KIB: 8192,
    ARGON2_TIME_COST: 1,
    UPLOAD_MAX_ROWS: Math.max(100_000, N),
    ...(process.env.BENCH_JOB_CONCURRENCY ? { JOB_CONCURRENCY: Number(process.env.BENCH_JOB_CONCURRENCY) } : {}),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
);
// BENCH_WORKERS=n (PostgreSQL only): the analysis runs in n `npm run worker` processes (apps/server/src/worker.ts) on
// the same database instead of in this server process (scale-out, issue 22 item 5).
const WORKERS = Number(process.env.BENCH_WORKERS ?? 0);
if (WORKERS > 0 && !process.env.BENCH_DATABASE_URL) throw new Error('BENCH_WORKERS needs BENCH_DATABASE_URL (worker processes share a PostgreSQL queue)');
if (WORKERS > 0) config.RUN_JOBS_IN_PROCESS = false;
const { app, database, base } = await startBenchApp(config, { jobs: !process.env.BENCH_JOBS_LATE && WORKERS === 0 });
const workers = await Promise.all(
  Array.from({ length: WORKERS }, () => spawnWorker({ DATABASE_URL: process.env.BENCH_DATABASE_URL!, JOB_CONCURRENCY: String(config.JOB_CONCURRENCY) })),
);
const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

const user = {
  first_name: 'Bench',
  last_name: 'Mark',
  username: 'bench',
  email: 'bench@example.com',
  password: 'typhoon harbour passphrase',
  confirm_password: 'typhoon harbour passphrase',
  company_name: 'Bench Co',
};
const reg = await post('/api/user/register/', user);
await enterpriseTier(database.db);
const login = await post('/api/user/rest_login/', { username: 'bench', password: user.password, company_code: reg.body.company_code });
const token = login.body.token as string;

const data = benchPortfolio(N, 42);
// As src/main.ts does at start-up: the gazetteer is loaded before the upload, not by its first country look-up.
warmCountries();

// Event-loop delay of the server (same process) and another user's request latency (the status poll) from upload to
// finished analysis: what every other user meets while this portfolio is uploaded, analysed and stored.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const pollLat: number[] = [];
// BENCH_TRACE_GAPS=1: print every event-loop stall over 300 ms with the time since the upload began.
const gaps: string[] = [];
let lastTick = performance.now();
const gapTimer = process.env.BENCH_TRACE_GAPS
  ? setInterval(() => {
      const now = performance.now();
      if (now - lastTick > 300) gaps.push(`${((lastTick - t0) / 1000).toFixed(1)} s: ${(now - lastTick).toFixed(0)} ms`);
      lastTick = now;
    }, 20)
  : null;
const variables = ['Wildfire', 'Landslide', 'Rainfall Flood', 'Extreme Heat', 'Extreme Cold', 'Snowfall', 'Sea Level Rise', 'Drought'];
// BENCH_UPLOAD=csv: the portfolio as a CSV file in a multipart upload (what a bank's book of a million rows is), not a
// JSON list; the CSV text is made before the clock starts.
const csvFile =
  process.env.BENCH_UPLOAD === 'csv'
    ? new Blob([
        'name,latitude,longitude,property_type,valuation,revenue\n' +
          data.map((d) => `${d.name},${d.latitude},${d.longitude},${d.property_type},${d.valuation},${d.revenue}`).join('\n'),
      ])
    : null;
const t0 = performance.now();
const created = csvFile
  ? await (async () => {
      const form = new FormData();
      form.set('portfolio_name', 'Bench portfolio');
      form.set('portfolio_variables', JSON.stringify(variables));
      form.set('upload_file', csvFile, 'book.csv');
      const res = await fetch(base + '/api/v2/create_project/', { method: 'POST', headers: { authorization: `Token ${token}` }, body: form });
      return { status: res.status, body: (await res.json()) as any };
    })()
  : await post('/api/v2/create_project/', { portfolio_name: 'Bench portfolio', data, portfolio_variables: variables }, token);
if (created.status !== 201) throw new Error(JSON.stringify(created.body).slice(0, 300));
const tCreated = performance.now();
const createDelay = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
loopDelay.reset();
if (process.env.BENCH_JOBS_LATE) app.services.jobs.start();
const id = created.body.project.project_id;
let status = '';
while (status !== 'done') {
  const tq = performance.now();
  const st = await fetch(`${base}/api/v2/projects/${id}/status/`, { headers: { authorization: `Token ${token}` } }).then(
    (x) => x.json() as Promise<{ status: string; message: string }>,
  );
  pollLat.push(performance.now() - tq);
  status = st.status;
  if (status === 'failed') throw new Error(st.message);
  await new Promise((res) => setTimeout(res, 100));
}
const tDone = performance.now();
loopDelay.disable();
if (gapTimer) {
  clearInterval(gapTimer);
  console.log(`stalls over 300 ms: ${gaps.join('; ') || 'none'}`);
}
const rssPeakMiB = process.resourceUsage().maxRSS / 1024;
pollLat.sort((a, b) => a - b);
const stored = await database.db
  .selectFrom('analysis_results')
  .select((eb) => eb.fn.sum<number>(eb.fn('octet_length', ['data'])).as('bytes'))
  .where('project_id', '=', id)
  .executeTakeFirstOrThrow();

console.log(
  `\nServer benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'PGlite in memory'}, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(`portfolio of ${N.toLocaleString('en-US')} assets x 11 hazards x 58 scenario-years`);
console.log(`  upload + validate + store (create_project): ${((tCreated - t0) / 1000).toFixed(2)} s`);
console.log(`  analysis job (queue -> done):               ${((tDone - tCreated) / 1000).toFixed(2)} s`);
console.log(`  upload to finished analysis:                ${((tDone - t0) / 1000).toFixed(2)} s   (goal < 60 s for 10,000)`);
console.log(`  event-loop delay during create_project: p99 ${createDelay.p99.toFixed(0)} ms, max ${createDelay.max.toFixed(0)} ms`);
console.log(
  `  event-loop delay during the analysis: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
);
console.log(
  `  another request during the analysis (status poll, ${pollLat.length}): p50 ${pollLat[Math.floor(pollLat.length / 2)]!.toFixed(0)} ms, p95 ${pollLat[Math.floor(pollLat.length * 0.95)]!.toFixed(0)} ms, max ${pollLat.at(-1)!.toFixed(0)} ms   (goal p95 < 300 ms)`,
);
console.log(`  peak RSS until the analysis was done: ${rssPeakMiB.toFixed(0)} MiB (bench process: client, server and PGlite)`);
console.log(`  stored results: ${(Number(stored.bytes) / 2 ** 20).toFixed(1)} MiB`);
const lat: number[] = [];
const combos = [
  { analysis_type: 'ssp', scenario: '85', year: 2050 },
  { analysis_type: 'ssp', scenario: '26', year: 2100 },
  { analysis_type: 'rcp', scenario: '45', year: 2030 },
];
let responseBytes = 0;
// BENCH_DASHBOARD_QUERIES=0: no dashboard query at all (the pipeline figures only).
for (let q = 0; QUERIES > 0 && q < QUERIES + 1; q++) {
  const t = performance.now();
  const d = await post('/api/v2/dashboard/', { project_id: id, ...combos[q % combos.length] }, token);
  responseBytes = JSON.stringify(d.body).length;
  if (d.status !== 200) throw new Error(JSON.stringify(d.body).slice(0, 300));
  if (q > 0) lat.push(performance.now() - t); // the first query loads the stored analysis into memory
}
lat.sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!;

if (lat.length)
  console.log(
    `dashboard query (${lat.length} queries, warm): p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${lat.at(-1)!.toFixed(0)} ms   (goal p95 < 300 ms)`,
  );
if (lat.length) console.log(`  dashboard answer size: ${(responseBytes / 2 ** 20).toFixed(2)} MiB`);
console.log(`  memory: rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);

if (workers.length) {
  const byWorker = await database.db
    .selectFrom('analysis_parts')
    .select(['worker_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', id)
    .groupBy('worker_id')
    .execute();
  for (const [i, w] of workers.entries()) console.log(`  worker process ${i + 1}: ${byWorker.find((r) => r.worker_id === w.workerId)?.n ?? 0} part(s)`);
  await Promise.all(workers.map((w) => stopProc(w, 'SIGTERM')));
}
await app.services.jobs.stop();
await app.close();
await database.close();
