import { z } from 'zod';
import { dbId } from './common.js';
import { DATA_EDIT_PERMISSIONS, TIER_SECTIONS } from './accounts.js';
import { CONSTRUCTION_CLASSES } from './assets.js';
import { markerColour } from './scores.js';
import { DashboardFilterFields, namesProject } from './projects.js';

/**
 * The answer of `POST api/v2/dashboard/` and `POST api/v2/dashboard/detail/` (spec 001 §3.2; field meanings in
 * docs/dashboard.md). It documents the answer in the OpenAPI document only: the server sends the answer as a
 * pre-serialised UTF-8 buffer (docs/performance-history.md "Dashboard query"), which Fastify writes as is, without a
 * serialisation or validation pass. apps/server/test/dashboard.test.ts parses real answers with this schema (objects are
 * strict, so a field added to the answer without being documented here fails that test).
 */
const money = z.number().nullable().describe('USD (or percent where the field says so), rounded to cents; null when not finite');
const score = z.number().nullable().describe('severity score 0-100; null = no data');

/** `[amount, unit, score]`: mean headline intensity and mean severity score of the assets with data. */
export const DashboardHazardValue = z.tuple([z.number().nullable(), z.string(), z.number().nullable()]);
const hazardValues = z.record(z.string(), DashboardHazardValue).describe('per hazard label: [mean intensity, unit, mean score]');

export const DashboardAssetRow = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  type: z.string().nullable(),
  revenue: z.number().nullable(),
  construction_cost: z.number().nullable(),
  area: z.number().nullable(),
  gross_area: z.number().nullable(),
  ownership: z.number().nullable(),
  floors: z.number().nullable(),
  valuation: z.number().nullable(),
  building_age: z.number().nullable(),
  basement: z.boolean().nullable(),
  plinth_height: z.number().nullable(),
  flood_protection: z.number().nullable().describe('standard of flood protection (years) the user set; null: the default of the place'),
  construction: z
    .enum(CONSTRUCTION_CLASSES)
    .nullable()
    .describe('construction class for typhoon wind (the FEMA Hazus curve of the building type); null: unknown, the regional curve'),
  mitigation_risk: z.number().int().min(0).max(3),
  content_value: z.number().nullable(),
  yearly_inventory_value: z.number().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().nullable(),
  climatic_score: z.number().nullable(),
  percentage: money.describe('residual 20-year expected loss as % of the asset value'),
  overall_loss: money.describe('residual 20-year expected loss, USD'),
  cvar: money.describe('20-year expected loss, USD: a sum of expected losses, not a tail measure (field name kept for compatibility)'),
  max_exposure: money,
  loss_100_year: money.describe(
    "loss of the asset's 1-in-100-year event (hazards added, at most value plus a year's revenue), USD; null: analysed before tail losses were kept",
  ),
  loss_250_year: money.describe('the same for the 1-in-250-year event'),
});
export type DashboardAssetRow = z.infer<typeof DashboardAssetRow>;

/** The fields of an asset row that identify and place it; sent once, in the `assets` block, for every per-asset section. */
const ASSET_IDENTITY = ['id', 'name', 'latitude', 'longitude', 'country_code'] as const;
type IdentityKey = (typeof ASSET_IDENTITY)[number];
type RowShape = typeof DashboardAssetRow.shape;
/** An object of one array per field (columnar): `{ f: [value of asset 0, value of asset 1, ...] }`. */
function columnsOf<K extends keyof RowShape>(keys: readonly K[]) {
  return z.strictObject(Object.fromEntries(keys.map((k) => [k, z.array(DashboardAssetRow.shape[k])])) as { [P in K]: z.ZodArray<RowShape[P]> });
}
/** The asset table's columns other than the identity ones (in `assets`). */
export const ASSET_TABLE_COLUMNS = (Object.keys(DashboardAssetRow.shape) as (keyof RowShape)[]).filter(
  (k): k is Exclude<keyof RowShape, IdentityKey> => !(ASSET_IDENTITY as readonly string[]).includes(k),
);

