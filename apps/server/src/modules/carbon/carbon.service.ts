import {
  CARBON_INPUT_COLUMNS,
  CARBON_REGIONS,
  CARBON_SECTORS,
  CARBON_UNITS,
  csvField,
  isNA,
  parseAmount,
  safeCell,
  type CarbonAnalysisBody,
  type CarbonAnalysisResponse,
  type CarbonCompanyRow,
  type CarbonDataResponse,
  type CarbonProject,
} from '@crp/contracts';
import { computeCarbon, EMISSION_FACTOR_DATA } from '@crp/engine/carbon';
import * as XLSX from '@e965/xlsx';
import type { Config } from '../../config.js';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { CarbonCompanyInsert, CarbonRepository } from './carbon.repository.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { type UploadedFile } from '../projects/asset-import.js';
import type { UploadReadInput } from '../projects/asset-import.parse.js';
import type { ParseSandbox } from '../../lib/parse-sandbox.js';

/** The upload readers' task module (modules/projects/asset-import.parse.ts), run in a parse child. */
const READ_TABLE_TASK = new URL('../projects/asset-import.parse.ts', import.meta.url);
import { roleOf, type ProjectAccessPolicy, type ProjectRole } from '../access/project-access.policy.js';

/** Most companies one carbon portfolio may hold. */
export const CARBON_MAX_COMPANIES = 2_000;
const MAX_LISTED_ERRORS = 100;
const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** Header spellings accepted in a CSV, normalised (lower case, non-alphanumerics to _). */
const HEADER_ALIASES: Record<string, (typeof CARBON_INPUT_COLUMNS)[number]> = {
  company_name: 'company_name',
  company: 'company_name',
  name: 'company_name',
  investment_in_usd: 'investment_in_usd',
  investment: 'investment_in_usd',
  investment_usd: 'investment_in_usd',
  nav_in_perc: 'nav_in_perc',
  nav: 'nav_in_perc',
  nav_perc: 'nav_in_perc',
  market_cap_in_usd: 'market_cap_in_usd',
  market_cap: 'market_cap_in_usd',
  market_cap_usd: 'market_cap_in_usd',
  market_capitalisation: 'market_cap_in_usd',
  evic: 'market_cap_in_usd',
  revenue_in_usd: 'revenue_in_usd',
  revenue: 'revenue_in_usd',
  revenue_usd: 'revenue_in_usd',
  scope_1_and_2_ghg_emission: 'scope_1_and_2_GHG_emission',
  scope_1_and_2: 'scope_1_and_2_GHG_emission',
  scope_1_2: 'scope_1_and_2_GHG_emission',
  scope_1_and_2_ghg_emissions: 'scope_1_and_2_GHG_emission',
  region: 'region',
  sector: 'sector',
};
const normHeader = (h: unknown) =>
  String(h ?? '')
    .trim()
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

type RawRecord = { row: number; values: Record<string, unknown> };

function isUploadedFile(v: unknown): v is UploadedFile {
  return !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).filename === 'string';
}

const byLower = <T extends string>(list: readonly T[]) => new Map(list.map((x) => [x.toLowerCase(), x] as const));
const REGIONS = byLower(CARBON_REGIONS);
const SECTORS = byLower(CARBON_SECTORS);

/**
 * Validates company records: every problem names the row and the column; nothing is stored when one fails.
 * Scope 1+2 left blank, NA or 0 means "not reported" and is stored as null (then projected, spec 001 §5 note 2).
 */
