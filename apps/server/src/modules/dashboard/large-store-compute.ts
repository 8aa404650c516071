/**
 * The dashboard store of a large analysis, one batch of assets at a time (runs in a worker thread: large-store.worker.ts;
 * large-store.ts drives it): the stored chunks of the batch are decoded here and summarised into what the dashboard
 * reads, then dropped, so an analysis of any size is summarised in the memory of one batch (issue 22: a 1,000,000-asset
 * analysis decodes to about 24 GB; its store is read one scenario-year at a time).
 *
 * The figures are the dashboard's own computation (computeYearBatches of year-batches-compute.ts, the worker the
 * dashboard runs after decoding a smaller analysis) over the batch's assets, at every scenario-year of the store's jobs
 * at the default loss options: each asset's CVaRs and climate scores (kept per asset, a slice per job), the sums of
 * each hazard's CVaR per property-type group, the money sums and the portfolio series (added over the batches by
 * large-store.ts), plus each hazard's score, intensity and inventory sums at every stored scenario-year (means). Pure:
 * imports the engine, the codec and year-batches-compute.ts only.
 */
import { HAZARD_KEYS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, N_HAZARDS, SCENARIO_YEARS } from '@crp/engine';
import { decodeChunk } from '../analysis/result-codec.js';
import {
  computeYearBatches,
  figuresKeyOf,
  MONEY_FIELDS,
  NO_SCORE,
  yearKeyOf,
  type ChunkArrays,
  type SeriesJob,
  type YearJob,
  type YearMessage,
} from './year-batches-compute.js';

/** A store job: one (analysis type, scenario, year) at the default loss options; s = its stored scenario-year index. */
export interface StoreJob {
  at: AnalysisType;
  sc: ScenarioCode;
  year: number;
  s: number;
}

/** What one batch of assets is summarised from. */
export interface StoreBatchInput {
  /** Position of the batch's first asset, and its number of assets. */
  start: number;
  count: number;
  /** The stored chunks holding exactly these assets, in position order (result-codec.ts blobs). */
  blobs: Uint8Array[];
  /** MONEY_FIELDS per asset of the batch (year-batches-compute moneyOf). */
  money: Float64Array;
  /** Per property-type group of the store: the batch's assets in it (local positions, ascending). */
  groups: Int32Array[];
  hazards: HazardKey[];
  jobs: StoreJob[];
}

/** A portfolio series of a batch: sums over its assets (of one group, or all: group -1) per series year. */
export interface SeriesShare {
  at: AnalysisType;
  sc: ScenarioCode;
  group: number;
  years: number[];
  loss: Float64Array;
  lossResidual: Float64Array;
  hazardLoss: Float64Array[] | null;
  hazardLossResidual: Float64Array[] | null;
}

/** Fields per stored scenario-year and hazard in StoreBatchOutput.means. */
export const MEAN_FIELDS = 8; // score sum, count, residual score sum, count, intensity sum, count, inventory loss, residual inventory loss

export interface StoreBatchOutput {
  start: number;
  count: number;
  /** Per job: the batch's slice (encodeSlice). */
  slices: Uint8Array[];
  /** Per job: sums of each hazard's CVaR and residual CVaR over every asset (row 0) and each group (row g + 1), H * 2 a row. */
  bars: Float64Array[];
  /** Per job: exposed value, premium, each hazard's expected loss and residual expected loss (2 + 2H) over every asset. */
  sums: Float64Array[];
  series: SeriesShare[];
  /** Per stored scenario-year s and project hazard k: MEAN_FIELDS sums at [(s * H + k) * MEAN_FIELDS]. */
  means: Float64Array;
  /** Worker CPU time (ms). */
  ms: number;
}

/**
 * A slice: per asset of a batch, at one job, the ASSET_BATCH_FIELDS CVaRs (Float32), the climate score without and with
 * adaptation (Int16, NO_SCORE = none) and every stored hazard's severity score without and with adaptation (Uint8,
 * 255 = no data), as they are (migration 0022: not deflated).
 */
export function encodeSlice(pa: Float64Array, scores: Int16Array, m: Uint8Array, mR: Uint8Array): Uint8Array {
  const L = sliceLayout(scores.length / 2);
  const buf = new Uint8Array(L.bytes);
  new Float32Array(buf.buffer, L.pa, pa.length).set(pa);
  new Int16Array(buf.buffer, L.scores, scores.length).set(scores);
  buf.set(m, L.m);
  buf.set(mR, L.mR);
  return buf;
}

