import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';

/** Who asks: a user of a company (an AuthUser, or the ids a repository was given). */
export interface Viewer {
  id: number;
  companyId: number;
}

/**
 * "Projects I own or that are shared with me", written once: projects `p` of the viewer's company (of one kind when
 * given) that the viewer owns or that were shared with them, with their share row `s` (null for their own projects).
 * Callers add their own columns, joins and order; `s.permission` is the share's permission.
 */
export function visibleProjects(db: DB, viewer: Viewer, kind?: ProjectRow['kind']) {
  const q = db
    .selectFrom('projects as p')
    .leftJoin('project_shares as s', (j) => j.onRef('s.project_id', '=', 'p.id').on('s.user_id', '=', viewer.id))
    .where('p.company_id', '=', viewer.companyId)
    .where((eb) => eb.or([eb('p.owner_id', '=', viewer.id), eb('s.user_id', '=', viewer.id)]));
  return kind === undefined ? q : q.where('p.kind', '=', kind);
}

/** SQL of the access policy: a project, a share, a visible project by name. */
export class ProjectAccessRepository {
  constructor(private readonly db: DB) {}

  project(projectId: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  }

  share(projectId: number, userId: number) {
    return this.db.selectFrom('project_shares').select('permission').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** The id of a visible project of `kind` named `name` (case-insensitive), the viewer's own first. */
  async visibleIdByName(viewer: Viewer, name: string, kind: ProjectRow['kind']): Promise<number | undefined> {
    const row = await visibleProjects(this.db, viewer, kind)
      .select('p.id')
      .where('p.name_lower', '=', name.toLowerCase())
      .orderBy(sql`case when p.owner_id = ${viewer.id} then 0 else 1 end`)
      .executeTakeFirst();
    return row?.id;
  }

  /** The project and position of a named asset in a visible project named `projectName` (any kind). */
  visibleAssetByName(viewer: Viewer, projectName: string, assetName: string) {
    return visibleProjects(this.db, viewer)
      .innerJoin('assets as a', 'a.project_id', 'p.id')
      .selectAll('a')
      .where('p.name_lower', '=', projectName.toLowerCase())
      .where('a.name', '=', assetName)
      .executeTakeFirst();
  }

  asset(projectId: number, assetId: number) {
    return this.db
      .selectFrom('assets')
      .select(['id', 'name', 'project_id', 'latitude', 'longitude'])
      .where('id', '=', assetId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }
}
