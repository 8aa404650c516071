/**
 * worker_threads runner for the portfolio grid (pure compute; the caller does storage). The hazard provider cannot
 * cross threads as a function, so each worker imports it from a module: `providerModule` must export
 * `createHazardProvider(options): HazardProvider` (or the name given in `providerExport`).
 */
import { Worker } from 'node:worker_threads';
import { workerExecArgv } from './worker-argv.js';
import { availableParallelism } from 'node:os';
import type { AssetInput, HazardMeasures } from './assets.js';
import type { ResultChunk } from './compute.js';
import { SCENARIO_YEARS } from './scenarios.js';
import { pathToFileURL } from 'node:url';
import type { PreparedAsset } from './assets.js';
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
  /** Long-lived workers to run on (kept open); without it workers are started for this call and closed after it. */
  pool?: EnginePool;
  /** With a pool whose workers have a post module: receives each chunk's head and the post function's value. */
  onChunkPost?: (chunk: ChunkHead, post: unknown) => void | Promise<void>;
  /** Options passed to the pool's post function with each task of this run. */
  post?: unknown;
}

export interface ParallelResult {
  chunks: ResultChunk[];
  assets: number;
  cells: number;
  wallMs: number;
  workers: number;
}

export interface WorkerTask {
  id: number;
  start: number;
  assets: AssetInput[];
  post?: unknown;
}

/**
 * A function run in the worker on each computed chunk (exported by `postModule`): what it returns is sent to the
 * caller instead of the chunk's arrays (e.g. a compressed blob and a summary), with `transfer` listing buffers to move.
 * `prepared[i]` is the chunk's asset i; `options` is the run's `post` value.
 */
export type ChunkPostProcessor = (
  chunk: ResultChunk,
  prepared: readonly PreparedAsset[],
  options: unknown,
) => { value: unknown; transfer?: ArrayBuffer[] } | Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;

/** The chunk's position and axes (what the caller gets with a post module instead of the arrays). */
export type ChunkHead = Pick<ResultChunk, 'start' | 'count' | 'hazards' | 'scenarioYears'>;

export interface EnginePoolOptions {
  providerModule: string | URL;
  providerExport?: string;
  providerOptions?: unknown;
  /** Worker threads (default: available parallelism). */
  workers?: number;
  scenarioYearKeys?: readonly string[];
  measures?: HazardMeasures;
  /** Module exporting a ChunkPostProcessor (`postExport`, default `postProcessChunk`) run in the workers. */
  postModule?: string | URL;
  postExport?: string;
  /** Idle workers do not keep the process alive (a server's pool). */
  unref?: boolean;
}

interface PoolTask {
  task: WorkerTask;
  run: PoolRun;
}
interface PoolRun {
  onChunk(chunk: ResultChunk | ChunkHead, post: unknown): void | Promise<void>;
  fail(e: unknown): void;
  failed: boolean;
}

/**
 * Long-lived engine worker threads (each loads the hazard layers once: 1-2 s): runs of any size are fed to the same
 * workers, tasks of concurrent runs in arrival order. A worker gets its next task only once the caller has taken its
 * last chunk (back-pressure, so memory stays bounded whatever the portfolio's size). A worker that fails or exits
 * fails the runs it served and is replaced on the next run.
 */
