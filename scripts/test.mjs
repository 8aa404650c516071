#!/usr/bin/env node
// The one test command: installs what is missing, type-checks, then runs every suite:
// package unit tests, server API tests on PGlite and on PostgreSQL, and browser end-to-end tests.
// Prints one closing line "N passed, N failed".
import { spawnSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
process.chdir(root);
const only = process.argv.slice(2); // optional suite names: unit, server-pglite, server-pg, e2e, typecheck
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
    const s = net.connect({ host, port, timeout: 2000 }, () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
    s.on('timeout', () => { s.destroy(); resolve(false); });
  });
}

const totals = { pass: 0, fail: 0, skipped: 0 };
const failedSuites = [];
mkdirSync(join(root, 'test-output'), { recursive: true });

function runSuite(name, files, env = {}, extraArgs = []) {
  if (files.length === 0) { console.log(`\n=== ${name}: no test files`); return; }
  console.log(`\n=== ${name}: ${files.length} file(s)`);
  const tap = join(root, 'test-output', `${name}.tap`);
  const res = spawnSync(process.execPath, [
    '--import', 'tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...extraArgs, ...files.map((f) => relative(root, f)),
  ], { stdio: 'inherit', env: { ...process.env, ...env } });
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const num = (k) => Number((text.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
  totals.pass += num('pass'); totals.fail += num('fail'); totals.skipped += num('skipped') + num('todo');
  if (res.status !== 0) { failedSuites.push(name); if (num('fail') === 0) totals.fail += 1; }
}

if (want('typecheck')) {
  console.log('\n=== typecheck');
  const r = spawnSync('npm', ['run', 'typecheck', '--workspaces', '--if-present', '--silent'], { stdio: 'inherit' });
  if (r.status !== 0) { failedSuites.push('typecheck'); totals.fail += 1; } else totals.pass += 1;
}

if (want('docs')) {
  console.log('\n=== documents are built from the current docs (npm run docs:build)');
  const r = spawnSync(process.execPath, ['scripts/build-docs.mjs', '--check'], { stdio: 'inherit' });
  if (r.status !== 0) { failedSuites.push('docs'); totals.fail += 1; } else totals.pass += 1;
}

const packageTests = readdirSync(join(root, 'packages')).flatMap((p) => findTests(join(root, 'packages', p)));
if (want('unit')) runSuite('unit', packageTests);

const serverTests = findTests(join(root, 'apps/server/test'));
// The server's report tests read PDFs with poppler (pdftotext, pdfinfo, pdftoppm); the browser tests need chromium.
if (['server-pglite', 'server-pg', 'e2e'].some(want)) ensureSystemPackages();
// Server test files spend much of their time waiting (servers starting, jobs, child processes): two at a time.
// Each file has its own database and ports, so they cannot collide.
const SERVER_CONCURRENCY = ['--test-concurrency=2'];
if (want('server-pglite')) runSuite('server-pglite', serverTests, { TEST_DB: 'pglite' }, SERVER_CONCURRENCY);

if (want('server-pg')) {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const u = new URL(url);
  if (await canConnect(u.hostname, Number(u.port || 5432))) {
    runSuite('server-pg', serverTests, { TEST_DB: 'postgres', TEST_DATABASE_URL: url }, SERVER_CONCURRENCY);
  } else if (process.env.CI) {
    console.error(`[test] PostgreSQL at ${u.host} is not reachable, and CI requires the PostgreSQL run`);
    failedSuites.push('server-pg'); totals.fail += 1;
  } else {
    console.warn(`[test] PostgreSQL at ${u.host} not reachable: server-pg suite skipped`);
  }
}

if (want('e2e')) {
  const e2eTests = findTests(join(root, 'e2e'));
  if (e2eTests.length) {
    console.log('\n=== building web app for e2e');
    const b = spawnSync('npm', ['run', 'build', '-w', '@crp/web', '--silent'], { stdio: 'inherit' });
    if (b.status !== 0) { failedSuites.push('web-build'); totals.fail += 1; }
    else runSuite('e2e', e2eTests, {}, ['--test-concurrency=1']);
  }
}

console.log(`\n${failedSuites.length ? `failed suites: ${failedSuites.join(', ')}` : 'all suites green'}`);
console.log(`${totals.pass} passed, ${totals.fail} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSuites.length || totals.fail ? 1 : 0);
