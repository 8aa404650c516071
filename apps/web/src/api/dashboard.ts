import type { AnalysisType, DataEditPermission, DefaultFilters, ScenarioCode, TierSection } from '@crp/contracts';
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

export interface AssetRow {
  id: number;
  name: string;
  type: string | null;
  revenue: number | null;
  construction_cost: number | null;
  area: number | null;
  gross_area: number | null;
  ownership: number | null;
  floors: number | null;
  valuation: number | null;
  building_age: number | null;
  basement: boolean | null;
  plinth_height: number | null;
  mitigation_risk: number;
  content_value: number | null;
  yearly_inventory_value: number | null;
  latitude: number;
  longitude: number;
  country_code: string | null;
  climatic_score: number | null;
  percentage: number | null;
  overall_loss: number | null;
  cvar: number | null;
  max_exposure: number | null;
}

type YearPoint = { year: number; value: number | null };
type ScenarioPoint = { scenario: string; value: number | null };
export interface CvarChartUnit {
  year_constant: YearPoint[];
  year_max: YearPoint[];
  rcp_constant: ScenarioPoint[];
  rcp_max: ScenarioPoint[];
}
export type HazardLoss = { hazard: string; loss: number | null; percentage?: number | null };
export interface HeatmapData {
  assets: string[];
  hazards: string[];
  data: [number, number, number | null][];
}
export interface MapAsset {
  name: string;
  latitude: number;
  longitude: number;
  continent: string;
  climate_score: number | null;
  colour: string;
  scores: Record<string, number | null>;
}

export interface DashboardData {
  project: { project_id: number; name: string; version: number; analysed_at: string | null; methodology_version: string; data_sources: { name: string; publisher: string; license: string }[]; hazards: string[] };
  filters: DashboardFiltersSent & { scenario_label: string; percentage_type: Unit; currency: string };
  asset_count: number;
  hazard_count: number;
  property_types: string[];
  overall: { overall_risk: number | null; label: 'low' | 'medium' | 'high' | null; Max_exposure: number | null };
  climate_risk_card_data: {
    climate_value_at_risk: number | null;
    climate_value_at_risk_percentage: number | null;
    residual_climate_value_at_risk: number | null;
    residual_climate_value_at_risk_percentage: number | null;
    avoided_loss: number | null;
    max_exposure: number | null;
    max_exposure_percentage: number | null;
    total_asset_value: number | null;
    expected_annual_loss: number | null;
    technical_insurance_premium: number | null;
  } | null;
  overall_bar_chart: { hazard: string; cvar: number | null; rcvar: number | null; cvar_percentage: number | null; rcvar_percentage: number | null }[] | null;
  cvar_chart_data: { cvar: Record<Unit, CvarChartUnit>; rcvar: Record<Unit, CvarChartUnit> } | null;
  hazard_values: HazardValues | null;
  hazard_values_without_adaptation: HazardValues | null;
  hazard_values_2020: HazardValues | null;
  hazard_values_2020_without_adaptation: HazardValues | null;
  heatmap: HeatmapData | null;
  heatmap_without_adaptation: HeatmapData | null;
  heatmap_average: Record<string, number | null> | null;
  loss_bars_data: { years: number[]; series: { hazard: string; values: (number | null)[] }[] } | null;
  loss_bars_data_historic: HazardLoss[] | null;
  portfolio_exposure_percentage_loss: HazardLoss[] | null;
  portfolio_exposure_percentage_loss_historic: HazardLoss[] | null;
  inventory_loss_data: HazardLoss[] | null;
  inventory_loss_data_historic: HazardLoss[] | null;
  metigation_measures: Record<string, { level: number; label: string; measure: Record<string, number> }[]>;
  typhoon_map_data: { name: string; latitude: number; longitude: number; wind_ms: number | null; score: number | null }[] | null;
  combined_data: { hazard: string; score_2020: number | null; score: number | null; band_2020: string; band: string }[] | null;
  year_chart_data: Record<Unit, YearPoint[]> | null;
  bar_chart_data: { name: string; cvar: number | null; rcvar: number | null }[] | null;
  cone_chart: { year: number; low: number | null; mid: number | null; high: number | null }[] | null;
  country_wise_loss_data: { country_code: string; cvar: number | null; rcvar: number | null; assets: number }[] | null;
  hazard_map_continents: string[] | null;
  hazard_map_data: MapAsset[] | null;
  hazard_map_data_with_continent: Record<string, MapAsset[]> | null;
  key_finding_data: {
    cvar_85: number | null;
    cvar_26: number | null;
    value_of_transition_policies: number | null;
    increased_by_2030: number | null;
    increased_by_2050: number | null;
    increased_by_2100: number | null;
  } | null;
  single_asset: (AssetRow & { hazards: Record<string, number | null> })[];
  asset_table: AssetRow[] | null;
  tier_permissions: Partial<Record<TierSection, boolean>>;
  data_edit_permissions: Partial<Record<DataEditPermission, boolean>>;
}

