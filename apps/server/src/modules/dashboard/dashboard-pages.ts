/**
 * The page endpoints' reads of a selection (asset table, heat map, map): sorted orders, searches, rows and map
 * clusters, from the selection the answer's steps built (SelectionData).
 */
import { HAZARD_KEYS, hazardByLabel, type DashboardAssetPageRow, type DashboardAssetRow } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, N_HAZARDS } from '@crp/engine';
import { badRequest } from '../../lib/errors.js';
import { scoreMatrixOf } from './dashboard-cache.js';
import { IDENTITY_COLUMNS, LOSS_FIELDS, ROW_KEYS, STORED_COLUMNS, labelOf, r2 } from './dashboard-columns.js';
import type { Selection } from './dashboard-selection.js';

/**
 * Stable LSD radix sort (16-bit digits) of positions by the unsigned key (hi, lo) of each position: ties keep their
 * order in `pos`. `lo` null: hi alone.
 */
export function radixSort(pos: Int32Array, hi: Uint32Array, lo: Uint32Array | null): Int32Array {
  const n = pos.length;
  let src: Int32Array = pos,
    dst: Int32Array = new Int32Array(n);
  const count = new Uint32Array(65537);
  const passes: [Uint32Array, number][] = lo
    ? [
        [lo, 0],
        [lo, 16],
        [hi, 0],
        [hi, 16],
      ]
    : [
        [hi, 0],
        [hi, 16],
      ];
  for (const [k, shift] of passes) {
    count.fill(0);
    for (let j = 0; j < n; j++) count[((k[src[j]!]! >>> shift) & 0xffff) + 1]!++;
    if (count.some((c) => c === n)) continue; // every key has this digit: the pass would not move anything
    for (let b = 0; b < 65536; b++) count[b + 1]! += count[b]!;
    for (let j = 0; j < n; j++) {
      const p = src[j]!;
      dst[count[(k[p]! >>> shift) & 0xffff]!++] = p;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/**
 * Value of sortable column k for selected asset n, as a number (NaN = empty) or a lower-case string. Loss columns are
 * empty when the tier does not allow portfolio losses (the caller is refused sorting by them, see assetPage).
 */
export function sortValues(sel: Selection, key: string, residual: boolean): { num: Float64Array } | { str: string[] } {
  const { R, idx, pa, assetScores } = sel;
  const N = idx.length;
  const num = new Float64Array(N);
  if (key === 'position') {
    for (let n = 0; n < N; n++) num[n] = n;
    return { num };
  }
  if (key === 'climatic_score' || key === 'climate_score') {
    for (let n = 0; n < N; n++) num[n] = assetScores[n] ?? NaN;
    return { num };
  }
  const f = LOSS_FIELDS[key as keyof typeof LOSS_FIELDS];
  if (f !== undefined) {
    for (let n = 0; n < N; n++) {
      const v = r2(pa[idx[n]! * ASSET_BATCH_FIELDS + f]!);
      num[n] = v ?? NaN;
    }
    return { num };
  }
  const h = hazardByLabel(key)?.key;
  if (h && sel.hazards.includes(h)) {
    const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, residual);
    const hh = HAZARD_KEYS.indexOf(h);
    for (let n = 0; n < N; n++) {
      const v = m[idx[n]! * N_HAZARDS + hh]!;
      num[n] = v === 255 ? NaN : v;
    }
    return { num };
  }
  const read = key in IDENTITY_COLUMNS ? IDENTITY_COLUMNS[key as keyof typeof IDENTITY_COLUMNS] : STORED_COLUMNS[key as keyof typeof STORED_COLUMNS];
  if (!read) throw badRequest(`sort: '${key}' is not a column.`, 'sort');
  const first = N ? read(R.assets[idx[0]!]!) : null;
  if (typeof first === 'string' || key === 'name' || key === 'type' || key === 'country_code' || key === 'construction') {
    const str: string[] = new Array(N);
    for (let n = 0; n < N; n++) {
      const v = read(R.assets[idx[n]!]!);
      str[n] = v === null || v === undefined ? '' : String(v).toLowerCase();
    }
    return { str };
  }
  for (let n = 0; n < N; n++) {
    const v = read(R.assets[idx[n]!]!) as number | boolean | null;
    num[n] = v === null || v === undefined ? NaN : Number(v);
  }
  return { num };
}

/** The filled positions radix sorted by their keys, then the empty ones in position order (typed arrays throughout: no million-entry lists). */
function sortedThenEmpty(filled: Int32Array, empty: Int32Array, hi: Uint32Array, lo: Uint32Array | null): Int32Array {
  const out = new Int32Array(filled.length + empty.length);
  out.set(radixSort(filled, hi, lo));
  out.set(empty, filled.length);
  return out;
}

/** Positions sorted by numbers (NaN last in either order): their order-preserving 64-bit patterns, radix sorted. */
function numberOrder(num: Float64Array, desc: boolean): Int32Array {
  const N = num.length;
  const hi = new Uint32Array(N),
    lo = new Uint32Array(N);
  const filled = new Int32Array(N),
    empty = new Int32Array(N);
  let nf = 0,
    ne = 0;
  const f = new Float64Array(1),
    u = new Uint32Array(f.buffer);
  for (let n = 0; n < N; n++) {
    const x = num[n]!;
    if (x !== x) {
      empty[ne++] = n;
      continue;
    }
    f[0] = x + 0; // -0 sorts with 0
    let h = u[1]!,
      l = u[0]!;
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (desc) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    hi[n] = h;
    lo[n] = l;
    filled[nf++] = n;
  }
  return sortedThenEmpty(filled.subarray(0, nf), empty.subarray(0, ne), hi, lo);
}

/** Each value's rank among the distinct values in code-unit order (TEXT_EMPTY: empty), and the number of distinct values. */
const TEXT_EMPTY = 0xffffffff;
function textRanks(str: string[]): { rank: Uint32Array; distinct: number } {
  // positions sorted by their text, then ranked in one pass: at a million names about 0.65 s, against 1.5 s for a Set
  // of the distinct values sorted and looked up in a Map (hashing a million new strings twice)
  const rank = new Uint32Array(str.length);
  const filled: number[] = [];
  for (let n = 0; n < str.length; n++) {
    if (str[n] === '') rank[n] = TEXT_EMPTY;
    else filled.push(n);
  }
  filled.sort((a, b) => {
    const x = str[a]!,
      y = str[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  let distinct = 0;
  for (let j = 0; j < filled.length; j++) {
    if (j > 0 && str[filled[j]!] !== str[filled[j - 1]!]) distinct++;
    rank[filled[j]!] = distinct;
  }
  return { rank, distinct: filled.length > 0 ? distinct + 1 : 0 };
}

/**
 * Positions sorted by text (empty last in either order): each value's rank among the distinct values, radix sorted.
 * The ranks of a selection of every asset are kept per analysis (they do not depend on the filters): sorting a million
 * names took 1.3-2.1 s each time a new filter set was sorted by name.
 */
function textOrder(sel: Selection, key: string, str: () => string[], desc: boolean): Int32Array {
  const c = sel.cachedResults;
  const every = sel.idx === c.every?.idx32;
  const ranks = every ? (c.textRanks ??= new Map()).get(key) : undefined;
  const { rank, distinct } = ranks ?? textRanks(str());
  if (every && !ranks) c.textRanks!.set(key, { rank, distinct });
  const N = rank.length;
  const hi = new Uint32Array(N);
  const filled = new Int32Array(N),
    empty = new Int32Array(N);
  let nf = 0,
    ne = 0;
  for (let n = 0; n < N; n++) {
    const r = rank[n]!;
    if (r === TEXT_EMPTY) {
      empty[ne++] = n;
      continue;
    }
    hi[n] = desc ? distinct - 1 - r : r;
    filled[nf++] = n;
  }
  return sortedThenEmpty(filled.subarray(0, nf), empty.subarray(0, ne), hi, null);
}

/**
 * Positions 0..N-1 sorted by a column: empty values last in either order, ties in upload order; kept per selection.
 * A stable radix sort of 64-bit keys (numbers as order-preserving bit patterns, text as its rank among the distinct
 * values): a comparison sort of a million positions with a comparator function takes seconds, this about 0.1 s.
 */
export function orderOf(sel: Selection, key: string, order: 'asc' | 'desc', residual: boolean): Int32Array {
  return sel.orders.getOrMake(
    `${key}|${order}|${residual}`,
    () => {
      const N = sel.idx.length;
      if (key === 'position') {
        const out = new Int32Array(N);
        for (let n = 0; n < N; n++) out[n] = order === 'asc' ? n : N - 1 - n;
        return out;
      }
      // a text column's ranks kept for this analysis: no values to read again
      if (sel.idx === sel.cachedResults.every?.idx32 && sel.cachedResults.textRanks?.has(key)) return textOrder(sel, key, () => [], order === 'desc');
      const v = sortValues(sel, key, residual);
      return 'num' in v ? numberOrder(v.num, order === 'desc') : textOrder(sel, key, () => v.str, order === 'desc');
    },
    (o) => o.byteLength,
  );
}

/** Positions of a sorted order whose name or property type contains the search (lower case). */
export function searchOf(sel: Selection, order: Int32Array, orderKey: string, search: string): Int32Array {
  const q = search.toLowerCase();
  if (!q) return order;
  return sel.searches.getOrMake(
    `${orderKey}|${q}`,
    () => {
      const hay = (sel.haystack ??= Array.from(sel.idx, (i) => {
        const a = sel.R.assets[i]!;
        return `${a.name.toLowerCase()}\u0000${(a.property_type ?? '').toLowerCase()}`;
      }));
      const out: number[] = [];
      for (let j = 0; j < order.length; j++) {
        const n = order[j]!;
        if (hay[n]!.includes(q)) out.push(n);
      }
      return Int32Array.from(out);
    },
    (o) => o.byteLength,
  );
}

/** One selected asset's asset-table row (the same values as the answer's asset_table and assets columns). */
export function pageRowOf(sel: Selection, n: number): DashboardAssetPageRow {
  const { R, idx, pa, assetScores } = sel;
  const a = R.assets[idx[n]!]!;
  const losses = sel.allowed.portfolio_losses === true;
  const row = {} as Record<string, unknown>;
  for (const k of ROW_KEYS) {
    if (k in IDENTITY_COLUMNS) row[k] = IDENTITY_COLUMNS[k as keyof typeof IDENTITY_COLUMNS](a);
    else if (k in STORED_COLUMNS) row[k] = STORED_COLUMNS[k as keyof typeof STORED_COLUMNS](a);
    else if (k === 'climatic_score') row[k] = assetScores[n];
    else row[k] = losses ? r2(pa[idx[n]! * ASSET_BATCH_FIELDS + LOSS_FIELDS[k as keyof typeof LOSS_FIELDS]]!) : null;
  }
  const hazards: Record<string, number | null> = {};
  // The per-hazard scores are the heat map's and the risk map's: sent when the tier shows either.
  if (sel.allowed.climate_heatmap !== true && sel.allowed.asset_level_risk_map !== true) return { ...(row as DashboardAssetRow), position: n, hazards };
  const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, sel.mitigation);
  for (let k = 0; k < sel.hazards.length; k++) {
    const v = m[idx[n]! * N_HAZARDS + sel.hk[k]!]!;
    hazards[labelOf(sel.hazards[k]!)] = v === 255 ? null : v;
  }
  return { ...(row as DashboardAssetRow), position: n, hazards };
}

/** [west, south, east, north] of the selected assets with a position (null: none), kept on the selection. */
export function boundsOf(sel: Selection): [number, number, number, number] | null {
  if (sel.bounds !== undefined) return sel.bounds;
  // every asset (in any order): the same bounds for every filter, kept per analysis
  const all = sel.idx.length === sel.R.assets.length;
  if (all && sel.cachedResults.bounds !== undefined) return (sel.bounds = sel.cachedResults.bounds);
  let w = Infinity,
    so = Infinity,
    e = -Infinity,
    no = -Infinity;
  for (let n = 0; n < sel.idx.length; n++) {
    const a = sel.R.assets[sel.idx[n]!]!;
    if (!Number.isFinite(a.latitude) || !Number.isFinite(a.longitude)) continue;
    w = Math.min(w, a.longitude);
    e = Math.max(e, a.longitude);
    so = Math.min(so, a.latitude);
    no = Math.max(no, a.latitude);
  }
  sel.bounds = w <= e ? [w, so, e, no] : null;
  if (all) sel.cachedResults.bounds = sel.bounds;
  return sel.bounds;
}

/** A grid cell of the map: its assets' mean position, their number, the highest and the mean of their scores. */
export interface MapCluster {
  latitude: number;
  longitude: number;
  count: number;
  score: number | null;
  mean: number | null;
  name: string | null;
}

/**
 * Grid clusters of the selected assets in a viewport (cells of about 48 px at the zoom, 512-pixel tiles as MapLibre
 * draws), each at its assets' mean position, with the highest score in it and the mean of its scores (what the map
 * colours it by: coloured by the highest, nearly every cluster of a world view is red).
 */
export function mapClusters(
  sel: Selection,
  score: (n: number) => number | null,
  bbox: readonly [number, number, number, number] | undefined,
  zoom: number,
): MapCluster[] {
  const { R, idx } = sel;
  // the whole world of every asset: the cells are the same for every filter, kept per analysis and zoom
  if (!bbox && isEveryAssetInOrder(sel)) return worldClusters(sel, score, Math.floor(zoom));
  const [w, s, e, no] = bbox ?? [-180, -90, 180, 90];
  const cell = (360 / (512 * 2 ** Math.floor(zoom))) * 48; // degrees per ~48 screen pixels
  const cells = new Map<string | number, { lat: number; lon: number; count: number; score: number | null; sum: number; scored: number; first: number }>();
  // a cell's key: a number while the cell indexes fit 2^24 (zoom up to about 21), else text (a Map keeps first-seen order either way)
  const numeric = 180 / cell < 2 ** 24;
  for (let n = 0; n < idx.length; n++) {
    const a = R.assets[idx[n]!]!;
    const x = a.longitude,
      y = a.latitude;
    if (!(x >= w && x <= e && y >= s && y <= no)) continue;
    const key = numeric ? (Math.floor(x / cell) + 2 ** 24) * 2 ** 26 + Math.floor(y / cell) + 2 ** 24 : `${Math.floor(x / cell)}:${Math.floor(y / cell)}`;
    const sc = score(n);
    const c = cells.get(key);
    if (!c) cells.set(key, { lat: y, lon: x, count: 1, score: sc, sum: sc ?? 0, scored: sc === null ? 0 : 1, first: n });
    else {
      c.lat += y;
      c.lon += x;
      c.count++;
      if (sc !== null) {
        c.sum += sc;
        c.scored++;
        if (c.score === null || sc > c.score) c.score = sc;
      }
    }
  }
  return [...cells.values()].map((c) => ({
    latitude: c.lat / c.count,
    longitude: c.lon / c.count,
    count: c.count,
    score: c.score,
    mean: c.scored ? Math.round(c.sum / c.scored) : null,
    name: c.count === 1 ? R.assets[idx[c.first]!]!.name : null,
  }));
}

/** The selection is every asset in position order (not a `count` selection sorted by loss), checked once per selection. */
function isEveryAssetInOrder(sel: Selection): boolean {
  if (sel.idx.length !== sel.R.assets.length) return false;
  return (sel.inOrder ??= sel.idx.every((v, n) => v === n));
}

/** Every asset's cell at a zoom of the world view (-1: no position), the cells in first-seen order with their sums. */
interface WorldGrid {
  cellOf: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  count: Int32Array;
  first: Int32Array;
}

/**
 * mapClusters of every asset over the whole world, with the cells of each asset kept per analysis and zoom (at a
 * million assets the loop over the asset rows and the cell map took about 0.3 s a query; the scores are then the only
 * per-query work). The same cells, order and sums as mapClusters' own loop (every asset in position order).
 */
function worldClusters(sel: Selection, score: (n: number) => number | null, z: number): MapCluster[] {
  const { R, idx } = sel;
  const grids = (sel.cachedResults.worldGrids ??= new Map());
  let g = grids.get(z) as WorldGrid | undefined;
  if (!g) {
    const cell = (360 / (512 * 2 ** z)) * 48;
    const numeric = 180 / cell < 2 ** 24;
    const index = new Map<string | number, number>();
    const cellOf = new Int32Array(R.assets.length).fill(-1);
    const lat: number[] = [],
      lon: number[] = [],
      count: number[] = [],
      first: number[] = [];
    for (let i = 0; i < R.assets.length; i++) {
      const a = R.assets[i]!;
      const x = a.longitude,
        y = a.latitude;
      if (!(x >= -180 && x <= 180 && y >= -90 && y <= 90)) continue;
      const key = numeric ? (Math.floor(x / cell) + 2 ** 24) * 2 ** 26 + Math.floor(y / cell) + 2 ** 24 : `${Math.floor(x / cell)}:${Math.floor(y / cell)}`;
      let c = index.get(key);
      if (c === undefined) {
        index.set(key, (c = lat.length));
        lat.push(y);
        lon.push(x);
        count.push(1);
        first.push(i);
      } else {
        lat[c] = lat[c]! + y;
        lon[c] = lon[c]! + x;
        count[c] = count[c]! + 1;
      }
      cellOf[i] = c;
    }
    g = { cellOf, lat: Float64Array.from(lat), lon: Float64Array.from(lon), count: Int32Array.from(count), first: Int32Array.from(first) };
    grids.set(z, g);
  }
  const K = g.lat.length;
  const best = new Float64Array(K).fill(NaN),
    sum = new Float64Array(K),
    scored = new Int32Array(K);
  for (let n = 0; n < idx.length; n++) {
    const c = g.cellOf[idx[n]!]!;
    if (c < 0) continue;
    const sc = score(n);
    if (sc === null) continue;
    sum[c] = sum[c]! + sc;
    scored[c] = scored[c]! + 1;
    if (!(sc <= best[c]!)) best[c] = sc;
  }
  const out: MapCluster[] = new Array(K);
  for (let c = 0; c < K; c++) {
    const cnt = g.count[c]!;
    out[c] = {
      latitude: g.lat[c]! / cnt,
      longitude: g.lon[c]! / cnt,
      count: cnt,
      score: Number.isNaN(best[c]!) ? null : best[c]!,
      mean: scored[c] ? Math.round(sum[c]! / scored[c]!) : null,
      name: cnt === 1 ? R.assets[g.first[c]!]!.name : null,
    };
  }
  return out;
}
