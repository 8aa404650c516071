/**
 * Load benchmark (issue 13 item 5): LOAD_CONNECTIONS (default 50) signed-in users browse the /project and /dashboard
 * pages of an analysed LOAD_ASSETS-asset project (default 1,000) for LOAD_SECONDS (default 60), against the real
 * server started as its own process (`src/main.ts`, so the load generator does not share its event loop), on the
 * embedded PGlite (a temporary data directory, or BENCH_DATA_DIR to keep it between runs) or on PostgreSQL when
 * BENCH_DATABASE_URL is given.
 *
 * Users: LOAD_USERS (default = connections) accounts in two companies; each company's administrator owns one analysed
 * project and shares it (read) with the company's other members. One "visit" (autocannon's request sequence, run over
 * and over by every connection, each visit as the next user) is what the web client asks for on a page load:
 *   /project:   GET /accounts/user/, GET /api/project/:userId/ (project list), GET /api/v2/projects/:id/status/ (card),
 *   /dashboard: POST /api/v2/dashboard/ (the project's default filters), GET /api/v2/projects/:id/status/,
 *               GET /api/asset/:userId/?project_id= (asset list), two more dashboard queries with random filters
 *               (ssp/rcp, scenario, year, one hazard or all, adaptation on/off), GET /api/project/all_projects/.
 * Requests carry Accept-Encoding: gzip, deflate, br as a browser over HTTPS does (LOAD_ACCEPT_ENCODING; '' for none);
 * the server compresses only with HTTP_COMPRESSION=true (passed on to it from the environment).
 * Closed loop: a connection sends its next request when the previous answer arrived (no think time), so this is the
 * saturation throughput and the latency at it. LOAD_RATE=r paces each connection to r requests per second instead.
 *
 * Prints throughput, latency p50/p95/p99/max per request kind and overall, non-2xx answers and connection errors, the
 * server's CPU time and peak RSS, and the load average (the machine is shared). LOAD_CPU_PROF=dir runs the server with
 * `node --cpu-prof` (the profile is written to dir when the server stops); LOAD_SERVER_LOG=file keeps its request log.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { benchPortfolio, enterpriseTier, rng, startBenchApp } from './fixtures.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const USERS = Number(process.env.LOAD_USERS ?? CONNECTIONS);
const ASSETS = Number(process.env.LOAD_ASSETS ?? 1000);
const RATE = process.env.LOAD_RATE ? Number(process.env.LOAD_RATE) : undefined;
/** What the client accepts (a browser over HTTPS sends gzip, deflate, br; over plain HTTP gzip, deflate); '' for none. */
const ACCEPT_ENCODING = process.env.LOAD_ACCEPT_ENCODING ?? 'gzip, deflate, br';
const COMPANIES = 2;
const PG_URL = process.env.BENCH_DATABASE_URL;
const KEEP_DIR = process.env.BENCH_DATA_DIR;
const DATA_DIR = PG_URL ? 'memory://' : (KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'crp-load-')));
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const la = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const PASSWORD = 'load benchmark password';
const ARGON2 = { ARGON2_MEMORY_KIB: 8192, ARGON2_TIME_COST: 1 };

