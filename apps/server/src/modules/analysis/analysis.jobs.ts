import { hazardByLabel, type HazardKey } from '@crp/contracts';
import { computeChunk, prepareAssets, SCENARIO_YEARS, type AssetInput, type PreparedAsset } from '@crp/engine';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobColumn, blobOf, blobValue } from '../../infra/db/bytea.js';
import type { AssetRow, DefaultFilters, ProjectSummary } from '../../infra/db/schema.js';
import type { JobContext, JobDefinition } from '../../infra/job-queue.js';
import { ANALYSE_PORTFOLIO_JOB } from '../projects/project.service.js';
import { defaultHazardLayers, type ByoRegistry } from '@crp/hazards';
import { createHazardProvider } from './hazard-provider.js';
import { decodeChunk, encodeChunk, type StoredChunk } from './result-codec.js';
import { summaryIndex, summaryShare, type SummaryShare } from './chunk-summary.js';
import type { EncodedChunk, EncodeOptions } from './chunk-encoder.js';
import { withAnalysisPool } from './analysis-pool.js';

export { summaryShare, type SummaryShare } from './chunk-summary.js';

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
}

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

/**
 * Runs the engine over every asset x hazard x scenario-year of a project and stores the results, replacing the
 * previous ones in one transaction, so readers see either the old or the new analysis, never a mix.
 * With `fanOut`, an analysis with more than `partChunks` chunks to compute is instead planned as parts (ranges of
 * chunks), each a job that any worker may claim (analysePortfolioPartJob); the part completing the set stores it.
 */
