/**
 * Money, CVaR, residual CVaR, avoided loss, maximum exposure, insurance premium and key findings from the compact
 * ratios (docs/methodology/engine.md §3). Pure; cheap enough to run at read time for any filter combination.
 *
 * One implementation of each piece of maths, whatever the entry point (one asset, a batch of assets, a portfolio, a
 * selection in any order):
 *  - seriesPlan: the scenario's series years with their CVaR-window and year weights (cvarWeights, yearWeights);
 *  - assetHazard: one asset x hazard over the series (CVaR, EAL, maximum exposure, tail-event losses);
 *  - combineRatios: one asset's hazards combined as independent at every series year, behind assetCombined (asset
 *    CVaR of several hazards) and addCombinedSeries (every portfolio loss series);
 *  - assetCvarInto: one asset's CVaR over a set of hazards, behind assetCvar and assetCvarBatch.
 * cellMoney is the money of one stored cell; interpolateSeries and cvarFromSeries state the CVaR definition year by
 * year (the weights above are its linear form; see cvarFromSeries).
 */
import { BASELINE_YEAR, HAZARD_KEYS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import type { PreparedAsset } from './assets.js';
import { HAZARD_INDEX, N_HAZARDS, CURVE_HAZARDS, type ResultChunk } from './compute.js';
import { gdpGrowthFactor, seriesIndices, SCENARIO_YEARS, SCENARIO_YEAR_INDEX } from './scenarios.js';
import { downtimeYears } from './vulnerability/other.js';
import { acuteScore as acuteScoreOf, chronicScore as chronicScoreOf } from './scores.js';

export interface LossOptions {
  /** Include content and inventory (spec "Add Content / Remove Content"). Default true. */
  withContent?: boolean;
  /** Scale the business-interruption (operational) loss by GDP growth under the scenario's SSP. Default false. */
  gdpAdjusted?: boolean;
}

export interface MoneyCell {
  /** Expected annual loss, USD, ownership-adjusted: building + content + inventory + business interruption. */
  eal: number;
  /** The same after adaptation. */
  ealResidual: number;
  /** Of which business interruption (operational) loss. */
  ealOperational: number;
  /** Loss of the rarest modelled event (Maximum Exposure), USD. */
  maxExposure: number;
  /** Annual loss standard deviation, USD (physical part). */
  sd: number;
  /** Exposed value used for percentages (building [+ content + inventory]) x ownership, USD. */
  exposedValue: number;
  /** Loss of the 1-in-100 and 1-in-250-year events, USD (tailEventLoss); NaN for results stored without tails. */
  loss100: number;
  loss250: number;
  /** Lost energy production (GWh/yr) and crop production (kg/yr), expected. */
  energyLossGwh: number;
  cropLossKg: number;
}

/** The value an asset exposes to physical damage: building (+ content and inventory) times the ownership share. */
export function exposedValue(A: PreparedAsset, withContent: boolean): number {
  return (A.buildingValue + (withContent ? A.contentValue + A.inventoryValue : 0)) * A.ownership;
}

/**
 * The value percentages are of (and the Total Asset Value): the building as the user valued it (valuation, else
 * construction cost; PreparedAsset.reportedValue) (+ content and inventory) times the ownership share. The damage is
 * still of the building's construction cost (exposedValue); only the denominator differs (issue 37 item 2).
 */
export function reportedValue(A: PreparedAsset, withContent: boolean): number {
  return (A.reportedValue + (withContent ? A.contentValue + A.inventoryValue : 0)) * A.ownership;
}

/** Dollar figures of one cell (asset a of the chunk, hazard, scenario-year index). NaN when the hazard has no data. */
export function cellMoney(asset: PreparedAsset, chunk: ResultChunk, a: number, hazard: HazardKey, syIndex: number, opt: LossOptions = {}): MoneyCell {
  const S = chunk.scenarioYears.length;
  const h = HAZARD_INDEX[hazard];
  const c = (a * N_HAZARDS + h) * S + syIndex;
  const withContent = opt.withContent ?? true;
  const sy = SCENARIO_YEARS[SCENARIO_YEAR_INDEX.get(chunk.scenarioYears[syIndex] as string) ?? -1];
  const g = opt.gdpAdjusted && sy ? gdpGrowthFactor(sy.scenario, sy.year) : 1;
  const val = exposedValue(asset, withContent);
  const rev = asset.revenue * asset.ownership * g;
  const ead = chunk.ead[c] as number;
  const eadR = chunk.eadResidual[c] as number;
  const bi = chunk.disruption[c] as number;
  const biR = chunk.disruptionResidual[c] as number;
  const pml = chunk.maxDamage[c] as number;
  const acute = (CURVE_HAZARDS as readonly string[]).includes(hazard) || hazard === 'wildfire' || hazard === 'landslide';
  const pmlBi = acute ? downtimeYears(pml) : bi;
  const prodShare = Math.min(1, bi + (asset.property.production === 'crops' ? ead : 0));
  return {
    eal: ead * val + bi * rev,
    ealResidual: eadR * val + biR * rev,
    ealOperational: bi * rev,
    maxExposure: pml * val + pmlBi * rev,
    sd: (chunk.sd[c] as number) * val,
    exposedValue: val,
    loss100: tailEventLoss(acute, chunk.tail100[c] as number, bi, val, rev),
    loss250: tailEventLoss(acute, chunk.tail250[c] as number, bi, val, rev),
    energyLossGwh: prodShare * asset.energyGwh,
    cropLossKg: prodShare * asset.cropsKg,
  };
}

/** The CVaR key-finding window (spec 001 §9): year-9 .. year+10, and for 2100 year-19 .. year (20 years either way). */
export function cvarWindow(year: number): { from: number; to: number } {
  return year >= 2100 ? { from: year - 19, to: year } : { from: year - 9, to: year + 10 };
}

/**
 * Annual series value at any year from points (years ascending): linear between points, flat outside. NaN points are
 * skipped; all NaN -> NaN.
 */
export function interpolateSeries(years: readonly number[], values: readonly number[], year: number): number {
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < years.length; i++) {
    if (Number.isNaN(values[i] as number)) continue;
    if ((years[i] as number) <= year) lo = i;
    if ((years[i] as number) >= year && hi < 0) hi = i;
  }
  if (lo < 0 && hi < 0) return Number.NaN;
  if (lo < 0) return values[hi] as number;
  if (hi < 0 || lo === hi) return values[lo] as number;
  const y0 = years[lo] as number;
  const y1 = years[hi] as number;
  return (values[lo] as number) + (((values[hi] as number) - (values[lo] as number)) * (year - y0)) / (y1 - y0);
}

