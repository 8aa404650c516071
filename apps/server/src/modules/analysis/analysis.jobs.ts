import { hazardByLabel, type HazardKey } from '@crp/contracts';
import { computeChunk, prepareAssets, SCENARIO_YEARS, type AssetInput, type HazardProvider, type PreparedAsset } from '@crp/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../infra/db/database.js';
import { blobOf } from '../../infra/db/bytea.js';
import type { AssetRow, DefaultFilters } from '../../infra/db/schema.js';
import type { JobContext, JobDefinition } from '../../infra/job-queue.js';
import { ANALYSE_PORTFOLIO_JOB } from '../projects/project.service.js';
import { byoCatalogPath, defaultHazardLayers, type ByoRegistry, type PublishedDatasets } from '@crp/hazards';
import { existsSync, readFileSync } from 'node:fs';
import { createHazardProvider, prefetchPublished } from './hazard-provider.js';
import { decodeChunk, encodeChunk, type StoredChunk } from './result-codec.js';
import { summaryShare } from './chunk-summary.js';
import type { EncodedChunk, EncodeOptions } from './chunk-encoder.js';
import { withAnalysisPool } from './analysis-pool.js';
import { pruneRuns, storeRun, writeChunk, type RunChunk } from './run-store.js';
import {
  assetsSlice,
  countAssets,
  deleteOtherRuns,
  deleteRun,
  deleteRunsBefore,
  insertPart,
  insertRun,
  lockProjectVersion,
  lockRun,
  markProjectFailed,
  markProjectRunning,
  partsLeft,
  projectToAnalyse,
  projectVersion,
  raiseProjectProgress,
  readAssets,
  runChunks,
  runFinishedAt,
  runOf,
  runVersion,
  runProgress,
  setPartAssetsDone,
  setProjectProgress,
  updatePart,
} from './analysis.repository.js';

export { summaryShare, type SummaryShare } from './chunk-summary.js';
export { projectSummary } from './run-store.js';

/** Assets computed between two yields to the event loop (keeps the API responsive during an analysis). */
const CHUNK_ASSETS = 500;
/** Portfolios above this many assets are analysed on worker threads. */
const PARALLEL_ABOVE = 2000;

export function assetInputOf(a: AssetRow): AssetInput {
  return {
    id: a.id,
    name: a.name,
    latitude: a.latitude,
    longitude: a.longitude,
    country_code: a.country_code,
    type: a.property_type,
    valuation: a.valuation,
    construction_cost: a.construction_cost,
    content_value: a.content_value,
    yearly_inventory_value: a.yearly_inventory_value,
    revenue: a.revenue,
    ownership: a.ownership,
    floors: a.stories,
    plinth_height: a.plinth_height,
    flood_protection: a.flood_protection,
    construction: a.construction,
    basement: a.basement,
    mitigation_risk: a.mitigation_risk,
    solar_production: a.solar_production,
    wind_production: a.wind_production,
    hydro_production: a.hydro_production,
    wheat_production: a.wheat_production,
    rice_production: a.rice_production,
    maize_production: a.maize_production,
    fruit_production: a.fruit_production,
    vegetable_production: a.vegetable_production,
  };
}

/** Options of the portfolio analysis jobs (from config.ts; see docs/reliability.md "Scale-out and crash safety"). */
export interface AnalysisJobOptions {
  /** Split analyses with more than `partChunks` chunks to compute into part jobs (the queue is shared by workers). */
  fanOut: boolean;
  /** Chunks per part, and the threshold above which an analysis is split. */
  partChunks: number;
  /** Enqueues a job in the given transaction (JobQueue.enqueue). */
  enqueue(type: string, payload: Record<string, unknown>, db: DB): Promise<number>;
  /** Called (not awaited) once new results are stored, e.g. to load them into the dashboard's cache. */
  onStored?: ((projectId: number) => Promise<void>) | undefined;
  /** The own hazard layers of the project's company (issue 23 item 3; OwnLayerService), null when none. */
  ownLayers?: OwnLayersOf | undefined;
  /** The installation's published flood maps (issue 34 item 2; PublishedDatasetService), null when none. */
  published?: PublishedOf | undefined;
}

/** The published flood datasets registered on the installation, applied before the own layers; null when none. */
export type PublishedOf = () => Promise<PublishedDatasets | null>;

