/**
 * What the dashboard precomputes per decoded analysis, in a worker thread (year-batches.worker.ts, started by
 * year-batches.ts), so that neither a year never asked nor the background work runs on the server's event loop:
 *  - the portfolio series (portfolioCvarSeriesOf, and each hazard's own, portfolioHazardSeriesOf) the main thread
 *    computed in the background before (the whole portfolio's for every analysis type, scenario, content and GDP
 *    choice; each hazard's alone), and each property type's at the default loss options;
 *  - at the default loss options (the project's hazards, with content, no GDP adjustment): the per-asset CVaRs of
 *    every scenario-year (the engine's assetCvarBatch, the same call the dashboard makes for a year never asked) and
 *    the whole portfolio's and each property type's sums of each hazard's own CVaR at that year (overall bar chart);
 *    the same for the default scenario's years without content and GDP adjusted, and each hazard alone at the default
 *    filters' year;
 *  - at each of those stored scenario-years and options, every asset's money sums and climate scores, and the means of
 *    each hazard's scores, intensities and inventory losses (dashboard-money.ts, the event loop's own loops).
 * The same engine calls over the same values in the same order (assets in position order, the order the dashboard
 * sums them in), so a lookup answers what the engine pass would, to the last bit. Pure: imports the engine and
 * dashboard-money.ts only.
 */
import { BASELINE_YEAR, HAZARD_KEYS, SCENARIOS, YEARS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, assetCvarBatch, portfolioCvarSeriesOf, portfolioHazardSeriesOf, type PreparedAsset, type ResultChunk } from '@crp/engine';
import {
  climateScoresOf,
  intensityMean,
  inventorySums,
  meanKeys,
  moneyAt,
  moneySumsOf,
  scoreMean,
  type MoneyInput,
  type MoneySums,
} from './dashboard-money.js';

/** Per asset, the money the CVaR maths reads: building, content and inventory values, revenue, ownership. */
export const MONEY_FIELDS = 6;

/** The arrays of a stored chunk the CVaR maths reads (shared with the main thread: the reader decodes into SharedArrayBuffers). */
export type ChunkArrays = Pick<
  ResultChunk,
  | 'start'
  | 'count'
  | 'hazards'
  | 'scenarioYears'
  | 'ead'
  | 'eadResidual'
  | 'disruption'
  | 'disruptionResidual'
  | 'maxDamage'
  | 'tail100'
  | 'tail250'
  | 'score'
  | 'scoreResidual'
> & { intensity: Float32Array };

/** A scenario-year at some loss options; s = its stored scenario-year index (what the money and means read). */
export interface YearJob {
  at: AnalysisType;
  sc: ScenarioCode;
  year: number;
  withContent: boolean;
  gdpAdjusted: boolean;
  s: number;
  /** One hazard alone (the `variable` filter), else null: every hazard of the project. */
  hazard: HazardKey | null;
  /** Only the money figures (a hazard alone at the 2020 baseline, what its answers' 2020 bars read), no per-asset CVaRs. */
  figuresOnly?: boolean;
}

/** Climate score with no data in the precomputed scores (Int16). */
export const NO_SCORE = -32768;

/**
 * What the answer reads of every asset's money at one stored scenario-year and loss options (dashboard-money.ts): the
 * sums, and the climate scores without adaptation (first N) and with it (next N), NO_SCORE = null; scores null when one
 * does not fit an Int16 (then the event loop computes them).
 */
export interface YearFigures {
  sums: MoneySums;
  scores: Int16Array | null;
}

/** A portfolio series to compute: over every asset (group -1) or a property type's, and optionally each hazard's own. */
export interface SeriesJob {
  at: AnalysisType;
  sc: ScenarioCode;
  hazards: HazardKey[];
  withContent: boolean;
  gdpAdjusted: boolean;
  group: number;
  perHazard: boolean;
}

