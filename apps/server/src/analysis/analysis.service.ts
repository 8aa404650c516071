import { hazardByLabel, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { analysePortfolioParallel, assetCvar, computeChunk, prepareAssets, SCENARIO_YEAR_INDEX, scenarioYearKey, SCENARIO_YEARS, type AssetInput } from '@crp/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/database.js';
import type { AssetRow, DefaultFilters, ProjectSummary } from '../db/schema.js';
import type { JobDefinition } from '../services/job-queue.js';
import { ANALYSE_PORTFOLIO_JOB } from '../services/project.service.js';
import { defaultHazardLayers } from '@crp/hazards';
import { createHazardProvider } from './hazard-provider.js';
import { decodeChunk, encodeChunk, type StoredChunk } from './result-codec.js';

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

/**
 * Runs the engine over every asset x hazard x scenario-year of a project and stores the results, replacing the
 * previous ones in one transaction, so readers see either the old or the new analysis, never a mix.
 */
export function analysePortfolioJob(
  db: DB,
  log: FastifyBaseLogger,
  /** Called (not awaited) once the new results are stored, e.g. to load them into the dashboard's cache. */
  onStored?: (projectId: number) => Promise<void>,
): JobDefinition<{ projectId: number; version: number; changedAssetIds?: number[] }> {
  const setProject = (id: number, fields: Record<string, unknown>) => db.updateTable('projects').set(fields).where('id', '=', id).execute();
  return {
    type: ANALYSE_PORTFOLIO_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    async run({ projectId, version, changedAssetIds }, ctx) {
      const project = await db.selectFrom('projects').select(['id', 'version', 'portfolio_variables', 'default_filters']).where('id', '=', projectId).executeTakeFirst();
      if (!project) return; // deleted meanwhile
      if (project.version !== version) return; // superseded: a newer job analyses the newer assets
      await setProject(projectId, { status: 'running', progress: 0, status_message: 'Reading assets' });
      const rows = await db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
      const inputs = rows.map(assetInputOf);
      const prepared = prepareAssets(inputs, undefined);
      const blobs: { start: number; count: number; data: Buffer }[] = [];
      const t0 = performance.now();
      let lastReport = 0;
      const filters = project.default_filters as DefaultFilters;
      const hazards = (project.portfolio_variables as string[]).map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);
      const summary = new SummaryAccumulator(filters, hazards);
      // After an edit, chunks without a changed asset keep their stored results (same assets, same boundaries).
      const reusable = new Map<number, Buffer>();
      if (changedAssetIds?.length) {
        const old = await db.selectFrom('analysis_results').select(['chunk_start', 'chunk_count', 'data']).where('project_id', '=', projectId).execute();
        const aligned = old.reduce((n, b) => n + b.chunk_count, 0) === rows.length && old.every((b) => b.chunk_start % CHUNK_ASSETS === 0 && b.chunk_count === Math.min(CHUNK_ASSETS, rows.length - b.chunk_start));
        if (aligned) {
          const changed = new Set(changedAssetIds);
          for (const b of old) {
            const touched = rows.slice(b.chunk_start, b.chunk_start + b.chunk_count).some((r) => changed.has(r.id));
            if (!touched) reusable.set(b.chunk_start, Buffer.from(b.data));
          }
        }
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
        summary.add(prepared, chunk);
        blobs.push({ start: chunk.start, count: chunk.count, data: encodeChunk(chunk) });
      };
      const layers = await defaultHazardLayers();
      if (reusable.size === 0 && inputs.length > PARALLEL_ABOVE && layers.byo.size === 0) {
        // Large portfolios: worker threads (one per core), each with its own copy of the hazard layers.
        // (Bring-your-own rasters are loaded in this thread only, so portfolios that may use them stay here.)
        await analysePortfolioParallel(inputs, {
          providerModule: new URL('./hazard-provider.ts', import.meta.url),
          chunkSize: CHUNK_ASSETS,
          inThreadBelow: 0,
          onChunk: (chunk) => keep(chunk as StoredChunk),
          onProgress: (done) => void report(done),
        });
        recomputed = inputs.length;
      } else {
        const provider = createHazardProvider(undefined, layers);
        for (let start = 0; start < inputs.length; start += CHUNK_ASSETS) {
          const end = Math.min(inputs.length, start + CHUNK_ASSETS);
          const count = end - start;
          const kept = reusable.get(start);
          if (kept) {
            summary.add(prepared, decodeChunk(kept));
            blobs.push({ start, count, data: kept });
            continue;
          }
          recomputed += count;
          keep(computeChunk(prepared, inputs, start, end, SCENARIO_YEARS, provider) as StoredChunk);
          await report(end);
          await new Promise((r) => setImmediate(r)); // let requests through between chunks
        }
      }
      blobs.sort((a, b) => a.start - b.start);
      const computeMs = performance.now() - t0;
      const stored = await db.transaction().execute(async (tx) => {
        const current = await tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
        if (!current || current.version !== version) return false;
        await tx.deleteFrom('analysis_results').where('project_id', '=', projectId).execute();
        for (const b of blobs) await tx.insertInto('analysis_results').values({ project_id: projectId, chunk_start: b.start, chunk_count: b.count, data: b.data }).execute();
        await tx
          .updateTable('projects')
          .set({ status: 'done', progress: 1, status_message: `Analysed ${inputs.length.toLocaleString('en-US')} assets`, analysed_at: new Date(), summary: JSON.stringify(summary.result(rows)) })
          .where('id', '=', projectId)
          .execute();
        return true;
      });
      log.info({ projectId, assets: inputs.length, recomputed, computeMs: Math.round(computeMs), bytes: blobs.reduce((n, b) => n + b.data.length, 0), stored }, 'portfolio analysed');
      if (stored && onStored) onStored(projectId).catch((err: unknown) => log.warn({ projectId, err }, 'after-analysis hook failed'));
    },
    async onFailed({ projectId }, error) {
      await setProject(projectId, { status: 'failed', status_message: `The analysis failed: ${error.slice(0, 300)}. Edit the portfolio or contact support.` });
    },
  };
}

