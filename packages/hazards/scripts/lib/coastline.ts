/**
 * Signed distance to the Natural Earth 1:10m coastline (world-atlas land-10m TopoJSON, Natural Earth 4.1.0), stored on a
 * 1-arc-minute grid (≈ 1.85 km) in 1° tiles near the coast. Land is positive, sea negative (km).
 *
 * Method: the land polygons are rasterised on a 30-arc-second grid (≈ 0.93 km; cell centre inside a ring by even-odd
 * crossings along the row), a Euclidean distance transform (Felzenszwalb & Huttenlocher 2012, separable, with the
 * east-west step shrinking as cos(lat)) gives each land cell the distance to the nearest sea cell centre and vice versa,
 * less half a cell (the coastline lies between the two centres). Each 1' value is the mean of its four 30" cells (the
 * signed distance at the 1' cell centre); the point sampler interpolates it bilinearly.
 */
import { readRaw } from './io.js';

export const FINE_PER_DEG = 60; // stored grid: 1'
const SUB = 2; // 30" mask cells per stored cell
const MASK_PER_DEG = FINE_PER_DEG * SUB; // 120
const HALO = 24; // 30" cells (12' ≈ 22 km) of context around each tile
/** Storage code: d_km = code * 0.1 - 5; 255 = farther than 20.4 km inland (or unknown). */
export const FINE_SCALE_KM = 0.1;
export const FINE_OFFSET_KM = -5;
export const FINE_NODATA = 255;
const KM_PER_DEG = 40008 / 360;

interface Topo {
  arcs: number[][][];
  transform: { scale: [number, number]; translate: [number, number] };
  objects: Record<string, { type: string; geometries: { type: string; arcs: unknown }[] }>;
}

/** Sorted longitudes where land-polygon edges cross the centre latitude of every 30" row (index 0 at 90°N). */
export function coastCrossings(dir: string): Float64Array[] {
  const topo = JSON.parse(readRaw(dir, 'natural-earth/world-atlas_land-10m.topo.json.gz').toString('utf8')) as Topo;
  const [sx, sy] = topo.transform.scale,
    [tx, ty] = topo.transform.translate;
  const arcs = topo.arcs.map((a) => {
    const out = new Float64Array(a.length * 2);
    let x = 0,
      y = 0;
    a.forEach((p, i) => {
      x += p[0]!;
      y += p[1]!;
      out[2 * i] = x * sx + tx;
      out[2 * i + 1] = y * sy + ty;
    });
    return out;
  });
  const nRows = 180 * MASK_PER_DEG;
  const lists: number[][] = Array.from({ length: nRows }, () => []);
  const useArc = (k: number) => {
    const a = arcs[k < 0 ? ~k : k]!;
    for (let i = 0; i + 3 < a.length; i += 2) {
      const x0 = a[i]!,
        y0 = a[i + 1]!,
        x1 = a[i + 2]!,
        y1 = a[i + 3]!;
      if (y0 === y1) continue;
      const lo = Math.min(y0, y1),
        hi = Math.max(y0, y1);
      // rows whose centre latitude yc satisfies lo <= yc < hi (half-open: a vertex is counted once)
      const rFirst = Math.max(0, Math.ceil((90 - hi) * MASK_PER_DEG - 0.5));
      const rLast = Math.min(nRows - 1, Math.floor((90 - lo) * MASK_PER_DEG - 0.5));
      for (let r = rFirst; r <= rLast; r++) {
        const yc = 90 - (r + 0.5) / MASK_PER_DEG;
        if (yc < lo || yc >= hi) continue;
        lists[r]!.push(x0 + ((yc - y0) / (y1 - y0)) * (x1 - x0));
      }
    }
  };
  const walk = (g: unknown): void => {
    if (typeof g === 'number') useArc(g);
    else if (Array.isArray(g)) g.forEach(walk);
  };
  for (const o of Object.values(topo.objects)) for (const g of o.geometries) walk(g.arcs);
  return lists.map((l) => Float64Array.from(l).sort());
}

/** 1D squared-distance transform (Felzenszwalb & Huttenlocher) with step `s` between samples. */
function dt1(f: Float64Array, n: number, s: number, d: Float64Array, v: Int32Array, z: Float64Array) {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  const s2 = s * s;
  for (let q = 1; q < n; q++) {
    if (f[q] === Infinity) continue;
    if (f[v[0]!] === Infinity) {
      v[0] = q;
      continue;
    }
    let sp: number;
    for (;;) {
      const p = v[k]!;
      sp = (f[q]! + s2 * q * q - (f[p]! + s2 * p * p)) / (2 * s2 * (q - p));
      if (sp <= z[k]! && k > 0) {
        k--;
        continue;
      }
      break;
    }
    if (sp <= z[k]!) {
      v[k] = q;
      z[k + 1] = Infinity;
      continue;
    }
    k++;
    v[k] = q;
    z[k] = sp;
    z[k + 1] = Infinity;
  }
  if (f[v[0]!] === Infinity) {
    for (let q = 0; q < n; q++) d[q] = Infinity;
    return;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const p = v[k]!;
    d[q] = s2 * (q - p) * (q - p) + f[p]!;
  }
}

