/** A pivot of flat rows (the CSV report rows): group by row and column fields, aggregate one value field. */

export type Row = Record<string, unknown>;
export const AGGREGATORS = ['Count', 'Sum', 'Average', 'Minimum', 'Maximum'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

export interface PivotConfig {
  rows: string[];
  cols: string[];
  aggregator: Aggregator;
  /** The numeric field aggregated (ignored by Count). */
  value: string | null;
  /** Per field, the values kept; a field not listed keeps every value. */
  filters: Record<string, string[]>;
}

export interface PivotResult {
  rowKeys: string[][];
  colKeys: string[][];
  /** Aggregated value at `${rowKey}\u0000${colKey}` (keys joined by \u0001). */
  cell(r: string[], c: string[]): number | null;
  rowTotal(r: string[]): number | null;
  colTotal(c: string[]): number | null;
  grandTotal: number | null;
  /** Rows left after the filters. */
  count: number;
}

const SEP = '\u0001';
const keyOf = (row: Row, fields: string[]) => fields.map((f) => label(row[f]));

/** How a value shows in a header or filter: null and empty as "NA", like the rest of the product. */
export function label(v: unknown): string {
  return v === null || v === undefined || v === '' ? 'NA' : String(v);
}

/** Fields whose values are all numbers (or empty): the ones that can be summed. */
export function numericFields(rows: Row[]): string[] {
  const fields = rows.length ? Object.keys(rows[0]!) : [];
  return fields.filter((f) => rows.some((r) => typeof r[f] === 'number') && rows.every((r) => r[f] === null || r[f] === undefined || typeof r[f] === 'number'));
}

/** The distinct values of a field, sorted (numbers numerically). */
export function valuesOf(rows: Row[], field: string): string[] {
  const seen = new Map<string, unknown>();
  for (const r of rows) seen.set(label(r[field]), r[field]);
  return [...seen.entries()]
    .sort(([a, x], [b, y]) => (typeof x === 'number' && typeof y === 'number' ? x - y : a.localeCompare(b, 'en', { numeric: true })))
    .map(([k]) => k);
}

class Acc {
  n = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  add(v: number | null) {
    this.n += 1;
    if (v === null) return;
    this.sum += v;
    this.min = Math.min(this.min, v);
    this.max = Math.max(this.max, v);
  }
  result(agg: Aggregator, numeric: number): number | null {
    if (agg === 'Count') return this.n;
    if (numeric === 0) return null;
    if (agg === 'Sum') return this.sum;
    if (agg === 'Average') return this.sum / numeric;
    return agg === 'Minimum' ? this.min : this.max;
  }
}

/** Runs the pivot; every total aggregates the underlying rows (an average of averages is never taken). */
export function pivot(rows: Row[], config: PivotConfig): PivotResult {
  const kept = rows.filter((r) => Object.entries(config.filters).every(([f, vals]) => vals.includes(label(r[f]))));
  const groups = new Map<string, { acc: Acc; numeric: number }>();
  const rowKeys = new Map<string, string[]>();
  const colKeys = new Map<string, string[]>();
  const add = (k: string, v: number | null) => {
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { acc: new Acc(), numeric: 0 }));
    g.acc.add(v);
    if (v !== null) g.numeric += 1;
  };
  for (const r of kept) {
    const rk = keyOf(r, config.rows);
    const ck = keyOf(r, config.cols);
    const rs = rk.join(SEP);
    const cs = ck.join(SEP);
    rowKeys.set(rs, rk);
    colKeys.set(cs, ck);
    const raw = config.value === null ? null : r[config.value];
    const v = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    add(`${rs}\u0000${cs}`, v);
    add(`${rs}\u0000*`, v);
    add(`*\u0000${cs}`, v);
    add('*\u0000*', v);
  }
  const get = (k: string) => {
    const g = groups.get(k);
    return g ? g.acc.result(config.aggregator, g.numeric) : null;
  };
  const sortKeys = (m: Map<string, string[]>) => [...m.values()].sort((a, b) => a.join(SEP).localeCompare(b.join(SEP), 'en', { numeric: true }));
  return {
    rowKeys: sortKeys(rowKeys),
    colKeys: sortKeys(colKeys),
    cell: (r, c) => get(`${r.join(SEP)}\u0000${c.join(SEP)}`),
    rowTotal: (r) => get(`${r.join(SEP)}\u0000*`),
    colTotal: (c) => get(`*\u0000${c.join(SEP)}`),
    grandTotal: kept.length ? get('*\u0000*') : null,
    count: kept.length,
  };
}

