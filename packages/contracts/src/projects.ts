import { z } from 'zod';
import { HAZARDS, DEFAULT_HAZARD_LABELS, analysisYears, type HazardLabel } from './hazards.js';
import { CONSTRUCTION_CLASSES, constructionClassError, constructionClassOf } from './assets.js';
import { dbId, DetailBody, ID_MAX, PROJECT_NAME_MAX_LENGTH, text } from './common.js';

/** Parses a JSON string when a form field carries JSON; passes other values through. */
const jsonField = <T extends z.ZodType>(schema: T, field: string) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim();
    if (s === '') return undefined;
    try {
      return JSON.parse(s);
    } catch {
      return { __invalidJson: field };
    }
  }, schema);

const HAZARD_LABELS = HAZARDS.map((h) => h.label) as [HazardLabel, ...HazardLabel[]];

/** Hazard labels of a portfolio; the three defaults are always added (spec 000 §5). */
export const PortfolioVariables = jsonField(
  z
    .array(z.enum(HAZARD_LABELS, { error: (i) => `portfolio_variables: '${String(i.input)}' is not a hazard; choose from ${HAZARD_LABELS.join(', ')}` }), {
      error: 'portfolio_variables must be a JSON list of hazard names',
    })
    .max(11),
  'portfolio_variables',
).transform((list) => {
  const set = new Set<string>([...DEFAULT_HAZARD_LABELS, ...(list ?? [])]);
  return HAZARD_LABELS.filter((h) => set.has(h));
});

export const ENERGY_VARIABLES = ['solar_production', 'wind_production', 'hydro_production'] as const;
export const AGRICULTURE_VARIABLES = ['wheat_production', 'vegetable_production', 'maize_production', 'fruit_production', 'rice_production'] as const;

export const NonBuildingVariables = jsonField(
  z
    .object(
      {
        energy: z.array(z.enum(ENERGY_VARIABLES, { error: 'non_building_variables.energy: unknown energy variable' })).default([]),
        agriculture: z.array(z.enum(AGRICULTURE_VARIABLES, { error: 'non_building_variables.agriculture: unknown crop variable' })).default([]),
      },
      { error: 'non_building_variables must be a JSON object {energy: [...], agriculture: [...]}' },
    )
    .strict(),
  'non_building_variables',
);

export const CREATE_MODES = ['new', 'add', 'overwrite'] as const;

/** `You are only allowed to add {n} assets for Analysis` (spec 000 §5): the 400 of a portfolio over the tier's limit. */
export const assetLimitMessage = (n: number) => `You are only allowed to add ${n} assets for Analysis`;
/** True for an assetLimitMessage (the web app opens its limit dialog for it instead of a plain error). */
export const isAssetLimitMessage = (message: string): boolean => /^You are only allowed to add \d+ assets for Analysis$/.test(message);

/**
 * Above either limit the web wizard shows a read-only preview of the first LARGE_UPLOAD_PREVIEW_ROWS rows and sends
 * the file itself as multipart `upload_file` (with upload progress) instead of an editable table posted as a JSON
 * `data` list (docs/decisions.md "Large uploads are sent as the file").
 */
export const LARGE_UPLOAD_ROWS = 10_000;
export const LARGE_UPLOAD_BYTES = 5 * 1024 * 1024;
export const LARGE_UPLOAD_PREVIEW_ROWS = 100;

