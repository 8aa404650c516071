/**
 * The grid kernel: every asset x hazard x scenario-year into compact typed arrays (docs/methodology/engine.md §2-§3).
 * Pure and allocation-free in the inner loops. The vulnerability formulas are written out inline (JRC table lookup,
 * Emanuel sigmoid, physrisk downtime); test/portfolio.test.ts checks them against the exported functions.
 */
import { HAZARD_KEYS, type HazardKey, type ReturnPeriodCurve } from '@crp/contracts';
import type { PreparedAsset } from './assets.js';
import { applyDamage, type ResolvedMeasure } from './adaptation.js';
import { evalTable, uniformTable, type UniformTable } from './interp.js';
import { EMANUEL_V_THRESH_MS } from './vulnerability/wind.js';
import { GAUSS_LAGUERRE_U, GAUSS_LAGUERRE_W } from './ead.js';
import {
  downtimeYears,
  COLD_DAMAGE_CURVE,
  COLD_DISRUPTION_CURVE,
  SNOW_DAMAGE_CURVE,
  SNOW_DISRUPTION_FACTOR,
  LANDSLIDE_DAMAGE_GIVEN_HIT,
  LANDSLIDE_DISRUPTION_GIVEN_HIT_YEARS,
  landslideHitProbability,
  WILDFIRE_DOWNTIME_GIVEN_DESTRUCTION_YEARS,
} from './vulnerability/other.js';
import { heatDisruption } from './vulnerability/heat.js';
import { droughtDisruption } from './vulnerability/drought.js';
import { hazardScoreFast } from './scores.js';
import type { ScenarioYear } from './scenarios.js';

export const CURVE_HAZARDS = ['river_flood', 'typhoon', 'storm_surge', 'rainfall_flood'] as const;
export type CurveHazardKey = (typeof CURVE_HAZARDS)[number];
export type ScalarHazardKey = Exclude<HazardKey, CurveHazardKey>;
export const SCALAR_HAZARDS = HAZARD_KEYS.filter((h) => !(CURVE_HAZARDS as readonly string[]).includes(h)) as ScalarHazardKey[];

/** Index of each hazard in result arrays (HAZARD_KEYS order from @crp/contracts). */
export const HAZARD_INDEX: Readonly<Record<HazardKey, number>> = Object.fromEntries(HAZARD_KEYS.map((h, i) => [h, i])) as Record<HazardKey, number>;
export const N_HAZARDS = HAZARD_KEYS.length;

/**
 * Hazard inputs of a block of assets at one scenario-year, columnar. Curve intensities are row-major
 * (asset-major: asset j's curve is intensities[j*nRP .. j*nRP+nRP-1]) on one ascending return-period axis per hazard.
 * NaN (or a missing hazard) = no data for that asset.
 */
export interface HazardBatch {
  count: number;
  curves: Partial<Record<CurveHazardKey, { returnPeriodsYears: ArrayLike<number>; intensities: Float64Array | Float32Array }>>;
  scalars: Partial<Record<ScalarHazardKey, Float64Array | Float32Array>>;
  /**
   * Optional headline intensity per asset and hazard (layout j * 11 + hazard index, HAZARD_KEYS order; NaN = no
   * data), e.g. the 100-year depth or the indicator value, copied into ResultChunk.intensity by computeChunk.
   */
  values?: Float32Array | Float64Array;
  /**
   * Optional per asset: the change of the drought index at the scenario-year vs the baseline, in standard deviations
   * (the AR6 region's CMIP6 soil-moisture change; negative = drying). Drought disruption is keyed to it; without it
   * (NaN or absent) drought disrupts nothing.
   */
  droughtChangeSigma?: Float32Array | Float64Array;
}

/** Per-asset hazard inputs: a return-period curve for the curve hazards, a number for the others; null = no data. */
export type AssetHazardInputs = Partial<Record<HazardKey, ReturnPeriodCurve | number | null>>;

