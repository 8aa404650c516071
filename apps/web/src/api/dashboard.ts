import {
  dashboardView,
  type AnalysisType,
  type BuildingDamageAnswer,
  type DashboardAnswer,
  type DashboardAssetPage,
  type DashboardAssetRow,
  type DashboardHeatmapPage,
  type DashboardHeatmapView,
  type DashboardMapAnswer,
  type DashboardView,
  type DefaultFilters,
  type ScenarioCode,
  type UpdateAssetsResponse,
} from '@crp/contracts';
import { request } from './http';

/** `[amount, unit, score]`: mean headline intensity and mean severity score (0-100) of the assets with data. */
export type HazardValue = [number | null, string, number | null];
export type HazardValues = Record<string, HazardValue>;
export type Unit = 'dollar' | 'percentage';

export interface DashboardFiltersSent {
  project_name?: string;
  project_id?: number;
  analysis_type: AnalysisType;
  scenario: ScenarioCode;
  year: number;
  variable: string;
  mitigation: boolean;
  with_content: boolean;
  adjusted_gdp: boolean;
  property_type: string;
  count: 'All' | number;
}

/** One asset's row of the physical-risk table (spec 001 §3.3). */
export type AssetRow = DashboardAssetRow;

export type HazardLoss = { hazard: string; loss: number | null; percentage?: number | null };
export type HeatmapData = DashboardHeatmapView;

/**
 * The dashboard answer as the sections read it: the wire answer (DashboardAnswer, per-asset data in columns) with its
 * per-asset sections turned into rows once per answer by dashboardView.
 */
export type DashboardData = DashboardView;

/** The filters as the dashboard endpoints read them. */
function filterBody(f: DashboardFiltersSent) {
  return {
    ...(f.project_id !== undefined ? { project_id: f.project_id } : {}),
    ...(f.project_name ? { project_name: f.project_name } : {}),
    analysis_type: f.analysis_type,
    scenario: f.scenario,
    year: f.year,
    variable: f.variable,
    currency: 'USD',
    percentage_type: 'dollar',
    mitigation: f.mitigation,
    count: f.count,
    parameter: 'loss',
    with_content: f.with_content,
    adjusted_gdp: f.adjusted_gdp,
    property_type: f.property_type,
  };
}

/**
 * `POST api/v2/dashboard/` (JSON body). 409 `{detail, status, progress}` while the analysis runs. `pages`: without the
 * per-asset sections (the dashboard page reads them page by page below); `columns`: every asset (TCFD, company roll-up).
 */
export async function fetchDashboard(f: DashboardFiltersSent, signal?: AbortSignal, perAsset: 'columns' | 'pages' = 'columns'): Promise<DashboardData> {
  return dashboardView((await request<DashboardAnswer>('POST', '/api/v2/dashboard/', { json: { ...filterBody(f), per_asset: perAsset }, signal })).data);
}

export interface AssetPageParams {
  sort: string;
  order: 'asc' | 'desc';
  search: string;
  offset: number;
  limit: number;
  ids?: number[];
}
/** `POST api/v2/dashboard/assets/`: one page of the asset table, sorted and searched on the server. */
export async function fetchAssetPage(f: DashboardFiltersSent, p: AssetPageParams, signal?: AbortSignal): Promise<DashboardAssetPage> {
  return (await request<DashboardAssetPage>('POST', '/api/v2/dashboard/assets/', { json: { ...filterBody(f), ...p }, signal })).data;
}

export interface HeatmapPageParams {
  adaptation: boolean;
  sort: string;
  order: 'asc' | 'desc';
  search: string;
  offset: number;
  limit: number;
}
/** `POST api/v2/dashboard/heatmap/`: one page of the heat map. */
export async function fetchHeatmapPage(f: DashboardFiltersSent, p: HeatmapPageParams, signal?: AbortSignal): Promise<DashboardHeatmapPage> {
  return (await request<DashboardHeatmapPage>('POST', '/api/v2/dashboard/heatmap/', { json: { ...filterBody(f), ...p }, signal })).data;
}

export interface MapParams {
  colour_by: string;
  bbox?: [number, number, number, number];
  zoom?: number;
}
/** `POST api/v2/dashboard/map/`: every point up to 5,000 selected assets, else clusters of the viewport. */
export async function fetchAssetMap(f: DashboardFiltersSent, p: MapParams, signal?: AbortSignal): Promise<DashboardMapAnswer> {
  return (await request<DashboardMapAnswer>('POST', '/api/v2/dashboard/map/', { json: { ...filterBody(f), ...p }, signal })).data;
}

/** `POST api/v2/dashboard/detail/`: the detail-by-year presentation (with adaptation, dollars, all property types). */
export async function fetchDashboardDetail(
  b: { project: string; rcp: ScenarioCode; year: number; count: 'All' | number; with_content: boolean; variable: string; analysis_type?: AnalysisType },
  signal?: AbortSignal,
): Promise<DashboardData> {
  return dashboardView((await request<DashboardAnswer>('POST', '/api/v2/dashboard/detail/', { json: b, signal })).data);
}

export type AssetEditRow = { id: number } & Partial<Record<string, string | number | boolean | null>>;

export type UpdateAssetsResult = UpdateAssetsResponse;

/** `POST api/v2/update_assets/`: 409 when someone saved a newer version, 403 for a column the user may not edit. */
export async function updateAssets(projectId: number, version: number, assets: AssetEditRow[]): Promise<UpdateAssetsResult> {
  return (await request<UpdateAssetsResult>('POST', '/api/v2/update_assets/', { json: { project_id: projectId, version, assets } })).data;
}

/** `POST api/project/update_default_filter/`: the caller's Advanced Filter defaults. */
export async function saveDefaultFilter(data: DefaultFilters): Promise<{ detail: string; data: DefaultFilters }> {
  return (await request<{ detail: string; data: DefaultFilters }>('POST', '/api/project/update_default_filter/', { form: { data: JSON.stringify(data) } }))
    .data;
}

export type { DamageSeries, ExplorerHazard } from '@crp/contracts';
export type BuildingDamage = BuildingDamageAnswer;

export interface BuildingDamageInput {
  project_name?: string;
  asset_name?: string;
  year: number;
  analysis_type: AnalysisType;
  /** Left out: the named asset's own value (unknown without an asset). */
  basement?: 'yes' | 'no' | 'unknown';
  construction?: string;
  stories?: string;
  occupancy?: string;
  per_sq_m_value?: number;
}

/** `POST api/v2/building_damage/`: damage curves for river flood, storm surge and rainfall flood per scenario. */
export async function fetchBuildingDamage(b: BuildingDamageInput, signal?: AbortSignal): Promise<BuildingDamage> {
  return (await request<BuildingDamage>('POST', '/api/v2/building_damage/', { form: { ...b }, signal })).data;
}
