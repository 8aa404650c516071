import { CONSTRUCTION_CLASSES, EDITABLE_ASSET_COLUMNS, type DataEditPermission, type EditableAssetColumn } from '@crp/contracts';
import type { AssetRow } from '../../api/dashboard';

export type CellKind =
  'text' | 'type' | 'money' | 'number' | 'integer' | 'ownership' | 'mitigation' | 'basement' | 'construction' | 'score' | 'percent' | 'coord';

export interface AssetColumn {
  key: keyof AssetRow;
  title: string;
  kind: CellKind;
  /** Editable column of spec 001 §5 (null: locked). */
  editable: EditableAssetColumn | null;
  width: number;
}

/** Asset table columns (spec 001 §3.3, §5): locked ones are Gross Area, climate score, Residual 20-year expected loss % and amount, location. */
export const ASSET_COLUMNS: AssetColumn[] = [
  { key: 'name', title: 'Name', kind: 'text', editable: 'name', width: 170 },
  { key: 'type', title: 'Type', kind: 'type', editable: 'type', width: 150 },
  { key: 'climatic_score', title: 'Climate Score', kind: 'score', editable: null, width: 110 },
  { key: 'percentage', title: 'Residual 20-year expected loss %', kind: 'percent', editable: null, width: 170 },
  { key: 'overall_loss', title: 'Residual 20-year expected loss', kind: 'money', editable: null, width: 170 },
  { key: 'loss_100_year', title: '1-in-100-yr Loss', kind: 'money', editable: null, width: 140 },
  { key: 'loss_250_year', title: '1-in-250-yr Loss', kind: 'money', editable: null, width: 140 },
  { key: 'valuation', title: 'Valuation', kind: 'money', editable: 'valuation', width: 150 },
  { key: 'revenue', title: 'Revenue', kind: 'money', editable: 'revenue', width: 150 },
  { key: 'construction_cost', title: 'Construction Cost', kind: 'money', editable: 'construction_cost', width: 150 },
  { key: 'content_value', title: 'Content Value', kind: 'money', editable: 'content_value', width: 150 },
  { key: 'yearly_inventory_value', title: 'Yearly Inventory Value', kind: 'money', editable: 'yearly_inventory_value', width: 160 },
  { key: 'area', title: 'Area (m²)', kind: 'number', editable: 'area', width: 120 },
  { key: 'gross_area', title: 'Gross Area (m²)', kind: 'number', editable: null, width: 130 },
  { key: 'floors', title: 'Floors', kind: 'integer', editable: 'floors', width: 100 },
  { key: 'ownership', title: 'Ownership (0-100)', kind: 'ownership', editable: 'ownership', width: 130 },
  { key: 'building_age', title: 'Building Age', kind: 'integer', editable: 'building_age', width: 110 },
  { key: 'plinth_height', title: 'Plinth Height (m)', kind: 'number', editable: 'plinth_height', width: 130 },
  { key: 'basement', title: 'Basement', kind: 'basement', editable: 'basement', width: 110 },
  { key: 'flood_protection', title: 'Flood Protection (years)', kind: 'number', editable: 'flood_protection', width: 170 },
  { key: 'construction', title: 'Construction', kind: 'construction', editable: 'construction', width: 140 },
  { key: 'mitigation_risk', title: 'Mitigation', kind: 'mitigation', editable: 'mitigation_risk', width: 120 },
  { key: 'latitude', title: 'Latitude', kind: 'coord', editable: null, width: 100 },
  { key: 'longitude', title: 'Longitude', kind: 'coord', editable: null, width: 100 },
];

/**
 * Construction classes (issue 33 item 6: typhoon wind takes the FEMA Hazus curve of the class); 'NA' saves "unknown"
 * (the regional curve), so a cell can be set back to unknown without leaving it empty.
 */
export const CONSTRUCTION_OPTIONS = [
  ...CONSTRUCTION_CLASSES.map((c) => ({ value: c as string, label: c[0]!.toUpperCase() + c.slice(1) })),
  { value: 'NA', label: 'Unknown' },
];

export const MITIGATION_OPTIONS = [
  { value: 0, label: '0 No' },
  { value: 1, label: '1 Low' },
  { value: 2, label: '2 Medium' },
  { value: 3, label: '3 High' },
];

/** Whether the user may edit a column: locked columns never; gated ones when their data-edit permission is on. */
export function canEdit(col: AssetColumn, perms: Partial<Record<DataEditPermission, boolean>>): boolean {
  if (!col.editable) return false;
  const gate = EDITABLE_ASSET_COLUMNS[col.editable];
  return gate === null || perms[gate] !== false;
}

export type CellValue = string | number | boolean | null;
export type Draft = Record<number, Partial<Record<keyof AssetRow, CellValue>>>;

/** A cell counts as empty when null, blank text or not a number. */
export function isEmpty(v: CellValue | undefined): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (typeof v === 'number' && !Number.isFinite(v));
}

export const requiredMessage = (title: string) => `Please Input ${title}!`;

/**
 * Validates the edited cells (spec 001 §5: every edited cell is required, plus range checks of the server). Returns
 * `{"id:col": message}`; empty when the save may go.
 */
export function validateDraft(rows: AssetRow[], draft: Draft, cols: AssetColumn[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const r of rows) {
    const d = draft[r.id];
    if (!d) continue;
    for (const c of cols) {
      if (!(c.key in d)) continue;
      const v = d[c.key];
      const k = `${r.id}:${c.key}`;
      if (isEmpty(v)) errors[k] = requiredMessage(c.title);
      else if (c.kind === 'ownership' && (Number(v) < 0 || Number(v) > 100)) errors[k] = 'Ownership must be 0 to 100';
      else if ((c.kind === 'money' || c.kind === 'number' || c.kind === 'integer') && Number(v) < 0) errors[k] = `${c.title} must not be negative`;
      else if (c.kind === 'integer' && !Number.isInteger(Number(v))) errors[k] = `${c.title} must be a whole number`;
    }
  }
  return errors;
}

/** The update_assets rows: every row with its id and the columns the user changed (basement as yes/no). */
export function editRows(rows: AssetRow[], draft: Draft) {
  return rows.map((r) => {
    const d = draft[r.id] ?? {};
    const out: Record<string, CellValue> & { id: number } = { id: r.id };
    for (const [k, v] of Object.entries(d)) {
      if (v === (r as unknown as Record<string, CellValue>)[k]) continue;
      out[k] = k === 'basement' ? (v === true ? 'yes' : v === false ? 'no' : v) : typeof v === 'string' ? v.trim() : v;
    }
    return out;
  });
}

export function changedCount(rows: AssetRow[], draft: Draft): number {
  return editRows(rows, draft).filter((r) => Object.keys(r).length > 1).length;
}
