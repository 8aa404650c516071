import type { HeatmapData } from '../../api/dashboard';
import { truncate } from '../../lib/format';
import type { EChartsOption } from './Chart';

/** Rows in view before the heat map scrolls (the slider at the right, or the wheel). */
export const VISIBLE_ROWS = 10;

/**
 * The ECharts option of a hazard-by-asset heat map, scores 0-100 (the dashboard's and the property risk page's): past
 * VISIBLE_ROWS rows it scrolls; below 200 px (a single asset) the colour scale is hidden.
 */
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
    yAxis: {
      type: 'category',
      data: h.assets,
      inverse: true,
      splitArea: { show: true },
      axisLabel: { formatter: (v: string) => truncate(v, 18), fontSize: 11 },
    },
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
          {
            type: 'slider',
            yAxisIndex: 0,
            startValue: 0,
            endValue: VISIBLE_ROWS - 1,
            right: 8,
            width: 16,
            showDetail: false,
            brushSelect: false,
            zoomLock: true,
          },
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