/** A project's company's own hazard layers, applied over the built-in ones in its analysis; null when none. */
export type OwnLayersOf = (projectId: number) => Promise<ByoRegistry | null>;

export const ANALYSE_PORTFOLIO_PART_JOB = 'analyse-portfolio-part';

type AnalysePayload = { projectId: number; version: number; changedAssetIds?: number[] };
type PartPayload = {
  projectId: number;
  version: number;
  part: number;
  /** Start (asset index) of each chunk this part computes. */
  chunks: number[];
  /** Assets in the project at this version. */
  total: number;
  filters: DefaultFilters;
  hazards: HazardKey[];
};

function hazardsOf(project: { portfolio_variables: unknown }): HazardKey[] {
  return (project.portfolio_variables as string[]).map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);
}

/** A chunk of the current results kept after an edit (none of its assets changed). */
type Kept = { data: Buffer; worker_id: string | null; part: number | null };

/** What the steps of one analysis share. */
interface AnalysisRun {
  projectId: number;
  version: number;
  filters: DefaultFilters;
  hazards: HazardKey[];
}

/**
 * Runs the engine over every asset x hazard x scenario-year of a project and stores the results as run `version`
 * (analysis_chunks, written chunk by chunk), then makes it the project's results in one small transaction, so readers
 * see either the old or the new analysis, never a mix (run-store.ts).
 * With `fanOut`, an analysis with more than `partChunks` chunks to compute is instead planned as parts (ranges of
 * chunks), each a job that any worker may claim (analysePortfolioPartJob); the part completing the set stores it.
 */
export function analysePortfolioJob(db: DB, log: FastifyBaseLogger, options: AnalysisJobOptions): JobDefinition<AnalysePayload> {
  return {
    type: ANALYSE_PORTFOLIO_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    run: (payload, ctx) => stopQuietlyIfDeleted(db, log, payload.projectId, () => analysePortfolio(db, log, options, payload, ctx)),
    async onFailed({ projectId }, error) {
      await markProjectFailed(db, projectId, `The analysis failed: ${error.slice(0, 300)}. Edit the portfolio or contact support.`);
    },
  };
}

/**
 * A project deleted while its analysis runs (say during the re-analysis an own-layer upload queued): the run's next
 * write fails on the foreign key to the deleted project (or the run's rows went with it). That is the analysis
 * cancelled, not a failure: the job ends done, with one log line, instead of an error and two retries that fail the
 * same way.
 */
async function stopQuietlyIfDeleted(db: DB, log: FastifyBaseLogger, projectId: number, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (await projectVersion(db, projectId).then((p) => p === undefined)) {
      log.info({ projectId, reason: err instanceof Error ? err.message.slice(0, 200) : String(err) }, 'analysis stopped: the project was deleted');
      return;
    }
    throw err;
  }
}

