import { useState } from 'react';
import { Segmented } from 'antd';
import type { DashboardData, Unit } from '../../api/dashboard';
import { Chart, CVAR_COLOUR, RCVAR_COLOUR, type EChartsOption } from '../../ui/charts/Chart';
import { axisMax, chartValue, unitAxisName } from '../../lib/format';
import { INFO } from './infoTexts';
import { Section, UpgradePlaceholder } from './Section';

type View = 'hazard' | 'year' | 'scenario';

function grouped(categories: string[], cvar: (number | null)[], rcvar: (number | null)[], unit: Unit, rotate = 0): EChartsOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v) => (v === null || v === undefined ? '—' : `${v as number} ${unitAxisName(unit)}`) },
    legend: { top: 0 },
    grid: { left: 64, right: 16, top: 52, bottom: rotate ? 70 : 36 },
    xAxis: { type: 'category', data: categories, axisLabel: { rotate, interval: 0, fontSize: 11 } },
    yAxis: { type: 'value', name: unitAxisName(unit), max: axisMax([...cvar, ...rcvar]) },
    series: [
      { name: '20-year expected loss', type: 'bar', data: cvar, itemStyle: { color: CVAR_COLOUR }, barMaxWidth: 28 },
      { name: 'Residual 20-year expected loss', type: 'bar', data: rcvar, itemStyle: { color: RCVAR_COLOUR }, barMaxWidth: 28 },
    ],
  };
}

/** 20-year expected loss versus residual 20-year expected loss as grouped bars: per hazard, over the years of the scenario, and per scenario. */
export function CvarCharts({ data, unit }: { data: DashboardData; unit: Unit }) {
  const [view, setView] = useState<View>('hazard');
  const bars = data.overall_bar_chart;
  const cc = data.cvar_chart_data;
  let option: EChartsOption | null = null;
  if (view === 'hazard' && bars) {
    option = grouped(
      bars.map((b) => b.hazard),
      bars.map((b) => chartValue(unit === 'dollar' ? b.cvar : b.cvar_percentage, unit)),
      bars.map((b) => chartValue(unit === 'dollar' ? b.rcvar : b.rcvar_percentage, unit)),
      unit,
      bars.length > 5 ? 30 : 0,
    );
  } else if (view === 'year' && cc) {
    const c = cc.cvar[unit].year_constant;
    const r = cc.rcvar[unit].year_constant;
    option = grouped(
      c.map((p) => String(p.year)),
      c.map((p) => chartValue(p.value, unit)),
      r.map((p) => chartValue(p.value, unit)),
      unit,
      c.length > 8 ? 45 : 0,
    );
  } else if (view === 'scenario' && cc) {
    const c = cc.cvar[unit].rcp_constant;
    const r = cc.rcvar[unit].rcp_constant;
    option = grouped(
      c.map((p) => p.scenario),
      c.map((p) => chartValue(p.value, unit)),
      r.map((p) => chartValue(p.value, unit)),
      unit,
    );
  }
  const locked = view === 'hazard' ? !bars : !cc;
  return (
    <Section testId="section-cvar" title="20-year expected loss vs residual" info={INFO.cvar}>
      <Segmented<View>
        className="crp-dash-view-switch"
        size="small"
        aria-label="20-year expected loss chart view"
        value={view}
        onChange={setView}
        options={[
          { label: 'By hazard', value: 'hazard' },
          { label: 'Over the years', value: 'year' },
          { label: 'By scenario', value: 'scenario' },
        ]}
      />
      {locked ? (
        <UpgradePlaceholder />
      ) : (
        option && <Chart option={option} height={320} label="20-year expected loss versus residual 20-year expected loss" testId="cvar-chart" />
      )}
    </Section>
  );
}