/** Compact results of a block of assets: layout [asset][hazard][scenarioYear] (cells) and [asset][scenarioYear]. */
export interface ResultChunk {
  start: number;
  count: number;
  hazards: readonly HazardKey[];
  scenarioYears: readonly string[];
  /** Expected annual damage ratio (fraction of the damageable value), without adaptation. NaN = no data. */
  ead: Float32Array;
  /** The same after adaptation (asset mitigation level + measures). */
  eadResidual: Float32Array;
  /** Expected annual business interruption (fraction of annual revenue), without / with adaptation. */
  disruption: Float32Array;
  disruptionResidual: Float32Array;
  /** Standard deviation of the annual damage ratio (for the insurance risk load). */
  sd: Float32Array;
  /** Damage ratio of the rarest modelled event (Maximum Exposure). */
  maxDamage: Float32Array;
  /**
   * Damage ratio of the 1-in-100-year and 1-in-250-year event (tail losses; after the standard of flood protection,
   * without adaptation): interpolated linearly in exceedance probability on the curve; for occurrence hazards
   * (wildfire, landslide) the damage given an event when its annual probability reaches 1/RP, else 0; for chronic
   * hazards the annual damage.
   */
  tail100: Float32Array;
  tail250: Float32Array;
  /** Hazard severity score 0-100 without / with adaptation; 255 = no data. */
  score: Uint8Array;
  scoreResidual: Uint8Array;
  /** Overall Climate Score per asset and scenario-year, without / with adaptation; 255 = no data. */
  climateScore: Uint8Array;
  climateScoreResidual: Uint8Array;
  /** Headline hazard intensity per [asset][hazard][scenarioYear], when the provider supplies HazardBatch.values. */
  intensity?: Float32Array;
}

export function allocateChunk(start: number, count: number, scenarioYears: readonly ScenarioYear[]): ResultChunk {
  const cells = count * N_HAZARDS * scenarioYears.length;
  const f = () => new Float32Array(cells);
  return {
    start,
    count,
    hazards: HAZARD_KEYS,
    scenarioYears: scenarioYears.map((s) => s.key),
    ead: f(),
    eadResidual: f(),
    disruption: f(),
    disruptionResidual: f(),
    sd: f(),
    maxDamage: f(),
    tail100: f(),
    tail250: f(),
    score: new Uint8Array(cells),
    scoreResidual: new Uint8Array(cells),
    climateScore: new Uint8Array(count * scenarioYears.length),
    climateScoreResidual: new Uint8Array(count * scenarioYears.length),
  };
}

// scratch buffers (max 64 return periods)
const D = new Float64Array(64);
const DR = new Float64Array(64);
const B = new Float64Array(64);
const BR = new Float64Array(64);

/** Building flood damage ratio of a prepared asset at a depth above ground (its table, assets.ts floodTableOf; 0 below its onset). */
export const floodDamage = (A: PreparedAsset, depthM: number): number => (depthM >= A.floodOnsetM ? evalTable(A.floodTable, depthM) : 0);

// per-asset accumulators: loss/value, residual loss/value, disruption, residual disruption, any-data flag
const ACC = new Float64Array(5);

// Cell values are passed through this scratch array rather than as arguments: a non-inlined call would box each
// double into a heap number (allocation and GC on ~64 M cells). Layout: ead, eadRes, bi, biRes, sd, pml, dmgValue, revenue.
// W[8], W[9]: damage ratio of the 1-in-100 and 1-in-250-year events.
const W = new Float64Array(10);
/** Exceedance probabilities of the stored tail events (1-in-100 and 1-in-250 years). */
export const TAIL_RETURN_PERIODS = [100, 250] as const;

