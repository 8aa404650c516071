import { useMemo } from 'react';
import { Alert } from 'antd';
import { useLocation } from 'react-router-dom';
import { firstErrorMessage } from '../api/http';
import { initialFilters, parseEntryState } from '../features/dashboard/dashboardState';
import { toSent, useDashboard } from '../features/dashboard/useDashboard';
import { TcfdReport } from '../features/tcfd/TcfdReport';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { PageLoading } from '../ui/PageLoading';

/**
 * /tcfd: the detailed TCFD report of a portfolio, opened with the portfolio name (and the dashboard's scenario and
 * year) in navigation state (spec 000 §2). The figures come from the same dashboard query, with adaptation and contents.
 */
export function TcfdPage() {
  const location = useLocation();
  const entry = useMemo(() => parseEntryState(location.state), [location.state]);
  useDocumentTitle(entry?.project_name ? `TCFD report · ${entry.project_name}` : 'TCFD report');
  const sent = useMemo(() => (entry ? toSent(entry, initialFilters(entry), { mitigation: true, with_content: true, adjusted_gdp: false }) : null), [entry]);
  if (!entry || !sent) {
    return (
      <div className="crp-page">
        <NeedsStateCard description="Open the TCFD report from a portfolio's dashboard (TCFD report button)." />
      </div>
    );
  }
  return <TcfdBody sent={sent} />;
}

function TcfdBody({ sent }: { sent: Parameters<typeof useDashboard>[0] }) {
  const { data, pending, error } = useDashboard(sent);
  return (
    <div className="crp-page">
      {data ? (
        <TcfdReport data={data} />
      ) : pending ? (
        <Alert type="info" showIcon title={`The analysis is running (${Math.round(pending.progress * 100)} %): the report opens when it is done.`} />
      ) : error ? (
        <Alert type="error" showIcon data-testid="tcfd-error" title="The report could not be loaded" description={firstErrorMessage(error, 'Try again.')} />
      ) : (
        <PageLoading />
      )}
    </div>
  );
}