/** Per-asset block shared by the per-asset sections: index n in every per-asset array is the n-th selected asset. */
export const DashboardAssets = columnsOf(ASSET_IDENTITY)
  .extend({ continent: z.array(z.string()) })
  .describe(
    'the selected assets, columnar (one array per field, index n = the n-th selected asset); null when the tier allows no per-asset section (asset_table, climate_heatmap, asset_level_risk_map)',
  );
export type DashboardAssets = z.infer<typeof DashboardAssets>;
export const DashboardAssetTable = columnsOf(ASSET_TABLE_COLUMNS).describe(
  'the asset table, columnar: one array per column, index n = assets[n] (id, name, latitude, longitude and country_code are in `assets`)',
);
export type DashboardAssetTable = z.infer<typeof DashboardAssetTable>;

const scoreColumns = z.array(z.array(score)).describe('scores[k][n]: severity score of hazard k for asset n (null = no data)');
const heatmap = z.strictObject({ hazards: z.array(z.string()), scores: scoreColumns });

const hazardLoss = z.strictObject({ hazard: z.string(), loss: money, percentage: money });
const inventoryLoss = z.strictObject({ hazard: z.string(), loss: money });
const yearPoint = z.strictObject({ year: z.number().int(), value: money });
const scenarioPoint = z.strictObject({ scenario: z.string(), value: money });
const chartUnit = z.strictObject({
  year_constant: z.array(yearPoint),
  year_max: z.array(yearPoint),
  rcp_constant: z.array(scenarioPoint),
  rcp_max: z.array(scenarioPoint),
});
const chartUnits = z.strictObject({ dollar: chartUnit, percentage: chartUnit });
const gated = <T extends z.ZodType>(t: T, section: string) => t.nullable().describe(`null when the tier does not allow ${section}`);
/**
 * The filters the dashboard of a large analysis (one read from its dashboard store, docs/dashboard.md "Large
 * portfolios") cannot serve: one hazard alone, without content, GDP-adjusted, the highest-loss assets, one property
 * type, and the per-asset sections in the answer.
 */
export const LARGE_PORTFOLIO_FILTERS = ['variable', 'with_content', 'adjusted_gdp', 'count', 'property_type', 'per_asset'] as const;
export type LargePortfolioFilter = (typeof LARGE_PORTFOLIO_FILTERS)[number];

/** A per-asset section: absent when the query asked for per_asset 'pages' (the page endpoints serve it). */
const perAsset = <T extends z.ZodType>(t: T) => t.optional();

