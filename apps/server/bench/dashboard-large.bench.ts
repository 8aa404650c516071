/**
 * The dashboard of an analysis too large to decode (issue 22: 1,000,000 assets), read from its dashboard store
 * (large-store.ts). Runs on a PostgreSQL database that already holds an analysed project (BENCH_DATABASE_URL; e.g. the
 * database of `BENCH_ASSETS=1000000 BENCH_UPLOAD=csv BENCH_DATABASE_URL=... apps/server/bench/bench.ts`), the largest
 * analysed one unless BENCH_PROJECT_ID names it, queried as the 'bench' user bench.ts registers.
 *
 * Prints: the store's build (wall time, worker CPU, rows and bytes; BENCH_REBUILD=true builds it again), the first
 * query (assets and aggregates read, one job's slices), then what the web dashboard asks for scenario-year and
 * adaptation filters never asked before (the answer with per_asset 'pages' plus the first page of the asset table, the
 * heat map and the map, in parallel as the browser does), the same again (cache hits), asset-table pages sorted by
 * other columns, and the process's memory. Nothing else runs in the process meanwhile. BENCH_WARM=true runs the start-up
 * warm-up (warmRecent) before the first query, as a restarted server does. BENCH_SERIAL=true asks the four
 * requests of a filter set one after the other and prints each one's time (the first builds the selection).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { hazardKeysOf } from '../src/modules/dashboard/dashboard-cache.js';
import { startBenchApp } from './fixtures.js';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: a PostgreSQL database holding an analysed project');
const la = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
const config = loadConfig({}, { LOG_LEVEL: 'silent', DATA_DIR: 'memory://', SEED_DEMO: false, DATABASE_URL: url, MAP_PRERENDER_WORLD: false });
const { app, database, base } = await startBenchApp(config, { jobs: false });
const db = database.db;
console.log(
  `\nLarge-analysis dashboard benchmark — ${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores (${cpus()[0]?.model}), ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${la()}`,
);

const project = await db
  .selectFrom('projects as p')
  .select(['p.id', 'p.name', 'p.results_version', 'p.portfolio_variables', sql<number>`(select count(*)::int from assets a where a.project_id = p.id)`.as('n')])
  .where('p.status', '=', 'done')
  .where('p.results_version', 'is not', null)
  .$if(!!process.env.BENCH_PROJECT_ID, (q) => q.where('p.id', '=', Number(process.env.BENCH_PROJECT_ID)))
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
const version = project.results_version!;
console.log(`project ${project.id} '${project.name}': ${project.n.toLocaleString('en-US')} assets, version ${version}`);
const company = await db.selectFrom('companies').select('code').where('name', '=', 'Bench Co').executeTakeFirstOrThrow();
const login = await fetch(`${base}/api/user/rest_login/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'bench', password: 'typhoon harbour passphrase', company_code: company.code }),
}).then((r) => r.json() as Promise<{ token: string }>);

const large = app.services.dashboard.large;
if (process.env.BENCH_REBUILD === 'true') await db.deleteFrom('dashboard_stores').where('project_id', '=', project.id).execute();
const before = await large.state(project.id, version);
if (before?.state !== 'done') {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const loop: number[] = [];
  let last = performance.now();
  const lag = setInterval(() => {
    const now = performance.now();
    loop.push(now - last - 50);
    last = now;
  }, 50);
  await large.ensureBuilding(project.id, version, hazardKeysOf(project.portfolio_variables as string[]));
  clearInterval(timer);
  clearInterval(lag);
  const cpu = process.cpuUsage(cpu0);
  const st = await large.state(project.id, version);
  if (st?.state !== 'done') throw new Error(`store not built: ${JSON.stringify(st)}`);
  const rows = await db
    .selectFrom('dashboard_slices')
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`sum(octet_length(data))::float8`.as('bytes')])
    .where('project_id', '=', project.id)
    .where('version', '=', version)
    .executeTakeFirstOrThrow();
  loop.sort((a, b) => a - b);
  console.log(
    `  store built in ${((performance.now() - t0) / 1000).toFixed(1)} s (process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak RSS ${mib(peak)}); ` +
      `${rows.n.toLocaleString('en-US')} slices, ${mib(rows.bytes)}; event-loop delay p99 ${loop[Math.floor(loop.length * 0.99)]?.toFixed(0)} ms, max ${loop[loop.length - 1]?.toFixed(0)} ms`,
  );
} else console.log('  store already built (BENCH_REBUILD=true to build it again)');

const post = async (path: string, body: Record<string, unknown>) => {
  const t0 = performance.now();
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Token ${login.token}` },
    body: JSON.stringify({ project_id: project.id, ...body }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${path} ${res.status}: ${text.slice(0, 300)}`);
  return { ms, bytes: text.length };
};
/** What the web dashboard asks for one filter set: the answer and the first pages, in parallel. */
const SERIAL = process.env.BENCH_SERIAL === 'true';
const dashboard = async (f: Record<string, unknown>) => {
  const t0 = performance.now();
  if (SERIAL) {
    // BENCH_SERIAL=true: the four requests one after the other, each one's time printed
    const parts: [string, Record<string, unknown>][] = [
      ['/api/v2/dashboard/', { ...f, per_asset: 'pages' }],
      ['/api/v2/dashboard/assets/', { ...f, limit: 20 }],
      ['/api/v2/dashboard/heatmap/', { ...f, limit: 50 }],
      ['/api/v2/dashboard/map/', { ...f }],
    ];
    const times: string[] = [];
    let answer = { ms: 0, bytes: 0 };
    for (const [path, body] of parts) {
      const r = await post(path, body);
      if (path === '/api/v2/dashboard/') answer = r;
      times.push(`${path.split('/').slice(-2, -1)[0]} ${r.ms.toFixed(0)}`);
    }
    console.log(`      ${times.join(', ')} ms`);
    return { ms: performance.now() - t0, answer };
  }
  const [answer] = await Promise.all([
    post('/api/v2/dashboard/', { ...f, per_asset: 'pages' }),
    post('/api/v2/dashboard/assets/', { ...f, limit: 20 }),
    post('/api/v2/dashboard/heatmap/', { ...f, limit: 50 }),
    post('/api/v2/dashboard/map/', { ...f }),
  ]);
  return { ms: performance.now() - t0, answer };
};