/**
 * The figures of a project card at the project's default filter: mean climate score of the assets with data,
 * summed maximum exposure, exposed value, CVaR and residual CVaR over the portfolio's hazards.
 */
class SummaryAccumulator {
  private scoreSum = 0;
  private scored = 0;
  private maxExposure = 0;
  private totalValue = 0;
  private cvar = 0;
  private rcvar = 0;
  private readonly syIndex: number;

  constructor(
    private readonly filters: DefaultFilters,
    private readonly hazards: HazardKey[],
  ) {
    this.syIndex = SCENARIO_YEAR_INDEX.get(scenarioYearKey(filters.analysis_type as AnalysisType, filters.scenario as ScenarioCode, filters.year)) ?? 0;
  }

  add(prepared: ReturnType<typeof prepareAssets>, chunk: StoredChunk) {
    const S = chunk.scenarioYears.length;
    for (let a = 0; a < chunk.count; a++) {
      const asset = prepared[chunk.start + a]!;
      const score = chunk.climateScore[a * S + this.syIndex]!;
      if (score !== 255) {
        this.scoreSum += score;
        this.scored += 1;
      }
      const c = assetCvar(asset, chunk, a, this.hazards, this.filters.analysis_type as AnalysisType, this.filters.scenario as ScenarioCode, this.filters.year);
      if (Number.isFinite(c.maxExposure)) this.maxExposure += c.maxExposure;
      if (Number.isFinite(c.cvar)) this.cvar += c.cvar;
      if (Number.isFinite(c.rcvar)) this.rcvar += c.rcvar;
      this.totalValue += (asset.buildingValue + asset.contentValue + asset.inventoryValue) * asset.ownership;
    }
  }

  result(rows: AssetRow[]): ProjectSummary {
    const types = [...new Set(rows.map((r) => r.property_type).filter((t): t is string => !!t))].sort();
    return {
      key: SCENARIO_YEARS[this.syIndex]!.key,
      overall: this.scored ? Math.round((10 * this.scoreSum) / this.scored) / 10 : null,
      max_exposure: this.maxExposure,
      total_value: this.totalValue,
      cvar: this.cvar,
      rcvar: this.rcvar,
      property_types: types,
    };
  }
}