async function analysePortfolio(
  db: DB,
  log: FastifyBaseLogger,
  options: AnalysisJobOptions,
  { projectId, version, changedAssetIds }: AnalysePayload,
  ctx: JobContext,
) {
  const project = await projectToAnalyse(db, projectId);
  if (!project) return; // deleted meanwhile
  if (project.version !== version) return; // superseded: a newer job analyses the newer assets
  if (project.results_version === version) return; // stored by an earlier attempt that died before marking the job done
  if (!(await restartRun(db, projectId, version))) return;
  await markProjectRunning(db, projectId, 'Reading assets');
  const run: AnalysisRun = { projectId, version, filters: project.default_filters as DefaultFilters, hazards: hazardsOf(project) };
  // A fanned-out analysis without an edit needs only the number of assets: each part reads its own.
  if (options.fanOut && !changedAssetIds?.length) {
    const total = await countAssets(db, projectId);
    const toCompute = chunkStarts(total);
    if (toCompute.length > options.partChunks) return planParts(db, log, options, ctx, { ...run, total, prepared: () => [], reusable: new Map(), toCompute });
  }
  const rows = await readAssets(db, projectId);
  const inputs = rows.map(assetInputOf);
  let preparedAll: PreparedAsset[] | null = null;
  const prepared = () => (preparedAll ??= prepareAssets(inputs, undefined));
  // After an edit, chunks without a changed asset keep their stored results (same assets, same boundaries).
  const reusable = changedAssetIds?.length ? await reusableChunks(db, projectId, project.results_version, rows, changedAssetIds) : new Map<number, Kept>();
  const toCompute = chunkStarts(inputs.length).filter((s) => !reusable.has(s));
  if (options.fanOut && toCompute.length > options.partChunks)
    return planParts(db, log, options, ctx, { ...run, total: inputs.length, prepared, reusable, toCompute });
  const t0 = performance.now();
  const report = progressReporter(db, ctx, projectId, inputs.length);
  const own = (await options.ownLayers?.(projectId)) ?? null;
  const published = (await options.published?.()) ?? null;
  // Large portfolios: the engine's worker threads compute, compress and summarise each chunk (this thread only writes
  // each chunk as it arrives). Own rasters and published maps are read in this thread only, so portfolios that may use
  // them stay here.
  // The hazard layers are loaded in this thread only when it computes (or to see whether the installation's own-layer
  // catalogue loaded any layer): not on the large-portfolio path, where loading them would stall the event loop.
  const inWorkers = reusable.size === 0 && inputs.length > PARALLEL_ABOVE && !own && !published && !(await installationHasOwnLayers());
  const stats = inWorkers
    ? await streamRun(db, ctx, { ...run, total: inputs.length, tasks: tasksOf(inputs, 0, inputs.length), part: null, onProgress: (done) => void report(done) })
    : await computeInProcess(db, ctx, run, {
        inputs,
        prepared,
        reusable,
        provider: createHazardProvider({ own, published }, await defaultHazardLayers()),
        report,
      });
  const outcome = await finishRun(db, run, inputs.length);
  log.info(
    {
      projectId,
      assets: inputs.length,
      recomputed: stats.recomputed,
      computeMs: Math.round(performance.now() - t0),
      bytes: stats.bytes,
      encodeMsInWorkers: Math.round(stats.encodeMs),
      encodedInWorkers: stats.inWorker,
      outcome,
    },
    'portfolio analysed',
  );
  await afterRun(db, log, projectId, outcome, options.onStored);
}

/**
 * Before (re)starting the analysis of a version: false when an earlier attempt planned it into parts (the parts carry
 * on). A run without parts is a streamed run of an attempt that died: it starts again (its chunks are overwritten).
 */
async function restartRun(db: DB, projectId: number, version: number): Promise<boolean> {
  const earlier = await runOf(db, projectId, version);
  if (earlier && earlier.parts > 0) return false;
  if (earlier) await deleteRun(db, projectId, version);
  return true;
}

/**
 * Whether the installation's own-layer catalogue (HAZARD_BYO_CATALOG) loaded any layer: the engine's worker threads
 * know the committed layers only. A missing or empty catalogue needs no loading of the layers to answer.
 */
async function installationHasOwnLayers(): Promise<boolean> {
  const path = byoCatalogPath();
  if (!existsSync(path)) return false;
  try {
    const list: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (Array.isArray(list) && list.length === 0) return false;
  } catch {
    // unreadable: as many layers as loading it gives (none; the load logs why)
  }
  return (await defaultHazardLayers()).byo.size > 0;
}

/** Start (asset index) of every chunk of `total` assets. */
function chunkStarts(total: number): number[] {
  const out: number[] = [];
  for (let start = 0; start < total; start += CHUNK_ASSETS) out.push(start);
  return out;
}

/** The current results' chunks none of whose assets changed, when the stored chunks still line up with the assets. */
async function reusableChunks(
  db: DB,
  projectId: number,
  resultsVersion: number | null,
  rows: AssetRow[],
  changedAssetIds: number[],
): Promise<Map<number, Kept>> {
  const reusable = new Map<number, Kept>();
  if (resultsVersion === null) return reusable;
  const old = await runChunks(db, projectId, resultsVersion);
  const aligned =
    old.reduce((n, b) => n + b.chunk_count, 0) === rows.length &&
    old.every((b) => b.chunk_start % CHUNK_ASSETS === 0 && b.chunk_count === Math.min(CHUNK_ASSETS, rows.length - b.chunk_start));
  if (!aligned) return reusable;
  const changed = new Set(changedAssetIds);
  for (const b of old) {
    const touched = rows.slice(b.chunk_start, b.chunk_start + b.chunk_count).some((r) => changed.has(r.id));
    if (!touched) reusable.set(b.chunk_start, { data: blobOf(b.data), worker_id: b.worker_id, part: b.part });
  }
  return reusable;
}