/** Row header labels: the row fields, or one unnamed column when rows are not split. */
export const rowHeads = (config: PivotConfig) => (config.rows.length ? config.rows : ['']);
/** A body row's labels: its key, or the aggregator's name when rows are not split. */
export const rowLabels = (r: string[], config: PivotConfig) => (r.length ? r : [config.aggregator]);

/** The pivot as a grid of strings and numbers (header rows first, totals last), for export. */
export function pivotGrid(p: PivotResult, config: PivotConfig): (string | number | null)[][] {
  const heads = rowHeads(config);
  const levels = Math.max(1, config.cols.length);
  const head = Array.from({ length: levels }, (_, i) => [
    ...heads.map((f) => (i === levels - 1 ? f : '')),
    ...p.colKeys.map((c) => c[i] ?? config.aggregator),
    i === levels - 1 ? 'Total' : '',
  ]);
  const body = p.rowKeys.map((r) => [...rowLabels(r, config), ...p.colKeys.map((c) => p.cell(r, c)), p.rowTotal(r)]);
  const total = [...heads.map((_, j) => (j === 0 ? 'Total' : '')), ...p.colKeys.map((c) => p.colTotal(c)), p.grandTotal];
  return [...head, ...body, total];
}

/** The scenario and year a pivot opens on (the project's default filters; the first in the rows otherwise). */
export interface PivotPreference {
  scenario?: string | undefined;
  year?: number | undefined;
}

/**
 * The pivot a user first sees: residual 20-year expected loss summed by hazard (rows) and year (columns) at ONE scenario and year, like
 * the dashboard, never summed over scenarios or years (three scenarios summed were three times the dashboard's figure;
 * issue 37 item 2). The scenario and year are the preferred ones when the rows have them, else the first.
 */
export function defaultConfig(rows: Row[], prefer: PivotPreference = {}): PivotConfig {
  const fields = rows.length ? Object.keys(rows[0]!) : [];
  const has = (f: string) => fields.includes(f);
  const value = ['Residual 20-year expected loss (USD)', '20-year expected loss (USD)'].find(has) ?? numericFields(rows)[0] ?? null;
  const filters: Record<string, string[]> = {};
  const one = (field: string, preferred: unknown) => {
    if (!has(field)) return;
    const values = valuesOf(rows, field);
    if (values.length < 2) return;
    const p = preferred === undefined ? undefined : label(preferred);
    filters[field] = [p !== undefined && values.includes(p) ? p : values[0]!];
  };
  one('Scenario', prefer.scenario);
  one('Year', prefer.year);
  return { rows: has('Hazard') ? ['Hazard'] : [], cols: has('Year') ? ['Year'] : [], aggregator: value ? 'Sum' : 'Count', value, filters };
}

/**
 * What the pivot's Scenario and Year fields hold after the filters: "Scenario SSP2-4.5, year 2050" when each is one
 * value (filtered to it, or the only one in the rows), "3 scenarios summed" when several scenarios are in the table
 * without being in its rows or columns (their sum adds alternatives, not portfolios); null without such fields.
 */
export function shownScenarioYear(rows: Row[], config: PivotConfig): string | null {
  const fields = rows.length ? Object.keys(rows[0]!) : [];
  const part = (field: string, name: string, plural: string) => {
    if (!fields.includes(field)) return null;
    const kept = config.filters[field] ?? valuesOf(rows, field);
    if (kept.length === 1) return `${name} ${kept[0]}`;
    return config.rows.includes(field) || config.cols.includes(field) ? null : `${kept.length} ${plural} summed`;
  };
  const parts = [part('Scenario', 'Scenario', 'scenarios'), part('Year', 'year', 'years')].filter((x) => x !== null);
  return parts.length ? parts.join(', ') : null;
}