export const DashboardAnswer = z.strictObject({
  project: z.strictObject({
    project_id: z.number().int(),
    name: z.string(),
    version: z.number().int(),
    permission: z.enum(['owner', 'write', 'read']).describe("the caller's role on the project"),
    analysed_at: z.string().nullable(),
    methodology_version: z.string(),
    data_sources: z.array(z.strictObject({ name: z.string(), publisher: z.string(), license: z.string() })),
    placeholder_hazards: z
      .array(z.string())
      .describe("labels of the project's hazards whose data tier is 'placeholder' (screening models until real maps are loaded: load your own layers)"),
    hazards: z.array(z.string()),
    own_data: z
      .strictObject({
        hazards: z
          .array(z.string())
          .describe("labels of the project's hazards of which at least one asset's value comes from an own layer at the selected scenario and year"),
        assets: z.number().int().describe('assets with at least one such value'),
        layers: z.array(z.string()).describe('labels of the own layers the analysis used'),
      })
      .nullable()
      .describe("values read from your company's own hazard layers (data tier 'own data'); null when the analysis used none"),
    published_data: z
      .strictObject({
        hazards: z
          .array(z.string())
          .describe("labels of the project's hazards of which at least one asset's value comes from a published flood map at the selected scenario and year"),
        assets: z.number().int().describe('assets with at least one such value'),
        datasets: z.array(z.string()).describe('the published map sets read (dataset name, hazard, scenario and year used)'),
      })
      .nullable()
      .describe(
        "values read from published flood maps registered on this installation (WRI Aqueduct Floods, JRC; data tier 'published dataset'); null when the analysis used none",
      ),
  }),
  filters: z
    .strictObject({
      analysis_type: z.enum(['rcp', 'ssp']),
      scenario: z.enum(['26', '45', '85']),
      scenario_label: z.string(),
      year: z.number().int(),
      variable: z.string(),
      percentage_type: z.enum(['dollar', 'percentage']),
      mitigation: z.boolean(),
      with_content: z.boolean(),
      adjusted_gdp: z.boolean(),
      property_type: z.string(),
      count: z.union([z.literal('All'), z.number().int()]),
      currency: z.string(),
    })
    .describe('the filters actually applied (rcp with 2100 is forced to 2050)'),
  asset_count: z.number().int(),
  hazard_count: z.number().int(),
  property_types: z.array(z.string()),
  overall: z.strictObject({
    overall_risk: z.number().nullable(),
    label: z.enum(['low', 'medium', 'high']).nullable(),
    Max_exposure: money.describe('null when the tier does not allow portfolio_losses'),
  }),
  climate_risk_card_data: gated(
    z.strictObject({
      climate_value_at_risk: money.describe(
        '20-year expected loss, USD: expected annual loss summed over the 20-year window around the year, not a tail measure (field name kept for compatibility)',
      ),
      climate_value_at_risk_percentage: money,
      residual_climate_value_at_risk: money,
      residual_climate_value_at_risk_percentage: money,
      avoided_loss: money,
      max_exposure: money,
      max_exposure_percentage: money,
      total_asset_value: money.describe(
        'the value the user gave (valuation; construction cost where no valuation was given) [+ content and inventory] x ownership, summed over the selected assets: the denominator of every percentage. The losses are of the building at its construction cost',
      ),
      assets_valued_at_construction_cost: z
        .number()
        .int()
        .describe('selected assets without a valuation whose construction cost stands in for it in total_asset_value and the percentages'),
      expected_annual_loss: money,
      technical_insurance_premium: money.describe(
        'per year: 1.3 x the expected annual loss of the insurable hazards (floods, surge, cyclone, wildfire, landslide, snow, freeze) / (1 - 0.25 expenses)',
      ),
      loss_100_year: money.describe(
        'loss of the 1-in-100-year event of each asset (hazards summed), summed over the selected assets: an upper bound for the portfolio (no diversification); null for results analysed before tail losses were kept',
      ),
      loss_250_year: money.describe('the same for the 1-in-250-year event'),
    }),
    'portfolio_losses',
  ),
  overall_bar_chart: gated(
    z.array(z.strictObject({ hazard: z.string(), cvar: money, rcvar: money, cvar_percentage: money, rcvar_percentage: money })),
    'portfolio_losses',
  ),
  cvar_chart_data: gated(z.strictObject({ cvar: chartUnits, rcvar: chartUnits }), 'rcp_year_loss_bars'),
  hazard_values: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_without_adaptation: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_2020: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_2020_without_adaptation: gated(hazardValues, 'climate_variable_intensity'),
  heatmap: perAsset(gated(heatmap, 'climate_heatmap')),
  heatmap_without_adaptation: perAsset(gated(heatmap, 'climate_heatmap')),
  heatmap_average: gated(z.record(z.string(), score), 'climate_heatmap'),
  loss_bars_data: gated(
    z.strictObject({ years: z.array(z.number().int()), series: z.array(z.strictObject({ hazard: z.string(), values: z.array(money) })) }),
    'rcp_year_loss_bars',
  ),
  loss_bars_data_historic: gated(z.array(hazardLoss), 'rcp_year_loss_bars'),
  portfolio_exposure_percentage_loss: gated(z.array(hazardLoss), 'portfolio_losses'),
  portfolio_exposure_percentage_loss_historic: gated(z.array(hazardLoss), 'portfolio_losses'),
  inventory_loss_data: gated(z.array(inventoryLoss), 'portfolio_losses'),
  inventory_loss_data_historic: gated(z.array(inventoryLoss), 'portfolio_losses'),
  metigation_measures: z
    .record(
      z.string(),
      z.array(
        z.strictObject({
          level: z.number().int(),
          label: z.string(),
          measure: z.record(z.string(), z.number()).describe('engine adaptation measure: intensityReduction, protectionRpYears, damageScale...'),
        }),
      ),
    )
    .describe('per hazard label, the default measure of mitigation levels 1-3'),
  typhoon_map_data: perAsset(
    gated(
      z.strictObject({ wind_ms: z.array(z.number().nullable()).describe('typhoon wind speed, m/s, per asset'), score: z.array(score) }),
      'asset_level_risk_map',
    ),
  ),
  combined_data: gated(
    z.array(z.strictObject({ hazard: z.string(), score_2020: score, score, band_2020: z.string(), band: z.string() })),
    'climate_variable_intensity',
  ),
  year_chart_data: gated(z.strictObject({ percentage: z.array(yearPoint), dollar: z.array(yearPoint) }), 'rcp_year_loss_bars'),
  bar_chart_data: gated(z.array(z.strictObject({ name: z.string(), cvar: money, rcvar: money })), 'portfolio_losses'),
  cone_chart: gated(z.array(z.strictObject({ year: z.number().int(), low: money, mid: money, high: money })), 'rcp_year_loss_bars'),
  country_wise_loss_data: gated(z.array(z.strictObject({ country_code: z.string(), cvar: money, rcvar: money, assets: z.number().int() })), 'portfolio_losses'),
  hazard_map_continents: gated(z.array(z.string()), 'asset_level_risk_map'),
  hazard_map_data: perAsset(
    gated(
      z
        .strictObject({ climate_score: z.array(score), hazards: z.array(z.string()), scores: scoreColumns })
        .describe('marker data per asset (scores with adaptation when the mitigation filter is on); the marker colour is markerColour(climate_score ?? 0)'),
      'asset_level_risk_map',
    ),
  ),
  hazard_map_data_with_continent: perAsset(
    gated(z.record(z.string(), z.array(z.number().int())).describe('per continent, the indices of its assets in `assets`'), 'asset_level_risk_map'),
  ),
  key_finding_data: gated(
    z.strictObject({
      cvar_85: money.describe('portfolio 20-year expected loss under 8.5 (field name kept for compatibility)'),
      cvar_26: money.describe('portfolio 20-year expected loss under 2.6'),
      value_of_transition_policies: money,
      increased_by_2030: money.describe('% change of the 20-year expected loss against the 2020 window'),
      increased_by_2050: money,
      increased_by_2100: money,
    }),
    'portfolio_losses',
  ),
  single_asset: z
    .array(DashboardAssetRow.extend({ hazards: z.record(z.string(), score) }))
    .describe('the one selected asset (count = 1 or a single-asset project); empty when more are selected or the tier does not allow asset_table'),
  assets: perAsset(DashboardAssets.nullable()),
  asset_table: perAsset(gated(DashboardAssetTable, 'asset_table')),
  per_asset_total: z
    .number()
    .int()
    .optional()
    .describe("with per_asset 'pages': the number of selected assets the page endpoints (api/v2/dashboard/assets/, heatmap/, map/) page through"),
  large_portfolio: z
    .strictObject({ assets: z.number().int(), unavailable: z.array(z.enum(LARGE_PORTFOLIO_FILTERS)) })
    .optional()
    .describe(
      'present when the analysis is too large to read at once and the dashboard reads its dashboard store: the filters it cannot serve (they answer 422)',
    ),
  tier_permissions: z.partialRecord(z.enum(TIER_SECTIONS), z.boolean()),
  data_edit_permissions: z.partialRecord(z.enum(DATA_EDIT_PERMISSIONS), z.boolean()),
});
export type DashboardAnswer = z.infer<typeof DashboardAnswer>;

