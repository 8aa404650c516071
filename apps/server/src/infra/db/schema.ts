import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { FaqTables } from './migrations/0006_faq.js';
import type { ConstructionClass } from '@crp/contracts';

/** timestamptz; optional on insert where the column has a default. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface DefaultFilters {
  analysis_type: string;
  scenario: string;
  year: number;
}

/** Written by the analysis for the card of the project list: figures at the project's default filter. */
export interface ProjectSummary {
  /** Scenario-year key the figures are for, e.g. ssp45_2050. */
  key: string;
  /** Overall climate score, 0-100. */
  overall: number | null;
  /** Maximum exposure, USD. */
  max_exposure: number;
  /** Total asset value, USD. */
  total_value: number;
  /** Climate value at risk and residual CVaR, USD. */
  cvar: number;
  rcvar: number;
  property_types: string[];
}

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  code: string;
  tier: string;
  assets_allowed: number;
  allowed_modules: Json<string[]>;
  tier_permissions: Json<Record<string, boolean>>;
  /** Lifetime of the company's download links, hours (1-24; default 24). */
  download_link_hours: Generated<number>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  username: string;
  username_lower: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  status: 'active' | 'pending' | 'rejected';
  is_company_admin: boolean;
  /** An operator of the installation (migration 0026): may register published hazard datasets. */
  is_operator: Generated<boolean>;
  twofa_method: 'app' | 'email' | null;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  data_edit_permissions: Json<Record<string, boolean>>;
  last_accessed_at: Timestamp | null;
  last_accessed_path: string | null;
  default_filters: Json<DefaultFilters> | null;
  created_at: Timestamp;
}

export interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface PersonalApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  hint: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A password reset link's token (migration 0027): SHA-256 only, 30 minutes, single use. */
export interface PasswordResetTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The street basemap an operator set in the app (migration 0037): one row at most (id 1). */
export interface BasemapSettingsTable {
  id: number;
  style_url: string | null;
  pmtiles: string | null;
  labels: Generated<boolean>;
  updated_at: Timestamp;
  updated_by: string;
}

/** A company's request for a higher tier (migration 0029): at most one pending per company. */
export interface UpgradeRequestsTable {
  id: Generated<number>;
  company_id: number;
  requested_by: number | null;
  tier_from: string;
  tier: string;
  message: Generated<string>;
  status: Generated<'pending' | 'granted' | 'declined'>;
  created_at: Timestamp;
  decided_at: Timestamp | null;
  decided_by: string | null;
}

/** A 2FA recovery code (migration 0027): SHA-256 of salt and code, single use. */
export interface MfaRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  salt: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface EmailCodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'mfa_setup' | 'login';
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  username_lower: string;
  client: string;
  succeeded: boolean;
  created_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  message: string;
  notification_type: string;
  link: string | null;
  /** What the notification is about (`member:<user id>`), to mark it read when that is settled (migration 0027). */
  ref: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface ReleasesAnnouncedTable {
  version: string;
  announced_at: Timestamp;
}

export interface PageVisitsTable {
  id: Generated<number>;
  user_id: number;
  path: string;
  accessed_at: Timestamp;
}

export interface OutboxEmailsTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  transport: string;
  status: 'stored' | 'sent' | 'failed';
  error: string | null;
  created_at: Timestamp;
}

export interface DemoRequestsTable {
  id: Generated<number>;
  name: string;
  email: string;
  company: string;
  role: string | null;
  message: string | null;
  client: string;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  company_id: number | null;
  user_id: number | null;
  action: string;
  detail: Json<Record<string, unknown>>;
  client: string | null;
  created_at: Timestamp;
}

