import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Progress, Segmented, Switch } from 'antd';
import { FileDoneOutlined, ReloadOutlined } from '@ant-design/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { SCENARIO_LABELS } from '@crp/contracts';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import type { AssetRow, DashboardData, UpdateAssetsResult, Unit } from '../../api/dashboard';
import { ApiError, firstErrorMessage } from '../../api/http';
import { readPreference, writePreference } from '../../lib/storage';
import { NotModelledNote } from '../../ui/NotModelledNote';
import { PageLoading } from '../../ui/PageLoading';
import { AdvancedFilters } from './AdvancedFilters';
import { AssetAnalysisModal } from './AssetAnalysisModal';
import { AssetTable } from './AssetTable';
import { CvarCharts } from './CvarCharts';
import {
  filtersFromSearch,
  initialFilters,
  optionsFromSearch,
  searchOf,
  WITH_CONTENT_KEY,
  type AnalysisOptions,
  type AppliedFilters,
  type DashboardEntry,
} from './dashboardState';
import { DetailByYear } from './DetailByYear';
import { DonutCharts } from './DonutCharts';
import { ServerHeatMap } from './HeatMap';
import { INFO } from './infoTexts';
import { KeyFindings } from './KeyFindings';
import { ClimateRiskIndexButton } from './ClimateRiskIndex';
import { LossTabs } from './LossTabs';
import { ServerLocationMapSection, ServerRiskMapSection } from './MapSections';
import { InfoButton, Section } from './Section';
import { SeverityTable } from './SeverityTable';
import { ClimateScore, KpiCards } from './SummaryCards';
import { toSent, useDashboard, type Pending } from './useDashboard';
import './dashboard.css';

function AnalysisProgress({ pending, title }: { pending: Pending; title: string }) {
  return (
    <Card className="crp-card crp-dash-progress" data-testid="dashboard-progress">
      <h2>{title}</h2>
      <p>{pending.detail}</p>
      <Progress percent={Math.round(pending.progress * 100)} status="active" aria-label="Analysis progress" />
      <p className="crp-muted crp-small">
        {pending.status === 'preparing' ? 'The dashboard opens by itself when it is ready.' : 'The dashboard opens by itself when the analysis is done.'}
      </p>
    </Card>
  );
}

function Toggle({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="crp-dash-toggle">
      <span className="crp-dash-toggle-label">{label}</span>
      <span className="crp-dash-toggle-control">{children}</span>
    </div>
  );
}

/**
 * The physical-risk dashboard of one project (spec 001 §2.1): sticky Advanced Filters, header, climate score, KPI
 * cards, 20-year expected loss charts, severity table, donuts, loss tabs, heat map, maps, key findings and the editable asset table.
 * `extra` renders after the key findings (the company roll-up of /company-dashboard).
 */
