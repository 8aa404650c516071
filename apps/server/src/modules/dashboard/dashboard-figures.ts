/**
 * Step 3 of a dashboard answer: the figures of a selection. Portfolio totals (CVaR, exposure, expected loss, tail
 * losses, premium, overall score), the portfolio series at any scenario and year, the means of scores and intensities,
 * and the per-hazard, per-country and per-continent sums the sections show.
 */
import { HAZARD_INDICATORS, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { isInsurableIndex, N_HAZARDS, portfolioCvarSeriesOf, portfolioHazardSeriesOf, technicalPremium } from '@crp/engine';
import { scoreMatrixOf, seriesKeyOf } from './dashboard-cache.js';
import { labelOf, r2 } from './dashboard-columns.js';
import { px, type Money, type Selected } from './dashboard-selection.js';

/** The portfolio totals of a selection at the query's year. */
export interface Totals {
  totalValue: number;
  cvarTot: number;
  rcvarTot: number;
  maxExposure: number;
  eal: number;
  loss100: number;
  loss250: number;
  premium: number;
  tailsKnown: boolean;
  overallRisk: number | null;
}

/** Percentage of the selection's exposed value. */
export const pctOf = (t: Pick<Totals, 'totalValue'>, v: number) => (t.totalValue > 0 ? (100 * v) / t.totalValue : 0);

/** The totals of the selection from its money at the query's year (atYear) and its climate scores. */
export function portfolioTotals(sel: Selected, atYear: Money, assetScores: readonly (number | null)[]): Totals {
  const { N, H, hk } = sel;
  const mitigation = sel.f.mitigation;
  let totalValue = 0;
  for (let n = 0; n < N; n++) {
    const v = atYear.exposedValue[n]!;
    totalValue += Number.isFinite(v) ? v : 0;
  }
  let cvarTot = 0,
    rcvarTot = 0,
    maxExposure = 0,
    eal = 0;
  for (let n = 0; n < N; n++) {
    const c = px(sel, n, 0),
      r = px(sel, n, 1),
      m = px(sel, n, 3),
      e = mitigation ? px(sel, n, 5) : px(sel, n, 4);
    if (Number.isFinite(c)) cvarTot += c;
    if (Number.isFinite(r)) rcvarTot += r;
    maxExposure += Number.isFinite(m) ? m : 0;
    if (Number.isFinite(e)) eal += e;
  }
  // tail losses (each asset's hazards summed, capped at value plus a year's revenue; assets summed) and the premium
  // (engine technicalPremium of the insurable hazards' expected loss)
  let loss100 = 0,
    loss250 = 0,
    premium = 0,
    tailsKnown = true;
  for (let n = 0; n < N; n++) {
    let insEal = 0;
    for (let k = 0; k < H; k++) {
      const c = n * H + k;
      if (Number.isFinite(atYear.eal[c]!) && isInsurableIndex(hk[k]!)) insEal += atYear.eal[c]!;
    }
    premium += technicalPremium(insEal);
    if (!Number.isFinite(px(sel, n, 4))) continue; // no hazard with data
    const t100 = px(sel, n, 6),
      t250 = px(sel, n, 7);
    if (!Number.isFinite(t100) || !Number.isFinite(t250)) tailsKnown = false;
    else {
      loss100 += t100;
      loss250 += t250;
    }
  }
  let scoreSum = 0,
    scoreCount = 0;
  for (const v of assetScores)
    if (v !== null) {
      scoreSum += v;
      scoreCount++;
    }
  const overallRisk = scoreCount ? Math.round((10 * scoreSum) / scoreCount) / 10 : null;
  return { totalValue, cvarTot, rcvarTot, maxExposure, eal, loss100, loss250, premium, tailsKnown, overallRisk };
}

/** The portfolio series of a selection (charts, key findings, loss bars). */
export interface PortfolioSeries {
  /** Portfolio CVaR and residual CVaR of the query's hazards at any scenario and year. */
  portfolioCvar(s: ScenarioCode, y: number): { cvar: number; rcvar: number };
  seriesOf(hs: readonly HazardKey[], s: ScenarioCode): ReturnType<typeof portfolioCvarSeriesOf>;
  /** Each hazard's own loss series for the query's scenario. */
  hazardSeries(): { loss: ArrayLike<number>[]; lossResidual: ArrayLike<number>[] };
}

/**
 * Portfolio CVaR at any scenario and year: one pass per scenario over the stored ratios (engine
 * portfolioCvarSeriesOf), over the selected assets in the order the pre-optimisation code summed them (grouped by
 * stored chunk in order of first appearance), so the sums are the same to the last bit. Kept per analysis when the
 * selection is a whole property-type group.
 */
export function portfolioSeries(sel: Selected, body: { count: number | 'All'; property_type: string }): PortfolioSeries {
  const { R, c, f, idx, N } = sel;
  const { prepared, chunks, chunkOf, localOf } = R;
  const seriesOrder = (() => {
    if (N === R.assets.length) return idx;
    const groups = new Map<number, number[]>();
    for (const i of idx) {
      const ch = chunkOf[i]!;
      let g = groups.get(ch);
      if (!g) groups.set(ch, (g = []));
      g.push(i);
    }
    return [...groups.values()].flat();
  })();
  const seriesKey = (hs: readonly HazardKey[], s: ScenarioCode) =>
    body.count === 'All' ? seriesKeyOf(f.at, s, hs, f.withContent, !!f.opt.gdpAdjusted, body.property_type) : null;
  const seriesOf = (hs: readonly HazardKey[], s: ScenarioCode) =>
    c.series.getOrMake(seriesKey(hs, s), () => portfolioCvarSeriesOf(prepared, chunks, chunkOf, localOf, seriesOrder, hs, f.at, s, f.opt));
  const byScenario = new Map<ScenarioCode, ReturnType<typeof portfolioCvarSeriesOf>>();
  return {
    seriesOf,
    portfolioCvar(s, y) {
      let ser = byScenario.get(s);
      if (!ser) byScenario.set(s, (ser = seriesOf(f.hazards, s)));
      return ser.at(y);
    },
    hazardSeries() {
      if (sel.H === 1) {
        const ser = seriesOf(f.hazards, f.sc);
        return { loss: [ser.loss], lossResidual: [ser.lossResidual] };
      }
      return c.hazardSeries.getOrMake(seriesKey(f.hazards, f.sc), () =>
        portfolioHazardSeriesOf(prepared, chunks, chunkOf, localOf, seriesOrder, f.hazards, f.at, f.sc, f.opt),
      );
    },
  };
}

/** Per-analysis memo of a selection mean when every asset is selected (the mean is then the same for every filter). */
function memoMean(sel: Selected, key: string, mean: () => number | null): number | null {
  if (!sel.everyAsset) return mean();
  let v = sel.c.means.get(key);
  if (v === undefined) sel.c.means.set(key, (v = mean()));
  return v;
}

/** Mean (rounded) of the non-null scores of the selected assets for the query's hazard k at stored scenario-year s. */
export function meanScore(sel: Selected, k: number, s: number, residual: boolean): number | null {
  return memoMean(sel, `score|${sel.hk[k]}|${s}|${residual}`, () => {
    const m = scoreMatrixOf(sel.c, s, residual);
    const h = sel.hk[k]!;
    let t = 0,
      c = 0;
    for (let n = 0; n < sel.N; n++) {
      const v = m[sel.idx[n]! * N_HAZARDS + h]!;
      if (v !== 255) {
        t += v;
        c++;
      }
    }
    return c ? Math.round(t / c) : null;
  });
}

/** Mean (rounded to 0.001) headline intensity of hazard k over the selected assets with data, at stored scenario-year s. */
export function meanIntensity(sel: Selected, k: number, s: number): number | null {
  return memoMean(sel, `intensity|${sel.hk[k]}|${s}`, () => {
    const { chunks, chunkOf, localOf } = sel.R;
    const h = sel.hk[k]!;
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
  });
}

/** Per hazard: [mean intensity, unit, mean score] at stored scenario-year s. */
export function hazardSummary(sel: Selected, s: number, residual: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let k = 0; k < sel.H; k++)
    out[labelOf(sel.f.hazards[k]!)] = [meanIntensity(sel, k, s), HAZARD_INDICATORS[sel.f.hazards[k]!].unit, meanScore(sel, k, s, residual)];
  return out;
}

