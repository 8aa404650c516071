import { EDITABLE_ASSET_COLUMNS, type AssetEdit, type EditableAssetColumn } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { AssetRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import type { JobQueue } from '../../infra/job-queue.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import { ANALYSE_PORTFOLIO_JOB } from './project.service.js';
import type { PortfolioAssetsRepository } from './portfolio-assets.repository.js';

/** Table column -> database column. */
const DB_COLUMN: Record<EditableAssetColumn, keyof AssetRow> = {
  name: 'name',
  type: 'property_type',
  revenue: 'revenue',
  construction_cost: 'construction_cost',
  area: 'area',
  ownership: 'ownership',
  floors: 'stories',
  valuation: 'valuation',
  building_age: 'building_age',
  mitigation_risk: 'mitigation_risk',
  content_value: 'content_value',
  plinth_height: 'plinth_height',
  basement: 'basement',
  yearly_inventory_value: 'yearly_inventory_value',
  flood_protection: 'flood_protection',
  construction: 'construction',
};

/** Saving the asset table (spec 001 §4 "Asset table editing"; issue 7 §3). */
export class AssetEditService {
  constructor(
    private readonly db: DB,
    private readonly repo: PortfolioAssetsRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly users: UsersRepository,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Saves every changed cell of the rows sent, in one transaction, and re-queues the analysis of the changed assets.
   * Column edits are checked against the user's data-edit permissions; a stale `version` answers 409.
   */
  async update(
    caller: AuthUser,
    body: { project_id?: number | undefined; project_name?: string | undefined; assets: AssetEdit[]; version?: number | undefined },
  ) {
    const { project } =
      body.project_id !== undefined
        ? await this.policy.require(caller, body.project_id, 'editAssets')
        : await this.policy.requireByName(caller, body.project_name!, 'editAssets');
    const me = await this.users.userById(caller.id);
    const perms = (me?.data_edit_permissions ?? {}) as Record<string, boolean>;

    return this.db.transaction().execute(async (tx) => {
      const currentVersion = await this.repo.lockVersion(project.id, tx);
      if (body.version !== undefined && body.version !== currentVersion) {
        throw conflict(
          `'${project.name}' was changed by someone else since you loaded it (version ${currentVersion}, yours ${body.version}). Reload the table to see their changes, then edit again.`,
        );
      }
      const rows = await this.repo.assetRows(project.id, tx);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const updates: { id: number; set: Record<string, unknown> }[] = [];
      body.assets.forEach((edit, n) => {
        const row = byId.get(edit.id);
        if (!row) throw badRequest(`assets: row ${n + 1} has id ${edit.id}, which is not an asset of '${project.name}'.`, `assets.${n}.id`);
        for (const k of ['latitude', 'longitude'] as const) {
          if (edit[k] !== undefined && edit[k] !== null && Number(edit[k]) !== row[k])
            throw badRequest(`assets: row ${n + 1} (${row.name}): ${k} cannot be changed after creation.`, `assets.${n}.${k}`);
        }
        const set: Record<string, unknown> = {};
        for (const col of Object.keys(DB_COLUMN) as EditableAssetColumn[]) {
          const v = (edit as Record<string, unknown>)[col];
          if (v === undefined) continue;
          const dbCol = DB_COLUMN[col];
          if (v === row[dbCol] || (v === null && row[dbCol] === null)) continue;
          const gate = EDITABLE_ASSET_COLUMNS[col];
          if (gate && perms[gate] === false) throw forbidden(`You may not edit the ${col} column (${gate} is off for your account).`);
          set[dbCol] = v;
        }
        if (Object.keys(set).length) updates.push({ id: row.id, set });
      });
      const names = new Map<string, number>();
      for (const r of rows) {
        const u = updates.find((x) => x.id === r.id);
        const name = String(u?.set.name ?? r.name).toLowerCase();
        if (names.has(name))
          throw new AppError(400, `assets: two assets would be named '${u?.set.name ?? r.name}'. Names must be unique in a portfolio.`, [
            { field: 'assets', message: 'duplicate name' },
          ]);
        names.set(name, r.id);
      }
      if (updates.length === 0) return { detail: 'Nothing changed.', changed: 0, version: currentVersion, job_id: null };
      const now = new Date();
      for (const u of updates) await this.repo.updateAsset(u.id, u.set, now, tx);
      const version = currentVersion + 1;
      await this.repo.markQueued(project.id, version, `Re-analysing ${updates.length} changed asset(s)`, now, tx);
      const jobId = await this.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: project.id, version, changedAssetIds: updates.map((u) => u.id) }, tx);
      await this.users.audit(
        { company_id: caller.companyId, user_id: caller.id, action: 'assets.updated', detail: { project_id: project.id, assets: updates.length } },
        tx,
      );
      return { detail: `Saved ${updates.length} asset(s); the analysis is re-running for them.`, changed: updates.length, version, job_id: jobId };
    });
  }
}