export function DashboardView({
  entry,
  title = 'Physical Climate Risk Assessment',
  extra,
}: {
  entry: DashboardEntry;
  title?: string;
  extra?: (data: DashboardData, unit: Unit) => ReactNode;
}) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  // Filters, switches and unit live in the URL too (issue 23 item 6): read on entry (a bookmark, a shared link, a
  // reload), written back on every change (replacing the history entry, keeping the navigation state).
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [filters, setFilters] = useState<AppliedFilters>(() => filtersFromSearch(searchParams, initialFilters(entry)));
  const [options, setOptions] = useState<AnalysisOptions>(() =>
    optionsFromSearch(searchParams, { mitigation: true, with_content: readPreference(WITH_CONTENT_KEY) !== 'false', adjusted_gdp: false }),
  );
  const [unit, setUnit] = useState<Unit>(() => (searchParams.get('unit') === 'percentage' ? 'percentage' : 'dollar'));
  const [sevAdaptation, setSevAdaptation] = useState(options.mitigation);
  const [heatAdaptation, setHeatAdaptation] = useState(options.mitigation);
  useEffect(() => {
    const next = searchOf(entry, filters, options, unit, searchParams);
    if (next.toString() !== searchParams.toString()) setSearchParams(next, { replace: true, state: location.state });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entry, filters, options, unit]);
  const [openAsset, setOpenAsset] = useState<AssetRow | null>(null);
  const [presentation, setPresentation] = useState<'overview' | 'detail'>('overview');
  const sent = useMemo(() => toSent(entry, filters, options), [entry, filters, options]);
  // The dashboard page reads the per-asset sections page by page of the server; the company roll-up needs every row.
  const { query, data, pending, error } = useDashboard(sent, extra ? 'columns' : 'pages');
  // Pages of the asset table, heat map and maps being fetched: the page is not settled yet (data-loading).
  const pagesFetching =
    useIsFetching({ predicate: (q) => q.queryKey[0] === 'dashboard' && ['assets', 'heatmap', 'map'].includes(q.queryKey[1] as string) }) > 0;

  const setOption = <K extends keyof AnalysisOptions>(k: K, v: AnalysisOptions[K]) => {
    if (k === 'with_content') writePreference(WITH_CONTENT_KEY, String(v));
    if (k === 'mitigation') {
      setSevAdaptation(v as boolean);
      setHeatAdaptation(v as boolean);
    }
    setOptions((o) => ({ ...o, [k]: v }));
  };

  const onSaved = (r: UpdateAssetsResult) => {
    void message.success(r.changed ? `Saved ${r.changed} asset(s). The analysis is re-running; the dashboard refreshes when it is done.` : 'Nothing changed.');
    if (r.changed) void qc.invalidateQueries({ queryKey: ['dashboard'] });
  };

  if (!data) {
    if (pending)
      return (
        <AnalysisProgress
          pending={pending}
          title={`${pending.status === 'preparing' ? 'Preparing the dashboard of' : 'Analysing'} ${entry.project_name ?? 'the project'}`}
        />
      );
    if (error)
      return (
        <Alert
          type="error"
          showIcon
          data-testid="dashboard-error"
          title="The dashboard could not be loaded"
          description={firstErrorMessage(error, 'Something went wrong. Try again.')}
          action={
            // a filter this dashboard cannot serve (e.g. of a large portfolio, from a link): open it with its defaults
            error instanceof ApiError && error.status === 422 && entry.project_id !== null ? (
              <Button data-testid="dashboard-default-filters" onClick={() => window.location.assign(`/dashboard?project_id=${entry.project_id}`)}>
                Open with the default filters
              </Button>
            ) : (
              <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
                Retry
              </Button>
            )
          }
        />
      );
    return <PageLoading fullScreen />;
  }

  const f = data.filters;
  const refreshing = query.isFetching && !pending;
  return (
    <div className="crp-dash" data-testid="dashboard" data-loading={refreshing || pagesFetching ? 'true' : 'false'} data-pending={pending ? 'true' : 'false'}>
      {/* the title first: the sticky Advanced Filters below it never cover it (issue 37 item 7) */}
      <header className="crp-dash-heading">
        <h1 className="crp-dash-title" data-testid="dashboard-title">
          {title}
        </h1>
        <p className="crp-dash-subtitle" data-testid="dashboard-subtitle">
          <strong>{data.project.name}</strong> · {data.asset_count} assets · {data.hazard_count} hazards · {SCENARIO_LABELS[f.analysis_type][f.scenario]} ·{' '}
          {f.year}
          {f.property_type !== 'All' ? ` · ${f.property_type}` : ''}
          {f.count !== 'All' ? ` · top ${f.count}` : ''}
        </p>
      </header>
      <AdvancedFilters
        value={filters}
        hazards={data.project.hazards}
        propertyTypes={data.property_types}
        onApply={setFilters}
        busy={refreshing}
        unavailable={data.large_portfolio?.unavailable}
      />
      {data.large_portfolio && (
        <Alert
          className="crp-dash-alert"
          type="info"
          showIcon
          data-testid="dashboard-large"
          title={`A portfolio of ${data.large_portfolio.assets.toLocaleString('en-US')} assets`}
          description="Its dashboard is read from a summary made once per analysis: every scenario and year, with or without adaptation, for all its hazards and assets together, with content and unadjusted operational losses. One hazard alone, one property type, the highest-loss assets and the other loss options are not available at this size."
        />
      )}

      {pending && (
        <Alert
          className="crp-dash-alert"
          type="info"
          showIcon
          data-testid="dashboard-reanalysing"
          title={`Re-analysing: ${Math.round(pending.progress * 100)} %`}
          description={`${pending.detail} The figures below are from before the change.`}
        />
      )}
      {error && (
        <Alert
          className="crp-dash-alert"
          type="error"
          showIcon
          title="The last change could not be loaded"
          description={firstErrorMessage(error, 'Try again.')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        />
      )}

      {data.climate_risk_card_data && data.climate_risk_card_data.total_asset_value === 0 && data.asset_count > 0 && (
        <Alert
          className="crp-dash-alert"
          type="info"
          showIcon
          data-testid="no-values-hint"
          title="These assets carry no values yet"
          description="Scores and hazard intensities are shown; losses stay at zero until a valuation, construction cost or revenue is entered. Use Edit All in the asset table below."
        />
      )}

      {data.project.own_data && data.project.own_data.hazards.length > 0 && (
        <Alert
          className="crp-dash-alert"
          type="info"
          showIcon
          closable
          data-testid="own-data-hazards"
          title={`${data.project.own_data.hazards.join(' and ')}: own data at ${data.project.own_data.assets} asset(s) of the portfolio`}
          description={
            <>
              Where your company's own hazard layers ({data.project.own_data.layers.join('; ')}) cover an asset, their values replace ours at this scenario and
              year: data tier “own data”, its quality is your data's. Exports name the layer in each row.
            </>
          }
        />
      )}

      {data.project.published_data && data.project.published_data.hazards.length > 0 && (
        <Alert
          className="crp-dash-alert"
          type="info"
          showIcon
          closable
          data-testid="published-data-hazards"
          title={`${data.project.published_data.hazards.join(' and ')}: published flood maps at ${data.project.published_data.assets} asset(s) of the portfolio`}
          description={
            <>
              Where the published flood maps registered on this installation ({data.project.published_data.datasets.join('; ')}) cover an asset, their depths
              replace our screening layers at this scenario and year: data tier “published dataset”. The scenario and year read are the nearest the maps offer
              (see the methodology). Exports name the map set in each row.
            </>
          }
        />
      )}

      {data.project.placeholder_hazards.length > 0 && (
        <Alert
          className="crp-dash-alert"
          type="warning"
          showIcon
          closable
          data-testid="placeholder-hazards"
          title={`${data.project.placeholder_hazards.join(' and ')}: placeholder data`}
          description={
            <>
              These hazards come from screening models (terrain and rainfall proxies), not from flood maps: no open flood maps are loaded. Read their figures as
              an order of magnitude, or load your own flood layers (Documents › Climate Methodology, “Bring your own hazard layers”).
            </>
          }
        />
      )}

      <header className="crp-dash-header">
        <div className="crp-dash-toggles" role="group" aria-label="Analysis options">
          <Toggle label="Financial view">
            <Segmented<Unit>
              size="small"
              aria-label="Financial view"
              data-testid="toggle-unit"
              value={unit}
              onChange={setUnit}
              options={[
                { label: 'Financial', value: 'dollar' },
                { label: 'Percentage', value: 'percentage' },
              ]}
            />
          </Toggle>
          <Toggle label="Adaptation">
            <Switch
              checked={options.mitigation}
              onChange={(v) => setOption('mitigation', v)}
              checkedChildren="On"
              unCheckedChildren="Off"
              aria-label="Adaptation"
              data-testid="toggle-adaptation"
            />
            <InfoButton title={INFO.adaptation!.title}>{INFO.adaptation!.body}</InfoButton>
          </Toggle>
          <Toggle label="Content">
            <Segmented<string>
              size="small"
              aria-label="Content"
              data-testid="toggle-content"
              disabled={!!data.large_portfolio?.unavailable.includes('with_content')}
              value={options.with_content ? 'add' : 'remove'}
              onChange={(v) => setOption('with_content', v === 'add')}
              options={[
                { label: 'Add Content', value: 'add' },
                { label: 'Remove Content', value: 'remove' },
              ]}
            />
          </Toggle>
          <Toggle label="Operational loss">
            <Segmented<string>
              size="small"
              aria-label="Operational loss"
              data-testid="toggle-gdp"
              disabled={!!data.large_portfolio?.unavailable.includes('adjusted_gdp')}
              value={options.adjusted_gdp ? 'gdp' : 'plain'}
              onChange={(v) => setOption('adjusted_gdp', v === 'gdp')}
              options={[
                { label: 'Unadjusted', value: 'plain' },
                { label: 'GDP-adjusted', value: 'gdp' },
              ]}
            />
          </Toggle>
        </div>
      </header>

      <div className="crp-dash-presentation-row">
        <Segmented<'overview' | 'detail'>
          className="crp-dash-presentation"
          aria-label="Presentation"
          data-testid="presentation"
          value={presentation}
          onChange={setPresentation}
          options={[
            { label: 'Overview', value: 'overview' },
            { label: 'Detail by year', value: 'detail' },
          ]}
        />
        <Button
          icon={<FileDoneOutlined />}
          onClick={() =>
            navigate('/tcfd', {
              state: {
                project_name: data.project.name,
                project_id: data.project.project_id,
                analysis_type: f.analysis_type,
                scenario: f.scenario,
                year: f.year,
              },
            })
          }
        >
          TCFD report
        </Button>
      </div>

      <NotModelledNote />

      {presentation === 'detail' ? (
        <DetailByYear project={data.project} filters={filters} withContent={options.with_content} unit={unit} onOpenAsset={setOpenAsset} onSaved={onSaved} />
      ) : (
        <>
          <div className="crp-dash-row crp-dash-row-summary">
            <Section
              testId="section-climate-score"
              title="Climate Score"
              info={INFO.climateScore}
              extra={<ClimateRiskIndexButton score={data.overall.overall_risk} />}
            >
              <ClimateScore score={data.overall.overall_risk} />
            </Section>
            <KpiCards data={data} unit={unit} />
          </div>

          <div className="crp-dash-row">
            <CvarCharts data={data} unit={unit} />
            <DonutCharts data={data} unit={unit} />
          </div>

          <SeverityTable data={data} adaptation={sevAdaptation} onAdaptation={setSevAdaptation} />
          <LossTabs data={data} unit={unit} />
          <ServerHeatMap sent={sent} allowed={data.tier_permissions.climate_heatmap === true} adaptation={heatAdaptation} onAdaptation={setHeatAdaptation} />

          <div className="crp-dash-row">
            <ServerLocationMapSection sent={sent} allowed={data.tier_permissions.asset_level_risk_map === true} />
            <ServerRiskMapSection sent={sent} allowed={data.tier_permissions.asset_level_risk_map === true} hazards={data.project.hazards} />
          </div>

          <KeyFindings data={data} />
          {extra?.(data, unit)}
          <AssetTable data={data} sent={sent} onOpenAsset={setOpenAsset} onSaved={onSaved} />
        </>
      )}

      {openAsset && <AssetAnalysisModal asset={openAsset} data={data} sent={sent} unit={unit} onClose={() => setOpenAsset(null)} />}
    </div>
  );
}
