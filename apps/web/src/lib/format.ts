import { formatMillions } from '@crp/contracts';
import type { Unit } from '../api/dashboard';

/** Dollar amounts in millions (billions from 1000 M); percentages with two decimals; '—' when unknown. */
export function money(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : formatMillions(v);
}
export function percent(v: number | null | undefined, digits = 2): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : `${v.toFixed(digits)} %`;
}
export function byUnit(v: number | null | undefined, unit: Unit): string {
  return unit === 'dollar' ? money(v) : percent(v);
}
/** Chart values: dollars as millions (numbers), percentages as they are. */
export function chartValue(v: number | null | undefined, unit: Unit): number | null {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  return unit === 'dollar' ? Math.round((v / 1e6) * 100) / 100 : Math.round(v * 100) / 100;
}
export function unitAxisName(unit: Unit): string {
  return unit === 'dollar' ? 'M USD' : '% of value';
}
/** Axis max 1.25 times the data max (spec 001 §9). */
export function axisMax(values: (number | null | undefined)[]): number | undefined {
  const m = Math.max(0, ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
  if (!(m > 0)) return undefined;
  // 1.25 x the max, rounded up to a whole number of nice steps (1, 2, 2.5 or 5 x 10^k for about five intervals, as
  // ECharts picks its ticks), so the top of the axis is a tick: a max of 26 drew a "26" label over the "25" tick
  const t = m * 1.25;
  const raw = t / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const n = raw / p;
  const step = (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * p;
  // toPrecision: 0.1 x 3 is 0.30000000000000004, which the top tick would print
  return Number((Math.ceil(t / step - 1e-9) * step).toPrecision(12));
}
/** Names truncated to 15 characters in the dashboard table (spec 001 §5). */
export function truncate(s: string, n = 15): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
export function amount(v: number | null | undefined, unit?: string, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return `${v.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}
/** Names display truncated to 20 characters, coordinates to 3 decimals (spec 000 §5). */
export function truncateName(name: string, max = 20): string {
  if (name.length <= max) return name;
  // A numbered name ("Central, Central and Western, Hong Kong 2") keeps its number in view: the numbers are what
  // tell markers in one district apart.
  const num = / \d+$/.exec(name)?.[0] ?? '';
  return `${name.slice(0, max - num.length)}...${num}`;
}

export function formatCoord(v: number): string {
  return v.toFixed(3);
}
