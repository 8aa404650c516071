/**
 * Offline reverse geocoding: country by point-in-polygon (Natural Earth 1:10m), place and region from the nearest
 * GeoNames place (cities1000, CC BY 4.0), Hong Kong district from the nearest GeoNames place that names its district.
 */
import { nearestShape, shapeIndexAt, shapeInfo } from './countries.js';
import { countriesFile } from './data.js';
import { checkLatLng } from './errors.js';
import { nearestHkPlace, nearestPlace, nearestPlaceAnywhere, places, regionName } from './places.js';

/** A place name is given when the nearest GeoNames place of the same country is within this distance. */
export const PLACE_RADIUS_KM = 50;
/** The region (admin1) is taken from the nearest same-country place within this distance. */
export const REGION_RADIUS_KM = 150;
/** A point at sea is given the nearest country within this distance of its coast. */
export const COAST_RADIUS_KM = 50;

export interface ReverseGeocodeResult {
  /** Most specific name: the place, else the region, else the country, else "Ocean (near X)". */
  name: string;
  /** Nearest GeoNames place (within {@link PLACE_RADIUS_KM} km, same country), or null. */
  place: string | null;
  /** First-level region (GeoNames admin1 name; the district in Hong Kong), or null. */
  region: string | null;
  /** Country common name, or null at sea. */
  country: string | null;
  /** ISO 3166-1 alpha-2, or null at sea (and for disputed areas without an ISO code). */
  country_code: string | null;
  /** ISO 3166-1 alpha-3, or null. */
  country_code3: string | null;
  /** Hong Kong district (one of 18) for points in Hong Kong: see docs/geocoding.md for the method and its limits. */
  district?: string;
  /** "place, region, country" (parts that are null left out), or "Ocean (near X)". */
  label: string;
  /** Distance from the point to the named place in km, or null when no place is named. */
  distance_km: number | null;
  /** How the country was found: inside its polygon, near its coast (within 50 km) or none (ocean). */
  country_match: 'inside' | 'near_coast' | 'none';
}

const round2 = (x: number) => Math.round(x * 100) / 100;
function joinLabel(parts: (string | null | undefined)[]): string {
  const out: string[] = [];
  for (const p of parts) if (p && !out.includes(p)) out.push(p);
  return out.join(', ');
}

/**
 * Reverse geocodes a point: `{ name, place, region, country, country_code, country_code3, district?, label,
 * distance_km }`. Throws {@link GeoQueryError} for coordinates outside -90..90 or non-numbers; longitudes wrap.
 */
export function reverseGeocode(lat: number, lng: number): ReverseGeocodeResult {
  const x = checkLatLng(lat, lng);
  let si = shapeIndexAt(lat, x);
  let match: ReverseGeocodeResult['country_match'] = 'inside';
  if (si < 0) {
    const near = nearestShape(lat, x, COAST_RADIUS_KM);
    if (near) {
      si = near.index;
      match = 'near_coast';
    } else match = 'none';
  }
  if (si < 0) {
    const label = `Ocean (near ${nearestCountryNameForOcean(lat, x)})`;
    return { name: label, place: null, region: null, country: null, country_code: null, country_code3: null, label, distance_km: null, country_match: 'none' };
  }
  const info = shapeInfo(si);
  if (info.country_code === 'HK') {
    const hk = nearestHkPlace(lat, x);
    if (hk) {
      return {
        name: hk.name,
        place: hk.name,
        region: hk.district,
        country: info.country,
        country_code: 'HK',
        country_code3: info.country_code3,
        district: hk.district,
        label: joinLabel([hk.name, hk.district, info.country]),
        distance_km: round2(hk.distanceKm),
        country_match: match,
      };
    }
  }
  const p = places();
  const near = nearestPlace(lat, x, REGION_RADIUS_KM, info.country_code);
  let place: string | null = null;
  let region: string | null = null;
  let distance: number | null = null;
  if (near) {
    region = regionName(near.index);
    if (near.distanceKm <= PLACE_RADIUS_KM) {
      place = p.names[near.index]!;
      distance = round2(near.distanceKm);
    }
  }
  const label = joinLabel([place, region, info.country]);
  return {
    name: place ?? region ?? info.country,
    place,
    region,
    country: info.country,
    country_code: info.country_code,
    country_code3: info.country_code3,
    label,
    distance_km: distance,
    country_match: match,
  };
}

/** "Ocean (near X)": X is the country of the nearest GeoNames place to the centre of the point's 1° cell (cached). */
const oceanCache = new Map<number, string>();
function nearestCountryNameForOcean(lat: number, lng: number): string {
  const cy = Math.min(179, Math.floor(lat + 90));
  const cx = Math.min(359, Math.floor(lng + 180));
  const key = cy * 360 + cx;
  let v = oceanCache.get(key);
  if (v === undefined) {
    const far = nearestPlaceAnywhere(cy - 90 + 0.5, cx - 180 + 0.5);
    const p = places();
    v = countryNameOf(p.country[far.index]!) ?? p.names[far.index]!;
    oceanCache.set(key, v);
  }
  return v;
}

let namesByA2: Map<string, string> | undefined;
function countryNameOf(a2: string): string | undefined {
  if (!namesByA2) {
    namesByA2 = new Map();
    for (const n of countriesFile().names) namesByA2.set(n.a2, n.name);
  }
  return namesByA2.get(a2);
}