/**
 * (1 + r)^n for a whole number of years n, by repeated multiplication: every step is one correctly rounded IEEE
 * multiplication, so the factor is the same bits on every JavaScript engine (Math.pow is not specified to the last bit
 * and V8 12 on Node 24 answers differently from V8 11 on Node 20).
 */
export function discountFactor(rate: number, years: number): number {
  let f = 1;
  for (let k = 0; k < years; k++) f *= 1 + rate;
  return f;
}

/**
 * CVaR: the expected loss accumulated over the 20-year window around `year` (undiscounted by default; discountRate
 * discounts to the window start), capped at the exposed value (an asset cannot lose more than itself).
 * The definition, year by year. The stored results and the dashboard compute it as Σ_k w_k·loss_k with cvarWeights
 * (seriesPlan); the two differ in the last bits (summation order) and where a series point is NaN: here the point is
 * skipped and the neighbours interpolated, there the asset-hazard has no data (assetHazard). Not used by the
 * application; kept as the stated definition the unit tests check.
 */
export function cvarFromSeries(years: readonly number[], annualLoss: readonly number[], year: number, cap = Infinity, discountRate = 0): number {
  const { from, to } = cvarWindow(year);
  let s = 0;
  for (let t = from; t <= to; t++) {
    const v = interpolateSeries(years, annualLoss, Math.max(t, BASELINE_YEAR));
    if (Number.isNaN(v)) return Number.NaN;
    s += discountRate ? v / discountFactor(discountRate, t - from) : v;
  }
  return Math.min(s, cap);
}

export interface CvarResult {
  /** Climate Value at Risk, USD and percent of exposed value. */
  cvar: number;
  cvarPercent: number;
  /** Residual CVaR after adaptation. */
  rcvar: number;
  rcvarPercent: number;
  /** Avoided loss = CVaR - RCVaR (>= 0). */
  avoidedLoss: number;
  /** Maximum exposure at the year itself, USD. */
  maxExposure: number;
  /** Expected annual loss at the year, USD (without / with adaptation). */
  eal: number;
  ealResidual: number;
  /**
   * Loss of the 1-in-100 and 1-in-250-year events at the year, USD: the hazards' tail-event losses added (an upper
   * bound), capped at the exposed value plus a year's revenue; NaN for results stored without tail damage.
   */
  loss100: number;
  loss250: number;
}

/** Revenue growth factor of the plan at its year (1 unless GDP-adjusted). */
function gdpAtYear(plan: SeriesPlan): number {
  let g = 0;
  for (let k = 0; k < plan.indices.length; k++) g += (plan.yearW[k] as number) * (plan.gdp[k] as number);
  return g;
}

/**
 * Weights w_k with CVaR(year) = sum_k w_k EAL(years_k) for the interpolation rule of interpolateSeries (linear
 * between points, flat outside, years before 2020 at 2020) over the CVaR window; optional discounting.
 */
export function cvarWeights(years: readonly number[], year: number, discountRate = 0): Float64Array {
  const { from, to } = cvarWindow(year);
  const w = new Float64Array(years.length);
  for (let t = from; t <= to; t++) addPointWeights(w, years, Math.max(t, BASELINE_YEAR), discountRate ? 1 / discountFactor(discountRate, t - from) : 1);
  return w;
}

/** Weights of a single year's interpolated value. */
export function yearWeights(years: readonly number[], year: number): Float64Array {
  const w = new Float64Array(years.length);
  addPointWeights(w, years, year, 1);
  return w;
}

function addPointWeights(w: Float64Array, years: readonly number[], t: number, f: number): void {
  const n = years.length;
  if (t <= (years[0] as number)) {
    w[0] = (w[0] as number) + f;
    return;
  }
  if (t >= (years[n - 1] as number)) {
    w[n - 1] = (w[n - 1] as number) + f;
    return;
  }
  let k = 0;
  while ((years[k + 1] as number) <= t) k++;
  const y0 = years[k] as number;
  const y1 = years[k + 1] as number;
  const u = (t - y0) / (y1 - y0);
  w[k] = (w[k] as number) + f * (1 - u);
  w[k + 1] = (w[k + 1] as number) + f * u;
}

interface SeriesPlan {
  years: number[];
  indices: number[];
  cvarW: Float64Array;
  yearW: Float64Array;
  gdp: Float64Array;
  capGdp: number;
}
const planCache = new Map<string, SeriesPlan>();
function seriesPlan(analysisType: AnalysisType, scenario: ScenarioCode, year: number, gdpAdjusted: boolean): SeriesPlan {
  const key = `${analysisType}/${scenario}/${year}/${gdpAdjusted ? 1 : 0}`;
  let p = planCache.get(key);
  if (!p) {
    const { years, indices } = seriesIndices(analysisType, scenario);
    p = {
      years,
      indices,
      cvarW: cvarWeights(years, year),
      yearW: yearWeights(years, Math.min(year, years[years.length - 1] as number)),
      gdp: Float64Array.from(indices, (i) =>
        gdpAdjusted ? gdpGrowthFactor(SCENARIO_YEARS[i]?.scenario ?? null, SCENARIO_YEARS[i]?.year ?? BASELINE_YEAR) : 1,
      ),
      capGdp: gdpAdjusted ? gdpGrowthFactor(scenario, 2100) : 1,
    };
    planCache.set(key, p);
  }
  return p;
}

