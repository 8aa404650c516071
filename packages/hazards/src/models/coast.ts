/**
 * Coastal geometry shared by storm surge and sea-level rise: a site's ground elevation and distance inland.
 * Distance: to the nearer of the Natural Earth 1:10m coastline (1' signed-distance layer) and the nearest 5' sea-level
 * water cell (MODIS water at or below sea level, e.g. lagoons and lakes open to the sea that Natural Earth draws as land).
 * Elevation: the ETOPO5 cell mean, reached half a 5' cell (4.63 km) from the coastline and ramped linearly down to 0 m at
 * the coastline (the linear profile whose mean over the cell's first half-width matches the cell centre value).
 */
import { FINE_TILE_CELLS, TILE_CELLS } from '../layer-format.js';
import type { LayerSet } from '../types.js';

/** Half of a 5-arc-minute cell, km (40,008 km / 4320 / 2). */
const HALF_CELL_5M_KM = 40008 / 4320 / 2;

export interface CoastSite {
  elev: number;
  dist: number;
  /**
   * Shelf wind-setup index of the site's 5' cell relative to the US Gulf and Atlantic coast of Xu's (2010) SLOSH fit
   * (coast_shelf_index / params.surgeShelf.refIndexKmPerM, at most 1; 1 where the layer or the value is missing).
   */
  shelf: number;
}

/** Coastal look-ups over the loaded layers: `near(lat, lng)` is the site when a coast is within 50 km, else null. */
export function createCoast(src: LayerSet): { near(lat: number, lng: number): CoastSite | null } {
  const cell5 = coastCell5(src);
  const coastlineKm = coastlineDistance(src);
  /** Coastal site: elevation (m) and distance inland (km); null when no coast within 60 km. */
  const coastCell = (lat: number, lng: number): CoastSite | null => {
    const c = cell5(lat, lng);
    if (!c) return null;
    const f = coastlineKm(lat, lng);
    if (f === f) {
      const df = Math.max(0, f);
      c.dist = c.sea ? df : Math.min(c.dist, df);
      if (c.dist < HALF_CELL_5M_KM) c.elev *= c.dist / HALF_CELL_5M_KM;
    }
    return c;
  };
  return {
    near(lat, lng) {
      // every latitude: the coastal tiles cover the ETOPO5 coast pole to pole (the storm surge stays null where the
      // typhoon layer is, beyond about 62°; sea-level rise, with GIA uplift, is reported at high latitudes too)
      const coast = coastCell(lat, lng);
      return coast && coast.dist <= 50 ? coast : null;
    },
  };
}

/** Distance from a point to the Natural Earth 1:10m coastline, km (bilinear; negative at sea); NaN when unknown. */
function coastlineDistance(src: LayerSet): (lat: number, lng: number) => number {
  // optional (layers built before 2026-11-23 lack them): signed distance to the Natural Earth 1:10m coastline
  const fineIdx = src.optional('coast_fine_tile_index')?.data as Int32Array | undefined;
  const fineL = src.optional('coast_fine_distance');
  const fineD = fineL?.data as Uint8Array | undefined;
  const fineScale = fineL?.e.scale ?? 0.1,
    fineOffset = fineL?.e.offset ?? 0,
    fineNodata = fineL?.e.nodata ?? 255;
  /** Signed km at a 1' cell (global row, col) of the coastline-distance layer; NaN where not stored. */
  const fineAt = (row: number, col: number): number => {
    if (!fineIdx || !fineD || row < 0 || row >= 10800) return NaN;
    col = ((col % 21600) + 21600) % 21600;
    const ti = fineIdx[Math.floor(row / FINE_TILE_CELLS) * 360 + Math.floor(col / FINE_TILE_CELLS)]!;
    if (ti < 0) return NaN;
    const v = fineD[ti * FINE_TILE_CELLS * FINE_TILE_CELLS + (row % FINE_TILE_CELLS) * FINE_TILE_CELLS + (col % FINE_TILE_CELLS)]!;
    return v === fineNodata ? NaN : v * fineScale + fineOffset;
  };
  return (lat, lng) => {
    const y = (90 - lat) * 60 - 0.5,
      x = (lng + 180) * 60 - 0.5;
    const r0 = Math.floor(y),
      c0 = Math.floor(x),
      fy = y - r0,
      fx = x - c0;
    const a = fineAt(r0, c0),
      b = fineAt(r0, c0 + 1),
      c = fineAt(r0 + 1, c0),
      d = fineAt(r0 + 1, c0 + 1);
    if (a === a && b === b && c === c && d === d) return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    // at the edge of the stored band (about 20 km inland): the nearest stored cell, if any
    const n = fineAt(Math.round(y), Math.round(x));
    return n;
  };
}