/** Reports `done` of `total` assets on the project and the job, at most every 250 ms (and at the end). */
function progressReporter(db: DB, ctx: JobContext, projectId: number, total: number) {
  let lastReport = 0;
  return async (done: number) => {
    if (performance.now() - lastReport < 250 && done < total) return;
    lastReport = performance.now();
    const message = `Analysed ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} assets`;
    await setProjectProgress(db, projectId, 0.95 * (done / total), message);
    await ctx.progress(0.95 * (done / total), message);
  };
}

type RunStats = { recomputed: number; bytes: number; encodeMs: number; inWorker: boolean };

/**
 * Small portfolios, edits (kept chunks) and own layers: computes in this thread, a turn of the event loop per chunk,
 * writing each chunk of the run as it is done.
 */
async function computeInProcess(
  db: DB,
  ctx: JobContext,
  run: AnalysisRun,
  c: {
    inputs: AssetInput[];
    prepared: () => PreparedAsset[];
    reusable: Map<number, Kept>;
    provider: HazardProvider;
    report: (done: number) => Promise<void>;
    published?: PublishedDatasets | null;
  },
): Promise<RunStats> {
  const stats: RunStats = { recomputed: 0, bytes: 0, encodeMs: 0, inWorker: false };
  for (const start of chunkStarts(c.inputs.length)) {
    const end = Math.min(c.inputs.length, start + CHUNK_ASSETS);
    const kept = c.reusable.get(start);
    if (kept) {
      const share = summaryShare(c.prepared(), 0, decodeChunk(kept.data), run.filters, run.hazards);
      await writeChunk(db, run.projectId, run.version, {
        start,
        count: end - start,
        data: kept.data,
        share,
        part: kept.part,
        worker_id: kept.worker_id,
        attempt: null,
      });
      stats.bytes += kept.data.length;
      await new Promise((r) => setImmediate(r)); // a decode is tens of ms: let requests through
      continue;
    }
    await prefetchPublished(c.published, c.inputs.slice(start, end)); // the maps' pixels read ahead, off the event loop
    const chunk = computeChunk(c.prepared(), c.inputs, start, end, SCENARIO_YEARS, c.provider) as StoredChunk;
    const data = encodeChunk(chunk);
    await writeChunk(db, run.projectId, run.version, {
      start,
      count: end - start,
      data,
      share: summaryShare(c.prepared(), 0, chunk, run.filters, run.hazards),
      part: null,
      worker_id: ctx.workerId,
      attempt: ctx.attempt,
    });
    stats.recomputed += end - start;
    stats.bytes += data.length;
    await c.report(end);
    await new Promise((r) => setImmediate(r)); // let requests through between chunks
  }
  return stats;
}

/** Makes the written run the project's results, unless the project changed meanwhile: one short transaction. */
async function finishRun(db: DB, run: AnalysisRun, total: number): Promise<'stored' | 'superseded'> {
  return db.transaction().execute(async (tx) => {
    const current = await lockProjectVersion(tx, run.projectId);
    if (!current || current.version !== run.version) return 'superseded';
    // Parts of an older fanned-out run are superseded: drop them.
    await deleteRunsBefore(tx, run.projectId, run.version);
    await storeRun(tx, run.projectId, run.version, total, run.filters);
    return 'stored';
  });
}

/** After a run stored or superseded: the after-analysis hook (not awaited), then the other runs' chunks are deleted. */
async function afterRun(db: DB, log: FastifyBaseLogger, projectId: number, outcome: string, onStored: ((projectId: number) => Promise<void>) | undefined) {
  if (outcome === 'stored' && onStored) onStored(projectId).catch((err: unknown) => log.warn({ projectId, err }, 'after-analysis hook failed'));
  if (outcome !== 'stored' && outcome !== 'superseded') return;
  const pruned = await pruneRuns(db, projectId).catch((err: unknown) => {
    log.warn({ projectId, err }, 'pruning old analysis runs failed');
    return 0;
  });
  if (pruned) log.info({ projectId, chunks: pruned }, 'old analysis runs deleted');
}