/** Scratch results of one asset x hazard (no allocation in portfolio loops). */
const AH = new Float64Array(10); // cvar, rcvar, eal, ealR, maxE, bi, (unused), valid(0/1), loss100, loss250

/**
 * Fills AH for asset a of chunk, hazard index h: CVaR, residual CVaR, EAL and residual EAL at the year, maximum
 * exposure at the year, operational EAL, the 1-in-100 and 1-in-250-year losses (AH[8], AH[9]). AH[7] = 0 if no data.
 */
function assetHazard(A: PreparedAsset, chunk: ResultChunk, a: number, h: number, plan: SeriesPlan, withContent: boolean): void {
  const S = chunk.scenarioYears.length;
  const val = exposedValue(A, withContent);
  const rev0 = A.revenue * A.ownership;
  const base = (a * N_HAZARDS + h) * S;
  const acute = isAcuteIndex(h);
  let cvar = 0;
  let rcvar = 0;
  let eal = 0;
  let ealR = 0;
  let maxE = 0;
  let bi = 0;
  let l100 = 0;
  let l250 = 0;
  const n = plan.indices.length;
  for (let k = 0; k < n; k++) {
    const c = base + (plan.indices[k] as number);
    const ead = chunk.ead[c] as number;
    if (ead !== ead) {
      AH[7] = 0;
      return;
    }
    const rev = rev0 * (plan.gdp[k] as number);
    const d = chunk.disruption[c] as number;
    const loss = ead * val + d * rev;
    const lossR = (chunk.eadResidual[c] as number) * val + (chunk.disruptionResidual[c] as number) * rev;
    const wc = plan.cvarW[k] as number;
    const wy = plan.yearW[k] as number;
    cvar += wc * loss;
    rcvar += wc * lossR;
    if (wy > 0) {
      const pml = chunk.maxDamage[c] as number;
      // physrisk downtime of the rarest event's damage, written as (pml − 0.1)·2.5: downtimeYears divides by 0.4, which
      // differs in the last bit for about a quarter of ratios; stored summaries and the dashboard use this form (cellMoney
      // that one), so both are kept as they are
      const pmlBi = acute ? (pml > 0.1 ? (pml >= 0.5 ? 1 : (pml - 0.1) * 2.5) : 0) : d;
      eal += wy * loss;
      ealR += wy * lossR;
      maxE += wy * (pml * val + pmlBi * rev);
      bi += wy * d * rev;
      l100 += wy * tailEventLoss(acute, chunk.tail100[c] as number, d, val, rev);
      l250 += wy * tailEventLoss(acute, chunk.tail250[c] as number, d, val, rev);
    }
  }
  const cap = val + rev0 * 20 * plan.capGdp;
  if (cvar > cap) cvar = cap;
  if (rcvar > cvar) rcvar = cvar;
  AH[0] = cvar;
  AH[1] = rcvar;
  AH[2] = eal;
  AH[3] = ealR < eal ? ealR : eal;
  AH[4] = maxE;
  AH[5] = bi;
  AH[6] = 0;
  AH[7] = 1;
  AH[8] = l100;
  AH[9] = l250;
}

/**
 * Loss (USD) of a tail event of one hazard: its damage ratio t x the exposed value plus its business interruption x
 * the revenue (acute hazards: the physrisk downtime of that damage; chronic hazards: the year's disruption). NaN t
 * (results stored before tail events were kept) gives NaN.
 */
export function tailEventLoss(acute: boolean, t: number, disruption: number, val: number, rev: number): number {
  return t * val + (acute ? downtimeYears(t) : disruption) * rev;
}

/** Scratch results of one asset over several hazards combined: cvar, rcvar, eal, ealR, valid(0/1). */
const AC = new Float64Array(5);
const PD = new Float64Array(64);
const PDR = new Float64Array(64);
const PB = new Float64Array(64);
const PBR = new Float64Array(64);
/**
 * Multi-hazard aggregation of one asset (docs/methodology/engine.md §3.3): at every series year the hazards' expected
 * annual damage ratios are combined as independent, D = 1 − Π_h (1 − d_h), separately for physical damage (fraction of
 * the damageable value) and business interruption (fraction of a year's revenue), so neither can exceed 1 in a year
 * (the building cannot lose more than its value, operations more than a year of revenue). For small ratios D ≈ Σ d_h.
 * Hazards without data at any series year are skipped (as assetHazard). Fills the products PD, PDR (damage, without
 * and with adaptation) and PB, PBR (interruption) at the plan's series years and returns true; false when no hazard
 * has data. The one kernel behind the asset CVaR of several hazards (assetCombined) and every portfolio loss series
 * (addCombinedSeries); combinedLoss and combinedLossResidual turn its products into money.
 */
