/**
 * What the dashboard keeps per decoded analysis (docs/performance-history.md, "Dashboard"). Decoded analyses: at most 4
 * projects and DASHBOARD_RESULTS_CACHE_MB (default 768 MiB; a 10,000-asset analysis decodes to about 200 MiB) of typed
 * arrays, least recently used evicted first (the newest is always kept). Per analysis, at most 1,024 portfolio CVaR
 * series (a few hundred bytes each), 32 MiB of score matrices, 64 MiB of per-asset CVaRs computed by queries, 64 sums
 * of 2020 money, and the precomputed scenario-years (year-batches.ts, at most 768 MiB, counted in the analysis's size).
 */
import { HAZARD_KEYS, hazardByLabel, SCENARIOS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { N_HAZARDS, portfolioCvarSeriesOf, portfolioHazardSeriesOf } from '@crp/engine';
import type { DashboardAsset, ProjectResults } from '../analysis/results-reader.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import { Lru } from '../../lib/lru.js';
import { MIB } from './dashboard-columns.js';
import type { MoneySums } from './dashboard-money.js';
import type { YearFigures } from './year-batches-compute.js';

/**
 * Each asset's figures at a scenario-year (ASSET_BATCH_FIELDS an asset, assetCvarBatch's layout): Float64 as computed,
 * Float32 as a large analysis's dashboard store keeps them (read as they are: half the memory, no widening copy).
 */
export type PerAssetFigures = Float64Array | Float32Array;

/** Portfolio series kept per analysis: the 24 precomputed of the project's hazards, 6 per single hazard, 6 per property type (year-batches.ts), and those asked. */
const SERIES_PER_ANALYSIS = 1024;

/** A decoded analysis and what the dashboard derived from it (valid as long as the analysis). */
export interface CachedResults {
  R: ProjectResults<DashboardAsset>;
  /** The background computation of the whole-portfolio series has been started (precomputeSeries). */
  precomputing?: boolean;
  series: Lru<ReturnType<typeof portfolioCvarSeriesOf>>;
  /** Per-hazard loss series (loss bars) by analysis type, scenario, hazard set, content, GDP adjustment and property type. */
  hazardSeries: Lru<ReturnType<typeof portfolioHazardSeriesOf>>;
  /** Score matrices by scenario-year and adaptation (scoreMatrixOf), at most 32 MiB per analysis. */
  scores: Lru<Uint8Array>;
  /** Per-asset CVaRs by analysis type, scenario, year, hazards, content and GDP adjustment, at most 64 MiB per analysis. */
  batches: Lru<{ pa: Float64Array; ph: Float64Array }>;
  /** JSON text of the sections that do not depend on the filters when every asset is selected (assets, stored table columns). */
  json: Map<string, string>;
  /** Means over every asset (hazard values, severity table, heat-map averages) by hazard, scenario-year and adaptation. */
  means: Map<string, number | null>;
  /** Money sums of every asset at a baseline scenario-year (dashboard-selection baselineSums), by scenario-year, hazards and loss options. */
  money: Lru<MoneySums>;
  /** Per-asset CVaRs, money figures and means of the scenario-years a worker thread precomputed (year-batches.ts). */
  years?: YearBatches;
  /** What does not depend on the filters when every asset is selected: the property types, each continent's assets, the bounds. */
  propertyTypes?: string[];
  continents?: Record<string, number[]>;
  /** Every asset index in order, as the selection of every asset lists it and as its page endpoints' Int32Array (shared, never written). */
  every?: { idx: number[]; idx32: Int32Array };
  /** Each asset's rank by a text column (name, type, country) among its distinct values, by column (dashboard-pages textOrder). */
  textRanks?: Map<string, { rank: Uint32Array; distinct: number }>;
  bounds?: [number, number, number, number] | null;
  /** The world view's map cells of every asset by zoom (dashboard-pages worldClusters). */
  worldGrids?: Map<number, unknown>;
  /** The countries of every asset in order of first appearance, and each asset's (dashboard-figures byCountry). */
  countries?: { codes: string[]; of: Int32Array };
}

/**
 * What year-batches.ts precomputes per analysis (yearJobsOf: every scenario-year at the default loss options, the
 * default scenario's also without content and GDP adjusted, each hazard alone at the default year): per scenario-year,
 * loss options and hazards (yearKeyOf), the per-asset CVaRs (assetCvarBatch's ASSET_BATCH_FIELDS per asset, Float64 as the
 * engine pass gives them) and the sums of each hazard's own CVaR and residual CVaR over the whole portfolio (row 0)
 * and each property type (row groupOf + 1), H * 2 per row.
 */
export interface YearBatches {
  /** The project's hazards (the precomputed hazards: these, or one of them alone). */
  hazards: string;
  H: number;
  pa: Map<string, PerAssetFigures>;
  bars: Map<string, Float64Array>;
  /** Per stored scenario-year and loss options (figuresKeyOf): every asset's money sums and climate scores. */
  figures: Map<string, YearFigures>;
  /** Lower-case property type ('na' for none) -> its group. */
  groupOf: Map<string, number>;
  /** Resolves when the worker has finished (or failed: then what arrived is used and the rest takes the engine pass). */
  done: Promise<void>;
  /** Worker time (ms) when done; the error when it failed. */
  ms?: number;
  error?: string;
  /** Bytes held (per-asset CVaRs, climate scores). */
  bytes: number;
}

/** Decoded analyses kept in memory (most recent few), so repeated dashboard queries do not re-read the database. */
export class ResultsCache {
  private readonly lru: Lru<Promise<CachedResults>>;
  constructor(maxBytes: number) {
    this.lru = new Lru<Promise<CachedResults>>(4, maxBytes);
  }
  get(key: string, load: () => Promise<ProjectResults<DashboardAsset>>): Promise<CachedResults> {
    let hit = this.lru.get(key);
    if (hit) return hit;
    hit = load().then((R) => ({
      R,
      series: new Lru(SERIES_PER_ANALYSIS),
      hazardSeries: new Lru(SERIES_PER_ANALYSIS),
      scores: new Lru<Uint8Array>(Infinity, 32 * MIB),
      batches: new Lru(Infinity, 64 * MIB),
      money: new Lru(64, MIB),
      json: new Map(),
      means: new Map(),
    }));
    hit.then(
      (c) => {
        if (this.lru.get(key) === hit) this.lru.set(key, hit!, c.R.bytes);
      },
      () => this.lru.delete(key),
    );
    this.lru.set(key, hit, 0);
    return hit;
  }
  /** The decoded analysis under `key` if it is kept or being decoded (nothing is loaded). */
  peek(key: string): Promise<CachedResults> | undefined {
    return this.lru.get(key);
  }
  /** Counts what was added to a decoded analysis since (the precomputed scenario-years) in its size, if it is still kept. */
  account(key: string, c: CachedResults): void {
    const hit = this.lru.get(key);
    if (hit) this.lru.set(key, hit, c.R.bytes + (c.years?.bytes ?? 0));
  }
}

/** Key of a portfolio series in an analysis's caches: what the series depends on besides the analysis. */
export const seriesKeyOf = (
  at: AnalysisType,
  s: ScenarioCode,
  hazards: readonly HazardKey[],
  withContent: boolean,
  gdpAdjusted: boolean,
  propertyType: string,
) => `${at}|${s}|${hazards.join(',')}|${withContent}|${gdpAdjusted}|${propertyType.toLowerCase()}`;
export const hazardKeysOf = (labels: readonly string[]) => labels.map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);

