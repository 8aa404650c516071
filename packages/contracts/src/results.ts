/**
 * The typed results API (issue 23 item 1), modelled on OS-Climate physrisk's asset-impact call: post assets (or name a
 * project) and get, per asset x hazard x scenario x year, the hazard intensity, expected damage and disruption, the
 * 1-in-100 and 1-in-250-year losses and the score. JSON (this schema), CSV (the same columns) or GeoJSON (one Point
 * feature per row, these fields as properties). docs/results-api.md documents it with examples.
 */
import { z } from 'zod';
import {
  CONSTRUCTION_CLASSES,
  constructionClassError,
  constructionClassOf,
  isNullIsland,
  NULL_ISLAND_MESSAGE,
  parsePropertyType,
  PROPERTY_TYPE_MAX,
} from './assets.js';
import { dbId, strictObject } from './common.js';
import { DATA_TIERS } from './hazard-values.js';
import { ANALYSIS_TYPES, HAZARDS, SCENARIOS, type HazardKey } from './hazards.js';

const HAZARD_KEY_LIST = HAZARDS.map((h) => h.key) as unknown as [HazardKey, ...HazardKey[]];

/** Most assets one request may post; a larger portfolio is uploaded as a project and read by project_id. */
export const RESULTS_MAX_ASSETS = 1000;
/**
 * Answer formats: JSON (one object, `results` streamed), JSON lines (application/x-ndjson: one row a line), CSV,
 * GeoJSON, Apache Parquet (one file; a whole project for pandas, DuckDB, Spark). Every format streams: no row cap.
 */
export const RESULT_FORMATS = ['json', 'ndjson', 'csv', 'geojson', 'parquet'] as const;
/** Most asset ids one `asset_ids` filter may list. */
export const RESULTS_MAX_ASSET_IDS = 10_000;
/** Most rows one page may ask for with `limit` (without `limit` the answer holds every row, streamed). */
export const RESULTS_MAX_LIMIT = 10_000_000;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

const money = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, `${field} must be 0 or more`)
    .max(1e15, `${field} is too large`);

/** Longest caller's id of a posted asset, characters. */
export const ASSET_ID_MAX = 200;

/** One posted asset: a location plus what the engine needs for money figures (all but name and location optional). */
export const ResultsAsset = strictObject({
  id: z
    .union([z.string().max(ASSET_ID_MAX, `id is longer than ${ASSET_ID_MAX} characters`), z.number().finite()], { error: 'id must be a string or a number' })
    .optional()
    .describe(
      `Your own id of the asset (text up to ${ASSET_ID_MAX} characters, or a number), answered as \`asset_id\` in every row of the asset; unique within a request.`,
    ),
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name is too long'),
  latitude: z.number({ error: 'latitude must be a number' }).min(-90, 'latitude must be -90 to 90').max(90, 'latitude must be -90 to 90'),
  longitude: z.number({ error: 'longitude must be a number' }).min(-180, 'longitude must be -180 to 180').max(180, 'longitude must be -180 to 180'),
  property_type: z
    .string({ error: 'property_type must be text' })
    .meta({ maxLength: PROPERTY_TYPE_MAX })
    .transform((v, ctx) => {
      // the upload's rule (parsePropertyType): NA is no type, any other text is kept, trimmed
      const t = parsePropertyType(v, 'property_type');
      if ('error' in t) ctx.addIssue({ code: 'custom', message: t.error });
      return 'error' in t ? undefined : (t.value ?? undefined);
    })
    .optional()
    .describe(
      "Property type, e.g. Office, Warehouse, Residential: the upload template's types, their labels and synonyms. As in an upload, other text is kept as written and analysed as Commercial; NA or empty = none.",
    ),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2,3}$/, 'country_code must be an ISO 3166 code')
    .optional(),
  valuation: money('valuation').optional().describe('Asset value, USD.'),
  construction_cost: money('construction_cost').optional().describe('Replacement cost of the building, USD.'),
  content_value: money('content_value').optional().describe('Contents, USD.'),
  yearly_inventory_value: money('yearly_inventory_value').optional().describe('Inventory, USD.'),
  revenue: money('revenue').optional().describe('Annual revenue, USD/yr (business interruption).'),
  ownership: z
    .number({ error: 'ownership must be a number' })
    .min(0, 'ownership must be 0 to 100')
    .max(100, 'ownership must be 0 to 100')
    .optional()
    .describe('Ownership share, percent.'),
  floors: z
    .number({ error: 'floors must be a number' })
    .int('floors must be a whole number')
    .min(1, 'floors must be 1 or more')
    .max(300, 'floors must be 300 or fewer')
    .optional(),
  flood_protection: z
    .number({ error: 'flood_protection must be a number' })
    .min(1, 'flood_protection must be 1 to 100000 years')
    .max(100000, 'flood_protection must be 1 to 100000 years')
    .optional()
    .describe('Standard of flood protection, years.'),
  construction: z
    .preprocess(
      (v) => constructionClassOf(v) ?? v,
      z.enum(CONSTRUCTION_CLASSES, {
        error: (i) =>
          typeof i.input === 'string' ? constructionClassError('construction', i.input) : `construction must be one of ${CONSTRUCTION_CLASSES.join(', ')}`,
      }),
    )
    .optional()
    .describe(
      `Construction class (${CONSTRUCTION_CLASSES.join(', ')}): typhoon wind then uses the FEMA Hazus curve of the building type (class, floors, property type); without it the regional Emanuel curve.`,
    ),
})
  .superRefine((a, ctx) => {
    if (isNullIsland(a.latitude, a.longitude)) ctx.addIssue({ code: 'custom', path: ['latitude'], message: NULL_ISLAND_MESSAGE });
  })
  .meta({ id: 'ResultsAsset' });
