#!/usr/bin/env node
// The one test command: installs what is missing, type-checks, then runs every suite:
// package unit tests, server API tests on PGlite and on PostgreSQL, and browser end-to-end tests.
// Prints one closing line "N passed, N failed".
import { spawn, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
process.chdir(root);
const only = process.argv.slice(2); // optional suite names: unit, server-pglite, server-pg, e2e, typecheck, lint, format, docs
const want = (s) => only.length === 0 || only.includes(s);

ensureDeps();

function findTests(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
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

/**
 * Runs a command; resolves with its exit status. Suites run side by side: the first of a group (`live`) prints as it
 * goes, the others' output is held and printed in one block when they end, so no two suites' lines interleave.
 */
function run(label, cmd, args, { env = {}, live = true } = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'], env: { ...process.env, ...env } });
    let held = '';
    if (!live) {
      child.stdout.on('data', (d) => (held += d));
      child.stderr.on('data', (d) => (held += d));
    }
    child.on('error', (err) => (held += `\n${err.stack ?? err}\n`));
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - t0) / 100) / 10;
      times.push(`${label} ${seconds} s`);
      if (!live) process.stdout.write(`\n=== ${label}: output (ran alongside other suites)\n${held}`);
      console.log(`\n=== ${label}: ${code === 0 ? 'done' : `exit ${code ?? signal}`} in ${seconds} s`);
      resolve(code ?? 1);
    });
  });
}

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
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
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

const started = Date.now();
const packageTests = readdirSync(join(root, 'packages')).flatMap((p) => findTests(join(root, 'packages', p)));
const serverTests = findTests(join(root, 'apps/server/test'));
const e2eTests = want('e2e') ? findTests(join(root, 'e2e')) : [];
// The server's report tests read PDFs with poppler (pdftotext, pdfinfo, pdftoppm); the browser tests need chromium.
if (['server-pglite', 'server-pg', 'e2e'].some(want)) ensureSystemPackages();

// The suites run in three groups, side by side within a group. Test files cannot collide: every file has its own
// database (a PGlite folder or in-memory instance, or a PostgreSQL database with a random name) and its servers
// listen on ports the system picks (port 0).
// Group 1: the checks, the unit tests, the web build for the browser tests and the PGlite template database
// (apps/server/test/support/pglite-template.ts, made once here rather than by several test files at once).
let webBuilt = true;
await Promise.all([
  want('typecheck') && runCheck('typecheck', 'npm', ['run', 'typecheck', '--workspaces', '--if-present', '--silent']),
  want('lint') &&
    runCheck(
      'lint (ESLint: typescript-eslint, import boundaries and cycles; npm run lint)',
      'npx',
      ['eslint', '.', '--max-warnings=0', '--cache', '--cache-location', 'node_modules/.cache/eslint/'],
      { live: false },
    ),
  want('format') && runCheck('format (Prettier; npm run format rewrites)', 'npx', ['prettier', '--check', '.', '--log-level', 'warn'], { live: false }),
  want('docs') &&
    runCheck('docs (documents are built from the current docs: npm run docs:build)', process.execPath, ['scripts/build-docs.mjs', '--check'], { live: false }),
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
    run(
      'PGlite template database',
      process.execPath,
      ['--import', 'tsx', '-e', "import('./apps/server/test/support/pglite-template.ts').then((m) => m.pgliteTemplate())"],
      { live: false },
    ),
]);

// Group 2: the server tests on PGlite and on PostgreSQL, two files at a time each.
const SERVER_CONCURRENCY = ['--test-concurrency=2'];
const group2 = [];
if (want('server-pglite')) group2.push((live) => runSuite('server-pglite', serverTests, { TEST_DB: 'pglite' }, SERVER_CONCURRENCY, { live }));
if (want('server-pg')) {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const u = new URL(url);
  if (await canConnect(u.hostname, Number(u.port || 5432))) {
    group2.push((live) => runSuite('server-pg', serverTests, { TEST_DB: 'postgres', TEST_DATABASE_URL: url }, SERVER_CONCURRENCY, { live }));
  } else if (process.env.CI) {
    console.error(`[test] PostgreSQL at ${u.host} is not reachable, and CI requires the PostgreSQL run`);
    failedSuites.push('server-pg');
    totals.fail += 1;
  } else {
    console.warn(`[test] PostgreSQL at ${u.host} not reachable: server-pg suite skipped`);
  }
}
await Promise.all(group2.map((start, i) => start(i === 0)));

// Group 3: the browser tests, alone and one file at a time: some check timings in the page (the PDF viewer's 50 ms
// steps, antd's animated dialogs) that a busier machine disturbs. Tried on a 2-core machine: two e2e files at a time,
// or e2e alongside the server suites, saved a minute or two, but each of 3 runs failed one of help.test.ts's PDF step
// timing (gaps under 40 ms between steps) or dashboard.test.ts's info-modal close. (The PDF step check has also
// failed once with one file at a time while other tests loaded the machine.)
if (e2eTests.length > 0 && webBuilt) await runSuite('e2e', e2eTests, {}, ['--test-concurrency=1']);

console.log(`\nwall times: ${times.join(', ')}; whole run ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`\n${failedSuites.length ? `failed suites: ${failedSuites.join(', ')}` : 'all suites green'}`);
console.log(`${totals.pass} passed, ${totals.fail} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSuites.length || totals.fail ? 1 : 0);