export function analysePortfolioJob(db: DB, log: FastifyBaseLogger, options: AnalysisJobOptions): JobDefinition<AnalysePayload> {
  const setProject = (id: number, fields: Record<string, unknown>) => db.updateTable('projects').set(fields).where('id', '=', id).execute();
  return {
    type: ANALYSE_PORTFOLIO_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    async run({ projectId, version, changedAssetIds }, ctx) {
      const project = await db.selectFrom('projects').select(['id', 'version', 'portfolio_variables', 'default_filters']).where('id', '=', projectId).executeTakeFirst();
      if (!project) return; // deleted meanwhile
      if (project.version !== version) return; // superseded: a newer job analyses the newer assets
      // Planned into parts by an earlier attempt that died before marking this job done: the parts carry on. A run
      // without parts is a streamed run (below) of an attempt that died: it starts again.
      const earlier = await db.selectFrom('analysis_runs').select(['version', 'parts']).where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
      if (earlier && earlier.parts > 0) return;
      if (earlier) await db.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '=', version).execute();
      await setProject(projectId, { status: 'running', progress: 0, status_message: 'Reading assets' });
      const rows = await readAssets(db, projectId);
      const inputs = rows.map(assetInputOf);
      let preparedAll: PreparedAsset[] | null = null;
      const preparedOf = () => (preparedAll ??= prepareAssets(inputs, undefined));
      const blobs: { start: number; count: number; data: Buffer; worker_id: string | null; part: number | null }[] = [];
      const shares: { start: number; share: SummaryShare }[] = [];
      const t0 = performance.now();
      let lastReport = 0;
      const filters = project.default_filters as DefaultFilters;
      const hazards = hazardsOf(project);
      // After an edit, chunks without a changed asset keep their stored results (same assets, same boundaries).
      const reusable = new Map<number, { data: Buffer; worker_id: string | null; part: number | null }>();
      if (changedAssetIds?.length) {
        const old = await db.selectFrom('analysis_results').select(['chunk_start', 'chunk_count', blobColumn('data').as('data'), 'worker_id', 'part']).where('project_id', '=', projectId).execute();
        const aligned = old.reduce((n, b) => n + b.chunk_count, 0) === rows.length && old.every((b) => b.chunk_start % CHUNK_ASSETS === 0 && b.chunk_count === Math.min(CHUNK_ASSETS, rows.length - b.chunk_start));
        if (aligned) {
          const changed = new Set(changedAssetIds);
          for (const b of old) {
            const touched = rows.slice(b.chunk_start, b.chunk_start + b.chunk_count).some((r) => changed.has(r.id));
            if (!touched) reusable.set(b.chunk_start, { data: blobOf(b.data), worker_id: b.worker_id, part: b.part });
          }
        }
      }
      const toCompute: number[] = [];
      for (let start = 0; start < inputs.length; start += CHUNK_ASSETS) if (!reusable.has(start)) toCompute.push(start);
      if (options.fanOut && toCompute.length > options.partChunks) {
        await planParts(db, log, options, ctx, { projectId, version, total: inputs.length, filters, hazards, prepared: preparedOf(), reusable, toCompute });
        return;
      }
      let recomputed = 0;
      const report = async (done: number) => {
        if (performance.now() - lastReport < 250 && done < inputs.length) return;
        lastReport = performance.now();
        const message = `Analysed ${done.toLocaleString('en-US')} of ${inputs.length.toLocaleString('en-US')} assets`;
        await setProject(projectId, { progress: 0.95 * (done / inputs.length), status_message: message });
        await ctx.progress(0.95 * (done / inputs.length), message);
      };
      const keep = (chunk: StoredChunk) => {
        shares.push({ start: chunk.start, share: summaryShare(preparedOf(), 0, chunk, filters, hazards) });
        blobs.push({ start: chunk.start, count: chunk.count, data: encodeChunk(chunk), worker_id: ctx.workerId, part: null });
      };
      const layers = await defaultHazardLayers();
      const own = (await options.ownLayers?.(projectId)) ?? null;
      if (reusable.size === 0 && inputs.length > PARALLEL_ABOVE && layers.byo.size === 0 && !own) {
        // Large portfolios: the engine's worker threads compute, compress and summarise each chunk; this thread only
        // writes each chunk's blob to analysis_staging as it arrives (streaming: memory stays bounded whatever the
        // size), then swaps the run into analysis_results in one transaction (storeRun), as the fanned-out path does.
        // (Own rasters are loaded in this thread only, so portfolios that may use them stay here.)
        const stats = await streamRun(db, ctx, { projectId, version, total: inputs.length, tasks: tasksOf(inputs, 0, inputs.length), encode: { filters, hazards }, part: null, onProgress: (done) => void report(done) });
        const outcome = await db.transaction().execute(async (tx) => {
          const current = await tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
          if (!current || current.version !== version) return 'superseded';
          await tx.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '<', version).execute();
          await storeRun(tx, projectId, version, inputs.length, filters);
          return 'stored';
        });
        log.info({ projectId, assets: inputs.length, recomputed: inputs.length, computeMs: Math.round(performance.now() - t0), bytes: stats.bytes, encodeMsInWorkers: Math.round(stats.encodeMs), encodedInWorkers: stats.inWorker, outcome }, 'portfolio analysed');
        if (outcome === 'stored' && options.onStored) options.onStored(projectId).catch((err: unknown) => log.warn({ projectId, err }, 'after-analysis hook failed'));
        return;
      } else {
        const provider = createHazardProvider({ own }, layers);
        for (let start = 0; start < inputs.length; start += CHUNK_ASSETS) {
          const end = Math.min(inputs.length, start + CHUNK_ASSETS);
          const count = end - start;
          const kept = reusable.get(start);
          if (kept) {
            shares.push({ start, share: summaryShare(preparedOf(), 0, decodeChunk(kept.data), filters, hazards) });
            blobs.push({ start, count, ...kept });
            await new Promise((r) => setImmediate(r)); // a decode is tens of ms: let requests through
            continue;
          }
          recomputed += count;
          keep(computeChunk(preparedOf(), inputs, start, end, SCENARIO_YEARS, provider) as StoredChunk);
          await report(end);
          await new Promise((r) => setImmediate(r)); // let requests through between chunks
        }
      }
      blobs.sort((a, b) => a.start - b.start);
      shares.sort((a, b) => a.start - b.start);
      const computeMs = performance.now() - t0;
      const stored = await db.transaction().execute(async (tx) => {
        const current = await tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
        if (!current || current.version !== version) return false;
        await tx.deleteFrom('analysis_results').where('project_id', '=', projectId).execute();
        for (const b of blobs) await tx.insertInto('analysis_results').values({ project_id: projectId, chunk_start: b.start, chunk_count: b.count, data: blobValue(b.data), worker_id: b.worker_id, part: b.part }).execute();
        // Parts of an older fanned-out run are superseded: drop them with their staged chunks.
        await tx.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '<', version).execute();
        await tx
          .updateTable('projects')
          .set({ status: 'done', progress: 1, status_message: `Analysed ${inputs.length.toLocaleString('en-US')} assets`, analysed_at: new Date(), summary: JSON.stringify(projectSummary(filters, shares.map((s) => s.share), propertyTypes(rows))) })
          .where('id', '=', projectId)
          .execute();
        return true;
      });
      log.info({ projectId, assets: inputs.length, recomputed, computeMs: Math.round(computeMs), bytes: blobs.reduce((n, b) => n + b.data.length, 0), stored }, 'portfolio analysed');
      if (stored && options.onStored) options.onStored(projectId).catch((err: unknown) => log.warn({ projectId, err }, 'after-analysis hook failed'));
    },
    async onFailed({ projectId }, error) {
      await setProject(projectId, { status: 'failed', status_message: `The analysis failed: ${error.slice(0, 300)}. Edit the portfolio or contact support.` });
    },
  };
}