function writeCell(chunk: ResultChunk, c: number): void {
  const ead = W[0] as number;
  const eadRes = W[1] as number;
  const bi = W[2] as number;
  const biRes = W[3] as number;
  const sd = W[4] as number;
  const pml = W[5] as number;
  const dmgValue = W[6] as number;
  const revenue = W[7] as number;
  chunk.ead[c] = ead;
  chunk.eadResidual[c] = eadRes;
  chunk.disruption[c] = bi;
  chunk.disruptionResidual[c] = biRes;
  chunk.sd[c] = sd;
  chunk.maxDamage[c] = pml;
  chunk.tail100[c] = W[8] as number;
  chunk.tail250[c] = W[9] as number;
  if (ead !== ead) {
    chunk.score[c] = 255;
    chunk.scoreResidual[c] = 255;
    return;
  }
  const lossV = dmgValue > 0 ? (ead * dmgValue + bi * revenue) / dmgValue : ead + bi;
  const lossVR = dmgValue > 0 ? (eadRes * dmgValue + biRes * revenue) / dmgValue : eadRes + biRes;
  chunk.score[c] = hazardScoreFast(lossV, bi);
  chunk.scoreResidual[c] = lossVR === lossV && biRes === bi ? (chunk.score[c] as number) : hazardScoreFast(lossVR, biRes);
  ACC[0] = (ACC[0] as number) + lossV;
  ACC[1] = (ACC[1] as number) + lossVR;
  ACC[2] = (ACC[2] as number) + bi;
  ACC[3] = (ACC[3] as number) + biRes;
  ACC[4] = 1;
}

interface CurveAxis {
  p: Float64Array;
  n: number;
  data: Float64Array | Float32Array;
}

function writeNaN(chunk: ResultChunk, c: number): void {
  W[0] = NaN;
  W[1] = NaN;
  W[2] = NaN;
  W[3] = NaN;
  W[4] = NaN;
  W[5] = NaN;
  W[8] = NaN;
  W[9] = NaN;
  writeCell(chunk, c);
}

/**
 * Damage of the event with exceedance probability q on the curve (D at p[0..n-1], p descending): 0 when the event is
 * more frequent than the standard of protection (q > cut); linear in p between curve points, the end values beyond.
 */
function damageAtP(p: Float64Array, n: number, Dd: Float64Array, q: number, cut: number): number {
  if (q > cut) return 0;
  if (q >= (p[0] as number)) return Dd[0] as number;
  if (q <= (p[n - 1] as number)) return Dd[n - 1] as number;
  let k = 0;
  while ((p[k + 1] as number) > q) k++;
  const hi = p[k] as number;
  const lo = p[k + 1] as number;
  const d0 = Dd[k] as number;
  const d1 = Dd[k + 1] as number;
  return d1 + ((d0 - d1) * (q - lo)) / (hi - lo);
}

// integration results: ead, E[D^2], bi (and, beyond a standard, ead and bi with the measure)
const INT = new Float64Array(5);

/**
 * Flood EAD behind a standard of protection at or beyond the curve's rarest return period (ead.ts beyondStandard, the
 * same rule): the curve grows past its rarest point linearly in ln RP (slope of its last segment), an event rarer than
 * the standard passes its excess over the design level, s·ln(p_cut/p), and the expectation over those events is taken by
 * Gauss-Laguerre quadrature. A measure reduces that excess depth and its damage as it does any depth. Writes INT[0..4].
 */
function beyondStandardCell(
  A: PreparedAsset,
  data: Float64Array | Float32Array,
  off: number,
  n: number,
  p: Float64Array,
  cut: number,
  m: ResolvedMeasure,
  active: boolean,
): void {
  let run = -Infinity,
    prev = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = data[off + k] as number;
    prev = run;
    if (x > run) run = x;
  }
  const s = tailSlope(p, n, prev, run);
  let e = 0,
    e2 = 0,
    b = 0,
    eR = 0,
    bR = 0;
  for (let i = 0; i < GAUSS_LAGUERRE_U.length; i++) {
    const w = GAUSS_LAGUERRE_W[i]!;
    const x = s * GAUSS_LAGUERRE_U[i]!;
    const d = floodDamage(A, x);
    e += w * d;
    e2 += w * d * d;
    b += w * (d > 0.1 ? (d >= 0.5 ? 1 : (d - 0.1) * 2.5) : 0);
    if (active) {
      const xr = m.a * x - m.b;
      let dr = m.c * floodDamage(A, xr > 0 ? xr : 0) + m.e;
      if (dr < 0) dr = 0;
      if (dr > d) dr = d;
      eR += w * dr;
      bR += w * (dr > 0.1 ? (dr >= 0.5 ? 1 : (dr - 0.1) * 2.5) : 0);
    }
  }
  INT[0] = cut * e;
  INT[1] = cut * e2;
  INT[2] = cut * b;
  INT[3] = active ? cut * eR : cut * e;
  INT[4] = active ? cut * bR : cut * b;
}

