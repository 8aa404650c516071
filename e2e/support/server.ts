import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEntryArgs } from '../../apps/server/test/support/entries';
import { seedPgliteDataDir } from '../../apps/server/test/support/pglite-template';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server printed so far (for failure messages). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Waits until the server printed the port it listens on ("Climate Risk Platform is running at http://localhost:PORT",
 * once listening) and `GET /api/health` answers 200 there; answers the base URL.
 */
async function waitForHealth(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let baseUrl = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}:\n${output()}`);
    const port = /is running at http:\/\/localhost:(\d+)/.exec(output())?.[1];
    if (port && !baseUrl) baseUrl = `http://127.0.0.1:${port}`;
    if (baseUrl) {
      try {
        const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return baseUrl;
      } catch {
        // not listening yet
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer GET /api/health within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the real server (`node --import tsx apps/server/src/main.ts`, or its bundle: support/entries.ts) on a free port (PORT=0) with a fresh PGlite
 * data directory (a copy of the migrated template), no demo seed and no SMTP, and waits until `GET /api/health` answers 200.
 */
export async function startServer(opts: { env?: Record<string, string>; dataDir?: string } = {}): Promise<RunningServer> {
  // With `opts.dataDir` the server runs on that (possibly used) data directory and leaves it in place on stop: a
  // restart test owns and removes it.
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'crp-e2e-'));
  // A new data directory starts as a copy of the migrated, empty template database instead of running initdb (about
  // 10 s); a used one (a restart test) is left as it is.
  await seedPgliteDataDir(dataDir);
  // `opts.env` overrides the defaults, e.g. SEED_DEMO=true for the demo user and its analysed portfolio.
  // MAP_PRERENDER_WORLD=false: no world-tile pre-render thread (about a minute of CPU per fresh DATA_DIR) beside the browser
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'test', MAP_PRERENDER_WORLD: 'false', ...opts.env };
  // PORT=0: the system picks a free port and the server prints it. (A port chosen here and freed again could be taken
  // by another test process running alongside before the server binds it; the health check would then reach that
  // other server.)
  env.PORT = '0';
  // No SMTP from the caller's shell; a test that reads mail passes its own sink's SMTP_URL in `opts.env`.
  if (!opts.env?.SMTP_URL) delete env.SMTP_URL;
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, serverEntryArgs('main'), { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const output = () => log;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  let baseUrl: string;
  try {
    baseUrl = await waitForHealth(child, output, 90_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, dataDir, output, stop };
}
