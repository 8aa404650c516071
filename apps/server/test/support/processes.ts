import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../../src/config.js';
import { serverEntryArgs } from './entries.js';
import { seedPgliteDataDir } from './pglite-template.js';

/** Real server and worker processes for the crash and scale-out tests. */

export interface Proc {
  url: string;
  /** A worker's id as its job queue records it in jobs.locked_by and analysis_parts.worker_id. */
  workerId?: string;
  child: ChildProcess;
  output(): string;
}

/** A node process from the repository root (`args` after the node binary) with its output kept (the last 50,000 characters). */
export function launchNode(args: string[], env: Record<string, string>): { child: ChildProcess; output(): string } {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-50_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-50_000)));
  return { child, output: () => log };
}

/**
 * `npm start`'s server (apps/server/src/main.ts) on a port the system picks (PORT=0: a port chosen here and then
 * freed could be taken by another test process before the server binds it, and the health check would then reach
 * that other server); resolves when the port it printed answers /api/health. On PGlite an empty DATA_DIR first gets
 * a copy of the migrated template (support/pglite-template.ts); a used one is left as it is.
 */
export async function spawnServer(env: Record<string, string>): Promise<Proc> {
  if (!env.DATABASE_URL && env.DATA_DIR) await seedPgliteDataDir(env.DATA_DIR);
  // the world-view tile pre-render (minutes of background CPU on a fresh DATA_DIR) is left out unless a test asks for it
  const { child, output } = launchNode(serverEntryArgs('main'), { SEED_DEMO: 'true', MAP_PRERENDER_WORLD: 'false', ...env, PORT: '0' });
  let url = '';
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output()}`);
    // main.ts prints "Climate Risk Platform is running at http://localhost:PORT" once it listens.
    const port = /is running at http:\/\/localhost:(\d+)/.exec(output())?.[1];
    if (port && !url) url = `http://127.0.0.1:${port}`;
    if (url) {
      try {
        if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200) break;
      } catch {
        /* not yet */
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // not left running (its pipes would keep the test process alive)
      throw new Error(`server did not start:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child, output };
}

/** `npm run worker` (apps/server/src/worker.ts); resolves when it logged that it started (LOG_LEVEL info). */
export async function spawnWorker(env: Record<string, string>): Promise<Proc> {
  const { child, output } = launchNode(serverEntryArgs('worker'), { ...env, LOG_LEVEL: 'info' });
  const deadline = Date.now() + 120_000;
  while (!output().includes('worker started')) {
    if (child.exitCode !== null) throw new Error(`worker exited ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not start:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const workerId = /"worker":"([^"]+)"/.exec(output())?.[1];
  if (!workerId) throw new Error(`worker id not in the start-up line:\n${output()}`);
  return { url: '', workerId, child, output };
}

export async function stopProc(p: Proc, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.child.once('exit', () => r()));
  p.child.kill(signal);
  const t = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(t);
}
