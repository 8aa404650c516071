/**
 * Loads the committed data files of `packages/geo/data/` once, lazily (first use), resolved from this module's URL
 * so that the package works from any working directory. See `format.ts` for the layout and the sources.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { CompaniesFile, CountriesFile, HkDistrictFile, PlacesFile } from './format.js';

/** Directory of the committed data files. */
export const DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

function readGzJson<T>(file: string): T {
  return JSON.parse(gunzipSync(readFileSync(new URL(`../data/${file}`, import.meta.url))).toString('utf8')) as T;
}

/** Memoises a loader: the file is read and parsed on first call only. */
export function lazy<T>(load: () => T): () => T {
  let v: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      v = load();
      done = true;
    }
    return v as T;
  };
}

export const placesFile = lazy(() => readGzJson<PlacesFile>('places.json.gz'));
export const countriesFile = lazy(() => readGzJson<CountriesFile>('countries.json.gz'));
export const hkDistrictFile = lazy(() => readGzJson<HkDistrictFile>('hk-districts.json.gz'));
export const companiesFile = lazy(() => readGzJson<CompaniesFile>('companies.json.gz'));
