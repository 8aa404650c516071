/**
 * Impact distributions with vulnerability uncertainty, in the OS-Climate physrisk formulation (kernel/impact_distrib.py,
 * vulnerability_models/real_estate_models.py): the return-period curve is cut into intensity bins between consecutive
 * return periods (probability 1/RP_i - 1/RP_{i+1}; tails beyond the first and last RP dropped); at each bin centre the
 * vulnerability mean and standard deviation define a Beta distribution whose CDF at the impact-bin edges gives a
 * probability matrix; the impact distribution is the probability-weighted sum of its rows.
 */
import { betaCdfWithLogs, betaFromMoments, lnBeta } from './beta.js';

/** physrisk impact-bin edges: 0, 0.01, 0.1, 0.2, ..., 1.0 (12 edges, 11 impact bins: an 8 x 11 matrix for 9 RPs). */
export const PHYSRISK_IMPACT_EDGES: readonly number[] = [0, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

export interface UncertainCurve {
  intensity: Float64Array;
  mean: Float64Array;
  std: Float64Array;
}

function interp(xs: Float64Array, ys: Float64Array, v: number): number {
  const n = xs.length;
  if (v <= (xs[0] as number)) return ys[0] as number;
  if (v >= (xs[n - 1] as number)) return ys[n - 1] as number;
  let i = 1;
  while ((xs[i] as number) < v) i++;
  const x0 = xs[i - 1] as number;
  return (ys[i - 1] as number) + (((ys[i] as number) - (ys[i - 1] as number)) * (v - x0)) / ((xs[i] as number) - x0);
}

let cachedEdges: readonly number[] | null = null;
let cachedLogs = { lnX: new Float64Array(0), ln1mX: new Float64Array(0) };
function edgeLogs(edges: readonly number[]) {
  if (edges !== cachedEdges) {
    cachedEdges = edges;
    cachedLogs = { lnX: Float64Array.from(edges, (x) => Math.log(x)), ln1mX: Float64Array.from(edges, (x) => Math.log(1 - x)) };
  }
  return cachedLogs;
}

/**
 * Impact distribution of one asset. rps ascending, intensities at those RPs. Writes the impact-bin probabilities into
 * `probOut` (length edges-1) and, if given, the bins x impact-bins matrix into `matrixOut`; returns the mean impact
 * sum_j prob_j (e_j + e_{j+1}) / 2, less the dry bins' share of the first impact bin (a dry bin adds nothing). A bin whose
 * moments admit no Beta is a point mass at its mean.
 */
export function impactDistributionBeta(
  rps: ArrayLike<number>,
  intensities: ArrayLike<number>,
  curve: UncertainCurve,
  edges: readonly number[],
  probOut: Float64Array,
  matrixOut?: Float64Array,
): number {
  const nb = rps.length - 1;
  const ne = edges.length;
  const ni = ne - 1;
  const lnE = edgeLogs(edges);
  probOut.fill(0, 0, ni);
  // probability of bins with no damage at all (dry: mean 0): counted in the first impact bin of the distribution, as
  // physrisk does, but they add nothing to the mean (physrisk's convention for a dry return-period bin)
  let dry = 0;
  for (let b = 0; b < nb; b++) {
    const p = 1 / (rps[b] as number) - 1 / (rps[b + 1] as number);
    const centre = ((intensities[b] as number) + (intensities[b + 1] as number)) / 2;
    const m = interp(curve.intensity, curve.mean, centre);
    const s = interp(curve.intensity, curve.std, centre);
    const ab = betaFromMoments(m, s);
    let prev = 0;
    if (ab) {
      const lb = lnBeta(ab.a, ab.b);
      for (let e = 1; e < ne; e++) {
        const x = edges[e] as number;
        // once the CDF is 1 to double precision it stays 1
        const c = e === ne - 1 || prev >= 1 - 1e-16 ? 1 : x <= 0 ? 0 : betaCdfWithLogs(x, lnE.lnX[e] as number, lnE.ln1mX[e] as number, ab.a, ab.b, lb);
        const q = c - prev;
        prev = c;
        probOut[e - 1] = (probOut[e - 1] as number) + p * q;
        if (matrixOut) matrixOut[b * ni + e - 1] = q;
      }
    } else {
      // point mass at m: falls in the bin [e_j, e_{j+1}) containing it (m = 1 -> last bin; m <= 0 -> first bin)
      let j = 0;
      while (j < ni - 1 && m >= (edges[j + 1] as number)) j++;
      probOut[j] = (probOut[j] as number) + p;
      if (m <= 0) dry += p;
      if (matrixOut) {
        for (let e = 0; e < ni; e++) matrixOut[b * ni + e] = e === j ? 1 : 0;
      }
    }
  }
  let mean = 0;
  for (let j = 0; j < ni; j++) mean += ((probOut[j] as number) * ((edges[j] as number) + (edges[j + 1] as number))) / 2;
  return mean - (dry * ((edges[0] as number) + (edges[1] as number))) / 2;
}
