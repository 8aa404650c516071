/**
 * How the dashboard reads an asset's columns: the identity columns (the answer's `assets` block), the asset table's
 * stored columns and its loss columns (fields of the engine's per-asset batch), shared by the answer and the pages.
 */
import { ASSET_TABLE_COLUMNS, DashboardAssetRow, HAZARDS, HAZARD_KEYS, type DashboardAssets, type HazardKey } from '@crp/contracts';
import type { DashboardAsset, ProjectResults } from '../analysis/results-reader.js';

export const labelOf = (h: HazardKey) => HAZARDS.find((x) => x.key === h)!.label;
export const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
export const TYPHOON = HAZARD_KEYS.indexOf('typhoon');
export const MIB = 2 ** 20;

export type AssetRecord = ProjectResults<DashboardAsset>['assets'][number];
export type AssetTableColumn = (typeof ASSET_TABLE_COLUMNS)[number];
/** How the identity columns (the `assets` block) read an asset. */
export const IDENTITY_COLUMNS = {
  id: (a: AssetRecord) => a.id,
  name: (a: AssetRecord) => a.name,
  latitude: (a: AssetRecord) => a.latitude,
  longitude: (a: AssetRecord) => a.longitude,
  country_code: (a: AssetRecord) => a.country_code,
} satisfies Record<Exclude<keyof DashboardAssets, 'continent'>, (a: AssetRecord) => unknown>;
export const ASSET_IDENTITY_KEYS = Object.keys(IDENTITY_COLUMNS) as (keyof typeof IDENTITY_COLUMNS)[];
/** The asset table's columns read from the stored asset (the others are this query's scores and losses). */
export const STORED_COLUMNS = {
  type: (a: AssetRecord) => a.property_type,
  revenue: (a: AssetRecord) => a.revenue,
  construction_cost: (a: AssetRecord) => a.construction_cost,
  area: (a: AssetRecord) => a.area,
  gross_area: (a: AssetRecord) => (a.area !== null && a.stories !== null ? a.area * Math.max(1, a.stories) : a.area),
  ownership: (a: AssetRecord) => a.ownership,
  floors: (a: AssetRecord) => a.stories,
  valuation: (a: AssetRecord) => a.valuation,
  building_age: (a: AssetRecord) => a.building_age,
  basement: (a: AssetRecord) => a.basement,
  plinth_height: (a: AssetRecord) => a.plinth_height,
  flood_protection: (a: AssetRecord) => a.flood_protection,
  construction: (a: AssetRecord) => a.construction,
  mitigation_risk: (a: AssetRecord) => a.mitigation_risk ?? 0,
  content_value: (a: AssetRecord) => a.content_value,
  yearly_inventory_value: (a: AssetRecord) => a.yearly_inventory_value,
} satisfies Partial<Record<AssetTableColumn, (a: AssetRecord) => unknown>>;
export const STORED_KEYS = Object.keys(STORED_COLUMNS) as (keyof typeof STORED_COLUMNS)[];
export const COMPUTED_KEYS = ASSET_TABLE_COLUMNS.filter((k) => !(k in STORED_COLUMNS));
export const ROW_KEYS = Object.keys(DashboardAssetRow.shape) as (keyof DashboardAssetRow)[];
/** The loss columns of the asset table: their field in the engine's per-asset batch (assetCvarBatch). */
export const LOSS_FIELDS = { percentage: 2, overall_loss: 1, cvar: 0, max_exposure: 3, loss_100_year: 6, loss_250_year: 7 } as const;
