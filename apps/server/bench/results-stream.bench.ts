/**
 * The streamed results API (issue 36 item 4): a project of BENCH_STREAM_ASSETS assets (default 1,000) with all eleven
 * hazards (x 3 scenarios x 16 SSP years = 528 rows an asset) read whole in each format, one request at a time. Prints
 * per format: rows, bytes, seconds, the process's RSS before and at its peak, the event-loop delay (p99, max) and the
 * latency of another user's request (GET /api/health every 50 ms) meanwhile. Server and client share this process, so
 * the delays include the client's reading (small). PGlite in memory unless BENCH_DATABASE_URL.
 *
 *   node --import tsx apps/server/bench/results-stream.bench.ts
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { HAZARDS } from '@crp/contracts';
import { loadConfig } from '../src/config.js';
import { benchPortfolio, enterpriseTier, startBenchApp } from './fixtures.js';

const N = Number(process.env.BENCH_STREAM_ASSETS ?? 1000);
const config = loadConfig(
  {},
  {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    SEED_DEMO: false,
    MAP_PRERENDER_WORLD: false,
    DASHBOARD_WARM_ON_START: false,
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
);
const { app, database, base } = await startBenchApp(config, { jobs: true });
const la = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
console.log(
  `\nResults API streaming — ${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${la()}`,
);

const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { [k: string]: unknown } };
};
const password = 'typhoon harbour passphrase';
const reg = await post('/api/user/register/', {
  first_name: 'Bench',
  last_name: 'Mark',
  username: 'bench',
  email: 'bench@example.com',
  password,
  confirm_password: password,
  company_name: 'Bench Co',
});
await enterpriseTier(database.db);
const token = (await post('/api/user/rest_login/', { username: 'bench', password, company_code: reg.body.company_code })).body.token as string;
const created = await post(
  '/api/v2/create_project/',
  { portfolio_name: 'Stream bench', data: benchPortfolio(N, 7), portfolio_variables: HAZARDS.map((h) => h.label) },
  token,
);
const projectId = (created.body.project as { project_id: number }).project_id;
for (;;) {
  const res = await fetch(`${base}/api/v2/projects/${projectId}/status/`, { headers: { authorization: `Token ${token}` } });
  const s = (await res.json()) as { status: string };
  if (s.status === 'done') break;
  if (s.status === 'failed') throw new Error('analysis failed');
  await new Promise((r) => setTimeout(r, 500));
}
console.log(`project of ${N.toLocaleString('en-US')} assets analysed; RSS ${mib(process.memoryUsage().rss)}`);

for (const [format, gzip] of [
  ['json', false],
  ['ndjson', false],
  ['csv', false],
  ['json', true],
  ['parquet', false],
] as const) {
  (globalThis as { gc?: () => void }).gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const lat: number[] = [];
  let done = false;
  const t0 = performance.now();
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      lat.push(performance.now() - t);
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const res = await fetch(`${base}/api/v2/asset_results/?format=${format}`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json', 'accept-encoding': gzip ? 'gzip' : 'identity' },
    body: JSON.stringify({ project_id: projectId }),
  });
  // the raw bytes on the wire: read the body without decoding (fetch would gunzip)
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  await probe;
  delay.disable();
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!.toFixed(0);
  console.log(
    `${format}${gzip ? ' (gzip)' : ''}: ${res.headers.get('x-total-rows')} rows, ${mib(bytes)}${gzip ? ' decoded by fetch' : ''} in ${seconds.toFixed(1)} s; ` +
      `RSS ${mib(rss0)} -> peak ${mib(peak)}; event loop p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms; ` +
      `other request p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${lat.at(-1)!.toFixed(0)} ms (${lat.length}); load ${la()}`,
  );
}
await app.close();
await database.close();