export type ResultsAsset = z.infer<typeof ResultsAsset>;

/** `POST /api/v2/asset_results/`: either `project_id` (its stored analysis) or `assets` (analysed now), not both. */
export const ResultsRequest = strictObject({
  project_id: dbId('project_id').optional(),
  assets: z
    .array(ResultsAsset, { error: 'assets must be a list of assets' })
    .min(1, 'assets needs at least one asset')
    .max(RESULTS_MAX_ASSETS, `assets: at most ${RESULTS_MAX_ASSETS} assets per request; upload a larger portfolio as a project and ask by project_id`)
    .optional(),
  hazards: z
    .array(z.enum(HAZARD_KEY_LIST, { error: (i) => `hazards: '${String(i.input)}' is not a hazard key (${HAZARD_KEY_LIST.join(', ')})` }))
    .min(1, 'hazards needs at least one hazard')
    .optional()
    .describe("Hazard keys; default: the project's hazards, or all eleven for posted assets."),
  analysis_type: z.enum(ANALYSIS_TYPES, { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  scenarios: z
    .array(z.enum(SCENARIOS, { error: 'scenarios: scenarios are "26", "45" and "85"' }))
    .min(1, 'scenarios needs at least one scenario')
    .optional()
    .describe('Default all three.'),
  years: z
    .array(
      z
        .number({ error: 'years: years are numbers' })
        .int('years: years are whole numbers')
        .min(2020, 'years: years run from 2020')
        .max(2100, 'years: years run to 2100'),
    )
    .min(1, 'years needs at least one year')
    .optional()
    .describe('Default every year of the analysis type (RCP 2020, 2030, 2050; SSP 2025-2100 every 5 years); 2020 is the baseline.'),
  asset_ids: z
    .array(z.union([z.number(), z.string()], { error: 'asset_ids: ids are numbers or text' }), { error: 'asset_ids must be a list of asset ids' })
    .min(1, 'asset_ids needs at least one id')
    .max(RESULTS_MAX_ASSET_IDS, `asset_ids: at most ${RESULTS_MAX_ASSET_IDS} ids per request`)
    .optional()
    .describe(
      "Only these assets: a project's asset ids (the rows' asset_id), or the ids of posted assets as sent; default every asset. An id the project or the posted assets do not have is a 400 naming asset_ids.",
    ),
  with_mitigation: z
    .boolean({ error: 'with_mitigation must be true or false' })
    .default(true)
    .describe("Scores after the assets' mitigation level (residual), as the dashboard shows them by default."),
  gdp_adjusted: z
    .boolean({ error: 'gdp_adjusted must be true or false' })
    .default(false)
    .describe('Scale business interruption by GDP growth under the scenario.'),
})
  .superRefine((b, ctx) => {
    const seen = new Map<string, number>();
    b.assets?.forEach((a, i) => {
      if (a.id === undefined) return;
      const k = `${typeof a.id}:${a.id}`;
      const first = seen.get(k);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['assets', i, 'id'], message: `id ${JSON.stringify(a.id).slice(0, 60)} is already the id of assets.${first}` });
      else seen.set(k, i);
    });
    if ((b.project_id === undefined) === (b.assets === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [b.project_id === undefined ? 'assets' : 'project_id'],
        message: 'Send either project_id or assets (one of them, not both).',
      });
    }
  })
  .meta({
    id: 'ResultsRequest',
    description: 'Either `project_id` (a stored analysis) or `assets` (analysed now), not both; unknown keys are a 400 naming them.',
    oneOf: [
      { title: 'By project', required: ['project_id'], not: { required: ['assets'] } },
      { title: 'Posted assets', required: ['assets'], not: { required: ['project_id'] } },
    ],
  });
