import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useMemo } from 'react';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { CompanyRollup } from '../features/dashboard/CompanyRollup';
import { DashboardView } from '../features/dashboard/DashboardView';
import { entryFromSearch, parseEntryState } from '../features/dashboard/dashboardState';

/** /company-dashboard: the dashboard of a company-location portfolio, with a per-company roll-up. */
export function CompanyDashboardPage() {
  const location = useLocation();
  const [search] = useSearchParams();
  const linkedId = search.get('project_id'),
    linkedName = search.get('project');
  // The navigation state of a project card, else the project of the URL (a bookmark or a shared link, issue 23 item 6).
  const entry = useMemo(
    () =>
      parseEntryState(location.state) ??
      entryFromSearch(new URLSearchParams({ ...(linkedId ? { project_id: linkedId } : {}), ...(linkedName ? { project: linkedName } : {}) })),
    [location.state, linkedId, linkedName],
  );
  useDocumentTitle(entry?.project_name ? `Company dashboard · ${entry.project_name}` : 'Company dashboard');
  if (!entry) return <Navigate to="/location" replace />;
  return (
    <DashboardView
      key={`${entry.project_id ?? ''}:${entry.project_name ?? ''}`}
      entry={entry}
      title="Company Physical Risk Assessment"
      extra={(data, unit) => <CompanyRollup data={data} unit={unit} />}
    />
  );
}