/** Coastal 5' cell: elevation (m) and distance inland (km); null when no coast within 60 km. */
function coastCell5(src: LayerSet): (lat: number, lng: number) => { elev: number; dist: number; sea: boolean; shelf: number } | null {
  const tileIdx = src.get('coast_tile_index').data as Int32Array;
  const cElev = src.get('coast_elevation').data as Int16Array;
  const cDist = src.get('coast_distance').data as Uint8Array;
  // optional (layers built before 2026-11-28 lack it): the shelf wind-setup index, relative to the reference coast
  const shelfL = src.optional('coast_shelf_index');
  const shelfD = shelfL?.data as Uint8Array | undefined;
  const shelfRef = (src.params.surgeShelf as { refIndexKmPerM?: number } | undefined)?.refIndexKmPerM;
  const shelfScale = shelfL?.e.scale ?? 0.05,
    shelfNodata = shelfL?.e.nodata ?? 255;
  const shelfAt = (k: number): number => {
    if (!shelfD || !shelfRef) return 1;
    const v = shelfD[k]!;
    return v === shelfNodata ? 1 : Math.min(1, (v * shelfScale) / shelfRef);
  };
  return (lat, lng) => {
    const tr = Math.min(179, Math.max(0, Math.floor(90 - lat)));
    let tc = Math.floor(lng + 180) % 360;
    if (tc < 0) tc += 360;
    const ti = tileIdx[tr * 360 + tc]!;
    if (ti < 0) return null;
    const a = Math.min(11, Math.max(0, Math.floor((90 - lat - tr) * 12)));
    const b = Math.min(11, Math.max(0, Math.floor((lng + 180 - tc) * 12)));
    const base = ti * TILE_CELLS * TILE_CELLS;
    const e = cElev[base + a * 12 + b]!,
      d = cDist[base + a * 12 + b]!;
    // land (distance ≥ 1 km). Negative ETOPO5 values on MODIS land are coastline mismatches of the 9 km grid (or
    // polders that dikes protect): clamp to sea level.
    // The stored distance is between cell centres; the coastline lies between the last land and first sea centres, so
    // the distance inland from the coast is about half a 5' cell (4.6 km) less.
    if (d > 0) return { elev: Math.max(0, e), dist: Math.max(0, d - HALF_CELL_5M_KM), sea: false, shelf: shelfAt(base + a * 12 + b) };
    // a sea cell: the site is on the shore; take the lowest land neighbour in the tile, else sea level
    let best = Infinity;
    for (let da = -1; da <= 1; da++)
      for (let db = -1; db <= 1; db++) {
        const aa = a + da,
          bb = b + db;
        if (aa < 0 || aa > 11 || bb < 0 || bb > 11) continue;
        if (cDist[base + aa * 12 + bb]! === 0) continue;
        const v = cElev[base + aa * 12 + bb]!;
        if (v < best) best = v;
      }
    return { elev: best < Infinity ? Math.max(0, best) : 0, dist: 0, sea: true, shelf: shelfAt(base + a * 12 + b) };
  };
}