export function validateCompanies(
  records: RawRecord[],
  source: 'companies_data' | 'uploaded_file',
): { rows: CarbonCompanyInsert[]; errors: { field: string; message: string }[] } {
  const errors: { field: string; message: string }[] = [];
  const rows: CarbonCompanyInsert[] = [];
  for (const { row, values } of records) {
    const fail = (col: string, msg: string) =>
      errors.push({
        field: source === 'companies_data' ? `companies_data[${row - 1}].${col}` : `uploaded_file.row${row}.${col}`,
        message: `Row ${row}, ${col}: ${msg}`,
      });
    const before = errors.length;
    const name = isNA(values.company_name) ? '' : String(values.company_name).trim();
    if (!name) fail('company_name', 'is required.');
    else if (name.length > 150) fail('company_name', 'must be at most 150 characters.');
    const amount = (col: string, required: boolean): number | null => {
      const p = parseAmount(values[col]);
      if ('error' in p) {
        fail(col, `${p.error}.`);
        return null;
      }
      if (p.value === null) {
        if (required) fail(col, 'is required.');
        return null;
      }
      return p.value;
    };
    const investment = amount('investment_in_usd', true);
    const mcap = amount('market_cap_in_usd', true);
    const revenue = amount('revenue_in_usd', true);
    const scope = amount('scope_1_and_2_GHG_emission', false);
    if (investment !== null && investment <= 0) fail('investment_in_usd', 'must be greater than 0 (USD).');
    if (mcap !== null && mcap <= 0) fail('market_cap_in_usd', 'must be greater than 0 (USD); the attribution factor is investment / market capitalisation.');
    if (revenue !== null && revenue <= 0) fail('revenue_in_usd', 'must be greater than 0 (USD); carbon intensity is per USD million of revenue.');
    if (scope !== null && scope < 0) fail('scope_1_and_2_GHG_emission', 'cannot be negative (tCO2e); leave it blank or 0 to have it projected.');
    if (investment !== null && mcap !== null && investment > 0 && mcap > 0 && investment > mcap)
      fail('investment_in_usd', `${investment} is more than the market capitalisation ${mcap}: an investor cannot own more than 100% of a company.`);
    const region = isNA(values.region) ? undefined : REGIONS.get(String(values.region).trim().toLowerCase());
    if (!region)
      fail(
        'region',
        isNA(values.region) ? 'is required.' : `'${String(values.region).slice(0, 40)}' is not a region; choose one of ${CARBON_REGIONS.join(', ')}.`,
      );
    const sector = isNA(values.sector) ? undefined : SECTORS.get(String(values.sector).trim().toLowerCase());
    if (!sector)
      fail(
        'sector',
        isNA(values.sector)
          ? 'is required.'
          : `'${String(values.sector).slice(0, 60)}' is not a sector; choose one of the 29 sectors (${CARBON_SECTORS[0]} ... ${CARBON_SECTORS[CARBON_SECTORS.length - 1]}).`,
      );
    if (errors.length === before) {
      rows.push({
        company_name: name,
        investment_in_usd: investment!,
        market_cap_in_usd: mcap!,
        revenue_in_usd: revenue!,
        scope_1_and_2_ghg_emission: scope === null || scope === 0 ? null : scope,
        region: region!,
        sector: sector!,
      });
    }
    if (errors.length > MAX_LISTED_ERRORS) break;
  }
  return { rows, errors };
}

/** Records from a JSON list of company objects (row = position, from 1). */
export function recordsFromJsonList(list: unknown): RawRecord[] {
  let value = list;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest('companies_data must be a JSON list of company rows.', 'companies_data');
    }
  }
  if (!Array.isArray(value)) throw badRequest('companies_data must be a JSON list of company rows.', 'companies_data');
  return value.map((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return { row: i + 1, values: {} };
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
      const col = HEADER_ALIASES[normHeader(k)];
      if (col) values[col] = v;
    }
    return { row: i + 1, values };
  });
}

