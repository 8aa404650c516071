/**
 * 0-100 hazard scores. Breakpoints and their sources:
 * - Typhoon (100-yr 1-min wind): spec 001 §9 typhoon wind bands <61, 61-88, 88-117, 117-193, >193 km/h mapped onto
 *   the severity bands Low / Medium / Medium-High / High / Very High.
 * - River, rainfall and storm-surge flood (100-yr depth): spec 001 §9 flood legend 0-0.25, 0.25-0.5, 0.5-1, 1-2, >2 m.
 * - Wildfire and landslide (annual damage fraction): physrisk GenericScoreBasedRiskMeasures acute breakpoints on AAL
 *   as fraction of value 0.01 %, 0.2 %, 1 %, 5 % (references.md b.1), log-interpolated; wildfire damage = 0.6 × annual
 *   edge-equivalent exposure (a house at the bushland edge, Chen & McAneney 2004; models/wildfire.ts), landslide damage
 *   taken as the annual probability (total loss).
 * - Drought: UNEP (1992) aridity classes humid ≥ 0.65, dry sub-humid 0.5-0.65, semi-arid 0.2-0.5, arid 0.05-0.2,
 *   hyper-arid < 0.05.
 * - Cold (coldest-month mean): Köppen-Geiger thresholds as updated by Peel, Finlayson & McMahon (2007, HESS 11:1633):
 *   ≥ 18 °C tropical (score 0), 0 °C temperate/continental boundary (25), −38 °C extremely continental "d" (100),
 *   linear between.
 * - Heat, snowfall: area-weighted percentile of the present-day (baseline) value among land cells
 *   (computed from the layers themselves at load time), so 2020 ranks a site against today's world.
 * - Sea-level rise: the rise since 2020 (share of 1 m) times the exposure, the freeboard (site elevation − projected
 *   rise) against the 10 m Low Elevation Coastal Zone (McGranahan, Balk & Anderson 2007, Environ. Urban. 19:17).
 */
export function clampScore(s: number): number {
  if (!Number.isFinite(s)) return 0;
  return Math.max(0, Math.min(100, Math.round(s * 10) / 10));
}

/** Piecewise-linear interpolation through (x, score) breakpoints, clamped at the ends. */
export function piecewise(x: number, xs: readonly number[], ys: readonly number[]): number {
  if (x <= xs[0]!) return ys[0]!;
  for (let i = 0; i < xs.length - 1; i++) {
    if (x <= xs[i + 1]!) return ys[i]! + ((ys[i + 1]! - ys[i]!) * (x - xs[i]!)) / (xs[i + 1]! - xs[i]!);
  }
  return ys[ys.length - 1]!;
}

const KMH = 1 / 3.6;
export const TYPHOON_BREAKS_MS = [0, 61 * KMH, 88 * KMH, 117 * KMH, 193 * KMH];
export const FLOOD_BREAKS_M = [0, 0.25, 0.5, 1, 2];
const SCORE_STEPS = [0, 25, 50, 75, 100];

export function typhoonScore(wind100Ms: number): number {
  return clampScore(piecewise(wind100Ms, TYPHOON_BREAKS_MS, SCORE_STEPS));
}
export function floodScore(depth100M: number): number {
  if (!(depth100M > 0)) return 0;
  return clampScore(piecewise(depth100M, FLOOD_BREAKS_M, SCORE_STEPS));
}
/** Acute damage-fraction score (physrisk breakpoints), log-interpolated above 0.01 %. */
export function damageFractionScore(d: number): number {
  if (!(d > 0)) return 0;
  if (d < 1e-4) return clampScore((25 * d) / 1e-4);
  return clampScore(piecewise(Math.log10(d), [-4, Math.log10(2e-3), -2, Math.log10(5e-2)], [25, 50, 75, 100]));
}
export function aridityScore(ai: number): number {
  if (!Number.isFinite(ai)) return 0;
  if (ai >= 0.65) return clampScore((25 * 0.65) / ai);
  return clampScore(piecewise(-ai, [-0.65, -0.5, -0.2, -0.05], [25, 50, 75, 100]));
}
export function coldScore(coldestMonthC: number): number {
  if (!Number.isFinite(coldestMonthC)) return 0;
  return clampScore(piecewise(-coldestMonthC, [-18, 0, 38], [0, 25, 100]));
}
/**
 * Sea-level rise: the rise since 2020 and the site's exposure to it. Exposure = position in the 10 m Low Elevation
 * Coastal Zone (McGranahan, Balk & Anderson 2007) of the freeboard z − ΔSL: 1 at or below the raised sea, 0 at 10 m
 * above it. Rise = ΔSL / 1 m (the AR6 Table 9.9 likely upper bound for SSP5-8.5 in 2100 is 1.01 m), capped at 1.
 * score = 100 · exposure · rise, so a hill site scores low whatever the rise and no site scores before the sea rises.
 */
export const SLR_SCORE_REFERENCE_RISE_M = 1;
export function slrScore(freeboardM: number, riseM: number): number {
  const exposure = Math.min(1, Math.max(0, (10 - freeboardM) / 10));
  const rise = Math.min(1, Math.max(0, riseM / SLR_SCORE_REFERENCE_RISE_M));
  return clampScore(100 * exposure * rise);
}

/** Percentile table (101 values: the 0th..100th percentile) → score = percentile rank of x. */
export function percentileScore(x: number, table: Float64Array | number[]): number {
  const n = table.length - 1;
  if (x <= table[0]!) return 0;
  if (x >= table[n]!) return 100;
  let lo = 0,
    hi = n;
  while (hi - lo > 1) {
    const m = (lo + hi) >> 1;
    if (table[m]! <= x) lo = m;
    else hi = m;
  }
  const a = table[lo]!,
    b = table[hi]!;
  return clampScore(((lo + (b > a ? (x - a) / (b - a) : 0)) / n) * 100);
}