export interface YearInput {
  chunks: ChunkArrays[];
  chunkOf: Int32Array;
  localOf: Int32Array;
  /** MONEY_FIELDS per asset (moneyOf). */
  money: Float64Array;
  hazards: HazardKey[];
  /** The asset positions of each property-type group, ascending. */
  groups: Int32Array[];
  /** Scenario-years to compute, in this order; the first `firstYears` (the default filters' scenario) before `seriesLater`. */
  jobs: YearJob[];
  firstYears: number;
  /** Series computed first (what every query's charts read), and after the first scenario's years. */
  seriesFirst: SeriesJob[];
  seriesLater: SeriesJob[];
}

export type YearMessage =
  | {
      type: 'series';
      job: SeriesJob;
      years: number[];
      loss: Float64Array;
      lossResidual: Float64Array;
      /** Each hazard's own loss series (portfolioHazardSeriesOf), when asked. */
      hazardLoss: Float64Array[] | null;
      hazardLossResidual: Float64Array[] | null;
    }
  | { type: 'year'; key: string; pa: Float64Array; bars: Float64Array }
  | { type: 'figures'; key: string; figures: YearFigures }
  /** Means over every asset at a stored scenario-year (CachedResults.means entries, meanKeys). */
  | { type: 'means'; means: [string, number | null][] }
  | { type: 'done'; ms: number }
  | { type: 'error'; message: string };

/** Key of a scenario-year's precomputed CVaRs at some loss options (the dashboard's batch key without the hazards). */
export const yearKeyOf = (at: AnalysisType, sc: ScenarioCode, year: number, withContent = true, gdpAdjusted = false, hazard = '') =>
  `${at}|${sc}|${year}|${withContent}|${gdpAdjusted}|${hazard}`;
/** Key of the precomputed money figures of a stored scenario-year at some loss options (and one hazard alone). */
export const figuresKeyOf = (s: number, withContent: boolean, gdpAdjusted: boolean, hazard = '') => `${s}|${withContent}|${gdpAdjusted}|${hazard}`;

/**
 * Every scenario-year the dashboard can ask (SSP with 2020, RCP) at the default loss options, those of the analysis
 * type and scenario `first` first, then that scenario's years without content and GDP adjusted, then each of
 * `hazards` alone at the default filters' year `first.year` (when more than one), then the other scenarios; `syIndex`
 * gives the stored index of a scenario-year (dashboard-filter syKeyOf).
 */
export function yearJobsOf(
  first: { at: AnalysisType; sc: ScenarioCode; year?: number },
  syIndex: (at: AnalysisType, sc: ScenarioCode, year: number) => number,
  hazards: readonly HazardKey[] = [],
): YearJob[] {
  const jobs: YearJob[] = [];
  for (const at of ['ssp', 'rcp'] as const)
    for (const sc of SCENARIOS)
      for (const year of at === 'ssp' ? [BASELINE_YEAR, ...YEARS.ssp] : YEARS.rcp)
        jobs.push({ at, sc, year, withContent: true, gdpAdjusted: false, s: syIndex(at, sc, year), hazard: null });
  const isFirst = (j: YearJob) => j.at === first.at && j.sc === first.sc;
  const firstJobs = jobs.filter(isFirst);
  const options = [
    { withContent: false, gdpAdjusted: false },
    { withContent: true, gdpAdjusted: true },
  ];
  const atYear = firstJobs.find((j) => j.year === first.year);
  const atBase = firstJobs.find((j) => j.year === BASELINE_YEAR);
  const alone =
    atYear && hazards.length > 1
      ? hazards.flatMap((hazard) => [{ ...atYear, hazard }, ...(atBase && atBase !== atYear ? [{ ...atBase, hazard, figuresOnly: true }] : [])])
      : [];
  return [...firstJobs, ...options.flatMap((o) => firstJobs.map((j) => ({ ...j, ...o }))), ...alone, ...jobs.filter((j) => !isFirst(j))];
}

