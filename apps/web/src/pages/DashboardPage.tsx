import { Navigate, useLocation } from 'react-router-dom';
import { useMemo } from 'react';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { DashboardView } from '../features/dashboard/DashboardView';
import { parseEntryState } from '../features/dashboard/dashboardState';

/** /dashboard: opens with the navigation state of a project (spec 001 §2.1); without it, back to /location. */
export function DashboardPage() {
  const location = useLocation();
  const entry = useMemo(() => parseEntryState(location.state), [location.state]);
  useDocumentTitle(entry?.project_name ? `Dashboard · ${entry.project_name}` : 'Dashboard');
  if (!entry) return <Navigate to="/location" replace />;
  return <DashboardView key={`${entry.project_id ?? ''}:${entry.project_name ?? ''}`} entry={entry} />;
}
