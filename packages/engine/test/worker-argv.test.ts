import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { workerExecArgv } from '../src/worker-argv.js';

// The flags Node 24's test runner gives its files (seen in ERR_WORKER_INVALID_EXEC_ARGV), around a loader.
const NODE24_TEST_FILE = [
  '--stack-trace-limit=10',
  '--secure-heap-min=2',
  '--v8-pool-size=4',
  '--import',
  'tsx',
  '--test-reporter=spec',
  '--use-largepages=off',
  '--node-snapshot',
  '--secure-heap=0',
  '--conditions=development',
  '--cpu-prof',
  '--cpu-prof-dir=/tmp/p',
];

test('workerExecArgv passes the loader and conditions, drops process-wide, test and profiler flags', () => {
  assert.deepEqual(workerExecArgv(NODE24_TEST_FILE), ['--import', 'tsx', '--conditions=development']);
  assert.deepEqual(workerExecArgv(NODE24_TEST_FILE, true), ['--import', 'tsx', '--conditions=development', '--cpu-prof', '--cpu-prof-dir=/tmp/p']);
  assert.deepEqual(workerExecArgv(['--import=tsx', '--no-warnings', '--max-old-space-size=512', '--watch']), [
    '--import=tsx',
    '--no-warnings',
    '--max-old-space-size=512',
  ]);
});

test('a worker starts with what workerExecArgv passes on from this process', async () => {
  const w = new Worker('require("node:worker_threads").parentPort.postMessage(42)', { eval: true, execArgv: workerExecArgv() });
  const got = await new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  assert.equal(got, 42);
  await w.terminate();
});