/**
 * Plans a fanned-out run: chunks kept after an edit go straight to staging, the chunks to compute are cut into parts
 * of `partChunks` chunks, and one part job is queued per part, all in one transaction under the project's row lock
 * (so a newer version cannot slip in between). A retried planning job finds the run and stops.
 */
async function planParts(
  db: DB,
  log: FastifyBaseLogger,
  options: AnalysisJobOptions,
  ctx: JobContext,
  p: { projectId: number; version: number; total: number; filters: DefaultFilters; hazards: HazardKey[]; prepared: PreparedAsset[]; reusable: Map<number, { data: Buffer; worker_id: string | null; part: number | null }>; toCompute: number[] },
) {
  const { projectId, version, total } = p;
  const reused = [...p.reusable.entries()].map(([start, kept]) => {
    const chunk = decodeChunk(kept.data);
    return { project_id: projectId, version, chunk_start: start, chunk_count: chunk.count, data: blobValue(kept.data), summary: JSON.stringify(summaryShare(p.prepared, 0, chunk, p.filters, p.hazards)), part: kept.part, worker_id: kept.worker_id, attempt: null };
  });
  const reusedAssets = reused.reduce((n, r) => n + r.chunk_count, 0);
  const groups: number[][] = [];
  for (let i = 0; i < p.toCompute.length; i += options.partChunks) groups.push(p.toCompute.slice(i, i + options.partChunks));
  const countOf = (start: number) => Math.min(CHUNK_ASSETS, total - start);
  const outcome = await db.transaction().execute(async (tx) => {
    const current = await tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
    if (!current || current.version !== version) return 'superseded';
    const existing = await tx.selectFrom('analysis_runs').select('version').where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
    if (existing) return 'planned before';
    await tx.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '<>', version).execute();
    await tx
      .insertInto('analysis_runs')
      .values({ project_id: projectId, version, total_assets: total, chunks: Math.ceil(total / CHUNK_ASSETS), parts: groups.length, reused_assets: reusedAssets, planned_by: ctx.workerId })
      .execute();
    for (const r of reused) await tx.insertInto('analysis_staging').values(r).execute();
    for (const [part, chunks] of groups.entries()) {
      const payload: PartPayload = { projectId, version, part, chunks, total, filters: p.filters, hazards: p.hazards };
      const jobId = await options.enqueue(ANALYSE_PORTFOLIO_PART_JOB, payload, tx);
      const last = chunks[chunks.length - 1]!;
      await tx
        .insertInto('analysis_parts')
        .values({ project_id: projectId, version, part, chunk_from: chunks[0]!, chunk_to: last + countOf(last), chunks: chunks.length, assets: chunks.reduce((n, c) => n + countOf(c), 0), job_id: jobId })
        .execute();
    }
    await tx
      .updateTable('projects')
      .set({ progress: 0.95 * (reusedAssets / total), status_message: `Analysing ${total.toLocaleString('en-US')} assets in ${groups.length} parts` })
      .where('id', '=', projectId)
      .execute();
    return 'planned';
  });
  log.info({ projectId, version, assets: total, parts: groups.length, reusedChunks: reused.length, outcome }, 'portfolio analysis split into parts');
}

/**
 * One part of a fanned-out analysis: computes its chunks, then in one transaction under the project's row lock
 * writes them to analysis_staging (upsert on (project, version, chunk_start): a retried part overwrites its own
 * rows), marks the part done and, when it is the last, swaps the whole run into analysis_results and the summary.
 * A part of a superseded version (the project changed since) stores nothing.
 */