/** Slope per unit ln RP of the last curve segment (intensities `prev`, `last` at p[n-2], p[n-1]); never negative. */
function tailSlope(p: Float64Array, n: number, prev: number, last: number): number {
  if (n < 2) return 0;
  const dl = Math.log((p[n - 2] as number) / (p[n - 1] as number));
  return last > prev && dl > 0 ? (last - prev) / dl : 0;
}

/**
 * Trapezoid integral over exceedance probability of damage Dd and disruption Bd at p[0..n-1] (ead.ts
 * integrateExceedance): the rare tail held at the rarest value; events more frequent than `cut` (the standard of
 * protection, and a measure's) do no damage, the damage interpolated at the cut; every bin counts, also one whose more
 * frequent end is dry (physrisk's get_probability_bins). Writes INT.
 */
function integrate(p: Float64Array, n: number, Dd: Float64Array, Bd: Float64Array, cut: number): void {
  const pn = p[n - 1] as number;
  const w0 = pn < cut ? pn : cut;
  const dn = Dd[n - 1] as number;
  let ead = w0 * dn;
  let m2 = ead * dn;
  let bi = w0 * (Bd[n - 1] as number);
  for (let k = n - 2; k >= 0; k--) {
    const hiP = p[k] as number;
    const loP = p[k + 1] as number;
    if (loP >= cut) break;
    let d1 = Dd[k] as number;
    const d0 = Dd[k + 1] as number;
    const b0 = Bd[k + 1] as number;
    let b1 = Bd[k] as number;
    let top = hiP;
    if (hiP > cut) {
      const f = (cut - loP) / (hiP - loP);
      d1 = d0 + (d1 - d0) * f;
      b1 = b0 + (b1 - b0) * f;
      top = cut;
    }
    const w = top - loP;
    ead += w * (d0 + d1) * 0.5;
    m2 += (w * (d0 * d0 + d0 * d1 + d1 * d1)) / 3;
    bi += w * (b0 + b1) * 0.5;
  }
  INT[0] = ead;
  INT[1] = m2;
  INT[2] = bi;
}

/**
 * One curve-hazard cell. Kept small, with the vulnerability evaluations written out, so V8 optimises it on its own
 * (a single large kernel exhausts the inlining budget and then boxes every double passed to a helper).
 * ci is the hazard's index in CURVE_HAZARDS (1 = typhoon wind; the others are flood depths).
 */