function combineRatios(chunk: ResultChunk, a: number, hs: readonly number[], plan: SeriesPlan): boolean {
  const S = chunk.scenarioYears.length;
  const n = plan.indices.length;
  let seen = false;
  for (let i = 0; i < hs.length; i++) {
    const base = (a * N_HAZARDS + (hs[i] as number)) * S;
    let ok = true;
    for (let k = 0; k < n; k++) {
      const e = chunk.ead[base + (plan.indices[k] as number)] as number;
      if (e !== e) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (!seen) {
      // the products start at 1: the first hazard's factors are stored as they are (1 × x is x, bit for bit)
      seen = true;
      for (let k = 0; k < n; k++) {
        const c = base + (plan.indices[k] as number);
        PD[k] = 1 - clamp01(chunk.ead[c] as number);
        PDR[k] = 1 - clamp01(chunk.eadResidual[c] as number);
        PB[k] = 1 - clamp01(chunk.disruption[c] as number);
        PBR[k] = 1 - clamp01(chunk.disruptionResidual[c] as number);
      }
      continue;
    }
    for (let k = 0; k < n; k++) {
      const c = base + (plan.indices[k] as number);
      PD[k] = (PD[k] as number) * (1 - clamp01(chunk.ead[c] as number));
      PDR[k] = (PDR[k] as number) * (1 - clamp01(chunk.eadResidual[c] as number));
      PB[k] = (PB[k] as number) * (1 - clamp01(chunk.disruption[c] as number));
      PBR[k] = (PBR[k] as number) * (1 - clamp01(chunk.disruptionResidual[c] as number));
    }
  }
  return seen;
}
/** Combined annual loss (USD) at series point k of combineRatios: damage x value + interruption x revenue. */
const combinedLoss = (k: number, val: number, rev: number): number => (1 - (PD[k] as number)) * val + (1 - (PB[k] as number)) * rev;
/** The same after adaptation (not yet capped at the loss). */
const combinedLossResidual = (k: number, val: number, rev: number): number => (1 - (PDR[k] as number)) * val + (1 - (PBR[k] as number)) * rev;

/**
 * CVaR, residual CVaR, EAL and residual EAL of one asset over several hazards combined (combineRatios), the CVaR
 * capped at the value plus 20 years of revenue. Fills AC; AC[4] = 0 when no hazard has data.
 */
function assetCombined(A: PreparedAsset, chunk: ResultChunk, a: number, hs: readonly number[], plan: SeriesPlan, withContent: boolean): void {
  if (!combineRatios(chunk, a, hs, plan)) {
    AC[4] = 0;
    return;
  }
  const val = exposedValue(A, withContent);
  const rev0 = A.revenue * A.ownership;
  let cvar = 0;
  let rcvar = 0;
  let eal = 0;
  let ealR = 0;
  for (let k = 0; k < plan.indices.length; k++) {
    const rev = rev0 * (plan.gdp[k] as number);
    const loss = combinedLoss(k, val, rev);
    let lossR = combinedLossResidual(k, val, rev);
    if (lossR > loss) lossR = loss;
    const wc = plan.cvarW[k] as number;
    const wy = plan.yearW[k] as number;
    cvar += wc * loss;
    rcvar += wc * lossR;
    eal += wy * loss;
    ealR += wy * lossR;
  }
  const cap = val + rev0 * 20 * plan.capGdp;
  if (cvar > cap) cvar = cap;
  if (rcvar > cvar) rcvar = cvar;
  AC[0] = cvar;
  AC[1] = rcvar;
  AC[2] = eal;
  AC[3] = ealR < eal ? ealR : eal;
  AC[4] = 1;
}

/** Adds one asset's combined annual losses (residual capped at the loss) to a portfolio series L, LR; nothing without data. */
function addCombinedSeries(
  A: PreparedAsset,
  chunk: ResultChunk,
  a: number,
  hs: readonly number[],
  plan: SeriesPlan,
  withContent: boolean,
  L: Float64Array,
  LR: Float64Array,
): void {
  if (!combineRatios(chunk, a, hs, plan)) return;
  const val = exposedValue(A, withContent);
  const rev0 = A.revenue * A.ownership;
  for (let k = 0; k < plan.indices.length; k++) {
    const rev = rev0 * (plan.gdp[k] as number);
    const loss = combinedLoss(k, val, rev);
    const lossR = combinedLossResidual(k, val, rev);
    L[k] = (L[k] as number) + loss;
    LR[k] = (LR[k] as number) + (lossR < loss ? lossR : loss);
  }
}

/** A portfolio loss series and its CVaR at any year (the window's weights, computed once per year). */
function lossSeries(
  plan: SeriesPlan,
  L: Float64Array,
  LR: Float64Array,
): { years: number[]; loss: Float64Array; lossResidual: Float64Array; at(year: number): { cvar: number; rcvar: number } } {
  return lossSeriesOf(plan.years, L, LR);
}

/**
 * A portfolio loss series (annual losses L, LR at the series `years`) with its CVaR at any year: what
 * portfolioCvarSeriesOf answers, rebuilt from its plain arrays (e.g. a series computed in another thread).
 */
export function lossSeriesOf(
  years: number[],
  L: Float64Array,
  LR: Float64Array,
): { years: number[]; loss: Float64Array; lossResidual: Float64Array; at(year: number): { cvar: number; rcvar: number } } {
  const n = years.length;
  const weights = new Map<number, Float64Array>();
  return {
    years,
    loss: L,
    lossResidual: LR,
    at(year: number) {
      let w = weights.get(year);
      if (!w) {
        w = cvarWeights(years, year);
        weights.set(year, w);
      }
      let c = 0;
      let r = 0;
      for (let k = 0; k < n; k++) {
        c += (w[k] as number) * (L[k] as number);
        r += (w[k] as number) * (LR[k] as number);
      }
      return { cvar: c, rcvar: r < c ? r : c };
    },
  };
}

const clamp01 = (x: number): number => (x > 0 ? (x < 1 ? x : 1) : 0);

/**
 * Combined annual loss ratios of independent hazards: 1 − Π (1 − d_h) (each d_h clamped to [0, 1]; NaN skipped).
 * The rule used for every multi-hazard total (asset CVaR, portfolio totals and charts).
 */
export function combineDamageRatios(ratios: ArrayLike<number>): number {
  let p = 1;
  for (let i = 0; i < ratios.length; i++) {
    const d = ratios[i] as number;
    if (d === d) p *= 1 - clamp01(d);
  }
  return 1 - p;
}

const HI_RIVER = HAZARD_INDEX.river_flood;
const HI_TYPHOON = HAZARD_INDEX.typhoon;
const HI_SURGE = HAZARD_INDEX.storm_surge;
const HI_RAIN = HAZARD_INDEX.rainfall_flood;
const HI_WILDFIRE = HAZARD_INDEX.wildfire;
const HI_LANDSLIDE = HAZARD_INDEX.landslide;

/** Fields per asset written by assetCvarBatch. */
export const ASSET_BATCH_FIELDS = 8;
const ONE = new Float64Array(ASSET_BATCH_FIELDS);

/**
 * One asset's CVaR over the hazards `hs` (indices), written to out[o ..]: cvar, rcvar, rcvarPercent, maxExposure, eal,
 * ealResidual, loss100, loss250 (NaN when no hazard has data; returns whether one had), and, when perHazard is given,
 * perHazard[p + 2k ..] = the CVaR and residual CVaR of hazard k alone (NaN without data). Several hazards combine as
 * independent (assetCombined), never above the value or a year of revenue; one assetHazard pass per hazard serves both.
 */
function assetCvarInto(
  asset: PreparedAsset,
  chunk: ResultChunk,
  a: number,
  hs: readonly number[],
  plan: SeriesPlan,
  withContent: boolean,
  out: Float64Array,
  o: number,
  perHazard: Float64Array | null,
  p: number,
): boolean {
  const H = hs.length;
  let cvar = 0;
  let rcvar = 0;
  let eal = 0;
  let ealR = 0;
  let maxE = 0;
  let seen = false;
  let l100 = 0;
  let l250 = 0;
  for (let k = 0; k < H; k++) {
    assetHazard(asset, chunk, a, hs[k] as number, plan, withContent);
    if (!AH[7]) {
      if (perHazard) {
        perHazard[p + k * 2] = NaN;
        perHazard[p + k * 2 + 1] = NaN;
      }
      continue;
    }
    if (perHazard) {
      perHazard[p + k * 2] = 0 + (AH[0] as number);
      perHazard[p + k * 2 + 1] = 0 + (AH[1] as number);
    }
    seen = true;
    cvar += AH[0] as number;
    rcvar += AH[1] as number;
    eal += AH[2] as number;
    ealR += AH[3] as number;
    maxE = Math.max(maxE, AH[4] as number);
    l100 += AH[8] as number;
    l250 += AH[9] as number;
  }
  if (!seen) {
    for (let f = 0; f < ASSET_BATCH_FIELDS; f++) out[o + f] = NaN;
    return false;
  }
  const exposed = exposedValue(asset, withContent);
  if (H > 1) {
    // several hazards: combined per year as independent (1 − Π(1 − d)), never above the value or a year of revenue
    assetCombined(asset, chunk, a, hs, plan, withContent);
    cvar = AC[0] as number;
    rcvar = AC[1] as number;
    eal = AC[2] as number;
    ealR = AC[3] as number;
    const capE = exposed + asset.revenue * asset.ownership;
    if (maxE > capE) maxE = capE;
  }
  const cap = exposed + asset.revenue * asset.ownership * 20 * plan.capGdp;
  if (cvar > cap) cvar = cap;
  if (rcvar > cvar) rcvar = cvar;
  out[o] = cvar;
  out[o + 1] = rcvar;
  // the percentage is of the value the user gave (valuation, else construction cost), not of the damaged building
  const reported = reportedValue(asset, withContent);
  out[o + 2] = reported > 0 ? (100 * rcvar) / reported : 0;
  out[o + 3] = maxE;
  out[o + 4] = eal;
  out[o + 5] = ealR;
  const tailCap = exposed + asset.revenue * asset.ownership * gdpAtYear(plan);
  out[o + 6] = l100 !== l100 ? NaN : Math.min(tailCap, l100);
  out[o + 7] = l250 !== l250 ? NaN : Math.min(tailCap, l250);
  return true;
}

/**
 * CVaR of one asset (or a sum over hazards when `hazards` lists several) for an analysis type, scenario and year.
 * Uses the scenario's series of scenario-years (2020 point first). NaN when none of the hazards has data.
 */
export function assetCvar(
  asset: PreparedAsset,
  chunk: ResultChunk,
  a: number,
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  year: number,
  opt: LossOptions = {},
): CvarResult {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, year, !!opt.gdpAdjusted);
  if (
    !assetCvarInto(
      asset,
      chunk,
      a,
      hazards.map((h) => HAZARD_INDEX[h]),
      plan,
      withContent,
      ONE,
      0,
      null,
      0,
    )
  ) {
    return {
      cvar: NaN,
      cvarPercent: NaN,
      rcvar: NaN,
      rcvarPercent: NaN,
      avoidedLoss: NaN,
      maxExposure: NaN,
      eal: NaN,
      ealResidual: NaN,
      loss100: NaN,
      loss250: NaN,
    };
  }
  const reported = reportedValue(asset, withContent);
  const cvar = ONE[0] as number;
  const rcvar = ONE[1] as number;
  return {
    cvar,
    cvarPercent: reported > 0 ? (100 * cvar) / reported : 0,
    rcvar,
    rcvarPercent: ONE[2] as number,
    avoidedLoss: Math.max(0, cvar - rcvar),
    maxExposure: ONE[3] as number,
    eal: ONE[4] as number,
    ealResidual: ONE[5] as number,
    loss100: ONE[6] as number,
    loss250: ONE[7] as number,
  };
}

