/**
 * River network, drainage area and flood stage inputs on the 5' grid (docs/methodology/hazards.md §3.4).
 *
 * - Network: the WDBII rivers of GSHHG 2.3.7 (Wessel & Smith 1996, JGR 101:8741), full resolution, as Debian's
 *   `gmt-gshhg-full` package installs them (`/usr/share/gmt-gshhg/binned_river_f.nc`, GMT's binned netCDF-4 format),
 *   river levels 0-7 (double-lined, permanent and intermittent rivers; canals 8-10 left out), plus the Natural Earth
 *   1:50m river and lake centre lines.
 * - Drainage area: mapped rivers burned into ETOPO5 (stream burning, Saunders 1999; Lindsay 2016, Hydrol. Process.
 *   30:846), depressions filled and flow directions assigned by Priority-Flood (Barnes, Lehman & Mulla 2014, Computers
 *   & Geosciences 62:117), areas accumulated downstream.
 * - HAND: the height of a land cell above the river cell its flow path reaches first (Rennó et al. 2008, Remote Sens.
 *   Environ. 112:3469), or above a river cell of its 3×3 neighbourhood (a 9 km DEM misplaces valleys by a cell),
 *   whichever gives the larger 1,000-year flood depth; beyond the 1,000-year stage of every candidate: no floodplain.
 */
import { existsSync, readFileSync } from 'node:fs';
import { File as Hdf5File } from 'jsfive';
import { readText } from './io.js';
import { W5, H5, KM_PER_5MIN, type Terrain } from './terrain.js';

/** Where Debian's gmt-gshhg-full (2.3.7-6) installs the full-resolution WDBII rivers; GSHHG_RIVERS overrides. */
export const WDBII_RIVERS_PATH = process.env.GSHHG_RIVERS ?? '/usr/share/gmt-gshhg/binned_river_f.nc';
/** WDBII river levels used (GMT `coast -I` numbering): 0 double-lined, 1-4 permanent, 5-7 intermittent rivers. */
export const WDBII_MAX_LEVEL = 7;
/**
 * Bankfull depth against drainage area, D_bf = 0.30·A^0.213 (m, A km²): Bieger, Rathjens, Allen & Arnold (2015),
 * JAWRA 51:842, nationwide US regression (coefficients as quoted in references-2.md §6.2, flagged there for checking
 * against the paper).
 */
export const BANKFULL_DEPTH = { coef: 0.3, exp: 0.213 } as const;
/**
 * Bankfull width against drainage area, W_bf = 2.70·A^0.352 (m, A km²): Bieger et al. (2015), the same nationwide US
 * regression as BANKFULL_DEPTH (coefficients as quoted in references-2.md §6.2, flagged there for checking).
 */
export const BANKFULL_WIDTH = { coef: 2.7, exp: 0.352 } as const;
/** Manning's n of the river channel and of the floodplain: CaMa-Flood defaults PMANRIV = 0.03, PMANFLD = 0.10
 * (Yamazaki et al. 2011, WRR 47:W04501; CaMa-Flood namelist &NPARAM). */
export const MANNING_N = { channel: 0.03, floodplain: 0.1 } as const;
/** At-a-station depth exponent d ∝ Q^f, f = 0.40 (Leopold & Maddock 1953, USGS Prof. Paper 252, mean of US rivers). */
export const STAGE_DISCHARGE_EXP = 0.4;

/** Stage above bankfull (m) of a river of bankfull depth `dbf` at discharge ratio q = Q_T/Q_2 (0 at or below bankfull). */
export function stageAboveBankfull(dbf: number, q: number): number {
  return q > 1 ? dbf * (Math.pow(q, STAGE_DISCHARGE_EXP) - 1) : 0;
}

export interface RiverNet {
  /** 1 where a mapped river crosses the 5' cell. */
  mask: Uint8Array;
  /** Where the WDBII file came from (absent: Natural Earth only). */
  wdbii: { path: string; points: number; segments: number } | null;
}

function markLine(m: Uint8Array, xs: ArrayLike<number>, ys: ArrayLike<number>, n: number): void {
  const mark = (lng: number, lat: number) => {
    const r = Math.floor((90 - lat) * 12),
      c = ((Math.floor((lng + 180) * 12) % W5) + W5) % W5;
    if (r >= 0 && r < H5) m[r * W5 + c] = 1;
  };
  for (let i = 0; i + 1 < n; i++) {
    const x0 = xs[i]!,
      y0 = ys[i]!,
      x1 = xs[i + 1]!,
      y1 = ys[i + 1]!;
    const k = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / 0.01));
    for (let j = 0; j <= k; j++) mark(x0 + ((x1 - x0) * j) / k, y0 + ((y1 - y0) * j) / k);
  }
  if (n === 1) mark(xs[0]!, ys[0]!);
}

