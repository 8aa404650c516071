/**
 * What the dashboard precomputes per decoded analysis, in a worker thread (year-batches.worker.ts, started by
 * year-batches.ts), so that neither a year never asked nor the background work runs on the server's event loop:
 *  - the portfolio series (portfolioCvarSeriesOf, and each hazard's own, portfolioHazardSeriesOf) the main thread
 *    computed in the background before (the whole portfolio's for every analysis type, scenario, content and GDP
 *    choice; each hazard's alone), and each property type's at the default loss options;
 *  - at the default loss options (the project's hazards, with content, no GDP adjustment): the per-asset CVaRs of
 *    every scenario-year (the engine's assetCvarBatch, the same call the dashboard makes for a year never asked) and
 *    the whole portfolio's and each property type's sums of each hazard's own CVaR at that year (overall bar chart).
 * The same engine calls over the same values in the same order (assets in position order, the order the dashboard
 * sums them in), so a lookup answers what the engine pass would, to the last bit. Pure: imports the engine only.
 */
import { BASELINE_YEAR, SCENARIOS, YEARS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, assetCvarBatch, portfolioCvarSeriesOf, portfolioHazardSeriesOf, type PreparedAsset, type ResultChunk } from '@crp/engine';

/** Per asset, the money the CVaR maths reads: building, content and inventory values, revenue, ownership. */
export const MONEY_FIELDS = 5;

/** The arrays of a stored chunk the CVaR maths reads (shared with the main thread: the reader decodes into SharedArrayBuffers). */
export type ChunkArrays = Pick<
  ResultChunk,
  'start' | 'count' | 'hazards' | 'scenarioYears' | 'ead' | 'eadResidual' | 'disruption' | 'disruptionResidual' | 'maxDamage' | 'tail100' | 'tail250'
>;

export interface YearJob {
  at: AnalysisType;
  sc: ScenarioCode;
  year: number;
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
  | { type: 'year'; at: AnalysisType; sc: ScenarioCode; year: number; pa: Float64Array; bars: Float64Array }
  | { type: 'done'; ms: number }
  | { type: 'error'; message: string };

/** Key of a scenario-year's precomputed CVaRs (the dashboard's batch key without the loss options). */
export const yearKeyOf = (at: AnalysisType, sc: ScenarioCode, year: number) => `${at}|${sc}|${year}`;

/** Every scenario-year the dashboard can ask (SSP with 2020, RCP), those of the analysis type and scenario `first` first. */
export function yearJobsOf(first: { at: AnalysisType; sc: ScenarioCode }): YearJob[] {
  const jobs: YearJob[] = [];
  for (const at of ['ssp', 'rcp'] as const)
    for (const sc of SCENARIOS) for (const year of at === 'ssp' ? [BASELINE_YEAR, ...YEARS.ssp] : YEARS.rcp) jobs.push({ at, sc, year });
  const isFirst = (j: YearJob) => j.at === first.at && j.sc === first.sc;
  return [...jobs.filter(isFirst), ...jobs.filter((j) => !isFirst(j))];
}

/** The money fields of prepared assets (what the worker receives instead of the whole prepared assets). */
export function moneyOf(prepared: readonly PreparedAsset[]): Float64Array {
  const m = new Float64Array(prepared.length * MONEY_FIELDS);
  prepared.forEach((p, i) => m.set([p.buildingValue, p.contentValue, p.inventoryValue, p.revenue, p.ownership], i * MONEY_FIELDS));
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
  const yearOf = (j: YearJob) => {
    const pa = new Float64Array(N * ASSET_BATCH_FIELDS);
    assetCvarBatch(prepared, chunks, chunkOf, localOf, all, hazards, j.at, j.sc, j.year, { withContent: true, gdpAdjusted: false }, pa, ph);
    const bars = new Float64Array((groups.length + 1) * H * 2);
    barsInto(bars, 0, ph, all, H);
    groups.forEach((order, g) => barsInto(bars, (g + 1) * H * 2, ph, order, H));
    emit({ type: 'year', ...j, pa, bars }, [pa.buffer, bars.buffer]);
  };
  input.seriesFirst.forEach(seriesOf);
  jobs.slice(0, input.firstYears).forEach(yearOf);
  input.seriesLater.forEach(seriesOf);
  jobs.slice(input.firstYears).forEach(yearOf);
  emit({ type: 'done', ms: performance.now() - t0 }, []);
}