/** Portfolio CVaR (or residual CVaR): sum over assets of assetCvar over the hazards. */
export function portfolioCvar(
  chunks: readonly ResultChunk[],
  prepared: readonly PreparedAsset[],
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  year: number,
  opt: LossOptions = {},
  residual = false,
): number {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, year, !!opt.gdpAdjusted);
  const hs = hazards.map((h) => HAZARD_INDEX[h]);
  let total = 0;
  for (const ch of chunks)
    for (let a = 0; a < ch.count; a++) {
      const A = prepared[ch.start + a] as PreparedAsset;
      assetCombined(A, ch, a, hs, plan, withContent);
      if (AC[4]) total += residual ? (AC[1] as number) : (AC[0] as number);
    }
  return total;
}

/**
 * Key findings (spec 001 §3.2): cvar_85, cvar_26, value_of_transition_policies = cvar_85 - cvar_26, and the increase
 * of CVaR by 2030/2050/2100 against the CVaR of the 2020 climate (20 x EAL(2020)), in percent, for the chosen scenario. RCP has no 2100
 * (spec: the year is forced to 2050) -> null.
 */
export interface KeyFindings {
  cvar_85: number;
  cvar_26: number;
  value_of_transition_policies: number;
  increased_by_2030: number | null;
  increased_by_2050: number | null;
  increased_by_2100: number | null;
}

