import { useQuery } from '@tanstack/react-query';
import type { PropertyRiskResponse } from '@crp/contracts';
import { queryKeys } from '../../api/queryKeys';
import { fetchPropertyRisk } from '../../api/realestate';

/** Property-risk rows of a project by name; polls while the job runs; starts from the rows handed over, if any. */
export function usePropertyRisk(projectName: string | null, initial?: PropertyRiskResponse | null) {
  return useQuery({
    queryKey: queryKeys.propertyRisk(projectName ?? ''),
    queryFn: () => fetchPropertyRisk(projectName!),
    enabled: !!projectName,
    initialData: initial && initial.project_name.toLowerCase() === projectName?.toLowerCase() ? initial : undefined,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'running') ? 1000 : false),
    staleTime: 30_000,
  });
}

/** The project name of the navigation state: a plain name or {project_name} / {project} (as the dashboard accepts). */
export function projectNameOf(state: unknown): string | null {
  if (typeof state === 'string') return state.trim() || null;
  const o = (state ?? {}) as { project_name?: unknown; project?: unknown };
  const n = typeof o.project_name === 'string' ? o.project_name : typeof o.project === 'string' ? o.project : null;
  return n?.trim() || null;
}
