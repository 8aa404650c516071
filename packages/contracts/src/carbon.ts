import { z } from 'zod';
import { PROJECT_NAME_MAX_LENGTH, text } from './common.js';

/** The 12 regions of the carbon module (spec 001 §3.5), in the spec's order. */
export const CARBON_REGIONS = [
  'North America',
  'Japan',
  'Europe',
  'China',
  'Southern Asia',
  'East Asia',
  'South East Asia',
  'South America',
  'Africa',
  'Middle East',
  'Australia/NZ',
  'Western Asia',
] as const;
export type CarbonRegion = (typeof CARBON_REGIONS)[number];

/**
 * The 29 sectors (Refinitiv TRBC business-sector / industry-group names), alphabetical "from Automobiles & Auto
 * Parts to Water Utilities" as the spec says. Each maps to one NAICS-6 industry of the US EPA factors
 * (packages/engine/scripts/build-carbon-factors.mjs; docs/methodology.md "Carbon and transition").
 */
export const CARBON_SECTORS = [
  'Automobiles & Auto Parts',
  'Banking Services',
  'Chemicals',
  'Coal',
  'Construction & Engineering',
  'Construction Materials',
  'Electric Utilities',
  'Food & Beverages',
  'Food & Drug Retailing',
  'Healthcare Services & Equipment',
  'Hotels & Entertainment Services',
  'Industrial Machinery & Equipment',
  'Insurance',
  'Investment Banking & Investment Services',
  'Metals & Mining',
  'Natural Gas Utilities',
  'Oil & Gas',
  'Oil & Gas Related Equipment & Services',
  'Paper & Forest Products',
  'Pharmaceuticals & Medical Research',
  'Real Estate',
  'Renewable Energy',
  'Retailers',
  'Software & IT Services',
  'Technology Equipment',
  'Telecommunications Services',
  'Textiles & Apparel',
  'Transportation',
  'Water Utilities',
] as const;
export type CarbonSector = (typeof CARBON_SECTORS)[number];

/** Columns of a company row, in the input table and CSV template order (spec 001 §3.5). */
export const CARBON_INPUT_COLUMNS = [
  'company_name',
  'investment_in_usd',
  'nav_in_perc',
  'market_cap_in_usd',
  'revenue_in_usd',
  'scope_1_and_2_GHG_emission',
  'region',
  'sector',
] as const;

/** A new row: name Company, numbers 0, region China, sector Coal (spec 001 §3.5). */
export const DEFAULT_CARBON_ROW = {
  company_name: 'Company',
  investment_in_usd: 0,
  nav_in_perc: 0,
  market_cap_in_usd: 0,
  revenue_in_usd: 0,
  scope_1_and_2_GHG_emission: 0,
  region: 'China',
  sector: 'Coal',
} as const;

/** A company row as stored and sent back; scope 1+2 is 0 (or null) when not reported, then projected. */
export const CarbonCompanyRow = z.object({
  company_name: z.string(),
  investment_in_usd: z.number(),
  nav_in_perc: z.number(),
  market_cap_in_usd: z.number(),
  revenue_in_usd: z.number(),
  scope_1_and_2_GHG_emission: z.number().nullable(),
  region: z.string(),
  sector: z.string(),
});
export type CarbonCompanyRow = z.infer<typeof CarbonCompanyRow>;

const boolField = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** Create / modify a carbon analysis (spec 001 §7 Carbon): companies_data as a JSON list, or uploaded_file (CSV). */
export const CarbonAnalysisBody = z.object({
  portfolio_name: text('portfolio_name', PROJECT_NAME_MAX_LENGTH),
  portfolio_value: z.coerce
    .number({ error: 'portfolio_value must be a number (USD)' })
    .refine((v) => Number.isFinite(v) && v > 0, 'portfolio_value must be greater than 0 (USD)'),
  companies_data: z.unknown().optional().describe('JSON list of company rows (or a JSON string of it in a form field)'),
  uploaded_file: z.unknown().optional().describe('CSV file (multipart/form-data) in the template column order'),
  overwrite: boolField.optional().describe('Replace an existing carbon project of the same name (create only)'),
});
export type CarbonAnalysisBody = z.infer<typeof CarbonAnalysisBody>;

