import ReactEChartsCore from 'echarts-for-react/esm/core';
import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';

echarts.use([
  BarChart,
  HeatmapChart,
  LineChart,
  PieChart,
  ScatterChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

export type { EChartsOption };

/** An ECharts chart (tree-shaken build). `label` names it for screen readers. */
export function Chart({ option, height = 320, label, testId }: { option: EChartsOption; height?: number; label: string; testId?: string }) {
  return (
    <div role="img" aria-label={label} data-testid={testId}>
      <ReactEChartsCore
        echarts={echarts}
        option={{ animationDuration: 250, animationDurationUpdate: 250, ...option }}
        notMerge
        lazyUpdate
        style={{ height, width: '100%' }}
      />
    </div>
  );
}

/** Colours of the two measures compared everywhere: 20-year expected loss and residual 20-year expected loss. */
export const CVAR_COLOUR = '#c2410c';
export const RCVAR_COLOUR = '#0f766e';
export const HAZARD_PALETTE = ['#1d4ed8', '#0891b2', '#0f766e', '#65a30d', '#ca8a04', '#ea580c', '#dc2626', '#9333ea', '#db2777', '#475569', '#7c3aed'];