/** Byte offsets of the parts of a slice of n assets as encodeSlice writes them, and its size (the one place of the layout). */
export function sliceLayout(n: number): { pa: number; scores: number; m: number; mR: number; bytes: number } {
  const scores = n * ASSET_BATCH_FIELDS * 4;
  const m = scores + 4 * n;
  const mR = m + n * N_HAZARDS;
  return { pa: 0, scores, m, mR, bytes: mR + n * N_HAZARDS };
}

/** Bytes of a slice of n assets as encodeSlice writes it (a stored slice of another size is deflated: made before migration 0022). */
export const sliceBytes = (n: number) => sliceLayout(n).bytes;

/** The parts of an inflated slice of n assets (views into `raw`, which must be 4-byte aligned). */
export function sliceParts(raw: Uint8Array, n: number): { pa: Float32Array; scores: Int16Array; m: Uint8Array; mR: Uint8Array } {
  const L = sliceLayout(n);
  if (raw.byteLength !== L.bytes) throw new Error(`dashboard slice of ${n} assets has ${raw.byteLength} bytes, expected ${L.bytes}`);
  const o = raw.byteOffset;
  return {
    pa: new Float32Array(raw.buffer, o + L.pa, n * ASSET_BATCH_FIELDS),
    scores: new Int16Array(raw.buffer, o + L.scores, 2 * n),
    m: raw.subarray(L.m, L.mR),
    mR: raw.subarray(L.mR),
  };
}

const arraysOf = (c: ReturnType<typeof decodeChunk>): ChunkArrays => c;

/** Summarises one batch (see the module's comment). */
export function computeStoreBatch(input: StoreBatchInput): StoreBatchOutput {
  const t0 = performance.now();
  const { count, hazards, jobs, groups } = input;
  const chunks = input.blobs.map((b) => arraysOf(decodeChunk(b)));
  const chunkOf = new Int32Array(count);
  const localOf = new Int32Array(count);
  let i = 0;
  chunks.forEach((c, ci) => {
    for (let a = 0; a < c.count; a++, i++) {
      chunkOf[i] = ci;
      localOf[i] = a;
    }
  });
  if (i !== count) throw new Error(`dashboard store: the chunks hold ${i} assets, the batch ${count}`);
  const H = hazards.length;
  const S = chunks[0]!.scenarioYears.length;
  const hk = Int32Array.from(hazards, (h) => HAZARD_KEYS.indexOf(h));

  const yearJobs: YearJob[] = jobs.map((j) => ({ at: j.at, sc: j.sc, year: j.year, withContent: true, gdpAdjusted: false, s: j.s, hazard: null }));
  const scenarios = [...new Map(jobs.map((j) => [`${j.at}|${j.sc}`, j])).values()];
  const seriesJobs: SeriesJob[] = [];
  for (const j of scenarios)
    for (let g = -1; g < groups.length; g++)
      seriesJobs.push({ at: j.at, sc: j.sc, hazards, withContent: true, gdpAdjusted: false, group: g, perHazard: H > 1 });

  const pa = new Map<string, Float64Array>();
  const bars = new Map<string, Float64Array>();
  const figures = new Map<string, Extract<YearMessage, { type: 'figures' }>['figures']>();
  const series: SeriesShare[] = [];
  computeYearBatches(
    { chunks, chunkOf, localOf, money: input.money, hazards, groups, jobs: yearJobs, firstYears: yearJobs.length, seriesFirst: seriesJobs, seriesLater: [] },
    (m) => {
      if (m.type === 'year') {
        pa.set(m.key, m.pa);
        bars.set(m.key, m.bars);
      } else if (m.type === 'figures') figures.set(m.key, m.figures);
      else if (m.type === 'series')
        series.push({
          at: m.job.at,
          sc: m.job.sc,
          group: m.job.group,
          years: m.years,
          loss: m.loss,
          lossResidual: m.lossResidual,
          hazardLoss: m.hazardLoss,
          hazardLossResidual: m.hazardLossResidual,
        });
      else if (m.type === 'error') throw new Error(m.message);
    },
  );

  const out: StoreBatchOutput = {
    start: input.start,
    count,
    slices: [],
    bars: [],
    sums: [],
    series,
    means: meansOf(input, chunks, chunkOf, localOf, hk, S),
    ms: 0,
  };
  for (const j of yearJobs) {
    const key = yearKeyOf(j.at, j.sc, j.year);
    const f = figures.get(figuresKeyOf(j.s, true, false));
    const p = pa.get(key);
    const b = bars.get(key);
    if (!f || !p || !b) throw new Error(`dashboard store: job ${key} not computed`);
    if (!f.scores) throw new Error(`dashboard store: a climate score of job ${key} does not fit the store (Int16)`);
    const { m, mR } = hazardScoresAt(chunks, chunkOf, localOf, j.s);
    out.slices.push(encodeSlice(p, f.scores, m, mR));
    out.bars.push(b);
    const sums = new Float64Array(2 + 2 * H);
    sums[0] = f.sums.totalValue;
    sums[1] = f.sums.premium;
    sums.set(f.sums.loss, 2);
    sums.set(f.sums.lossResidual, 2 + H);
    out.sums.push(sums);
  }
  out.ms = performance.now() - t0;
  return out;
}

