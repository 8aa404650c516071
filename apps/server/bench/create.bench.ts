/**
 * create_project alone (issue 22): a CSV portfolio of BENCH_ASSETS rows (default 200,000; the bench.ts portfolio)
 * uploaded as multipart over real HTTP, timed from the request to the 201, with the server's event-loop delay meanwhile
 * (the analysis job is not started). Then the same rows through each step in process, timed one by one: decode and
 * split, records and validation, country look-up, insert (into a project that is deleted afterwards).
 * BENCH_DATABASE_URL: PostgreSQL instead of PGlite in memory. BENCH_PHASES=0: the HTTP figure only.
 * CPU profile: `node --cpu-prof --cpu-prof-dir=DIR --import tsx apps/server/bench/create.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { cpus, loadavg } from 'node:os';
import { countryOf, warmCountries } from '@crp/geo';
import { loadConfig } from '../src/config.js';
import * as assetImport from '../src/modules/projects/asset-import.js';
import { insertAssets, insertProject } from '../src/modules/projects/project.repository.js';
import { benchPortfolio, enterpriseTier, startBenchApp } from './fixtures.js';

const N = Number(process.env.BENCH_ASSETS ?? 200_000);
const config = loadConfig(
  {},
  {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    SEED_DEMO: false,
    ARGON2_MEMORY_KIB: 8192,
    ARGON2_TIME_COST: 1,
    UPLOAD_MAX_ROWS: Math.max(100_000, N),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
);
const { app, database, base } = await startBenchApp(config, { jobs: false });
const post = async (path: string, body: unknown) => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as any;
};
const password = 'typhoon harbour passphrase';
const suffix = Date.now().toString(36);
const reg = await post('/api/user/register/', {
  first_name: 'Bench',
  last_name: 'Create',
  username: `create${suffix}`,
  email: `create${suffix}@example.com`,
  password,
  confirm_password: password,
  company_name: `Create Co ${suffix}`,
});
await enterpriseTier(database.db, reg.company_code);
const token = (await post('/api/user/rest_login/', { username: `create${suffix}`, password, company_code: reg.company_code })).token as string;

// Only the CSV bytes are kept: the generated rows are let go before the clock starts, so that the garbage collector's
// pauses measured below are the server's, not this client's million objects.
const csv = Buffer.from(
  'name,latitude,longitude,property_type,valuation,revenue\n' +
    benchPortfolio(N, 42)
      .map((d) => `${d.name},${d.latitude},${d.longitude},${d.property_type},${d.valuation},${d.revenue}`)
      .join('\n'),
);
(globalThis as { gc?: () => void }).gc?.();
warmCountries();
const header = `create_project bench — ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores, Node ${process.version}, ${
  process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite in memory'
}, ${N.toLocaleString('en-US')} rows (${(csv.length / 2 ** 20).toFixed(1)} MiB CSV)`;
console.log(header);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const boundary = `----createbench${suffix}`;
const part = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const multipart = Buffer.concat([
  Buffer.from(
    part('portfolio_name', `Create bench ${suffix}`) +
      part('portfolio_variables', JSON.stringify(['Wildfire'])) +
      `--${boundary}\r\ncontent-disposition: form-data; name="upload_file"; filename="book.csv"\r\ncontent-type: text/csv\r\n\r\n`,
  ),
  csv,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
// BENCH_TRACE=1: when the server's service got the parsed request and when its parse and store ended.
const trace: string[] = [];
if (process.env.BENCH_TRACE) {
  const svc = app.services.projects;
  const parse = svc.parseLocations.bind(svc);
  const create = svc.createPhysical.bind(svc);
  svc.parseLocations = async (body) => {
    trace.push(`service called at ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    const out = await parse(body);
    trace.push(`parsed, validated, geocoded at ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    return out;
  };
  svc.createPhysical = async (...args) => {
    const out = await create(...args);
    trace.push(`stored at ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    return out;
  };
}
// CPU time of this process and, on a local PostgreSQL, of the server processes serving this database: under a shared
// machine's load the wall time varies 2-3x between runs, the CPU time much less.
const ticksOf = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * (1000 / 100);
  } catch {
    return 0;
  }
};
const backendCpu = async () => {
  if (!process.env.BENCH_DATABASE_URL) return new Map<number, number>();
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(database.db);
  return new Map(rows.map((r) => [r.pid, ticksOf(r.pid)]));
};
const pg0 = await backendCpu();
const cpu0 = process.cpuUsage();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
// BENCH_TRACE=1 also lists every event-loop stall over 100 ms with the time since the request began.
const stalls: string[] = [];
let lastTick = performance.now();
const stallTimer = process.env.BENCH_TRACE
  ? setInterval(() => {
      const now = performance.now();
      if (now - lastTick > 100) stalls.push(`${((lastTick - t0) / 1000).toFixed(2)} s: ${(now - lastTick).toFixed(0)} ms`);
      lastTick = now;
    }, 10)
  : null;
const t0 = performance.now();
// The multipart body is made before the clock starts, as one buffer: what the server meets is the upload itself, not
// this client's FormData streaming (which copies the file in small chunks on the same event loop).
const res = await fetch(base + '/api/v2/create_project/', {
  method: 'POST',
  headers: { authorization: `Token ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: multipart,
});
const created = (await res.json()) as any;
const tHttp = performance.now() - t0;
loopDelay.disable();
const cpu = process.cpuUsage(cpu0);
const pg1 = await backendCpu();
const pgMs = [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0.get(pid) ?? 0), 0);
if (stallTimer) clearInterval(stallTimer);
if (trace.length) console.log(`  ${trace.join('; ')}; stalls over 100 ms: ${stalls.join(', ') || 'none'}`);
if (res.status !== 201) throw new Error(JSON.stringify(created).slice(0, 300));
console.log(
  `  HTTP create_project (multipart CSV -> 201): ${(tHttp / 1000).toFixed(2)} s; event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(
    loopDelay.max / 1e6
  ).toFixed(0)} ms; CPU: this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s${
    process.env.BENCH_DATABASE_URL ? `, PostgreSQL ${(pgMs / 1000).toFixed(1)} s` : ''
  }; load ${load()}`,
);

if (process.env.BENCH_PHASES !== '0') {
  const times: [string, number][] = [];
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    times.push([name, now - t]);
    t = now;
  };
  const table = await assetImport.readUploadTableAsync({ filename: 'book.csv', data: csv }, config.UPLOAD_MAX_ROWS);
  lap('decode + split CSV (readUploadTableAsync)');
  // (An older tree, for before/after figures: records, then validation.)
  const m = assetImport as unknown as Record<string, (...a: unknown[]) => any>;
  const { assets, errors } = m.validateTableInSlices
    ? ((await m.validateTableInSlices(table)) as { assets: assetImport.ImportedAsset[]; errors: string[] })
    : ((await m.validateAssetsInSlices!(m.recordsFromTable!(table))) as { assets: assetImport.ImportedAsset[]; errors: string[] });
  if (errors.length) throw new Error(errors[0]);
  lap('records and validation');
  for (const a of assets) a.country_code ??= countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null;
  lap('country of each point (countryOf)');
  const owner = await database.db.selectFrom('users').select(['id', 'company_id']).where('username', '=', `create${suffix}`).executeTakeFirstOrThrow();
  await database.db.transaction().execute(async (tx) => {
    const p = await insertProject(tx, {
      company_id: owner.company_id,
      owner_id: owner.id,
      kind: 'physical',
      name: `phases ${suffix}`,
      name_lower: `phases ${suffix}`,
      portfolio_variables: '[]',
      non_building_variables: '{}',
      base_unit: 'meter',
      base_currency: 'USD',
      source: 'bench',
      is_benchmark: false,
      ticker: null,
      index_name: null,
      default_filters: '{}',
      status: 'queued',
      progress: 0,
      status_message: '',
      version: 1,
    });
    t = performance.now();
    await insertAssets(tx, p.id, 0, assets);
    lap('insert (insertAssets)');
    await tx.deleteFrom('projects').where('id', '=', p.id).execute();
  });
  const sum = times.reduce((s, [, ms]) => s + ms, 0);
  for (const [name, ms] of times) console.log(`  ${name.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms`);
  console.log(`  ${'sum of the steps'.padEnd(44)} ${sum.toFixed(0).padStart(7)} ms; load ${load()}`);
}
await app.close();
await database.close();