export type ResultsRequest = z.input<typeof ResultsRequest>;

/** With a CSV or GeoJSON body only (a JSON body carries them as keys): the request's options, lists comma-separated. */
const withTableBody = (what: string) => z.string().optional().describe(`${what} With a CSV or GeoJSON body only; a JSON body sends it as a key.`);
export const ResultsQuery = z.object({
  format: z.enum(RESULT_FORMATS, { error: `format must be one of ${RESULT_FORMATS.join(', ')}` }).default('json'),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(RESULTS_MAX_LIMIT, `limit must be at most ${RESULTS_MAX_LIMIT}`)
    .optional()
    .describe(
      'Rows per page. Without it the answer holds every row of the request (streamed); with it, at most this many, and `next_cursor` (JSON body; the X-Next-Cursor and Link headers in every format) continues.',
    ),
  cursor: z
    .string()
    .max(500, 'cursor is not a cursor of this API')
    .optional()
    .describe(
      "The previous page's next_cursor, with the same body: the next page. A cursor of another request, or of an analysis since replaced, is a 400 naming cursor.",
    ),
  hazards: withTableBody('Hazard keys, comma-separated (typhoon,river_flood).'),
  analysis_type: withTableBody('ssp (default) or rcp.'),
  scenarios: withTableBody('Scenario codes, comma-separated (45,85).'),
  years: withTableBody('Years, comma-separated (2030,2050).'),
  asset_ids: withTableBody('Asset ids, comma-separated (the posted ids).'),
  with_mitigation: withTableBody('true (default) or false.'),
  gdp_adjusted: withTableBody('false (default) or true.'),
});

const usd = (what: string) =>
  z
    .number()
    .nullable()
    .describe(`${what}, USD, ownership-adjusted; null when the hazard has no data at the asset, or the caller's tier has no portfolio losses.`);

/** Every band a row can carry: the severity bands of a score (contracts scores.ts severityBand), and No data. */
export const RESULT_BANDS = ['No Risk', 'Low', 'Medium', 'Medium-High', 'High', 'Very High', 'No data'] as const;
/**
 * Every data tier a row can carry: the hazard models' tiers and 'own data' (DATA_TIERS), and 'published dataset' (a
 * registered published hazard dataset, added on the flood branch), once each.
 */
export const RESULT_DATA_TIERS = [...new Set<string>([...DATA_TIERS, 'published dataset'])] as [string, ...string[]];

