/**
 * Property risk (spec 001 §3.7, docs/methodology.md "Real estate / property risk"): flood and typhoon scores of a
 * property at its point and in a ring around it, computed by the same engine and hazard layers as the dashboard.
 *
 * - Point score: the engine's hazard severity score (0-100, computeChunk as in the analysis job) of the property at
 *   its coordinates, for one scenario-year. flood_score is the largest of the river-flood, rainfall-flood and
 *   storm-surge scores (the worst flood pathway); typhoon_score is the typhoon score. "No data" (255) counts as 0:
 *   the layers have no exposure there (no tracks reach the cell, no river cell, inland for coastal flood).
 * - Ring: the same property moved to points of the annulus min..max km: RING_SUB_ANNULI equal-width sub-annuli, each
 *   sampled at its mid radius on RING_BEARINGS bearings; the mean is area-weighted (weight = mid radius, the exact
 *   area ratio of equal-width sub-annuli); min and max are over the samples.
 *
 * Pure with respect to I/O: it reads only the hazard layers passed in.
 */
import { HAZARD_KEYS, type AnalysisType, type ScenarioCode } from '@crp/contracts';
import { computeChunk, prepareAssets, scenarioYearKey, SCENARIO_YEARS, type AssetInput, type ScenarioYear } from '@crp/engine';
import type { HazardLayers } from '@crp/hazards';
import { createHazardProvider } from '../analysis/hazard-provider.js';

export const RING_SUB_ANNULI = 4;
export const RING_BEARINGS = 16;
const EARTH_RADIUS_KM = 6371.0088;
const FLOOD_HAZARDS = ['river_flood', 'rainfall_flood', 'storm_surge'] as const;
const N_H = HAZARD_KEYS.length;
const H = (k: (typeof HAZARD_KEYS)[number]) => HAZARD_KEYS.indexOf(k);

export interface RingSample {
  lat: number;
  lng: number;
  radiusKm: number;
  weight: number;
}

/** Point at `distanceKm` on the great circle from (lat, lng) with initial bearing `bearingDeg` (spherical Earth). */
export function destinationPoint(lat: number, lng: number, distanceKm: number, bearingDeg: number): { lat: number; lng: number } {
  const r = Math.PI / 180;
  const d = distanceKm / EARTH_RADIUS_KM;
  const th = bearingDeg * r;
  const p1 = lat * r;
  const l1 = lng * r;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(th));
  const l2 = l1 + Math.atan2(Math.sin(th) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / r, lng: ((l2 / r + 540) % 360) - 180 };
}

/** Sample points of the annulus minKm..maxKm (minKm < maxKm), with area weights summing to 1. */
export function ringSamples(lat: number, lng: number, minKm: number, maxKm: number, subAnnuli = RING_SUB_ANNULI, bearings = RING_BEARINGS): RingSample[] {
  if (!(maxKm > minKm) || minKm < 0) throw new RangeError(`ring ${minKm}..${maxKm} km: min_distance must be >= 0 and below max_distance`);
  const width = (maxKm - minKm) / subAnnuli;
  const out: RingSample[] = [];
  let total = 0;
  for (let k = 0; k < subAnnuli; k++) {
    const radius = minKm + (k + 0.5) * width;
    for (let b = 0; b < bearings; b++) {
      // Alternate sub-annuli are turned by half a step so the samples do not line up on 16 rays.
      const p = destinationPoint(lat, lng, radius, (360 * (b + (k % 2) * 0.5)) / bearings);
      out.push({ ...p, radiusKm: radius, weight: radius });
      total += radius;
    }
  }
  for (const s of out) s.weight /= total;
  return out;
}

