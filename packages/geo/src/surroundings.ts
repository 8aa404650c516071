/**
 * Socio-economic surroundings of a point (real-estate property risk, docs/methodology.md "Real estate / property risk"):
 * - population within a radius: the sum of the GeoNames cities1000 populations whose point lies within the radius
 *   (a place's whole population is counted at its point; there is no gridded population in the staged data);
 * - GDP per capita of the country: the latest World Bank value (data/gdp-per-capita.json, built by
 *   scripts/build-gdp.ts).
 */
import { readFileSync } from 'node:fs';
import { lazy } from './data.js';
import { haversineKm, places } from './places.js';

/**
 * GeoNames feature codes left out of the population sum: sections of a populated place (PPLX, counted in their city),
 * and historical, abandoned, destroyed or religious places (PPLH, PPLQ, PPLW, PPLCH, PPLR).
 */
export const POPULATION_EXCLUDED_FEATURES: readonly string[] = ['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH', 'PPLR'];

export interface PopulationWithin {
  /** Sum of the counted places' populations. */
  population: number;
  /** Places counted. */
  places: number;
  /** The most populous counted place, if any. */
  largest: { name: string; population: number; distance_km: number } | null;
  /** True when a country's places summed to more than its population and were cut to it. */
  capped: boolean;
}

/**
 * Population of the GeoNames places (population >= 1000) within `radiusKm` of a point, at most the population of each
 * country they are in. Why the cap (issue 37 item 7): GeoNames gives a city-state its whole territory's population at
 * one point and lists its districts beside it (Hong Kong 7.0 M and Kowloon 2.0 M, part of it), so a 10 km ring in
 * Hong Kong summed 9.0 M, more than Hong Kong's 7.5 M (World Bank 2023). The people counted in one country never
 * exceed the country's population (World Bank SP.POP.TOTL, latest year).
 */
export function populationWithin(lat: number, lng: number, radiusKm: number): PopulationWithin {
  const p = places();
  const byCountry = new Map<string, number>();
  const excluded = new Set(POPULATION_EXCLUDED_FEATURES);
  const dLat = radiusKm / 110.574;
  const cosLat = Math.max(Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180), 1e-6);
  const dLng = radiusKm / (111.32 * cosLat);
  let population = 0;
  let count = 0;
  let largest: PopulationWithin['largest'] = null;
  for (let i = 0; i < p.count; i++) {
    const la = p.lat[i]!;
    if (la < lat - dLat || la > lat + dLat) continue;
    let dl = Math.abs(p.lng[i]! - lng);
    if (dl > 180) dl = 360 - dl;
    if (dl > dLng) continue;
    if (excluded.has(p.feature[i]!)) continue;
    const d = haversineKm(lat, lng, la, p.lng[i]!);
    if (d > radiusKm) continue;
    byCountry.set(p.country[i]!, (byCountry.get(p.country[i]!) ?? 0) + p.population[i]!);
    count += 1;
    if (!largest || p.population[i]! > largest.population)
      largest = { name: p.names[i]!, population: p.population[i]!, distance_km: Math.round(d * 100) / 100 };
  }
  let capped = false;
  for (const [iso2, n] of byCountry) {
    const whole = countryPopulation(iso2);
    if (whole !== null && n > whole) capped = true;
    population += whole !== null ? Math.min(n, whole) : n;
  }
  return { population, places: count, largest, capped };
}

interface GdpFile {
  source: string;
  countries: Record<string, { year: number; usd: number; name: string; population?: number; iso2?: string }>;
}
const gdpFile = lazy((): GdpFile => JSON.parse(readFileSync(new URL('../data/gdp-per-capita.json', import.meta.url), 'utf8')) as GdpFile);
const populationByIso2 = lazy(
  () => new Map(Object.values(gdpFile().countries).flatMap((c) => (c.iso2 && c.population ? [[c.iso2, c.population] as const] : []))),
);
/** The World Bank population of a country (latest year with a GDP value) by ISO 3166-1 alpha-2 code, or null. */
export function countryPopulation(iso2: string): number | null {
  return populationByIso2().get(iso2.toUpperCase()) ?? null;
}

/** Latest World Bank GDP per capita (current US$) of a country by ISO 3166-1 alpha-3 code, or null. */
export function gdpPerCapita(iso3: string | null | undefined): { usd: number; year: number; source: string } | null {
  if (!iso3) return null;
  const f = gdpFile();
  const r = f.countries[iso3.toUpperCase()];
  return r ? { usd: r.usd, year: r.year, source: f.source } : null;
}