/** Records from a CSV/XLSX table: header row matched by name, else the template column order; row = spreadsheet row. */
export function recordsFromCarbonTable(table: unknown[][]): RawRecord[] {
  const first = table[0] ?? [];
  const mapped = first.map((h) => HEADER_ALIASES[normHeader(h)]);
  const hasHeader = mapped.filter(Boolean).length >= 3;
  const columns = hasHeader ? mapped : [...CARBON_INPUT_COLUMNS];
  const body = hasHeader ? table.slice(1) : table;
  const offset = hasHeader ? 2 : 1;
  const out: RawRecord[] = [];
  body.forEach((cells, i) => {
    if (!cells || cells.every((c) => isNA(c))) return;
    const values: Record<string, unknown> = {};
    columns.forEach((col, j) => {
      if (col) values[col] = cells[j];
    });
    // Spec 001 §5: an empty scope 1 and 2 in a carbon CSV becomes 0 (= not reported, then projected).
    if (isNA(values.scope_1_and_2_GHG_emission)) values.scope_1_and_2_GHG_emission = 0;
    out.push({ row: i + offset, values });
  });
  return out;
}

/** The carbon module (issue 9): create, modify, list, fetch, delete and download transition projects. */
export class CarbonService {
  /** Regions, sectors and the emission factors used to project scope 1+2, with their sources. */
  static factors() {
    return {
      regions: [...CARBON_REGIONS],
      sectors: [...CARBON_SECTORS],
      unit: EMISSION_FACTOR_DATA.unit,
      factors: EMISSION_FACTOR_DATA.factors as Record<string, Record<string, number | null>>,
      sector_notes: Object.fromEntries(Object.entries(EMISSION_FACTOR_DATA.sectors).map(([k, v]) => [k, v.note])),
      sources: EMISSION_FACTOR_DATA.sources,
    };
  }

  constructor(
    private readonly db: DB,
    private readonly repo: CarbonRepository,
    private readonly users: UsersRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly config: Pick<Config, 'UPLOAD_MAX_ROWS'>,
    private readonly parser: ParseSandbox,
  ) {}

  private async parse(body: CarbonAnalysisBody, allowFile: boolean): Promise<CarbonCompanyInsert[]> {
    let records: RawRecord[];
    let source: 'companies_data' | 'uploaded_file';
    if (allowFile && body.uploaded_file !== undefined && body.uploaded_file !== '') {
      if (!isUploadedFile(body.uploaded_file)) throw badRequest('uploaded_file must be a CSV file sent as multipart/form-data.', 'uploaded_file');
      // read in a parse child (memory and time limits; issue 32)
      const file = body.uploaded_file;
      const table = await this.parser.run<unknown[][]>(
        READ_TABLE_TASK,
        'readTable',
        { filename: file.filename, maxRows: Math.min(this.config.UPLOAD_MAX_ROWS, CARBON_MAX_COMPANIES) } satisfies UploadReadInput,
        { field: 'uploaded_file', filename: file.filename },
        { file: file.data },
      );
      records = recordsFromCarbonTable(table.map((r) => r ?? []));
      source = 'uploaded_file';
    } else if (body.companies_data !== undefined && body.companies_data !== '') {
      records = recordsFromJsonList(body.companies_data);
      source = 'companies_data';
    } else {
      throw badRequest(
        allowFile
          ? 'companies_data or uploaded_file is required: send the company rows as a JSON list, or a CSV file.'
          : 'companies_data is required: send the company rows as a JSON list.',
        'companies_data',
      );
    }
    if (records.length === 0)
      throw new AppError(400, `${source}: there are no company rows.`, [{ field: source, message: 'no rows' }], {
        error: [`${source}: there are no company rows.`],
      });
    if (records.length > CARBON_MAX_COMPANIES) {
      const msg = `${source}: more than ${CARBON_MAX_COMPANIES.toLocaleString('en-US')} companies, the limit per carbon portfolio.`;
      throw new AppError(400, msg, [{ field: source, message: msg }], { error: [msg] });
    }
    const { rows, errors } = validateCompanies(records, source);
    if (errors.length) {
      const n = errors.length > MAX_LISTED_ERRORS ? `More than ${MAX_LISTED_ERRORS}` : String(errors.length);
      throw new AppError(
        400,
        errors.length === 1 ? errors[0]!.message : `${n} problems in the company rows. ${errors[0]!.message}`,
        errors.slice(0, MAX_LISTED_ERRORS),
        { error: errors.slice(0, MAX_LISTED_ERRORS).map((e) => e.message) },
      );
    }
    const total = rows.reduce((s, r) => s + r.investment_in_usd, 0);
    if (total > body.portfolio_value * (1 + 1e-9)) {
      const msg = `portfolio_value: the investments add up to USD ${total.toLocaleString('en-US')}, more than the portfolio value USD ${body.portfolio_value.toLocaleString('en-US')} (NAV% would exceed 100).`;
      throw new AppError(400, msg, [{ field: 'portfolio_value', message: msg }], { error: [msg] });
    }
    return rows;
  }