/*
 * Row views of the columnar per-asset sections. The answer sends each asset's data once, in columns (about a quarter
 * of the bytes and of the server's work of rows with repeated keys; docs/performance-history.md "Dashboard answer format");
 * the web client and the reports read rows, built here once per answer.
 */
export interface DashboardHeatmapView {
  assets: string[];
  hazards: string[];
  data: [number, number, number | null][];
}
export interface DashboardMapRow {
  name: string;
  latitude: number;
  longitude: number;
  continent: string;
  climate_score: number | null;
  colour: string;
  scores: Record<string, number | null>;
}
export interface DashboardTyphoonRow {
  name: string;
  latitude: number;
  longitude: number;
  wind_ms: number | null;
  score: number | null;
}
/** The answer with its per-asset sections as rows (what the sections are drawn from). */
export type DashboardView = Omit<
  DashboardAnswer,
  'assets' | 'asset_table' | 'heatmap' | 'heatmap_without_adaptation' | 'hazard_map_data' | 'hazard_map_data_with_continent' | 'typhoon_map_data'
> & {
  asset_table: DashboardAssetRow[] | null;
  heatmap: DashboardHeatmapView | null;
  heatmap_without_adaptation: DashboardHeatmapView | null;
  hazard_map_data: DashboardMapRow[] | null;
  hazard_map_data_with_continent: Record<string, DashboardMapRow[]> | null;
  typhoon_map_data: DashboardTyphoonRow[] | null;
};