interface LoadUser {
  userId: number;
  token: string;
  projectId: number;
  company: number;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Set-up in this process (accounts, tiers, projects, analyses, tokens), then the database is closed and the
//    server started on it as a separate process.
// ---------------------------------------------------------------------------------------------------------------
const loadAvgStart = la();
const tSetup = performance.now();
const HAZARD_LABELS = ['Wildfire', 'Landslide', 'Rainfall Flood', 'Extreme Heat', 'Extreme Cold', 'Snowfall', 'Sea Level Rise', 'Drought'];
const users: LoadUser[] = [];
let setupNote = '';
{
  const config = loadConfig(
    {},
    { LOG_LEVEL: 'silent', DATA_DIR, ...(PG_URL ? { DATABASE_URL: PG_URL } : {}), SEED_DEMO: false, ...ARGON2, UPLOAD_MAX_ROWS: Math.max(100_000, ASSETS) },
  );
  const { app, database, base } = await startBenchApp(config, { jobs: true });
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Token ${token}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const login = async (username: string, company_code: string) =>
    (await call('POST', '/api/user/rest_login/', { username, password: PASSWORD, company_code })).token as string;
  const perCompany = Math.ceil(USERS / COMPANIES);
  const reused: number[] = [];
  const created: string[] = [];
  for (let c = 0; c < COMPANIES; c++) {
    const tag = `load${ASSETS}c${c}`;
    const member = (u: number) => ({
      first_name: 'Load',
      last_name: `User ${u}`,
      username: `${tag}u${u}`,
      email: `${tag}u${u}@example.com`,
      password: PASSWORD,
      confirm_password: PASSWORD,
    });
    const existing = await database.db
      .selectFrom('users as u')
      .innerJoin('companies as c', 'c.id', 'u.company_id')
      .select(['u.id', 'c.code', 'c.id as companyId'])
      .where('u.username', '=', `${tag}u0`)
      .executeTakeFirst();
    const project = existing
      ? await database.db
          .selectFrom('projects')
          .select(['id', 'status'])
          .where('owner_id', '=', existing.id)
          .where('name', '=', `Load portfolio ${c + 1}`)
          .executeTakeFirst()
      : undefined;
    let companyCode: string;
    let adminToken: string;
    let projectId: number;
    if (existing && project?.status === 'done') {
      companyCode = existing.code;
      adminToken = await login(`${tag}u0`, companyCode);
      projectId = project.id;
      reused.push(projectId);
    } else {
      if (existing) throw new Error(`${DATA_DIR}: the load bench's accounts exist but their project is not analysed; use a fresh BENCH_DATA_DIR or database`);
      const reg = await call('POST', '/api/user/register/', { ...member(0), company_name: `Load Bench ${c + 1}` });
      companyCode = reg.company_code;
      await enterpriseTier(database.db, companyCode);
      adminToken = await login(`${tag}u0`, companyCode);
      const data = benchPortfolio(ASSETS, 42 + c);
      const t0 = performance.now();
      projectId = (
        await call('POST', '/api/v2/create_project/', { portfolio_name: `Load portfolio ${c + 1}`, data, portfolio_variables: HAZARD_LABELS }, adminToken)
      ).project.project_id;
      for (;;) {
        const st = await call('GET', `/api/v2/projects/${projectId}/status/`, undefined, adminToken);
        if (st.status === 'done') break;
        if (st.status === 'failed') throw new Error(st.message);
        await new Promise((res) => setTimeout(res, 200));
      }
      created.push(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    // Members (each approved and given read access to the administrator's project); missing ones are added.
    const have = new Set((await database.db.selectFrom('users').select('username').where('username', 'like', `${tag}u%`).execute()).map((x) => x.username));
    const ids: number[] = [];
    for (let u = 1; u < perCompany; u++) {
      if (have.has(`${tag}u${u}`)) continue;
      const reg2 = await call('POST', '/api/user/register/', { ...member(u), company_name: `Load Bench ${c + 1}`, company_code: companyCode });
      await call('POST', `/api/company/members/${reg2.user.id}/approve/`, undefined, adminToken);
      ids.push(reg2.user.id);
    }
    if (ids.length) await call('POST', '/api/v2/share_project/', { project_id: projectId, share_with: JSON.stringify(ids), permission: 'read' }, adminToken);
    const members = await database.db.selectFrom('users').select(['id', 'username']).where('username', 'like', `${tag}u%`).execute();
    for (let u = 0; u < perCompany && users.length < USERS; u++) {
      const m = members.find((x) => x.username === `${tag}u${u}`);
      if (!m) throw new Error(`missing user ${tag}u${u}`);
      users.push({ userId: m.id, token: u === 0 ? adminToken : await login(m.username, companyCode), projectId, company: c });
    }
  }
  setupNote = [
    reused.length ? `reused ${reused.length} analysed project(s)` : '',
    created.length ? `uploaded and analysed ${created.length} project(s) in ${created.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  await app.services.jobs.stop();
  await app.close();
  await database.close();
}
const setupSeconds = (performance.now() - tSetup) / 1000;

// ---------------------------------------------------------------------------------------------------------------
// 2. The server as its own process.
// ---------------------------------------------------------------------------------------------------------------
const profDir = process.env.LOAD_CPU_PROF;
if (profDir) mkdirSync(profDir, { recursive: true });
const server: ChildProcess = spawn(process.execPath, [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), '--import', 'tsx', 'src/main.ts'], {
  cwd: SERVER_DIR,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    MAP_PRERENDER_WORLD: 'false', // no map tiles in this load: the run starts once the server is idle
    LOG_LEVEL: process.env.LOAD_SERVER_LOG ? 'info' : 'warn',
    ...(PG_URL ? { DATABASE_URL: PG_URL } : { DATA_DIR }),
    ...Object.fromEntries(Object.entries(ARGON2).map(([k, v]) => [k, String(v)])),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverErr = '';
/** LOAD_SERVER_LOG=file: the server's request log (pino, level info) goes to that file. */
const serverLog = process.env.LOAD_SERVER_LOG ? createWriteStream(process.env.LOAD_SERVER_LOG) : null;
if (serverLog) server.stdout!.pipe(serverLog);
server.stderr!.on('data', (d: Buffer) => {
  serverErr += d.toString();
  if (serverErr.length > 20_000) serverErr = serverErr.slice(-10_000);
});
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /running at http:\/\/localhost:(\d+)/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  server.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${serverErr.slice(-3000)}`)));
});