/** `POST api/v2/create_project/` fields (spec 000 §7); `data` (JSON list) or `upload_file` (multipart). */
export const CreateProjectBody = z.object({
  portfolio_name: text('portfolio_name', PROJECT_NAME_MAX_LENGTH),
  portfolio_variables: PortfolioVariables.optional(),
  non_building_variables: NonBuildingVariables.optional(),
  base_unit: z.enum(['meter'], { error: 'base_unit must be meter' }).optional(),
  base_currency: z.enum(['USD'], { error: 'base_currency must be USD, the only currency offered' }).optional(),
  unit: z.string().max(40, 'unit is too long').optional(),
  data: jsonField(z.array(z.unknown(), { error: 'data must be a JSON list of locations' }).max(1_000_000, 'data has too many locations'), 'data').optional(),
  upload_file: z
    .unknown()
    .optional()
    .describe('CSV, XLSX or XLS file, or a GeoJSON, GeoPackage (.gpkg) or zipped Shapefile (.zip) of points (multipart/form-data)'),
  mode: z.enum(CREATE_MODES, { error: 'mode must be new, add or overwrite' }).optional(),
  /** The analysis type the portfolio opens with (its default filter); ssp when absent. */
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
  is_benchmark: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  ticker: z.string().max(40, 'ticker is too long').optional(),
  index_name: z.string().max(80, 'index_name is too long').optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

export const PROJECT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const ProjectStatus = z.object({
  project_id: z.number().int(),
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  /** 0-1. */
  progress: z.number(),
  message: z.string().nullable(),
  assets: z.number().int(),
});
export type ProjectStatus = z.infer<typeof ProjectStatus>;

export const CreateProjectResponse = z.object({
  detail: z.string(),
  project: ProjectStatus,
  job_id: z.number().int(),
  /** Things imported with a doubt, e.g. columns not recognised and left out (the upload is not refused for them). */
  warnings: z.array(z.string()).optional(),
});
export type CreateProjectResponse = z.infer<typeof CreateProjectResponse>;

/** `POST api/v2/preview_upload/` (multipart `upload_file`): a GIS upload read as the table create_project will check. */
export const PreviewUploadBody = z.object({
  upload_file: z.unknown().describe('A GeoJSON, GeoPackage (.gpkg) or zipped Shapefile (.zip) of points, or a CSV/XLSX/XLS (multipart/form-data)'),
});
export const PreviewUploadResponse = z.object({
  /** The table's header row: latitude and longitude (from the geometry of a GIS file), then the attribute names. */
  header: z.array(z.string()),
  /** The first LARGE_UPLOAD_PREVIEW_ROWS data rows, cells as read (coordinates in WGS 84 degrees). */
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  /** How many data rows (features) the file holds. */
  records: z.number().int(),
  /** Header cells that name no asset field (their values are not imported). */
  unknown_columns: z.array(z.string()),
});
export type PreviewUploadResponse = z.infer<typeof PreviewUploadResponse>;

/** One entry of `GET api/project/all_projects/`: a project's id, name and creation time. */
export const ProjectNameItem = z.object({ project_id: z.number().int(), name: z.string(), created_at: z.string() });
export type ProjectNameItem = z.infer<typeof ProjectNameItem>;

export const SHARE_PERMISSIONS = ['read', 'write'] as const;
export type SharePermission = (typeof SHARE_PERMISSIONS)[number];
export type ProjectRole = 'owner' | SharePermission;

export const DefaultFilters = z.object({
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'data.analysis_type must be rcp or ssp' }),
  scenario: z.coerce.string().pipe(z.enum(['26', '45', '85'], { error: 'data.scenario must be 26, 45 or 85' })),
  year: z.coerce
    .number({ error: 'data.year must be a number' })
    .int('data.year must be a whole year')
    .min(2020, 'data.year must be 2020 to 2100')
    .max(2100, 'data.year must be 2020 to 2100'),
});
export type DefaultFilters = z.infer<typeof DefaultFilters>;

export const Member = z.object({ id: z.number().int(), username: z.string(), first_name: z.string(), last_name: z.string() });

/** A card of the physical project list (spec 000 §3 "Physical project"). Amounts in USD. */
export const PhysicalProject = z.object({
  project_id: z.number().int(),
  name: z.string(),
  /** Creation date, YYYY-MM-DD. */
  date: z.string(),
  created_at: z.string(),
  status: z.enum(PROJECT_STATUSES),
  progress: z.number(),
  /** What the analysis is doing, or why it failed. */
  message: z.string().nullable(),
  /** Overall climate score (0-100) at the default filter, null until analysed. */
  overall: z.number().nullable(),
  /** Maximum exposure (USD). */
  value: z.number().nullable(),
  /** Residual 20-year expected loss (USD). */
  loss: z.number().nullable(),
  /**
   * Total asset value (USD): the dashboard's total_asset_value at the default filter (valuations, construction cost
   * where no valuation was given, with content and inventory, times ownership); null until analysed.
   */
  total_value: z.number().nullable(),
  assets: z.number().int(),
  variables: z.array(z.string()),
  property_type: z.array(z.string()),
  /** The project's filters: the card's figures (overall, value, loss) and the reports are computed at them. */
  default_filters: DefaultFilters,
  /** What the dashboard opens with for the caller: their own saved defaults (update_default_filter without project_id), else default_filters. */
  dashboard_filters: DefaultFilters,
  /** A company-location portfolio (from the company search or an index): Analyse opens /company-dashboard. */
  company_portfolio: z.boolean(),
  owner: z.object({ id: z.number().int(), username: z.string() }),
  permission: z.enum(['owner', 'read', 'write']),
  shared_with: z.array(z.object({ user_id: z.number().int(), username: z.string(), permission: z.enum(SHARE_PERMISSIONS) })),
});
export type PhysicalProject = z.infer<typeof PhysicalProject>;