/** The asset table as rows, in the column order of DashboardAssetRow. */
export function dashboardAssetRows(assets: DashboardAssets, table: DashboardAssetTable): DashboardAssetRow[] {
  const keys = Object.keys(DashboardAssetRow.shape) as (keyof DashboardAssetRow)[];
  const cols = keys.map(
    (k) => ((ASSET_TABLE_COLUMNS as readonly string[]).includes(k) ? (table as Record<string, unknown[]>)[k] : (assets as Record<string, unknown[]>)[k])!,
  );
  return assets.id.map((_, n) => {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < keys.length; c++) row[keys[c]!] = cols[c]![n];
    return row as DashboardAssetRow;
  });
}

/** A heat map as ECharts' `[hazard index, asset index, score]` triples (asset-major), with its row and column labels. */
export function dashboardHeatmap(assets: DashboardAssets, h: { hazards: string[]; scores: (number | null)[][] }): DashboardHeatmapView {
  const N = assets.name.length,
    H = h.hazards.length;
  const data: [number, number, number | null][] = new Array(N * H);
  for (let n = 0; n < N; n++) for (let k = 0; k < H; k++) data[n * H + k] = [k, n, h.scores[k]![n]!];
  return { assets: assets.name.slice(), hazards: h.hazards.slice(), data };
}

/** Every per-asset section of an answer as rows; the other sections as they are. */
export function dashboardView(a: DashboardAnswer): DashboardView {
  const {
    assets,
    asset_table,
    heatmap: heat,
    heatmap_without_adaptation: heatWithout,
    hazard_map_data: map,
    hazard_map_data_with_continent: byContinent,
    typhoon_map_data: typhoon,
    ...rest
  } = a;
  const need = <T>(v: T | null | undefined, f: (assets: DashboardAssets, v: T) => unknown) =>
    v === null || v === undefined || assets === null || assets === undefined ? null : f(assets, v);
  const mapRows =
    map && assets
      ? assets.name.map((name, n): DashboardMapRow => {
          const cs = map.climate_score[n]!;
          const scores: Record<string, number | null> = {};
          map.hazards.forEach((h, k) => {
            scores[h] = map.scores[k]![n]!;
          });
          return {
            name,
            latitude: assets.latitude[n]!,
            longitude: assets.longitude[n]!,
            continent: assets.continent[n]!,
            climate_score: cs,
            colour: markerColour(cs ?? 0),
            scores,
          };
        })
      : null;
  return {
    ...rest,
    asset_table: need(asset_table, dashboardAssetRows) as DashboardAssetRow[] | null,
    heatmap: need(heat, dashboardHeatmap) as DashboardHeatmapView | null,
    heatmap_without_adaptation: need(heatWithout, dashboardHeatmap) as DashboardHeatmapView | null,
    hazard_map_data: mapRows,
    hazard_map_data_with_continent:
      byContinent && mapRows ? Object.fromEntries(Object.entries(byContinent).map(([c, ns]) => [c, ns.map((n) => mapRows[n]!)])) : null,
    typhoon_map_data: need(typhoon, (s, t) =>
      s.name.map((name, n) => ({ name, latitude: s.latitude[n]!, longitude: s.longitude[n]!, wind_ms: t.wind_ms[n]!, score: t.score[n]! })),
    ) as DashboardTyphoonRow[] | null,
  };
}

