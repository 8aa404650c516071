import { Switch } from 'antd';
import type { HeatmapData } from '../../api/dashboard';
import { Chart, type EChartsOption } from './Chart';
import { truncate } from './format';
import { INFO } from './infoTexts';
import { Section } from './Section';

const VISIBLE_ROWS = 10;

export function heatmapOption(h: HeatmapData, height: number): EChartsOption {
  const rows = h.assets.length;
  const scroll = rows > VISIBLE_ROWS;
  return {
    tooltip: {
      position: 'top',
      formatter: (p) => {
        const d = (p as unknown as { data: [number, number, number | null] }).data;
        return `${h.assets[d[1]] ?? ''}<br/>${h.hazards[d[0]] ?? ''}: <b>${d[2] ?? 'no data'}</b>`;
      },
    },
    grid: { left: 130, right: scroll ? 48 : 24, top: 16, bottom: height < 200 ? 40 : 110 },
    xAxis: { type: 'category', data: h.hazards, splitArea: { show: true }, axisLabel: { rotate: h.hazards.length > 5 ? 30 : 0, interval: 0, fontSize: 11 } },
    yAxis: { type: 'category', data: h.assets, inverse: true, splitArea: { show: true }, axisLabel: { formatter: (v: string) => truncate(v, 18), fontSize: 11 } },
    visualMap: {
      min: 0,
      max: 100,
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      itemHeight: 180,
      inRange: { color: ['#fff7bc', '#fee391', '#fec44f', '#fe9929', '#ec7014', '#cc4c02', '#8c2d04'] },
      show: height >= 200,
    },
    dataZoom: scroll
      ? [
          { type: 'slider', yAxisIndex: 0, startValue: 0, endValue: VISIBLE_ROWS - 1, right: 8, width: 16, showDetail: false, brushSelect: false, zoomLock: true },
          { type: 'inside', yAxisIndex: 0, startValue: 0, endValue: VISIBLE_ROWS - 1, zoomOnMouseWheel: false, moveOnMouseWheel: true, moveOnMouseMove: false },
        ]
      : [],
    series: [
      {
        type: 'heatmap',
        data: h.data.map(([x, y, v]) => [x, y, v ?? '-']),
        label: { show: true, fontSize: 11 },
        emphasis: { itemStyle: { borderColor: '#0f172a', borderWidth: 1 } },
        progressive: 2000,
      },
    ],
  };
}

/**
 * Portfolio heat map of hazards by asset (spec 001 §2.1): 900 px tall (120 px for a single asset), scale 0-100; past
 * ten rows it scrolls (wheel or the slider at the right) so any number of assets stays responsive.
 */
export function HeatMap({ data, without, adaptation, onAdaptation }: { data: HeatmapData | null; without: HeatmapData | null; adaptation: boolean; onAdaptation: (v: boolean) => void }) {
  const h = adaptation ? data : without;
  const single = (h?.assets.length ?? 0) === 1;
  const height = single ? 120 : 900;
  return (
    <Section
      testId="section-heatmap"
      title="Hazard heat map"
      info={INFO.heatmap}
      locked={!h}
      empty={!!h && h.assets.length === 0}
      extra={
        <label className="crp-dash-switch">
          Adaptation <Switch size="small" checked={adaptation} onChange={onAdaptation} checkedChildren="On" unCheckedChildren="Off" aria-label="Adaptation in the heat map" />
        </label>
      }
    >
      {h && (
        <div data-rows={h.assets.length} data-scroll={h.assets.length > VISIBLE_ROWS ? 'true' : 'false'} data-testid="heatmap" style={{ height }}>
          <Chart option={heatmapOption(h, height)} height={height} label={`Hazard scores of ${h.assets.length} assets for ${h.hazards.length} hazards`} />
        </div>
      )}
    </Section>
  );
}
