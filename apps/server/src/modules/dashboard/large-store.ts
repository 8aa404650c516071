/**
 * The dashboard of an analysis too large to decode (issue 22 item 3/4: a 1,000,000-asset analysis decodes to about
 * 24 GB). Once per analysis, its stored chunks are summarised batch by batch in a worker thread
 * (large-store-compute.ts) into the dashboard store (migration 0021): per scenario-year job, each asset's CVaRs, climate
 * scores and hazard scores (dashboard_slices), and the portfolio's aggregates (dashboard_stores.aggregates: each
 * hazard's CVaR sums per property-type group, money sums, series, means). A dashboard query then reads one job's
 * slices (tens of MB at a million assets) instead of the analysis; DashboardService fills the decoded-analysis caches
 * from the store, so the answer is built by the same code as for any analysis. What the store does not hold (loss
 * options other than the defaults, one hazard alone, `count`, a property type's own figures) is refused with a 422
 * naming the filter (largeFilterError). docs/dashboard.md "Large portfolios".
 */
import { availableParallelism, hostname } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync, inflateRaw, inflateRawSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { BASELINE_YEAR, HAZARD_KEYS, SCENARIOS, YEARS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, N_HAZARDS, prepareAssets, SCENARIO_YEAR_INDEX, SCENARIO_YEARS } from '@crp/engine';
import type { DB } from '../../infra/db/database.js';
import { AppError } from '../../lib/errors.js';
import { syIndexOf, type ProjectResults, type DashboardAsset } from '../analysis/results-reader.js';
import { bytesOf, copyField, type Field } from '../../infra/db/copy-binary.js';
import type { StoredChunk } from '../analysis/result-codec.js';
import { LargeStoreRepository } from './large-store.repository.js';
import { hazardKeysOf } from './dashboard-cache.js';
import { startTsWorker } from '../../lib/ts-worker.js';
import { assetInputOf } from '../analysis/analysis.jobs.js';
import { syKeyOf } from './dashboard-filter.js';
import { ASSETS_JOB, dashboardAssetOf, decodeAssets, encodeAssets } from './large-store-assets.js';
import { sliceBytes, sliceLayout, sliceParts, type SeriesShare, type StoreBatchInput, type StoreBatchOutput, type StoreJob } from './large-store-compute.js';
import { moneyOf } from './year-batches-compute.js';

const inflateRawAsync = promisify(inflateRaw);
const deflateRawAsync = promisify(deflateRaw);

/** Every job of a store, in job-number order: each (analysis type, scenario, year) the dashboard can ask, at the default loss options. */
export const STORE_JOBS: readonly StoreJob[] = (() => {
  const out: StoreJob[] = [];
  for (const at of ['ssp', 'rcp'] as const)
    for (const sc of SCENARIOS)
      for (const year of at === 'ssp' ? [BASELINE_YEAR, ...YEARS.ssp] : YEARS.rcp)
        out.push({ at, sc, year, s: SCENARIO_YEAR_INDEX.get(syKeyOf(at, sc, year))! });
  return out;
})();

/** The job number of an analysis type, scenario and year (undefined: none). */
export function storeJobOf(at: AnalysisType, sc: ScenarioCode, year: number): number | undefined {
  const j = STORE_JOBS.findIndex((x) => x.at === at && x.sc === sc && x.year === year);
  return j < 0 ? undefined : j;
}

/**
 * Chunks summarised together (500 assets each): one slice row per job and batch. 16 (8,000 assets): a job of a million
 * assets is 125 rows (each row read is an inflate stream to set up); a batch decodes to about 200 MB in its thread.
 */
const BATCH_CHUNKS = 16;
/** Property types with their own sums and series (the most frequent), as year-batches.ts. */
const MAX_GROUPS = 64;
/** Worker threads of a build (the analysis's engine uses every core the same way; the event loop only reads and writes). */
const STORE_THREADS = Math.max(1, Math.min(2, availableParallelism()));
/** Asset rows read per statement (a store made before it kept its assets). */
const ASSET_PAGE = 10_000;

/** The portfolio's aggregates of a store (typed arrays; stored as deflated JSON). */
export interface LargeAggregates {
  hazards: HazardKey[];
  /** Lower-case property type ('na' for none) of each group. */
  groups: string[];
  assets: number;
  /** Per job: (groups + 1) * H * 2 sums of each hazard's CVaR and residual CVaR (row 0 every asset, row g + 1 group g). */
  bars: Float64Array[];
  /** Per job: exposed value, premium, each hazard's expected loss, each hazard's residual expected loss (every asset). */
  sums: Float64Array[];
  series: SeriesShare[];
  /** Per stored scenario-year and hazard: large-store-compute MEAN_FIELDS sums. */
  means: Float64Array;
}