// eslint-disable-next-line max-lines-per-function -- the engine's per-cell hot loop over typed arrays (docs/performance.md); split into calls it loses throughput
function curveCell(chunk: ResultChunk, A: PreparedAsset, ax: CurveAxis, j: number, h: number, ci: number, c: number): void {
  const wind = ci === 1;
  const n = ax.n;
  const off = j * n;
  const data = ax.data;
  let top = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = data[off + k] as number;
    if (v !== v) {
      writeNaN(chunk, c);
      return;
    }
    if (v > top) top = v;
  }
  const onset = A.floodOnsetM;
  // Dry / calm site: the largest intensity causes no damage, so none does.
  if (wind ? top <= EMANUEL_V_THRESH_MS : top < onset) {
    W[0] = 0;
    W[1] = 0;
    W[2] = 0;
    W[3] = 0;
    W[4] = 0;
    W[5] = 0;
    W[8] = 0;
    W[9] = 0;
    writeCell(chunk, c);
    return;
  }
  const m = A.measures[h] as ResolvedMeasure;
  const active = m.active;
  const t = A.floodTable;
  const tinv = t.invStep;
  const ty = t.y;
  const tlast = t.last;
  const vh = A.vHalfMs;
  const vthr = EMANUEL_V_THRESH_MS;
  const vscale = 1 / (vh - vthr);
  const wt = A.windTable;
  let run = -Infinity;
  for (let pass = 0; pass < (active ? 2 : 1); pass++) {
    run = -Infinity;
    for (let k = 0; k < n; k++) {
      const x0 = data[off + k] as number;
      if (x0 > run) run = x0;
      let x = run;
      if (pass === 1) {
        x = m.a * run - m.b;
        if (x < 0) x = 0;
      }
      let d = 0;
      if (wind) {
        if (wt !== null) d = evalTable(wt, x);
        else if (x > vthr) {
          const vn = (x - vthr) * vscale;
          const v3 = vn * vn * vn;
          d = v3 / (1 + v3);
        }
      } else if (x >= onset) {
        // building table over depth above ground, from 0 m (assets.ts floodTableOf)
        const u = x * tinv;
        if (u >= tlast) d = ty[tlast] as number;
        else {
          const i = u | 0;
          const y0 = ty[i] as number;
          d = y0 + ((ty[i + 1] as number) - y0) * (u - i);
        }
      }
      // physrisk downtime: 0 below damage 0.1, 1 year at 0.5, linear between
      if (pass === 0) {
        D[k] = d;
        B[k] = d > 0.1 ? (d >= 0.5 ? 1 : (d - 0.1) * 2.5) : 0;
      } else {
        let dr = m.c * d + m.e;
        if (dr < 0) dr = 0;
        const dk = D[k] as number;
        if (dr > dk) dr = dk;
        DR[k] = dr;
        BR[k] = dr > 0.1 ? (dr >= 0.5 ? 1 : (dr - 0.1) * 2.5) : 0;
      }
    }
  }
  const p = ax.p;
  const prot = A.protectionCutP[ci] as number;
  let ead: number, m2: number, bi: number, eadR: number, biR: number;
  if (!wind && prot <= (p[n - 1] as number)) {
    // a standard at or beyond the rarest return period (Dutch dikes): only the excess over the design level passes
    beyondStandardCell(A, data, off, n, p, prot, m, active);
    ead = INT[0] as number;
    m2 = INT[1] as number;
    bi = INT[2] as number;
    eadR = INT[3] as number;
    biR = INT[4] as number;
  } else {
    integrate(p, n, D, B, prot);
    ead = INT[0] as number;
    m2 = INT[1] as number;
    bi = INT[2] as number;
    eadR = ead;
    biR = bi;
    if (active) {
      const cut = m.cutoffP < prot ? m.cutoffP : prot;
      integrate(p, n, DR, BR, cut);
      eadR = INT[0] as number;
      biR = INT[2] as number;
    }
  }
  if (eadR > ead) eadR = ead;
  if (biR > bi) biR = bi;
  const v = m2 - ead * ead;
  W[0] = ead;
  W[1] = eadR;
  W[2] = bi;
  W[3] = biR;
  W[4] = v > 0 ? Math.sqrt(v) : 0;
  W[5] = D[n - 1] as number;
  W[8] = damageAtP(p, n, D, 0.01, prot);
  W[9] = damageAtP(p, n, D, 0.004, prot);
  writeCell(chunk, c);
}

