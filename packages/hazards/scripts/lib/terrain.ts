/**
 * Terrain layers at 5' (ETOPO5, NOAA NGDC 1988): elevation, land mask, distance to coast and slope (the river network
 * and HAND are in rivers.ts).
 */
import { readNetcdf } from './io.js';
import { GRID_5M } from '../../src/layer-format.js';

export const W5 = GRID_5M.width; // 4320
export const H5 = GRID_5M.height; // 2160
/** Mean length of 5 arc-minutes of latitude, km (Earth meridian 40,008 km / 4320). */
export const KM_PER_5MIN = 40008 / 4320;

export interface Terrain {
  /** Elevation, m, north-up, lon -180..180, cell centres. */
  elev: Float32Array;
  land: Uint8Array;
  /** Distance from a land cell to the nearest ocean cell centre, km (0 for ocean). */
  distKm: Float32Array;
}

/**
 * `landMask01` (optional): a 0.1° land/water raster (MODIS IGBP, 0 = water). When given, land is where MODIS sees land,
 * and land is where MODIS sees land or ETOPO5 is above sea level: polders below sea level (the Netherlands) stay land and
 * rivers and lakes above sea level are not "sea"; otherwise land is ETOPO5 elevation > 0.
 */
export function loadTerrain(dir: string, landMask01?: Uint8Array): Terrain {
  const nc = readNetcdf(dir, 'etopo5-global-dem/etopo5.cdf.gz', ['ROSE', 'ETOPO05_X', 'ETOPO05_Y']);
  const rose = nc.ROSE!.data; // (Y=2161 S->N, X=4320 from 0°E)
  const nx = 4320;
  const elev = new Float32Array(W5 * H5);
  for (let r = 0; r < H5; r++) {
    const yTop = 2160 - r; // node at lat 90 - r/12
    const yBot = yTop - 1;
    for (let c = 0; c < W5; c++) {
      // cell centre lon = -180 + (c + 0.5)/12; nodes at k/12 east of 0°
      const k0 = (c + 2160) % nx; // node at lon -180 + c/12 (== 180 + c/12 mod 360)
      const k1 = (k0 + 1) % nx;
      const v = (rose[yTop * nx + k0]! + rose[yTop * nx + k1]! + rose[yBot * nx + k0]! + rose[yBot * nx + k1]!) / 4;
      elev[r * W5 + c] = v;
    }
  }
  const land = new Uint8Array(W5 * H5);
  for (let r = 0; r < H5; r++)
    for (let c = 0; c < W5; c++) {
      const i = r * W5 + c;
      if (landMask01) {
        const r01 = Math.floor(((r + 0.5) / 12) * 10),
          c01 = Math.floor(((c + 0.5) / 12) * 10);
        land[i] = landMask01[r01 * 3600 + c01] || elev[i]! > 0 ? 1 : 0; // sea = MODIS water at or below sea level
      } else land[i] = elev[i]! > 0 ? 1 : 0;
    }
  const distKm = chamferDistance(land);
  return { elev, land, distKm };
}

/** Two-pass 8-neighbour chamfer distance (km) from ocean cells, with the east-west step shrinking as cos(lat). */
export function chamferDistance(land: Uint8Array): Float32Array {
  const d = new Float32Array(W5 * H5);
  for (let i = 0; i < d.length; i++) d[i] = land[i] ? 1e9 : 0;
  const dy = KM_PER_5MIN;
  const dxRow = new Float64Array(H5);
  for (let r = 0; r < H5; r++) dxRow[r] = KM_PER_5MIN * Math.cos(((90 - (r + 0.5) / 12) * Math.PI) / 180);
  const relax = (i: number, j: number, s: number) => {
    const v = d[j]! + s;
    if (v < d[i]!) d[i] = v;
  };
  for (let pass = 0; pass < 2; pass++) {
    for (let r = 0; r < H5; r++) {
      const dx = dxRow[r]!;
      const dg = Math.hypot(dx, dy);
      for (let c = 0; c < W5; c++) {
        const i = r * W5 + c;
        if (!land[i]) continue;
        const cl = (c - 1 + W5) % W5,
          cr = (c + 1) % W5;
        relax(i, r * W5 + cl, dx);
        if (r > 0) {
          relax(i, (r - 1) * W5 + c, dy);
          relax(i, (r - 1) * W5 + cl, dg);
          relax(i, (r - 1) * W5 + cr, dg);
        }
      }
      // wrap-around fix along the row
      for (let c = W5 - 1; c >= 0; c--) {
        const i = r * W5 + c;
        if (land[i]) relax(i, r * W5 + ((c + 1) % W5), dx);
      }
    }
    for (let r = H5 - 1; r >= 0; r--) {
      const dx = dxRow[r]!;
      const dg = Math.hypot(dx, dy);
      for (let c = W5 - 1; c >= 0; c--) {
        const i = r * W5 + c;
        if (!land[i]) continue;
        const cl = (c - 1 + W5) % W5,
          cr = (c + 1) % W5;
        relax(i, r * W5 + cr, dx);
        if (r < H5 - 1) {
          relax(i, (r + 1) * W5 + c, dy);
          relax(i, (r + 1) * W5 + cl, dg);
          relax(i, (r + 1) * W5 + cr, dg);
        }
      }
      for (let c = 0; c < W5; c++) {
        const i = r * W5 + c;
        if (land[i]) relax(i, r * W5 + ((c - 1 + W5) % W5), dx);
      }
    }
  }
  return d;
}

/** Slope as tan(β) from central differences of the 5' elevation (land only). */
export function slopeTan(t: Terrain): Float32Array {
  const s = new Float32Array(W5 * H5);
  for (let r = 1; r < H5 - 1; r++) {
    const dx = 2 * 1000 * KM_PER_5MIN * Math.cos(((90 - (r + 0.5) / 12) * Math.PI) / 180);
    const dy = 2 * 1000 * KM_PER_5MIN;
    for (let c = 0; c < W5; c++) {
      const i = r * W5 + c;
      if (!t.land[i]) continue;
      const e = (k: number) => Math.max(0, t.elev[k]!);
      const gx = (e(r * W5 + ((c + 1) % W5)) - e(r * W5 + ((c - 1 + W5) % W5))) / Math.max(dx, 1);
      const gy = (e((r - 1) * W5 + c) - e((r + 1) * W5 + c)) / dy;
      s[i] = Math.hypot(gx, gy);
    }
  }
  return s;
}
