import { useState } from 'react';
import { Alert, Button, Modal, Select, Spin } from 'antd';
import { BulbOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { BASELINE_YEAR, YEARS } from '@crp/contracts';
import { fetchDashboardDetail, type AssetRow, type DashboardData, type UpdateAssetsResult, type Unit } from '../../api/dashboard';
import { firstErrorMessage } from '../../api/http';
import { AssetTable } from './AssetTable';
import type { AppliedFilters } from './dashboardState';
import { HeatMap } from './HeatMap';
import { KeyFindings } from './KeyFindings';
import { LossTabs } from './LossTabs';
import { RiskMapSection } from './MapSections';
import { Section } from './Section';
import { SeverityTable } from './SeverityTable';
import { KpiCards } from './SummaryCards';

/**
 * The detail-by-year presentation (spec 001 §2.1): `POST api/v2/dashboard/detail/` for one year at a time, with the
 * risk map, climate variable intensity (adaptation switch, Key Findings button), heat map, financial view and the
 * asset table.
 */
export function DetailByYear({
  project,
  filters,
  withContent,
  unit,
  onOpenAsset,
  onSaved,
}: {
  project: DashboardData['project'];
  filters: AppliedFilters;
  withContent: boolean;
  unit: Unit;
  onOpenAsset: (row: AssetRow) => void;
  onSaved: (r: UpdateAssetsResult) => void;
}) {
  const at = filters.analysis_type;
  const years = at === 'rcp' ? [...YEARS.rcp] : [BASELINE_YEAR, ...YEARS.ssp];
  const [year, setYear] = useState(years.includes(filters.year) ? filters.year : years[years.length - 1]!);
  const [adaptation, setAdaptation] = useState(true);
  const [heatAdaptation, setHeatAdaptation] = useState(true);
  const [findings, setFindings] = useState(false);
  const body = {
    project: project.name,
    rcp: filters.scenario,
    year,
    count: filters.count,
    with_content: withContent,
    variable: filters.variable,
    analysis_type: at,
  };
  const q = useQuery({
    queryKey: ['dashboard', 'detail', body],
    queryFn: ({ signal }) => fetchDashboardDetail(body, signal),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  const data = q.data;

  return (
    <div className="crp-dash-stack" data-testid="detail-by-year" data-loading={q.isFetching ? 'true' : 'false'}>
      <div className="crp-dash-detail-bar">
        <label className="crp-dash-switch">
          Year
          <Select
            aria-label="Detail year"
            data-testid="detail-year"
            style={{ width: 100 }}
            value={year}
            onChange={setYear}
            options={years.map((y) => ({ value: y, label: String(y) }))}
            virtual={false}
            listHeight={320}
          />
        </label>
        {q.isFetching && <Spin size="small" />}
        <span className="crp-muted crp-small">
          With adaptation, all property types; {data ? `${data.asset_count} assets · ${data.filters.scenario_label} · ${data.filters.year}` : 'loading…'}
        </span>
      </div>
      {q.error && <Alert type="error" showIcon title="The detail could not be loaded" description={firstErrorMessage(q.error, 'Try again.')} />}
      {data && (
        <>
          <RiskMapSection data={data} />
          <div className="crp-dash-detail-intensity">
            <SeverityTable data={data} adaptation={adaptation} onAdaptation={setAdaptation} />
            <Button icon={<BulbOutlined />} onClick={() => setFindings(true)} data-testid="detail-key-findings">
              Key Findings
            </Button>
          </div>
          <HeatMap data={data.heatmap} without={data.heatmap_without_adaptation} adaptation={heatAdaptation} onAdaptation={setHeatAdaptation} />
          <Section testId="section-financial-view" title="Financial view">
            <KpiCards data={data} unit={unit} />
          </Section>
          <LossTabs data={data} unit={unit} />
          <AssetTable data={data} onOpenAsset={onOpenAsset} onSaved={onSaved} />
          <Modal
            title="Key Findings"
            open={findings}
            onCancel={() => setFindings(false)}
            footer={<Button onClick={() => setFindings(false)}>Close</Button>}
            width={900}
            destroyOnHidden
          >
            <KeyFindings data={data} />
          </Modal>
        </>
      )}
    </div>
  );
}