/** The decoded-analysis cache's key: a project's analysis is identified by its version and analysis time. */
export const resultsKeyOf = (p: Pick<ProjectRow, 'id' | 'version' | 'analysed_at'>) =>
  `${p.id}:${p.version}:${p.analysed_at ? new Date(p.analysed_at).getTime() : 0}`;

/**
 * Severity scores of every asset x stored hazard at scenario-year s, `[i * N_HAZARDS + h]`, 255 = no data: gathered
 * from the chunks once per analysis, scenario-year and adaptation (the score loops read them directly).
 */
export function scoreMatrixOf(c: CachedResults, s: number, residual: boolean): Uint8Array {
  return c.scores.getOrMake(
    `${s}|${residual}`,
    () => {
      const { R } = c;
      const { chunks, chunkOf, localOf } = R;
      const S = chunks[0]!.scenarioYears.length;
      const A = R.assets.length;
      const m = new Uint8Array(A * N_HAZARDS);
      for (let i = 0; i < A; i++) {
        const ch = chunks[chunkOf[i]!]!;
        const src = residual ? ch.scoreResidual : ch.score;
        const b = localOf[i]! * N_HAZARDS;
        for (let h = 0; h < N_HAZARDS; h++) m[i * N_HAZARDS + h] = src[(b + h) * S + s]!;
      }
      return m;
    },
    (m) => m.byteLength,
  );
}

/** Index of each hazard in the stored [asset][hazard][scenario-year] layout (the reader's HAZARD_KEYS order). */
export const storedHazardIndex = (hazards: readonly HazardKey[]) => Int32Array.from(hazards, (h) => HAZARD_KEYS.indexOf(h));

/**
 * Once per decoded analysis, in the background on the event loop, when the worker thread of year-batches.ts (which
 * computes the same series and more) failed: the whole portfolio's CVaR and per-hazard loss series of the project's
 * hazards for every analysis type, scenario, content and GDP choice (24 of each, a few hundred bytes apiece; about
 * 0.6 s of CPU at 10,000 assets, one series per event-loop turn so requests interleave), then each hazard's own series.
 */
export function precomputeSeries(c: CachedResults, hazards: HazardKey[]): void {
  if (c.precomputing || hazards.length === 0) return;
  c.precomputing = true;
  const { R } = c;
  const all = R.assets.map((_, i) => i);
  const jobs: (() => void)[] = [];
  for (const at of ['ssp', 'rcp'] as const) {
    for (const withContent of [true, false]) {
      for (const gdp of [false, true]) {
        for (const s of SCENARIOS) {
          const key = seriesKeyOf(at, s, hazards, withContent, gdp, 'All');
          const opt = { withContent, gdpAdjusted: gdp };
          jobs.push(() => c.series.getOrMake(key, () => portfolioCvarSeriesOf(R.prepared, R.chunks, R.chunkOf, R.localOf, all, hazards, at, s, opt)));
          if (hazards.length > 1)
            jobs.push(() => c.hazardSeries.getOrMake(key, () => portfolioHazardSeriesOf(R.prepared, R.chunks, R.chunkOf, R.localOf, all, hazards, at, s, opt)));
        }
      }
    }
  }
  // Then each hazard alone (the `variable` filter) at the default content and GDP choices: together about a quarter of
  // the above, since each pass reads one hazard instead of all.
  if (hazards.length > 1) {
    for (const h of hazards) {
      for (const at of ['ssp', 'rcp'] as const) {
        for (const s of SCENARIOS) {
          const key = seriesKeyOf(at, s, [h], true, false, 'All');
          jobs.push(() =>
            c.series.getOrMake(key, () =>
              portfolioCvarSeriesOf(R.prepared, R.chunks, R.chunkOf, R.localOf, all, [h], at, s, { withContent: true, gdpAdjusted: false }),
            ),
          );
        }
      }
    }
  }
  const next = () => {
    const job = jobs.shift();
    if (!job) return;
    job();
    setImmediate(next);
  };
  setImmediate(next);
}