/**
 * Reads GMT's binned river file: 1° bins (row-major from 90°N, columns from 0°E), each with segments whose points are
 * unsigned 16-bit offsets (1/65535 of a bin) from the bin's south-west corner (GMT gmt_shore.c conventions).
 */
function markWdbii(m: Uint8Array, path: string): { points: number; segments: number } {
  const buf = readFileSync(path);
  const f = new Hdf5File(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer, path);
  const v = (k: string) => f.get(k).value;
  const binMin = v('Bin_size_in_minutes')[0]!;
  const nx = v('N_bins_in_360_longitude_range')[0]!;
  const firstSeg = v('Id_of_first_segment_in_a_bin'),
    nSeg = v('N_segments_in_a_bin');
  const nPts = v('N_points_for_a_segment'),
    level = v('Hierarchial_level_of_a_segment'),
    firstPt = v('Id_of_first_point_in_a_segment');
  const dx = v('Relative_longitude_from_SW_corner_of_bin'),
    dy = v('Relative_latitude_from_SW_corner_of_bin');
  const size = binMin / 60;
  const xs = new Float64Array(65536),
    ys = new Float64Array(65536);
  let points = 0,
    segments = 0;
  for (let b = 0; b < nSeg.length; b++) {
    const lat0 = 90 - (Math.floor(b / nx) + 1) * size,
      lon0 = (b % nx) * size;
    for (let s = firstSeg[b]!; s < firstSeg[b]! + nSeg[b]!; s++) {
      if (level[s]! > WDBII_MAX_LEVEL) continue;
      const n = Math.min(nPts[s]!, xs.length);
      for (let k = 0; k < n; k++) {
        const lon = lon0 + ((dx[firstPt[s]! + k]! & 0xffff) / 65535) * size;
        xs[k] = lon > 180 ? lon - 360 : lon;
        ys[k] = lat0 + ((dy[firstPt[s]! + k]! & 0xffff) / 65535) * size;
      }
      // a segment crossing the antimeridian in longitude units is split by the bin layout already
      markLine(m, xs, ys, n);
      points += n;
      segments++;
    }
  }
  return { points, segments };
}

/** Rasterises the WDBII rivers (when the Debian file is present) and the Natural Earth 1:50m centre lines. */
export function riverNetwork(dir: string, wdbiiPath = WDBII_RIVERS_PATH): RiverNet {
  const mask = new Uint8Array(W5 * H5);
  const gj = JSON.parse(readText(dir, 'natural-earth/ne_50m_rivers_lake_centerlines.geojson.gz')) as {
    features: { geometry: { type: string; coordinates: unknown } | null }[];
  };
  const line = (coords: number[][]) =>
    markLine(
      mask,
      coords.map((p) => p[0]!),
      coords.map((p) => p[1]!),
      coords.length,
    );
  for (const f of gj.features) {
    if (!f.geometry) continue;
    if (f.geometry.type === 'LineString') line(f.geometry.coordinates as number[][]);
    else if (f.geometry.type === 'MultiLineString') for (const l of f.geometry.coordinates as number[][][]) line(l);
  }
  const wdbii = existsSync(wdbiiPath) ? { path: wdbiiPath, ...markWdbii(mask, wdbiiPath) } : null;
  return { mask, wdbii };
}