export class EnginePool {
  private workers: { w: Worker; busy: PoolTask | null }[] = [];
  private starting: Promise<void> | null = null;
  private readonly queue: PoolTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: EnginePoolOptions) {}

  get size(): number {
    return this.workers.length;
  }

  private workerData() {
    const sys = this.options.scenarioYearKeys ? SCENARIO_YEARS.filter((s) => this.options.scenarioYearKeys?.includes(s.key)) : SCENARIO_YEARS;
    const href = (m: string | URL) => (m instanceof URL ? m.href : m);
    return {
      providerModule: href(this.options.providerModule),
      providerExport: this.options.providerExport ?? 'createHazardProvider',
      providerOptions: this.options.providerOptions,
      scenarioYearKeys: sys.map((s) => s.key),
      measures: this.options.measures ?? {},
      ...(this.options.postModule ? { postModule: href(this.options.postModule), postExport: this.options.postExport ?? 'postProcessChunk' } : {}),
    };
  }

  // eslint-disable-next-line max-lines-per-function -- the worker pool's start-up: one sequence of worker events, read in order
  private start(): Promise<void> {
    if (this.workers.length > 0) return Promise.resolve();
    this.starting ??= (async () => {
      const n = Math.max(1, this.options.workers ?? availableParallelism());
      const data = this.workerData();
      const started = Array.from(
        { length: n },
        () =>
          new Promise<{ w: Worker; busy: PoolTask | null }>((resolve, reject) => {
            const w = new Worker(new URL('./parallel-worker-boot.mjs', import.meta.url), {
              workerData: data,
              execArgv: workerExecArgv(process.execArgv, process.env.CRP_ENGINE_PROFILE_WORKERS === '1'),
            });
            const slot = { w, busy: null as PoolTask | null };
            if (this.options.unref) w.unref();
            let ready = false;
            w.on(
              'message',
              (
                msg:
                  | { type: 'ready' }
                  | { type: 'chunk'; id: number; chunk: ResultChunk | ChunkHead; post?: unknown }
                  | { type: 'error'; id: number; message: string },
              ) => {
                if (msg.type === 'ready') {
                  ready = true;
                  resolve(slot);
                  return;
                }
                const t = slot.busy;
                if (!t) return;
                if (msg.type === 'error') {
                  slot.busy = null;
                  t.run.fail(new Error(msg.message));
                  this.pump();
                  return;
                }
                Promise.resolve(t.run.failed ? undefined : t.run.onChunk(msg.chunk, msg.post)).then(
                  () => {
                    slot.busy = null;
                    this.pump();
                  },
                  (e: unknown) => {
                    slot.busy = null;
                    t.run.fail(e);
                    this.pump();
                  },
                );
              },
            );
            const broken = (e: Error) => {
              if (!ready) {
                reject(e);
                return;
              }
              this.workers = this.workers.filter((x) => x !== slot);
              slot.busy?.run.fail(e);
              slot.busy = null;
              // With no worker left, queued tasks would wait for ever: fail their runs (the next run starts new workers).
              if (this.workers.length === 0) for (const q of this.queue.splice(0)) q.run.fail(e);
            };
            w.on('error', broken);
            w.on('exit', (code) => {
              if (!this.closed) broken(new Error(`engine worker exited with code ${code}`));
            });
          }),
      );
      try {
        this.workers = await Promise.all(started);
      } catch (e) {
        await Promise.all(
          started.map((p) =>
            p.then(
              (s) => s.w.terminate(),
              () => undefined,
            ),
          ),
        );
        throw e;
      } finally {
        this.starting = null;
      }
    })();
    return this.starting;
  }

  private pump() {
    for (const slot of this.workers) {
      if (slot.busy) continue;
      if (this.options.unref) slot.w.unref();
      let next = this.queue.shift();
      while (next && next.run.failed) next = this.queue.shift();
      if (!next) continue; // every idle worker is unref'd, not only the first (a process waited 60 s on the last one)
      slot.busy = next;
      if (this.options.unref) slot.w.ref(); // a running task keeps the process alive
      slot.w.postMessage(next.task);
    }
  }

  /**
   * Computes `tasks` (start = the chunk's first asset's position, assets = its inputs) and hands each result to
   * `onChunk` (in completion order): the chunk, or with a post module its head and the post function's value.
   */
  async run(
    tasks: readonly { start: number; assets: AssetInput[] }[],
    onChunk: (chunk: ResultChunk | ChunkHead, post: unknown) => void | Promise<void>,
    post?: unknown,
  ): Promise<void> {
    if (this.closed) throw new Error('engine pool closed');
    await this.start();
    if (tasks.length === 0) return;
    await new Promise<void>((resolve, reject) => {
      let left = tasks.length;
      const run: PoolRun = {
        failed: false,
        fail: (e) => {
          if (!run.failed) {
            run.failed = true;
            reject(e);
          }
        },
        onChunk: async (chunk, value) => {
          await onChunk(chunk, value);
          if (--left === 0) resolve();
        },
      };
      for (const t of tasks) this.queue.push({ task: { id: this.nextId++, start: t.start, assets: t.assets, ...(post !== undefined ? { post } : {}) }, run });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const ws = this.workers;
    this.workers = [];
    await Promise.all(ws.map((s) => s.w.terminate()));
  }
}

export async function analysePortfolioParallel(assets: readonly AssetInput[], options: ParallelOptions): Promise<ParallelResult> {
  const t0 = performance.now();
  const nWorkers = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(assets.length / (options.chunkSize ?? 1000)) || 1));
  const size = Math.max(1, options.chunkSize ?? 1000);
  const sys = options.scenarioYearKeys ? SCENARIO_YEARS.filter((s) => options.scenarioYearKeys?.includes(s.key)) : SCENARIO_YEARS;
  const tasks: { start: number; assets: AssetInput[] }[] = [];
  for (let s = 0; s < assets.length; s += size) tasks.push({ start: s, assets: assets.slice(s, s + size) as AssetInput[] });
  const chunks: ResultChunk[] = [];
  let done = 0;
  const providerModule = options.providerModule instanceof URL ? options.providerModule.href : options.providerModule;
  const workerData = {
    providerModule,
    providerExport: options.providerExport ?? 'createHazardProvider',
    providerOptions: options.providerOptions,
    scenarioYearKeys: sys.map((s) => s.key),
    measures: options.measures ?? {},
  };
  if (assets.length <= (options.inThreadBelow ?? 2000)) {
    const spec = /^[a-z]+:/i.test(providerModule) ? providerModule : pathToFileURL(providerModule).href;
    const mod = (await import(spec)) as Record<string, (o: unknown) => HazardProvider>;
    const factory = mod[workerData.providerExport];
    if (typeof factory !== 'function') throw new Error(`${providerModule} does not export ${workerData.providerExport}`);
    const provider = factory(options.providerOptions);
    const prepared = prepareAssets(assets, options.measures ?? {});
    for (const t of tasks) {
      const chunk = computeChunk(prepared, assets, t.start, t.start + t.assets.length, sys, provider);
      if (options.onChunk) await options.onChunk(chunk);
      else chunks.push(chunk);
      done += chunk.count;
      options.onProgress?.(done, assets.length);
      await new Promise((r) => setImmediate(r));
    }
    return { chunks, assets: assets.length, cells: assets.length * 11 * sys.length, wallMs: performance.now() - t0, workers: 0 };
  }
  // Back-pressure: a worker gets its next task only once the caller has taken this chunk (e.g. stored it).
  const pool = options.pool ?? new EnginePool({ ...options, workers: nWorkers });
  try {
    await pool.run(
      tasks,
      async (chunk, post) => {
        if (options.onChunkPost) await options.onChunkPost(chunk, post);
        else if (options.onChunk) await options.onChunk(chunk as ResultChunk);
        else chunks.push(chunk as ResultChunk);
        done += chunk.count;
        options.onProgress?.(done, assets.length);
      },
      options.post,
    );
  } finally {
    if (!options.pool) await pool.close();
  }
  chunks.sort((a, b) => a.start - b.start);
  return { chunks, assets: assets.length, cells: assets.length * 11 * sys.length, wallMs: performance.now() - t0, workers: nWorkers };
}
