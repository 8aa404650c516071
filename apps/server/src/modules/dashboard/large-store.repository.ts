/** SQL of the dashboard store of large analyses (large-store.ts; migration 0021). */
import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobColumn, blobOf, blobValue } from '../../infra/db/bytea.js';
import { bytesOf, copyRowsOf, sqlInt, type Field } from '../../infra/db/copy-binary.js';
import { DASHBOARD_ASSET_COLUMNS } from './large-store-assets.js';

/** A builder not heard of for this long is taken over by the next process that needs the store. */
export const STALE_MS = 120_000;

export class LargeStoreRepository {
  constructor(private readonly db: DB) {}

  /** The project's current results version and hazard variables. */
  project(projectId: number) {
    return this.db.selectFrom('projects').select(['results_version', 'portfolio_variables']).where('id', '=', projectId).executeTakeFirst();
  }

  state(projectId: number, version: number) {
    return this.db
      .selectFrom('dashboard_stores')
      .select(['state', 'progress', 'message'])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  /**
   * Claims the build for `owner`: true when it is to build (the store is missing, failed, or its builder went silent).
   * The slices of an unfinished earlier attempt are deleted.
   */
  async claim(projectId: number, version: number, owner: string): Promise<boolean> {
    await this.db
      .insertInto('dashboard_stores')
      .values({ project_id: projectId, version, state: 'building', owner })
      .onConflict((oc) => oc.columns(['project_id', 'version']).doNothing())
      .execute();
    const taken = await this.db
      .updateTable('dashboard_stores')
      .set({ state: 'building', owner, progress: 0, message: null, updated_at: new Date() })
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'failed'),
          eb.and([eb('state', '=', 'building'), eb.or([eb('owner', '=', owner), eb('updated_at', '<', new Date(Date.now() - STALE_MS))])]),
        ]),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return false;
    await this.db.deleteFrom('dashboard_slices').where('project_id', '=', projectId).where('version', '=', version).execute();
    return true;
  }

  fail(projectId: number, version: number, owner: string, message: string) {
    return this.db
      .updateTable('dashboard_stores')
      .set({ state: 'failed', message: message.slice(0, 500), updated_at: new Date() })
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('owner', '=', owner)
      .execute();
  }

  progress(projectId: number, version: number, progress: number) {
    return this.db
      .updateTable('dashboard_stores')
      .set({ progress, updated_at: new Date() })
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .execute();
  }

  /**
   * Marks the store done with its aggregates, then deletes the stores of the project's earlier runs (only earlier: a
   * build of an older run that ends after a newer one's must not delete the newer store).
   */
  async finish(projectId: number, version: number, assets: number, aggregates: Uint8Array): Promise<void> {
    await this.db
      .updateTable('dashboard_stores')
      .set({ state: 'done', progress: 1, assets, aggregates: blobValue(aggregates), updated_at: new Date() })
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .execute();
    await this.db.deleteFrom('dashboard_slices').where('project_id', '=', projectId).where('version', '<', version).execute();
    await this.db.deleteFrom('dashboard_stores').where('project_id', '=', projectId).where('version', '<', version).execute();
  }

  /** Each lower-case property type ('na' for none) and its number of assets, most frequent first. */
  propertyTypes(projectId: number) {
    const t = sql<string>`lower(coalesce(property_type, 'NA'))`;
    return this.db
      .selectFrom('assets')
      .select([t.as('t'), sql<number>`count(*)::int`.as('n')])
      .where('project_id', '=', projectId)
      .groupBy(t)
      .orderBy('n', 'desc')
      .orderBy('t')
      .execute();
  }

  /** Up to `limit` stored chunks of run `version` after chunk start `after`, in order, with their blobs. */
  async chunksAfter(projectId: number, version: number, after: number, limit: number) {
    const rows = await this.db
      .selectFrom('analysis_chunks')
      .select(['chunk_start', 'chunk_count', blobColumn('data').as('data')])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('chunk_start', '>', after)
      .orderBy('chunk_start')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ start: r.chunk_start, count: r.chunk_count, data: blobOf(r.data) }));
  }

  /** The assets at positions [start, start + count), in order. */
  assetsAt(projectId: number, start: number, count: number) {
    return this.db
      .selectFrom('assets')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('position', '>=', start)
      .where('position', '<', start + count)
      .orderBy('position')
      .execute();
  }

  /** The dashboard's columns (large-store-assets.ts) of up to `limit` assets of a project after position `after`, in order. */
  dashboardAssetsAfter(projectId: number, after: number, limit: number) {
    return this.db
      .selectFrom('assets')
      .select(['position', ...DASHBOARD_ASSET_COLUMNS])
      .where('project_id', '=', projectId)
      .where('position', '>', after)
      .orderBy('position')
      .limit(limit)
      .execute();
  }

  /** One row of a job and batch. */
  async insertSlice(projectId: number, version: number, job: number, batch: { start: number; count: number }, data: Uint8Array): Promise<void> {
    await this.db
      .insertInto('dashboard_slices')
      .values({ project_id: projectId, version, job, batch_start: batch.start, batch_count: batch.count, data: blobValue(data) })
      .execute();
  }

  /** One batch's slices, job j = index in `slices`, a few per statement (58 bytes an asset each: about 460 kB for 8,000 assets). */
  async insertSlices(projectId: number, version: number, batch: { start: number; count: number }, slices: Uint8Array[]): Promise<void> {
    for (let j0 = 0; j0 < slices.length; j0 += 12) {
      await this.db
        .insertInto('dashboard_slices')
        .values(
          slices
            .slice(j0, j0 + 12)
            .map((data, k) => ({ project_id: projectId, version, job: j0 + k, batch_start: batch.start, batch_count: batch.count, data: blobValue(data) })),
        )
        .execute();
    }
  }

  async aggregates(projectId: number, version: number): Promise<Buffer> {
    const row = await this.db
      .selectFrom('dashboard_stores')
      .select([blobColumn('aggregates').as('data')])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('state', '=', 'done')
      .executeTakeFirstOrThrow();
    return blobOf(row.data);
  }

  /** Up to `limit` slices of one job after batch start `after`, in order (on PostgreSQL by a binary COPY: copy-binary.ts). */
  async slicesAfter(projectId: number, version: number, job: number, after: number, limit: number): Promise<{ start: number; count: number; data: Field }[]> {
    const copy = copyRowsOf(this.db);
    if (copy) {
      const rows = await copy(
        `select batch_start, batch_count, data from dashboard_slices where project_id = ${sqlInt(projectId)} and version = ${sqlInt(version)} ` +
          `and job = ${sqlInt(job)} and batch_start > ${sqlInt(after)} order by batch_start limit ${sqlInt(limit)}`,
      );
      const int = (f: Field | null | undefined) => {
        const b = bytesOf(f!);
        return new DataView(b.buffer, b.byteOffset, 4).getInt32(0);
      };
      return rows.map(([start, count, data]) => ({ start: int(start), count: int(count), data: data! }));
    }
    const rows = await this.db
      .selectFrom('dashboard_slices')
      .select(['batch_start', 'batch_count', blobColumn('data').as('data')])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('job', '=', job)
      .where('batch_start', '>', after)
      .orderBy('batch_start')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ start: r.batch_start, count: r.batch_count, data: [blobOf(r.data)] }));
  }
}
