import { createRequire } from 'node:module';
import type * as Echarts from 'echarts';
import { COLORS, type ChartBlock } from './deck.js';

/**
 * ECharts, loaded at the first chart: its one-file CommonJS build (dist/echarts.js, the same library as the ES
 * modules), so a server process that renders no report does not load it, and one that does loads one file rather
 * than the ES build's hundreds of modules (about 0.5 s of CPU at every start-up before).
 */
let loaded: typeof Echarts | null = null;
const echartsLib = (): typeof Echarts => (loaded ??= createRequire(import.meta.url)('echarts') as typeof Echarts);

/** Pixels per inch of the rendered chart (the SVG is scaled into the PDF box, so this only sets font proportions). */
const PX_PER_IN = 96;

const shorten = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * A chart block as an SVG string, rendered by ECharts on the server (SSR, no browser): the same chart library the
 * dashboard uses, so the report's charts look like the dashboard's.
 */
export function chartSvg(block: ChartBlock): string {
  const width = Math.round(block.w * PX_PER_IN);
  const height = Math.round(block.h * PX_PER_IN);
  const chart = echartsLib().init(null, null, { renderer: 'svg', ssr: true, width, height });
  const horizontal = block.type === 'hbar';
  const categoryAxis = {
    type: 'category' as const,
    data: block.categories.map((c) => shorten(c, horizontal ? 24 : 16)),
    axisLabel: { color: COLORS.ink, fontSize: 11, interval: 0, rotate: !horizontal && block.categories.length > 5 ? 30 : 0 },
    axisLine: { lineStyle: { color: COLORS.border } },
  };
  const valueAxis = {
    type: 'value' as const,
    name: block.unit,
    nameLocation: 'middle' as const,
    nameGap: horizontal ? 24 : 44,
    nameTextStyle: { color: COLORS.muted, fontSize: 11 },
    axisLabel: { color: COLORS.muted, fontSize: 10 },
    splitLine: { lineStyle: { color: COLORS.border } },
    ...(block.max !== undefined ? { max: block.max, min: 0 } : {}),
  };
  chart.setOption({
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'Helvetica, Arial, sans-serif' },
    title: { text: block.title, left: 0, top: 0, textStyle: { fontSize: 14, fontWeight: 'bold', color: COLORS.navy } },
    legend: { top: 0, right: 0, textStyle: { fontSize: 11, color: COLORS.ink }, itemWidth: 14, itemHeight: 10 },
    grid: { left: horizontal ? 8 : 56, right: 16, top: 40, bottom: horizontal ? 36 : 8, containLabel: horizontal },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxis,
    series: block.series.map((s) => ({
      name: s.name,
      type: block.type === 'line' ? 'line' : 'bar',
      data: s.values,
      itemStyle: { color: s.color },
      lineStyle: { color: s.color, width: 2.5 },
      symbolSize: 6,
      barMaxWidth: 28,
      label:
        block.type !== 'line' && block.categories.length * block.series.length <= 16
          ? { show: true, position: horizontal ? 'right' : 'top', fontSize: 9, color: COLORS.ink }
          : { show: false },
    })),
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}