export function analysePortfolioPartJob(db: DB, log: FastifyBaseLogger, onStored?: (projectId: number) => Promise<void>, ownLayers?: OwnLayersOf): JobDefinition<PartPayload> {
  return {
    type: ANALYSE_PORTFOLIO_PART_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    async run(p, ctx) {
      const { projectId, version, part, chunks, total } = p;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely query builder with a where(); their where() overloads have no common typed signature
      const partKey = <Q extends { where: (...a: any[]) => Q }>(q: Q): Q => q.where('project_id', '=', projectId).where('version', '=', version).where('part', '=', part);
      const project = await db.selectFrom('projects').select(['version']).where('id', '=', projectId).executeTakeFirst();
      if (!project || project.version !== version) return; // superseded
      const run = await db.selectFrom('analysis_runs').select(['finished_at']).where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
      if (!run || run.finished_at) return; // superseded, or stored already by an earlier attempt
      await partKey(db.updateTable('analysis_parts').set({ status: 'running', worker_id: ctx.workerId, attempt: ctx.attempt, assets_done: 0, started_at: new Date() })).execute();
      const own = (await ownLayers?.(projectId)) ?? null;
      const staged: { chunk_start: number; chunk_count: number; data: Uint8Array; summary: SummaryShare }[] = [];
      const partAssets = chunks.reduce((n, c) => n + Math.min(CHUNK_ASSETS, total - c), 0);
      const t0 = performance.now();
      let done = 0;
      let lastReport = 0;
      const tasks: { start: number; assets: AssetInput[] }[] = [];
      for (const start of chunks) {
        const count = Math.min(CHUNK_ASSETS, total - start);
        const rows = await db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').limit(count).offset(start).execute();
        if (rows.length !== count) {
          const now = await db.selectFrom('projects').select(['version']).where('id', '=', projectId).executeTakeFirst();
          if (!now || now.version !== version) return;
          throw new Error(`expected ${count} assets from position ${start}, found ${rows.length}`);
        }
        tasks.push({ start, assets: rows.map(assetInputOf) });
      }
      const encode: EncodeOptions = { filters: p.filters, hazards: p.hazards };
      let encodeMs = 0;
      let inWorker = true;
      const take = async (head: { start: number; count: number }, e: EncodedChunk) => {
        encodeMs += e.encodeMs;
        inWorker &&= e.inWorker;
        staged.push({ chunk_start: head.start, chunk_count: head.count, data: e.data, summary: e.share });
        done += head.count;
        if (performance.now() - lastReport > 250 || done === partAssets) {
          lastReport = performance.now();
          await reportRunProgress(db, projectId, version, part, done);
          await ctx.progress(done / partAssets, `Part ${part + 1}: ${done} of ${partAssets} assets`);
        }
      };
      if (own) {
        // The company's own rasters are loaded in this thread only: compute here, a turn of the event loop per chunk.
        const provider = createHazardProvider({ own }, await defaultHazardLayers());
        for (const t of tasks) {
          const prepared = prepareAssets(t.assets, undefined);
          const chunk = { ...computeChunk(prepared, t.assets, 0, t.assets.length, SCENARIO_YEARS, provider), start: t.start } as StoredChunk;
          const t1 = performance.now();
          const e: EncodedChunk = { data: encodeChunk(chunk), share: summaryShare(prepared, t.start, chunk, p.filters, p.hazards), encodeMs: 0, inWorker: false };
          e.encodeMs = performance.now() - t1;
          await take({ start: t.start, count: t.assets.length }, e);
          await new Promise((r) => setImmediate(r));
        }
      } else {
        // The engine's worker threads compute, compress and summarise the chunks (this thread stays free for requests).
        await withAnalysisPool((pool) => pool.run(tasks, (head, value) => take(head, value as EncodedChunk), encode));
      }
      staged.sort((a, b) => a.chunk_start - b.chunk_start);
      const computeMs = Math.round(performance.now() - t0);
      const outcome = await db.transaction().execute(async (tx) => {
        const current = await tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
        if (!current || current.version !== version) return 'superseded';
        const run = await tx.selectFrom('analysis_runs').select(['finished_at', 'total_assets']).where('project_id', '=', projectId).where('version', '=', version).forUpdate().executeTakeFirst();
        if (!run || run.finished_at) return 'stored before';
        for (const s of staged) {
          const fields = { chunk_count: s.chunk_count, data: blobValue(s.data), summary: JSON.stringify(s.summary), part, worker_id: ctx.workerId, attempt: ctx.attempt };
          await tx
            .insertInto('analysis_staging')
            .values({ project_id: projectId, version, chunk_start: s.chunk_start, ...fields })
            .onConflict((oc) => oc.columns(['project_id', 'version', 'chunk_start']).doUpdateSet(fields))
            .execute();
        }
        await partKey(tx.updateTable('analysis_parts').set({ status: 'done', worker_id: ctx.workerId, attempt: ctx.attempt, assets_done: done, compute_ms: computeMs, finished_at: new Date() })).execute();
        const left = await tx
          .selectFrom('analysis_parts')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('project_id', '=', projectId)
          .where('version', '=', version)
          .where('status', '<>', 'done')
          .executeTakeFirstOrThrow();
        if (left.n > 0) return 'staged';
        await storeRun(tx, projectId, version, run.total_assets, p.filters);
        return 'stored';
      });
      log.info({ projectId, version, part, chunks: chunks.length, assets: partAssets, computeMs, encodeMsInWorkers: Math.round(encodeMs), encodedInWorkers: inWorker, attempt: ctx.attempt, outcome }, 'analysis part done');
      if (outcome === 'stored' && onStored) onStored(projectId).catch((err: unknown) => log.warn({ projectId, err }, 'after-analysis hook failed'));
    },
    async onFailed({ projectId, version }, error) {
      await db
        .updateTable('projects')
        .set({ status: 'failed', status_message: `The analysis failed: ${error.slice(0, 300)}. Edit the portfolio or contact support.` })
        .where('id', '=', projectId)
        .where('version', '=', version)
        .execute();
    },
  };
}