/**
 * Plans a fanned-out run: chunks kept after an edit go straight into the run, the chunks to compute are cut into parts
 * of `partChunks` chunks, and one part job is queued per part, all in one transaction under the project's row lock
 * (so a newer version cannot slip in between). A retried planning job finds the run and stops.
 */
async function planParts(
  db: DB,
  log: FastifyBaseLogger,
  options: AnalysisJobOptions,
  ctx: JobContext,
  p: AnalysisRun & { total: number; prepared: () => PreparedAsset[]; reusable: Map<number, Kept>; toCompute: number[] },
) {
  const { projectId, version, total } = p;
  const countOf = (start: number) => Math.min(CHUNK_ASSETS, total - start);
  const reused: RunChunk[] = [...p.reusable.entries()].map(([start, kept]) => {
    const share = summaryShare(p.prepared(), 0, decodeChunk(kept.data), p.filters, p.hazards);
    return { start, count: countOf(start), data: kept.data, share, part: kept.part, worker_id: kept.worker_id, attempt: null };
  });
  const reusedAssets = reused.reduce((n, r) => n + r.count, 0);
  const groups: number[][] = [];
  for (let i = 0; i < p.toCompute.length; i += options.partChunks) groups.push(p.toCompute.slice(i, i + options.partChunks));
  const outcome = await db.transaction().execute(async (tx) => {
    const current = await lockProjectVersion(tx, projectId);
    if (!current || current.version !== version) return 'superseded';
    const existing = await runVersion(tx, projectId, version);
    if (existing) return 'planned before';
    await deleteOtherRuns(tx, projectId, version);
    await insertRun(tx, {
      project_id: projectId,
      version,
      total_assets: total,
      chunks: Math.ceil(total / CHUNK_ASSETS),
      parts: groups.length,
      reused_assets: reusedAssets,
      planned_by: ctx.workerId,
    });
    for (const r of reused) await writeChunk(tx, projectId, version, r);
    for (const [part, chunks] of groups.entries()) {
      const payload: PartPayload = { projectId, version, part, chunks, total, filters: p.filters, hazards: p.hazards };
      const jobId = await options.enqueue(ANALYSE_PORTFOLIO_PART_JOB, payload, tx);
      const last = chunks[chunks.length - 1]!;
      await insertPart(tx, {
        project_id: projectId,
        version,
        part,
        chunk_from: chunks[0]!,
        chunk_to: last + countOf(last),
        chunks: chunks.length,
        assets: chunks.reduce((n, c) => n + countOf(c), 0),
        job_id: jobId,
      });
    }
    await setProjectProgress(tx, projectId, 0.95 * (reusedAssets / total), `Analysing ${total.toLocaleString('en-US')} assets in ${groups.length} parts`);
    return 'planned';
  });
  log.info({ projectId, version, assets: total, parts: groups.length, reusedChunks: reused.length, outcome }, 'portfolio analysis split into parts');
}

/**
 * One part of a fanned-out analysis: computes its chunks and writes each into the run as it arrives (upsert on
 * (project, version, chunk_start): a retried part overwrites its own rows), then in one short transaction under the
 * project's row lock marks the part done and, when it is the last, makes the run the project's results (storeRun).
 * A part of a superseded version (the project changed since) stores nothing.
 */
export function analysePortfolioPartJob(
  db: DB,
  log: FastifyBaseLogger,
  onStored?: (projectId: number) => Promise<void>,
  ownLayers?: OwnLayersOf,
  published?: PublishedOf,
): JobDefinition<PartPayload> {
  return {
    type: ANALYSE_PORTFOLIO_PART_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    run: (p, ctx) => stopQuietlyIfDeleted(db, log, p.projectId, () => analysePart(db, log, p, ctx, onStored, ownLayers, published)),
    async onFailed({ projectId, version }, error) {
      await markProjectFailed(db, projectId, `The analysis failed: ${error.slice(0, 300)}. Edit the portfolio or contact support.`, version);
    },
  };
}

