import {
  assetLimitMessage,
  HAZARDS,
  LARGE_UPLOAD_PREVIEW_ROWS,
  unknownColumnsWarning,
  type CreateProjectBody,
  type PreviewUploadResponse,
  type ProjectStatus,
} from '@crp/contracts';
import { countryOf } from '@crp/geo';
import type { Config } from '../../config.js';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { recordsFromJson, unknownJsonKeys, validateAssetsInSlices, type ImportedAsset, type UploadedFile } from './asset-import.js';
import type { AssetUploadRead, UploadReadInput } from './asset-import.parse.js';
import type { ParseSandbox } from '../../lib/parse-sandbox.js';

/** The upload readers' task module, run in a parse child (lib/parse-sandbox.ts). */
const READ_TASK = new URL('./asset-import.parse.ts', import.meta.url);
import type { JobQueue } from '../../infra/job-queue.js';
import { tierDataOf } from '../accounts/tier.service.js';
import {
  assetCountAndMaxPosition,
  assetNames,
  deleteAllAssets,
  insertAssets,
  insertProject,
  lockOwnedPhysicalByName,
  renewProject,
} from './project.repository.js';

export const ANALYSE_PORTFOLIO_JOB = 'analyse-portfolio';

function isUploadedFile(v: unknown): v is UploadedFile {
  return !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).filename === 'string';
}

const assetLimitError = (limit: number) =>
  new AppError(400, assetLimitMessage(limit), [{ field: 'data', message: assetLimitMessage(limit) }], {
    error: [assetLimitMessage(limit)],
    code: 'asset_limit',
    assets_allowed: limit,
  });

export class ProjectService {
  constructor(
    private readonly db: DB,
    private readonly users: UsersRepository,
    private readonly jobs: JobQueue,
    private readonly config: Pick<Config, 'UPLOAD_MAX_ROWS'>,
    private readonly parser: ParseSandbox,
  ) {}

  /**
   * The table an upload reads to (a GIS file's points as latitude, longitude and attributes), its first rows and its
   * row count, for the wizard's preview; nothing is checked or stored (create_project does that).
   */
  async previewUpload(file: unknown): Promise<PreviewUploadResponse> {
    if (!isUploadedFile(file))
      throw new AppError(400, 'upload_file must be a file sent as multipart/form-data.', [{ field: 'upload_file', message: 'not a file' }]);
    const read = await this.parser.run<{ header: string[]; rows: (string | number | null)[][]; records: number; unknownColumns: string[] }>(
      READ_TASK,
      'previewUpload',
      { filename: file.filename, maxRows: this.config.UPLOAD_MAX_ROWS, previewRows: LARGE_UPLOAD_PREVIEW_ROWS },
      { field: 'upload_file', filename: file.filename },
      { file: file.data },
    );
    return { header: read.header, rows: read.rows, records: read.records, unknown_columns: read.unknownColumns };
  }

  /** Parses and validates the locations of a create request: every row problem is listed, nothing is stored. */
  async parseLocations(body: CreateProjectBody): Promise<{ assets: ImportedAsset[]; warnings: string[] }> {
    const warnings: string[] = [];
    let checked: { assets: ImportedAsset[]; errors: string[]; records: number };
    if (body.upload_file !== undefined) {
      if (!isUploadedFile(body.upload_file))
        throw new AppError(400, 'upload_file must be a file sent as multipart/form-data.', [{ field: 'upload_file', message: 'not a file' }]);
      // Read and checked in a parse child (memory and time limits; issue 32), the assets coming back in batches.
      const file = body.upload_file;
      const assets: ImportedAsset[] = [];
      const read = await this.parser.run<AssetUploadRead>(
        READ_TASK,
        'readAssetUpload',
        { filename: file.filename, maxRows: this.config.UPLOAD_MAX_ROWS } satisfies UploadReadInput,
        { field: 'upload_file', filename: file.filename },
        { file: file.data, onChunk: (batch) => void assets.push(...(batch as ImportedAsset[])) },
      );
      if (read.unknownColumns.length) warnings.push(unknownColumnsWarning(read.unknownColumns));
      checked = { assets, errors: read.errors, records: read.records };
    } else if (body.data !== undefined) {
      const unknown = unknownJsonKeys(body.data);
      if (unknown.length) warnings.push(unknownColumnsWarning(unknown, 'field'));
      const records = recordsFromJson(body.data);
      checked = { ...(await validateAssetsInSlices(records)), records: records.length };
    } else {
      throw new AppError(400, 'data or upload_file is required: send the locations as a JSON list in data, or a CSV/XLSX/XLS file in upload_file.', [
        { field: 'data', message: 'data or upload_file is required' },
      ]);
    }
    // The count checks come before the row problems, as when the records were counted before they were checked.
    if (checked.records === 0)
      throw new AppError(400, 'The upload has no asset rows.', [{ field: body.upload_file !== undefined ? 'upload_file' : 'data', message: 'no rows' }], {
        error: ['The upload has no asset rows.'],
      });
    if (checked.records > this.config.UPLOAD_MAX_ROWS) {
      const msg = `The upload has more than ${this.config.UPLOAD_MAX_ROWS.toLocaleString('en-US')} rows, the limit per upload.`;
      throw new AppError(400, msg, [{ field: body.upload_file !== undefined ? 'upload_file' : 'data', message: msg }], { error: [msg] });
    }
    const { assets, errors } = checked;
    if (errors.length) {
      throw new AppError(
        400,
        `${errors.length === 101 ? 'More than 100' : errors.length} problem(s) in the locations: ${errors[0]}`,
        [{ field: body.upload_file !== undefined ? 'upload_file' : 'data', message: errors[0]! }],
        { error: errors },
      );
    }
    // Country from the coordinates where the upload did not give one (nearest country within 50 km for coastal sites),
    // in slices so that other requests are answered during a large upload.
    for (let i = 0; i < assets.length; i++) {
      const a = assets[i]!;
      a.country_code ??= countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null;
      if (i % 5_000 === 4_999) await new Promise((r) => setImmediate(r));
    }
    return { assets, warnings };
  }

