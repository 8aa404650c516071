/** Small statistics helpers for the build. */

/** Lanczos approximation of Γ(x) (Numerical Recipes, g = 7). */
export function gamma(x: number): number {
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  x -= 1;
  let a = c[0]!;
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i]! / (x + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * a;
}

export interface Gev {
  loc: number;
  scale: number;
  k: number;
}

/** GEV fit by L-moments (Hosking 1990, J. R. Stat. Soc. B 52:105; Hosking & Wallis 1997 approximation for k). */
export function fitGevLmoments(sample: number[]): Gev {
  const x = [...sample].sort((a, b) => a - b);
  const n = x.length;
  let b0 = 0,
    b1 = 0,
    b2 = 0;
  for (let i = 0; i < n; i++) {
    b0 += x[i]!;
    b1 += (i / (n - 1)) * x[i]!;
    b2 += ((i * (i - 1)) / ((n - 1) * (n - 2))) * x[i]!;
  }
  b0 /= n;
  b1 /= n;
  b2 /= n;
  const l1 = b0,
    l2 = 2 * b1 - b0,
    l3 = 6 * b2 - 6 * b1 + b0;
  const t3 = l3 / l2;
  const c = 2 / (3 + t3) - Math.log(2) / Math.log(3);
  const k = 7.859 * c + 2.9554 * c * c;
  const scale = (l2 * k) / ((1 - Math.pow(2, -k)) * gamma(1 + k));
  const loc = l1 - (scale * (1 - gamma(1 + k))) / k;
  return { loc, scale, k };
}

/** GEV quantile for return period T (years) of annual maxima (Hosking parameterisation). */
export function gevReturnLevel(g: Gev, T: number): number {
  const y = -Math.log(1 - 1 / T);
  return Math.abs(g.k) < 1e-6 ? g.loc - g.scale * Math.log(y) : g.loc + (g.scale / g.k) * (1 - Math.pow(y, g.k));
}

/** Ordinary least-squares slope. */
export function olsSlope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n,
    my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxy / sxx;
}