/** CPU seconds (user + system) and peak RSS of the server process, from /proc (Linux). */
function serverUsage(): { cpu: number; rssMiB: number; hwmMiB: number } | null {
  try {
    const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
    return { cpu: (Number(f[11]) + Number(f[12])) / 100, rssMiB: kb('VmRSS'), hwmMiB: kb('VmHWM') };
  } catch {
    return null;
  }
}

// Cold first dashboard query of each project (the server reads and decodes the stored analysis), outside the run.
const cold: number[] = [];
for (let c = 0; c < COMPANIES; c++) {
  const u = users.find((x) => x.company === c);
  if (!u) continue;
  const t = performance.now();
  const res = await fetch(`${base}/api/v2/dashboard/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Token ${u.token}` },
    body: JSON.stringify({ project_id: u.projectId }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`cold dashboard query: ${res.status}`);
  cold.push(performance.now() - t);
}

// The server loads the gazetteer after listening (main.ts); the run starts once it is idle (under 0.15 of a core over
// 2 s; the job queue's polling costs a little), at most 60 s after the cold queries.
const tIdle = performance.now();
for (let prev = serverUsage(); performance.now() - tIdle < 60_000;) {
  await new Promise((r) => setTimeout(r, 2000));
  const now = serverUsage();
  if (!prev || !now || now.cpu - prev.cpu < 0.3) break;
  prev = now;
}
const idleWait = (performance.now() - tIdle) / 1000;