/** One job's per-asset figures over the whole portfolio, in position order. */
export interface LargeSlice {
  pa: Float32Array;
  /** Climate scores without adaptation (first N) and with (next N); NO_SCORE = none. */
  scores: Int16Array;
  /** Hazard scores at the job's scenario-year [i * N_HAZARDS + h], without and with adaptation. */
  m: Uint8Array;
  mR: Uint8Array;
}

export interface StoreState {
  state: 'building' | 'done' | 'failed';
  progress: number;
  message: string | null;
}

const addInto = (a: Float64Array, b: ArrayLike<number>) => {
  for (let i = 0; i < a.length; i++) a[i] = a[i]! + b[i]!;
};

function encodeAggregates(a: LargeAggregates): Uint8Array {
  const plain = {
    ...a,
    bars: a.bars.map((x) => Array.from(x)),
    sums: a.sums.map((x) => Array.from(x)),
    means: Array.from(a.means),
    series: a.series.map((s) => ({
      ...s,
      loss: Array.from(s.loss),
      lossResidual: Array.from(s.lossResidual),
      hazardLoss: s.hazardLoss?.map((x) => Array.from(x)) ?? null,
      hazardLossResidual: s.hazardLossResidual?.map((x) => Array.from(x)) ?? null,
    })),
  };
  return deflateRawSync(Buffer.from(JSON.stringify(plain), 'utf8'));
}

function decodeAggregates(data: Uint8Array): LargeAggregates {
  const p = JSON.parse(inflateRawSync(data).toString('utf8')) as Omit<LargeAggregates, 'bars' | 'sums' | 'means' | 'series'> & {
    bars: number[][];
    sums: number[][];
    means: number[];
    series: (Omit<SeriesShare, 'loss' | 'lossResidual' | 'hazardLoss' | 'hazardLossResidual'> & {
      loss: number[];
      lossResidual: number[];
      hazardLoss: number[][] | null;
      hazardLossResidual: number[][] | null;
    })[];
  };
  return {
    ...p,
    bars: p.bars.map((x) => Float64Array.from(x)),
    sums: p.sums.map((x) => Float64Array.from(x)),
    means: Float64Array.from(p.means),
    series: p.series.map((s) => ({
      ...s,
      loss: Float64Array.from(s.loss),
      lossResidual: Float64Array.from(s.lossResidual),
      hazardLoss: s.hazardLoss?.map((x) => Float64Array.from(x)) ?? null,
      hazardLossResidual: s.hazardLossResidual?.map((x) => Float64Array.from(x)) ?? null,
    })),
  };
}

/** A copy with its own ArrayBuffer (a Buffer may be a view into a shared pool: such a view cannot be transferred). */
const own = (b: Uint8Array) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b));

/** One build: the project's run, its hazards and property-type groups, and the aggregates added so far. */
interface Build {
  projectId: number;
  version: number;
  hazards: HazardKey[];
  groups: string[];
  groupIndex: Map<string, number>;
  total: number;
  agg: LargeAggregates;
  series: Map<string, SeriesShare>;
  done: number;
  workerMs: number;
}

/** Adds a batch's sums to the build's (in position order, so the sums do not depend on which thread finished first). */
function mergeBatch(b: Build, o: StoreBatchOutput): void {
  o.bars.forEach((x, j) => addInto(b.agg.bars[j]!, x));
  o.sums.forEach((x, j) => addInto(b.agg.sums[j]!, x));
  if (b.agg.means.length === 0) b.agg.means = new Float64Array(o.means.length);
  addInto(b.agg.means, o.means);
  for (const s of o.series) {
    const key = `${s.at}|${s.sc}|${s.group}`;
    const have = b.series.get(key);
    if (!have) b.series.set(key, s);
    else {
      addInto(have.loss, s.loss);
      addInto(have.lossResidual, s.lossResidual);
      s.hazardLoss?.forEach((x, k) => addInto(have.hazardLoss![k]!, x));
      s.hazardLossResidual?.forEach((x, k) => addInto(have.hazardLossResidual![k]!, x));
    }
  }
  b.done += o.count;
  b.workerMs += o.ms;
}

