import { BRAND_PALETTE } from '@crp/contracts';

/**
 * The slide report as data: a deck of 16:9 slides (13.333 x 7.5 in, PowerPoint's wide layout) made of positioned
 * blocks. One model, two renderers (render-pdf.ts, render-pptx.ts), so the PDF and the PPTX always carry the same
 * slides, titles and figures.
 */

/** Slide size in inches (PowerPoint LAYOUT_WIDE). The PDF page is the same size in points (x 72). */
export const SLIDE_W = 13.333;
export const SLIDE_H = 7.5;

/** A box in inches from the slide's top-left corner. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TextBlock extends Box {
  kind: 'text';
  text: string;
  size: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'center' | 'right';
}

export interface BulletsBlock extends Box {
  kind: 'bullets';
  items: string[];
  size: number;
}

/** A filled rectangle (score bars, colour keys, backgrounds). */
export interface RectBlock extends Box {
  kind: 'rect';
  fill: string;
}

/** A KPI card: label above, big value, small note below. */
export interface KpiBlock extends Box {
  kind: 'kpi';
  label: string;
  value: string;
  note?: string;
  accent: string;
}

export interface ChartSeries {
  name: string;
  values: (number | null)[];
  color: string;
}

/** A real chart: grouped bars (vertical or horizontal) or lines over categories. */
export interface ChartBlock extends Box {
  kind: 'chart';
  type: 'bar' | 'hbar' | 'line';
  title: string;
  categories: string[];
  series: ChartSeries[];
  /** Axis unit shown in the axis title, e.g. "M USD" or "score". */
  unit: string;
  max?: number;
}

/** A table; `fills` colours individual body cells (the heat map). */
export interface TableBlock extends Box {
  kind: 'table';
  header: string[];
  rows: string[][];
  colW?: number[];
  fills?: (string | null)[][];
  size?: number;
}

export type Block = TextBlock | BulletsBlock | RectBlock | KpiBlock | ChartBlock | TableBlock;

export interface Slide {
  /** Shown as the slide heading and used as the PDF outline entry. */
  title: string;
  blocks: Block[];
  /** The title slide has its own dark layout. */
  cover?: boolean;
}

export interface Deck {
  title: string;
  subject: string;
  /** Footer of every content slide: portfolio, scenario, year, methodology version. */
  footer: string;
  slides: Slide[];
}

/** Colours of the deck: the product palette, plus the series colours of the dashboard's charts. */
export const COLORS = {
  ...BRAND_PALETTE,
  cvar: '#cf1322',
  rcvar: BRAND_PALETTE.teal,
  baseline: '#94a3b8',
  s26: '#16a34a',
  s45: '#d48806',
  s85: '#cf1322',
} as const;

/** Text colour readable on a fill (black on light, white on dark). */
export function textOn(fill: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  if (!m) return COLORS.ink;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? COLORS.ink : '#ffffff';
}