  /** Create (201), or overwrite the caller's project of the same name when `overwrite` is set. */
  async create(caller: AuthUser, body: CarbonAnalysisBody, client: string): Promise<{ project: CarbonProject; created: boolean }> {
    const rows = await this.parse(body, true);
    const name = body.portfolio_name;
    const id = await this.db.transaction().execute(async (tx) => {
      const existing = await this.repo.ownByName(tx, caller.id, name);
      if (existing && !body.overwrite) {
        const msg = `portfolio_name: you already have a carbon project named '${existing.name}'. Choose another name or turn on Overwrite existing.`;
        throw new AppError(400, msg, [{ field: 'portfolio_name', message: msg }], { error: [msg] });
      }
      const project = existing ?? (await this.repo.insertProject(tx, { company_id: caller.companyId, owner_id: caller.id, name }));
      if (existing) await this.repo.touchProject(tx, existing.id, existing.version + 1);
      await this.repo.saveInputs(tx, project.id, body.portfolio_value, rows);
      await this.users.audit(
        {
          company_id: caller.companyId,
          user_id: caller.id,
          action: existing ? 'carbon.overwritten' : 'carbon.created',
          detail: { project_id: project.id, name, companies: rows.length },
          client,
        },
        tx,
      );
      return { id: project.id, created: !existing };
    });
    return { project: await this.card(caller, id.id), created: id.created };
  }

  /** Modify: replaces the portfolio value and rows of a project the caller owns or may write. */
  async modify(caller: AuthUser, body: CarbonAnalysisBody, client: string): Promise<CarbonProject> {
    const { project } = await this.policy.requireByName(caller, body.portfolio_name, 'editAssets', 'transition', 'portfolio_name');
    const rows = await this.parse(body, false);
    await this.db.transaction().execute(async (tx) => {
      await this.repo.touchProject(tx, project.id, project.version + 1);
      await this.repo.saveInputs(tx, project.id, body.portfolio_value, rows);
      await this.users.audit(
        { company_id: caller.companyId, user_id: caller.id, action: 'carbon.modified', detail: { project_id: project.id, companies: rows.length }, client },
        tx,
      );
    });
    return this.card(caller, project.id);
  }

  async list(caller: AuthUser) {
    const rows = await this.repo.listVisible(caller.id, caller.companyId);
    const data = rows.map((r): CarbonProject => ({
      project_id: r.id,
      project_name: r.name,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      owner: { id: r.owner_id, username: r.owner_username },
      permission: roleOf(caller, r.owner_id, r.share_permission),
      companies: Number(r.companies ?? 0),
    }));
    return { username: caller.username, count: data.length, data };
  }

  private byName(caller: AuthUser, name: string) {
    return this.policy.findVisibleByName(caller, name, 'transition', 'portfolio_name');
  }

  private async card(caller: AuthUser, projectId: number): Promise<CarbonProject> {
    const found = (await this.list(caller)).data.find((p) => p.project_id === projectId);
    if (!found) throw new AppError(404, `project_id: no project ${projectId}.`);
    return found;
  }