/** One scalar-hazard cell (same rules as the exported functions of vulnerability/other.ts, without allocation). */
// eslint-disable-next-line max-lines-per-function -- the engine's per-cell hot loop over typed arrays (docs/performance.md); split into calls it loses throughput
function scalarCell(
  chunk: ResultChunk,
  A: PreparedAsset,
  si: number,
  h: number,
  arr: Float64Array | Float32Array | null,
  j: number,
  surge: CurveAxis | null,
  c: number,
): void {
  const x = arr ? (arr[j] as number) : NaN;
  if (x !== x) {
    writeNaN(chunk, c);
    return;
  }
  let dmg = 0;
  let dis = 0;
  let sd = 0;
  let pml = 0;
  let occ = -1;
  switch (si) {
    case 0: /* wildfire */ {
      // x = annual edge-equivalent exposure; the damage of an exposure is the asset's destruction probability
      const p = x > 0 ? (x < 1 ? x : 1) : 0;
      const d = A.wildfireDestruction;
      dmg = d * p;
      dis = WILDFIRE_DOWNTIME_GIVEN_DESTRUCTION_YEARS * dmg;
      sd = d * Math.sqrt(p * (1 - p));
      pml = p > 0 ? d : 0;
      occ = p;
      break;
    }
    case 1: /* landslide */ {
      // x = probability of at least one landslide within 1 km; p = annual probability that one hits the site
      const p = landslideHitProbability(x);
      dmg = LANDSLIDE_DAMAGE_GIVEN_HIT * p;
      dis = LANDSLIDE_DISRUPTION_GIVEN_HIT_YEARS * p;
      sd = LANDSLIDE_DAMAGE_GIVEN_HIT * Math.sqrt(p * (1 - p));
      pml = p > 0 ? LANDSLIDE_DAMAGE_GIVEN_HIT : 0;
      occ = p;
      break;
    }
    case 3: {
      // heat: lost work time (ILO / Kjellstrom) over the year from the warmest and coldest months, humidity by aridity,
      // costed at the wage bill of the lost hours (labour cost share of revenue): business interruption, no damage
      const P = A.property;
      const cold = CTX.cold ? (CTX.cold[j] as number) : NaN;
      const ai = CTX.aridity ? (CTX.aridity[j] as number) : NaN;
      dis = heatDisruption(x, cold, ai, A.latDeg, P.metabolicRateW, P.cooledShare, P.labourCostShare);
      break;
    }
    case 2:
      /* cold */ dmg = lookup(COLD_DMG_T, x);
      dis = lookup(COLD_DIS_T, x);
      pml = dmg;
      break;
    case 4:
      /* snow */ dmg = x > 0 ? lookup(SNOW_T, x) : 0;
      dis = SNOW_DISRUPTION_FACTOR * dmg;
      pml = dmg;
      break;
    case 6:
      /* drought: the change of the water balance (σ) × water dependence × cost share, not the absolute aridity */
      dis = CTX.droughtShift ? droughtDisruption(CTX.droughtShift[j] as number, A.property.waterDependence, A.property.droughtCostShare) : 0;
      break;
    case 5: /* slr */ {
      // Permanent inundation depth: SLR above ground if the elevation is known; otherwise the site counts as exposed
      // only if the storm-surge curve already floods it at its most frequent return period (RULE).
      let depth = 0;
      if (Number.isFinite(A.elevationM)) depth = Math.max(0, x - A.elevationM);
      else if (surge && (surge.data[j * surge.n] as number) > 0) depth = Math.max(0, x);
      dmg = floodDamage(A, depth);
      dis = downtimeYears(dmg);
      pml = dmg;
      break;
    }
  }
  const m = A.measures[h] as ResolvedMeasure;
  W[0] = dmg;
  W[2] = dis;
  W[4] = sd;
  W[5] = pml;
  // tails: an occurrence hazard's N-year loss is the damage of an event if one happens at least once in N years on
  // average (annual probability >= 1/N), else 0; a chronic hazard's is its annual damage
  if (occ >= 0) {
    W[8] = occ >= 0.01 ? pml : 0;
    W[9] = occ >= 0.004 ? pml : 0;
  } else {
    W[8] = dmg;
    W[9] = dmg;
  }
  if (m.active) {
    W[1] = applyDamage(m, dmg);
    W[3] = applyDamage(m, dis);
  } else {
    W[1] = dmg;
    W[3] = dis;
  }
  writeCell(chunk, c);
}

