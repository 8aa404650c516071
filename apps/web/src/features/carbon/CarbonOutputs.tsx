import type { CarbonAnalysisResponse, CarbonCompanyResult } from '@crp/contracts';
import { Card, Col, Row, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { fmt } from './carbonRows';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

const SOURCE_TAG: Record<CarbonCompanyResult['emission_source'], { color: string; label: string; tip: string }> = {
  reported: { color: 'default', label: 'reported', tip: 'Scope 1+2 as entered.' },
  projected: {
    color: 'gold',
    label: 'projected',
    tip: 'Not reported: revenue x the emission factor of the sector and region (tCO2e per USD million revenue).',
  },
  unavailable: { color: 'red', label: 'no factor', tip: 'Not reported, and no published factor exists for this sector and region.' },
};

/** The output table (spec 001 §3.5 table_data columns), with the projected scope 1+2 marked as such. */
export function CarbonOutputTable({ data }: { data: CarbonAnalysisResponse }) {
  const columns: ColumnsType<CarbonCompanyResult> = [
    { title: 'Company Name', dataIndex: 'company_name', fixed: 'left', width: 160 },
    {
      title: <Tooltip title="tCO2e per year: reported, or projected from revenue, sector and region">Projected Scope 1+2 GHG (tCO2e)</Tooltip>,
      dataIndex: 'projected_scope_1_and_2_GHG_emission',
      align: 'right',
      width: 180,
      render: (v: number | null, r) => (
        <span>
          {fmt(v)}{' '}
          <Tooltip
            title={
              r.note ??
              (r.emission_source === 'projected' ? `${SOURCE_TAG.projected.tip} Factor ${fmt(r.emission_factor)}.` : SOURCE_TAG[r.emission_source].tip)
            }
          >
            <Tag color={SOURCE_TAG[r.emission_source].color} data-testid={`source-${r.emission_source}`}>
              {SOURCE_TAG[r.emission_source].label}
            </Tag>
          </Tooltip>
        </span>
      ),
    },
    {
      title: <Tooltip title="Portfolio weight x carbon intensity; the rows add up to the portfolio WACI">WACI (tCO2e/USD M revenue)</Tooltip>,
      dataIndex: 'weighted_average_carbon_intensity',
      align: 'right',
      width: 130,
      render: (v) => fmt(v),
    },
    {
      title: <Tooltip title="Financed emissions: investment / market cap x scope 1+2">Total Carbon Emission (tCO2e)</Tooltip>,
      dataIndex: 'total_carbon_emission',
      align: 'right',
      width: 130,
      render: (v) => fmt(v),
    },
    {
      title: <Tooltip title="Financed emissions per USD million invested">Carbon Footprint (tCO2e/USD M invested)</Tooltip>,
      dataIndex: 'carbon_footprint',
      align: 'right',
      width: 140,
      render: (v) => fmt(v),
    },
    {
      title: <Tooltip title="Scope 1+2 per USD million of the company's revenue">Carbon Intensity (tCO2e/USD M revenue)</Tooltip>,
      dataIndex: 'carbon_intensity',
      align: 'right',
      width: 140,
      render: (v) => fmt(v),
    },
  ];
  return (
    <Table<CarbonCompanyResult>
      rowKey={(r, i) => `${r.company_name}-${i}`}
      size="small"
      columns={columns}
      dataSource={data.table_data}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 880 }}
      data-testid="carbon-output-table"
    />
  );
}

