import type { CompanySearchHit, CreateProjectResponse, IndexInfoAnswer } from '@crp/contracts';
import { request } from './http';

/** A company from the search (spec 000 §3 company-search hit; `@crp/contracts` CompanySearchHit). */
export type CompanyHit = CompanySearchHit;
export type IndexInfo = IndexInfoAnswer;

/** POST api/search/deepsearch/: companies by name (more than 3 characters) or ticker, up to 50. */
export async function searchCompanies(searchTerm: string, signal?: AbortSignal): Promise<CompanyHit[]> {
  return (await request<{ hits: CompanyHit[] }>('POST', '/api/search/deepsearch/', { json: { search_term: searchTerm, limit: 50 }, signal })).data.hits;
}

/** GET api/asset/index/{userId}/: the benchmark indices, the default (HSI) first. */
export async function fetchIndices(userId: number): Promise<IndexInfo[]> {
  return (await request<{ indices: IndexInfo[] }>('GET', `/api/asset/index/${userId}/`)).data.indices;
}

/** POST api/asset/index/{userId}/: a portfolio of an index's members, analysed like any other. */
export async function addIndexPortfolio(userId: number, indexName: string, portfolioName: string): Promise<CreateProjectResponse> {
  return (await request<CreateProjectResponse>('POST', `/api/asset/index/${userId}/`, { json: { index_name: indexName, portfolio_name: portfolioName } })).data;
}