export function keyFindings(
  cvarAt: (scenario: ScenarioCode, year: number) => number,
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  year: number,
): KeyFindings {
  const c85 = cvarAt('85', year);
  const c26 = cvarAt('26', year);
  // The 2020 climate held for the whole window: a window ending in 2020 (2001-2020) clamps every year to 2020,
  // i.e. 20 x EAL(2020).
  const base = cvarAt(scenario, BASELINE_YEAR - 10);
  const inc = (y: number) => {
    if (analysisType === 'rcp' && y > 2050) return null;
    const v = cvarAt(scenario, y);
    return base > 0 ? (100 * (v - base)) / base : v > 0 ? null : 0;
  };
  return {
    cvar_85: c85,
    cvar_26: c26,
    value_of_transition_policies: c85 - c26,
    increased_by_2030: inc(2030),
    increased_by_2050: inc(2050),
    increased_by_2100: inc(2100),
  };
}

/**
 * Technical insurance premium (docs/methodology/engine.md §3.6): the expected value principle with expenses (Kaas,
 * Goovaerts, Dhaene & Denuit 2008, Modern Actuarial Risk Theory, §5.2),
 *   premium = (1 + safety loading) x EAL / (1 - expense ratio),
 * over the insurable hazards only (INSURABLE_HAZARDS); safety loading 0.3 and expense ratio 0.25 are product parameters
 * (property insurers' expense ratios run about 25-35 %). The loading is on the mean, not on the asset's standalone
 * standard deviation or tail: an insurer holds capital for its diversified book, and a single building's standalone
 * sigma of a rare total loss (the standard-deviation principle used until 2026-11-25) priced cover at 1-10 % of value
 * where insurers charge 0.05-0.3 % (docs/validation.md). Additive over hazards and assets.
 */
export const PREMIUM_DEFAULTS = { safetyLoading: 0.3, expenseRatio: 0.25 } as const;
export function technicalPremium(
  insurableExpectedLoss: number,
  safetyLoading: number = PREMIUM_DEFAULTS.safetyLoading,
  expenseRatio: number = PREMIUM_DEFAULTS.expenseRatio,
): number {
  const el = Math.max(0, insurableExpectedLoss || 0);
  return ((1 + Math.max(0, safetyLoading)) * el) / (1 - Math.min(0.9, Math.max(0, expenseRatio)));
}

/**
 * Hazards property insurance covers: sudden and accidental physical damage and the business interruption that follows
 * it (floods, storm surge, tropical cyclone, wildfire, landslide, snow load, freeze). Chronic heat and drought
 * disruption and permanent inundation by sea-level rise are gradual, not fortuitous, and are not insurable: they have
 * no premium.
 */
export const INSURABLE_HAZARDS: readonly HazardKey[] = [
  'river_flood',
  'typhoon',
  'storm_surge',
  'rainfall_flood',
  'wildfire',
  'landslide',
  'snowfall',
  'extreme_cold',
];
const INSURABLE = Uint8Array.from(HAZARD_KEYS, (h) => (INSURABLE_HAZARDS.includes(h) ? 1 : 0));
/** True for hazards of INSURABLE_HAZARDS, by hazard index (HAZARD_KEYS order). */
export const isInsurableIndex = (h: number): boolean => INSURABLE[h] === 1;
/** Acute hazards (event losses with physrisk downtime), by hazard index; the others are chronic (an annual loss). */
export const isAcuteIndex = (h: number): boolean =>
  h === HI_RIVER || h === HI_TYPHOON || h === HI_SURGE || h === HI_RAIN || h === HI_WILDFIRE || h === HI_LANDSLIDE;

export interface PortfolioQuery extends LossOptions {
  analysisType: AnalysisType;
  scenario: ScenarioCode;
  year: number;
  /** Hazards to include (default: all 11). */
  hazards?: readonly HazardKey[];
}

export interface HazardTotals {
  hazard: HazardKey;
  /** Expected annual loss at the year, USD, without / with adaptation. */
  eal: number;
  ealResidual: number;
  cvar: number;
  rcvar: number;
  avoidedLoss: number;
  cvarPercent: number;
  rcvarPercent: number;
  /** Sum over assets of each asset's loss in its rarest modelled event, USD (no diversification). */
  maxExposure: number;
  /** Portfolio score (same scale as the asset score) on total loss / total exposed value; null if no asset has data. */
  score: number | null;
  scoreResidual: number | null;
  /** Technical premium of this hazard (0 for uninsurable hazards), summed over assets. */
  technicalPremium: number;
  /**
   * Loss of the 1-in-100 and 1-in-250-year event, USD: per asset the sum over hazards (capped at value plus a year's
   * revenue), summed over assets (no diversification: an upper bound for the portfolio). NaN when the results were
   * stored before tail events were kept.
   */
  loss100: number;
  loss250: number;
}

export interface PortfolioSummary {
  query: PortfolioQuery;
  /** The damaged value (building at construction cost [+ content + inventory]) x ownership, USD. */
  exposedValue: number;
  /** The value as the user gave it (reportedValue): the denominator of cvarPercent and rcvarPercent, USD. */
  reportedValue: number;
  hazards: HazardTotals[];
  /** All hazards together (a "Climate Score" of the portfolio and its totals). */
  total: Omit<HazardTotals, 'hazard'>;
  keyFindings: KeyFindings;
}