/** A pool of store threads (large-store.worker.ts), one batch each at a time. */
function storeThreads(n: number) {
  const workers = Array.from({ length: n }, () => {
    const w = startTsWorker(new URL('./large-store.worker.ts', import.meta.url), null);
    w.unref();
    return w;
  });
  const compute = (worker: Worker, input: StoreBatchInput) =>
    new Promise<StoreBatchOutput>((resolve, reject) => {
      const onMessage = (m: { ok: true; out: StoreBatchOutput } | { ok: false; message: string }) => {
        worker.off('error', reject);
        if (m.ok) resolve(m.out);
        else reject(new Error(m.message));
      };
      worker.once('message', onMessage);
      worker.once('error', reject);
      worker.postMessage(
        input,
        input.blobs.map((b) => b.buffer as ArrayBuffer),
      );
    });
  return {
    size: n,
    /** Computes inputs[k] on thread k. */
    run: (inputs: StoreBatchInput[]) => inputs.map((input, k) => compute(workers[k]!, input)),
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

/** The dashboard stores of large analyses: their state, building, and reading. */
export class LargeStores {
  private readonly owner = `${hostname()}:${process.pid}`;
  private readonly repo: LargeStoreRepository;
  /** Builds running in this process, by project and version. */
  private readonly building = new Map<string, Promise<void>>();
  private stopping = false;
  /** Stored chunks summarised together (tests lower it to make several batches of a small analysis). */
  batchChunks = BATCH_CHUNKS;

  constructor(
    db: DB,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.repo = new LargeStoreRepository(db);
  }

  /** True once close() was called (the server is stopping). */
  get closing(): boolean {
    return this.stopping;
  }

  state(projectId: number, version: number): Promise<StoreState | undefined> {
    return this.repo.state(projectId, version);
  }

  /** The project's current results version and hazards (undefined version: no analysis stored). */
  async current(projectId: number): Promise<{ version: number | null; hazards: HazardKey[] }> {
    const p = await this.repo.project(projectId);
    return { version: p?.results_version ?? null, hazards: hazardKeysOf((p?.portfolio_variables ?? []) as string[]) };
  }

  /** Stops the builds of this process at their next batch and waits for them (the server is closing). */
  async close(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.building.values());
  }

  /** Starts building the store of a project's analysis in the background, unless it is done or being built (here or by a live process). */
  ensureBuilding(projectId: number, version: number, hazards: HazardKey[]): Promise<void> {
    const key = `${projectId}:${version}`;
    let p = this.building.get(key);
    if (!p && !this.stopping) {
      p = this.build(projectId, version, hazards)
        .catch(async (err: unknown) => {
          // closing: marked as failed, so that the next process that needs it builds it again at once
          const message = this.stopping ? 'interrupted: the server stopped' : err instanceof Error ? err.message : String(err);
          if (!this.stopping) this.log?.error({ projectId, version, err }, 'dashboard store failed');
          await this.repo.fail(projectId, version, this.owner, message).catch(() => {});
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, p);
    }
    return p ?? Promise.resolve();
  }

  private async build(projectId: number, version: number, hazards: HazardKey[]): Promise<void> {
    if (!(await this.repo.claim(projectId, version, this.owner))) return;
    const t0 = performance.now();
    const types = await this.repo.propertyTypes(projectId);
    const groups = types
      .map((r) => r.t)
      .filter((t) => t !== 'all')
      .slice(0, MAX_GROUPS);
    const total = types.reduce((s, r) => s + r.n, 0);
    const H = hazards.length;
    const b: Build = {
      projectId,
      version,
      hazards,
      groups,
      groupIndex: new Map(groups.map((t, g) => [t, g])),
      total,
      agg: {
        hazards,
        groups,
        assets: total,
        bars: STORE_JOBS.map(() => new Float64Array((groups.length + 1) * H * 2)),
        sums: STORE_JOBS.map(() => new Float64Array(2 + 2 * H)),
        series: [],
        means: new Float64Array(0),
      },
      series: new Map(),
      done: 0,
      workerMs: 0,
    };
    await this.runBatches(b);
    if (b.done !== total) throw new Error(`the stored analysis holds ${b.done} assets, the project ${total} (the assets changed since)`);
    b.agg.series = [...b.series.values()];
    await this.repo.finish(projectId, version, total, encodeAggregates(b.agg));
    this.log?.info({ projectId, version, assets: total, ms: Math.round(performance.now() - t0), workerMs: Math.round(b.workerMs) }, 'dashboard store built');
  }

  /**
   * The next batch's input (the chunks after chunk start `after`) and its assets' row of the store (deflating in the
   * background), or null when there are none.
   */
  private async readBatch(b: Build, after: number): Promise<{ input: StoreBatchInput; assets: Promise<Uint8Array> } | null> {
    const chunks = await this.repo.chunksAfter(b.projectId, b.version, after, this.batchChunks);
    if (chunks.length === 0) return null;
    const start = chunks[0]!.start;
    const count = chunks.reduce((s, c) => s + c.count, 0);
    const assets = await this.repo.assetsAt(b.projectId, start, count);
    if (assets.length !== count) throw new Error(`the stored analysis does not match the assets at position ${start} (the assets changed since)`);
    const lists: number[][] = b.groups.map(() => []);
    assets.forEach((a, i) => {
      const g = b.groupIndex.get((a.property_type ?? 'NA').toLowerCase());
      if (g !== undefined) lists[g]!.push(i);
    });
    const input: StoreBatchInput = {
      start,
      count,
      blobs: chunks.map((c) => own(c.data)),
      money: moneyOf(prepareAssets(assets.map(assetInputOf), undefined)),
      groups: lists.map((l) => Int32Array.from(l)),
      hazards: b.hazards,
      jobs: [...STORE_JOBS],
    };
    const rows = deflateRawAsync(encodeAssets(assets));
    rows.catch(() => {}); // met when awaited with the batch's slices
    return { input, assets: rows };
  }

  /** Every batch: read (the next round while this one is computed), computed one per thread, stored and added in order. */
  private async runBatches(b: Build): Promise<void> {
    const threads = storeThreads(STORE_THREADS);
    const readRound = async (after: number) => {
      const out: { input: StoreBatchInput; assets: Promise<Uint8Array> }[] = [];
      for (let k = 0; k < threads.size; k++) {
        const batch = await this.readBatch(b, after);
        if (!batch) break;
        out.push(batch);
        after = batch.input.start + batch.input.count - 1;
      }
      return out;
    };
    try {
      let next = readRound(-1);
      for (;;) {
        const batches = await next;
        if (batches.length === 0) break;
        if (this.stopping) throw new Error('the server is closing');
        const outs = threads.run(batches.map((x) => x.input));
        for (const o of outs) o.catch(() => {}); // met when awaited below
        const last = batches[batches.length - 1]!.input;
        next = readRound(last.start + last.count - 1);
        next.catch(() => {}); // met when awaited at the next turn
        for (const [k, out] of outs.entries()) {
          const o = await out;
          await this.repo.insertSlices(b.projectId, b.version, o, o.slices);
          await this.repo.insertSlice(b.projectId, b.version, ASSETS_JOB, o, await batches[k]!.assets);
          mergeBatch(b, o);
        }
        await this.repo.progress(b.projectId, b.version, b.total ? b.done / b.total : 1);
      }
    } finally {
      await threads.close();
    }
  }

  /** The aggregates of a done store. */
  async aggregates(projectId: number, version: number): Promise<LargeAggregates> {
    return decodeAggregates(await this.repo.aggregates(projectId, version));
  }

  /**
   * Every row of one job in batch order, read page by page (the next page fetched while this one is handled). A row
   * stored as it is (`raw` given, and the row has raw.bytes(count) bytes) goes to raw.each as it arrived; any other is
   * inflated off the event loop and goes to `each` (starting at a multiple of 8 bytes). Answers the assets seen.
   */
  private async eachSlice(
    projectId: number,
    version: number,
    job: number,
    each: (data: Uint8Array, start: number, count: number) => void,
    raw?: { bytes: (count: number) => number; each: (data: Field, start: number, count: number) => void },
  ): Promise<number> {
    let seen = 0;
    for (let next = this.repo.slicesAfter(projectId, version, job, -1, 32); ;) {
      const page = await next;
      if (page.length === 32) next = this.repo.slicesAfter(projectId, version, job, page[page.length - 1]!.start, 32);
      const isRaw = (r: (typeof page)[number]) => raw !== undefined && r.data.reduce((n, part) => n + part.length, 0) === raw.bytes(r.count);
      // output chunks of 1 MiB (a batch inflates to 0.5-1 MB): with zlib's 16 KiB, a job's 58 MB came back in 3,500 callbacks
      const inflated = await Promise.all(page.map((r) => (isRaw(r) ? null : inflateRawAsync(bytesOf(r.data), { chunkSize: 2 ** 20 }))));
      page.forEach((r, k) => {
        const data = inflated[k];
        // an inflated Buffer may start at any offset of its pool: copy to an aligned one for the typed views
        if (data) each(data.byteOffset % 8 === 0 ? data : new Uint8Array(data), r.start, r.count);
        else raw!.each(r.data, r.start, r.count);
        seen += r.count;
      });
      if (page.length < 32) return seen;
    }
  }

  /** One job's per-asset figures over the portfolio's N assets (slices stored as they are: copied straight into place). */
  async slice(projectId: number, version: number, job: number, N: number): Promise<LargeSlice> {
    const out: LargeSlice = {
      pa: new Float32Array(N * ASSET_BATCH_FIELDS),
      scores: new Int16Array(2 * N),
      m: new Uint8Array(N * N_HAZARDS),
      mR: new Uint8Array(N * N_HAZARDS),
    };
    const pa = new Uint8Array(out.pa.buffer),
      scores = new Uint8Array(out.scores.buffer);
    const F = ASSET_BATCH_FIELDS * 4;
    const seen = await this.eachSlice(
      projectId,
      version,
      job,
      (data, start, count) => {
        const p = sliceParts(data, count);
        out.pa.set(p.pa, start * ASSET_BATCH_FIELDS);
        out.scores.set(p.scores.subarray(0, count), start);
        out.scores.set(p.scores.subarray(count), N + start);
        out.m.set(p.m, start * N_HAZARDS);
        out.mR.set(p.mR, start * N_HAZARDS);
      },
      {
        bytes: sliceBytes,
        each: (data, start, n) => {
          const L = sliceLayout(n);
          copyField(data, L.pa, n * F, pa, start * F);
          copyField(data, L.scores, 2 * n, scores, 2 * start);
          copyField(data, L.scores + 2 * n, 2 * n, scores, 2 * (N + start));
          copyField(data, L.m, n * N_HAZARDS, out.m, start * N_HAZARDS);
          copyField(data, L.mR, n * N_HAZARDS, out.mR, start * N_HAZARDS);
        },
      },
    );
    if (seen !== N) throw new Error(`the dashboard store holds ${seen} assets of job ${job}, the project ${N}`);
    return out;
  }

  /**
   * The assets as the analysis saw them, from the store's asset rows (large-store-assets.ts); for a store made before
   * it kept them, read from the assets table (their dashboard columns only).
   */
  async assets(projectId: number, version: number, N: number): Promise<DashboardAsset[]> {
    const out: DashboardAsset[] = [];
    const seen = await this.eachSlice(projectId, version, ASSETS_JOB, (raw, start, count) => {
      const rows = decodeAssets(raw);
      if (rows.length !== count || start !== out.length) throw new Error(`the dashboard store's assets at position ${start} do not follow on`);
      for (const a of rows) out.push(a);
    });
    if (seen === 0) {
      for (let after = -1; ;) {
        const page = await this.repo.dashboardAssetsAfter(projectId, after, ASSET_PAGE);
        for (const r of page) out.push(dashboardAssetOf(r));
        if (page.length < ASSET_PAGE) return out;
        after = page[page.length - 1]!.position;
      }
    }
    if (seen !== N) throw new Error(`the dashboard store holds ${seen} assets, the project ${N}`);
    return out;
  }
}

/** What the reader of a large analysis carries (ProjectResults.large): its store and the jobs read from it. */
export interface LargeResults {
  projectId: number;
  version: number;
  agg: LargeAggregates;
  /** Jobs read from the store, most recently used last (at most LARGE_JOBS_KEPT). */
  loaded: Map<number, Promise<LargeSlice>>;
}

/**
 * One job's slices hold 58 bytes per asset (58 MB at a million; the CVaRs kept as Float32): the most recently asked are
 * kept, about half a GB at a million assets.
 */
export const LARGE_JOBS_KEPT = 9;

/**
 * The reader of a large analysis: its assets (identity and money columns, for the pages, sums by country and the map)
 * without result arrays or engine input (`prepared` is empty: the store holds what the engine gave). `chunks` holds
 * one chunk without arrays, so the scenario-year count is known; a path that would read the arrays is a bug
 * (DashboardService refuses the filters that need them).
 */
export function largeResultsOf(assets: DashboardAsset[], large: LargeResults): ProjectResults<DashboardAsset> {
  const keys = SCENARIO_YEARS.map((s) => s.key);
  const shell = { start: 0, count: 0, hazards: [...HAZARD_KEYS], scenarioYears: keys } as unknown as StoredChunk;
  const none = (): never => {
    throw new AppError(422, 'This analysis is read from its dashboard store: per-asset hazard values are not available at this size.');
  };
  return {
    assets,
    prepared: [],
    chunks: [shell],
    chunkOf: new Int32Array(assets.length),
    localOf: new Int32Array(assets.length),
    // the assets' objects of 19 fields and their names (about 250 bytes an asset in the heap)
    bytes: assets.length * 256,
    locate: none,
    syIndex: syIndexOf,
    intensity: none,
    score: none,
    large,
  };
}