/** Min-heap of cell indices keyed by a float (Priority-Flood queue). */
class CellHeap {
  private idx = new Int32Array(1 << 16);
  private key = new Float64Array(1 << 16);
  size = 0;
  push(i: number, k: number): void {
    if (this.size === this.idx.length) {
      const ni = new Int32Array(this.size * 2),
        nk = new Float64Array(this.size * 2);
      ni.set(this.idx);
      nk.set(this.key);
      this.idx = ni;
      this.key = nk;
    }
    let p = this.size++;
    while (p > 0) {
      const q = (p - 1) >> 1;
      if (this.key[q]! <= k) break;
      this.idx[p] = this.idx[q]!;
      this.key[p] = this.key[q]!;
      p = q;
    }
    this.idx[p] = i;
    this.key[p] = k;
  }
  /** Pops the lowest cell; its key is left in `lastKey`. */
  lastKey = 0;
  pop(): number {
    const top = this.idx[0]!;
    this.lastKey = this.key[0]!;
    const n = --this.size;
    const i = this.idx[n]!,
      k = this.key[n]!;
    let p = 0;
    for (;;) {
      let c = 2 * p + 1;
      if (c >= n) break;
      if (c + 1 < n && this.key[c + 1]! < this.key[c]!) c++;
      if (this.key[c]! >= k) break;
      this.idx[p] = this.idx[c]!;
      this.key[p] = this.key[c]!;
      p = c;
    }
    this.idx[p] = i;
    this.key[p] = k;
    return top;
  }
}

/** Burn offset (m): larger than any relief, so a mapped river cell is always routed before unmapped land. */
const BURN_M = 1e5;

function neighbours(i: number, out: Int32Array): number {
  const r = Math.floor(i / W5),
    c = i - r * W5;
  let n = 0;
  for (let dr = -1; dr <= 1; dr++) {
    const rr = r + dr;
    if (rr < 0 || rr >= H5) continue;
    for (let dc = -1; dc <= 1; dc++) {
      if (!dr && !dc) continue;
      out[n++] = rr * W5 + ((c + dc + W5) % W5);
    }
  }
  return n;
}

export interface Drainage {
  /** Downstream cell (-1: drains to the sea). */
  down: Int32Array;
  /** Land cells from the sea upwards (every cell after its downstream cell). */
  order: Int32Array;
  /** Upstream drainage area, km². */
  areaKm2: Float64Array;
}

/** Priority-Flood from the sea over the river-burned DEM: flow directions, topological order and drainage area. */
export function drainage(t: Terrain, rivers: Uint8Array): Drainage {
  const N = W5 * H5;
  const down = new Int32Array(N).fill(-1);
  const done = new Uint8Array(N);
  const order = new Int32Array(N);
  let no = 0;
  const heap = new CellHeap();
  const nb = new Int32Array(8);
  const keyOf = (i: number) => t.elev[i]! - (rivers[i] ? BURN_M : 0);
  for (let i = 0; i < N; i++) {
    if (t.land[i]) continue;
    done[i] = 1;
    const n = neighbours(i, nb);
    for (let k = 0; k < n; k++) {
      const j = nb[k]!;
      if (t.land[j] && !done[j]) {
        done[j] = 1;
        heap.push(j, keyOf(j));
      }
    }
  }
  while (heap.size > 0) {
    const i = heap.pop();
    const level = heap.lastKey;
    order[no++] = i;
    const n = neighbours(i, nb);
    for (let k = 0; k < n; k++) {
      const j = nb[k]!;
      if (done[j] || !t.land[j]) continue;
      done[j] = 1;
      down[j] = i;
      heap.push(j, Math.max(keyOf(j), level));
    }
  }
  const areaKm2 = new Float64Array(N);
  for (let k = 0; k < no; k++) {
    const i = order[k]!;
    const lat = 90 - (Math.floor(i / W5) + 0.5) / 12;
    areaKm2[i] = KM_PER_5MIN * KM_PER_5MIN * Math.cos((lat * Math.PI) / 180);
  }
  for (let k = no - 1; k >= 0; k--) {
    const i = order[k]!;
    const d = down[i]!;
    if (d >= 0) areaKm2[d] = areaKm2[d]! + areaKm2[i]!;
  }
  return { down, order: order.subarray(0, no), areaKm2 };
}

export interface RiverStageInputs {
  /** Height above the governing river's bankfull water level, m (NaN: outside every river's 1,000-year stage). */
  hand: Float32Array;
  /** Bankfull depth of the governing river, m (0 where hand is NaN). */
  bankfullM: Float32Array;
  /** Drainage area of the governing river cell, km² (diagnostics). */
  areaKm2: Float32Array;
  /** Sub-grid relief of the cell, m (0 where hand is NaN): see subgridRelief. */
  reliefM: Float32Array;
}

/**
 * Window radius (cells) up to which subgridRelief looks for the nearest independent ETOPO5 samples: 6 cells = 0.5°, the
 * grid of the global runoff and routing models whose flood volumes the global flood maps downscale (PCR-GLOBWB /
 * GLOFRIS, Winsemius et al. 2013).
 */
export const RELIEF_MAX_RADIUS = 6;