/**
 * Portfolio totals per hazard for one analysis type, scenario and year (dashboard cards, key findings). Reads the
 * stored ratios only (about 10 ms per 10,000 assets per pass). Portfolio CVaR = sum of the assets' CVaR (no
 * diversification across assets); the total caps each asset's all-hazard CVaR at its value plus 20 years of revenue.
 */
// eslint-disable-next-line max-lines-per-function -- one pass over every asset for all portfolio totals (hot path, typed arrays); split it would walk the assets again
export function portfolioSummary(chunks: readonly ResultChunk[], prepared: readonly PreparedAsset[], q: PortfolioQuery): PortfolioSummary {
  const hazards = q.hazards ?? HAZARD_KEYS;
  const withContent = q.withContent ?? true;
  const plan = seriesPlan(q.analysisType, q.scenario, q.year, !!q.gdpAdjusted);
  const H = hazards.length;
  const hs = hazards.map((h) => HAZARD_INDEX[h]);
  const K = 10; // per hazard: AH[0..6], loss100, loss250, premium
  const acc = new Float64Array(H * K);
  const seen = new Uint8Array(H);
  let exposed = 0;
  let reported = 0;
  let revenue = 0;
  let totC = 0;
  let totR = 0;
  let totEal = 0;
  let totEalR = 0;
  let totMaxE = 0;
  let tot100 = 0;
  let tot250 = 0;
  for (const ch of chunks)
    for (let a = 0; a < ch.count; a++) {
      const A = prepared[ch.start + a] as PreparedAsset;
      const val = exposedValue(A, withContent);
      exposed += val;
      reported += reportedValue(A, withContent);
      revenue += A.revenue * A.ownership;
      const capE = val + A.revenue * A.ownership;
      let maxE = 0;
      let l100 = 0;
      let l250 = 0;
      for (let i = 0; i < H; i++) {
        const h = hs[i] as number;
        assetHazard(A, ch, a, h, plan, withContent);
        if (!AH[7]) continue;
        seen[i] = 1;
        for (let k = 0; k < 7; k++) acc[i * K + k] = (acc[i * K + k] as number) + (AH[k] as number);
        acc[i * K + 7] = (acc[i * K + 7] as number) + Math.min(capE, AH[8] as number);
        acc[i * K + 8] = (acc[i * K + 8] as number) + Math.min(capE, AH[9] as number);
        if (isInsurableIndex(h)) acc[i * K + 9] = (acc[i * K + 9] as number) + technicalPremium(AH[2] as number);
        if ((AH[4] as number) > maxE) maxE = AH[4] as number;
        l100 += AH[8] as number;
        l250 += AH[9] as number;
      }
      assetCombined(A, ch, a, hs, plan, withContent);
      if (AC[4]) {
        totC += AC[0] as number;
        totR += AC[1] as number;
        totEal += AC[2] as number;
        totEalR += AC[3] as number;
      }
      totMaxE += maxE < capE ? maxE : capE;
      tot100 += Math.min(capE, l100);
      tot250 += Math.min(capE, l250);
    }
  // percentages of the value the user gave; the score stays a damage ratio (loss over the damaged value)
  const pct = (v: number) => (reported > 0 ? (100 * v) / reported : 0);
  const score = (loss: number, bi: number) =>
    Math.round(Math.max(exposed > 0 ? acuteScoreOf(loss / exposed) : 0, revenue > 0 && bi > 0 ? chronicScoreOf(bi / revenue) : 0));
  const rows: HazardTotals[] = hazards.map((hz, i) => {
    const g = (k: number) => acc[i * K + k] as number;
    const eal = g(2);
    const ealR = g(3);
    const bi = g(5);
    return {
      hazard: hz,
      eal,
      ealResidual: ealR,
      cvar: g(0),
      rcvar: g(1),
      avoidedLoss: Math.max(0, g(0) - g(1)),
      cvarPercent: pct(g(0)),
      rcvarPercent: pct(g(1)),
      maxExposure: g(4),
      score: seen[i] ? score(eal, bi) : null,
      scoreResidual: seen[i] ? score(ealR, eal > 0 ? (bi * ealR) / eal : bi) : null,
      technicalPremium: g(9),
      loss100: g(7),
      loss250: g(8),
    };
  });
  const sum = (k: number) => {
    let t = 0;
    for (let i = 0; i < H; i++) t += acc[i * K + k] as number;
    return t;
  };
  const anySeen = seen.some((v) => v === 1);
  // all-hazard totals: per asset and year the hazards combine as independent (1 − Π(1 − d)); the rarest-event loss of
  // an asset is its worst hazard's (not the sum); the operational share of the score keeps the per-hazard sum, capped
  const eal = totEal;
  const ealR = totEalR;
  const bi = Math.min(sum(5), totEal);
  const cvarAt = (scenario: ScenarioCode, year: number) =>
    scenario === q.scenario && year === q.year ? totC : portfolioCvar(chunks, prepared, hazards, q.analysisType, scenario, year, q);
  return {
    query: q,
    exposedValue: exposed,
    reportedValue: reported,
    hazards: rows,
    total: {
      eal,
      ealResidual: ealR,
      cvar: totC,
      rcvar: totR,
      avoidedLoss: Math.max(0, totC - totR),
      cvarPercent: pct(totC),
      rcvarPercent: pct(totR),
      maxExposure: totMaxE,
      score: anySeen ? score(eal, bi) : null,
      scoreResidual: anySeen ? score(ealR, eal > 0 ? (bi * ealR) / eal : bi) : null,
      technicalPremium: sum(9),
      loss100: tot100,
      loss250: tot250,
    },
    keyFindings: keyFindings(cvarAt, q.analysisType, q.scenario, q.year),
  };
}