/** Portfolio totals (spec 001 §3.5). */
export function CarbonTotals({ data }: { data: CarbonAnalysisResponse }) {
  const p = data.portfolio;
  const items = [
    { key: 'total', title: 'Total financed emissions', value: fmt(p.total_carbon_emission_portfolio), unit: 'tCO2e/yr' },
    { key: 'footprint', title: 'Carbon footprint', value: fmt(p.carbon_footprint), unit: 'tCO2e per USD M invested' },
    { key: 'intensity', title: 'Carbon intensity', value: fmt(p.carbon_intensity), unit: 'tCO2e per USD M revenue' },
    { key: 'waci', title: 'Weighted average carbon intensity', value: fmt(p.weighted_average_carbon_intensity_portfolio), unit: 'tCO2e per USD M revenue' },
    { key: 'scope', title: 'Scope 1+2 of holdings', value: fmt(p.projected_scope_1_and_2_portfolio), unit: `tCO2e/yr (${p.projected_companies} projected)` },
  ];
  return (
    <Row gutter={[16, 16]} data-testid="carbon-totals">
      {items.map((i) => (
        <Col flex="1 1 200px" key={i.key}>
          <Card className="crp-card" size="small">
            <Statistic title={i.title} value={i.value} data-testid={`total-${i.key}`} />
            <Typography.Text className="crp-muted" style={{ fontSize: 12 }}>
              {i.unit}
            </Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function GroupChart({ title, groups, testId }: { title: string; groups: CarbonAnalysisResponse['by_sector']; testId: string }) {
  const sorted = [...groups].sort((a, b) => a.total_carbon_emission - b.total_carbon_emission);
  return (
    <Card className="crp-card" title={title} size="small">
      <div role="img" aria-label={title} data-testid={testId}>
        <ReactEChartsCore
          echarts={echarts}
          notMerge
          style={{ height: Math.max(180, 40 + sorted.length * 30), width: '100%' }}
          option={{
            animationDuration: 250,
            grid: { left: 8, right: 40, top: 8, bottom: 24, containLabel: true },
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => `${fmt(Number(v))} tCO2e` },
            xAxis: { type: 'value', axisLabel: { formatter: (v: number) => fmt(v, 0) } },
            yAxis: { type: 'category', data: sorted.map((g) => g.key), axisLabel: { width: 180, overflow: 'truncate' } },
            series: [
              {
                type: 'bar',
                data: sorted.map((g) => Math.round(g.total_carbon_emission * 100) / 100),
                itemStyle: { color: '#0f766e' },
                barMaxWidth: 22,
                label: { show: true, position: 'right', formatter: (x: { value: number }) => fmt(x.value, 0) },
              },
            ],
          }}
        />
      </div>
    </Card>
  );
}

/** Financed emissions by sector and by region. */
export function CarbonCharts({ data }: { data: CarbonAnalysisResponse }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <GroupChart title="Financed emissions by sector (tCO2e)" groups={data.by_sector} testId="chart-sector" />
      </Col>
      <Col xs={24} lg={12}>
        <GroupChart title="Financed emissions by region (tCO2e)" groups={data.by_region} testId="chart-region" />
      </Col>
    </Row>
  );
}

/**
 * Other Environment Metric: the spec leaves this tab empty; we show PCAF data quality and coverage, which say how far
 * the numbers above can be trusted (docs/methodology.md).
 */
export function OtherEnvironmentMetric({ data }: { data: CarbonAnalysisResponse }) {
  const p = data.portfolio;
  return (
    <Card className="crp-card" data-testid="other-metric">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Statistic title="PCAF data-quality score (1 best, 5 worst)" value={p.data_quality_score === null ? '–' : fmt(p.data_quality_score, 1)} />
        </Col>
        <Col xs={24} md={8}>
          <Statistic title="Coverage of portfolio value" value={`${fmt(p.coverage * 100, 1)}%`} />
        </Col>
        <Col xs={24} md={8}>
          <Statistic
            title="Companies reported / projected / no factor"
            value={`${p.reported_companies} / ${p.projected_companies} / ${p.unavailable_companies}`}
          />
        </Col>
      </Row>
      <Typography.Paragraph className="crp-muted" style={{ marginTop: 16 }}>
        Investment-weighted PCAF score: reported scope 1+2 counts as score 2 (reported, not verified); a revenue-based projection as score 4. Holdings without
        emissions and without a published factor are left out of the totals and lower the coverage.
      </Typography.Paragraph>
    </Card>
  );
}