/** Squared EDT (km²) of `feature` cells (1) over an n×n window whose rows have east-west steps dxRow and north-south step dy. */
function edt2(feature: Uint8Array, n: number, dxRow: Float64Array, dy: number): Float64Array {
  const g = new Float64Array(n * n);
  const f = new Float64Array(n),
    d = new Float64Array(n),
    z = new Float64Array(n + 1);
  const v = new Int32Array(n);
  for (let c = 0; c < n; c++) {
    for (let r = 0; r < n; r++) f[r] = feature[r * n + c] ? 0 : Infinity;
    dt1(f, n, dy, d, v, z);
    for (let r = 0; r < n; r++) g[r * n + c] = d[r]!;
  }
  const out = new Float64Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) f[c] = g[r * n + c]!;
    dt1(f, n, dxRow[r]!, d, v, z);
    for (let c = 0; c < n; c++) out[r * n + c] = d[c]!;
  }
  return out;
}

export interface FineCoast {
  /** 1° tile index (−1: none), 360×180 north-up. */
  tileIndex: Int32Array;
  /** uint8 codes, 60×60 per tile, tile-major. */
  codes: Uint8Array;
  tiles: number;
}

/**
 * Signed coastline distance for the 1° tiles in `candidates` (tile = row*360 + col); keeps the tiles that hold a land
 * cell within 20 km of the coast. `onlyTiles` restricts the work (rebuild tests).
 */
export function buildFineCoast(dir: string, candidates: number[]): FineCoast {
  const cross = coastCrossings(dir);
  const n = MASK_PER_DEG + 2 * HALO;
  const dy = KM_PER_DEG / MASK_PER_DEG;
  const half = dy / 2;
  const land = new Uint8Array(n * n),
    sea = new Uint8Array(n * n);
  const dxRow = new Float64Array(n);
  const nF = FINE_PER_DEG * FINE_PER_DEG;
  const kept: Uint8Array[] = [];
  const tileIndex = new Int32Array(360 * 180).fill(-1);
  const maxCode = FINE_NODATA - 1;
  for (const tile of candidates) {
    const tr = Math.floor(tile / 360),
      tc = tile % 360;
    const r0 = tr * MASK_PER_DEG - HALO; // global 30" row of window row 0
    const lonW = -180 + tc - HALO / MASK_PER_DEG; // west edge of window column 0
    for (let wr = 0; wr < n; wr++) {
      const gr = r0 + wr;
      const lat = 90 - (Math.min(180 * MASK_PER_DEG - 1, Math.max(0, gr)) + 0.5) / MASK_PER_DEG;
      dxRow[wr] = dy * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
      const xs = gr >= 0 && gr < 180 * MASK_PER_DEG ? cross[gr]! : new Float64Array(0);
      for (let wc = 0; wc < n; wc++) {
        let x = lonW + (wc + 0.5) / MASK_PER_DEG;
        if (x >= 180) x -= 360;
        else if (x < -180) x += 360;
        // even-odd: crossings west of x (binary search)
        let lo = 0,
          hi = xs.length;
        while (lo < hi) {
          const m = (lo + hi) >> 1;
          if (xs[m]! < x) lo = m + 1;
          else hi = m;
        }
        const isLand = (lo & 1) === 1 ? 1 : 0;
        land[wr * n + wc] = isLand;
        sea[wr * n + wc] = 1 - isLand;
      }
    }
    const dSea = edt2(sea, n, dxRow, dy); // for land cells: distance² to the nearest sea centre
    const dLand = edt2(land, n, dxRow, dy);
    const out = new Uint8Array(nF);
    let useful = false;
    for (let a = 0; a < FINE_PER_DEG; a++)
      for (let b = 0; b < FINE_PER_DEG; b++) {
        let s = 0,
          inf = false;
        for (let u = 0; u < SUB; u++)
          for (let w = 0; w < SUB; w++) {
            const i = (HALO + a * SUB + u) * n + HALO + b * SUB + w;
            const d = land[i] ? Math.sqrt(dSea[i]!) - half : -(Math.sqrt(dLand[i]!) - half);
            if (!Number.isFinite(d)) inf = true;
            s += d;
          }
        const dKm = s / (SUB * SUB);
        const code = inf ? FINE_NODATA : Math.round((dKm - FINE_OFFSET_KM) / FINE_SCALE_KM);
        out[a * FINE_PER_DEG + b] = Math.max(0, Math.min(FINE_NODATA, code > maxCode ? FINE_NODATA : code));
        if (!inf && dKm >= 0 && code <= maxCode) useful = true;
      }
    if (useful) {
      tileIndex[tile] = kept.length;
      kept.push(out);
    }
  }
  const codes = new Uint8Array(kept.length * nF);
  kept.forEach((t, i) => codes.set(t, i * nF));
  return { tileIndex, codes, tiles: kept.length };
}
