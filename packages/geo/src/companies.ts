/**
 * Company and index search over the staged index constituent lists (built into `data/companies.json.gz`):
 * HSI (evanlow/tws_robot), S&P 500 (datasets/s-and-p-500-companies, PDDL, with its "Headquarters Location"),
 * pytickersymbols (MIT: FTSE 100, DAX, EURO STOXX 50, CAC 40, IBEX 35, AEX, SMI, NASDAQ 100, DOW JONES ...),
 * CSI 300 (ppppangu/index-replication), STI (evanlow/tws_robot) and ASX 200 codes (siifmelbourne/ASX200_Screener).
 *
 * Locations come only from the data: an S&P 500 headquarters city geocoded with the GeoNames gazetteer
 * (`approximate: false`), else the headquarters state's largest place or the headquarters country's capital, else the
 * listing exchange's city (all `approximate: true`, with `location_basis` saying which).
 */
import { companiesFile, lazy } from './data.js';
import { GeoQueryError } from './errors.js';
import type { CompanyRecord } from './format.js';
import { boundedEditDistance, charMask, normalizeText, popcount32 } from './normalize.js';

/** The default benchmark index. */
export const DEFAULT_INDEX = 'HSI';
/** Company names need more than this many characters; shorter terms match tickers/codes only. */
export const MIN_NAME_CHARS = 4;

export interface CompanyAddress {
  address: string;
  lat: number;
  lon: number;
  domain: string | null;
}

/** One company search hit (the spec's "company search hit": ticker, company_name, index, address_data, latitude, longitude). */
export interface CompanyHit {
  ticker: string;
  company_name: string;
  /** The index this hit is shown under: the requested index, else the company's first index. */
  index: string;
  indices: string[];
  sector: string | null;
  country_code: string | null;
  latitude: number;
  longitude: number;
  /** False only for a geocoded headquarters city. */
  approximate: boolean;
  /** "headquarters city", "headquarters state, largest city", "headquarters country capital" or "listing exchange city". */
  location_basis: string;
  address_data: CompanyAddress[];
  /** False when the data has no company name (ASX 200 codes): company_name is then the code. */
  name_from_data: boolean;
  /** 0..1, higher is better. */
  score: number;
}

export interface IndexInfo {
  index_name: string;
  members: number;
  default: boolean;
  source: string;
  as_of: string | null;
}

interface CompanyIndex {
  list: CompanyRecord[];
  names: string[];
  words: string[][];
  tickers: string[][];
  byIndex: Map<string, number[]>;
  indexNames: Map<string, string>;
}

const companyIndex = lazy((): CompanyIndex => {
  const f = companiesFile();
  const list = f.companies;
  const byIndex = new Map<string, number[]>();
  list.forEach((c, i) => {
    for (const ix of c.indices) {
      let l = byIndex.get(ix);
      if (!l) byIndex.set(ix, (l = []));
      l.push(i);
    }
  });
  const indexNames = new Map(f.indices.map((r) => [normalizeText(r.index_name), r.index_name]));
  return {
    list,
    names: list.map((c) => normalizeText(c.company_name)),
    words: list.map((c) => normalizeText(c.company_name).split(' ')),
    tickers: list.map((c) => [c.ticker, ...c.codes].map((t) => t.toUpperCase())),
    byIndex,
    indexNames,
  };
});

function resolveIndex(name: string): string {
  const ix = companyIndex();
  const hit = ix.indexNames.get(normalizeText(name));
  if (!hit) {
    throw new GeoQueryError('unknown_index', `Unknown index "${name}". Known: ${[...ix.indexNames.values()].join(', ')}`);
  }
  return hit;
}

function toHit(c: CompanyRecord, index: string | null, score: number): CompanyHit {
  return {
    ticker: c.ticker,
    company_name: c.company_name,
    index: index ?? c.indices[0] ?? '',
    indices: c.indices,
    sector: c.sector,
    country_code: c.country_code,
    latitude: c.latitude,
    longitude: c.longitude,
    approximate: c.approximate,
    location_basis: c.location_basis,
    address_data: [{ address: c.address, lat: c.latitude, lon: c.longitude, domain: null }],
    name_from_data: c.name_from_data,
    score: Math.round(score * 1000) / 1000,
  };
}

