import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Modal, Spin, Switch, Tabs } from 'antd';
import { SCENARIO_LABELS } from '@crp/contracts';
import type { AssetRow, DashboardData, DashboardFiltersSent, Unit } from '../../api/dashboard';
import { firstErrorMessage } from '../../api/http';
import { AssetMap } from '../../ui/maps/AssetMap';
import { NotModelledNote } from '../../ui/NotModelledNote';
import { BuildingDamageExplorer } from './BuildingDamageExplorer';
import { Chart, CVAR_COLOUR, HAZARD_PALETTE, RCVAR_COLOUR, type EChartsOption } from '../../ui/charts/Chart';
import { axisMax, chartValue, money, percent } from '../../lib/format';
import { BandTag } from './SeverityTable';
import { ClimateScore } from './SummaryCards';
import { TyphoonTracks } from './TyphoonTracks';
import { useAssetAt, useAssetComparison, type AssetAt } from './useAssetComparison';

function scoreBars(scores: Record<string, number | null>): EChartsOption {
  const hz = Object.keys(scores);
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 110, right: 24, top: 12, bottom: 28 },
    xAxis: { type: 'value', min: 0, max: 100, name: 'Score' },
    yAxis: { type: 'category', data: hz, inverse: true },
    series: [
      {
        type: 'bar',
        data: hz.map((h, i) => ({ value: scores[h], itemStyle: { color: HAZARD_PALETTE[i % HAZARD_PALETTE.length] } })),
        barMaxWidth: 18,
        label: { show: true, position: 'right' },
      },
    ],
  };
}

function lossBars(points: AssetAt[], unit: Unit): EChartsOption {
  const val = (r: AssetRow | null, which: 'cvar' | 'rcvar') => {
    if (!r) return null;
    const usd = which === 'cvar' ? r.cvar : r.overall_loss;
    if (unit === 'dollar') return chartValue(usd, 'dollar');
    // the server's percentage (of the value the user gave, times ownership, with content: the dashboard's denominator)
    // scales the CVaR by the same value
    const v = which === 'rcvar' ? r.percentage : usd !== null && r.percentage && r.overall_loss ? (usd * r.percentage) / r.overall_loss : usd === 0 ? 0 : null;
    return chartValue(v, 'percentage');
  };
  const c = points.map((p) => val(p.row, 'cvar'));
  const rc = points.map((p) => val(p.row, 'rcvar'));
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 64, right: 16, top: 52, bottom: 28 },
    xAxis: { type: 'category', data: points.map((p) => p.label) },
    yAxis: { type: 'value', name: unit === 'dollar' ? 'M USD' : '% of valuation', max: axisMax([...c, ...rc]) },
    series: [
      { name: '20-year expected loss', type: 'bar', data: c, itemStyle: { color: CVAR_COLOUR }, barMaxWidth: 30 },
      { name: 'Residual 20-year expected loss', type: 'bar', data: rc, itemStyle: { color: RCVAR_COLOUR }, barMaxWidth: 30 },
    ],
  };
}

function scoreCompare(points: AssetAt[]): EChartsOption {
  const hz = [...new Set(points.flatMap((p) => Object.keys(p.scores)))];
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 36, bottom: 64 },
    xAxis: { type: 'category', data: hz, axisLabel: { rotate: hz.length > 5 ? 30 : 0, interval: 0, fontSize: 11 } },
    yAxis: { type: 'value', min: 0, max: 100, name: 'Score' },
    series: points.map((p, i) => ({
      name: p.label,
      type: 'bar',
      data: hz.map((h) => p.scores[h] ?? null),
      itemStyle: { color: ['#94a3b8', '#60a5fa', '#2563eb', '#1e3a8a'][i] },
      barMaxWidth: 16,
    })),
  };
}

function ComparisonBlock({ title, points, unit }: { title: string; points: AssetAt[]; unit: Unit }) {
  return (
    <Card className="crp-card" title={title} size="small">
      <div className="crp-dash-two">
        <Chart option={scoreCompare(points)} label={`${title}: hazard scores`} />
        <Chart option={lossBars(points, unit)} label={`${title}: 20-year expected loss and residual 20-year expected loss`} />
      </div>
      <div className="crp-dash-compare-scores">
        {points.map((p) => (
          <div key={p.label}>
            <div className="crp-muted crp-small">{p.label}</div>
            <strong>{p.row?.climatic_score ?? '—'}</strong> <span className="crp-muted crp-small">climate score</span>
          </div>
        ))}
      </div>
    </Card>
  );
}

/**
 * Asset Analysis (spec 001 §2.2), full screen: Risk tab (title, climate score, map, intensity with an adaptation switch,
 * financial view, year-loss chart), Comparison tab (scenarios at 2050; years 2020/2030/2050, plus 2100 for ssp) and the
 * building-damage explorer. The Risk tab ends with the historical typhoon tracks within 200 km (fetched when the tab is open).
 */
