import { request } from '../../api/http';

/** An FAQ item as the server answers it (spec 001 §3.13): `content` is HTML sanitised by the server. */
export interface FaqItem {
  id: number;
  key: string;
  title: string;
  content: string;
  attachments: string[];
  keywords: string[];
}
export interface FaqKeyword {
  name: string;
  children: string[];
}

// The token is optional on the FAQ calls (spec 001 §6): it is sent when there is one.
export async function fetchFaqKeywords(signal?: AbortSignal): Promise<FaqKeyword[]> {
  return (await request<FaqKeyword[]>('GET', '/api/v2/faq_keywords/', { signal })).data;
}

export async function fetchKeywordItems(keyword: string, signal?: AbortSignal): Promise<FaqItem[]> {
  return (await request<FaqItem[]>('POST', '/api/v2/keyword_help_v2/', { json: { keywords: [keyword] }, signal })).data;
}

export async function searchFaq(search: string, signal?: AbortSignal): Promise<FaqItem[]> {
  const q = new URLSearchParams({ search });
  return (await request<{ count: number; results: FaqItem[] }>('GET', `/api/v2/faq_search/?${q}`, { signal })).data.results;
}

export const faqKeys = {
  keywords: ['faq', 'keywords'] as const,
  keyword: (name: string) => ['faq', 'keyword', name] as const,
  search: (q: string) => ['faq', 'search', q] as const,
};