export const ProjectListResponse = z.object({
  username: z.string(),
  count: z.number().int(),
  data: z.array(PhysicalProject),
  /** Users of the same company a project can be shared with. */
  members: z.array(Member),
});

export const RenameProjectBody = z.object({ oldname: text('oldname', PROJECT_NAME_MAX_LENGTH), name: text('name', PROJECT_NAME_MAX_LENGTH) });

export const DeleteProjectBody = z.object({ name: text('name', PROJECT_NAME_MAX_LENGTH) });

export const UpdateDefaultFilterBody = z.object({ data: jsonField(DefaultFilters, 'data'), project_id: dbId('project_id', { coerce: true }).optional() });

export const ShareProjectBody = z.object({
  project_id: dbId('project_id', { coerce: true }),
  share_with: jsonField(
    z
      .array(z.union([dbId('share_with'), z.string().trim().min(1).max(50)]), { error: 'share_with must be a JSON list of user ids or usernames' })
      .min(1, 'share_with needs at least one user')
      .max(200, 'share_with has too many users'),
    'share_with',
  ),
  permission: z.enum(SHARE_PERMISSIONS, { error: 'permission must be read or write' }),
});

/** Version of the methodology every report and export states (docs/methodology.md). */
export const METHODOLOGY_VERSION = '2026.11-2';

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** `POST api/v2/download_csv_report/` (spec 000 §7 Exports). */
export const CsvReportBody = z.object({
  project_name: text('project_name', PROJECT_NAME_MAX_LENGTH),
  climate_variables: jsonField(
    z
      .array(z.enum(HAZARD_LABELS, { error: (i) => `climate_variables: '${String(i.input)}' is not a hazard` }), {
        error: 'climate_variables must be a JSON list of hazard names',
      })
      .min(1, 'climate_variables needs at least one hazard'),
    'climate_variables',
  ).optional(),
  year_list: jsonField(
    z
      .array(
        z.coerce.number().int('year_list: years are whole numbers').min(2020, 'year_list: years run from 2020').max(2100, 'year_list: years run to 2100'),
        { error: 'year_list must be a JSON list of years' },
      )
      .min(1, 'year_list needs at least one year'),
    'year_list',
  ).optional(),
  scenario_list: jsonField(
    z
      .array(z.coerce.string().pipe(z.enum(['26', '45', '85'], { error: 'scenario_list: scenarios are 26, 45 and 85' })), {
        error: 'scenario_list must be a JSON list of scenarios',
      })
      .min(1, 'scenario_list needs at least one scenario'),
    'scenario_list',
  ).optional(),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  adjusted_gdp: flag.optional(),
  has_mitigation: flag.optional(),
  has_tip: flag.optional(),
  filters: z.unknown().optional(),
  loss_variables: z.unknown().optional(),
});
export type CsvReportBody = z.infer<typeof CsvReportBody>;

/** `POST api/v2/generate_pdf_report/` (spec 000 §7 Exports): the slide report, With Content or Without Content. */
export const SlideReportBody = z
  .object({
    project_id: dbId('project_id', { coerce: true }),
    analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
    /** The scenario and year the report shows (issue 37 item 7); left out, the user's saved dashboard defaults. */
    scenario: z.coerce
      .string()
      .pipe(z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }))
      .optional(),
    year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole year').optional(),
    /** The report variant: losses with building contents (With Content, default) or without. */
    with_content: flag.default(true),
  })
  .refine((b) => b.year === undefined || analysisYears(b.analysis_type ?? 'ssp').includes(b.year), {
    message: `year must be one of ${analysisYears('ssp').join(', ')} (SSP) or ${analysisYears('rcp').join(', ')} (RCP, with analysis_type rcp)`,
    path: ['year'],
  });
export type SlideReportBody = z.infer<typeof SlideReportBody>;

export const SummaryReportBody = z.object({
  project_name: text('project_name', PROJECT_NAME_MAX_LENGTH),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  has_mitigation: flag.optional(),
});

