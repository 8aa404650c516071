import { useState } from 'react';
import { Alert, Form, Select, Spin } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EXPLORER_HAZARD_KEYS, SCENARIOS, type AnalysisType } from '@crp/contracts';
import { fetchBuildingDamage, type BuildingDamageInput } from '../../api/dashboard';
import { firstErrorMessage } from '../../api/http';
import { Chart, type EChartsOption } from '../../ui/charts/Chart';
import { axisMax } from '../../lib/format';

/** A damage ratio as a percentage with three significant digits below 1 % (an EAD of 0.004 % is not "0.00 %"). */
const pct = (r: number) => {
  const v = r * 100;
  return v === 0 ? '0%' : v >= 1 ? `${Number(v.toFixed(1))}%` : `${Number(v.toPrecision(3))}%`;
};

const HAZARD_TITLES = { river_flood: 'River flood', storm_surge: 'Storm surge', rainfall_flood: 'Rainfall flood' } as const;
const SCENARIO_COLOURS = { '26': '#16a34a', '45': '#d97706', '85': '#dc2626' } as const;
const VALUE_BANDS = Array.from({ length: 10 }, (_, i) => (i + 1) * 5000);

type Params = Required<Pick<BuildingDamageInput, 'basement' | 'construction' | 'stories' | 'occupancy' | 'per_sq_m_value'>>;
/** Storeys offered (the asset's own number is added when it is not among them). */
const STOREYS = ['1', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '40', '50', '80', '100'];
const UNKNOWN_BUILDING: Params = { basement: 'unknown', construction: 'unknown', stories: 'unknown', occupancy: 'unknown', per_sq_m_value: 5000 };

/**
 * Building-damage explorer (spec 001 §2.3): every selector change re-requests at once; scatter charts of the damage
 * of river flood, storm surge and rainfall flood under 2.6, 4.5 and 8.5.
 */
export function BuildingDamageExplorer({
  projectName,
  assetName,
  year,
  analysisType,
}: {
  projectName?: string;
  assetName?: string;
  year: number;
  analysisType: AnalysisType;
}) {
  // Only the selectors the user moved are sent: the others are the asset's own (the server answers which in `inputs`),
  // so the explorer opens on the building as stored, with the dashboard's EAD (issue 37 item 3).
  const [p, setP] = useState<Partial<Params>>({});
  const input: BuildingDamageInput = {
    ...p,
    year,
    analysis_type: analysisType,
    ...(projectName && assetName ? { project_name: projectName, asset_name: assetName } : {}),
  };
  const q = useQuery({
    queryKey: ['building-damage', input],
    queryFn: ({ signal }) => fetchBuildingDamage(input, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const set =
    <K extends keyof Params>(k: K) =>
    (v: Params[K]) =>
      setP((x) => ({ ...x, [k]: v }));
  const opts = (xs: readonly string[]) => xs.map((x) => ({ value: x, label: x[0]!.toUpperCase() + x.slice(1) }));
  const shown: Params = { ...UNKNOWN_BUILDING, ...(q.data?.inputs as Partial<Params> | undefined), ...p };
  const storeys = [...new Set([...STOREYS, shown.stories].filter((x) => x !== 'unknown' && x !== '3 or more'))].sort((a, b) => Number(a) - Number(b));

  return (
    <div data-testid="building-damage">
      <Form layout="inline" className="crp-dash-explorer-form">
        {(
          [
            ['Basement', 'basement', 110, opts(['yes', 'no', 'unknown'])],
            ['Construction', 'construction', 140, opts(['wood', 'concrete', 'masonry', 'mobile home', 'light metal', 'steel', 'unknown'])],
            ['Stories', 'stories', 120, opts([...storeys, 'unknown'])],
            ['Occupancy', 'occupancy', 130, opts(['residential', 'commercial', 'industrial', 'unknown'])],
          ] as const
        ).map(([label, key, width, options]) => (
          <Form.Item key={key} label={label}>
            <Select aria-label={label} style={{ width }} value={shown[key]} onChange={set(key)} options={options} data-testid={`explorer-${key}`} />
          </Form.Item>
        ))}
        <Form.Item label="Value per m²">
          <Select
            aria-label="Value per square metre"
            style={{ width: 150 }}
            value={shown.per_sq_m_value}
            onChange={set('per_sq_m_value')}
            options={VALUE_BANDS.map((v) => ({ value: v, label: `$${(v - 5000).toLocaleString('en-US')}-$${v.toLocaleString('en-US')}` }))}
          />
        </Form.Item>
        {q.isFetching && <Spin size="small" aria-label="Loading damage curves" />}
      </Form>
      {q.error && <Alert type="error" showIcon title={firstErrorMessage(q.error, 'The damage curves could not be loaded.')} />}
      {q.data && (
        <>
          <div className="crp-dash-three">
            {EXPLORER_HAZARD_KEYS.map((hz) => {
              const byS = q.data[hz];
              const unit = byS['85'].x_unit;
              const option: EChartsOption = {
                title: { text: HAZARD_TITLES[hz], left: 'center', textStyle: { fontSize: 13 } },
                tooltip: {
                  trigger: 'item',
                  formatter: (x) => {
                    const d = x as { seriesName: string; data: number[] };
                    return `${d.seriesName}<br/>${unit === 'm' ? 'depth' : 'return period'} ${d.data[0]} ${unit}: ${pct(d.data[1] ?? 0)}`;
                  },
                },
                // the three legend entries carry the EADs and wrap to two lines in a third of the modal: room below the axis name
                legend: { bottom: 0, itemGap: 8, itemWidth: 14 },
                grid: { left: 48, right: 12, top: 36, bottom: 84 },
                xAxis: {
                  type: unit === 'years' ? 'log' : 'value',
                  name: unit === 'm' ? 'Depth (m)' : 'Return period (years)',
                  nameLocation: 'middle',
                  nameGap: 26,
                },
                // the axis follows the curves (a tall building's damage is a few per cent: on 0-100 % it lay flat)
                yAxis: {
                  type: 'value',
                  name: 'Damage',
                  max: Math.min(1, axisMax(SCENARIOS.flatMap((sc) => byS[sc].y)) ?? 1),
                  axisLabel: { formatter: (v: number) => pct(v) },
                },
                series: SCENARIOS.map((s) => ({
                  name: `${s.slice(0, 1)}.${s.slice(1)}${byS[s].expected_annual_damage_ratio !== null ? ` (EAD ${pct(byS[s].expected_annual_damage_ratio!)})` : ''}`,
                  type: 'scatter' as const,
                  symbolSize: 7,
                  itemStyle: { color: SCENARIO_COLOURS[s] },
                  data: byS[s].x.map((x, i) => [x, byS[s].y[i] ?? 0]),
                })),
              };
              return <Chart key={hz} option={option} height={320} label={`${HAZARD_TITLES[hz]} damage`} testId={`damage-${hz}`} />;
            })}
          </div>
          {q.data.source && (
            <p className="crp-muted crp-small">
              Curves: {q.data.source}
              {q.data.hazus_occupancy ? ` · ${q.data.hazus_occupancy}` : ''}.
            </p>
          )}
        </>
      )}
    </div>
  );
}