// The scalar rules tabulated on grids that contain every breakpoint (exact): cold 1 °C, snow 50 mm.
const COLD_DMG_T = uniformTable(COLD_DAMAGE_CURVE, 1);
const COLD_DIS_T = uniformTable(COLD_DISRUPTION_CURVE, 1);
const SNOW_T = uniformTable(SNOW_DAMAGE_CURVE, 50);
/** The batch's other inputs that the heat and drought cells read (set per batch by computeBatch). */
const CTX: { cold: ArrayLike<number> | null; aridity: ArrayLike<number> | null; droughtShift: ArrayLike<number> | null } = {
  cold: null,
  aridity: null,
  droughtShift: null,
};
const LX = new Float64Array(1);
/** Table lookup with the argument passed through LX (no boxing when not inlined): set LX[0] then call. */
function lookupLx(t: UniformTable): number {
  const u = ((LX[0] as number) - t.x0) * t.invStep;
  if (!(u > 0)) return t.y[0] as number;
  if (u >= t.last) return t.y[t.last] as number;
  const i = u | 0;
  const y0 = t.y[i] as number;
  return y0 + ((t.y[i + 1] as number) - y0) * (u - i);
}
const lookup = (t: UniformTable, x: number): number => {
  LX[0] = x;
  return lookupLx(t);
};

// scalarCell switches on these literal positions (a jump table); checked here against SCALAR_HAZARDS.
if (SCALAR_HAZARDS.join() !== 'wildfire,landslide,extreme_cold,extreme_heat,snowfall,sea_level_rise,drought') {
  throw new Error(`unexpected scalar hazard order ${SCALAR_HAZARDS.join()}`);
}
const CURVE_H = CURVE_HAZARDS.map((h) => HAZARD_INDEX[h]);
const SCALAR_H = SCALAR_HAZARDS.map((h) => HAZARD_INDEX[h]);

/**
 * Computes one scenario-year for assets[start, start+batch.count) of `prepared` into `chunk` (whose start must be <=
 * start). syIndex is the scenario-year's index in chunk.scenarioYears.
 */
export function computeBatch(prepared: readonly PreparedAsset[], start: number, batch: HazardBatch, syIndex: number, chunk: ResultChunk): void {
  const S = chunk.scenarioYears.length;
  // return-period axes -> exceedance probabilities
  const curveAxes: (CurveAxis | null)[] = CURVE_HAZARDS.map((h) => {
    const c = batch.curves[h];
    if (!c) return null;
    const n = c.returnPeriodsYears.length;
    const p = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const rp = c.returnPeriodsYears[k] as number;
      if (!(rp >= 1) || (k > 0 && !(rp > (c.returnPeriodsYears[k - 1] as number)))) throw new Error(`${h}: return periods must be >= 1 and ascending`);
      p[k] = 1 / rp;
    }
    if (n < 1 || n > 64 || c.intensities.length < n * batch.count) throw new Error(`${h}: bad curve batch`);
    return { p, n, data: c.intensities };
  });
  const scal = SCALAR_HAZARDS.map((h) => batch.scalars[h] ?? null);
  CTX.cold = batch.scalars.extreme_cold ?? null;
  CTX.aridity = batch.scalars.drought ?? null;
  CTX.droughtShift = batch.droughtChangeSigma ?? null;
  const surge = curveAxes[CURVE_HAZARDS.indexOf('storm_surge')] ?? null;

  for (let j = 0; j < batch.count; j++) {
    const A = prepared[start + j] as PreparedAsset;
    const a = start + j - chunk.start;
    ACC[0] = 0;
    ACC[1] = 0;
    ACC[2] = 0;
    ACC[3] = 0;
    ACC[4] = 0;
    const cellBase = a * N_HAZARDS * S + syIndex;
    W[6] = A.buildingValue + A.contentValue + A.inventoryValue;
    W[7] = A.revenue;
    for (let ci = 0; ci < CURVE_H.length; ci++) {
      const h = CURVE_H[ci] as number;
      const ax = curveAxes[ci];
      if (ax) curveCell(chunk, A, ax, j, h, ci, cellBase + h * S);
      else writeNaN(chunk, cellBase + h * S);
    }
    for (let si = 0; si < SCALAR_H.length; si++) {
      const h = SCALAR_H[si] as number;
      scalarCell(chunk, A, si, h, scal[si] ?? null, j, surge, cellBase + h * S);
    }
    const cs = a * S + syIndex;
    const any = (ACC[4] as number) > 0;
    chunk.climateScore[cs] = any ? hazardScoreFast(ACC[0] as number, ACC[2] as number) : 255;
    chunk.climateScoreResidual[cs] = any ? hazardScoreFast(ACC[1] as number, ACC[3] as number) : 255;
  }
}