/** Area-weighted mean, min and max of per-sample values (rounded to 0.1). */
export function summariseRing(values: readonly number[], weights: readonly number[]): { mean: number; min: number; max: number } {
  let mean = 0;
  let min = Infinity;
  let max = -Infinity;
  values.forEach((v, i) => {
    mean += v * weights[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  });
  const r = (x: number) => Math.round(x * 10) / 10;
  return { mean: r(mean), min: r(min), max: r(max) };
}

export interface SiteScores {
  flood: number;
  typhoon: number;
  floodDriver: (typeof FLOOD_HAZARDS)[number];
  /** 100-year depth (largest flood pathway), m; null if no layer covers the point. */
  floodDepthM: number | null;
  /** 100-year wind, m/s; null outside the typhoon layer. */
  typhoonWindMs: number | null;
}

export function scenarioYearOf(analysisType: AnalysisType, scenario: ScenarioCode, year: number): ScenarioYear {
  const sy = SCENARIO_YEARS.find((s) => s.key === scenarioYearKey(analysisType, scenario, year));
  if (!sy) throw new RangeError(`year: ${year} is not a ${analysisType} year of the engine`);
  return sy;
}

/**
 * Engine scores of one property (its attributes in `asset`) placed at each of `points`: one computeChunk over the
 * scenario-year, exactly as the analysis job does for a portfolio.
 */
export function scoreSites(asset: AssetInput, points: readonly { lat: number; lng: number }[], layers: HazardLayers, sy: ScenarioYear): SiteScores[] {
  const inputs: AssetInput[] = points.map((p) => ({ ...asset, latitude: p.lat, longitude: p.lng }));
  const prepared = prepareAssets(inputs, undefined);
  const chunk = computeChunk(prepared, inputs, 0, inputs.length, [sy], createHazardProvider(undefined, layers));
  const score = (a: number, h: number) => {
    const s = chunk.score[a * N_H + h]!;
    return s === 255 ? 0 : s;
  };
  const intensity = (a: number, h: number) => {
    const v = chunk.intensity?.[a * N_H + h];
    return v === undefined || Number.isNaN(v) ? null : v;
  };
  return inputs.map((_, a) => {
    let flood = -1;
    let driver: SiteScores['floodDriver'] = 'river_flood';
    let depth: number | null = null;
    for (const k of FLOOD_HAZARDS) {
      const s = score(a, H(k));
      if (s > flood) {
        flood = s;
        driver = k;
      }
      const d = intensity(a, H(k));
      if (d !== null && (depth === null || d > depth)) depth = d;
    }
    return { flood, typhoon: score(a, H('typhoon')), floodDriver: driver, floodDepthM: depth, typhoonWindMs: intensity(a, H('typhoon')) };
  });
}

export interface PropertyRiskPoint {
  flood_score: number;
  typhoon_score: number;
  flood: { mean_score: number; min_value: number; max_value: number; min_distance: number; max_distance: number };
  typhoon: { mean_score: number; min_value: number; max_value: number; min_distance: number; max_distance: number };
  flood_driver: string;
  flood_depth_m: number | null;
  typhoon_wind_kmh: number | null;
  ring_samples: number;
}

/** Point and ring scores of one property. */
export function propertyRisk(
  asset: AssetInput & { latitude: number; longitude: number },
  minKm: number,
  maxKm: number,
  layers: HazardLayers,
  sy: ScenarioYear,
): PropertyRiskPoint {
  const ring = ringSamples(asset.latitude, asset.longitude, minKm, maxKm);
  const scores = scoreSites(asset, [{ lat: asset.latitude, lng: asset.longitude }, ...ring], layers, sy);
  const at = scores[0]!;
  const rest = scores.slice(1);
  const w = ring.map((s) => s.weight);
  const f = summariseRing(
    rest.map((s) => s.flood),
    w,
  );
  const t = summariseRing(
    rest.map((s) => s.typhoon),
    w,
  );
  const r2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
  return {
    flood_score: at.flood,
    typhoon_score: at.typhoon,
    flood: { mean_score: f.mean, min_value: f.min, max_value: f.max, min_distance: minKm, max_distance: maxKm },
    typhoon: { mean_score: t.mean, min_value: t.min, max_value: t.max, min_distance: minKm, max_distance: maxKm },
    flood_driver: at.floodDriver,
    flood_depth_m: r2(at.floodDepthM),
    typhoon_wind_kmh: at.typhoonWindMs === null ? null : Math.round(at.typhoonWindMs * 3.6 * 10) / 10,
    ring_samples: ring.length,
  };
}

/**
 * Ground elevation of the ETOPO5 5' cell (m, clamped at 0) from the coastal tiles of the hazard layers
 * (coast_tile_index + coast_elevation, the storm-surge inputs), read the way the sampler reads them. The layers hold
 * elevation only for 1-degree tiles with a coast within about 60 km: elsewhere null.
 */
export function elevationM(layers: HazardLayers, lat: number, lng: number): number | null {
  const index = layers.layer('coast_tile_index')?.data;
  const elev = layers.layer('coast_elevation')?.data;
  if (!index || !elev || Math.abs(lat) > 89.99) return null;
  const tr = Math.min(179, Math.max(0, Math.floor(90 - lat)));
  let tc = Math.floor(lng + 180) % 360;
  if (tc < 0) tc += 360;
  const ti = index[tr * 360 + tc]!;
  if (ti < 0) return null;
  const a = Math.min(11, Math.max(0, Math.floor((90 - lat - tr) * 12)));
  const b = Math.min(11, Math.max(0, Math.floor((lng + 180 - tc) * 12)));
  const v = elev[ti * 144 + a * 12 + b]!;
  return Number.isFinite(v) ? Math.max(0, v) : null;
}
