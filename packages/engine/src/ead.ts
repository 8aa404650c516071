/**
 * Expected annual damage from a return-period curve (docs/methodology/engine.md §2.1).
 *
 * A curve gives intensities I_i exceeded with annual probability p_i = 1/RP_i (RP ascending, so p descending). The
 * damage ratio D(p) = V(I(p)) is integrated over exceedance probability with the trapezoid rule between curve points
 * (the same as physrisk's bin-mean: bin probability p_i - p_{i+1}, impact (V(I_i)+V(I_{i+1}))/2):
 *   EAD = sum_i (p_i - p_{i+1}) (D_i + D_{i+1}) / 2  +  tail
 * Tail extrapolation: rarer than the largest RP the damage is held at D_n (adds p_n D_n; conservative, "constant"),
 * or dropped ("none", the physrisk convention used for the like-for-like benchmark). More frequent than the smallest
 * RP nothing is added (the 2-year event is taken as the onset of damage). Every bin counts, also one whose more frequent
 * end does no damage (as physrisk's ExceedanceCurve.get_probability_bins: bin probability p_i - p_{i+1} for every bin,
 * impact the mean of its edge damages or the damage at its centre). Intensities are made non-decreasing with RP
 * (running maximum) so a noisy curve can never make a rarer event less damaging; damages are clipped to [0, 1].
 */

export type TailRule = 'constant' | 'none';

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
const scratchOut = new Float64Array(2);

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
  }
  // damage non-decreasing in RP (vulnerability is monotone, so this only guards non-monotone custom functions)
  for (let k = 1; k < n; k++) if ((scratchD[k] as number) < (scratchD[k - 1] as number)) scratchD[k] = scratchD[k - 1] as number;
  const prot = options.protectionRpYears;
  integrateExceedance(scratchP, scratchD, n, options.tail ?? 'constant', prot && prot > 1 ? 1 / prot : Infinity, scratchOut);
  const mean = scratchOut[0] as number;
  const variance = Math.max(0, (scratchOut[1] as number) - mean * mean);
  return { mean, sd: Math.sqrt(variance), max: scratchD[n - 1] as number };
}
