import { Tabs } from 'antd';
import type { DashboardData, HazardLoss, Unit } from '../../api/dashboard';
import { Chart, HAZARD_PALETTE, type EChartsOption } from '../../ui/charts/Chart';
import { axisMax, chartValue, unitAxisName } from '../../lib/format';
import { Section, UpgradePlaceholder } from './Section';

const fmt = (unit: Unit) => (v: unknown) => (v === null || v === undefined ? '—' : `${v as number} ${unitAxisName(unit)}`);

function hazardCompare(base: HazardLoss[], now: HazardLoss[], year: number, unit: Unit, usePct: boolean): EChartsOption {
  const pick = (r: HazardLoss) => chartValue(usePct && unit === 'percentage' ? (r.percentage ?? null) : r.loss, usePct ? unit : 'dollar');
  const b = base.map(pick);
  const n = now.map(pick);
  const u: Unit = usePct ? unit : 'dollar';
  return {
    tooltip: { trigger: 'axis', valueFormatter: fmt(u) },
    legend: { top: 0 },
    grid: { left: 64, right: 16, top: 36, bottom: 64 },
    xAxis: { type: 'category', data: now.map((r) => r.hazard), axisLabel: { rotate: now.length > 5 ? 30 : 0, interval: 0, fontSize: 11 } },
    yAxis: { type: 'value', name: unitAxisName(u), max: axisMax([...b, ...n]) },
    series: [
      { name: '2020', type: 'bar', data: b, itemStyle: { color: '#94a3b8' }, barMaxWidth: 26 },
      { name: String(year), type: 'bar', data: n, itemStyle: { color: '#1d4ed8' }, barMaxWidth: 26 },
    ],
  };
}

/** Portfolio loss tabs (spec 001 §2.1): per hazard, detailed (each year of the scenario), overall and inventory. */
export function LossTabs({ data, unit }: { data: DashboardData; unit: Unit }) {
  const year = data.filters.year;
  const per = data.portfolio_exposure_percentage_loss;
  const perBase = data.portfolio_exposure_percentage_loss_historic;
  const bars = data.loss_bars_data;
  const yc = data.year_chart_data;
  const cone = data.cone_chart;
  const inv = data.inventory_loss_data;
  const invBase = data.inventory_loss_data_historic;

  const detailed: EChartsOption | null = bars && {
    color: HAZARD_PALETTE,
    tooltip: { trigger: 'axis', valueFormatter: fmt('dollar') },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 64, right: 16, top: 40, bottom: 36 },
    xAxis: { type: 'category', data: bars.years.map(String) },
    yAxis: { type: 'value', name: 'M USD' },
    series: bars.series.map((s) => ({ name: s.hazard, type: 'bar', stack: 'loss', data: s.values.map((v) => chartValue(v, 'dollar')) })),
  };
  const overallValues = yc ? yc[unit].map((p) => chartValue(p.value, unit)) : [];
  const overall: EChartsOption | null = yc && {
    title: {
      text: `${data.filters.mitigation ? 'Residual 20-year expected loss' : '20-year expected loss'} over the years (${data.filters.scenario_label})`,
      left: 'center',
      top: 0,
      textStyle: { fontSize: 13 },
    },
    tooltip: { trigger: 'axis', valueFormatter: fmt(unit) },
    legend: { top: 22 },
    grid: { left: 64, right: 16, top: 60, bottom: 36 },
    xAxis: { type: 'category', data: yc[unit].map((p) => String(p.year)) },
    yAxis: { type: 'value', name: unitAxisName(unit), max: axisMax(overallValues) },
    series: [
      {
        name: data.filters.mitigation ? 'Residual 20-year expected loss' : '20-year expected loss',
        type: 'bar',
        data: overallValues,
        itemStyle: { color: data.filters.mitigation ? '#0f766e' : '#c2410c' },
        barMaxWidth: 30,
      },
    ],
  };
  const coneOpt: EChartsOption | null = cone && {
    title: { text: '20-year expected loss by scenario', left: 'center', top: 0, textStyle: { fontSize: 13 } },
    tooltip: { trigger: 'axis', valueFormatter: fmt('dollar') },
    legend: { top: 22 },
    grid: { left: 64, right: 16, top: 60, bottom: 36 },
    xAxis: { type: 'category', data: cone.map((p) => String(p.year)) },
    yAxis: { type: 'value', name: 'M USD', scale: true },
    series: [
      { name: 'Low (2.6)', type: 'line', data: cone.map((p) => chartValue(p.low, 'dollar')), itemStyle: { color: '#16a34a' } },
      { name: 'Mid (4.5)', type: 'line', data: cone.map((p) => chartValue(p.mid, 'dollar')), itemStyle: { color: '#d97706' } },
      { name: 'High (8.5)', type: 'line', data: cone.map((p) => chartValue(p.high, 'dollar')), itemStyle: { color: '#dc2626' } },
    ],
  };

  return (
    <Section testId="section-losses" title="Portfolio losses">
      <Tabs
        items={[
          {
            key: 'hazard',
            label: 'Per hazard',
            children:
              per && perBase ? (
                <Chart option={hazardCompare(perBase, per, year, unit, true)} label="Expected annual loss per hazard" testId="loss-per-hazard" />
              ) : (
                <UpgradePlaceholder />
              ),
          },
          {
            key: 'detailed',
            label: 'Detailed',
            children: detailed ? (
              <Chart option={detailed} height={340} label="Expected annual loss per hazard and year" testId="loss-detailed" />
            ) : (
              <UpgradePlaceholder />
            ),
          },
          {
            key: 'overall',
            label: 'Overall',
            children:
              overall && coneOpt ? (
                <div className="crp-dash-two">
                  <Chart option={overall} label="20-year expected loss over the years" testId="loss-overall" />
                  <Chart option={coneOpt} label="20-year expected loss under scenarios 2.6, 4.5 and 8.5" testId="loss-cone" />
                </div>
              ) : (
                <UpgradePlaceholder />
              ),
          },
          {
            key: 'inventory',
            label: 'Inventory',
            children:
              inv && invBase ? (
                inv.every((r) => !r.loss) && invBase.every((r) => !r.loss) ? (
                  <p className="crp-muted" data-testid="loss-inventory-empty">
                    No inventory loss: no selected asset has a yearly inventory value. Add one in the asset table to see it here.
                  </p>
                ) : (
                  <Chart option={hazardCompare(invBase, inv, year, unit, false)} label="Inventory loss per hazard" testId="loss-inventory" />
                )
              ) : (
                <UpgradePlaceholder />
              ),
          },
        ]}
      />
    </Section>
  );
}