/** The dashboard's project and filter fields (spec 001 §7 Dashboard query), shared by the answer and its page endpoints. */
export const DashboardFilterFields = z.object({
  project_name: z.string().trim().max(PROJECT_NAME_MAX_LENGTH, 'project_name is too long').optional(),
  project_id: dbId('project_id', { coerce: true }).optional(),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
  scenario: z.coerce
    .string()
    .pipe(z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }))
    .optional(),
  year: z.coerce
    .number({ error: 'year must be a number' })
    .int('year must be a whole year')
    .min(2020, 'year must be 2020 to 2100')
    .max(2100, 'year must be 2020 to 2100')
    .optional(),
  /** A hazard label, or Total for every hazard of the project. */
  variable: z.string().trim().max(40).default('Total'),
  currency: z.enum(['USD'], { error: 'currency must be USD' }).default('USD'),
  percentage_type: z.enum(['dollar', 'percentage'], { error: 'percentage_type must be dollar or percentage' }).default('dollar'),
  mitigation: flag.default(true),
  /** All, or the number of highest-risk assets to include. */
  count: z.union([z.literal('All'), z.coerce.number().int().positive()], { error: 'count must be All or a positive whole number' }).default('All'),
  parameter: z.enum(['loss'], { error: 'parameter must be loss' }).default('loss'),
  with_content: flag.default(true),
  adjusted_gdp: flag.default(false),
  /** Property type to filter on, or All. */
  property_type: z.string().trim().max(80).default('All'),
});
/** Either project_id or project_name names the project. */
export const namesProject = (b: { project_id?: number | undefined; project_name?: string | undefined }) =>
  b.project_id !== undefined || (b.project_name ?? '') !== '';

/** `POST api/v2/dashboard/` form fields (spec 001 §7 Dashboard query). */
export type DashboardFilterFields = z.infer<typeof DashboardFilterFields>;

export const DashboardBody = DashboardFilterFields.extend({
  /**
   * `columns` (default): every selected asset in the per-asset sections (reports, exports, API clients). `pages`: the
   * per-asset sections are left out; the asset table, heat map and maps are read page by page from
   * `api/v2/dashboard/assets/`, `heatmap/` and `map/` (what the web client asks for: a million-asset book stays small).
   */
  per_asset: z.enum(['columns', 'pages'], { error: 'per_asset must be columns or pages' }).default('columns'),
}).refine(namesProject, { message: 'project_name or project_id is required', path: ['project_name'] });
export type DashboardBody = z.infer<typeof DashboardBody>;

/** Columns of the asset table a user may edit (spec 001 §5), and the data-edit permission that gates each one. */
export const EDITABLE_ASSET_COLUMNS = {
  name: null,
  type: 'can_edit_property_type',
  revenue: 'can_edit_revenue',
  construction_cost: 'can_edit_construction_cost',
  area: null,
  ownership: 'can_edit_ownership',
  floors: 'can_edit_stories',
  valuation: 'can_edit_valuation',
  building_age: null,
  mitigation_risk: null,
  content_value: null,
  plinth_height: null,
  basement: null,
  yearly_inventory_value: null,
  flood_protection: null,
  construction: null,
} as const;
export type EditableAssetColumn = keyof typeof EDITABLE_ASSET_COLUMNS;

/** null, '' and NA mean "not known" (kept distinct from 0); anything else must pass `schema`. */
const orNA = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null || v === '' || v === 'NA' ? null : v), schema.nullable());
const nonNegative = (label: string) =>
  orNA(
    z.coerce
      .number({ error: `${label} must be a number` })
      .refine(Number.isFinite, `${label} must be a finite number`)
      .min(0, `${label} must not be negative`)
      .max(1e15, `${label} is too large`),
  );