export const CarbonNameBody = z.object({ portfolio_name: text('portfolio_name', PROJECT_NAME_MAX_LENGTH) });

export const CarbonDownloadBody = CarbonNameBody.extend({ format: z.enum(['json', 'csv', 'xlsx'], { error: 'format must be json, csv or xlsx' }).optional() });

export const CarbonCompanyResult = z.object({
  company_name: z.string(),
  region: z.string(),
  sector: z.string(),
  investment_in_usd: z.number(),
  nav_in_perc: z.number(),
  attribution_factor: z.number(),
  projected_scope_1_and_2_GHG_emission: z.number().nullable(),
  emission_source: z.enum(['reported', 'projected', 'unavailable']),
  emission_factor: z.number().nullable(),
  total_carbon_emission: z.number().nullable(),
  carbon_footprint: z.number().nullable(),
  carbon_intensity: z.number().nullable(),
  weighted_average_carbon_intensity: z.number().nullable(),
  data_quality_score: z.number().nullable(),
  note: z.string().nullable(),
});
export type CarbonCompanyResult = z.infer<typeof CarbonCompanyResult>;

export const CarbonPortfolioTotals = z.object({
  portfolio_value: z.number(),
  total_carbon_emission_portfolio: z.number(),
  projected_scope_1_and_2_portfolio: z.number(),
  carbon_footprint: z.number(),
  carbon_intensity: z.number().nullable(),
  weighted_average_carbon_intensity_portfolio: z.number(),
  coverage: z.number(),
  reported_companies: z.number().int(),
  projected_companies: z.number().int(),
  unavailable_companies: z.number().int(),
  data_quality_score: z.number().nullable(),
});
export type CarbonPortfolioTotals = z.infer<typeof CarbonPortfolioTotals>;

const GroupTotal = z.object({ key: z.string(), investment_in_usd: z.number(), total_carbon_emission: z.number(), companies: z.number().int() });

export const CarbonProject = z.object({
  project_id: z.number().int(),
  project_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  owner: z.object({ id: z.number().int(), username: z.string() }),
  permission: z.enum(['owner', 'write', 'read']),
  companies: z.number().int(),
});
export type CarbonProject = z.infer<typeof CarbonProject>;

/** Project fetch: outputs (table_data, portfolio totals, sector and region totals). */
export const CarbonAnalysisResponse = z.object({
  project: CarbonProject,
  portfolio_name: z.string(),
  portfolio_value: z.number(),
  table_data: z.array(CarbonCompanyResult),
  portfolio: CarbonPortfolioTotals,
  by_sector: z.array(GroupTotal),
  by_region: z.array(GroupTotal),
  units: z.record(z.string(), z.string()),
});
export type CarbonAnalysisResponse = z.infer<typeof CarbonAnalysisResponse>;

/** Project data fetch: the input rows. */
export const CarbonDataResponse = z.object({
  project: CarbonProject,
  portfolio_name: z.string(),
  portfolio_value: z.number(),
  companies_data: z.array(CarbonCompanyRow),
});
export type CarbonDataResponse = z.infer<typeof CarbonDataResponse>;

export const CarbonProjectListResponse = z.object({ username: z.string(), count: z.number().int(), data: z.array(CarbonProject) });
export type CarbonProjectListResponse = z.infer<typeof CarbonProjectListResponse>;

/** Units of the output columns, shown as column hints and written into downloads. */
export const CARBON_UNITS = {
  projected_scope_1_and_2_GHG_emission: 'tCO2e/yr',
  total_carbon_emission: 'tCO2e/yr (financed)',
  carbon_footprint: 'tCO2e per USD million invested',
  carbon_intensity: 'tCO2e per USD million revenue',
  weighted_average_carbon_intensity: 'tCO2e per USD million revenue (weight x intensity)',
} as const;