/** Page size when reading a project's assets (each page one query, so requests interleave on a large project). */
const READ_PAGE = 5_000;

/** A project's assets in position order, read page by page (keyset on position) with a turn of the event loop between. */
export async function readAssets(db: DB, projectId: number): Promise<AssetRow[]> {
  const out: AssetRow[] = [];
  let after = -1;
  for (;;) {
    const page = await db.selectFrom('assets').selectAll().where('project_id', '=', projectId).where('position', '>', after).orderBy('position').limit(READ_PAGE).execute();
    for (const r of page) out.push(r);
    if (page.length < READ_PAGE) return out;
    after = page[page.length - 1]!.position;
    await new Promise((r) => setImmediate(r));
  }
}

/** The engine tasks (one per 500-asset chunk) of inputs[from, to). */
function tasksOf(inputs: readonly AssetInput[], from: number, to: number): { start: number; assets: AssetInput[] }[] {
  const tasks: { start: number; assets: AssetInput[] }[] = [];
  for (let s = from; s < to; s += CHUNK_ASSETS) tasks.push({ start: s, assets: inputs.slice(s, Math.min(to, s + CHUNK_ASSETS)) as AssetInput[] });
  return tasks;
}

/**
 * Computes `tasks` on the engine pool (compressed and summarised in the workers) and writes each chunk to
 * analysis_staging as it arrives, under an analysis_runs row with no parts (a streamed run; a retried job finds it and
 * starts again). The pool gives a worker its next chunk only once this one is written, so memory stays bounded.
 */
async function streamRun(
  db: DB,
  ctx: JobContext,
  r: { projectId: number; version: number; total: number; tasks: { start: number; assets: AssetInput[] }[]; encode: EncodeOptions; part: number | null; onProgress: (done: number) => void },
): Promise<{ bytes: number; encodeMs: number; inWorker: boolean }> {
  await db.insertInto('analysis_runs').values({ project_id: r.projectId, version: r.version, total_assets: r.total, chunks: Math.ceil(r.total / CHUNK_ASSETS), parts: 0, reused_assets: 0, planned_by: ctx.workerId }).execute();
  const stats = { bytes: 0, encodeMs: 0, inWorker: true };
  let done = 0;
  await withAnalysisPool((pool) => pool.run(r.tasks, async (head, value) => {
    const e = value as EncodedChunk;
    stats.bytes += e.data.byteLength;
    stats.encodeMs += e.encodeMs;
    stats.inWorker &&= e.inWorker;
    await db
      .insertInto('analysis_staging')
      .values({ project_id: r.projectId, version: r.version, chunk_start: head.start, chunk_count: head.count, data: blobValue(e.data), summary: JSON.stringify(e.share), part: r.part, worker_id: ctx.workerId, attempt: ctx.attempt })
      .execute();
    done += head.count;
    r.onProgress(done);
  }, r.encode));
  return stats;
}