/** Per hazard: the selection's expected loss (with or without adaptation) and its share of the exposed value. */
export function perHazardLoss(sel: Selected, t: Totals, mm: Money, residual: boolean) {
  const { N, H } = sel;
  return sel.f.hazards.map((h, k) => {
    let l = 0;
    const L = residual ? mm.ealR : mm.eal;
    for (let n = 0; n < N; n++) {
      const v = L[n * H + k]!;
      if (Number.isFinite(v)) l += v;
    }
    return { hazard: labelOf(h), loss: r2(l), percentage: r2(pctOf(t, l)) };
  });
}

/**
 * Per hazard: the expected loss of the selection's inventories at stored scenario-year s. One pass over the assets for
 * every hazard (each hazard's sum still adds the assets in selection order); kept per analysis when every asset is
 * selected, like the means.
 */
export function inventoryLoss(sel: Selected, s: number) {
  const { chunks, chunkOf, localOf, prepared } = sel.R;
  const { H, hk } = sel;
  const keyOf = (k: number) => `inventory|${hk[k]}|${s}|${sel.f.mitigation}`;
  let v = sel.everyAsset ? Float64Array.from(sel.f.hazards, (_, k) => sel.c.means.get(keyOf(k)) ?? NaN) : null;
  if (!v || v.some((x) => Number.isNaN(x))) {
    v = new Float64Array(H);
    for (let n = 0; n < sel.N; n++) {
      const i = sel.idx[n]!;
      const p = prepared[i]!;
      const ch = chunks[chunkOf[i]!]!;
      const src = sel.f.mitigation ? ch.eadResidual : ch.ead;
      const b = localOf[i]! * N_HAZARDS;
      for (let k = 0; k < H; k++) {
        const ratio = src[(b + hk[k]!) * sel.S + s]!;
        if (Number.isFinite(ratio)) v[k] = v[k]! + ratio * p.inventoryValue * p.ownership;
      }
    }
    if (sel.everyAsset) for (let k = 0; k < H; k++) sel.c.means.set(keyOf(k), v[k]!);
  }
  return sel.f.hazards.map((h, k) => ({ hazard: labelOf(h), loss: r2(v[k]!) }));
}