export const AssetEdit = z
  .object({
    id: dbId('id', { coerce: true }),
    name: z.string().trim().min(1, 'name is required').max(200, 'name is too long').optional(),
    type: orNA(z.string().trim().max(80, 'type is too long')).optional(),
    revenue: nonNegative('revenue').optional(),
    construction_cost: nonNegative('construction_cost').optional(),
    area: nonNegative('area').optional(),
    ownership: orNA(
      z.coerce.number({ error: 'ownership must be a number' }).min(0, 'ownership must be 0 to 100').max(100, 'ownership must be 0 to 100'),
    ).optional(),
    floors: orNA(
      z.coerce
        .number({ error: 'floors must be a number' })
        .int('floors must be a whole number')
        .min(0, 'floors must be 0 to 300')
        .max(300, 'floors must be 0 to 300'),
    ).optional(),
    valuation: nonNegative('valuation').optional(),
    building_age: orNA(
      z.coerce
        .number({ error: 'building_age must be a number' })
        .int('building_age must be whole years')
        .min(0, 'building_age must be 0 to 1000')
        .max(1000, 'building_age must be 0 to 1000'),
    ).optional(),
    mitigation_risk: z.coerce
      .number({ error: 'mitigation_risk must be 0, 1, 2 or 3' })
      .int('mitigation_risk must be 0, 1, 2 or 3')
      .min(0, 'mitigation_risk must be 0, 1, 2 or 3')
      .max(3, 'mitigation_risk must be 0, 1, 2 or 3')
      .optional(),
    content_value: nonNegative('content_value').optional(),
    plinth_height: orNA(
      z.coerce.number({ error: 'plinth_height must be a number' }).min(0, 'plinth_height must be 0 to 20 m').max(20, 'plinth_height must be 0 to 20 m'),
    ).optional(),
    basement: orNA(
      z.union([z.boolean(), z.enum(['yes', 'no', 'Yes', 'No', 'true', 'false']).transform((v) => v.toLowerCase() === 'yes' || v === 'true')], {
        error: 'basement must be yes or no',
      }),
    ).optional(),
    yearly_inventory_value: nonNegative('yearly_inventory_value').optional(),
    flood_protection: orNA(
      z.coerce
        .number({ error: 'flood_protection must be a number of years' })
        .min(1, 'flood_protection must be 1 to 100000 years')
        .max(100000, 'flood_protection must be 1 to 100000 years'),
    ).optional(),
    construction: orNA(
      z.preprocess(
        (v) => constructionClassOf(v) ?? v,
        z.enum(CONSTRUCTION_CLASSES, {
          error: (i) =>
            typeof i.input === 'string' ? constructionClassError('construction', i.input) : `construction must be one of ${CONSTRUCTION_CLASSES.join(', ')}`,
        }),
      ),
    ).optional(),
    latitude: z.unknown().optional(),
    longitude: z.unknown().optional(),
  })
  .passthrough();
export type AssetEdit = z.infer<typeof AssetEdit>;

/** `POST api/v2/update_assets/` (spec 001 §7 "Update assets"): all rows of the table; `version` detects concurrent saves. */
export const UpdateAssetsBody = z
  .object({
    project_name: z.string().trim().max(PROJECT_NAME_MAX_LENGTH).optional(),
    project_id: dbId('project_id', { coerce: true }).optional(),
    assets: jsonField(
      z
        .array(AssetEdit, { error: 'assets must be a JSON list of asset rows' })
        .min(1, 'assets needs at least one row')
        .max(100_000, 'assets has too many rows'),
      'assets',
    ),
    version: z.coerce.number({ error: 'version must be a number' }).int().positive().max(ID_MAX, 'version is too large').optional(),
  })
  .refine((b) => b.project_id !== undefined || (b.project_name ?? '') !== '', { message: 'project_name or project_id is required', path: ['project_name'] });

export const UpdateAssetsResponse = DetailBody.extend({ changed: z.number().int(), version: z.number().int(), job_id: z.number().int().nullable() });
export type UpdateAssetsResponse = z.infer<typeof UpdateAssetsResponse>;

/** `GET api/portfolio/{userId}/`: the caller's physical-risk portfolios (own and shared). */
export const PortfolioListItem = z.object({
  project_id: z.number().int(),
  portfolio_name: z.string(),
  portfolio_variables: z.array(z.string()),
  non_building_variables: z.record(z.string(), z.array(z.string())).describe('energy and agriculture production variables by group'),
  base_unit: z.string(),
  base_currency: z.string(),
  assets: z.number().int(),
  status: z.enum(PROJECT_STATUSES),
  created_at: z.string(),
});

const n = z.number().nullable();
/** One stored asset as `GET api/asset/{userId}/` returns it. */
export const StoredAsset = z.object({
  id: z.number().int(),
  position: z.number().int(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country_code: z.string().nullable(),
  place_name: z.string().nullable(),
  location_approximate: z.boolean(),
  property_type: z.string().nullable(),
  revenue: n,
  construction_cost: n,
  area: n,
  valuation: n,
  stories: n,
  solar_production: n,
  wind_production: n,
  hydro_production: n,
  wheat_production: n,
  rice_production: n,
  maize_production: n,
  fruit_production: n,
  vegetable_production: n,
  ownership: n,
  building_age: n,
  basement: z.boolean().nullable(),
  plinth_height: n,
  mitigation_risk: n,
  content_value: n,
  yearly_inventory_value: n,
  flood_protection: n.describe('standard of flood protection, years (null: the default of the place)'),
  construction: z.enum(CONSTRUCTION_CLASSES).nullable().describe('construction class for wind damage (null: unknown, the regional curve)'),
  ticker: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const PortfolioAssetsResponse = z.object({
  project_id: z.number().int(),
  portfolio_name: z.string(),
  /** Send it back with `update_assets` to detect concurrent saves. */
  version: z.number().int(),
  assets: z.array(StoredAsset),
});
