/** Area-weighted percentile tables over land cells (the heat and snowfall scores rank a value among them). */

/**
 * Percentiles 0..100 of `valueAt(k)` over the 0.5° land cells north of 60°S (MODIS non-water at the cell's central
 * 0.1° pixel, curve number > 0), each weighted by its area (cos latitude); `valueAt` returns NaN to leave a cell out.
 */
export function landPercentiles(cn: Uint8Array, valueAt: (k: number) => number): Float64Array {
  const W = 720,
    Hh = 360;
  const v: [number, number][] = [];
  for (let r = 0; r < Hh; r++) {
    const lat = 90 - (r + 0.5) * 0.5;
    if (lat < -60) continue; // Antarctica excluded
    const a = Math.cos((lat * Math.PI) / 180);
    for (let c = 0; c < W; c++) {
      const k = r * W + c;
      const c01 = (r * 5 + 2) * 3600 + c * 5 + 2;
      const cnv = cn[c01]!;
      if (cnv === 0) continue; // land cells only (MODIS non-water)
      const x = valueAt(k);
      if (x === x) v.push([x, a]);
    }
  }
  return quantiles(v);
}

function quantiles(v: [number, number][]): Float64Array {
  v.sort((a, b) => a[0] - b[0]);
  const total = v.reduce((s, x) => s + x[1], 0);
  const out = new Float64Array(101);
  let acc = 0,
    j = 0;
  for (let q = 0; q <= 100; q++) {
    const target = (q / 100) * total;
    while (j < v.length - 1 && acc + v[j]![1] < target) {
      acc += v[j]![1];
      j++;
    }
    out[q] = v[j]![0];
  }
  out[0] = v[0]![0];
  out[100] = v[v.length - 1]![0];
  return out;
}