// ---------------------------------------------------------------------------------------------------------------
// 3. The load: autocannon, one request sequence per visit.
// ---------------------------------------------------------------------------------------------------------------
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const filterRng = rng(7);
const SSP_YEARS = [2020, ...Array.from({ length: 16 }, (_, i) => 2025 + i * 5)];
/** Filters a user sets on the dashboard: analysis type, scenario, year, one hazard or all, adaptation on or off. */
function randomFilters() {
  const r = filterRng;
  const ssp = r() < 0.75;
  const body: Record<string, unknown> = {
    analysis_type: ssp ? 'ssp' : 'rcp',
    scenario: pick(r, ['26', '45', '85']),
    year: pick(r, ssp ? SSP_YEARS : [2020, 2030, 2050]),
  };
  body.variable = r() < 0.5 ? 'Total' : pick(r, HAZARD_LABELS);
  body.mitigation = r() < 0.7;
  return body;
}
let nextUser = 0;
type Ctx = { u?: LoadUser };
const auth = (ctx: Ctx) => ({
  authorization: `Token ${ctx.u!.token}`,
  accept: 'application/json',
  ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}),
});
/** The kind of the request whose answer is being recorded (autocannon calls onResponse just before its 'response' event). */
let answered = '';
type Req = autocannon.Request & { kind: string };
const req = (kind: string, method: 'GET' | 'POST', path: (ctx: Ctx) => string, body?: (ctx: Ctx) => unknown, first = false): Req => ({
  kind,
  method,
  path: '/',
  setupRequest: (r: autocannon.Request, context: object) => {
    const ctx = context as Ctx;
    if (first || !ctx.u) ctx.u = users[nextUser++ % users.length]!;
    const b = body?.(ctx);
    return {
      ...r,
      method,
      path: path(ctx),
      headers: { ...auth(ctx), ...(b !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(b !== undefined ? { body: JSON.stringify(b) } : {}),
    };
  },
  onResponse: () => {
    answered = kind;
  },
});
/** The page opens on the project's default filters; later queries are filter changes. */
const dashboard = (changed: boolean) =>
  req(
    'dashboard',
    'POST',
    () => '/api/v2/dashboard/',
    (ctx) => ({
      project_id: ctx.u!.projectId,
      currency: 'USD',
      percentage_type: 'dollar',
      count: 'All',
      parameter: 'loss',
      with_content: true,
      adjusted_gdp: false,
      property_type: 'All',
      mitigation: true,
      variable: 'Total',
      ...(changed ? randomFilters() : {}),
    }),
  );
const status = () => req('project status', 'GET', (ctx) => `/api/v2/projects/${ctx.u!.projectId}/status/`);
const visit: Req[] = [
  req('current user', 'GET', () => '/accounts/user/', undefined, true),
  req('project list', 'GET', (ctx) => `/api/project/${ctx.u!.userId}/`),
  status(),
  dashboard(false),
  status(),
  req('asset list', 'GET', (ctx) => `/api/asset/${ctx.u!.userId}/?project_id=${ctx.u!.projectId}`),
  dashboard(true),
  dashboard(true),
  req('project names', 'GET', () => '/api/project/all_projects/?list_for=physical_risk'),
];

const lat = new Map<string, number[]>();
/** Per 10-second window of the run: answers and their latencies (shows start-up effects and stalls). */
const windows: number[][] = [];
let tRun = 0;
const non2xx = new Map<string, number>();
const bytesOf = new Map<string, number>();
const usageBefore = serverUsage();
const loadDuring: string[] = [la()];
const sampler = setInterval(() => loadDuring.push(la()), 15_000);
// LOAD_ANALYSIS_ASSETS=n (issue 22): one more portfolio of n assets is uploaded by the first company's administrator as
// the run starts, and analysed while the 50 users browse; its upload and analysis times are reported.
const ANALYSIS_ASSETS = Number(process.env.LOAD_ANALYSIS_ASSETS ?? 0);
const analysisNote: string[] = [];
const analysisRun =
  ANALYSIS_ASSETS > 0
    ? (async () => {
        const admin = users[0]!;
        const h = { 'content-type': 'application/json', authorization: `Token ${admin.token}` };
        const t0 = performance.now();
        const res = await fetch(`${base}/api/v2/create_project/`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({
            portfolio_name: `Load analysis ${Date.now()}`,
            data: benchPortfolio(ANALYSIS_ASSETS, 99),
            portfolio_variables: HAZARD_LABELS,
          }),
        });
        const body = (await res.json()) as { project?: { project_id: number } };
        if (res.status !== 201 || !body.project) {
          analysisNote.push(`create_project answered ${res.status}`);
          return;
        }
        const created = (performance.now() - t0) / 1000;
        for (;;) {
          await new Promise((r) => setTimeout(r, 1000));
          const st = (await (await fetch(`${base}/api/v2/projects/${body.project.project_id}/status/`, { headers: h })).json()) as { status: string };
          if (st.status === 'done' || st.status === 'failed') {
            analysisNote.push(
              `${ANALYSIS_ASSETS.toLocaleString('en-US')}-asset portfolio uploaded in ${created.toFixed(1)} s, analysis ${st.status} ${((performance.now() - t0) / 1000).toFixed(1)} s after the upload began`,
            );
            return;
          }
          if (performance.now() - t0 > (SECONDS + 600) * 1000) {
            analysisNote.push(`analysis not finished ${((performance.now() - t0) / 1000).toFixed(0)} s after the upload began (${st.status})`);
            return;
          }
        }
      })()
    : null;
let finish!: (r: autocannon.Result) => void, fail!: (e: unknown) => void;
const done = new Promise<autocannon.Result>((resolve, reject) => {
  finish = resolve;
  fail = reject;
});
const run = autocannon(
  { url: base, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, timeout: 30, ...(RATE ? { connectionRate: RATE } : {}), requests: visit },
  (err, res) => (err ? fail(err) : finish(res)),
);
tRun = performance.now();
run.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
  const kind = answered;
  (windows[Math.floor((performance.now() - tRun) / 10_000)] ??= []).push(responseTime);
  let xs = lat.get(kind);
  if (!xs) lat.set(kind, (xs = []));
  xs.push(responseTime);
  bytesOf.set(kind, (bytesOf.get(kind) ?? 0) + resBytes);
  if (statusCode < 200 || statusCode >= 300) non2xx.set(kind, (non2xx.get(kind) ?? 0) + 1);
});
const result = await done;
if (analysisRun) await analysisRun;
clearInterval(sampler);
loadDuring.push(la());
const usageAfter = serverUsage();

