import { useQuery } from '@tanstack/react-query';
import { fetchCarbonAnalysis, fetchCarbonData, fetchCarbonProjects } from '../../api/carbon';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';

export function useCarbonProjects(enabled = true) {
  const userId = readUserId();
  return useQuery({ queryKey: queryKeys.carbonList(userId ?? 0), queryFn: () => fetchCarbonProjects(userId!), enabled: enabled && userId !== null });
}

export function useCarbonAnalysis(name: string | null) {
  const userId = readUserId();
  return useQuery({ queryKey: queryKeys.carbonAnalysis(name ?? ''), queryFn: () => fetchCarbonAnalysis(userId!, name!), enabled: !!name && userId !== null });
}

export function useCarbonData(name: string | null) {
  const userId = readUserId();
  return useQuery({ queryKey: queryKeys.carbonData(name ?? ''), queryFn: () => fetchCarbonData(userId!, name!), enabled: !!name && userId !== null });
}

/** The carbon project name carried in navigation state ({project_name} or {name}). */
export function carbonNameFromState(state: unknown): string | null {
  if (!state || typeof state !== 'object') return null;
  const s = state as { project_name?: unknown; name?: unknown; portfolio_name?: unknown };
  const v = s.project_name ?? s.portfolio_name ?? s.name;
  return typeof v === 'string' && v.trim() ? v : null;
}
