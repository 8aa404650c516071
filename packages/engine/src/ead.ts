/**
 * Expected annual damage from a return-period curve (docs/methodology/engine.md §2.1).
 *
 * A curve gives intensities I_i exceeded with annual probability p_i = 1/RP_i (RP ascending, so p descending). The
 * damage ratio D(p) = V(I(p)) is integrated over exceedance probability with the trapezoid rule between curve points
 * (the same as physrisk's bin-mean: bin probability p_i - p_{i+1}, impact (V(I_i)+V(I_{i+1}))/2):
 *   EAD = sum_i (p_i - p_{i+1}) (D_i + D_{i+1}) / 2  +  tail
 * Tail extrapolation: rarer than the largest RP the damage is held at D_n (adds p_n D_n; conservative, "constant"),
 * or dropped ("none", the physrisk convention used for the like-for-like benchmark). A standard of protection at or
 * beyond the largest RP (a 1-in-1,250-yr dike over a curve that ends at 1,000 years) is not a cut of this integral: the
 * events rarer than the standard pass only their excess over the design level, from the curve's growth (beyondStandard).
 * More frequent than the smallest
 * RP nothing is added (the 2-year event is taken as the onset of damage). Every bin counts, also one whose more frequent
 * end does no damage (as physrisk's ExceedanceCurve.get_probability_bins: bin probability p_i - p_{i+1} for every bin,
 * impact the mean of its edge damages or the damage at its centre). Intensities are made non-decreasing with RP
 * (running maximum) so a noisy curve can never make a rarer event less damaging; damages are clipped to [0, 1].
 */

export type TailRule = 'constant' | 'none';

/**
 * 6-point Gauss-Laguerre quadrature, ∫₀^∞ e^(−u) f(u) du ≈ Σ w_i f(u_i) (Abramowitz & Stegun 1964, Table 25.9): the
 * expectation over the events rarer than a standard of protection at or beyond the curve's rarest return period, where
 * u = ln(p_SoP / p) is exponentially distributed.
 */
export const GAUSS_LAGUERRE_U = [0.222846604179, 1.188932101673, 2.992736326059, 5.77514356910451, 9.837467418383, 15.982873980602] as const;
export const GAUSS_LAGUERRE_W = [0.45896467395, 0.417000830772, 0.113373382074, 0.0103991974531, 0.000261017202815, 8.9854790643e-7] as const;

/**
 * Growth of a return-period curve beyond its rarest point: the slope of its last segment per unit ln(RP) (the
 * Gumbel/exponential tail, intensity linear in ln RP), never negative. x: intensities (running maximum) at p (descending).
 */
export function tailSlopePerLnRp(p: ArrayLike<number>, x: ArrayLike<number>, n: number): number {
  if (n < 2) return 0;
  const dx = (x[n - 1] as number) - (x[n - 2] as number);
  const dl = Math.log((p[n - 2] as number) / (p[n - 1] as number));
  return dx > 0 && dl > 0 ? dx / dl : 0;
}

export interface EadResult {
  /** Expected annual damage ratio. */
  mean: number;
  /** Standard deviation of the annual damage ratio (linear-in-p segments; point mass at 0 for the rest). */
  sd: number;
  /** Damage ratio at the rarest return period (used for Maximum Exposure). */
  max: number;
}

/**
 * Integrates damage ratios d[0..n-1] given at exceedance probabilities p[0..n-1] (p strictly decreasing).
 * cutoffP: events more frequent than this probability cause no damage (a standard of protection 1/cutoffP years; CLIMADA
 * `hazard_freq_cutoff`); pass Infinity for none. Writes mean and E[D^2] into out[0], out[1].
 */