/** One asset x hazard x scenario x year. Money in USD (rounded to cents), null = no data. Field names are stable. */
export const AssetResult = z
  .object({
    asset_index: z.number().int().describe('Position of the asset in the request or project, from 0.'),
    asset_id: z
      .union([z.number(), z.string()])
      .nullable()
      .describe(
        "The asset's id: in a project its id there (a whole number); for posted assets the `id` you sent, as sent (text or number), null when you sent none.",
      ),
    asset_name: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    property_type: z.string().nullable(),
    construction: z.enum(CONSTRUCTION_CLASSES).nullable().describe('Construction class of the asset; null = unknown.'),
    wind_building_type: z
      .string()
      .nullable()
      .describe(
        'FEMA Hazus hurricane building type whose curve gives the typhoon damage (e.g. CECBL, WSF2; engine.md §1.3a); null = the regional Emanuel curve (or a wind turbine).',
      ),
    hazard: z.enum(HAZARD_KEY_LIST),
    hazard_label: z.string(),
    analysis_type: z.enum(ANALYSIS_TYPES),
    scenario: z.enum(SCENARIOS),
    scenario_label: z.string().describe('e.g. SSP2-4.5; the baseline year 2020 is the same under every scenario.'),
    year: z.number().int(),
    intensity: z.number().nullable().describe('Headline hazard intensity (e.g. 100-year flood depth, 100-year gust), in intensity_unit; null = no data.'),
    intensity_unit: z.string(),
    loss_score: z
      .number()
      .nullable()
      .describe(
        "Severity of the asset's expected loss from the hazard (a share of its value or revenue; methodology engine §3.5), 0-100, not a percentage; null = no data. Not the point API's intensity_score.",
      ),
    score: z.number().nullable().describe('Alias of loss_score (its name before issue 38), kept for existing scripts.'),
    band: z
      .enum(RESULT_BANDS)
      .describe(
        'Band of the score: No Risk (0), Low (<25), Medium (<50), Medium-High (<75), High (<100), Very High (100); No data when the hazard has no data.',
      ),
    expected_annual_loss_usd: usd('Expected annual loss: damage to building, contents and inventory plus business interruption'),
    residual_expected_annual_loss_usd: usd("Expected annual loss after the asset's mitigation level"),
    expected_damage_usd: usd('Of the expected annual loss, the physical damage (building, contents, inventory)'),
    expected_disruption_usd: usd('Of the expected annual loss, the business interruption (revenue lost to disruption)'),
    max_exposure_usd: usd('Loss of the rarest modelled event'),
    loss_1_in_100_usd: usd("Loss of the 1-in-100-year event after the site's flood protection"),
    loss_1_in_250_usd: usd('Loss of the 1-in-250-year event'),
    cvar_usd: usd(
      '20-year expected loss: expected annual loss summed over the 20-year window around the year, undiscounted; a sum of expected losses, not a tail measure (the field name is kept for compatibility)',
    ),
    residual_cvar_usd: usd('Residual 20-year expected loss: the 20-year expected loss after mitigation (field name kept for compatibility)'),
    cvar_percent: z
      .number()
      .nullable()
      .describe(
        '20-year expected loss as a percentage of the value the user gave (valuation, else construction cost; with content and inventory, times ownership; field name kept for compatibility).',
      ),
    avoided_loss_usd: usd('20-year expected loss minus the residual 20-year expected loss'),
    data_tier: z
      .enum(RESULT_DATA_TIERS)
      .describe(
        'How far to trust the hazard: "observed/modelled from real data", "model on real inputs", "published parameters only", "published dataset" (a published flood map registered on this installation: WRI Aqueduct Floods, JRC), "placeholder" (screening models) or "own data" (a value from your company\'s own hazard layer).',
      ),
    own_data_layer: z.string().nullable().describe('The own hazard layer that gave the value, or null.'),
    published_dataset: z
      .string()
      .nullable()
      .describe('The published flood map set that gave the value (dataset name, hazard, scenario and year read), or null.'),
  })
  .meta({ id: 'AssetResult' });
export type AssetResult = z.infer<typeof AssetResult>;

export const ResultsResponse = z
  .object({
    methodology_version: z.string(),
    project_id: z.number().int().nullable(),
    analysis_type: z.enum(ANALYSIS_TYPES),
    assets: z.number().int().describe('Assets selected (every page of the request).'),
    rows: z.number().int().describe('Rows in this answer (this page).'),
    total_rows: z.number().int().describe('Rows of the whole request, over every page.'),
    next_cursor: z
      .string()
      .nullable()
      .describe('Send it as ?cursor= with the same body for the next page; null on the last page (or without limit). Written after results.'),
    money_withheld: z
      .string()
      .nullable()
      .describe("null, or why every money field is null: the caller's tier (the Free plan) has no portfolio losses (issue 37 item 1)."),
    results: z.array(AssetResult),
  })
  .meta({ id: 'ResultsResponse' });
export type ResultsResponse = z.infer<typeof ResultsResponse>;

/** `?format=geojson`: one Point feature per row (RFC 7946, [longitude, latitude]), the row as its properties. */
export const AssetResultsFeatureCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    methodology_version: z.string(),
    features: z.array(
      z.object({
        type: z.literal('Feature'),
        geometry: z.object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]).describe('[longitude, latitude], WGS 84') }),
        properties: AssetResult,
      }),
    ),
  })
  .meta({ id: 'AssetResultsFeatureCollection' });

