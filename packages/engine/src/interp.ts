/** Piecewise-linear curves, evaluated with flat extrapolation beyond both ends. */

export interface PiecewiseLinear {
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Citation of the published source of the points. */
  readonly source: string;
}

export function piecewiseLinear(x: readonly number[], y: readonly number[], source: string): PiecewiseLinear {
  if (x.length !== y.length || x.length === 0) throw new Error('piecewiseLinear: x and y must be non-empty and equal length');
  for (let i = 1; i < x.length; i++) if (!((x[i] as number) > (x[i - 1] as number))) throw new Error('piecewiseLinear: x must increase');
  return { x: Float64Array.from(x), y: Float64Array.from(y), source };
}

/** Linear interpolation; x below the first point gives y[0], above the last gives y[n-1]; NaN gives NaN. */
export function evalPiecewise(c: PiecewiseLinear, v: number): number {
  const xs = c.x;
  const ys = c.y;
  const n = xs.length;
  if (v <= (xs[0] as number)) return v === v ? (ys[0] as number) : Number.NaN;
  if (v >= (xs[n - 1] as number)) return ys[n - 1] as number;
  let i = 1;
  while ((xs[i] as number) < v) i++;
  const x0 = xs[i - 1] as number;
  const x1 = xs[i] as number;
  const y0 = ys[i - 1] as number;
  return y0 + (((ys[i] as number) - y0) * (v - x0)) / (x1 - x0);
}

/** Make y non-decreasing (running maximum): a damage curve never falls with intensity. */
export function monotoneCurve(c: PiecewiseLinear): PiecewiseLinear {
  const y = Float64Array.from(c.y);
  for (let i = 1; i < y.length; i++) if ((y[i] as number) < (y[i - 1] as number)) y[i] = y[i - 1] as number;
  return { x: c.x, y, source: c.source };
}

export const clamp01 = (v: number): number => (v > 0 ? (v < 1 ? v : 1) : 0);

/**
 * Uniform lookup table of a piecewise-linear curve on [x0, x0 + step*(n-1)]: exact (up to rounding) when every
 * breakpoint of the curve lies on the grid (JRC depths are multiples of 0.01 m), O(1) to evaluate.
 */
export interface UniformTable {
  readonly x0: number;
  readonly invStep: number;
  readonly y: Float64Array;
  readonly last: number;
}

export function uniformTable(c: PiecewiseLinear, step: number): UniformTable {
  const x0 = c.x[0] as number;
  const x1 = c.x[c.x.length - 1] as number;
  const n = Math.round((x1 - x0) / step) + 1;
  const y = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) y[i] = evalPiecewise(c, x0 + i * step);
  y[n] = y[n - 1] as number;
  return { x0, invStep: 1 / step, y, last: n - 1 };
}

/** Evaluate a UniformTable (flat beyond both ends). */
export function evalTable(t: UniformTable, v: number): number {
  const u = (v - t.x0) * t.invStep;
  if (!(u > 0)) return t.y[0] as number;
  if (u >= t.last) return t.y[t.last] as number;
  const i = u | 0;
  const f = u - i;
  const y0 = t.y[i] as number;
  return y0 + ((t.y[i + 1] as number) - y0) * f;
}
