import { Button, Card, Spin } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { AnalysisType, ScenarioCode } from '@crp/contracts';
import { downloadEventLosses, fetchPortfolioTail } from '../../api/portfolioTail';
import { queryKeys } from '../../api/queryKeys';
import { money } from '../../lib/format';
import { saveBlob } from '../../lib/openFileLink';
import { INFO } from './infoTexts';
import { InfoButton, UpgradePlaceholder } from './Section';

interface Props {
  projectId: number;
  filters: { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };
  totalValue: number | null;
}

/**
 * "Portfolio 1-in-100 / 1-in-250 (cyclone events)": the portfolio's own tail of cyclone wind from the event set, beside
 * the sum of the assets' own 1-in-100-year losses (an upper bound), with the event loss table to download.
 */
export function PortfolioTailCard({ projectId, filters, totalValue }: Props) {
  const q = useQuery({
    queryKey: queryKeys.portfolioTail(projectId, filters.analysis_type, filters.scenario, filters.year),
    queryFn: ({ signal }) => fetchPortfolioTail(projectId, filters, signal),
    staleTime: 10 * 60_000,
  });
  const pct = (v: number | null) => (v !== null && totalValue ? ` (${((100 * v) / totalValue).toFixed(2)} %)` : '');
  const t = q.data;
  return (
    <Card className="crp-card crp-dash-tail" data-testid="portfolio-tail-card">
      <div className="crp-dash-kpi-label">
        Portfolio 1-in-100 / 1-in-250 (cyclone events)
        <InfoButton title={INFO.portfolioTail!.title}>{INFO.portfolioTail!.body}</InfoButton>
      </div>
      {q.isPending ? (
        <div className="crp-muted" data-testid="portfolio-tail-pending">
          <Spin size="small" /> Running the cyclone event set at your assets (the first time takes up to a minute)…
        </div>
      ) : q.isError || !t ? (
        <div className="crp-muted">The cyclone event set is not available for this selection.</div>
      ) : t.money_withheld ? (
        <UpgradePlaceholder />
      ) : (
        <>
          <div className="crp-dash-tail-grid">
            <span>Occurrence (largest event of a year)</span>
            <strong data-testid="portfolio-tail-occurrence">
              {money(t.occurrence_loss_100_usd)}
              {pct(t.occurrence_loss_100_usd)} / {money(t.occurrence_loss_250_usd)}
            </strong>
            <span>Aggregate (all events of a year)</span>
            <strong data-testid="portfolio-tail-aggregate">
              {money(t.aggregate_loss_100_usd)} / {money(t.aggregate_loss_250_usd)}
            </strong>
            <span>TVaR 99 % (mean of the worst 1 % of years)</span>
            <strong>{money(t.tvar_99_loss_usd)}</strong>
            <span>Sum of the assets&apos; own 1-in-100 / 1-in-250 (upper bound)</span>
            <strong data-testid="portfolio-tail-sum">
              {money(t.sum_of_asset_loss_100_usd)}
              {pct(t.sum_of_asset_loss_100_usd)} / {money(t.sum_of_asset_loss_250_usd)}
            </strong>
            <span>Expected annual loss from the events (the engine&apos;s)</span>
            <strong>
              {money(t.expected_annual_loss_usd)} ({money(t.engine_expected_annual_loss_usd)})
            </strong>
          </div>
          <div className="crp-dash-kpi-sub">
            Cyclone wind only,{' '}
            {Object.values(t.event_set.catalogue_years)
              .reduce((a, b) => Math.max(a, b), 0)
              .toLocaleString('en-US')}{' '}
            years of synthetic events per basin, {t.event_set.events_with_loss.toLocaleString('en-US')} events with a loss. {t.other_hazards}
          </div>
          <Button
            size="small"
            icon={<DownloadOutlined />}
            data-testid="portfolio-tail-csv"
            onClick={async () => {
              const f = await downloadEventLosses(projectId, filters);
              saveBlob(f.blob, f.fileName);
            }}
          >
            Event loss table (CSV)
          </Button>
        </>
      )}
    </Card>
  );
}
