/**
 * The per-asset money, climate scores and means of a selection at one stored scenario-year: the loops the dashboard
 * runs on the event loop for a selection (dashboard-selection.ts, dashboard-figures.ts) and the worker thread runs
 * for every asset at every precomputed scenario-year (year-batches-compute.ts). One implementation for both, so a
 * precomputed figure is the event loop's to the last bit. Pure: imports the engine only.
 */
import {
  exposedValue as exposedValueOf,
  gdpGrowthFactor,
  hazardScore,
  isInsurableIndex,
  N_HAZARDS,
  reportedValue as reportedValueOf,
  SCENARIO_YEAR_INDEX,
  SCENARIO_YEARS,
  technicalPremium,
} from '@crp/engine';
import type { LossOptions, PreparedAsset, ResultChunk } from '@crp/engine';

/** What the money loops read of a selection (a Selected, or the worker's view of every asset). */
export interface MoneyInput {
  /** idx[n] = the asset index of the n-th selected asset. */
  idx: ArrayLike<number>;
  N: number;
  /** Stored index of each hazard of the query; H = their number; S = stored scenario-years. */
  hk: Int32Array;
  H: number;
  S: number;
  f: { withContent: boolean; opt: LossOptions };
  R: {
    prepared: readonly PreparedAsset[];
    chunks: readonly (Pick<ResultChunk, 'ead' | 'eadResidual' | 'disruption' | 'disruptionResidual' | 'score' | 'scoreResidual' | 'scenarioYears'> & {
      intensity: Float32Array;
    })[];
    chunkOf: Int32Array;
    localOf: Int32Array;
  };
}

/** Money of every selected asset x hazard at one scenario-year: [n * H + k] (engine cellMoney). */
export interface Money {
  eal: Float64Array;
  ealR: Float64Array;
  op: Float64Array;
  /** Per selected asset: the value damage applies to (building at construction cost [+ content + inventory]) x ownership. */
  exposedValue: Float64Array;
  /** Per selected asset: the value as the user gave it (valuation, else construction cost; engine reportedValue), the denominator of percentages. */
  reportedValue: Float64Array;
}

/** What the answer sums of a selection's money at one scenario-year (moneySumsOf). */
export interface MoneySums {
  /**
   * Total Asset Value of the selection (finite values): the value the user gave (valuation, else construction cost,
   * engine reportedValue), the denominator of every percentage; the losses are of the damaged building (exposedValue).
   */
  totalValue: number;
  /** Sum over the assets of the technical premium of their insurable hazards' expected loss. */
  premium: number;
  /** Per hazard k: the expected loss without and with adaptation (finite values). */
  loss: Float64Array;
  lossResidual: Float64Array;
}

/** Money of every selected asset x hazard at stored scenario-year s (expected losses with and without adaptation, operational losses, exposed values). */
export function moneyAt(sel: MoneyInput, s: number): Money {
  const { N, H, S, hk, idx, f } = sel;
  const { chunks, chunkOf, localOf, prepared } = sel.R;
  const eal = new Float64Array(N * H),
    ealR = new Float64Array(N * H),
    op = new Float64Array(N * H);
  const exposedValue = new Float64Array(N);
  const reportedValue = new Float64Array(N);
  const sy = SCENARIO_YEARS[SCENARIO_YEAR_INDEX.get(chunks[0]!.scenarioYears[s] as string) ?? -1];
  const g = f.opt.gdpAdjusted && sy ? gdpGrowthFactor(sy.scenario, sy.year) : 1;
  for (let n = 0; n < N; n++) {
    const i = idx[n]!;
    const A = prepared[i]!;
    const ch = chunks[chunkOf[i]!]!;
    const val = exposedValueOf(A, f.withContent);
    const rev = A.revenue * A.ownership * g;
    exposedValue[n] = H > 0 ? val : 0;
    reportedValue[n] = H > 0 ? reportedValueOf(A, f.withContent) : 0;
    const b = localOf[i]! * N_HAZARDS;
    for (let k = 0; k < H; k++) {
      const c = (b + hk[k]!) * S + s;
      const bi = ch.disruption[c]!;
      eal[n * H + k] = ch.ead[c]! * val + bi * rev;
      ealR[n * H + k] = ch.eadResidual[c]! * val + ch.disruptionResidual[c]! * rev;
      op[n * H + k] = bi * rev;
    }
  }
  return { eal, ealR, op, exposedValue, reportedValue };
}

/** The sums of money the answer shows (Total Asset Value, premium, each hazard's expected loss), each in selection order. */
export function moneySumsOf(sel: Pick<MoneyInput, 'N' | 'H' | 'hk'>, mm: Money): MoneySums {
  const { N, H, hk } = sel;
  let totalValue = 0;
  for (let n = 0; n < N; n++) {
    const v = mm.reportedValue[n]!;
    totalValue += Number.isFinite(v) ? v : 0;
  }
  // the premium: engine technicalPremium of each asset's insurable hazards' expected loss
  let premium = 0;
  for (let n = 0; n < N; n++) {
    let insEal = 0;
    for (let k = 0; k < H; k++) {
      const c = n * H + k;
      if (Number.isFinite(mm.eal[c]!) && isInsurableIndex(hk[k]!)) insEal += mm.eal[c]!;
    }
    premium += technicalPremium(insEal);
  }
  const loss = new Float64Array(H),
    lossResidual = new Float64Array(H);
  for (const [out, L] of [
    [loss, mm.eal],
    [lossResidual, mm.ealR],
  ] as const)
    for (let k = 0; k < H; k++) {
      let l = 0;
      for (let n = 0; n < N; n++) {
        const v = L[n * H + k]!;
        if (Number.isFinite(v)) l += v;
      }
      out[k] = l;
    }
  return { totalValue, premium, loss, lossResidual };
}

