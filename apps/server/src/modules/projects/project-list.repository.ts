import { sql } from 'kysely';
import type { DefaultFilters, SharePermission } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import { visibleProjects, type Viewer } from '../access/project-access.repository.js';

/** SQL of the project list, renaming, deleting, default filters and sharing. */
export class ProjectListRepository {
  constructor(private readonly db: DB) {}

  /** Physical projects the viewer owns or that were shared with them, newest first, with owner name and share. */
  physicalProjects(viewer: Viewer) {
    return visibleProjects(this.db, viewer, 'physical')
      .innerJoin('users as o', 'o.id', 'p.owner_id')
      .selectAll('p')
      .select(['o.username as owner_username', 's.permission as share_permission'])
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .execute();
  }

  /** Who each of the projects is shared with, by user name. */
  async sharesOf(projectIds: number[]) {
    if (!projectIds.length) return [];
    return this.db
      .selectFrom('project_shares as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.project_id', 's.user_id', 'u.username', 's.permission'])
      .where('s.project_id', 'in', projectIds)
      .orderBy('u.username')
      .execute();
  }

  /** Active colleagues of the viewer (the people a project can be shared with). */
  colleagues(viewer: Viewer) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'first_name', 'last_name'])
      .where('company_id', '=', viewer.companyId)
      .where('status', '=', 'active')
      .where('id', '!=', viewer.id)
      .orderBy('username')
      .execute();
  }

  /** Names of the viewer's visible projects of one kind, newest first. */
  names(viewer: Viewer, kind: ProjectRow['kind']) {
    return visibleProjects(this.db, viewer, kind).select(['p.id', 'p.name', 'p.created_at']).orderBy('p.created_at', 'desc').execute();
  }

  /** The number of assets of each project (projects without assets are absent). */
  async assetCounts(projectIds: readonly number[]): Promise<Map<number, number>> {
    if (!projectIds.length) return new Map();
    const rows = await this.db
      .selectFrom('assets')
      .select(['project_id', sql<number>`count(*)::int`.as('n')])
      .where('project_id', 'in', projectIds)
      .groupBy('project_id')
      .execute();
    return new Map(rows.map((r) => [r.project_id, r.n]));
  }

  /** Whether the owner already has a project of `kind` named `name` (case-insensitive). */
  async ownerHasName(ownerId: number, kind: ProjectRow['kind'], name: string): Promise<boolean> {
    const clash = await this.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .where('name_lower', '=', name.toLowerCase())
      .executeTakeFirst();
    return !!clash;
  }

  async rename(projectId: number, name: string): Promise<void> {
    await this.db.updateTable('projects').set({ name, name_lower: name.toLowerCase(), updated_at: new Date() }).where('id', '=', projectId).execute();
  }

  async deleteProject(projectId: number, db: DB = this.db): Promise<void> {
    await db.deleteFrom('projects').where('id', '=', projectId).execute();
  }

  async setProjectFilters(projectId: number, filters: DefaultFilters): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ default_filters: JSON.stringify(filters) })
      .where('id', '=', projectId)
      .execute();
  }

  async setUserFilters(userId: number, filters: DefaultFilters): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ default_filters: JSON.stringify(filters) })
      .where('id', '=', userId)
      .execute();
  }

  /** Active users of the company among the ids and (lower-case) user names given. */
  activeUsers(companyId: number, ids: number[], namesLower: string[]) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'username_lower'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'active')
      .where((eb) =>
        eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(namesLower.length ? [eb('username_lower', 'in', namesLower)] : []), eb.val(false)]),
      )
      .execute();
  }

  /** Shares the project with a user (or changes the permission of an existing share) and tells them. */
  async share(
    db: DB,
    share: { projectId: number; userId: number; permission: SharePermission; sharedBy: number },
    notice: { title: string; message: string },
  ): Promise<void> {
    const { projectId, userId, permission, sharedBy } = share;
    await db
      .insertInto('project_shares')
      .values({ project_id: projectId, user_id: userId, permission, shared_by: sharedBy })
      .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ permission, shared_by: sharedBy }))
      .execute();
    await db
      .insertInto('notifications')
      .values({ user_id: userId, title: notice.title, message: notice.message, notification_type: 'info', link: '/project' })
      .execute();
  }

  async unshare(projectId: number, userId: number): Promise<void> {
    await this.db.deleteFrom('project_shares').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }
}