export interface Database extends FaqTables {
  companies: CompaniesTable;
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  personal_api_tokens: PersonalApiTokensTable;
  email_codes: EmailCodesTable;
  password_reset_tokens: PasswordResetTokensTable;
  upgrade_requests: UpgradeRequestsTable;
  basemap_settings: BasemapSettingsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  login_attempts: LoginAttemptsTable;
  notifications: NotificationsTable;
  releases_announced: ReleasesAnnouncedTable;
  page_visits: PageVisitsTable;
  outbox_emails: OutboxEmailsTable;
  demo_requests: DemoRequestsTable;
  audit_log: AuditLogTable;
  projects: ProjectsTable;
  assets: AssetsTable;
  project_shares: ProjectSharesTable;
  jobs: JobsTable;
  /** A view (migration 0020): the chunks of each project's current run (projects.results_version). Read only. */
  analysis_results: AnalysisResultsTable;
  analysis_chunks: AnalysisChunksTable;
  dashboard_stores: DashboardStoresTable;
  dashboard_slices: DashboardSlicesTable;
  analysis_runs: AnalysisRunsTable;
  analysis_parts: AnalysisPartsTable;
  analysis_staging: AnalysisStagingTable;
  files: FilesTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  reports: ReportsTable;
  carbon_portfolios: CarbonPortfoliosTable;
  carbon_companies: CarbonCompaniesTable;
  property_risk_sites: PropertyRiskSitesTable;
  map_projects: MapProjectsTable;
  listed_companies: ListedCompaniesTable;
  own_hazard_layers: OwnHazardLayersTable;
  published_datasets: PublishedDatasetsTable;
  listed_companies_source: { id: Generated<number>; source_version: string; loaded_at: Generated<Timestamp> };
  tcfd_narratives: TcfdNarrativesTable;
}

/** A physical project's TCFD report text (migration 0019). */
export interface TcfdNarrativesTable {
  project_id: number;
  governance_board: Generated<string>;
  governance_management: Generated<string>;
  risk_integration: Generated<string>;
  targets: Generated<string>;
  carbon_analysis: string | null;
  updated_by: number | null;
  updated_at: Timestamp;
}

export type CompanyRow = Selectable<CompaniesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type NotificationRow = Selectable<NotificationsTable>;

export interface ProjectsTable {
  id: Generated<number>;
  company_id: number;
  owner_id: number;
  kind: 'physical' | 'transition' | 'map' | 'realestate';
  name: string;
  name_lower: string;
  portfolio_variables: Json<string[]>;
  non_building_variables: Json<Record<string, string[]>>;
  base_unit: string;
  base_currency: string;
  source: string;
  is_benchmark: boolean;
  ticker: string | null;
  index_name: string | null;
  default_filters: Json<{ analysis_type: string; scenario: string; year: number }>;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  status_message: string | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  analysed_at: Timestamp | null;
  summary: Json<ProjectSummary> | null;
  /** The version whose analysis_chunks are the current results (migration 0020); null until an analysis is stored. */
  results_version: number | null;
}