// BENCH_WARM=true: the start-up warm-up first (main.ts: warmRecent), as after a restart, timed
if (process.env.BENCH_WARM === 'true') {
  const t0 = performance.now();
  await app.services.dashboard.warmRecent();
  console.log(`  start-up warm-up (assets, aggregates and the default filters' job read): ${((performance.now() - t0) / 1000).toFixed(2)} s`);
}
const first = await dashboard({});
console.log(
  `  first query (assets, aggregates and one year read): ${(first.ms / 1000).toFixed(2)} s, answer ${Math.round(first.answer.bytes / 1024)} KB; RSS ${mib(process.memoryUsage().rss)}`,
);
const combos: Record<string, unknown>[] = [
  { analysis_type: 'ssp', scenario: '26', year: 2100 },
  { analysis_type: 'rcp', scenario: '45', year: 2030 },
  { analysis_type: 'rcp', scenario: '85', year: 2050 },
  { analysis_type: 'ssp', scenario: '45', year: 2020 },
  { analysis_type: 'ssp', scenario: '85', year: 2075 },
  { analysis_type: 'ssp', scenario: '26', year: 2040 },
  { analysis_type: 'ssp', scenario: '45', year: 2060 },
  { analysis_type: 'ssp', scenario: '85', year: 2035, mitigation: false },
  { analysis_type: 'rcp', scenario: '26', year: 2020 },
  { analysis_type: 'ssp', scenario: '26', year: 2080, mitigation: false },
];
// BENCH_CPU_PROF=file.cpuprofile: a CPU profile of the queries never asked (after the first query); with
// BENCH_PROF_AGAIN=true of the same asked again instead
const again0 = process.env.BENCH_PROF_AGAIN === 'true';
const profile = process.env.BENCH_CPU_PROF ? new Session() : null;
const startProfile = async () => {
  if (!profile) return;
  profile.connect();
  await profile.post('Profiler.enable');
  await profile.post('Profiler.start');
};
const stopProfile = async () => {
  if (!profile) return;
  const { profile: p } = await profile.post('Profiler.stop');
  writeFileSync(process.env.BENCH_CPU_PROF!, JSON.stringify(p));
};
if (!again0) await startProfile();
const fresh: number[] = [];
for (const f of combos) {
  const r = await dashboard(f);
  fresh.push(r.ms);
  console.log(`    ${JSON.stringify(f)}: ${r.ms.toFixed(0)} ms`);
}
if (!again0) await stopProfile();
else await startProfile();
const again: number[] = [];
for (const f of combos) again.push((await dashboard(f)).ms);
if (again0) await stopProfile();
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))]!;
console.log(`  ${combos.length} filter sets never asked: p50 ${pct(fresh, 0.5).toFixed(0)} ms, p95 (max) ${pct(fresh, 0.95).toFixed(0)} ms (goal < 1 s)`);
console.log(`  the same asked again: p50 ${pct(again, 0.5).toFixed(0)} ms, max ${pct(again, 1).toFixed(0)} ms`);
const sorts: number[] = [];
for (const sort of ['overall_loss', 'name', 'percentage', 'max_exposure', 'climatic_score'])
  sorts.push((await post('/api/v2/dashboard/assets/', { sort, order: 'desc', limit: 20, offset: 1000 })).ms);
console.log(`  asset-table pages sorted by 5 other columns (never asked): p50 ${pct(sorts, 0.5).toFixed(0)} ms, max ${pct(sorts, 1).toFixed(0)} ms`);
console.log(`  RSS after the queries: ${mib(process.memoryUsage().rss)}; load average ${la()}`);
await app.close();
await database.close();
