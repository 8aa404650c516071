import type { DashboardData, HazardLoss, Unit } from '../../api/dashboard';
import { Chart, HAZARD_PALETTE, type EChartsOption } from '../../ui/charts/Chart';
import { byUnit, chartValue } from '../../lib/format';
import { Section } from './Section';

function donut(title: string, rows: HazardLoss[], unit: Unit, total: string): EChartsOption {
  return {
    color: HAZARD_PALETTE,
    title: { text: title, subtext: total, left: 'center', top: 'middle', textStyle: { fontSize: 14 }, subtextStyle: { fontSize: 12 } },
    tooltip: { trigger: 'item', valueFormatter: (v) => `${v as number} ${unit === 'dollar' ? 'M USD' : '%'}` },
    series: [
      {
        type: 'pie',
        radius: ['52%', '74%'],
        avoidLabelOverlap: true,
        label: { show: false },
        data: rows.map((r) => ({ name: r.hazard, value: chartValue(unit === 'dollar' ? r.loss : (r.percentage ?? null), unit) ?? 0 })),
      },
    ],
  };
}

/** Expected annual loss by hazard at 2020 and at the selected year, as two donuts with a shared legend. */
export function DonutCharts({ data, unit }: { data: DashboardData; unit: Unit }) {
  const now = data.portfolio_exposure_percentage_loss;
  const base = data.portfolio_exposure_percentage_loss_historic;
  const total = (rows: HazardLoss[]) =>
    byUnit(
      rows.reduce((s, r) => s + ((unit === 'dollar' ? r.loss : r.percentage) ?? 0), 0),
      unit,
    );
  const empty = !!now && now.every((r) => !r.loss);
  return (
    <Section testId="section-donuts" title={`Expected annual loss by hazard: 2020 vs ${data.filters.year}`} locked={!now || !base} empty={empty}>
      {now && base && (
        <>
          <div className="crp-dash-donuts">
            <Chart option={donut('2020', base, unit, total(base))} height={240} label="Expected annual loss by hazard in 2020" testId="donut-2020" />
            <Chart
              option={donut(String(data.filters.year), now, unit, total(now))}
              height={240}
              label={`Expected annual loss by hazard in ${data.filters.year}`}
              testId="donut-year"
            />
          </div>
          <ul className="crp-dash-legend" aria-label="Hazards">
            {now.map((r, i) => (
              <li key={r.hazard}>
                <span className="crp-dash-swatch" style={{ background: HAZARD_PALETTE[i % HAZARD_PALETTE.length] }} />
                {r.hazard}
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