/** Asset attributes; null is the NA sentinel, distinct from 0. */
export interface AssetsTable {
  id: Generated<number>;
  project_id: number;
  position: number;
  name: string;
  latitude: number;
  longitude: number;
  country_code: string | null;
  place_name: string | null;
  location_approximate: Generated<boolean>;
  property_type: string | null;
  revenue: number | null;
  construction_cost: number | null;
  area: number | null;
  valuation: number | null;
  stories: number | null;
  solar_production: number | null;
  wind_production: number | null;
  hydro_production: number | null;
  wheat_production: number | null;
  rice_production: number | null;
  maize_production: number | null;
  fruit_production: number | null;
  vegetable_production: number | null;
  ownership: number | null;
  building_age: number | null;
  basement: boolean | null;
  plinth_height: number | null;
  /** Standard of flood protection, years (null: the place's default). */
  flood_protection: number | null;
  /** Construction class (CONSTRUCTION_CLASSES, a CHECK constraint of migration 0025; null: unknown). */
  construction: ConstructionClass | null;
  mitigation_risk: number | null;
  content_value: number | null;
  yearly_inventory_value: number | null;
  ticker: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectSharesTable {
  project_id: number;
  user_id: number;
  permission: 'read' | 'write';
  shared_by: number | null;
  created_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  type: string;
  payload: Json<Record<string, unknown>>;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  progress: number;
  message: string | null;
  error: string | null;
  locked_by: string | null;
  heartbeat_at: Timestamp | null;
  run_after: Timestamp;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export type ProjectRow = Selectable<ProjectsTable>;
export type AssetRow = Selectable<AssetsTable>;
export type NewAsset = Insertable<AssetsTable>;
export type JobRow = Selectable<JobsTable>;

/** The dashboard store of a large analysis (migration 0021, modules/dashboard/large-store.ts): state and aggregates. */
export interface DashboardStoresTable {
  project_id: number;
  version: number;
  state: 'building' | 'done' | 'failed';
  progress: Generated<number>;
  owner: string | null;
  message: string | null;
  assets: Generated<number>;
  aggregates: Uint8Array | null;
  updated_at: Timestamp;
}

/** One scenario-year job's per-asset figures of a batch of assets (migration 0021). */
export interface DashboardSlicesTable {
  project_id: number;
  version: number;
  job: number;
  batch_start: number;
  batch_count: number;
  data: Uint8Array;
}

/** Every result chunk of every run of a project (migration 0020); the current run is projects.results_version. */
export interface AnalysisChunksTable {
  project_id: number;
  /** The project version this run analysed (0: stored before migration 0020). */
  version: number;
  chunk_start: number;
  chunk_count: number;
  data: Uint8Array;
  /** The chunk's share of the project summary (null: stored before migration 0020). */
  summary: Json<Record<string, number>> | null;
  created_at: Generated<Timestamp>;
  worker_id: string | null;
  part: number | null;
  attempt: number | null;
}

export interface AnalysisResultsTable {
  project_id: number;
  chunk_start: number;
  chunk_count: number;
  data: Uint8Array;
  created_at: Timestamp;
  /** The job worker that computed this chunk (null: stored before migration 0012). */
  worker_id: string | null;
  /** The part of a fanned-out analysis that computed it (null: the single-job path or a chunk kept after an edit). */
  part: number | null;
}

/** One fanned-out analysis of a project version (migration 0012). */
export interface AnalysisRunsTable {
  project_id: number;
  version: number;
  total_assets: number;
  chunks: number;
  parts: number;
  reused_assets: Generated<number>;
  planned_by: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

/** A part of a run: a range of chunks one worker analyses; status queued | running | done | superseded. */
export interface AnalysisPartsTable {
  project_id: number;
  version: number;
  part: number;
  chunk_from: number;
  chunk_to: number;
  chunks: number;
  assets: number;
  status: Generated<string>;
  job_id: number | null;
  worker_id: string | null;
  attempt: Generated<number>;
  assets_done: Generated<number>;
  compute_ms: number | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** Chunks of a run not yet swapped into analysis_results, with each chunk's share of the project summary. */
export interface AnalysisStagingTable {
  project_id: number;
  version: number;
  chunk_start: number;
  chunk_count: number;
  data: Uint8Array;
  summary: Json<Record<string, number>>;
  part: number | null;
  worker_id: string | null;
  attempt: number | null;
}

/** A slide report: made by a job, served behind its own link (the PDF and the PPTX are files rows). */
export interface ReportsTable {
  id: Generated<number>;
  token_hash: string;
  owner_id: number;
  project_id: number;
  analysis_type: 'rcp' | 'ssp' | null;
  /** The scenario and year chosen for the report (migration 0036); null: the user's saved dashboard defaults. */
  scenario: '26' | '45' | '85' | null;
  year: number | null;
  with_content: boolean;
  status: 'queued' | 'running' | 'done' | 'failed';
  message: string | null;
  pdf_file_id: number | null;
  pptx_file_id: number | null;
  slides: number | null;
  created_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
}

export interface FilesTable {
  id: Generated<number>;
  token_hash: string;
  owner_id: number;
  stored_as: string;
  filename: string;
  content_type: string;
  bytes: number;
  /** SHA-256 of the content, hex (migration 0028; null for files stored before). */
  sha256: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** A stored file's content in the database (migration 0028; PostgreSQL mode): `key` is files.stored_as. */
export interface StoredFilesTable {
  key: string;
  bytes: number;
  sha256: string;
  content_type: string;
  chunk_bytes: number;
  created_at: Timestamp;
}

/** The bytes of a stored file, `chunk_bytes` a row (the last one shorter), `seq` from 0. */
export interface StoredFileChunksTable {
  key: string;
  seq: number;
  data: Buffer;
}

/** A transition (carbon) project's portfolio value in USD (issue 9). */
export interface CarbonPortfoliosTable {
  project_id: number;
  portfolio_value: number;
  updated_at: Generated<Timestamp>;
}

/** A holding of a carbon project; scope 1+2 null when not reported (then projected). */
export interface CarbonCompaniesTable {
  id: Generated<number>;
  project_id: number;
  position: number;
  company_name: string;
  investment_in_usd: number;
  market_cap_in_usd: number;
  revenue_in_usd: number;
  scope_1_and_2_ghg_emission: number | null;
  region: string;
  sector: string;
}
export type CarbonCompanyDbRow = Selectable<CarbonCompaniesTable>;
/** Ring and computed row of one real-estate location (migration 0010). */
export interface PropertyRiskSitesTable {
  asset_id: number;
  project_id: number;
  min_distance_km: number;
  max_distance_km: number;
  result: Json<Record<string, unknown>> | null;
  computed_at: Timestamp | null;
}

/** Map-specific fields of a map project (migration 0009). */
export interface MapProjectsTable {
  project_id: number;
  address: string;
  latitude: number;
  longitude: number;
  distance_km: number;
  variable: 'Rainfall Flood' | 'Storm Surge' | 'Wildfire';
  duration_data: Json<string[]>;
  country_code: string | null;
  subregion: string | null;
}

/** A listed company of the company search (migration 0011); `record` is the @crp/geo source record. */
export interface ListedCompaniesTable {
  id: Generated<number>;
  ticker: string;
  codes: string[];
  company_name: string;
  name_norm: string;
  indices: string[];
  record: Json<Record<string, unknown>>;
}

/** A published flood dataset registered installation-wide (migration 0026): only its registration, never pixels. */
export interface PublishedDatasetsTable {
  id: Generated<number>;
  name: string;
  directory: string;
  /** PublishedFile[] of @crp/hazards: path, what the name says, header (grid, tiling, block offsets, nodata, scale). */
  files: Json<unknown[]>;
  file_count: number;
  bytes: number | string;
  registered_at: Timestamp;
  registered_by: string;
}

/** A company's own hazard layer (migration 0018): the checked GeoTIFF's bytes and what the check found. */
export interface OwnHazardLayersTable {
  id: Generated<number>;
  company_id: number;
  hazard: string;
  scenario: '26' | '45' | '85' | null;
  year: number | null;
  return_period_years: number | null;
  unit: string;
  label: string;
  source: Generated<string>;
  filename: string;
  bytes: number;
  sha256: string;
  crs: string;
  width: number;
  height: number;
  west: number;
  south: number;
  east: number;
  north: number;
  resolution_km: number;
  valid_pixels: number;
  value_min: number;
  value_max: number;
  /** The uploaded file: only rows stored before migration 0023 that were not decoded yet. */
  data: Uint8Array | null;
  /** Float32 LE pixels, row-major, NaN = no value, in the hazard's unit (migration 0023); null until decoded. */
  pixels: Uint8Array | null;
  /** Top-left corner and pixel size in the units of `crs` (migration 0023). */
  x0: number | null;
  y0: number | null;
  res_x: number | null;
  res_y: number | null;
  uploaded_by: number | null;
  created_at: Timestamp;
}
export type OwnHazardLayerRow = Selectable<OwnHazardLayersTable>;