export function AssetAnalysisModal({
  asset,
  data,
  sent,
  unit,
  onClose,
}: {
  asset: AssetRow;
  data: DashboardData;
  sent: DashboardFiltersSent;
  unit: Unit;
  onClose: () => void;
}) {
  const [tab, setTab] = useState('risk');
  const [adaptation, setAdaptation] = useState(sent.mitigation);
  const cmp = useAssetComparison(sent, asset, true);
  const { row, scores } = useAssetAt(sent, asset, adaptation);
  const r = row ?? asset;
  const f = data.filters;
  const hazards = Object.keys(scores);
  const title = `${r.name}: ${hazards.length || data.hazard_count} hazards · ${f.analysis_type.toUpperCase()} · ${SCENARIO_LABELS[f.analysis_type][f.scenario]} · ${f.year}`;

  const loading = cmp.loading ? <Spin /> : null;
  const errorMsg = cmp.error ? <Alert type="error" showIcon title={firstErrorMessage(cmp.error, 'The comparison could not be loaded.')} /> : null;

  return (
    <Modal
      open
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      width="100%"
      className="crp-dash-fullscreen"
      title={<span data-testid="asset-modal-title">Asset Analysis</span>}
      destroyOnHidden
    >
      <div data-testid="asset-modal">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'risk',
              label: 'Risk',
              children: (
                <div className="crp-dash-modal-grid">
                  <h3 className="crp-dash-modal-title" data-testid="asset-risk-title">
                    {title}
                  </h3>
                  <Card className="crp-card" size="small" title="Climate Score">
                    <ClimateScore score={r.climatic_score} />
                  </Card>
                  <Card className="crp-card" size="small" title="Asset Map Location">
                    <AssetMap
                      points={[
                        {
                          name: r.name,
                          latitude: r.latitude,
                          longitude: r.longitude,
                          colour: '#2563eb',
                          detail: `${r.latitude.toFixed(4)}, ${r.longitude.toFixed(4)}`,
                        },
                      ]}
                      height={260}
                      label={`Location of ${r.name}`}
                    />
                  </Card>
                  <Card
                    className="crp-card"
                    size="small"
                    title="Climate variable intensity (hazard scores)"
                    extra={
                      <label className="crp-dash-switch">
                        Adaptation{' '}
                        <Switch
                          size="small"
                          checked={adaptation}
                          onChange={setAdaptation}
                          checkedChildren="On"
                          unCheckedChildren="Off"
                          aria-label="Adaptation in the asset intensity chart"
                        />
                      </label>
                    }
                  >
                    {hazards.length ? (
                      <>
                        <Chart
                          option={scoreBars(scores)}
                          height={Math.max(160, hazards.length * 30 + 40)}
                          label="Hazard scores of the asset"
                          testId="asset-intensity"
                        />
                        <div className="crp-dash-tags">
                          {hazards.map((h) => (
                            <span key={h}>
                              {h} <BandTag score={scores[h] ?? null} />
                            </span>
                          ))}
                        </div>
                      </>
                    ) : (
                      <p className="crp-muted">The heat map is not part of your tier, or this asset has no hazard data.</p>
                    )}
                  </Card>
                  <Card className="crp-card" size="small" title="Financial view">
                    <Descriptions size="small" column={2} bordered>
                      <Descriptions.Item label="Valuation">{money(r.valuation)}</Descriptions.Item>
                      <Descriptions.Item label="Maximum exposure">{money(r.max_exposure)}</Descriptions.Item>
                      <Descriptions.Item label="20-year expected loss">{money(r.cvar)}</Descriptions.Item>
                      <Descriptions.Item label="Residual 20-year expected loss">{money(r.overall_loss)}</Descriptions.Item>
                      <Descriptions.Item label="Residual 20-year expected loss %">{percent(r.percentage)}</Descriptions.Item>
                      <Descriptions.Item label="Mitigation">{['No', 'Low', 'Medium', 'High'][r.mitigation_risk] ?? r.mitigation_risk}</Descriptions.Item>
                    </Descriptions>
                    <NotModelledNote testId="asset-not-modelled" />
                  </Card>
                  <Card className="crp-card crp-dash-span2" size="small" title={`Losses by year (${SCENARIO_LABELS[f.analysis_type][f.scenario]})`}>
                    {loading ?? errorMsg ?? (
                      <Chart
                        option={lossBars(cmp.years, unit)}
                        label="20-year expected loss and residual 20-year expected loss of the asset by year"
                        testId="asset-year-loss"
                      />
                    )}
                  </Card>
                  <TyphoonTracks
                    projectId={data.project.project_id}
                    assetId={r.id}
                    name={r.name}
                    latitude={r.latitude}
                    longitude={r.longitude}
                    active={tab === 'risk'}
                  />
                </div>
              ),
            },
            {
              key: 'comparison',
              label: 'Comparison',
              children: loading ?? errorMsg ?? (
                <div className="crp-dash-stack" data-testid="asset-comparison">
                  <ComparisonBlock title="Scenarios at 2050" points={cmp.scenarios} unit={unit} />
                  <ComparisonBlock title={`Years (${SCENARIO_LABELS[f.analysis_type][f.scenario]})`} points={cmp.years} unit={unit} />
                </div>
              ),
            },
            {
              key: 'damage',
              label: 'Building damage',
              children: <BuildingDamageExplorer projectName={data.project.name} assetName={r.name} year={f.year} analysisType={f.analysis_type} />,
            },
          ]}
        />
      </div>
    </Modal>
  );
}