/** `?format=csv`: a header row of the AssetResult fields in order, then one line per row (RFC 4180, CRLF). */
export const AssetResultsCsv = z
  .string()
  .describe('text/csv; charset=utf-8: a header row (the AssetResult field names, in order), then one line per row; RFC 4180 quoting, CRLF line ends.')
  .meta({ id: 'AssetResultsCsv' });

/** `?format=ndjson`: one AssetResult object a line (JSON lines), LF line ends. */
export const AssetResultsNdjson = z
  .string()
  .describe(
    "application/x-ndjson: one AssetResult JSON object a line, LF line ends; the answer's other members are in the X-Total-Rows, X-Next-Cursor and X-Money-Withheld headers.",
  )
  .meta({ id: 'AssetResultsNdjson' });

/** `?format=parquet`: an Apache Parquet file, one column per AssetResult field. */
export const AssetResultsParquet = z
  .string()
  .describe(
    "application/vnd.apache.parquet: an Apache Parquet file (snappy pages, row groups of 4,000 rows), one column per AssetResult field in order; asset_id INT64 for a project, text for posted assets; the JSON answer's other members as key-value metadata.",
  )
  .meta({ id: 'AssetResultsParquet' });

/** The 422 of a project whose stored analysis is larger than this server reads at once (RESULTS_DECODE_MAX_MB). */
export const ResultsTooLargeBody = z
  .object({
    detail: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    code: z.literal('results_too_large'),
    error: z.string(),
  })
  .meta({ id: 'ResultsTooLargeBody' });

/** The columns of the CSV answer, in order (the AssetResult fields). */
export const ASSET_RESULT_COLUMNS = Object.keys(AssetResult.shape) as (keyof AssetResult)[];

const n = z.number().nullable();
/** One inline row of `download_csv_report` (`success`): the AssetResult fields under the spreadsheet's column names. */
export const CsvReportRow = z
  .object({
    Asset: z.string(),
    Latitude: z.number(),
    Longitude: z.number(),
    'Property type': z.string().describe('NA when not given'),
    Hazard: z.string(),
    Analysis: z.enum(['RCP', 'SSP']),
    Scenario: z.string(),
    Year: z.number().int(),
    Intensity: n,
    Unit: z.string(),
    Score: n,
    Band: z.string(),
    'Expected annual loss (USD)': n,
    'Residual expected annual loss (USD)': n,
    'Maximum exposure (USD)': n,
    'Loss 1-in-100 yr (USD)': n,
    'Loss 1-in-250 yr (USD)': n,
    'Data tier': z.string(),
    'Own data layer': z.string().describe('Empty unless an own hazard layer gave the value'),
    'Published dataset': z.string().describe('Empty unless a published flood map registered on this installation gave the value (then the map set read)'),
    '20-year expected loss (USD)': n,
    'Residual 20-year expected loss (USD)': n,
    '20-year expected loss (%)': n,
    'Avoided loss (USD)': n,
  })
  .meta({ id: 'CsvReportRow' });
export type CsvReportRow = z.infer<typeof CsvReportRow>;

/** A file behind a time-limited link (the spreadsheet exports, the summary workbook, the map download). */
export const FileLinkAnswer = z.object({ url: z.string(), expires_at: z.string() });
export type FileLinkAnswer = z.infer<typeof FileLinkAnswer>;

/** `POST api/v2/download_csv_report/`: the rows inline (for the pivot table) and the .xlsx behind a link. */
export const CsvReportAnswer = z.object({
  success: z.array(CsvReportRow),
  rows: z.number().int(),
  truncated: z.boolean(),
  ...FileLinkAnswer.shape,
  error: z.null(),
});
export type CsvReportAnswer = z.infer<typeof CsvReportAnswer>;

/** `POST api/v2/generate_pdf_report/`: the slide report's PDF and PPTX links and its job's state. */
export const SlideReportAnswer = z.object({
  url: z.string(),
  pptx_url: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  slides: z.number().int().nullable(),
  variant: z.string(),
  error: z.string().nullable(),
});
export type SlideReportAnswer = z.infer<typeof SlideReportAnswer>;