/**
 * Climate score of each selected asset over the chosen hazards at stored scenario-year s: the engine's score of the
 * summed loss ratios (null = no data). An asset without value or revenue has no money to divide: its score is that of
 * its summed damage and disruption ratios (a unit building and a unit revenue), so entering a valuation does not move a score from 0 to the hazards'
 * (the project card once showed 57 where the dashboard showed 0 for the same valueless sites; issue 37 item 2).
 */
export function climateScoresOf(sel: Pick<MoneyInput, 'N' | 'H' | 'hk' | 'S' | 'idx' | 'R'>, mm: Money, residual: boolean, s: number): (number | null)[] {
  const { N, H, hk, S } = sel;
  const { chunks, chunkOf, localOf } = sel.R;
  const out: (number | null)[] = new Array(N);
  const L = residual ? mm.ealR : mm.eal;
  for (let n = 0; n < N; n++) {
    let loss = 0,
      bi = 0,
      seen = false;
    for (let k = 0; k < H; k++) {
      const l = L[n * H + k]!;
      if (!Number.isFinite(l)) continue;
      seen = true;
      loss += l;
      bi += mm.op[n * H + k]!;
    }
    if (!seen) {
      out[n] = null;
      continue;
    }
    const i = sel.idx[n]!;
    const p = sel.R.prepared[i]!;
    const value = mm.exposedValue[n]!;
    const revenue = p.revenue * p.ownership;
    let sc0: number;
    if (value > 0 || revenue > 0) sc0 = hazardScore(value > 0 ? loss / value : loss / revenue, revenue > 0 ? bi / revenue : 0);
    else {
      const ch = chunks[chunkOf[i]!]!;
      const ead = residual ? ch.eadResidual : ch.ead;
      const dis = residual ? ch.disruptionResidual : ch.disruption;
      const b = localOf[i]! * N_HAZARDS;
      let ratio = 0,
        down = 0;
      for (let k = 0; k < H; k++) {
        const c = (b + hk[k]!) * S + s;
        if (Number.isFinite(ead[c]!)) ratio += ead[c]!;
        if (Number.isFinite(dis[c]!)) down += dis[c]!;
      }
      sc0 = hazardScore(ratio, down);
    }
    out[n] = Number.isFinite(sc0) ? Math.round(sc0) : null;
  }
  return out;
}

/** Mean (rounded) of the non-null scores of the selected assets for stored hazard h at stored scenario-year s. */
export function scoreMean(sel: Pick<MoneyInput, 'N' | 'S' | 'idx' | 'R'>, h: number, s: number, residual: boolean): number | null {
  const { chunks, chunkOf, localOf } = sel.R;
  let t = 0,
    c = 0;
  for (let n = 0; n < sel.N; n++) {
    const i = sel.idx[n]!;
    const ch = chunks[chunkOf[i]!]!;
    const v = (residual ? ch.scoreResidual : ch.score)[(localOf[i]! * N_HAZARDS + h) * sel.S + s]!;
    if (v !== 255) {
      t += v;
      c++;
    }
  }
  return c ? Math.round(t / c) : null;
}

/** Mean (rounded to 0.001) headline intensity of stored hazard h over the selected assets with data, at stored scenario-year s. */
export function intensityMean(sel: Pick<MoneyInput, 'N' | 'S' | 'idx' | 'R'>, h: number, s: number): number | null {
  const { chunks, chunkOf, localOf } = sel.R;
  let t = 0,
    c = 0;
  for (let n = 0; n < sel.N; n++) {
    const i = sel.idx[n]!;
    const v = chunks[chunkOf[i]!]!.intensity[(localOf[i]! * N_HAZARDS + h) * sel.S + s]!;
    if (Number.isFinite(v)) {
      t += v;
      c++;
    }
  }
  return c ? Math.round((1000 * t) / c) / 1000 : null;
}

/** Per hazard k: the expected loss of the selection's inventories at stored scenario-year s (one pass over the assets, each hazard's sum in selection order). */
export function inventorySums(sel: Pick<MoneyInput, 'N' | 'H' | 'S' | 'hk' | 'idx' | 'R'>, s: number, residual: boolean): Float64Array {
  const { chunks, chunkOf, localOf, prepared } = sel.R;
  const { H, hk } = sel;
  const v = new Float64Array(H);
  for (let n = 0; n < sel.N; n++) {
    const i = sel.idx[n]!;
    const p = prepared[i]!;
    const ch = chunks[chunkOf[i]!]!;
    const src = residual ? ch.eadResidual : ch.ead;
    const b = localOf[i]! * N_HAZARDS;
    for (let k = 0; k < H; k++) {
      const ratio = src[(b + hk[k]!) * sel.S + s]!;
      if (Number.isFinite(ratio)) v[k] = v[k]! + ratio * p.inventoryValue * p.ownership;
    }
  }
  return v;
}

/** Keys of the per-analysis means (CachedResults.means) by stored hazard and scenario-year. */
export const meanKeys = {
  score: (h: number, s: number, residual: boolean) => `score|${h}|${s}|${residual}`,
  intensity: (h: number, s: number) => `intensity|${h}|${s}`,
  inventory: (h: number, s: number, residual: boolean) => `inventory|${h}|${s}|${residual}`,
};