/**
 * Portfolio CVaR and residual CVaR for any year of one scenario's series, from a single pass over the stored ratios:
 * the assets' annual losses at the series points are summed first (skipping asset-hazard cells without data, as
 * assetCvar does), then weighted by the year's CVaR window: CVaR is linear in the annual losses. Per-asset caps are
 * not applied, so where 20 years of expected loss exceed an asset's value these chart figures can exceed the capped
 * sum of assetCvar; elsewhere they are equal (tested).
 */
export function portfolioCvarSeries(
  chunks: readonly ResultChunk[],
  prepared: readonly PreparedAsset[],
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  opt: LossOptions = {},
): {
  years: number[];
  /** Portfolio expected annual loss (and after adaptation) at each series year, USD. */
  loss: Float64Array;
  lossResidual: Float64Array;
  at(year: number): { cvar: number; rcvar: number };
} {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, BASELINE_YEAR, !!opt.gdpAdjusted);
  const L = new Float64Array(plan.indices.length);
  const LR = new Float64Array(plan.indices.length);
  const hs = hazards.map((h) => HAZARD_INDEX[h]);
  for (const ch of chunks) for (let a = 0; a < ch.count; a++) addCombinedSeries(prepared[ch.start + a] as PreparedAsset, ch, a, hs, plan, withContent, L, LR);
  return lossSeries(plan, L, LR);
}

/**
 * assetCvar for many assets in one call (the dashboard's per-asset pass), with the same arithmetic (assetCvarInto): for
 * each asset `items[j]` (located by chunkOf/localOf) writes out[j*ASSET_BATCH_FIELDS ..] = cvar, rcvar, rcvarPercent,
 * maxExposure, eal, ealResidual, loss100, loss250 (NaN when no hazard has data), and, when perHazard is given,
 * perHazard[(j*H + k)*2 ..] = the CVaR and residual CVaR of hazard k alone (what assetCvar(.., [hazard k], ..) returns;
 * NaN without data).
 */
export function assetCvarBatch(
  prepared: readonly PreparedAsset[],
  chunks: readonly ResultChunk[],
  chunkOf: ArrayLike<number>,
  localOf: ArrayLike<number>,
  items: ArrayLike<number>,
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  year: number,
  opt: LossOptions,
  out: Float64Array,
  perHazard: Float64Array | null,
): void {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, year, !!opt.gdpAdjusted);
  const hs = hazards.map((h) => HAZARD_INDEX[h]);
  for (let j = 0; j < items.length; j++) {
    const i = items[j] as number;
    assetCvarInto(
      prepared[i] as PreparedAsset,
      chunks[chunkOf[i] as number] as ResultChunk,
      localOf[i] as number,
      hs,
      plan,
      withContent,
      out,
      j * ASSET_BATCH_FIELDS,
      perHazard,
      j * hs.length * 2,
    );
  }
}

/**
 * Each hazard's own portfolio loss series (what portfolioCvarSeriesOf gives for `[hazard]`, the same arithmetic), for
 * every hazard of `hazards` in one pass over the assets: `loss[q]` and `lossResidual[q]` are hazard q's series over
 * `years`. A hazard without data for an asset adds nothing for it, as in portfolioCvarSeriesOf.
 */
export function portfolioHazardSeriesOf(
  prepared: readonly PreparedAsset[],
  chunks: readonly ResultChunk[],
  chunkOf: ArrayLike<number>,
  localOf: ArrayLike<number>,
  order: ArrayLike<number>,
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  opt: LossOptions = {},
): { years: number[]; loss: Float64Array[]; lossResidual: Float64Array[] } {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, BASELINE_YEAR, !!opt.gdpAdjusted);
  const single = hazards.map((h) => [HAZARD_INDEX[h]]);
  const L = hazards.map(() => new Float64Array(plan.indices.length));
  const LR = hazards.map(() => new Float64Array(plan.indices.length));
  for (let j = 0; j < order.length; j++) {
    const i = order[j] as number;
    const ch = chunks[chunkOf[i] as number] as ResultChunk;
    const A = prepared[i] as PreparedAsset;
    for (let q = 0; q < single.length; q++) addCombinedSeries(A, ch, localOf[i] as number, single[q]!, plan, withContent, L[q]!, LR[q]!);
  }
  return { years: plan.years, loss: L, lossResidual: LR };
}

/**
 * portfolioCvarSeries over the assets `order` (located by chunkOf/localOf) in that order, with the same arithmetic
 * (so the same sums as portfolioCvarSeries over chunks holding exactly those assets in that order), without copying
 * the selected assets' results into chunks of their own.
 */
export function portfolioCvarSeriesOf(
  prepared: readonly PreparedAsset[],
  chunks: readonly ResultChunk[],
  chunkOf: ArrayLike<number>,
  localOf: ArrayLike<number>,
  order: ArrayLike<number>,
  hazards: readonly HazardKey[],
  analysisType: AnalysisType,
  scenario: ScenarioCode,
  opt: LossOptions = {},
): { years: number[]; loss: Float64Array; lossResidual: Float64Array; at(year: number): { cvar: number; rcvar: number } } {
  const withContent = opt.withContent ?? true;
  const plan = seriesPlan(analysisType, scenario, BASELINE_YEAR, !!opt.gdpAdjusted);
  const L = new Float64Array(plan.indices.length);
  const LR = new Float64Array(plan.indices.length);
  const hs = hazards.map((h) => HAZARD_INDEX[h]);
  for (let j = 0; j < order.length; j++) {
    const i = order[j] as number;
    addCombinedSeries(prepared[i] as PreparedAsset, chunks[chunkOf[i] as number] as ResultChunk, localOf[i] as number, hs, plan, withContent, L, LR);
  }
  return lossSeries(plan, L, LR);
}
