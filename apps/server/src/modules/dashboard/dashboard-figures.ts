/**
 * Step 3 of a dashboard answer: the figures of a selection. Portfolio totals (CVaR, exposure, expected loss, tail
 * losses, premium, overall score), the portfolio series at any scenario and year, the means of scores and intensities,
 * and the per-hazard, per-country and per-continent sums the sections show.
 */
import { HAZARD_INDICATORS, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { jrcContinentOf, portfolioCvarSeriesOf, portfolioHazardSeriesOf } from '@crp/engine';
import { seriesKeyOf } from './dashboard-cache.js';
import { intensityMean, inventorySums, meanKeys, scoreMean, type MoneySums } from './dashboard-money.js';
import { labelOf, r2 } from './dashboard-columns.js';
import { px, type Selected } from './dashboard-selection.js';

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

/** The totals of the selection from its money sums at the query's year (atYear) and its climate scores. */
export function portfolioTotals(sel: Selected, atYear: MoneySums, assetScores: readonly (number | null)[]): Totals {
  const { N } = sel;
  const mitigation = sel.f.mitigation;
  const { totalValue, premium } = atYear;
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
  // tail losses (each asset's hazards summed, capped at value plus a year's revenue; assets summed); the premium is
  // in the money sums (moneySumsOf)
  let loss100 = 0,
    loss250 = 0,
    tailsKnown = true;
  for (let n = 0; n < N; n++) {
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
  return memoMean(sel, meanKeys.score(sel.hk[k]!, s, residual), () => scoreMean(sel, sel.hk[k]!, s, residual));
}

/** Mean (rounded to 0.001) headline intensity of hazard k over the selected assets with data, at stored scenario-year s. */
export function meanIntensity(sel: Selected, k: number, s: number): number | null {
  return memoMean(sel, meanKeys.intensity(sel.hk[k]!, s), () => intensityMean(sel, sel.hk[k]!, s));
}

/** Per hazard: [mean intensity, unit, mean score] at stored scenario-year s. */
export function hazardSummary(sel: Selected, s: number, residual: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let k = 0; k < sel.H; k++)
    out[labelOf(sel.f.hazards[k]!)] = [meanIntensity(sel, k, s), HAZARD_INDICATORS[sel.f.hazards[k]!].unit, meanScore(sel, k, s, residual)];
  return out;
}

/** Per hazard: the selection's expected loss (with or without adaptation) and its share of the exposed value. */
export function perHazardLoss(sel: Selected, t: Totals, mm: MoneySums, residual: boolean) {
  return sel.f.hazards.map((h, k) => {
    const l = (residual ? mm.lossResidual : mm.loss)[k]!;
    return { hazard: labelOf(h), loss: r2(l), percentage: r2(pctOf(t, l)) };
  });
}

/**
 * Per hazard: the expected loss of the selection's inventories at stored scenario-year s. One pass over the assets for
 * every hazard (each hazard's sum still adds the assets in selection order); kept per analysis when every asset is
 * selected, like the means (and precomputed then, year-batches.ts).
 */
export function inventoryLoss(sel: Selected, s: number) {
  const { H, hk } = sel;
  const keyOf = (k: number) => meanKeys.inventory(hk[k]!, s, sel.f.mitigation);
  const kept = sel.everyAsset ? Float64Array.from(sel.f.hazards, (_, k) => sel.c.means.get(keyOf(k)) ?? NaN) : null;
  let v: ArrayLike<number>;
  if (kept && !kept.some((x) => Number.isNaN(x))) v = kept;
  else {
    const sums = inventorySums(sel, s, sel.f.mitigation);
    if (sel.everyAsset) for (let k = 0; k < H; k++) sel.c.means.set(keyOf(k), sums[k]!);
    v = sums;
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

/** Per continent, the positions of its selected assets (kept per analysis when every asset is selected). */
export function byContinent(sel: Selected): Record<string, number[]> {
  if (sel.everyAsset && sel.c.continents) return sel.c.continents;
  const out: Record<string, number[]> = {};
  if (sel.everyAsset) sel.c.continents = out;
  // the engine's continent of each asset (PreparedAsset.continent), from the columns a large analysis keeps too
  for (let n = 0; n < sel.N; n++) {
    const a = sel.R.assets[sel.idx[n]!]!;
    (out[jrcContinentOf(a.latitude, a.longitude, a.country_code)] ??= []).push(n);
  }
  return out;
}

/** The countries of every asset in order of first appearance, and each asset's. */
function countriesOf(sel: Selected): { codes: string[]; of: Int32Array } {
  const at = new Map<string, number>();
  const of = new Int32Array(sel.R.assets.length);
  sel.R.assets.forEach((a, i) => {
    const code = a.country_code ?? 'Unknown';
    let j = at.get(code);
    if (j === undefined) at.set(code, (j = at.size));
    of[i] = j;
  });
  return { codes: [...at.keys()], of };
}

/** Per country, the CVaR, residual CVaR and number of the selected assets (each country's sums in selection order). */
export function byCountry(sel: Selected): Map<string, { cvar: number; rcvar: number; assets: number }> {
  const out = new Map<string, { cvar: number; rcvar: number; assets: number }>();
  if (sel.everyAsset) {
    // every asset: each asset's country (in order of first appearance) is kept per analysis
    const { codes, of } = (sel.c.countries ??= countriesOf(sel));
    const v = codes.map(() => ({ cvar: 0, rcvar: 0, assets: 0 }));
    for (let n = 0; n < sel.N; n++) {
      const c = v[of[n]!]!;
      const x = px(sel, n, 0),
        y = px(sel, n, 1);
      c.cvar += Number.isFinite(x) ? x : 0;
      c.rcvar += Number.isFinite(y) ? y : 0;
      c.assets += 1;
    }
    codes.forEach((code, j) => out.set(code, v[j]!));
    return out;
  }
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