  private async load(
    caller: AuthUser,
    name: string,
  ): Promise<{ project: ProjectRow; role: ProjectRole; value: number; rows: CarbonCompanyRow[]; card: CarbonProject }> {
    const { project, role } = await this.byName(caller, name);
    const [portfolio, companies, card] = await Promise.all([this.repo.portfolio(project.id), this.repo.companies(project.id), this.card(caller, project.id)]);
    const value = portfolio?.portfolio_value ?? 0;
    const rows = companies.map((c) => ({
      company_name: c.company_name,
      investment_in_usd: c.investment_in_usd,
      nav_in_perc: value > 0 ? (c.investment_in_usd / value) * 100 : 0,
      market_cap_in_usd: c.market_cap_in_usd,
      revenue_in_usd: c.revenue_in_usd,
      scope_1_and_2_GHG_emission: c.scope_1_and_2_ghg_emission,
      region: c.region,
      sector: c.sector,
    }));
    return { project, role, value, rows, card };
  }

  /** Project data fetch: the stored inputs. */
  async data(caller: AuthUser, name: string): Promise<CarbonDataResponse> {
    const l = await this.load(caller, name);
    return { project: l.card, portfolio_name: l.project.name, portfolio_value: l.value, companies_data: l.rows };
  }

  /** Project fetch: the outputs, computed from the stored inputs with the committed factor table. */
  async analysis(caller: AuthUser, name: string): Promise<CarbonAnalysisResponse> {
    const l = await this.load(caller, name);
    const out = computeCarbon(
      l.value,
      l.rows.map((r) => ({ ...r, scope_1_and_2_GHG_emission: r.scope_1_and_2_GHG_emission })),
    );
    return { project: l.card, portfolio_name: l.project.name, portfolio_value: l.value, ...out, units: { ...CARBON_UNITS } };
  }

  async delete(caller: AuthUser, name: string, client: string) {
    const { project } = await this.policy.requireByName(caller, name, 'delete', 'transition', 'portfolio_name');
    await this.db.transaction().execute(async (tx) => {
      await this.repo.deleteProject(tx, project.id);
      await this.users.audit(
        { company_id: caller.companyId, user_id: caller.id, action: 'carbon.deleted', detail: { project_id: project.id, name: project.name }, client },
        tx,
      );
    });
    return project.name;
  }

  /** Download rows: inputs and outputs per company, then the portfolio total row. */
  async downloadRows(caller: AuthUser, name: string) {
    const a = await this.analysis(caller, name);
    const data = await this.data(caller, name);
    const rows: Record<string, string | number | null>[] = a.table_data.map((r, i) => ({
      company_name: r.company_name,
      region: r.region,
      sector: r.sector,
      investment_in_usd: r.investment_in_usd,
      nav_in_perc: round(r.nav_in_perc, 4),
      market_cap_in_usd: data.companies_data[i]!.market_cap_in_usd,
      revenue_in_usd: data.companies_data[i]!.revenue_in_usd,
      reported_scope_1_and_2_GHG_emission: data.companies_data[i]!.scope_1_and_2_GHG_emission,
      emission_source: r.emission_source,
      // PCAF data-quality score (PCAF 2022 Table 5.3): 2 reported, 4 projected from revenue; none when not covered.
      pcaf_data_quality_score: r.data_quality_score,
      emission_factor_tco2e_per_usd_m_revenue: r.emission_factor,
      projected_scope_1_and_2_GHG_emission: round(r.projected_scope_1_and_2_GHG_emission),
      attribution_factor: round(r.attribution_factor, 6),
      total_carbon_emission: round(r.total_carbon_emission),
      carbon_footprint: round(r.carbon_footprint),
      carbon_intensity: round(r.carbon_intensity),
      weighted_average_carbon_intensity: round(r.weighted_average_carbon_intensity),
      note: r.note,
    }));
    const p = a.portfolio;
    rows.push({
      company_name: 'Portfolio total',
      region: null,
      sector: null,
      investment_in_usd: a.table_data.reduce((s, r) => s + r.investment_in_usd, 0),
      nav_in_perc: round(
        a.table_data.reduce((s, r) => s + r.nav_in_perc, 0),
        4,
      ),
      market_cap_in_usd: null,
      revenue_in_usd: null,
      reported_scope_1_and_2_GHG_emission: null,
      emission_source: null,
      // Investment-weighted over the covered holdings, as the Other Environment Metric tab shows it.
      pcaf_data_quality_score: p.data_quality_score === null ? null : round(p.data_quality_score, 2),
      emission_factor_tco2e_per_usd_m_revenue: null,
      projected_scope_1_and_2_GHG_emission: round(p.projected_scope_1_and_2_portfolio),
      attribution_factor: null,
      total_carbon_emission: round(p.total_carbon_emission_portfolio),
      carbon_footprint: round(p.carbon_footprint),
      carbon_intensity: round(p.carbon_intensity),
      weighted_average_carbon_intensity: round(p.weighted_average_carbon_intensity_portfolio),
      note: `Portfolio value USD ${p.portfolio_value.toLocaleString('en-US')}; coverage ${(p.coverage * 100).toFixed(1)}%`,
    });
    return { name: a.portfolio_name, rows, columns: Object.keys(rows[0]!) };
  }

