import type { Transaction } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { visibleProjects } from '../access/project-access.repository.js';
import type { Database } from '../../infra/db/schema.js';
type Tx = Transaction<Database>;
import type { MapProjectsTable } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { iso } from '../accounts/user.presenter.js';

export interface NewMapProject {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  distance_km: number;
  variable: MapProjectsTable['variable'];
  duration_data: string[];
  country_code: string | null;
  subregion: string | null;
}

/** Map projects: a `projects` row of kind 'map' plus its `map_projects` row. */
export class MapRepository {
  constructor(private readonly db: DB) {}

  async nameTaken(ownerId: number, name: string, tx: DB | Tx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'map')
      .where('name_lower', '=', name.toLowerCase())
      .executeTakeFirst();
    return !!row;
  }

  async insert(caller: AuthUser, m: NewMapProject, tx: DB | Tx): Promise<number> {
    const p = await tx
      .insertInto('projects')
      .values({
        company_id: caller.companyId,
        owner_id: caller.id,
        kind: 'map',
        name: m.name,
        name_lower: m.name.toLowerCase(),
        portfolio_variables: JSON.stringify([m.variable]),
        non_building_variables: JSON.stringify({ energy: [], agriculture: [] }),
        base_unit: 'meter',
        base_currency: 'USD',
        source: 'map',
        is_benchmark: false,
        ticker: null,
        index_name: null,
        default_filters: JSON.stringify({ analysis_type: 'ssp', scenario: '85', year: 2050 }),
        status: 'done',
        progress: 1,
        status_message: null,
        version: 1,
        analysed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('map_projects')
      .values({
        project_id: p.id,
        address: m.address,
        latitude: m.latitude,
        longitude: m.longitude,
        distance_km: m.distance_km,
        variable: m.variable,
        duration_data: JSON.stringify(m.duration_data),
        country_code: m.country_code,
        subregion: m.subregion,
      })
      .execute();
    return p.id;
  }

  async byProjectId(projectId: number) {
    return this.db.selectFrom('map_projects').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  }

  /** Map projects the caller owns or that were shared with them, newest first. */
  async list(caller: AuthUser) {
    const rows = await visibleProjects(this.db, caller, 'map')
      .innerJoin('map_projects as m', 'm.project_id', 'p.id')
      .select(['p.id', 'p.name', 'p.created_at', 'p.owner_id', 'm.distance_km', 'm.variable', 'm.address', 's.permission'])
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .execute();
    return rows.map((r) => ({
      project_id: r.id,
      name: r.name,
      created_at: iso(r.created_at),
      distance: r.distance_km,
      portfolio_variable: r.variable,
      address: r.address,
      permission: r.owner_id === caller.id ? ('owner' as const) : (r.permission ?? 'read'),
    }));
  }
}