/** The money fields of prepared assets (what the worker receives instead of the whole prepared assets). */
export function moneyOf(prepared: readonly PreparedAsset[]): Float64Array {
  const m = new Float64Array(prepared.length * MONEY_FIELDS);
  prepared.forEach((p, i) => m.set([p.buildingValue, p.contentValue, p.inventoryValue, p.revenue, p.ownership, p.reportedValue], i * MONEY_FIELDS));
  return m;
}

/**
 * Assets carrying only the money fields: the CVaR, combined-loss and series maths (assetCvarBatch,
 * portfolioCvarSeriesOf, portfolioHazardSeriesOf) read no other field of a prepared asset; the dashboard-steps test
 * checks the answers against the engine pass over the fully prepared assets.
 */
function assetsOf(money: Float64Array): PreparedAsset[] {
  const out: PreparedAsset[] = [];
  for (let i = 0; i < money.length; i += MONEY_FIELDS)
    out.push({
      buildingValue: money[i]!,
      contentValue: money[i + 1]!,
      inventoryValue: money[i + 2]!,
      revenue: money[i + 3]!,
      ownership: money[i + 4]!,
      reportedValue: money[i + 5]!,
    } as PreparedAsset);
  return out;
}

/** Sums of each hazard's own CVaR and residual CVaR over `order` (finite values only, in that order: dashboard overallBars). */
function barsInto(out: Float64Array, o: number, ph: Float64Array, order: ArrayLike<number>, H: number): void {
  for (let k = 0; k < H; k++) {
    let c = 0,
      rc = 0;
    for (let n = 0; n < order.length; n++) {
      const x = ph[(order[n]! * H + k) * 2]!;
      const y = ph[(order[n]! * H + k) * 2 + 1]!;
      if (Number.isFinite(x)) c += x;
      if (Number.isFinite(y)) rc += y;
    }
    out[o + k * 2] = c;
    out[o + k * 2 + 1] = rc;
  }
}

/**
 * The money figures of every asset at a job's stored scenario-year and loss options (sums, climate scores), once per
 * stored scenario-year and options, and the means of that scenario-year (scores, intensities, inventory losses of
 * each hazard), once per stored scenario-year: the dashboard's own loops (dashboard-money.ts) over every asset.
 */
function figuresOf(input: YearInput, prepared: PreparedAsset[], all: Int32Array, emit: (m: YearMessage, transfer: ArrayBuffer[]) => void) {
  const { chunks, chunkOf, localOf, hazards } = input;
  const N = all.length;
  const hk = Int32Array.from(hazards, (h) => HAZARD_KEYS.indexOf(h));
  const view = (withContent: boolean, gdpAdjusted: boolean, hazard: HazardKey | null): MoneyInput => ({
    idx: all,
    N,
    hk: hazard ? Int32Array.of(HAZARD_KEYS.indexOf(hazard)) : hk,
    H: hazard ? 1 : hazards.length,
    S: chunks[0]!.scenarioYears.length,
    f: { withContent, opt: { withContent, gdpAdjusted } },
    R: { prepared, chunks, chunkOf, localOf },
  });
  const done = new Set<string>();
  const meansDone = new Set<number>();
  return (j: YearJob) => {
    const key = figuresKeyOf(j.s, j.withContent, j.gdpAdjusted, j.hazard ?? '');
    if (j.s < 0 || done.has(key)) return;
    done.add(key);
    const sel = view(j.withContent, j.gdpAdjusted, j.hazard);
    const mm = moneyAt(sel, j.s);
    const sums = moneySumsOf(sel, mm);
    let scores: Int16Array | null = new Int16Array(2 * N);
    for (const residual of [false, true]) {
      const cs = climateScoresOf(sel, mm, residual, j.s);
      for (let n = 0; n < N && scores; n++) {
        const v = cs[n]!;
        if (v === null) scores[(residual ? N : 0) + n] = NO_SCORE;
        else if (Number.isInteger(v) && v > NO_SCORE && v <= 32767) scores[(residual ? N : 0) + n] = v;
        else scores = null;
      }
    }
    emit({ type: 'figures', key, figures: { sums, scores } }, [
      sums.loss.buffer,
      sums.lossResidual.buffer,
      ...(scores ? [scores.buffer] : []),
    ] as ArrayBuffer[]);
    if (j.hazard || meansDone.has(j.s)) return;
    meansDone.add(j.s);
    const means: [string, number | null][] = [];
    const inventory = [false, true].map((residual) => inventorySums(sel, j.s, residual));
    hk.forEach((h, k) => {
      for (const residual of [false, true]) {
        means.push([meanKeys.score(h, j.s, residual), scoreMean(sel, h, j.s, residual)]);
        means.push([meanKeys.inventory(h, j.s, residual), inventory[residual ? 1 : 0]![k]!]);
      }
      means.push([meanKeys.intensity(h, j.s), intensityMean(sel, h, j.s)]);
    });
    emit({ type: 'means', means }, []);
  };
}

