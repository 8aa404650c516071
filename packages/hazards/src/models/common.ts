/** Grid look-ups and indices shared by the hazard models. */
import { HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { GRID_01, GRID_025, GRID_05, GRID_5M } from '../layer-format.js';
import { RPS, type CurveSample, type ScenarioContext } from '../types.js';

export const I100 = RPS.indexOf(100);
export const I10 = RPS.indexOf(10);

/** Index of a hazard in HAZARD_KEYS (the order of CurveSample.values and .scores). */
export const hazardIndex = (k: HazardKey): number => HAZARD_KEYS.indexOf(k);
/** Where each curve hazard's return-period curve sits in CurveSample.curves (times N_RP). */
export const CURVE_INDEX: Partial<Record<HazardKey, number>> = { typhoon: 0, storm_surge: 1, river_flood: 2, rainfall_flood: 3 };

export function cellOf(res: number, w: number, h: number, lat: number, lng: number): number {
  let row = Math.floor((90 - lat) / res);
  if (row >= h) row = h - 1;
  if (row < 0) row = 0;
  let col = Math.floor((lng + 180) / res) % w;
  if (col < 0) col += w;
  return row * w + col;
}

export const idx05 = (lat: number, lng: number): number => cellOf(GRID_05.resDeg, GRID_05.width, GRID_05.height, lat, lng);

/** A point located once on every grid, with its region's scenario changes (filled by locate; reused, no allocation). */
export interface Site {
  lat: number;
  lng: number;
  /** Cell on the 0.5°, 0.25°, 0.1° and 5' grids. */
  c05: number;
  c025: number;
  c01: number;
  c5: number;
  /** The AR6 region's ΔTXx, ΔTNn (°C), ΔRx1day, ΔRx5day (%) at the scenario-year. */
  dTXx: number;
  dTNn: number;
  dRx1: number;
  dRx5: number;
  /** The AR6 region's winter-mean warming (°C) at the scenario-year (ScenarioContext.dTWin). */
  dTWin: number;
  /** The AR6 region's total soil-moisture change (σ of interannual variability, negative = drying) at the scenario-year. */
  dSM: number;
  /** The coastal site (elevation m, distance inland km) when a coast is within 50 km, else null (coast.ts). */
  coast: { elev: number; dist: number; shelf: number } | null;
  /** Relative sea-level rise since 2020 at the point, m (sea-level-rise.ts). */
  slrM: number;
}

export function newSite(): Site {
  return { lat: 0, lng: 0, c05: 0, c025: 0, c01: 0, c5: 0, dTXx: 0, dTNn: 0, dRx1: 0, dRx5: 0, dTWin: 0, dSM: 0, coast: null, slrM: 0 };
}

/** Fills `s` for a point: grid cells and the scenario changes of its AR6 region (`nReg`: the global row); not the coast. */
export function locate(s: Site, region: Uint8Array, nReg: number, lat: number, lng: number, ctx: ScenarioContext): Site {
  s.lat = lat;
  s.lng = lng;
  const c05 = idx05(lat, lng);
  const reg = region[c05]!;
  const r = reg === 255 ? nReg : reg;
  s.c05 = c05;
  s.dTXx = ctx.dTXx[r]!;
  s.dTNn = ctx.dTNn[r]!;
  s.dRx1 = ctx.dRx1[r]!;
  s.dRx5 = ctx.dRx5[r]!;
  s.dTWin = ctx.dTWin[r]!;
  s.dSM = ctx.dSM[r]!;
  s.c025 = cellOf(0.25, GRID_025.width, GRID_025.height, lat, lng);
  s.c01 = cellOf(0.1, GRID_01.width, GRID_01.height, lat, lng);
  s.c5 = cellOf(GRID_5M.resDeg, GRID_5M.width, GRID_5M.height, lat, lng);
  return s;
}

/**
 * A chronic layer stored at the warming offsets `offsets` (°C, params.chronicOffsetsC) for each 0.5° cell: the value
 * at a change dT, linear between offsets and clamped to their range, times the layer's scale.
 */
export function chronicInterp(offsets: number[]): (arr: Uint16Array, cell: number, dT: number, scale: number) => number {
  const nO = offsets.length;
  return (arr, cell, dT, scale) => {
    const x = Math.max(0, Math.min(offsets[nO - 1]!, dT));
    let j = 0;
    while (j < nO - 2 && x > offsets[j + 1]!) j++;
    const t = (x - offsets[j]!) / (offsets[j + 1]! - offsets[j]!);
    return (arr[cell * nO + j]! * (1 - t) + arr[cell * nO + j + 1]! * t) * scale;
  };
}

/**
 * One hazard model: fills its slots of a CurveSample at a located site (value, score and, for curve hazards, the
 * return-period curve), and scores a value on its own (a company's own layer replacing the built-in one).
 */
export interface HazardModel {
  sample(site: Site, ctx: ScenarioContext, out: CurveSample): void;
  scoreOf(value: number): number;
}

export function round4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