/*
 * Pages of the per-asset sections (issue 22 item 3): a bank's book of a million assets is never sent whole. The
 * server keeps, per analysis and filters, the selection and its sorted orders; these endpoints answer one page.
 */
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');
/** Most rows one page may ask for. */
export const DASHBOARD_PAGE_MAX = 500;
/** Up to this many selected assets the map endpoint sends every point; above it, grid clusters of the viewport. */
export const DASHBOARD_MAP_POINTS_MAX = 5000;
const pageFields = {
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .max(1e9, 'offset is too large')
    .default(0),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('asc'),
  search: z
    .string({ error: 'search must be text' })
    .trim()
    .max(100, 'search is at most 100 characters')
    .default('')
    .describe('case-insensitive part of the asset name or property type'),
};
const limit = (d: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be 1 to 500')
    .max(DASHBOARD_PAGE_MAX, 'limit must be 1 to 500')
    .default(d);
/** Columns the asset table can be sorted by: `position` (upload order, the default) or any column of the row. */
export const ASSET_SORT_KEYS = ['position', ...(Object.keys(DashboardAssetRow.shape) as (keyof RowShape)[])] as const;

export const DashboardAssetPageBody = DashboardFilterFields.extend({
  ...pageFields,
  limit: limit(20),
  sort: z
    .enum(ASSET_SORT_KEYS as unknown as [string, ...string[]], { error: `sort must be one of ${ASSET_SORT_KEYS.join(', ')}` })
    .default('position')
    .describe('column to sort by; empty values last in either order; ties in upload order'),
  ids: z
    .array(dbId('ids'), { error: 'ids must be a list of asset ids' })
    .max(DASHBOARD_PAGE_MAX, 'ids: at most 500')
    .optional()
    .describe('only these assets (of the selection), e.g. the one asset of the analysis window'),
}).refine(namesProject, { message: 'project_name or project_id is required', path: ['project_name'] });
export type DashboardAssetPageBody = z.infer<typeof DashboardAssetPageBody>;
export const DashboardAssetPageRow = DashboardAssetRow.extend({
  position: z.number().int().describe("the asset's index in the selection in upload order"),
  hazards: z
    .record(z.string(), score)
    .describe(
      'per hazard label, the score at the year (with adaptation when the mitigation filter is on); empty when the tier shows neither the heat map nor the asset risk map',
    ),
});
export type DashboardAssetPageRow = z.infer<typeof DashboardAssetPageRow>;
export const DashboardAssetPage = z.strictObject({
  total: z.number().int().describe('selected assets matching the search'),
  offset: z.number().int(),
  limit: z.number().int(),
  sort: z.string(),
  order: z.enum(['asc', 'desc']),
  rows: z.array(DashboardAssetPageRow),
});
export type DashboardAssetPage = z.infer<typeof DashboardAssetPage>;

export const DashboardHeatmapPageBody = DashboardFilterFields.extend({
  ...pageFields,
  limit: limit(100),
  sort: z.string().trim().max(40).default('position').describe("position (upload order), name, climate_score, or a hazard label (that hazard's score)"),
  adaptation: flag.optional().describe('scores with adaptation (default: the mitigation filter)'),
}).refine(namesProject, { message: 'project_name or project_id is required', path: ['project_name'] });
export type DashboardHeatmapPageBody = z.infer<typeof DashboardHeatmapPageBody>;
export const DashboardHeatmapPage = z.strictObject({
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  hazards: z.array(z.string()),
  ids: z.array(z.number().int()),
  names: z.array(z.string()),
  scores: scoreColumns,
});
export type DashboardHeatmapPage = z.infer<typeof DashboardHeatmapPage>;

const lon = z
  .number({ error: 'bbox must be [west, south, east, north] in degrees' })
  .min(-180, 'bbox longitudes are -180 to 180')
  .max(180, 'bbox longitudes are -180 to 180');
const lat = z
  .number({ error: 'bbox must be [west, south, east, north] in degrees' })
  .min(-90, 'bbox latitudes are -90 to 90')
  .max(90, 'bbox latitudes are -90 to 90');
export const DashboardMapBody = DashboardFilterFields.extend({
  colour_by: z
    .string()
    .trim()
    .max(40)
    .default('Climate score')
    .describe('Climate score or a hazard label: the score the points (and clusters) are coloured by'),
  bbox: z
    .tuple([lon, lat, lon, lat], { error: 'bbox must be [west, south, east, north] in degrees' })
    .optional()
    .describe('viewport; clusters outside it are left out (default the world)'),
  zoom: z.coerce.number({ error: 'zoom must be a number' }).min(0, 'zoom must be 0 to 22').max(22, 'zoom must be 0 to 22').default(2),
}).refine(namesProject, { message: 'project_name or project_id is required', path: ['project_name'] });
export type DashboardMapBody = z.infer<typeof DashboardMapBody>;
export const DashboardMapAnswer = z.strictObject({
  total: z.number().int().describe('selected assets'),
  clustered: z.boolean().describe(`false: every selected asset is in points (at most ${DASHBOARD_MAP_POINTS_MAX}); true: clusters of the viewport`),
  colour_by: z.string(),
  hazards: z.array(z.string()).describe('what colour_by may name besides Climate score'),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().describe('[west, south, east, north] of every selected asset'),
  points: z
    .strictObject({
      id: z.array(z.number().int()),
      name: z.array(z.string()),
      latitude: z.array(z.number()),
      longitude: z.array(z.number()),
      score: z.array(score),
    })
    .nullable(),
  clusters: z
    .array(
      z.strictObject({
        latitude: z.number(),
        longitude: z.number(),
        count: z.number().int(),
        score: score.describe('the highest score in the cluster'),
        mean: score.describe(
          'the mean score of its assets with a score, rounded (null: none has one): what the map colours the cluster by, so that a world view of mostly low-risk assets is not all red',
        ),
        name: z.string().nullable().describe('the asset when the cluster holds one'),
      }),
    )
    .nullable()
    .describe('grid cells of about 48 screen pixels at the zoom: mean position of their assets'),
});
export type DashboardMapAnswer = z.infer<typeof DashboardMapAnswer>;

/** The hazards of the building-damage explorer (`POST api/v2/building_damage/`), in the order it draws them. */
export const EXPLORER_HAZARD_KEYS = ['river_flood', 'storm_surge', 'rainfall_flood'] as const;
export type ExplorerHazard = (typeof EXPLORER_HAZARD_KEYS)[number];

/** One damage curve: x depth (m) or return period (years), y the damage ratio (0-1), y_value in USD. */
export const DamageSeries = z.object({
  x: z.array(z.number()),
  y: z.array(z.number()),
  y_value: z.array(z.number()),
  x_unit: z.enum(['m', 'years']),
  expected_annual_damage_ratio: z.number().nullable(),
});
export type DamageSeries = z.infer<typeof DamageSeries>;
const DamageByScenario = z.object({ '26': DamageSeries, '45': DamageSeries, '85': DamageSeries });

/** `POST api/v2/building_damage/`: damage curves per explorer hazard and scenario, and the building they were read for. */
export const BuildingDamageAnswer = z.object({
  river_flood: DamageByScenario,
  storm_surge: DamageByScenario,
  rainfall_flood: DamageByScenario,
  hazus_occupancy: z.string(),
  first_floor_height_m: z.number(),
  source: z.string(),
  inputs: z
    .object({
      basement: z.string(),
      construction: z.string(),
      stories: z.string().describe('a number of storeys, 3 or more, or unknown'),
      occupancy: z.string(),
      per_sq_m_value: z.number(),
    })
    .describe("the choices the curves were drawn for: those sent, the others the named asset's own (unknown without an asset)"),
  asset: z
    .boolean()
    .describe(
      "true: the curves are the analysis's own damage of the named asset at its site's return periods and the EAD is the dashboard's; false: Hazus depth-damage curves of the chosen building",
    ),
});
export type BuildingDamageAnswer = z.infer<typeof BuildingDamageAnswer>;