export function integrateExceedance(p: ArrayLike<number>, d: ArrayLike<number>, n: number, tail: TailRule, cutoffP: number, out: Float64Array): void {
  let m = 0;
  let m2 = 0;
  const pn = p[n - 1] as number;
  const dn = d[n - 1] as number;
  if (tail === 'constant') {
    const w = pn < cutoffP ? pn : cutoffP;
    m += w * dn;
    m2 += w * dn * dn;
  }
  for (let i = n - 2; i >= 0; i--) {
    const hiP = p[i] as number;
    const loP = p[i + 1] as number;
    if (loP >= cutoffP) break;
    const a = d[i + 1] as number; // damage at loP (rarer)
    let b = d[i] as number; // damage at hiP (more frequent)
    let top = hiP;
    if (hiP > cutoffP) {
      // partial segment: damage interpolated at the cutoff
      b = a + ((b - a) * (cutoffP - loP)) / (hiP - loP);
      top = cutoffP;
    }
    const w = top - loP;
    m += w * (a + b) * 0.5;
    m2 += (w * (a * a + a * b + b * b)) / 3;
  }
  out[0] = m;
  out[1] = m2;
}

const scratchD = new Float64Array(64);
const scratchP = new Float64Array(64);
const scratchX = new Float64Array(64);
const scratchOut = new Float64Array(2);

/**
 * Events rarer than a standard of protection that lies at or beyond the curve's rarest return period (docs/methodology/
 * engine.md §1.7): the curve, extended linearly in ln RP with the slope s of its last segment, exceeds the design level
 * I(p_cut) by s·ln(p_cut/p); that excess is what passes the defence. Mean = p_cut·E[D(s·u)], u ~ Exp(1) (Gauss-Laguerre).
 */
function beyondStandard(cut: number, s: number, damage: (excess: number) => number): void {
  let m = 0,
    m2 = 0;
  for (let i = 0; i < GAUSS_LAGUERRE_U.length; i++) {
    const d = damage(s * GAUSS_LAGUERRE_U[i]!);
    m += GAUSS_LAGUERRE_W[i]! * d;
    m2 += GAUSS_LAGUERRE_W[i]! * d * d;
  }
  scratchOut[0] = cut * m;
  scratchOut[1] = cut * m2;
}

/**
 * EAD of a return-period curve through a vulnerability function. Returns NaN fields when the curve has no data
 * (empty, or any NaN intensity). RPs need not be sorted. Curves longer than 64 points are rejected.
 */
export function eadFromCurve(
  returnPeriodsYears: ArrayLike<number>,
  intensities: ArrayLike<number>,
  vulnerability: (intensity: number) => number,
  options: { tail?: TailRule; protectionRpYears?: number } = {},
): EadResult {
  const n = Math.min(returnPeriodsYears.length, intensities.length);
  if (n === 0 || n > 64) return { mean: Number.NaN, sd: Number.NaN, max: Number.NaN };
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => (returnPeriodsYears[a] as number) - (returnPeriodsYears[b] as number));
  let runMax = -Infinity;
  for (let k = 0; k < n; k++) {
    const i = idx[k] as number;
    const rp = returnPeriodsYears[i] as number;
    const x = intensities[i] as number;
    if (!(rp >= 1) || Number.isNaN(x)) return { mean: Number.NaN, sd: Number.NaN, max: Number.NaN };
    if (x > runMax) runMax = x;
    const v = vulnerability(runMax);
    scratchD[k] = v > 0 ? (v < 1 ? v : 1) : 0;
    scratchP[k] = 1 / rp;
    scratchX[k] = runMax;
  }
  // damage non-decreasing in RP (vulnerability is monotone, so this only guards non-monotone custom functions)
  for (let k = 1; k < n; k++) if ((scratchD[k] as number) < (scratchD[k - 1] as number)) scratchD[k] = scratchD[k - 1] as number;
  const prot = options.protectionRpYears;
  const cut = prot && prot > 1 ? 1 / prot : Infinity;
  if (cut <= (scratchP[n - 1] as number)) {
    // a standard at or beyond the rarest return period: only the excess of rarer events over the design level passes
    beyondStandard(cut, tailSlopePerLnRp(scratchP, scratchX, n), (x) => {
      const v = vulnerability(x);
      return v > 0 ? (v < 1 ? v : 1) : 0;
    });
  } else integrateExceedance(scratchP, scratchD, n, options.tail ?? 'constant', cut, scratchOut);
  const mean = scratchOut[0] as number;
  const variance = Math.max(0, (scratchOut[1] as number) - mean * mean);
  return { mean, sd: Math.sqrt(variance), max: scratchD[n - 1] as number };
}
