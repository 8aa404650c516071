/**
 * Builds `packages/geo/data/gdp-per-capita.json`: the latest World Bank GDP per capita (current US$) of every country.
 *
 *   npm run build:gdp -w @crp/geo
 *
 * Input (read, never copied): `<GEO_RAW_DIR>/worldbank_gdp_population/gdp_per_capita_current_usd_derived.csv`
 * (GDP NY.GDP.MKTP.CD / population SP.POP.TOTL, World Bank WDI, CC BY 4.0, packaged by datasets/gdp and
 * datasets/population, ODC-PDDL-1.0; see that folder's SOURCE.md). World Bank aggregates (regions, income groups)
 * are dropped: only ISO 3166-1 alpha-3 codes that name a country are kept. For each country the most recent year
 * with a value is kept, with its year, that year's population (SP.POP.TOTL) and the ISO 3166-1 alpha-2 code (GeoNames
 * places carry alpha-2).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsvObjects } from './csv.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(here, '..');
const repoRoot = resolve(pkgDir, '../..');
const RAW = resolve(process.env.GEO_RAW_DIR ?? join(repoRoot, '../shared/data'));
const OUT = resolve(process.env.GEO_OUT_DIR ?? join(pkgDir, 'data'));

const csv = readFileSync(join(RAW, 'worldbank_gdp_population/gdp_per_capita_current_usd_derived.csv'), 'utf8');
// Country codes of the country reference (ISO 3166-1 alpha-3): everything else in the World Bank file is an aggregate.
const codes = parseCsvObjects(readFileSync(join(RAW, 'country_reference/country-codes.csv'), 'utf8'));
const iso3 = new Set(codes.map((r) => r['ISO3166-1-Alpha-3']).filter((c): c is string => !!c));
const iso2Of = new Map(codes.filter((r) => r['ISO3166-1-Alpha-3'] && r['ISO3166-1-Alpha-2']).map((r) => [r['ISO3166-1-Alpha-3']!, r['ISO3166-1-Alpha-2']!]));

const latest: Record<string, { year: number; usd: number; name: string; population?: number; iso2?: string }> = {};
for (const r of parseCsvObjects(csv)) {
  const code = r['iso3']!;
  const usd = Number(r['gdp_per_capita_usd']);
  const year = Number(r['year']);
  if (!iso3.has(code) || !(usd > 0) || !Number.isInteger(year)) continue;
  // the population of the same year (SP.POP.TOTL): the cap of the people counted around a property in the country
  const population = Number(r['population']);
  if (!latest[code] || latest[code]!.year < year)
    latest[code] = {
      year,
      usd: Math.round(usd * 100) / 100,
      name: r['country_name']!,
      ...(population > 0 ? { population: Math.round(population) } : {}),
      ...(iso2Of.has(code) ? { iso2: iso2Of.get(code)! } : {}),
    };
}
const countries = Object.fromEntries(
  Object.keys(latest)
    .sort()
    .map((k) => [k, latest[k]!]),
);
const out = {
  source:
    'World Bank WDI NY.GDP.MKTP.CD / SP.POP.TOTL (CC BY 4.0) via datasets/gdp and datasets/population (ODC-PDDL-1.0): GDP per capita, current US$, latest year per country',
  build: 'npm run build:gdp -w @crp/geo (GEO_RAW_DIR = shared/data)',
  countries,
};
writeFileSync(join(OUT, 'gdp-per-capita.json'), `${JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"')}\n`);
console.log(`[geo] gdp-per-capita.json: ${Object.keys(countries).length} countries`);