async function analysePart(
  db: DB,
  log: FastifyBaseLogger,
  p: PartPayload,
  ctx: JobContext,
  onStored?: (projectId: number) => Promise<void>,
  ownLayers?: OwnLayersOf,
  published?: PublishedOf,
) {
  const { projectId, version, part, chunks } = p;
  const project = await projectVersion(db, projectId);
  if (!project || project.version !== version) return; // superseded
  const run = await runFinishedAt(db, projectId, version);
  if (!run || run.finished_at) return; // superseded, or stored already by an earlier attempt
  await updatePart(db, p, { status: 'running', worker_id: ctx.workerId, attempt: ctx.attempt, assets_done: 0, started_at: new Date() });
  const tasks = await partTasks(db, p);
  if (!tasks) return; // the assets changed meanwhile: superseded
  const partAssets = tasks.reduce((n, t) => n + t.assets.length, 0);
  const t0 = performance.now();
  const stats = { done: 0, encodeMs: 0, inWorker: true, lastReport: 0 };
  const take = async (head: { start: number; count: number }, e: EncodedChunk) => {
    stats.encodeMs += e.encodeMs;
    stats.inWorker &&= e.inWorker;
    await writeChunk(db, projectId, version, {
      start: head.start,
      count: head.count,
      data: e.data,
      share: e.share,
      part,
      worker_id: ctx.workerId,
      attempt: ctx.attempt,
    });
    stats.done += head.count;
    if (performance.now() - stats.lastReport > 250 || stats.done === partAssets) {
      stats.lastReport = performance.now();
      await reportRunProgress(db, projectId, version, part, stats.done);
      await ctx.progress(stats.done / partAssets, `Part ${part + 1}: ${stats.done} of ${partAssets} assets`);
    }
  };
  const own = (await ownLayers?.(projectId)) ?? null;
  const pub = (await published?.()) ?? null;
  if (own || pub) await computeWithOwnLayers(tasks, { own, published: pub }, p, take);
  // The engine's worker threads compute, compress and summarise the chunks (this thread stays free for requests).
  else
    await withAnalysisPool((pool) =>
      pool.run(tasks, (head, value) => take(head, value as EncodedChunk), { filters: p.filters, hazards: p.hazards } satisfies EncodeOptions),
    );
  const computeMs = Math.round(performance.now() - t0);
  const outcome = await finishPart(db, p, ctx, { done: stats.done, computeMs });
  log.info(
    {
      projectId,
      version,
      part,
      chunks: chunks.length,
      assets: partAssets,
      computeMs,
      encodeMsInWorkers: Math.round(stats.encodeMs),
      encodedInWorkers: stats.inWorker,
      attempt: ctx.attempt,
      outcome,
    },
    'analysis part done',
  );
  await afterRun(db, log, projectId, outcome, onStored);
}

/** The engine tasks of a part, its assets read one query per run of consecutive chunks; null when they changed. */
async function partTasks(db: DB, p: PartPayload): Promise<{ start: number; assets: AssetInput[] }[] | null> {
  const countOf = (start: number) => Math.min(CHUNK_ASSETS, p.total - start);
  const tasks: { start: number; assets: AssetInput[] }[] = [];
  for (let i = 0; i < p.chunks.length;) {
    let j = i;
    while (j + 1 < p.chunks.length && p.chunks[j + 1] === p.chunks[j]! + CHUNK_ASSETS) j++;
    const from = p.chunks[i]!;
    const count = p.chunks[j]! + countOf(p.chunks[j]!) - from;
    const rows = await assetsSlice(db, p.projectId, from, count);
    if (rows.length !== count) {
      const now = await projectVersion(db, p.projectId);
      if (!now || now.version !== p.version) return null;
      throw new Error(`expected ${count} assets from position ${from}, found ${rows.length}`);
    }
    const inputs = rows.map(assetInputOf);
    tasks.push(...tasksOf(inputs, 0, inputs.length).map((t) => ({ start: from + t.start, assets: t.assets })));
    i = j + 1;
  }
  return tasks;
}

/** The company's own rasters are loaded in this thread only: computes here, a turn of the event loop per chunk. */
async function computeWithOwnLayers(
  tasks: { start: number; assets: AssetInput[] }[],
  overlays: { own: ByoRegistry | null; published: PublishedDatasets | null },
  p: PartPayload,
  take: (head: { start: number; count: number }, e: EncodedChunk) => Promise<void>,
) {
  const provider = createHazardProvider(overlays, await defaultHazardLayers());
  for (const t of tasks) {
    const prepared = prepareAssets(t.assets, undefined);
    await prefetchPublished(overlays.published, t.assets);
    const chunk = { ...computeChunk(prepared, t.assets, 0, t.assets.length, SCENARIO_YEARS, provider), start: t.start } as StoredChunk;
    const t1 = performance.now();
    const e: EncodedChunk = { data: encodeChunk(chunk), share: summaryShare(prepared, t.start, chunk, p.filters, p.hazards), encodeMs: 0, inWorker: false };
    e.encodeMs = performance.now() - t1;
    await take({ start: t.start, count: t.assets.length }, e);
    await new Promise((r) => setImmediate(r));
  }
}