/**
 * Sub-grid relief R of a 5' cell (m): the ground slope the DEM resolves times one cell width, from the smallest
 * (2k+1)×(2k+1) neighbourhood of ETOPO5 cells (k = 1 … RELIEF_MAX_RADIUS; land, heights clipped at sea level) whose
 * heights are not all equal: R = (max − min)/(2k). For k = 1 this is half the range of the 3×3 neighbourhood: on a
 * plane or a V-shaped valley the range over one cell is half the range over the centres of its 3×3 block (two cell
 * widths). Larger k only where the 3×3 block is flat: ETOPO5 carries coarser source grids on much of the land (the
 * Gangetic plain is blocks of 10-20 cells at one height, 91 m, 98.5 m, 114 m), so nine equal cells are copies of one
 * source sample, not a measured flat, and the slope between the nearest distinct samples is the best estimate the DEM
 * gives. Flat out to 0.5° (deltas at 0 m) stays 0. APPROXIMATION (no finer DEM is staged). Used with the sub-grid
 * floodplain profile of CaMa-Flood (Yamazaki, Kanae, Kim & Oki 2011, Water Resour. Res. 47:W04501: flooded area and
 * depth from the distribution of ground heights within the unit catchment), here taken as uniform over [HAND, HAND + R]
 * (docs/methodology/hazards.md §3.4).
 */
export function subgridRelief(t: Terrain, i: number): number {
  const r0 = Math.floor(i / W5),
    c0 = i - r0 * W5;
  let lo = Math.max(0, t.elev[i]!),
    hi = lo;
  for (let k = 1; k <= RELIEF_MAX_RADIUS; k++) {
    // the ring at Chebyshev distance k
    for (let dr = -k; dr <= k; dr++) {
      const rr = r0 + dr;
      if (rr < 0 || rr >= H5) continue;
      const step = dr === -k || dr === k ? 1 : 2 * k;
      for (let dc = -k; dc <= k; dc += step) {
        const j = rr * W5 + ((c0 + dc + W5) % W5);
        if (!t.land[j]) continue;
        const e = Math.max(0, t.elev[j]!);
        if (e < lo) lo = e;
        if (e > hi) hi = e;
      }
    }
    if (hi > lo) return (hi - lo) / (2 * k);
  }
  return 0;
}

/**
 * For every land cell: the governing river (the flow-path drainage cell or a river cell of the 3×3 neighbourhood,
 * whichever gives the deeper 1,000-year flood), its bankfull depth from drainage area, and the cell's HAND above it.
 * `q1000` is the largest discharge ratio Q_T/Q_2 the layer must reach (the floodplain bound).
 */
export function riverStageInputs(t: Terrain, net: RiverNet, q1000: number): RiverStageInputs {
  const N = W5 * H5;
  const dr = drainage(t, net.mask);
  // nearest downstream river cell along the flow path (order: downstream first)
  const target = new Int32Array(N).fill(-1);
  for (const i of dr.order) target[i] = net.mask[i] ? i : dr.down[i]! >= 0 ? target[dr.down[i]!]! : -1;
  const hand = new Float32Array(N).fill(NaN);
  const bankfullM = new Float32Array(N);
  const areaKm2 = new Float32Array(N);
  const reliefM = new Float32Array(N);
  const dbf = (k: number) => BANKFULL_DEPTH.coef * Math.pow(dr.areaKm2[k]!, BANKFULL_DEPTH.exp);
  const nb = new Int32Array(8);
  for (const i of dr.order) {
    const e = Math.max(0, t.elev[i]!);
    let best = 0,
      bestK = -1,
      bestH = 0;
    const consider = (k: number) => {
      if (k < 0 || !net.mask[k]) return;
      const h = Math.max(0, e - Math.max(0, t.elev[k]!));
      const d = stageAboveBankfull(dbf(k), q1000) - h;
      if (d > best) {
        best = d;
        bestK = k;
        bestH = h;
      }
    };
    consider(target[i]!);
    consider(i);
    const n = neighbours(i, nb);
    for (let k = 0; k < n; k++) consider(nb[k]!);
    if (bestK < 0) continue;
    hand[i] = bestH;
    bankfullM[i] = dbf(bestK);
    areaKm2[i] = dr.areaKm2[bestK]!;
    reliefM[i] = subgridRelief(t, i);
  }
  return { hand, bankfullM, areaKm2, reliefM };
}
