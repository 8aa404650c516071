/**
 * Shelf wind-setup index of the storm surge (hazards §3.2): how much wind setup the sea in front of a coast can build.
 *
 * The steady wind setup of an open coast grows across the shelf as dη/dx = τ/(ρ g D(x)) (the wind-stress balance of the
 * bathystrophic storm-tide method, Bodine 1971, CERC TM-35; Stewart, Introduction to Physical Oceanography, eq. 17.4),
 * so η ∝ ∫ dx / D over the traverse: a wide, shallow shelf (the US Gulf and Atlantic coasts whose SLOSH runs Xu (2010)
 * fitted) builds a high surge, a narrow island shelf that drops to hundreds of metres within a few kilometres very
 * little. The index is that integral averaged over every approach direction: I = R · mean(1 / max(D, D_MIN)) over the
 * ETOPO5 sea cells within R of the cell (km per m). The surge model scales the wind-setup share of Xu's surge by
 * I / I_ref (at most 1), I_ref the median index of the US Gulf and Atlantic coast.
 */
import { TILE_CELLS } from '../../src/layer-format.js';
import { H5, KM_PER_5MIN, W5, type Terrain } from './terrain.js';

/** Radius of the averaging disc, km: the scale of a tropical cyclone's surge-generating wind field (a few radii of maximum wind, 20-60 km). */
export const SHELF_RADIUS_KM = 50;
/** Floor on the ETOPO5 depth, m: 5' sea cells at the shore average land and water; no wind setup integral to a 0 m depth. */
export const SHELF_MIN_DEPTH_M = 5;
/**
 * Reference coast: the continental US Gulf and Atlantic coast from the Rio Grande to Cape Cod (the SLOSH basins of
 * Xu 2010), ETOPO5 land cells within 10 km of the sea; the Bahamas and Mexico excluded.
 */
export const SHELF_REFERENCE = { south: 24.5, north: 42, west: -98, east: -69.5, coastKm: 10 } as const;

/** Coastal 1° tiles: tiles holding a land cell within 60 km of the sea (the tiles of coast_elevation / coast_distance). */
export function coastalTiles(t: Terrain): number[] {
  const tiles: number[] = [];
  for (let tr = 0; tr < 180; tr++)
    for (let tc = 0; tc < 360; tc++) {
      let keep = false;
      for (let r = tr * 12; r < tr * 12 + 12 && !keep; r++)
        for (let c = tc * 12; c < tc * 12 + 12; c++) {
          const i = r * W5 + c;
          if (t.land[i] && t.distKm[i]! <= 60) {
            keep = true;
            break;
          }
        }
      if (keep) tiles.push(tr * 360 + tc);
    }
  return tiles;
}

/**
 * The shelf index I (km/m) at a 5' cell (row, col); NaN where no sea cell lies within the radius. Row prefix sums of
 * the sea-cell count and of 1/D (columns doubled for the wrap at 180°) make each disc a sum of one span per row.
 */
export function shelfIndexer(t: Terrain): (row: number, col: number) => number {
  const W2 = 2 * W5 + 1;
  const cnt = new Float64Array(H5 * W2),
    inv = new Float64Array(H5 * W2);
  for (let r = 0; r < H5; r++)
    for (let k = 0; k < 2 * W5; k++) {
      const i = r * W5 + (k % W5);
      const sea = t.land[i] ? 0 : 1;
      cnt[r * W2 + k + 1] = cnt[r * W2 + k]! + sea;
      inv[r * W2 + k + 1] = inv[r * W2 + k]! + (sea ? 1 / Math.max(SHELF_MIN_DEPTH_M, -t.elev[i]!) : 0);
    }
  const dr = Math.ceil(SHELF_RADIUS_KM / KM_PER_5MIN);
  return (row, col) => {
    let s = 0,
      n = 0;
    for (let r = Math.max(0, row - dr); r <= Math.min(H5 - 1, row + dr); r++) {
      const dyKm = (r - row) * KM_PER_5MIN;
      const half = SHELF_RADIUS_KM * SHELF_RADIUS_KM - dyKm * dyKm;
      if (half < 0) continue;
      const dx = KM_PER_5MIN * Math.cos(((90 - (r + 0.5) / 12) * Math.PI) / 180);
      const dc = Math.min((W5 >> 1) - 1, Math.floor(Math.sqrt(half) / Math.max(dx, 1e-6)));
      const a = (col - dc + W5) % W5, // the span [a, b) of the doubled row
        b = a + 2 * dc + 1;
      const base = r * W2;
      n += cnt[base + b]! - cnt[base + a]!;
      s += inv[base + b]! - inv[base + a]!;
    }
    return n ? (SHELF_RADIUS_KM * s) / n : NaN;
  };
}

/** The index in every cell of the coastal tiles (tile-major, 144 cells a tile, as coast_elevation) and the reference I_ref. */
export function buildShelfIndex(t: Terrain, tiles: number[]): { index: Float32Array; refIndexKmPerM: number; refCells: number } {
  const n144 = TILE_CELLS * TILE_CELLS;
  const shelfIndexAt = shelfIndexer(t);
  const index = new Float32Array(tiles.length * n144);
  tiles.forEach((tile, ti) => {
    const tr = Math.floor(tile / 360),
      tc = tile % 360;
    for (let a = 0; a < TILE_CELLS; a++) for (let b = 0; b < TILE_CELLS; b++) index[ti * n144 + a * TILE_CELLS + b] = shelfIndexAt(tr * 12 + a, tc * 12 + b);
  });
  const ref: number[] = [];
  const R = SHELF_REFERENCE;
  for (let r = Math.floor((90 - R.north) * 12); r < Math.ceil((90 - R.south) * 12); r++)
    for (let c = Math.floor((R.west + 180) * 12); c < Math.ceil((R.east + 180) * 12); c++) {
      const i = r * W5 + c;
      if (!t.land[i] || t.distKm[i]! > R.coastKm) continue;
      const lat = 90 - (r + 0.5) / 12,
        lon = -180 + (c + 0.5) / 12;
      if (lat < 27.5 && lon > -79.5) continue; // the Bahamas
      if (lat < 25.9 && lon < -96.5) continue; // Mexico south of the Rio Grande
      const v = shelfIndexAt(r, c);
      if (v === v) ref.push(v);
    }
  ref.sort((x, y) => x - y);
  return { index, refIndexKmPerM: ref[Math.floor(ref.length / 2)]!, refCells: ref.length };
}
