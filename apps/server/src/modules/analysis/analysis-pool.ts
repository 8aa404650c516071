/**
 * The engine worker threads of this process (one per core), kept between analyses and closed after a minute unused
 * (each holds its own copy of the hazard layers, about 300 MB). Their post module (chunk-encoder.ts) compresses and
 * summarises every chunk, so the event loop only receives each chunk's blob and summary and writes it to the
 * database (docs/performance-history.md "Analysis at scale").
 */
import { EnginePool } from '@crp/engine';

const IDLE_CLOSE_MS = 60_000;
let pool: EnginePool | null = null;
let users = 0;
let idle: NodeJS.Timeout | null = null;

/** Runs `fn` with the process's engine pool (started on first use). */
export async function withAnalysisPool<T>(fn: (pool: EnginePool) => Promise<T>): Promise<T> {
  if (idle) {
    clearTimeout(idle);
    idle = null;
  }
  pool ??= new EnginePool({
    providerModule: new URL('./hazard-provider.ts', import.meta.url),
    postModule: new URL('./chunk-encoder.ts', import.meta.url),
    unref: true,
  });
  const p = pool;
  users += 1;
  try {
    return await fn(p);
  } catch (e) {
    // A failed worker leaves the pool short: start a fresh one next time.
    if (pool === p) pool = null;
    void p.close();
    throw e;
  } finally {
    users -= 1;
    if (users === 0 && pool === p) {
      idle = setTimeout(() => {
        if (users === 0 && pool === p) {
          pool = null;
          void p.close();
        }
      }, IDLE_CLOSE_MS);
      idle.unref();
    }
  }
}

/** Closes the pool now (server shutdown, tests). */
export async function closeAnalysisPool(): Promise<void> {
  if (idle) {
    clearTimeout(idle);
    idle = null;
  }
  const p = pool;
  pool = null;
  await p?.close();
}
