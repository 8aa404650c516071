/**
 * worker_threads runner for the portfolio grid (pure compute; the caller does storage). The hazard provider cannot
 * cross threads as a function, so each worker imports it from a module: `providerModule` must export
 * `createHazardProvider(options): HazardProvider` (or the name given in `providerExport`).
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { AssetInput, HazardMeasures } from './assets.js';
import type { ResultChunk } from './compute.js';
import { SCENARIO_YEARS } from './scenarios.js';
import { pathToFileURL } from 'node:url';
import { computeChunk, prepareAssets, type HazardProvider } from './portfolio.js';

export interface ParallelOptions {
  /** Module URL or absolute path exporting the provider factory. */
  providerModule: string | URL;
  providerExport?: string;
  /** Structured-cloneable options passed to the factory. */
  providerOptions?: unknown;
  /** Worker count (default: available parallelism). */
  workers?: number;
  /** Assets per task/chunk (default 1000). */
  chunkSize?: number;
  /** Scenario-year keys to compute (default all 58). */
  scenarioYearKeys?: readonly string[];
  /** Measures for every asset (structured-cloneable). */
  measures?: HazardMeasures;
  /** Receives each chunk as it arrives (in completion order). If absent, chunks are returned sorted by start. */
  onChunk?: (chunk: ResultChunk) => void | Promise<void>;
  onProgress?: (done: number, total: number) => void;
  /**
   * Portfolios of at most this many assets run in the calling thread (no worker start-up: ~1 s of TypeScript
   * compilation and layer loading per worker), yielding to the event loop between chunks. Default 2,000; 0 = never.
   */
  inThreadBelow?: number;
}

export interface ParallelResult { chunks: ResultChunk[]; assets: number; cells: number; wallMs: number; workers: number }

export interface WorkerTask { start: number; assets: AssetInput[] }

/** Parent flags minus the test-runner ones (workers reject them). */
function workerExecArgv(): string[] {
  const keepProfile = process.env.CRP_ENGINE_PROFILE_WORKERS === '1'; // debugging: profile the workers too
  return process.execArgv.filter((a) => !a.startsWith('--test') && (keepProfile || !a.startsWith('--cpu-prof')) && !a.startsWith('--watch'));
}

export async function analysePortfolioParallel(assets: readonly AssetInput[], options: ParallelOptions): Promise<ParallelResult> {
  const t0 = performance.now();
  const nWorkers = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(assets.length / (options.chunkSize ?? 1000)) || 1));
  const size = Math.max(1, options.chunkSize ?? 1000);
  const sys = options.scenarioYearKeys ? SCENARIO_YEARS.filter((s) => options.scenarioYearKeys?.includes(s.key)) : SCENARIO_YEARS;
  const tasks: WorkerTask[] = [];
  for (let s = 0; s < assets.length; s += size) tasks.push({ start: s, assets: assets.slice(s, s + size) as AssetInput[] });
  const chunks: ResultChunk[] = [];
  let next = 0; let done = 0;
  const providerModule = options.providerModule instanceof URL ? options.providerModule.href : options.providerModule;
  const workerData = { providerModule, providerExport: options.providerExport ?? 'createHazardProvider', providerOptions: options.providerOptions,
    scenarioYearKeys: sys.map((s) => s.key), measures: options.measures ?? {} };
  if (assets.length <= (options.inThreadBelow ?? 2000)) {
    const spec = /^[a-z]+:/i.test(providerModule) ? providerModule : pathToFileURL(providerModule).href;
    const mod = (await import(spec)) as Record<string, (o: unknown) => HazardProvider>;
    const factory = mod[workerData.providerExport];
    if (typeof factory !== 'function') throw new Error(`${providerModule} does not export ${workerData.providerExport}`);
    const provider = factory(options.providerOptions);
    const prepared = prepareAssets(assets, options.measures ?? {});
    for (const t of tasks) {
      const chunk = computeChunk(prepared, assets, t.start, t.start + t.assets.length, sys, provider);
      if (options.onChunk) await options.onChunk(chunk); else chunks.push(chunk);
      done += chunk.count;
      options.onProgress?.(done, assets.length);
      await new Promise((r) => setImmediate(r));
    }
    return { chunks, assets: assets.length, cells: assets.length * 11 * sys.length, wallMs: performance.now() - t0, workers: 0 };
  }
  const workers: Worker[] = [];
  let failed = false;
  try {
    await Promise.all(Array.from({ length: nWorkers }, () => new Promise<void>((resolve, reject) => {
      const w = new Worker(new URL('./parallel-worker-boot.mjs', import.meta.url), { workerData, execArgv: workerExecArgv() });
      workers.push(w);
      const feed = () => {
        const t = failed ? undefined : tasks[next++];
        if (t) w.postMessage(t); else void w.terminate().then(() => resolve());
      };
      w.on('message', (msg: { type: 'ready' } | { type: 'chunk'; chunk: ResultChunk } | { type: 'error'; message: string }) => {
        if (msg.type === 'ready') { feed(); return; }
        if (msg.type === 'error') { reject(new Error(msg.message)); return; }
        // Back-pressure: a worker gets its next task only once the caller has taken this chunk (e.g. stored it).
        Promise.resolve(options.onChunk ? options.onChunk(msg.chunk) : void chunks.push(msg.chunk)).then(() => {
          done += msg.chunk.count;
          options.onProgress?.(done, assets.length);
          feed();
        }, reject);
      });
      w.on('error', reject);
      w.on('exit', (code) => { if (code !== 0 && next <= tasks.length && !failed) reject(new Error(`engine worker exited with code ${code}`)); });
    })));
  } catch (e) {
    failed = true;
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  }
  chunks.sort((a, b) => a.start - b.start);
  return { chunks, assets: assets.length, cells: assets.length * 11 * sys.length, wallMs: performance.now() - t0, workers: nWorkers };
}
