import { companiesFile, DEFAULT_INDEX, MIN_NAME_CHARS, normalizeText, type CompanyHit, type CompanyRecord } from '@crp/geo';
import type { CompanySearchRepository } from './company-search.repository.js';
import { AppError } from '../../lib/errors.js';

const MAX_LIMIT = 50;

/** Identifies the bundled company data: a change of data reloads the table at the next start. */
function sourceVersion(): string {
  const f = companiesFile();
  return `${f.version}:${f.companies.length}:${f.indices.map((i) => `${i.index_name}=${i.members}`).join(',')}`;
}

/**
 * Company search in the database (issue 5): the constituents of the staged indices are loaded into
 * `listed_companies` once per data version, then searched with
 * - tickers and codes: exact (any length, e.g. "V", "700") and prefix from 2 characters,
 * - names (terms of more than 3 characters): exact, prefix, word-prefix full-text (`to_tsquery('simple', 'hsb:*')`)
 *   and typo-tolerant trigram word similarity (pg_trgm), best first.
 * The same ranking on the embedded database and on a PostgreSQL server.
 */
export class CompanySearchService {
  private loaded: Promise<void> | null = null;

  constructor(private readonly repo: CompanySearchRepository) {}

  /** Loads the bundled data when the table holds another version (one transaction: readers never see half a list). */
  ensureLoaded(): Promise<void> {
    this.loaded ??= (async () => {
      const version = sourceVersion();
      if ((await this.repo.sourceVersion()) === version) return;
      const rows = companiesFile().companies.map((c) => ({
        ticker: c.ticker,
        codes: c.codes,
        company_name: c.company_name,
        name_norm: normalizeText(c.company_name),
        indices: c.indices,
        record: JSON.stringify(c),
      }));
      await this.repo.replaceAll(rows, version);
    })().catch((err: unknown) => {
      this.loaded = null;
      throw err;
    });
    return this.loaded;
  }

  /** Index names as the data spells them, by normalised name. */
  private resolveIndex(name: string): string {
    const byNorm = new Map(companiesFile().indices.map((r) => [normalizeText(r.index_name), r.index_name]));
    const hit = byNorm.get(normalizeText(name));
    if (!hit)
      throw new AppError(400, `index: unknown index "${name.slice(0, 80)}". Known: ${[...byNorm.values()].join(', ')}`, [
        { field: 'index', message: 'unknown index' },
      ]);
    return hit;
  }

  /** The deep search call (spec: search/deepsearch): hits by name or ticker, also grouped by index; website lookups need an external service. */
  async deepSearch(b: { search_term?: string | undefined; website?: string | undefined; index?: string | undefined; limit: number }) {
    if (!b.search_term) {
      if (b.website)
        throw new AppError(
          400,
          'website: looking up addresses from a website needs an external company-data service, which is not configured. Search by company name or ticker instead.',
          [{ field: 'website', message: 'not available offline' }],
        );
      throw new AppError(400, 'search_term is required', [{ field: 'search_term', message: 'required' }]);
    }
    const hits = await this.search(b.search_term, { limit: b.limit, ...(b.index ? { index: b.index } : {}) });
    const grouped: Record<string, typeof hits> = {};
    for (const h of hits) (grouped[h.index] ??= []).push(h);
    return { hits, grouped_hits: grouped, count: hits.length };
  }

  async search(term: string, options: { limit?: number; index?: string } = {}): Promise<CompanyHit[]> {
    const raw = term.trim();
    if (!raw) throw new AppError(400, 'search_term: type a company name (more than 3 characters) or a ticker', [{ field: 'search_term', message: 'required' }]);
    await this.ensureLoaded();
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? MAX_LIMIT)));
    const only = options.index ? this.resolveIndex(options.index) : null;
    const T = raw.toUpperCase();
    const q = normalizeText(raw);
    const nameSearch = q.length >= MIN_NAME_CHARS;
    // Prefix terms of the words typed (letters and digits only, so nothing reaches tsquery syntax).
    const words = q
      .split(' ')
      .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
      .filter(Boolean);
    const tsq = nameSearch && words.length ? words.map((w) => `${w}:*`).join(' & ') : null;

    const rows = await this.repo.search({ ticker: T, name: q, nameSearch, tsquery: tsq, index: only, limit });
    return rows.map((r) => toHit(r.record as unknown as CompanyRecord, only, Number(r.score)));
  }
}

function toHit(c: CompanyRecord, index: string | null, score: number): CompanyHit {
  return {
    ticker: c.ticker,
    company_name: c.company_name,
    index: index ?? c.indices[0] ?? DEFAULT_INDEX,
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