/**
 * Company search: case-insensitive exact match on tickers and codes (any length, e.g. "V", "700", "0700.HK"), prefix
 * match on them from 2 characters
 * and, for terms of more than 3 characters, prefix, word-prefix and typo-tolerant matching on the company name.
 * Results best first, at most `limit` (default 50). `index` restricts to one index's members.
 * Throws {@link GeoQueryError} for an empty term or an unknown index.
 */
export function searchCompanies(term: string, options: { limit?: number; index?: string } = {}): CompanyHit[] {
  const raw = typeof term === 'string' ? term.trim() : '';
  if (!raw) throw new GeoQueryError('query_too_short', 'Type a company name (more than 3 characters) or a ticker');
  const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? 50)));
  const ix = companyIndex();
  const only = options.index ? resolveIndex(options.index) : null;
  const pool = only ? (ix.byIndex.get(only) ?? []) : ix.list.map((_, i) => i);
  const T = raw.toUpperCase();
  const q = normalizeText(raw);
  const nameSearch = q.length >= MIN_NAME_CHARS;
  const maxD = q.length >= 8 ? 2 : 1;
  const qm = charMask(q);
  const scored: { i: number; s: number }[] = [];
  for (const i of pool) {
    let s = 0;
    for (const t of ix.tickers[i]!) {
      if (t === T) {
        s = Math.max(s, 1);
        break;
      }
      if (T.length >= 2 && t.startsWith(T)) s = Math.max(s, 0.8 + 0.1 * (T.length / t.length));
    }
    if (nameSearch) {
      const name = ix.names[i]!;
      if (name === q) s = Math.max(s, 0.98);
      else if (name.startsWith(q)) s = Math.max(s, 0.85 + 0.1 * (q.length / name.length));
      else if (name.includes(` ${q}`)) s = Math.max(s, 0.7);
      else if (q.length >= 5 && name.includes(q)) s = Math.max(s, 0.6);
      if (s < 0.6) {
        // typo-tolerant: the typed text against the start of the name or of any word
        const lim = 2 * maxD;
        let d = maxD + 1;
        if (popcount32(charMask(name, q.length) ^ qm) <= lim) d = boundedEditDistance(q, name, maxD, q.length);
        if (d > maxD && Math.abs(name.length - q.length) <= maxD && popcount32(charMask(name) ^ qm) <= lim) d = boundedEditDistance(q, name, maxD);
        if (d > maxD)
          for (const w of ix.words[i]!) {
            if (w.length + maxD < q.length || popcount32(charMask(w, q.length) ^ qm) > lim) continue;
            d = Math.min(d, boundedEditDistance(q, w, maxD, q.length));
            if (d <= 1) break;
          }
        if (d <= maxD) s = Math.max(s, d === 1 ? 0.55 : 0.4);
      }
    }
    if (s > 0) scored.push({ i, s });
  }
  scored.sort((a, b) => b.s - a.s || (ix.list[a.i]!.company_name < ix.list[b.i]!.company_name ? -1 : 1));
  return scored.slice(0, limit).map(({ i, s }) => toHit(ix.list[i]!, only, s));
}

/** Every index with constituents in the data, HSI first (the default). */
export function listIndices(): IndexInfo[] {
  const f = companiesFile();
  return f.indices
    .map((r) => ({ index_name: r.index_name, members: r.members, default: r.index_name === DEFAULT_INDEX, source: r.source, as_of: r.as_of }))
    .sort((a, b) => Number(b.default) - Number(a.default));
}

/** Members of an index (case-insensitive name, e.g. "hsi", "S&P 500", "FTSE 100"), with their locations. */
export function indexMembers(indexName: string): CompanyHit[] {
  const name = resolveIndex(indexName);
  const ix = companyIndex();
  return (ix.byIndex.get(name) ?? []).map((i) => toHit(ix.list[i]!, name, 1));
}
