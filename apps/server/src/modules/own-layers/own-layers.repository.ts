import { sql, type Transaction } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobColumn, blobOf, blobValue } from '../../infra/db/bytea.js';
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

  /** One layer's decoded pixels and grid (or, for a row stored before migration 0023, the file to decode once). */
  async pixelsOf(companyId: number, id: number) {
    const row = await this.db
      .selectFrom('own_hazard_layers')
      .select([...META, 'x0', 'y0', 'res_x', 'res_y'])
      .select([blobColumn('pixels').as('pixels'), blobColumn('data').as('data')])
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { ...row, pixels: row.pixels === null ? null : blobOf(row.pixels), data: row.data === null ? null : blobOf(row.data) };
  }

  /** A layer stored before migration 0023, decoded: its pixels and grid replace the file. */
  async storeDecoded(id: number, d: { pixels: Uint8Array; x0: number; y0: number; res_x: number; res_y: number }): Promise<void> {
    await this.db
      .updateTable('own_hazard_layers')
      .set({ ...d, pixels: blobValue(d.pixels), data: null })
      .where('id', '=', id)
      .execute();
  }

  /** Bytes a company's layers take decoded (Float32: 4 per pixel). */
  async decodedBytes(companyId: number, tx: DB | Tx = this.db): Promise<number> {
    const r = await tx
      .selectFrom('own_hazard_layers')
      .select(sql<string>`coalesce(sum(width::bigint * height * 4), 0)::text`.as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Holds the company's row until the transaction ends: one upload at a time checks and spends its layer budget. */
  async lockCompany(companyId: number, tx: Tx): Promise<void> {
    await tx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
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

  /** A new layer; `pixels` crosses the driver as base64 (infra/db/bytea.ts). */
  async insert(row: Insertable<OwnHazardLayersTable> & { pixels: Uint8Array }, tx: DB | Tx): Promise<number> {
    return (
      await tx
        .insertInto('own_hazard_layers')
        .values({ ...row, pixels: blobValue(row.pixels) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
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
