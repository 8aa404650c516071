import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { faqKeys, fetchFaqKeywords, fetchKeywordItems, searchFaq } from './faqApi';

/** FAQ fetch failures are logged, with no user message (spec 001 §8). */
function useLogError(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(`FAQ: ${what} failed`, error);
  }, [error, what]);
}

const STALE = 5 * 60_000;

export function useFaqKeywords() {
  const q = useQuery({ queryKey: faqKeys.keywords, queryFn: ({ signal }) => fetchFaqKeywords(signal), staleTime: STALE, retry: 1 });
  useLogError(q.error, 'keyword list');
  return q;
}

export function useKeywordItems(keyword: string | null) {
  const q = useQuery({
    queryKey: faqKeys.keyword(keyword ?? ''),
    queryFn: ({ signal }) => fetchKeywordItems(keyword!, signal),
    enabled: !!keyword,
    staleTime: STALE,
    retry: 1,
  });
  useLogError(q.error, 'keyword items');
  return q;
}

export function useFaqSearch(search: string | null) {
  const q = useQuery({
    queryKey: faqKeys.search(search ?? ''),
    queryFn: ({ signal }) => searchFaq(search!, signal),
    enabled: !!search,
    staleTime: STALE,
    retry: 1,
  });
  useLogError(q.error, 'search');
  return q;
}