/** Per hazard: the selection's CVaR and residual CVaR of that hazard alone (overall bar chart). */
export function overallBars(sel: Selected, t: Totals) {
  const { N, H, ph, idx, bars } = sel;
  return sel.f.hazards.map((h, k) => {
    let c = 0,
      rc = 0;
    if (bars) {
      // precomputed for this selection (year-batches.ts): the same sums in the same order
      c = bars[k * 2]!;
      rc = bars[k * 2 + 1]!;
    } else
      for (let n = 0; n < N; n++) {
        const r = sel.phByPosition ? n : idx[n]!;
        const x = ph[(r * H + k) * 2]!;
        const y = ph[(r * H + k) * 2 + 1]!;
        if (Number.isFinite(x)) c += x;
        if (Number.isFinite(y)) rc += y;
      }
    return { hazard: labelOf(h), cvar: r2(c), rcvar: r2(rc), cvar_percentage: r2(pctOf(t, c)), rcvar_percentage: r2(pctOf(t, rc)) };
  });
}

/** Per continent, the positions of its selected assets. */
export function byContinent(sel: Selected): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (let n = 0; n < sel.N; n++) (out[sel.R.prepared[sel.idx[n]!]!.continent] ??= []).push(n);
  return out;
}

/** Per country, the CVaR, residual CVaR and number of the selected assets. */
export function byCountry(sel: Selected): Map<string, { cvar: number; rcvar: number; assets: number }> {
  const out = new Map<string, { cvar: number; rcvar: number; assets: number }>();
  for (let n = 0; n < sel.N; n++) {
    const c = sel.R.assets[sel.idx[n]!]!.country_code ?? 'Unknown';
    let v = out.get(c);
    if (!v) out.set(c, (v = { cvar: 0, rcvar: 0, assets: 0 }));
    const x = px(sel, n, 0),
      y = px(sel, n, 1);
    v.cvar += Number.isFinite(x) ? x : 0;
    v.rcvar += Number.isFinite(y) ? y : 0;
    v.assets += 1;
  }
  return out;
}