  static toCsv(columns: string[], rows: Record<string, unknown>[]): string {
    return '\uFEFF' + [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
  }

  static toXlsx(name: string, columns: string[], rows: Record<string, unknown>[]): Buffer {
    const wb = XLSX.utils.book_new();
    const ws = XLSX.utils.json_to_sheet(
      rows.map((r) => Object.fromEntries(columns.map((c) => [c, safeCell(r[c])]))),
      { header: columns },
    );
    ws['!cols'] = columns.map((h) => ({ wch: Math.min(40, Math.max(10, h.length + 2)) }));
    XLSX.utils.book_append_sheet(wb, ws, 'Carbon');
    const about = [
      ['Carbon and transition analysis', name],
      ['Units', 'emissions tCO2e/yr; footprint tCO2e per USD million invested; intensity and WACI tCO2e per USD million revenue'],
      ['Method', 'PCAF (2022) listed equity attribution (investment / market capitalisation) and TCFD (2021) portfolio metrics; see the Methodology document'],
      [
        'PCAF data-quality score',
        'pcaf_data_quality_score: 1 (best) to 5 (PCAF 2022 Table 5.3); 2 = reported scope 1+2 (not known to be verified), 4 = projected from revenue and a sector emission factor (option 3a); the total row is the investment-weighted score of the covered holdings',
      ],
      [
        'Projected scope 1+2',
        'revenue x sector/region factor (US EPA USEEIO v1.3 supply-chain factors regionalised with OWID CO2/GDP or Ember grid intensity)',
      ],
      ...EMISSION_FACTOR_DATA.sources.map((s) => ['Source', `${s.title}. ${s.publisher}. ${s.reference}. ${s.license}.`]),
    ];
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(about.map((r) => r.map((v) => safeCell(v)))), 'About');
    return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  }

  /** The CSV template: header in the input order and two example rows (one reported, one to be projected). */
  static template(): string {
    const rows = [
      {
        company_name: 'Example Cement Co',
        investment_in_usd: 2000000,
        nav_in_perc: '',
        market_cap_in_usd: 500000000,
        revenue_in_usd: 300000000,
        scope_1_and_2_GHG_emission: 850000,
        region: 'China',
        sector: 'Construction Materials',
      },
      {
        company_name: 'Example Software Ltd',
        investment_in_usd: 3000000,
        nav_in_perc: '',
        market_cap_in_usd: 900000000,
        revenue_in_usd: 120000000,
        scope_1_and_2_GHG_emission: '',
        region: 'Europe',
        sector: 'Software & IT Services',
      },
    ];
    return CarbonService.toCsv([...CARBON_INPUT_COLUMNS], rows);
  }
}

function round(v: number | null, digits = 2): number | null {
  return v === null || !Number.isFinite(v) ? null : Math.round(v * 10 ** digits) / 10 ** digits;
}
