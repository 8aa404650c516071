import { z } from 'zod';
import { DATA_EDIT_PERMISSIONS, TIER_SECTIONS } from './accounts.js';

/**
 * The answer of `POST api/v2/dashboard/` and `POST api/v2/dashboard/detail/` (spec 001 §3.2; field meanings in
 * docs/dashboard.md). It documents the answer in the OpenAPI document only: the server sends the answer as a
 * pre-serialised UTF-8 buffer (docs/performance.md "Dashboard query"), which Fastify writes as is, without a
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
  mitigation_risk: z.number().int().min(0).max(3),
  content_value: z.number().nullable(),
  yearly_inventory_value: z.number().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().nullable(),
  climatic_score: z.number().nullable(),
  percentage: money.describe('residual CVaR as % of the asset value'),
  overall_loss: money.describe('residual CVaR, USD'),
  cvar: money,
  max_exposure: money,
});
export type DashboardAssetRow = z.infer<typeof DashboardAssetRow>;

const heatmap = z.strictObject({
  assets: z.array(z.string()),
  hazards: z.array(z.string()),
  data: z.array(z.tuple([z.number().int(), z.number().int(), z.number().nullable()])).describe('[hazard index, asset index, score or null]'),
});

const mapRow = z.strictObject({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  continent: z.string(),
  climate_score: z.number().nullable(),
  colour: z.string().describe('marker colour of the spec bands'),
  scores: z.record(z.string(), score),
});

const hazardLoss = z.strictObject({ hazard: z.string(), loss: money, percentage: money });
const inventoryLoss = z.strictObject({ hazard: z.string(), loss: money });
const yearPoint = z.strictObject({ year: z.number().int(), value: money });
const scenarioPoint = z.strictObject({ scenario: z.string(), value: money });
const chartUnit = z.strictObject({ year_constant: z.array(yearPoint), year_max: z.array(yearPoint), rcp_constant: z.array(scenarioPoint), rcp_max: z.array(scenarioPoint) });
const chartUnits = z.strictObject({ dollar: chartUnit, percentage: chartUnit });
const gated = <T extends z.ZodType>(t: T, section: string) => t.nullable().describe(`null when the tier does not allow ${section}`);

export const DashboardAnswer = z.strictObject({
  project: z.strictObject({
    project_id: z.number().int(),
    name: z.string(),
    version: z.number().int(),
    permission: z.enum(['owner', 'write', 'read']).describe("the caller's role on the project"),
    analysed_at: z.string().nullable(),
    methodology_version: z.string(),
    data_sources: z.array(z.strictObject({ name: z.string(), publisher: z.string(), license: z.string() })),
    hazards: z.array(z.string()),
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
      climate_value_at_risk: money,
      climate_value_at_risk_percentage: money,
      residual_climate_value_at_risk: money,
      residual_climate_value_at_risk_percentage: money,
      avoided_loss: money,
      max_exposure: money,
      max_exposure_percentage: money,
      total_asset_value: money,
      expected_annual_loss: money,
      technical_insurance_premium: money,
    }),
    'portfolio_losses',
  ),
  overall_bar_chart: gated(z.array(z.strictObject({ hazard: z.string(), cvar: money, rcvar: money, cvar_percentage: money, rcvar_percentage: money })), 'portfolio_losses'),
  cvar_chart_data: gated(z.strictObject({ cvar: chartUnits, rcvar: chartUnits }), 'rcp_year_loss_bars'),
  hazard_values: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_without_adaptation: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_2020: gated(hazardValues, 'climate_variable_intensity'),
  hazard_values_2020_without_adaptation: gated(hazardValues, 'climate_variable_intensity'),
  heatmap: gated(heatmap, 'climate_heatmap'),
  heatmap_without_adaptation: gated(heatmap, 'climate_heatmap'),
  heatmap_average: gated(z.record(z.string(), score), 'climate_heatmap'),
  loss_bars_data: gated(z.strictObject({ years: z.array(z.number().int()), series: z.array(z.strictObject({ hazard: z.string(), values: z.array(money) })) }), 'rcp_year_loss_bars'),
  loss_bars_data_historic: gated(z.array(hazardLoss), 'rcp_year_loss_bars'),
  portfolio_exposure_percentage_loss: gated(z.array(hazardLoss), 'portfolio_losses'),
  portfolio_exposure_percentage_loss_historic: gated(z.array(hazardLoss), 'portfolio_losses'),
  inventory_loss_data: gated(z.array(inventoryLoss), 'portfolio_losses'),
  inventory_loss_data_historic: gated(z.array(inventoryLoss), 'portfolio_losses'),
  metigation_measures: z
    .record(z.string(), z.array(z.strictObject({ level: z.number().int(), label: z.string(), measure: z.record(z.string(), z.number()).describe('engine adaptation measure: intensityReduction, protectionRpYears, damageScale...') })))
    .describe('per hazard label, the default measure of mitigation levels 1-3'),
  typhoon_map_data: gated(z.array(z.strictObject({ name: z.string(), latitude: z.number(), longitude: z.number(), wind_ms: z.number().nullable(), score })), 'asset_level_risk_map'),
  combined_data: gated(
    z.array(z.strictObject({ hazard: z.string(), score_2020: score, score, band_2020: z.string(), band: z.string() })),
    'climate_variable_intensity',
  ),
  year_chart_data: gated(z.strictObject({ percentage: z.array(yearPoint), dollar: z.array(yearPoint) }), 'rcp_year_loss_bars'),
  bar_chart_data: gated(z.array(z.strictObject({ name: z.string(), cvar: money, rcvar: money })), 'portfolio_losses'),
  cone_chart: gated(z.array(z.strictObject({ year: z.number().int(), low: money, mid: money, high: money })), 'rcp_year_loss_bars'),
  country_wise_loss_data: gated(z.array(z.strictObject({ country_code: z.string(), cvar: money, rcvar: money, assets: z.number().int() })), 'portfolio_losses'),
  hazard_map_continents: gated(z.array(z.string()), 'asset_level_risk_map'),
  hazard_map_data: gated(z.array(mapRow), 'asset_level_risk_map'),
  hazard_map_data_with_continent: gated(z.record(z.string(), z.array(mapRow)), 'asset_level_risk_map'),
  key_finding_data: gated(
    z.strictObject({
      cvar_85: money,
      cvar_26: money,
      value_of_transition_policies: money,
      increased_by_2030: money.describe('% change of CVaR against the 2020 window'),
      increased_by_2050: money,
      increased_by_2100: money,
    }),
    'portfolio_losses',
  ),
  single_asset: z
    .array(DashboardAssetRow.extend({ hazards: z.record(z.string(), score) }))
    .describe('the one selected asset (count = 1 or a single-asset project); empty when more are selected or the tier does not allow asset_table'),
  asset_table: gated(z.array(DashboardAssetRow), 'asset_table'),
  tier_permissions: z.partialRecord(z.enum(TIER_SECTIONS), z.boolean()),
  data_edit_permissions: z.partialRecord(z.enum(DATA_EDIT_PERMISSIONS), z.boolean()),
});
export type DashboardAnswer = z.infer<typeof DashboardAnswer>;
