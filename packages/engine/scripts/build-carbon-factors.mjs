#!/usr/bin/env node
/**
 * Builds packages/engine/src/carbon/emission-factors.json: revenue-based scope 1+2 emission factors
 * (tCO2e per USD million of revenue) for the 29 carbon-module sectors x 12 regions, from staged open data:
 *
 *  - US EPA Supply Chain GHG Emission Factors v1.3.0 by NAICS-6, 2022 USD (public domain),
 *    column "Supply Chain Emission Factors without Margins" (producer price, which is what company revenue is).
 *  - Our World in Data CO2 (CC BY 4.0) / World Bank GDP: kg CO2 per current USD of GDP per country
 *    (owid-co2-ghg-by-country/co2_per_usd_gdp_latest_derived.csv), to regionalise goods-producing sectors.
 *  - Ember average grid carbon intensity, gCO2e/kWh (CC BY-SA 4.0, via The Green Web Foundation CO2.js),
 *    to regionalise service sectors whose own scope 1+2 is mostly purchased electricity.
 *  - UN M49 regions from country_reference/country-codes.csv (datahub.io country-codes, ODbL) to group countries.
 *
 * factor(sector, region) = EPA_US(sector) x ratio(region), ratio = region intensity / US intensity,
 * region intensity = sum(CO2) / sum(GDP) (economy) or GDP-weighted mean gCO2e/kWh (grid).
 * A sector with no EPA factor (electric power, NAICS 2211, is not published by EPA) gets null: the module then
 * says so instead of projecting. Run: npm run build:carbon-factors -w @crp/engine [-- <raw data folder>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
// Raw data folder: argument, else HAZARD_RAW_DIR (as `npm run hazards:build`), else ../shared/data beside the repository.
const DATA = process.argv[2] ?? process.env.HAZARD_RAW_DIR ?? resolve(HERE, '../../../../shared/data');
const OUT = join(HERE, '../src/carbon/emission-factors.json');

/** Minimal RFC 4180 CSV reader (quoted fields, embedded commas). */
function readCsv(path) {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/**
 * The 29 sectors (Refinitiv TRBC business-sector / industry-group names, as the spec's examples are) and the
 * NAICS-6 industry whose EPA factor represents each. `scale` says how the US factor is regionalised.
 */
const SECTORS = [
  ['Automobiles & Auto Parts', '336111', 'economy'],
  ['Banking Services', '522110', 'grid'],
  ['Chemicals', '325199', 'economy'],
  ['Coal', '212111', 'economy'],
  ['Construction & Engineering', '236220', 'economy'],
  ['Construction Materials', '327310', 'economy'],
  ['Electric Utilities', null, null],
  ['Food & Beverages', '311999', 'economy'],
  ['Food & Drug Retailing', '445110', 'grid'],
  ['Healthcare Services & Equipment', '622110', 'grid'],
  ['Hotels & Entertainment Services', '721110', 'grid'],
  ['Industrial Machinery & Equipment', '333999', 'economy'],
  ['Insurance', '524126', 'grid'],
  ['Investment Banking & Investment Services', '523110', 'grid'],
  ['Metals & Mining', '331110', 'economy'],
  ['Natural Gas Utilities', '221210', 'economy'],
  ['Oil & Gas', '211120', 'economy'],
  ['Oil & Gas Related Equipment & Services', '213112', 'economy'],
  ['Paper & Forest Products', '322121', 'economy'],
  ['Pharmaceuticals & Medical Research', '325412', 'economy'],
  ['Real Estate', '531120', 'grid'],
  ['Renewable Energy', '333611', 'economy'],
  ['Retailers', '452210', 'grid'],
  ['Software & IT Services', '511210', 'grid'],
  ['Technology Equipment', '334413', 'economy'],
  ['Telecommunications Services', '517311', 'grid'],
  ['Textiles & Apparel', '313210', 'economy'],
  ['Transportation', '484121', 'economy'],
  ['Water Utilities', '221310', 'economy'],
];

const SECTOR_NOTES = {
  'Electric Utilities':
    'No factor: the US EPA supply-chain factors leave out electric power generation (NAICS 2211), and grid intensity is per kWh, not per USD of revenue. Enter the reported scope 1+2.',
  'Renewable Energy': 'Proxy NAICS 333611 (turbine and generator manufacturing): EPA publishes no factor for power generation, renewable or not.',
};

/** The spec's 12 regions as groups of UN M49 (sub-)regions and ISO3 codes; decided in docs/methodology.md. */
const MIDDLE_EAST = ['SAU', 'ARE', 'QAT', 'KWT', 'BHR', 'OMN', 'YEM', 'IRQ', 'IRN', 'ISR', 'PSE', 'JOR', 'LBN', 'SYR'];
function regionOf(c) {
  const iso = c['ISO3166-1-Alpha-3'];
  const region = c['Region Name'];
  const sub = c['Sub-region Name'];
  if (iso === 'CHN') return 'China';
  if (iso === 'JPN') return 'Japan';
  if (MIDDLE_EAST.includes(iso)) return 'Middle East';
  if (sub === 'Northern America') return 'North America';
  if (sub === 'Latin America and the Caribbean') return 'South America';
  if (region === 'Europe') return 'Europe';
  if (region === 'Africa') return 'Africa';
  if (region === 'Oceania') return 'Australia/NZ';
  if (sub === 'Eastern Asia') return 'East Asia';
  if (sub === 'South-eastern Asia') return 'South East Asia';
  if (sub === 'Southern Asia') return 'Southern Asia';
  if (sub === 'Western Asia' || sub === 'Central Asia') return 'Western Asia';
  return null;
}
const REGIONS = [
  'North America',
  'Japan',
  'Europe',
  'China',
  'Southern Asia',
  'East Asia',
  'South East Asia',
  'South America',
  'Africa',
  'Middle East',
  'Australia/NZ',
  'Western Asia',
];

const epa = new Map(
  readCsv(join(DATA, 'epa-supply-chain-ghg-factors/SupplyChainGHGEmissionFactors_v1.3.0_NAICS_CO2e_USD2022.csv')).map((r) => [r['2017 NAICS Code'], r]),
);
const econ = new Map(
  readCsv(join(DATA, 'owid-co2-ghg-by-country/co2_per_usd_gdp_latest_derived.csv')).map((r) => [
    r.iso3,
    { co2: Number(r.co2_mt), gdp: Number(r.gdp_current_usd_bn_worldbank), year: Number(r.year) },
  ]),
);
const grid = new Map(
  readCsv(join(DATA, 'grid-carbon-intensity-by-country/ember_average_grid_intensity_by_country.csv')).map((r) => [r.code, Number(r.avg_gco2e_per_kwh)]),
);
const countries = readCsv(join(DATA, 'country_reference/country-codes.csv'));

const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;
const members = Object.fromEntries(REGIONS.map((r) => [r, []]));
for (const c of countries) {
  const r = regionOf(c);
  if (r) members[r].push(c['ISO3166-1-Alpha-3']);
}

function intensities(isos) {
  let co2 = 0,
    gdp = 0,
    gridW = 0,
    gridSum = 0,
    n = 0,
    years = new Set();
  for (const iso of isos) {
    const e = econ.get(iso);
    if (!e || !(e.gdp > 0) || !Number.isFinite(e.co2)) continue;
    co2 += e.co2;
    gdp += e.gdp;
    n++;
    years.add(e.year);
    const g = grid.get(iso);
    if (Number.isFinite(g)) {
      gridSum += g * e.gdp;
      gridW += e.gdp;
    }
  }
  return {
    countries_with_data: n,
    gdp_usd_bn: round(gdp, 1),
    economy_kg_co2_per_usd: gdp > 0 ? co2 / gdp : null,
    grid_g_co2e_per_kwh: gridW > 0 ? gridSum / gridW : null,
    data_years: [...years].sort(),
  };
}

const us = intensities(['USA']);
const regions = {};
for (const r of REGIONS) {
  const i = intensities(members[r]);
  regions[r] = {
    countries: members[r].sort(),
    countries_with_data: i.countries_with_data,
    gdp_usd_bn: i.gdp_usd_bn,
    economy_kg_co2_per_usd: i.economy_kg_co2_per_usd === null ? null : round(i.economy_kg_co2_per_usd, 4),
    grid_g_co2e_per_kwh: i.grid_g_co2e_per_kwh === null ? null : round(i.grid_g_co2e_per_kwh, 1),
    economy_ratio_to_us: i.economy_kg_co2_per_usd === null ? null : round(i.economy_kg_co2_per_usd / us.economy_kg_co2_per_usd, 4),
    grid_ratio_to_us: i.grid_g_co2e_per_kwh === null ? null : round(i.grid_g_co2e_per_kwh / us.grid_g_co2e_per_kwh, 4),
  };
}

const sectors = {};
const factors = {};
for (const [name, naics, scale] of SECTORS) {
  const row = naics ? epa.get(naics) : undefined;
  if (naics && !row) throw new Error(`NAICS ${naics} (${name}) is not in the EPA file`);
  const us_kg = row ? Number(row['Supply Chain Emission Factors without Margins']) : null;
  sectors[name] = {
    naics,
    naics_title: row?.['2017 NAICS Title'] ?? null,
    us_kg_co2e_per_usd: us_kg,
    regionalised_by: scale,
    note: SECTOR_NOTES[name] ?? null,
  };
  factors[name] = {};
  for (const r of REGIONS) {
    const ratio = scale === 'economy' ? regions[r].economy_ratio_to_us : scale === 'grid' ? regions[r].grid_ratio_to_us : null;
    // kg CO2e per USD x 1000 = t CO2e per USD million.
    factors[name][r] = us_kg === null || ratio === null ? null : round(us_kg * 1000 * ratio, 2);
  }
}

const out = {
  description:
    'Revenue-based scope 1+2 emission factors, tCO2e per USD million of revenue, by sector and region. Built by packages/engine/scripts/build-carbon-factors.mjs; see docs/methodology.md (Carbon and transition).',
  unit: 'tCO2e per USD million revenue',
  us_reference: { economy_kg_co2_per_usd: round(us.economy_kg_co2_per_usd, 4), grid_g_co2e_per_kwh: us.grid_g_co2e_per_kwh },
  sources: [
    {
      id: 'epa-useeio-v1.3',
      title: 'US EPA Supply Chain Greenhouse Gas Emission Factors v1.3.0 by NAICS-6 (2022 USD), "without margins"',
      publisher: 'US EPA Office of Research and Development (USEEIO)',
      reference: 'doi:10.23719/1531143',
      license: 'US Government work, public domain',
    },
    {
      id: 'owid-co2',
      title: 'CO2 emissions by country (owid/co2-data, 2021-02-08) over World Bank GDP in current USD, latest common year (mostly 2018)',
      publisher: 'Our World in Data (Global Carbon Project); World Bank',
      reference: 'github.com/owid/co2-data',
      license: 'CC BY 4.0',
    },
    {
      id: 'ember-grid',
      title: 'Average grid carbon intensity by country, gCO2e/kWh (latest year per country, mostly 2023-2024)',
      publisher: 'Ember, via The Green Web Foundation CO2.js 0.19.0',
      reference: 'npm @tgwf/co2',
      license: 'CC BY-SA 4.0',
    },
    {
      id: 'un-m49',
      title: 'Country codes with UN M49 regions',
      publisher: 'datahub.io core/country-codes',
      reference: 'datahub.io/core/country-codes',
      license: 'ODbL 1.0',
    },
  ],
  regions,
  sectors,
  factors,
};
writeFileSync(OUT, JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${OUT}: ${SECTORS.length} sectors x ${REGIONS.length} regions`);