/** Computes everything, sending each piece as it is done (`emit` with the buffers to transfer). */
export function computeYearBatches(input: YearInput, emit: (m: YearMessage, transfer: ArrayBuffer[]) => void): void {
  const t0 = performance.now();
  const { chunkOf, localOf, hazards, groups, jobs } = input;
  const chunks = input.chunks as ResultChunk[];
  const prepared = assetsOf(input.money);
  const N = chunkOf.length;
  const H = hazards.length;
  const all = Int32Array.from({ length: N }, (_, i) => i);
  const ph = new Float64Array(N * H * 2);
  const seriesOf = (j: SeriesJob) => {
    const order = j.group < 0 ? all : groups[j.group]!;
    const opt = { withContent: j.withContent, gdpAdjusted: j.gdpAdjusted };
    const s = portfolioCvarSeriesOf(prepared, chunks, chunkOf, localOf, order, j.hazards, j.at, j.sc, opt);
    const hs = j.perHazard ? portfolioHazardSeriesOf(prepared, chunks, chunkOf, localOf, order, j.hazards, j.at, j.sc, opt) : null;
    const transfer = [s.loss, s.lossResidual, ...(hs ? [...hs.loss, ...hs.lossResidual] : [])].map((a) => a.buffer as ArrayBuffer);
    emit(
      {
        type: 'series',
        job: j,
        years: s.years,
        loss: s.loss,
        lossResidual: s.lossResidual,
        hazardLoss: hs?.loss ?? null,
        hazardLossResidual: hs?.lossResidual ?? null,
      },
      transfer,
    );
  };
  const figures = figuresOf(input, prepared, all, emit);
  const yearOf = (j: YearJob) => {
    if (j.figuresOnly) return figures(j);
    const pa = new Float64Array(N * ASSET_BATCH_FIELDS);
    const opt = { withContent: j.withContent, gdpAdjusted: j.gdpAdjusted };
    const hs = j.hazard ? [j.hazard] : hazards;
    assetCvarBatch(prepared, chunks, chunkOf, localOf, all, hs, j.at, j.sc, j.year, opt, pa, ph);
    const Hj = hs.length;
    const bars = new Float64Array((groups.length + 1) * Hj * 2);
    barsInto(bars, 0, ph, all, Hj);
    groups.forEach((order, g) => barsInto(bars, (g + 1) * Hj * 2, ph, order, Hj));
    const key = yearKeyOf(j.at, j.sc, j.year, j.withContent, j.gdpAdjusted, j.hazard ?? '');
    emit({ type: 'year', key, pa, bars }, [pa.buffer, bars.buffer]);
    figures(j);
  };
  input.seriesFirst.forEach(seriesOf);
  jobs.slice(0, input.firstYears).forEach(yearOf);
  input.seriesLater.forEach(seriesOf);
  jobs.slice(input.firstYears).forEach(yearOf);
  emit({ type: 'done', ms: performance.now() - t0 }, []);
}
