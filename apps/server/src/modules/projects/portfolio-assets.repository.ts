import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { Viewer } from '../access/project-access.repository.js';
import { visibleProjects } from '../access/project-access.repository.js';

/** SQL of a portfolio's assets: the spec's older portfolio and asset calls (spec 000 §7) and the asset table edits. */
export class PortfolioAssetsRepository {
  constructor(private readonly db: DB) {}

  /** Physical projects the viewer owns or that were shared with them, newest first, with their asset counts. */
  portfolios(viewer: Viewer) {
    return visibleProjects(this.db, viewer, 'physical')
      .select(['p.id', 'p.name', 'p.portfolio_variables', 'p.non_building_variables', 'p.base_unit', 'p.base_currency', 'p.created_at', 'p.status'])
      .select((eb) =>
        eb
          .selectFrom('assets as a')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('a.project_id', '=', 'p.id')
          .as('assets'),
      )
      .orderBy('p.created_at', 'desc')
      .execute();
  }

  assets(projectId: number) {
    return this.db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
  }

  assetIds(projectId: number, db: DB = this.db) {
    return db.selectFrom('assets').select('id').where('project_id', '=', projectId).execute();
  }

  async deleteAssets(projectId: number, assetIds: number[], db: DB = this.db): Promise<number> {
    const res = await db.deleteFrom('assets').where('project_id', '=', projectId).where('id', 'in', assetIds).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Raises the project's version (row locked) and marks it queued with `message`; answers the new version. */
  async bumpVersion(projectId: number, message: string, db: DB = this.db): Promise<number> {
    const current = await db.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
    const version = current.version + 1;
    await db
      .updateTable('projects')
      .set({ version, status: 'queued', progress: 0, status_message: message, updated_at: new Date() })
      .where('id', '=', projectId)
      .execute();
    return version;
  }

  /** The project's version, its row locked until the transaction ends. */
  async lockVersion(projectId: number, db: DB = this.db): Promise<number> {
    const current = await db.selectFrom('projects').select(['version']).where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
    return current.version;
  }

  /** Every asset row of the project (unordered). */
  assetRows(projectId: number, db: DB = this.db) {
    return db.selectFrom('assets').selectAll().where('project_id', '=', projectId).execute();
  }

  async updateAsset(assetId: number, set: Record<string, unknown>, at: Date, db: DB = this.db): Promise<void> {
    await db
      .updateTable('assets')
      .set({ ...set, updated_at: at } as never)
      .where('id', '=', assetId)
      .execute();
  }

  /** Sets the project's version and marks it queued for analysis with `message`. */
  async markQueued(projectId: number, version: number, message: string, at: Date, db: DB = this.db): Promise<void> {
    await db
      .updateTable('projects')
      .set({ version, status: 'queued', progress: 0, status_message: message, updated_at: at })
      .where('id', '=', projectId)
      .execute();
  }
}
