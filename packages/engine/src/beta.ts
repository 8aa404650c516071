/**
 * Beta distribution CDF (regularized incomplete beta I_x(a, b)) by the continued fraction of the incomplete beta
 * function (modified Lentz evaluation; Press et al., Numerical Recipes 3rd ed. §6.4; Abramowitz & Stegun 26.5.8),
 * with ln Gamma from the Lanczos approximation (g = 7, n = 9; Lanczos 1964, coefficients as in Godfrey 2001).
 * Written here to keep the engine dependency-free.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Gamma(x) for x > 0. */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let s = LANCZOS[0] as number;
  for (let i = 1; i < 9; i++) s += (LANCZOS[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** ln B(a, b). */
export function lnBeta(a: number, b: number): number {
  return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  const EPS = 1e-12;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/**
 * Regularized incomplete beta I_x(a, b) = Beta(a, b) CDF at x. lnB = ln B(a, b) may be passed when evaluating many x
 * for the same (a, b).
 */
export function betaCdf(x: number, a: number, b: number, lnB = lnBeta(a, b)): number {
  if (!(x > 0)) return 0;
  if (x >= 1) return 1;
  return betaCdfWithLogs(x, Math.log(x), Math.log(1 - x), a, b, lnB);
}

/** betaCdf with ln(x) and ln(1-x) supplied (fixed impact-bin edges: computed once). 0 < x < 1. */
export function betaCdfWithLogs(x: number, lnX: number, ln1mX: number, a: number, b: number, lnB: number): number {
  const front = Math.exp(a * lnX + b * ln1mX - lnB);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Beta parameters from a mean and standard deviation on [0, 1] (method of moments):
 * k = m(1-m)/s^2 - 1, a = m k, b = (1-m) k. Returns null when the distribution degenerates to a point mass
 * (s = 0, m <= 0, m >= 1) or s^2 >= m(1-m) (no Beta has those moments: caller treats as point mass at m).
 */
export function betaFromMoments(mean: number, sd: number): { a: number; b: number } | null {
  if (!(sd > 0) || !(mean > 0) || !(mean < 1)) return null;
  const k = (mean * (1 - mean)) / (sd * sd) - 1;
  if (!(k > 0)) return null;
  return { a: mean * k, b: (1 - mean) * k };
}
