#!/usr/bin/env node
// The one test command: installs what is missing, type-checks, then runs every suite:
// package unit tests, server API tests on PGlite and on PostgreSQL, and browser end-to-end tests.
// Prints one closing line "N passed, N failed". The server test processes, and the servers, workers and admin
// commands the server and browser tests start, run as esbuild bundles (scripts/build-server-bundle.mjs) rather than
// through tsx; TEST_BUNDLE=0 runs them all through tsx.
import { spawn, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import net from 'node:net';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
process.chdir(root);
// Optional suite names (unit, server-pglite, server-pg, e2e, typecheck, lint, format, docs) and test files (paths
// ending in .test.ts: only those files run in their suites).
const only = process.argv.slice(2).filter((a) => !a.endsWith('.test.ts'));
const onlyFiles = process.argv
  .slice(2)
  .filter((a) => a.endsWith('.test.ts'))
  .map((a) => resolve(process.env.INIT_CWD ?? root, a));
const want = (s) => only.length === 0 || only.includes(s);

ensureDeps();

function findTests(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts') && (onlyFiles.length === 0 || onlyFiles.includes(p))) out.push(p);
  }
  return out.sort();
}

function ensureSystemPackages() {
  const need = [];
  if (!existsSync('/usr/bin/chromium')) need.push('chromium');
  if (!existsSync('/usr/bin/pdftoppm')) need.push('poppler-utils');
  if (need.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn(`[test] missing ${need.join(', ')} and not root: install them with apt-get`);
    return;
  }
  console.log(`[test] installing ${need.join(', ')} with apt-get...`);
  execSync('apt-get update -qq', { stdio: 'inherit' });
  execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${need.join(' ')}`, { stdio: 'inherit' });
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const totals = { pass: 0, fail: 0, skipped: 0 };
const failedSuites = [];
const times = [];
mkdirSync(join(root, 'test-output'), { recursive: true });

// GNU time, where there is one, measures each command's CPU: user + system seconds of the command and of every process
// it started and waited for (test files, their servers and workers). Wall times on a shared 2-core machine say more
// about the other load than about the tests; the CPU seconds say what the tests cost.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
let cpuFiles = 0;
/** Runs a command at idle priority: the scheduler's idle class (a core only when nothing else wants it), else nice 19. */
const IDLE = existsSync('/usr/bin/chrt') ? ['/usr/bin/chrt', '--idle', '0'] : ['nice', '-n', '19'];

/**
 * Runs a command; resolves with { code, seconds, cpu, held }. `live` output goes to the terminal as it comes, else
 * it is held and handed back, to be printed in one block (so no two commands' lines interleave). `cpu` is in
 * seconds, or null without GNU time.
 */
function exec(cmd, args, { env = {}, live = false, idle = false } = {}) {
  const t0 = Date.now();
  if (idle) [cmd, args] = [IDLE[0], [...IDLE.slice(1), cmd, ...args]];
  const cpuFile = GNU_TIME ? join(root, 'test-output', `.cpu-${process.pid}-${cpuFiles++}`) : null;
  const [c, a] = cpuFile ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve) => {
    const child = spawn(c, a, { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'], env: { ...process.env, ...env } });
    let held = '';
    if (!live) {
      child.stdout.on('data', (d) => (held += d));
      child.stderr.on('data', (d) => (held += d));
    }
    child.on('error', (err) => (held += `\n${err.stack ?? err}\n`));
    child.on('close', (code, signal) => {
      let cpu = null;
      if (cpuFile && existsSync(cpuFile)) {
        // The last line holds "user system" (a line before it says so when the command exited non-zero).
        const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(system)) cpu = user + system;
        rmSync(cpuFile, { force: true });
      }
      resolve({ code: code ?? (signal ? 1 : 0), signal, seconds: Math.round((Date.now() - t0) / 100) / 10, cpu, held });
    });
  });
}

const cpuText = (cpu) => (cpu === null ? '' : `, CPU ${Math.round(cpu)} s`);

/**
 * Runs a command as one step of the run, with its wall time (and CPU) in the closing summary. Steps run side by side:
 * the `live` one prints as it goes, the others' output is held and printed in one block when they end.
 */
async function run(label, cmd, args, { env = {}, live = true, idle = false } = {}) {
  const r = await exec(cmd, args, { env, live, idle });
  times.push(`${label} ${r.seconds} s${cpuText(r.cpu)}`);
  if (!live) process.stdout.write(`\n=== ${label}: output (ran alongside other suites)\n${r.held}`);
  console.log(`\n=== ${label}: ${r.code === 0 && !r.signal ? 'done' : `exit ${r.signal ?? r.code}`} in ${r.seconds} s${cpuText(r.cpu)}`);
  return r.code;
}

/** `node --test` (through tsx unless `tsx` is false), its spec report on stdout and its TAP written to `tap`. */
const nodeTestArgs = (tap, tsx = true) => [
  ...(tsx ? ['--import', 'tsx'] : []),
  '--test',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
];

async function runSuite(name, files, env = {}, extraArgs = [], opts = {}) {
  if (files.length === 0) {
    console.log(`\n=== ${name}: no test files`);
    return;
  }
  console.log(`\n=== ${name}: ${files.length} file(s)`);
  const tap = join(root, 'test-output', `${name}.tap`);
  rmSync(tap, { force: true });
  const status = await run(
    name,
    process.execPath,
    [
      ...nodeTestArgs(tap),
      '--test-reporter=./scripts/test-file-times.mjs',
      `--test-reporter-destination=${join(root, 'test-output', `${name}.files.txt`)}`,
      ...extraArgs,
      ...files.map((f) => relative(root, f)),
    ],
    { env, ...opts },
  );
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
  totals.pass += num('pass');
  totals.fail += num('fail');
  totals.skipped += num('skipped') + num('todo');
  if (status !== 0) {
    failedSuites.push(name);
    if (num('fail') === 0) totals.fail += 1;
  }
}

/** A check that is one command: one pass or one failure. */
async function runCheck(name, cmd, args, opts = {}) {
  console.log(`\n=== ${name}`);
  const status = await run(name, cmd, args, opts);
  if (status !== 0) {
    failedSuites.push(name);
    totals.fail += 1;
  } else totals.pass += 1;
}

/**
 * Whether a server test file runs on the suite's database: the harness's startServer and createTestDatabase pick
 * PGlite or PostgreSQL by TEST_DB, and a file may read TEST_DB or a database URL itself (or open a database or build
 * the app its own way, counted here too). A file that does none of these checks the same thing in either suite, so
 * it runs once, in the first server suite asked for, rather than in both: pure parsing, codec and OpenAPI-document
 * tests, and dashboard-warm.test.ts, whose `npm start` servers always run on a PGlite folder of their own. A file that
 * starts a server but checks nothing the database decides (tiles and layers rendered, HTTP headers, the Python client's
 * calls) says so in a first-line comment `// test-db: once` with its reason, and runs once too.
 */
function usesSuiteDatabase(file) {
  const text = readFileSync(file, 'utf8');
  if (/^\/\/ test-db: once\b/m.test(text)) return false;
  return /\b(startServer|createTestDatabase|openDatabase|buildApp|migrateToLatest|TEST_DB|TEST_DATABASE_URL|DATABASE_URL)\b/.test(text);
}

// The server test files known to be slow (rough wall seconds in a full run on the 2-core machine): they start first,
// so the run does not end on one long file. A run writes the times it saw to test-output/server-times.json, and a
// later run in the same folder orders by those instead.
const SLOW_SERVER_FILES = {
  'scaleout.test.ts': 90,
  'backup.test.ts': 85,
  'crash.test.ts': 70,
  'fuzz.test.ts': 65,
  'authorization.test.ts': 55,
  'dashboard-equivalence.test.ts': 50,
  'analysis-responsive.test.ts': 35,
  'dashboard-large.test.ts': 40,
  'compression.test.ts': 35,
  'projects.test.ts': 35,
  'dashboard-warm.test.ts': 30,
  // its pre-render test waits for a thread at the lowest priority: 300-450 s on a loaded machine (little CPU), so it
  // starts first, alone, rather than late in a group of six
  'world-tiles.test.ts': 400,
  'reports.test.ts': 25,
};

/**
 * Whether a server test file needs a process of its own: it sets process.env (read by code it imports or by the
 * servers it starts), or measures its own process's memory, CPU or event-loop delay, which what other files left
 * running in the same process would distort.
 */
function needsOwnProcess(file) {
  return /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|memoryUsage\(|cpuUsage\(|monitorEventLoopDelay\(/.test(readFileSync(file, 'utf8'));
}

/**
 * A test process's file (one test file or a group file) and everything it imports from the workspace as one
 * JavaScript file, `<outdir>/<name>.mjs`, run by `node --test` without tsx: tsx's loading of the server's and the
 * tests' sources cost each test process about 2 CPU-seconds more than the bundle, and the worker threads of its
 * servers load the server bundle's worker modules instead of compiling the engine and hazards again
 * (docs/performance-history.md "Test suite"; scripts/build-server-bundle.mjs says how the bundle keeps the sources'
 * behaviour). Answers the bundle's path, or null (TEST_BUNDLE=0, or the build failed: the process then runs the
 * sources through tsx, as before).
 */
async function bundleTestFile(target, outdir, name) {
  if (process.env.TEST_BUNDLE === '0') return null;
  try {
    const { bundleForNode, workerFiles } = await import('./build-server-bundle.mjs');
    // the worker threads its servers start load the server bundle's worker modules, when there is one
    const workers = process.env.CRP_SERVER_BUNDLE ? workerFiles(process.env.CRP_SERVER_BUNDLE) : new Map();
    await bundleForNode({ entryPoints: [{ out: name, in: target }], outdir, workers });
    return relative(root, join(outdir, `${name}.mjs`));
  } catch (err) {
    console.warn(`[test] ${target} not bundled (it runs through tsx): ${err.message ?? err}`);
    return null;
  }
}
/**
 * The server test files of every suite asked for, as one queue of runs, SERVER_SLOTS at a time, the slowest first
 * (longest-first keeps the end of the run from waiting on one long file while the other slots idle).
 *
 * A run is one `node --test` process. Most of a small file's CPU is the process starting (tsx loading the server's
 * modules, about 5 s of CPU, the hazard layers at the first analysis, about 3 s, the password dictionaries, about 1 s),
 * so files share processes: up to GROUP_FILES files, one after the other in one process, each with its own servers
 * and databases as before (the process imports them all; node:test runs their tests in order). Slow files, and
 * files that set process.env or measure their own process (needsOwnProcess), run in a process of their own.
 * Per suite: test-output/<suite>.tap (the runs' TAP one after the other, each run's also under test-output/<suite>/),
 * test-output/<suite>.files.txt (wall and CPU per run).
 */
const SERVER_SLOTS = 4;
const GROUP_FILES = 6;
const ALONE_SECONDS = 60;
async function runServerSuites(suites, files) {
  if (suites.length === 0) return;
  const timesFile = join(root, 'test-output', 'server-times.json');
  const previous = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {};
  const jobs = [];
  const once = [];
  const perSuite = new Map(suites.map((s) => [s, []]));
  for (const file of files) {
    const rel = relative(root, file);
    const base = rel.split('/').pop();
    const dbSuites = usesSuiteDatabase(file) ? suites : suites.slice(0, 1);
    if (dbSuites.length < suites.length) once.push(base);
    const alone = needsOwnProcess(file);
    for (const suite of dbSuites) perSuite.get(suite).push({ rel, alone, expect: previous[`${suite.name} ${rel}`] ?? SLOW_SERVER_FILES[base] ?? 10 });
  }
  for (const [suite, list] of perSuite) {
    const shared = [];
    for (const f of list) {
      if (f.alone || f.expect >= ALONE_SECONDS || list.length === 1) jobs.push({ suite, rels: [f.rel], expect: f.expect });
      else shared.push(f);
    }
    // longest processing time first: each file to the group with the least expected time so far
    const groups = Array.from({ length: Math.ceil(shared.length / GROUP_FILES) }, () => ({ suite, rels: [], expect: 0 }));
    for (const f of shared.sort((a, b) => b.expect - a.expect || a.rel.localeCompare(b.rel))) {
      const g = groups.filter((x) => x.rels.length < GROUP_FILES).sort((a, b) => a.expect - b.expect)[0];
      g.rels.push(f.rel);
      g.expect += f.expect;
    }
    jobs.push(...groups);
  }
  jobs.sort((a, b) => b.expect - a.expect || a.rels[0].localeCompare(b.rels[0]) || a.suite.name.localeCompare(b.suite.name));
  const state = new Map(suites.map((s) => [s.name, { files: [], pass: 0, fail: 0, skipped: 0, failed: false, cpu: 0, end: 0 }]));
  for (const suite of suites) {
    const mine = jobs.filter((j) => j.suite === suite);
    console.log(
      `\n=== ${suite.name}: ${mine.reduce((n, j) => n + j.rels.length, 0)} file(s) in ${mine.length} processes` +
        `${once.length && suite === suites[0] ? ` (${once.join(', ')} do not depend on the suite's database: run here only)` : ''}`,
    );
    rmSync(join(root, 'test-output', suite.name), { recursive: true, force: true });
    mkdirSync(join(root, 'test-output', suite.name), { recursive: true });
  }
  console.log(`\n=== server suites: ${jobs.length} processes, ${SERVER_SLOTS} at a time, slowest first`);
  const t0 = Date.now();
  let next = 0;
  let groupNo = 0;
  const seen = { ...previous };
  async function slot() {
    while (next < jobs.length) {
      const { suite, rels } = jobs[next++];
      const name = rels.length === 1 ? rels[0].split('/').pop().replace(/\.ts$/, '') : `group-${++groupNo}`;
      const tap = join(root, 'test-output', suite.name, `${name}.tap`);
      let target = rels[0];
      if (rels.length > 1) {
        target = relative(root, join(root, 'test-output', suite.name, `${name}.test.mjs`));
        writeFileSync(
          join(root, target),
          `// ${suite.name}: these server test files share one process (scripts/test.mjs, runServerSuites)\n` +
            rels.map((r) => `import ${JSON.stringify(pathToFileURL(join(root, r)).href)};\n`).join(''),
        );
      }
      const label = rels.length === 1 ? rels[0] : `${name} (${rels.map((r) => r.split('/').pop()).join(', ')})`;
      const bundled = await bundleTestFile(target, join(root, 'test-output', suite.name, 'bundle'), name);
      const r = await exec(process.execPath, bundled ? [...nodeTestArgs(tap, false), bundled] : [...nodeTestArgs(tap), target], { env: suite.env });
      const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
      const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
      const st = state.get(suite.name);
      st.pass += num('pass');
      st.fail += num('fail');
      st.skipped += num('skipped') + num('todo');
      if (r.code !== 0) {
        st.failed = true;
        if (num('fail') === 0) st.fail += 1;
      }
      st.cpu += r.cpu ?? 0;
      st.end = Date.now();
      st.files.push({ rel: label, seconds: r.seconds, cpu: r.cpu, tap: text, code: r.code });
      if (rels.length === 1) seen[`${suite.name} ${rels[0]}`] = r.seconds;
      process.stdout.write(
        `\n--- ${suite.name} ${label}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.signal ?? r.code})`} in ${r.seconds} s${cpuText(r.cpu)}\n${r.held}`,
      );
    }
  }
  await Promise.all(Array.from({ length: Math.min(SERVER_SLOTS, jobs.length) }, slot));
  writeFileSync(timesFile, JSON.stringify(seen, null, 1) + '\n');
  for (const suite of suites) {
    const st = state.get(suite.name);
    const seconds = Math.round((st.end - t0) / 100) / 10;
    const cpu = GNU_TIME ? st.cpu : null;
    times.push(`${suite.name} ${seconds} s${cpuText(cpu)}`);
    totals.pass += st.pass;
    totals.fail += st.fail;
    totals.skipped += st.skipped;
    if (st.failed || st.fail) failedSuites.push(suite.name);
    const byTime = [...st.files].sort((a, b) => b.seconds - a.seconds);
    writeFileSync(join(root, 'test-output', `${suite.name}.tap`), st.files.map((f) => `# file: ${f.rel}\n${f.tap}`).join('\n'));
    writeFileSync(
      join(root, 'test-output', `${suite.name}.files.txt`),
      `# per-process wall time (s) and CPU (s), slowest first; ${st.files.length} processes, ${SERVER_SLOTS} at a time across the server suites\n` +
        byTime
          .map((f) => `${f.seconds.toFixed(1).padStart(7)} ${f.cpu === null ? '' : f.cpu.toFixed(1).padStart(7)}  ${f.rel}${f.code ? '  FAILED' : ''}`)
          .join('\n') +
        '\n',
    );
    console.log(
      `\n=== ${suite.name}: ${st.failed || st.fail ? 'FAILED' : 'done'} in ${seconds} s${cpuText(cpu)}: ${st.pass} passed, ${st.fail} failed${st.skipped ? `, ${st.skipped} skipped` : ''}`,
    );
  }
}

const started = Date.now();
const packageTests = readdirSync(join(root, 'packages')).flatMap((p) => findTests(join(root, 'packages', p)));
const serverTests = findTests(join(root, 'apps/server/test'));
const e2eTests = want('e2e') ? findTests(join(root, 'e2e')) : [];
// The server's report tests read PDFs with poppler (pdftotext, pdfinfo, pdftoppm); the browser tests need chromium.
if (['server-pglite', 'server-pg', 'e2e'].some(want)) ensureSystemPackages();

// The suites run in three groups, side by side within a group. Test files cannot collide: every file has its own
// database (a PGlite folder or in-memory instance, or a PostgreSQL database with a random name) and its servers
// listen on ports the system picks (port 0).
// The checks (type-check, lint, format, docs) start at once and run beside everything else at idle priority
// (SCHED_IDLE with chrt, else nice 19): they get a core only when the tests leave one unused, which is mostly during
// the browser tests (one file at a time, about a core's worth of work on two cores), and they have no timings to
// disturb. A process at idle priority yields the core to a test process the moment that one wakes, so the browser
// tests' timing checks see the machine as before (see group 3). TEST_CHECKS=first runs them in group 1 instead, at
// normal priority and before the tests, as this script used to. Their results are counted at the end.
const checksFirst = process.env.TEST_CHECKS === 'first';
const startChecks = () =>
  Promise.all([
    want('typecheck') && runCheck('typecheck', 'npm', ['run', 'typecheck', '--workspaces', '--if-present', '--silent'], { live: false, idle: !checksFirst }),
    want('lint') &&
      runCheck(
        'lint (ESLint: typescript-eslint, import boundaries and cycles; npm run lint)',
        'npx',
        ['eslint', '.', '--max-warnings=0', '--cache', '--cache-location', 'node_modules/.cache/eslint/'],
        { live: false, idle: !checksFirst },
      ),
    want('format') &&
      runCheck('format (Prettier; npm run format rewrites)', 'npx', ['prettier', '--check', '.', '--log-level', 'warn'], { live: false, idle: !checksFirst }),
    want('docs') &&
      runCheck('docs (documents are built from the current docs: npm run docs:build)', process.execPath, ['scripts/build-docs.mjs', '--check'], {
        live: false,
        idle: !checksFirst,
      }),
  ]);
const checks = checksFirst ? null : startChecks();

// Group 1: the unit tests, the web build for the browser tests, the PGlite template database
// (apps/server/test/support/pglite-template.ts, made once here rather than by several test files at once) and the
// server's entries as one JavaScript bundle (scripts/build-server-bundle.mjs): the server, worker, admin and SMTP-sink
// processes the server and browser tests start run it (CRP_SERVER_BUNDLE, read by apps/server/test/support/entries.ts)
// instead of tsx compiling the sources again in each (2-3 CPU-seconds less per server start). Without it they run the
// sources through tsx, as a test file run on its own does.
let webBuilt = true;
await Promise.all([
  checksFirst && startChecks(),
  want('unit') && runSuite('unit', packageTests, {}, ['--test-concurrency=2'], { live: false }),
  e2eTests.length > 0 &&
    run('web build for e2e', 'npm', ['run', 'build', '-w', '@crp/web', '--silent'], { live: false }).then((status) => {
      if (status !== 0) {
        webBuilt = false;
        failedSuites.push('web-build');
        totals.fail += 1;
      }
    }),
  ['server-pglite', 'server-pg', 'e2e'].some(want) &&
    process.env.TEST_BUNDLE !== '0' &&
    import('./build-server-bundle.mjs')
      .then((m) => m.buildServerBundle())
      .then(
        (dir) => (process.env.CRP_SERVER_BUNDLE = dir),
        (err) => console.warn(`[test] server bundle not built (the tests start the sources through tsx): ${err.message ?? err}`),
      ),
  ['server-pglite', 'server-pg', 'e2e'].some(want) &&
    run(
      'PGlite template database',
      process.execPath,
      ['--import', 'tsx', '-e', "import('./apps/server/test/support/pglite-template.ts').then((m) => m.pgliteTemplate())"],
      { live: false },
    ),
]);

// Group 2: the server tests on PGlite and on PostgreSQL.
const serverSuites = [];
if (want('server-pglite')) serverSuites.push({ name: 'server-pglite', env: { TEST_DB: 'pglite' } });
if (want('server-pg')) {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const u = new URL(url);
  if (await canConnect(u.hostname, Number(u.port || 5432))) {
    serverSuites.push({ name: 'server-pg', env: { TEST_DB: 'postgres', TEST_DATABASE_URL: url } });
  } else if (process.env.CI) {
    console.error(`[test] PostgreSQL at ${u.host} is not reachable, and CI requires the PostgreSQL run`);
    failedSuites.push('server-pg');
    totals.fail += 1;
  } else {
    console.warn(`[test] PostgreSQL at ${u.host} not reachable: server-pg suite skipped`);
  }
}
// The browser tests without timing checks run beside the server tests, one file at a time: most of their time is
// waiting (the browser, the pages' requests, auth.test.ts's 2FA codes for new 30-second steps), so they fill the CPU
// the server queue leaves idle instead of adding their wall time after it. The ones with timing checks wait for
// group 3 (E2E_TIMING).
const E2E_TIMING = new Set(['help.test.ts', 'dashboard.test.ts']);
const e2eTiming = e2eTests.filter((f) => E2E_TIMING.has(f.split('/').pop()));
const e2eBeside = e2eTests.filter((f) => !E2E_TIMING.has(f.split('/').pop()));
await Promise.all([
  runServerSuites(serverSuites, serverTests),
  e2eBeside.length > 0 && webBuilt && runSuite('e2e', e2eBeside, {}, ['--test-concurrency=1'], { live: false }),
]);

// Group 3: the browser tests with timing checks (E2E_TIMING), alone and one file at a time: they check timings in the
// page (the PDF viewer's 50 ms steps, antd's animated dialogs) that a busier machine disturbs. Tried on a 2-core machine: two e2e files at a time,
// or e2e alongside the server suites, saved a minute or two, but each of 3 runs failed one of help.test.ts's PDF step
// timing (gaps under 40 ms between steps) or dashboard.test.ts's info-modal close. (The PDF step check has also
// failed once with one file at a time while other tests loaded the machine.) The checks started at idle priority
// above may still be running then: unlike those test suites, they take only the CPU the browser tests leave unused.
if (e2eTiming.length > 0 && webBuilt) await runSuite('e2e-timing', e2eTiming, {}, ['--test-concurrency=1']);
await checks;

console.log(`\nwall times: ${times.join(', ')}; whole run ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`\n${failedSuites.length ? `failed suites: ${failedSuites.join(', ')}` : 'all suites green'}`);
console.log(`${totals.pass} passed, ${totals.fail} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSuites.length || totals.fail ? 1 : 0);