/**
 * Converts per-asset hazard inputs to a columnar batch. Curves of one hazard are put on the return-period axis of the
 * first curve seen; a curve on another axis is resampled linearly in log(RP), flat beyond its ends.
 */
export function batchFromAssetInputs(inputs: readonly (AssetHazardInputs | null | undefined)[]): HazardBatch {
  const count = inputs.length;
  const batch: HazardBatch = { count, curves: {}, scalars: {} };
  for (const h of CURVE_HAZARDS) {
    let axis: number[] | null = null;
    for (const inp of inputs) {
      const c = inp?.[h];
      if (c && typeof c === 'object' && c.returnPeriodsYears.length) {
        const order = c.returnPeriodsYears.map((_, i) => i).sort((x, y) => (c.returnPeriodsYears[x] as number) - (c.returnPeriodsYears[y] as number));
        axis = order.map((i) => c.returnPeriodsYears[i] as number);
        break;
      }
    }
    if (!axis) continue;
    const n = axis.length;
    const data = new Float64Array(count * n).fill(Number.NaN);
    for (let j = 0; j < count; j++) {
      const c = inputs[j]?.[h];
      if (!c || typeof c !== 'object') continue;
      for (let k = 0; k < n; k++) data[j * n + k] = sampleCurveAtRp(c, axis[k] as number);
    }
    batch.curves[h] = { returnPeriodsYears: axis, intensities: data };
  }
  for (const h of SCALAR_HAZARDS) {
    const arr = new Float64Array(count).fill(Number.NaN);
    let seen = false;
    for (let j = 0; j < count; j++) {
      const v = inputs[j]?.[h];
      if (typeof v === 'number' && Number.isFinite(v)) {
        arr[j] = v;
        seen = true;
      }
    }
    if (seen) batch.scalars[h] = arr;
  }
  return batch;
}

/** Intensity of a curve at a return period: exact match, else linear in log(RP), flat beyond the ends; NaN if empty. */
export function sampleCurveAtRp(c: ReturnPeriodCurve, rp: number): number {
  const n = Math.min(c.returnPeriodsYears.length, c.intensities.length);
  if (n === 0) return Number.NaN;
  const idx = Array.from({ length: n }, (_, i) => i).sort((x, y) => (c.returnPeriodsYears[x] as number) - (c.returnPeriodsYears[y] as number));
  const r = (k: number) => c.returnPeriodsYears[idx[k] as number] as number;
  const v = (k: number) => {
    const x = c.intensities[idx[k] as number];
    return typeof x === 'number' ? x : Number.NaN;
  };
  if (rp <= r(0)) return v(0);
  if (rp >= r(n - 1)) return v(n - 1);
  let k = 1;
  while (r(k) < rp) k++;
  if (r(k) === rp) return v(k);
  const t = (Math.log(rp) - Math.log(r(k - 1))) / (Math.log(r(k)) - Math.log(r(k - 1)));
  return v(k - 1) + (v(k) - v(k - 1)) * t;
}
