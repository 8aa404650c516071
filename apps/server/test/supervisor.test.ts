import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase } from './support/harness.js';
import { launchNode } from './support/processes.js';

/**
 * The process survives what it cannot prevent (issue 32): `npm start`'s supervisor (scripts/supervise.mjs) runs the
 * real server (main.ts) on a real database; the test kills the server with SIGKILL (as the OOM killer would) by the pid
 * its health check reports, sees it come back with `restarts` 1 and the reason, then stops everything with SIGTERM
 * (no restart). Small scripts show the give-up after repeated crashes and that an invalid configuration is not restarted.
 */

interface Supervised {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function supervise(script: string, env: Record<string, string>): Supervised {
  const { child, output } = launchNode(['scripts/supervise.mjs', script], env);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, output, exited };
}

/** The URL of the `n`th server the supervisor started (main.ts prints "is running at http://localhost:PORT"), once it answers. */
async function nthServer(p: Supervised, n: number): Promise<string> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ports = [...p.output().matchAll(/is running at http:\/\/localhost:(\d+)/g)].map((m) => m[1]);
    if (ports.length >= n) {
      const url = `http://127.0.0.1:${ports[n - 1]}`;
      try {
        if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200) return url;
      } catch {
        /* not yet */
      }
    }
    if (p.child.exitCode !== null) throw new Error(`the supervisor exited ${p.child.exitCode}:\n${p.output()}`);
    if (Date.now() > deadline) throw new Error(`server ${n} did not start:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the supervisor of npm start restarts the server after a crash', { timeout: 600_000 }, () => {
  let env: Record<string, string>;
  let drop: (() => Promise<void>) | null = null;
  const started: Supervised[] = [];
  const pids: number[] = [];
  let scripts = '';

  before(async () => {
    const t = await createTestDatabase();
    drop = t.drop;
    env = {
      ...(t.overrides.DATABASE_URL ? { DATABASE_URL: t.overrides.DATABASE_URL } : { DATA_DIR: t.overrides.DATA_DIR! }),
      PORT: '0',
      SEED_DEMO: 'false',
      MAP_PRERENDER_WORLD: 'false',
      DASHBOARD_WARM_ON_START: 'false',
      SUPERVISOR_BACKOFF_MS: '200',
    };
    scripts = mkdtempSync(join(tmpdir(), 'crp-supervise-'));
  });
  after(async () => {
    for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await Promise.all(started.map((p) => p.exited));
    rmSync(scripts, { recursive: true, force: true });
    await drop?.();
  });

  test('SIGKILL of the server: it comes back, health reports restarts 1 and why; SIGTERM stops it without a restart', async () => {
    const sup = supervise('apps/server/src/main.ts', env);
    started.push(sup);
    const first = await nthServer(sup, 1);
    const h1 = (await (await fetch(`${first}/api/health`)).json()) as { pid: number; restarts: number; last_restart: unknown };
    assert.equal(h1.restarts, 0);
    assert.equal(h1.last_restart, null);
    assert.notEqual(h1.pid, sup.child.pid, 'the server runs in a child of the supervisor');
    pids.push(h1.pid);

    process.kill(h1.pid, 'SIGKILL');
    const second = await nthServer(sup, 2);
    const h2 = (await (await fetch(`${second}/api/health`)).json()) as { pid: number; restarts: number; last_restart: { reason: string; at: string } | null };
    pids.push(h2.pid);
    assert.notEqual(h2.pid, h1.pid, 'a new process');
    assert.equal(h2.restarts, 1);
    assert.match(h2.last_restart?.reason ?? '', /signal SIGKILL/);
    assert.ok(Date.now() - Date.parse(h2.last_restart?.at ?? '') < 180_000, `restart time ${h2.last_restart?.at}`);
    assert.match(sup.output(), /\[supervisor\] main\.ts ended with signal SIGKILL \(killed: out of memory or kill -9\); restarting in 0\.2 s \(restart 1\)\./);

    sup.child.kill('SIGTERM');
    const end = await sup.exited;
    assert.equal(end.code, 0, `a requested shutdown ends with 0:\n${sup.output().slice(-2000)}`);
    assert.equal(alive(h2.pid), false, 'the server stopped with it');
    assert.equal([...sup.output().matchAll(/restarting in/g)].length, 1, 'no restart after SIGTERM');
  });

  test('a process that keeps crashing is given up after SUPERVISOR_MAX_CRASHES with one clear line; each run knows its restart count', async () => {
    const crash = join(scripts, 'crash.mjs');
    writeFileSync(
      crash,
      "console.log(`run restarts=${process.env.SUPERVISOR_RESTARTS} last=${process.env.SUPERVISOR_LAST_RESTART_REASON ?? '-'}`);\nprocess.exit(3);\n",
    );
    const sup = supervise(crash, { SUPERVISOR_MAX_CRASHES: '3', SUPERVISOR_WINDOW_SECONDS: '60', SUPERVISOR_BACKOFF_MS: '50' });
    started.push(sup);
    const end = await sup.exited;
    assert.equal(end.code, 3);
    const out = sup.output();
    assert.deepEqual(
      [...out.matchAll(/run restarts=(\d+) last=(.*)/g)].map((m) => `${m[1]} ${m[2]}`),
      ['0 -', '1 exit code 3', '2 exit code 3'],
    );
    assert.match(out, /\[supervisor\] crash\.mjs ended with exit code 3; it crashed 3 times within 60 s, so it is not restarted again\./);
  });

  test('an invalid configuration (exit 78) is not restarted', async () => {
    const sup = supervise('apps/server/src/main.ts', { ...env, PORT: 'not-a-port' });
    started.push(sup);
    const end = await sup.exited;
    assert.equal(end.code, 78);
    assert.match(sup.output(), /Invalid configuration:\n\s+PORT:/);
    assert.match(sup.output(), /ended with exit code 78: the configuration is invalid \(see above\); not restarting\./);
    assert.doesNotMatch(sup.output(), /restarting in/);
  });
});