/** `POST api/v2/dashboard/` (JSON body). 409 `{detail, status, progress}` while the analysis runs. */
export async function fetchDashboard(f: DashboardFiltersSent, signal?: AbortSignal): Promise<DashboardData> {
  const json = {
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
  return (await request<DashboardData>('POST', '/api/v2/dashboard/', { json, signal })).data;
}

/** `POST api/v2/dashboard/detail/`: the detail-by-year presentation (with adaptation, dollars, all property types). */
export async function fetchDashboardDetail(
  b: { project: string; rcp: ScenarioCode; year: number; count: 'All' | number; with_content: boolean; variable: string; analysis_type?: AnalysisType },
  signal?: AbortSignal,
): Promise<DashboardData> {
  return (await request<DashboardData>('POST', '/api/v2/dashboard/detail/', { json: b, signal })).data;
}

export type AssetEditRow = { id: number } & Partial<Record<string, string | number | boolean | null>>;

export interface UpdateAssetsResult {
  detail: string;
  changed: number;
  version: number;
  job_id: number | null;
}

/** `POST api/v2/update_assets/`: 409 when someone saved a newer version, 403 for a column the user may not edit. */
export async function updateAssets(projectId: number, version: number, assets: AssetEditRow[]): Promise<UpdateAssetsResult> {
  return (await request<UpdateAssetsResult>('POST', '/api/v2/update_assets/', { json: { project_id: projectId, version, assets } })).data;
}

/** `POST api/project/update_default_filter/`: the caller's Advanced Filter defaults. */
export async function saveDefaultFilter(data: DefaultFilters): Promise<{ detail: string; data: DefaultFilters }> {
  return (await request<{ detail: string; data: DefaultFilters }>('POST', '/api/project/update_default_filter/', { form: { data: JSON.stringify(data) } })).data;
}

export const EXPLORER_HAZARD_KEYS = ['river_flood', 'storm_surge', 'rainfall_flood'] as const;
export type ExplorerHazard = (typeof EXPLORER_HAZARD_KEYS)[number];
export interface DamageSeries {
  x: number[];
  y: number[];
  y_value: number[];
  x_unit: 'm' | 'years';
  expected_annual_damage_ratio: number | null;
}
export type BuildingDamage = Record<ExplorerHazard, Record<ScenarioCode, DamageSeries>> & { hazus_occupancy?: string; first_floor_height_m?: number; source?: string };

export interface BuildingDamageInput {
  project_name?: string;
  asset_name?: string;
  year: number;
  analysis_type: AnalysisType;
  basement: 'yes' | 'no' | 'unknown';
  construction: string;
  stories: string;
  occupancy: string;
  per_sq_m_value: number;
}

/** `POST api/v2/building_damage/`: damage curves for river flood, storm surge and rainfall flood per scenario. */
export async function fetchBuildingDamage(b: BuildingDamageInput, signal?: AbortSignal): Promise<BuildingDamage> {
  return (await request<BuildingDamage>('POST', '/api/v2/building_damage/', { form: { ...b }, signal })).data;
}
