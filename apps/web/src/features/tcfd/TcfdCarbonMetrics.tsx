import { Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { fetchCarbonAnalysis, fetchCarbonProjects } from '../../api/carbon';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';

const num = (v: number | null, digits = 1) =>
  v === null ? 'n/a' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * TCFD Metrics b): the financed emissions of a carbon (transition) analysis the user links to this portfolio. The
 * link is saved with the portfolio's TCFD text on the server (useTcfdNarrative); the figures come from the carbon
 * module's call.
 */
export function TcfdCarbonMetrics({ linked, onLink }: { linked: string | null; onLink: (name: string | null) => void }) {
  const userId = readUserId();
  const setLinked = onLink;
  const list = useQuery({ queryKey: queryKeys.carbonList(userId ?? 0), queryFn: () => fetchCarbonProjects(userId!), enabled: userId !== null });
  const names = (list.data?.data ?? []).map((p) => p.project_name);
  const chosen = linked && names.includes(linked) ? linked : null;
  const analysis = useQuery({
    queryKey: queryKeys.carbonAnalysis(chosen ?? ''),
    queryFn: () => fetchCarbonAnalysis(userId!, chosen!),
    enabled: userId !== null && chosen !== null,
  });
  const p = analysis.data?.portfolio;

  return (
    <div data-testid="tcfd-transition">
      <Space className="crp-screen-only" wrap>
        <span>Carbon analysis:</span>
        <Select
          aria-label="Linked carbon analysis"
          style={{ minWidth: 280 }}
          allowClear
          placeholder={names.length ? 'Choose a carbon analysis' : 'No carbon analyses yet'}
          loading={list.isLoading}
          value={chosen ?? undefined}
          onChange={(v?: string) => setLinked(v ?? null)}
          options={names.map((n) => ({ value: n, label: n }))}
        />
      </Space>
      {!chosen ? (
        <p>
          No carbon (transition) analysis is linked to this portfolio, so financed emissions, carbon intensity and footprint are not reported here.{' '}
          {names.length ? 'Choose one above, or create one' : 'Create one'} in the <Link to="/transition">Transition Risk module</Link>.
        </p>
      ) : !p ? (
        <p className="crp-muted">{analysis.isError ? 'The carbon analysis could not be loaded.' : 'Loading the carbon analysis...'}</p>
      ) : (
        <table className="crp-tcfd-metrics" data-testid="tcfd-carbon-table">
          <tbody>
            <tr>
              <th>Carbon analysis</th>
              <td>
                {chosen} · portfolio value {(p.portfolio_value / 1e6).toLocaleString('en-US', { maximumFractionDigits: 2 })} M USD
              </td>
            </tr>
            <tr>
              <th>Financed scope 1+2 emissions</th>
              <td>{num(p.total_carbon_emission_portfolio)} tCO2e per year</td>
            </tr>
            <tr>
              <th>Carbon footprint</th>
              <td>{num(p.carbon_footprint, 2)} tCO2e per USD million invested</td>
            </tr>
            <tr>
              <th>Weighted average carbon intensity</th>
              <td>{num(p.weighted_average_carbon_intensity_portfolio, 2)} tCO2e per USD million revenue</td>
            </tr>
            <tr>
              <th>Carbon intensity</th>
              <td>{p.carbon_intensity === null ? 'n/a' : `${num(p.carbon_intensity, 2)} tCO2e per USD million revenue`}</td>
            </tr>
            <tr>
              <th>Data basis</th>
              <td>
                {p.reported_companies} reported, {p.projected_companies} projected from revenue
                {p.unavailable_companies ? `, ${p.unavailable_companies} without a factor (left out)` : ''} · coverage {num(p.coverage * 100, 0)} % of the
                amount invested
                {p.data_quality_score !== null ? ` · PCAF data quality ${num(p.data_quality_score, 1)}` : ''}
              </td>
            </tr>
          </tbody>
        </table>
      )}
      <p className="crp-muted crp-small">
        Scope 3 emissions are not covered by the carbon module. Method: PCAF financed emissions with market capitalisation as the attribution denominator
        (Climate Methodology, carbon chapter).
      </p>
    </div>
  );
}
