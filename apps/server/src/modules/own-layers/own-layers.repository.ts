import { sql, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { Database, OwnHazardLayersTable } from '../../infra/db/schema.js';
import type { Insertable } from 'kysely';

type Tx = Transaction<Database>;
/** Every column but the raster bytes: what lists and presenters need. */
const META = [
  'id',
  'company_id',
  'hazard',
  'scenario',
  'year',
  'return_period_years',
  'unit',
  'label',
  'source',
  'filename',
  'bytes',
  'sha256',
  'crs',
  'width',
  'height',
  'west',
  'south',
  'east',
  'north',
  'resolution_km',
  'valid_pixels',
  'value_min',
  'value_max',
  'uploaded_by',
  'created_at',
] as const;

/** Own hazard layers (migration 0018): SQL only. */
export class OwnLayersRepository {
  constructor(private readonly db: DB) {}

  /** A company's layers without their bytes, with the uploader's username, oldest first. */
  async list(companyId: number) {
    return this.db
      .selectFrom('own_hazard_layers as l')
      .leftJoin('users as u', 'u.id', 'l.uploaded_by')
      .select(META.map((c) => `l.${c}` as const))
      .select('u.username as uploaded_by_username')
      .where('l.company_id', '=', companyId)
      .orderBy('l.id')
      .execute();
  }

  /** Ids and upload times of a company's layers: a cheap check whether a cached registry is current. */
  async signature(companyId: number): Promise<{ id: number; created_at: Date | string }[]> {
    return this.db.selectFrom('own_hazard_layers').select(['id', 'created_at']).where('company_id', '=', companyId).orderBy('id').execute();
  }

  async withData(companyId: number, ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.selectFrom('own_hazard_layers').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).orderBy('id').execute();
  }

  async count(companyId: number, tx: DB | Tx = this.db): Promise<number> {
    const r = await tx
      .selectFrom('own_hazard_layers')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  async sameKey(companyId: number, k: Pick<OwnHazardLayersTable, 'hazard' | 'scenario' | 'year' | 'return_period_years'>, tx: DB | Tx = this.db) {
    return tx
      .selectFrom('own_hazard_layers')
      .select(['id', 'label'])
      .where('company_id', '=', companyId)
      .where('hazard', '=', k.hazard)
      .where(sql<boolean>`coalesce(scenario, 'any') = ${k.scenario ?? 'any'}`)
      .where(sql<boolean>`coalesce(year, 0) = ${k.year ?? 0}`)
      .where(sql<boolean>`coalesce(return_period_years, 0) = ${k.return_period_years ?? 0}`)
      .executeTakeFirst();
  }

  async insert(row: Insertable<OwnHazardLayersTable>, tx: DB | Tx): Promise<number> {
    return (await tx.insertInto('own_hazard_layers').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async delete(companyId: number, id: number, tx: DB | Tx): Promise<{ id: number; label: string; hazard: string } | undefined> {
    return tx.deleteFrom('own_hazard_layers').where('company_id', '=', companyId).where('id', '=', id).returning(['id', 'label', 'hazard']).executeTakeFirst();
  }

  /** The company's physical portfolios with assets, to re-analyse after its layers change. */
  async physicalProjects(companyId: number, tx: DB | Tx) {
    return tx
      .selectFrom('projects')
      .select(['id', 'version'])
      .where('company_id', '=', companyId)
      .where('kind', '=', 'physical')
      .where(({ exists, selectFrom }) => exists(selectFrom('assets').select('assets.id').whereRef('assets.project_id', '=', 'projects.id')))
      .forUpdate()
      .execute();
  }

  /** Sets a project's version and marks it queued for analysis with `message`. */
  async queueProject(projectId: number, version: number, message: string, tx: DB | Tx): Promise<void> {
    await tx
      .updateTable('projects')
      .set({ version, status: 'queued', progress: 0, status_message: message, updated_at: new Date() })
      .where('id', '=', projectId)
      .execute();
  }

  async companyOfProject(projectId: number): Promise<number | undefined> {
    return (await this.db.selectFrom('projects').select('company_id').where('id', '=', projectId).executeTakeFirst())?.company_id;
  }
}