/** Progress over all parts of a run: kept chunks plus every part's analysed assets, out of the project's assets. */
async function reportRunProgress(db: DB, projectId: number, version: number, part: number, done: number) {
  await db.updateTable('analysis_parts').set({ assets_done: done }).where('project_id', '=', projectId).where('version', '=', version).where('part', '=', part).execute();
  const row = await sql<{ done: number; total: number }>`
    select (r.reused_assets + coalesce((select sum(p.assets_done) from analysis_parts p where p.project_id = r.project_id and p.version = r.version), 0))::int as done,
      r.total_assets as total
    from analysis_runs r where r.project_id = ${projectId} and r.version = ${version}`.execute(db);
  const r = row.rows[0];
  if (!r) return;
  await db
    .updateTable('projects')
    // greatest(): parts report concurrently and a retried part starts again from 0; progress only goes forward.
    .set({ progress: sql<number>`greatest(progress, ${0.95 * (r.done / r.total)})`, status_message: `Analysed ${r.done.toLocaleString('en-US')} of ${r.total.toLocaleString('en-US')} assets` })
    .where('id', '=', projectId)
    .where('version', '=', version)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Swaps a complete run from analysis_staging into analysis_results and writes the project summary, inside the
 * caller's transaction (which holds the project's row lock): readers see the old analysis or the new one.
 */
async function storeRun(tx: DB, projectId: number, version: number, total: number, filters: DefaultFilters) {
  const staged = await tx.selectFrom('analysis_staging').select(['chunk_start', 'chunk_count', 'summary']).where('project_id', '=', projectId).where('version', '=', version).orderBy('chunk_start').execute();
  let next = 0;
  for (const s of staged) {
    if (s.chunk_start !== next) throw new Error(`staged chunks of project ${projectId} v${version} are not contiguous at ${next} (found ${s.chunk_start})`);
    next += s.chunk_count;
  }
  if (next !== total) throw new Error(`staged chunks of project ${projectId} v${version} cover ${next} of ${total} assets`);
  await tx.deleteFrom('analysis_results').where('project_id', '=', projectId).execute();
  await sql`insert into analysis_results (project_id, chunk_start, chunk_count, data, worker_id, part)
    select project_id, chunk_start, chunk_count, data, worker_id, part from analysis_staging
    where project_id = ${projectId} and version = ${version} order by chunk_start`.execute(tx);
  const types = await tx.selectFrom('assets').select('property_type').distinct().where('project_id', '=', projectId).execute();
  const summary = projectSummary(filters, staged.map((s) => s.summary as unknown as SummaryShare), types.map((t) => t.property_type).filter((t): t is string => !!t).sort());
  await tx
    .updateTable('projects')
    .set({ status: 'done', progress: 1, status_message: `Analysed ${total.toLocaleString('en-US')} assets`, analysed_at: new Date(), summary: JSON.stringify(summary) })
    .where('id', '=', projectId)
    .execute();
  await tx.updateTable('analysis_runs').set({ finished_at: new Date() }).where('project_id', '=', projectId).where('version', '=', version).execute();
  await tx.deleteFrom('analysis_staging').where('project_id', '=', projectId).execute();
}

function propertyTypes(rows: AssetRow[]): string[] {
  return [...new Set(rows.map((r) => r.property_type).filter((t): t is string => !!t))].sort();
}

/** The project card's figures from the chunks' shares, added in chunk order (the same sums whoever computed them). */
export function projectSummary(filters: DefaultFilters, shares: readonly SummaryShare[], propertyTypes: string[]): ProjectSummary {
  const t: SummaryShare = { scoreSum: 0, scored: 0, maxExposure: 0, totalValue: 0, cvar: 0, rcvar: 0 };
  for (const s of shares) {
    t.scoreSum += s.scoreSum;
    t.scored += s.scored;
    t.maxExposure += s.maxExposure;
    t.totalValue += s.totalValue;
    t.cvar += s.cvar;
    t.rcvar += s.rcvar;
  }
  return {
    key: SCENARIO_YEARS[summaryIndex(filters)]!.key,
    overall: t.scored ? Math.round((10 * t.scoreSum) / t.scored) / 10 : null,
    max_exposure: t.maxExposure,
    total_value: t.totalValue,
    cvar: t.cvar,
    rcvar: t.rcvar,
    property_types: propertyTypes,
  };
}
