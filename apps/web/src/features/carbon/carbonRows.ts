import { DEFAULT_CARBON_ROW, type CarbonCompanyRow } from '@crp/contracts';

/** A row of the editable input table: the company fields plus a stable key. */
export type EditableRow = CarbonCompanyRow & { key: string };

let seq = 0;
export const newKey = () => `row-${Date.now().toString(36)}-${(seq++).toString(36)}`;

/** A new row with the spec's defaults: name Company, numbers 0, region China, sector Coal. */
export function defaultRow(): EditableRow {
  return { ...DEFAULT_CARBON_ROW, key: newKey() };
}

export function withKeys(rows: CarbonCompanyRow[]): EditableRow[] {
  return rows.map((r) => ({ ...r, scope_1_and_2_GHG_emission: r.scope_1_and_2_GHG_emission ?? 0, key: newKey() }));
}

/** NAV% = company investment / portfolio value (spec 001 §5 note 1), recomputed as the user types. */
export function withNav(rows: EditableRow[], portfolioValue: number | null): EditableRow[] {
  return rows.map((r) => ({ ...r, nav_in_perc: portfolioValue && portfolioValue > 0 ? (r.investment_in_usd / portfolioValue) * 100 : 0 }));
}

export function stripKeys(rows: EditableRow[]): CarbonCompanyRow[] {
  return rows.map(({ key: _key, ...r }) => r);
}

const num = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
/** Numbers as people read them; null shows as an en dash. */
export function fmt(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return digits === 2 ? num.format(v) : new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(v);
}
