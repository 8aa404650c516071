import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { visibleProjects } from '../access/project-access.repository.js';
import type { AssetRow, ProjectRow } from '../../infra/db/schema.js';

export interface NewPropertySite {
  name: string;
  latitude: number;
  longitude: number;
  country_code: string | null;
  attributes: Record<string, unknown>;
  min_distance_km: number;
  max_distance_km: number;
}

export interface PropertySiteRow {
  asset: AssetRow;
  min_distance_km: number;
  max_distance_km: number;
  result: Record<string, unknown> | null;
}

/** SQL for real-estate (property-risk) projects: projects of kind 'realestate', their assets and rings. No rules here. */
export class RealEstateRepository {
  constructor(private readonly db: DB) {}

  ownedByName(db: DB, ownerId: number, name: string): Promise<ProjectRow | undefined> {
    return db
      .selectFrom('projects')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'realestate')
      .where('name_lower', '=', name.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
  }

  async createProject(
    db: DB,
    p: { companyId: number; ownerId: number; name: string; filters: { analysis_type: string; scenario: string; year: number } },
  ): Promise<ProjectRow> {
    return db
      .insertInto('projects')
      .values({
        company_id: p.companyId,
        owner_id: p.ownerId,
        kind: 'realestate',
        name: p.name,
        name_lower: p.name.toLowerCase(),
        portfolio_variables: JSON.stringify(['River Flood', 'Typhoon']),
        non_building_variables: JSON.stringify({ energy: [], agriculture: [] }),
        base_unit: 'meter',
        base_currency: 'USD',
        source: 'realestate',
        is_benchmark: false,
        ticker: null,
        index_name: null,
        default_filters: JSON.stringify(p.filters),
        status: 'queued',
        progress: 0,
        status_message: 'Waiting for property-risk computation',
        version: 1,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Empties an existing project for an overwrite and bumps its version (a running job of the old version stops). */
  async resetProject(db: DB, project: ProjectRow, filters: { analysis_type: string; scenario: string; year: number }): Promise<ProjectRow> {
    await db.deleteFrom('assets').where('project_id', '=', project.id).execute();
    return db
      .updateTable('projects')
      .set({
        default_filters: JSON.stringify(filters),
        status: 'queued',
        progress: 0,
        status_message: 'Waiting for property-risk computation',
        version: project.version + 1,
        updated_at: new Date(),
        analysed_at: null,
      })
      .where('id', '=', project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async insertSites(db: DB, projectId: number, sites: NewPropertySite[]): Promise<void> {
    for (let i = 0; i < sites.length; i += 1000) {
      const slice = sites.slice(i, i + 1000);
      const rows = await db
        .insertInto('assets')
        .values(
          slice.map((s, j) => ({
            project_id: projectId,
            position: i + j,
            name: s.name,
            latitude: s.latitude,
            longitude: s.longitude,
            country_code: s.country_code,
            ...s.attributes,
          })) as never,
        )
        .returning(['id', 'position'])
        .execute();
      rows.sort((a, b) => a.position - b.position);
      await db
        .insertInto('property_risk_sites')
        .values(
          rows.map((r, j) => ({
            asset_id: r.id,
            project_id: projectId,
            min_distance_km: slice[j]!.min_distance_km,
            max_distance_km: slice[j]!.max_distance_km,
            result: null,
            computed_at: null,
          })),
        )
        .execute();
    }
  }

  async sites(projectId: number, db: DB = this.db): Promise<PropertySiteRow[]> {
    const assets = await db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
    const rings = await db.selectFrom('property_risk_sites').selectAll().where('project_id', '=', projectId).execute();
    const byAsset = new Map(rings.map((r) => [r.asset_id, r]));
    return assets.flatMap((asset) => {
      const r = byAsset.get(asset.id);
      return r
        ? [{ asset, min_distance_km: r.min_distance_km, max_distance_km: r.max_distance_km, result: (r.result as Record<string, unknown> | null) ?? null }]
        : [];
    });
  }

  async saveResults(db: DB, results: { assetId: number; result: Record<string, unknown> }[]): Promise<void> {
    const now = new Date();
    for (const r of results)
      await db
        .updateTable('property_risk_sites')
        .set({ result: JSON.stringify(r.result), computed_at: now })
        .where('asset_id', '=', r.assetId)
        .execute();
  }

  /** Property-risk projects the user owns or that were shared with them, newest first, with their location counts. */
  visibleTo(userId: number, companyId: number) {
    return visibleProjects(this.db, { id: userId, companyId }, 'realestate')
      .select([
        'p.id',
        'p.name',
        'p.status',
        'p.created_at',
        'p.owner_id',
        sql<number>`(select count(*)::int from assets a where a.project_id = p.id)`.as('properties'),
      ])
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .execute();
  }

  /** The project's version and analysis filters, if it still exists. */
  projectForJob(projectId: number, db: DB = this.db) {
    return db.selectFrom('projects').select(['id', 'version', 'default_filters']).where('id', '=', projectId).executeTakeFirst();
  }

  /** The project's version, its row locked until the transaction ends (undefined when it was deleted). */
  async lockVersion(projectId: number, db: DB): Promise<number | undefined> {
    return (await db.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst())?.version;
  }

  setStatus(projectId: number, fields: Partial<Pick<ProjectRow, 'status' | 'progress' | 'status_message' | 'analysed_at'>>, db: DB = this.db) {
    return db.updateTable('projects').set(fields).where('id', '=', projectId).execute();
  }
}