/** Marks a part done and, when it is the last of its run, stores the run: one short transaction under the row lock. */
async function finishPart(
  db: DB,
  p: PartPayload,
  ctx: JobContext,
  r: { done: number; computeMs: number },
): Promise<'superseded' | 'stored before' | 'staged' | 'stored'> {
  const { projectId, version } = p;
  return db.transaction().execute(async (tx) => {
    const current = await lockProjectVersion(tx, projectId);
    if (!current || current.version !== version) return 'superseded';
    const run = await lockRun(tx, projectId, version);
    if (!run || run.finished_at) return 'stored before';
    await updatePart(tx, p, {
      status: 'done',
      worker_id: ctx.workerId,
      attempt: ctx.attempt,
      assets_done: r.done,
      compute_ms: r.computeMs,
      finished_at: new Date(),
    });
    if ((await partsLeft(tx, projectId, version)) > 0) return 'staged';
    await storeRun(tx, projectId, version, run.total_assets, p.filters);
    return 'stored';
  });
}

/** The engine tasks (one per 500-asset chunk) of inputs[from, to). */
function tasksOf(inputs: readonly AssetInput[], from: number, to: number): { start: number; assets: AssetInput[] }[] {
  const tasks: { start: number; assets: AssetInput[] }[] = [];
  for (let s = from; s < to; s += CHUNK_ASSETS) tasks.push({ start: s, assets: inputs.slice(s, Math.min(to, s + CHUNK_ASSETS)) as AssetInput[] });
  return tasks;
}

/**
 * Computes `tasks` on the engine pool (compressed and summarised in the workers) and writes each chunk into the run
 * as it arrives, under an analysis_runs row with no parts (a streamed run; a retried job finds it and starts again).
 * The pool gives a worker its next chunk only once this one is written, so memory stays bounded.
 */
async function streamRun(
  db: DB,
  ctx: JobContext,
  r: AnalysisRun & { total: number; tasks: { start: number; assets: AssetInput[] }[]; part: number | null; onProgress: (done: number) => void },
): Promise<RunStats> {
  await insertRun(db, {
    project_id: r.projectId,
    version: r.version,
    total_assets: r.total,
    chunks: Math.ceil(r.total / CHUNK_ASSETS),
    parts: 0,
    reused_assets: 0,
    planned_by: ctx.workerId,
  });
  const stats: RunStats = { recomputed: r.total, bytes: 0, encodeMs: 0, inWorker: true };
  let done = 0;
  const encode: EncodeOptions = { filters: r.filters, hazards: r.hazards };
  await withAnalysisPool((pool) =>
    pool.run(
      r.tasks,
      async (head, value) => {
        const e = value as EncodedChunk;
        stats.bytes += e.data.byteLength;
        stats.encodeMs += e.encodeMs;
        stats.inWorker &&= e.inWorker;
        await writeChunk(db, r.projectId, r.version, {
          start: head.start,
          count: head.count,
          data: e.data,
          share: e.share,
          part: r.part,
          worker_id: ctx.workerId,
          attempt: ctx.attempt,
        });
        done += head.count;
        r.onProgress(done);
      },
      encode,
    ),
  );
  return stats;
}

/** Progress over all parts of a run: kept chunks plus every part's analysed assets, out of the project's assets. */
async function reportRunProgress(db: DB, projectId: number, version: number, part: number, done: number) {
  await setPartAssetsDone(db, projectId, version, part, done);
  const r = await runProgress(db, projectId, version);
  if (!r) return;
  await raiseProjectProgress(
    db,
    projectId,
    version,
    0.95 * (r.done / r.total),
    `Analysed ${r.done.toLocaleString('en-US')} of ${r.total.toLocaleString('en-US')} assets`,
  );
}
