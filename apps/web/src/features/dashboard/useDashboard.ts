import { useEffect, useMemo, useRef } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/http';
import { fetchDashboard, type DashboardData, type DashboardFiltersSent } from '../../api/dashboard';
import { fetchProjectStatus } from '../../api/projects';
import type { AnalysisOptions, AppliedFilters, DashboardEntry } from './dashboardState';

export const dashboardKey = (f: DashboardFiltersSent, perAsset: 'columns' | 'pages' = 'columns') => ['dashboard', f, perAsset] as const;

/**
 * The analysis is still running, or (status 'preparing') the analysis is too large to read at once and its dashboard
 * is being prepared: the 409 answer's status and progress (0-1).
 */
export interface Pending {
  status: string;
  progress: number;
  detail: string;
}

function pendingOf(err: unknown): Pending | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const b = (err.body ?? {}) as { status?: string; progress?: number; detail?: string };
  if (b.status === 'failed') return null;
  return { status: b.status ?? 'running', progress: typeof b.progress === 'number' ? b.progress : 0, detail: b.detail ?? 'The analysis is running.' };
}

export function toSent(entry: DashboardEntry, f: AppliedFilters, o: AnalysisOptions): DashboardFiltersSent {
  return {
    ...(entry.project_id !== null ? { project_id: entry.project_id } : {}),
    ...(entry.project_name ? { project_name: entry.project_name } : {}),
    analysis_type: f.analysis_type,
    scenario: f.scenario,
    year: f.year,
    variable: f.variable,
    property_type: f.property_type,
    count: f.count,
    mitigation: o.mitigation,
    with_content: o.with_content,
    adjusted_gdp: o.adjusted_gdp,
  };
}

/**
 * The dashboard query. While the analysis runs (409) it polls the project status (or the dashboard itself when
 * the project id is unknown) and refetches when done. Previous data stays on screen while a new filter loads.
 */
export function useDashboard(sent: DashboardFiltersSent, perAsset: 'columns' | 'pages' = 'columns') {
  const key = useMemo(() => dashboardKey(sent, perAsset), [sent, perAsset]);
  const q = useQuery<DashboardData, Error>({
    queryKey: key,
    queryFn: ({ signal }) => fetchDashboard(sent, signal, perAsset),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
    // the dashboard itself is polled when the project is unknown, or while its dashboard is prepared (the project's
    // status is then 'done' already)
    refetchInterval: (query) => {
      const p = pendingOf(query.state.error);
      return p && (sent.project_id === undefined || p.status === 'preparing') ? 2500 : false;
    },
  });
  const pending = pendingOf(q.error);
  const projectId = sent.project_id ?? q.data?.project.project_id;

  const status = useQuery({
    queryKey: ['projects', 'status', projectId, 'dashboard-poll'],
    queryFn: () => fetchProjectStatus(projectId!),
    enabled: !!pending && pending.status !== 'preparing' && projectId !== undefined,
    refetchInterval: 1500,
    gcTime: 0,
  });
  const lastStatus = useRef<string | null>(null);
  useEffect(() => {
    const s = status.data?.status ?? null;
    if (pending && s && s !== lastStatus.current && (s === 'done' || s === 'failed')) void q.refetch();
    lastStatus.current = s;
  }, [status.data?.status, pending, q]);

  const progress: Pending | null = pending
    ? status.data && pending.status !== 'preparing'
      ? { status: status.data.status, progress: status.data.progress, detail: status.data.message ?? pending.detail }
      : pending
    : null;

  return { query: q, data: q.data, pending: progress, error: pending ? null : q.error };
}
