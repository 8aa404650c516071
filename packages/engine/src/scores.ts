/**
 * Severity scores 0-100 (docs/methodology/engine.md §3.5). Breakpoints from OS-Climate physrisk
 * GenericScoreBasedRiskMeasures: acute hazards on expected annual loss as a fraction of value (very low < 0.01 %,
 * low 0.01-0.2 %, medium 0.2-1 %, high 1-5 %, very high >= 5 %); chronic hazards on the expected loss as a fraction of
 * revenue (< 0.01 %, 0.01-1 %, 1-5 %, 5-10 %, >= 10 %). The five classes map to the product's score bands
 * 0-20-40-60-80-100 (spec 001 §9), log-linear inside each class; 100 is reached at 25 % (acute) / 25 % (chronic).
 * 0 (No Risk) only for an exactly zero loss.
 */
const ACUTE = [0, 1e-4, 2e-3, 1e-2, 5e-2, 0.25];
const CHRONIC = [0, 1e-4, 1e-2, 5e-2, 0.1, 0.25];

const LN_ACUTE = ACUTE.map((v) => Math.log(v));
const LN_CHRONIC = CHRONIC.map((v) => Math.log(v));
const LN_FLOOR = Math.log(1e-7);

function bandScore(r: number, bp: readonly number[], lnbp: readonly number[]): number {
  if (!(r > 0)) return r === 0 ? 0 : Number.NaN;
  const lr = Math.log(r);
  if (r < (bp[1] as number)) {
    // below the first breakpoint: log-linear from 1e-7 (score 1) to the first breakpoint (score 20)
    if (lr <= LN_FLOOR) return 1;
    return 1 + (19 * (lr - LN_FLOOR)) / ((lnbp[1] as number) - LN_FLOOR);
  }
  for (let k = 1; k < bp.length - 1; k++) {
    if (r < (bp[k + 1] as number)) return 20 * k + (20 * (lr - (lnbp[k] as number))) / ((lnbp[k + 1] as number) - (lnbp[k] as number));
  }
  return 100;
}

/** Score of an expected annual loss expressed as a fraction of value (acute scale). */
export function acuteScore(lossFractionOfValue: number): number {
  return bandScore(lossFractionOfValue, ACUTE, LN_ACUTE);
}
/** Score of an expected annual loss expressed as a fraction of revenue (chronic scale). */
export function chronicScore(lossFractionOfRevenue: number): number {
  return bandScore(lossFractionOfRevenue, CHRONIC, LN_CHRONIC);
}

/**
 * Hazard score of one asset: the larger of the acute score of (physical + interruption loss) / value and the chronic
 * score of the interruption loss / revenue. NaN inputs (no data) give NaN. Monotone in both ratios.
 */
export function hazardScore(lossFractionOfValue: number, disruptionFractionOfRevenue: number): number {
  const a = acuteScore(lossFractionOfValue);
  const c = disruptionFractionOfRevenue > 0 ? chronicScore(disruptionFractionOfRevenue) : 0;
  if (Number.isNaN(a) && Number.isNaN(c)) return Number.NaN;
  return Math.max(Number.isNaN(a) ? 0 : a, Number.isNaN(c) ? 0 : c);
}

// ---- fast path for the grid kernel: 64 K-entry lookup tables indexed by the top 17 bits of the float32 pattern
// (sign 0, 8 exponent bits, 8 mantissa bits: 0.4 % relative resolution, monotone). Integer results, no Math.log.
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
function buildLut(f: (r: number) => number): Uint8Array {
  const t = new Uint8Array(65536);
  for (let i = 0; i < 65536; i++) {
    U32[0] = ((i << 15) | (1 << 14)) >>> 0; // bucket midpoint
    const v = F32[0] as number;
    const sc = Number.isFinite(v) ? f(v) : 100;
    t[i] = Number.isNaN(sc) ? 100 : Math.max(1, Math.round(sc));
  }
  return t;
}
const ACUTE_LUT = buildLut(acuteScore);
const CHRONIC_LUT = buildLut(chronicScore);

/** Rounded hazardScore(lossFractionOfValue, disruptionFractionOfRevenue) by table lookup; 255 for NaN. */
export function hazardScoreFast(lossFractionOfValue: number, disruptionFractionOfRevenue: number): number {
  if (lossFractionOfValue !== lossFractionOfValue) return 255;
  let s = 0;
  if (lossFractionOfValue > 0) {
    F32[0] = lossFractionOfValue;
    s = ACUTE_LUT[(U32[0] as number) >>> 15] as number;
  }
  if (disruptionFractionOfRevenue > 0) {
    F32[0] = disruptionFractionOfRevenue;
    const c = CHRONIC_LUT[(U32[0] as number) >>> 15] as number;
    if (c > s) s = c;
  }
  return s;
}