/** Every stored hazard's severity score of each asset at stored scenario-year s, without and with adaptation ([n * N_HAZARDS + h]). */
function hazardScoresAt(chunks: ChunkArrays[], chunkOf: Int32Array, localOf: Int32Array, s: number): { m: Uint8Array; mR: Uint8Array } {
  const count = chunkOf.length;
  const S = chunks[0]!.scenarioYears.length;
  const m = new Uint8Array(count * N_HAZARDS);
  const mR = new Uint8Array(count * N_HAZARDS);
  for (let n = 0; n < count; n++) {
    const ch = chunks[chunkOf[n]!]!;
    const base = localOf[n]! * N_HAZARDS;
    for (let h = 0; h < N_HAZARDS; h++) {
      m[n * N_HAZARDS + h] = ch.score[(base + h) * S + s]!;
      mR[n * N_HAZARDS + h] = ch.scoreResidual[(base + h) * S + s]!;
    }
  }
  return { m, mR };
}

/**
 * Each project hazard's sums at every stored scenario-year over the batch: severity scores with data and their count
 * (without and with adaptation), headline intensities with data and their count, the inventories' expected loss
 * (without and with adaptation): what dashboard-money.ts scoreMean, intensityMean and inventorySums add up.
 */
function meansOf(input: StoreBatchInput, chunks: ChunkArrays[], chunkOf: Int32Array, localOf: Int32Array, hk: Int32Array, S: number): Float64Array {
  const H = hk.length;
  const out = new Float64Array(SCENARIO_YEARS.length * H * MEAN_FIELDS);
  for (let n = 0; n < input.count; n++) {
    const ch = chunks[chunkOf[n]!]!;
    const invValue = input.money[n * MONEY_FIELDS + 2]!;
    const own = input.money[n * MONEY_FIELDS + 4]!;
    const b = localOf[n]! * N_HAZARDS;
    for (let k = 0; k < H; k++) {
      const cell0 = (b + hk[k]!) * S;
      for (let s = 0; s < S; s++) {
        const c = cell0 + s;
        const o = (s * H + k) * MEAN_FIELDS;
        const sc = ch.score[c]!;
        if (sc !== 255) {
          out[o] = out[o]! + sc;
          out[o + 1] = out[o + 1]! + 1;
        }
        const scR = ch.scoreResidual[c]!;
        if (scR !== 255) {
          out[o + 2] = out[o + 2]! + scR;
          out[o + 3] = out[o + 3]! + 1;
        }
        const v = ch.intensity[c]!;
        if (Number.isFinite(v)) {
          out[o + 4] = out[o + 4]! + v;
          out[o + 5] = out[o + 5]! + 1;
        }
        const e = ch.ead[c]!;
        if (Number.isFinite(e)) out[o + 6] = out[o + 6]! + e * invValue * own;
        const eR = ch.eadResidual[c]!;
        if (Number.isFinite(eR)) out[o + 7] = out[o + 7]! + eR * invValue * own;
      }
    }
  }
  return out;
}

export { NO_SCORE };