server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
if (!KEEP_DIR && !PG_URL) rmSync(DATA_DIR, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------------------------
// 4. Report.
// ---------------------------------------------------------------------------------------------------------------
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
const rows: string[][] = [];
const order = [...new Set(visit.map((v) => v.kind))];
const all: number[] = [];
for (const kind of order) {
  const xs = (lat.get(kind) ?? []).sort((a, b) => a - b);
  all.push(...xs);
  if (!xs.length) {
    rows.push([kind, '0', '', '', '', '', '', '', '']);
    continue;
  }
  rows.push([
    kind,
    String(xs.length),
    (xs.length / SECONDS).toFixed(1),
    ms(pct(xs, 50)),
    ms(pct(xs, 95)),
    ms(pct(xs, 99)),
    ms(xs.at(-1)!),
    String(non2xx.get(kind) ?? 0),
    `${((bytesOf.get(kind) ?? 0) / xs.length / 1024).toFixed(1)}`,
  ]);
}
all.sort((a, b) => a - b);
const totalNon2xx = [...non2xx.values()].reduce((a, b) => a + b, 0);
rows.push([
  'all',
  String(all.length),
  (all.length / SECONDS).toFixed(1),
  ms(pct(all, 50)),
  ms(pct(all, 95)),
  ms(pct(all, 99)),
  ms(all.at(-1) ?? 0),
  String(totalNon2xx),
  `${(result.throughput.total / Math.max(1, all.length) / 1024).toFixed(1)}`,
]);
const head = ['request kind', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'non-2xx', 'KiB/answer'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

console.log(
  `\nLoad benchmark — ${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(
  `server: src/main.ts as its own process (HTTP_COMPRESSION=${process.env.HTTP_COMPRESSION ?? 'false'}) on ${PG_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : `PGlite (${DATA_DIR}${KEEP_DIR ? '' : ', temporary'})`}; set-up ${setupSeconds.toFixed(1)} s (${setupNote})`,
);
console.log(
  `load: ${CONNECTIONS} connections, ${users.length} signed-in users in ${COMPANIES} companies, ${SECONDS} s, ${RATE ? `paced at ${RATE} req/s per connection` : 'closed loop (next request when the answer arrives, no think time)'}; ${COMPANIES} projects of ${ASSETS.toLocaleString('en-US')} assets x 11 hazards x 58 scenario-years`,
);
console.log(
  `visit (repeated by every connection, each time as the next user): ${visit.map((v) => v.kind).join(' -> ')}; Accept-Encoding: ${ACCEPT_ENCODING || 'none'}`,
);
if (ANALYSIS_ASSETS) console.log(`during the run: ${analysisNote.join('; ')}`);
console.log(`load average (1/5/15 min): before set-up ${loadAvgStart}; during the run ${loadDuring.join(' | ')}`);
console.log(
  `cold first dashboard query per project (before the run): ${cold.map(ms).join(', ')}; then ${idleWait.toFixed(0)} s until the server was idle (start-up work done)`,
);
console.log('');
console.log(line(head));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
console.log('');
console.log(
  `per 10 s of the run (answers, p50/p95 ms): ${Array.from(windows, (w) => {
    const x = (w ?? []).sort((a, b) => a - b);
    return x.length ? `${x.length} ${pct(x, 50).toFixed(0)}/${pct(x, 95).toFixed(0)}` : '0';
  }).join(' | ')}`,
);
console.log(
  `throughput: ${(result.requests.average ?? 0).toFixed(1)} req/s (autocannon mean), ${(result.throughput.average / 2 ** 20).toFixed(1)} MiB/s; connection errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}   (goal: zero errors, dashboard p95 < 300 ms)`,
);
if (usageBefore && usageAfter)
  console.log(
    `server process: ${(usageAfter.cpu - usageBefore.cpu).toFixed(1)} CPU-s in ${SECONDS} s (${((usageAfter.cpu - usageBefore.cpu) / SECONDS).toFixed(2)} cores), RSS ${usageAfter.rssMiB.toFixed(0)} MiB, peak ${usageAfter.hwmMiB.toFixed(0)} MiB`,
  );
if (profDir) console.log(`server CPU profile written to ${profDir}`);
if (result.errors || result.timeouts || totalNon2xx) console.log(`server stderr (last lines):\n${serverErr.slice(-2000)}`);
