import { Navigate, useLocation } from 'react-router-dom';
import { useMemo } from 'react';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { CompanyRollup } from '../features/dashboard/CompanyRollup';
import { DashboardView } from '../features/dashboard/DashboardView';
import { parseEntryState } from '../features/dashboard/dashboardState';

/** /company-dashboard: the dashboard of a company-location portfolio, with a per-company roll-up. */
export function CompanyDashboardPage() {
  const location = useLocation();
  const entry = useMemo(() => parseEntryState(location.state), [location.state]);
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