  /** Creates a physical-risk project (or adds to / overwrites one) and queues its analysis, in one transaction. */
  async createPhysical(
    caller: AuthUser,
    body: CreateProjectBody,
    source: string,
  ): Promise<{ project: ProjectStatus; jobId: number; created: boolean; warnings: string[] }> {
    const { assets, warnings } = await this.parseLocations(body);
    const company = await this.users.companyById(caller.companyId);
    if (!company) throw notFound();
    const limit = tierDataOf(company).assets_allowed;
    const mode = body.mode ?? 'new';
    const name = body.portfolio_name;
    return this.db.transaction().execute(async (tx) => {
      const existing = await lockOwnedPhysicalByName(tx, caller.id, name.toLowerCase());
      if (mode === 'new' && existing)
        throw badRequest(`portfolio_name: you already have a project named '${name}'. Choose another name, or add to or overwrite it.`, 'portfolio_name');
      if (mode !== 'new' && !existing)
        throw badRequest(`portfolio_name: no project named '${name}' to ${mode === 'add' ? 'add to' : 'overwrite'}.`, 'portfolio_name');
      const startPosition = mode === 'add' && existing ? await this.addPosition(tx, existing, assets, limit) : 0;
      if (!(mode === 'add' && existing) && assets.length > limit) throw assetLimitError(limit);
      const project = existing ? await this.renewVersion(tx, existing, body, mode) : await this.newProject(tx, caller, body, source);
      await insertAssets(tx, project.id, startPosition, assets);
      const jobId = await this.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: project.id, version: project.version }, tx);
      const count = mode === 'add' ? startPosition + assets.length : assets.length;
      await this.users.audit(
        {
          company_id: caller.companyId,
          user_id: caller.id,
          action: existing ? `project.${mode}` : 'project.created',
          detail: { project_id: project.id, assets: assets.length },
          client: null,
        },
        tx,
      );
      return {
        project: {
          project_id: project.id,
          name: project.name,
          status: project.status,
          progress: project.progress,
          message: project.status_message,
          assets: count,
        },
        jobId,
        created: !existing,
        warnings,
      };
    });
  }

  /** Adding to a portfolio: checks the tier limit and the names against its assets; the position after its last. */
  private async addPosition(tx: DB, existing: ProjectRow, assets: ImportedAsset[], limit: number): Promise<number> {
    const row = await assetCountAndMaxPosition(tx, existing.id);
    if (row.n + assets.length > limit) throw assetLimitError(limit);
    const names = new Set((await assetNames(tx, existing.id)).map((a) => a.name.toLowerCase()));
    const clash = assets.find((a) => names.has(a.name.toLowerCase()));
    if (clash)
      throw new AppError(400, `An asset named '${clash.name}' is already in '${existing.name}'.`, [{ field: 'data', message: 'duplicate asset name' }], {
        error: [`An asset named '${clash.name}' is already in '${existing.name}'.`],
      });
    return row.max + 1;
  }

  /** Adding to or overwriting a portfolio: a new version, queued (its hazards kept unless new ones are sent). */
  private async renewVersion(tx: DB, existing: ProjectRow, body: CreateProjectBody, mode: 'add' | 'overwrite' | 'new'): Promise<ProjectRow> {
    if (mode === 'overwrite') await deleteAllAssets(tx, existing.id);
    const variables = body.portfolio_variables ?? (existing.portfolio_variables as string[]);
    return renewProject(tx, existing, variables, body.non_building_variables);
  }

  private async newProject(tx: DB, caller: AuthUser, body: CreateProjectBody, source: string): Promise<ProjectRow> {
    // Spec 000 §9: a company or index benchmark portfolio includes all ten hazards (every hazard but Extreme Cold,
    // which is offered for SSP only); a map or file portfolio without a choice gets the three default hazards.
    const defaults =
      source === 'company' || source === 'index'
        ? HAZARDS.filter((h) => h.label !== 'Extreme Cold').map((h) => h.label)
        : HAZARDS.filter((h) => h.isDefault).map((h) => h.label);
    const name = body.portfolio_name;
    return insertProject(tx, {
      company_id: caller.companyId,
      owner_id: caller.id,
      kind: 'physical',
      name,
      name_lower: name.toLowerCase(),
      portfolio_variables: JSON.stringify(body.portfolio_variables ?? defaults),
      non_building_variables: JSON.stringify(body.non_building_variables ?? { energy: [], agriculture: [] }),
      base_unit: body.base_unit ?? 'meter',
      base_currency: body.base_currency ?? 'USD',
      source,
      is_benchmark: body.is_benchmark === true || body.is_benchmark === 'true',
      ticker: body.ticker ?? null,
      index_name: body.index_name ?? null,
      default_filters: JSON.stringify(
        body.analysis_type === 'rcp' ? { analysis_type: 'rcp', scenario: '45', year: 2050 } : { analysis_type: 'ssp', scenario: '45', year: 2050 },
      ),
      status: 'queued',
      progress: 0,
      status_message: 'Waiting for analysis',
      version: 1,
    });
  }
}
