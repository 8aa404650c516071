import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobColumn, blobOf } from '../../infra/db/bytea.js';
import type { AssetRow } from '../../infra/db/schema.js';

/** SQL of the results API: counts, the asset ids' positions, and a project's stored analysis one chunk at a time. */
export class ResultsRepository {
  constructor(private readonly db: DB) {}

  /** The number of assets of the project, counted in SQL. */
  async assetCount(projectId: number): Promise<number> {
    const n = await this.db
      .selectFrom('assets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(n.n);
  }

  /** The analysis run whose rows are read (null: none finished yet), with the project's status. */
  async run(projectId: number) {
    return this.db.selectFrom('projects').select(['status', 'status_message', 'results_version']).where('id', '=', projectId).executeTakeFirstOrThrow();
  }

  /** Ordinal (0-based place in position order: the rows' asset_index) of each of `ids` that the project has. */
  async ordinalsOf(projectId: number, ids: readonly number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(
        this.db
          .selectFrom('assets')
          .select(['id', sql<number>`(row_number() over (order by position) - 1)::int`.as('ord')])
          .where('project_id', '=', projectId)
          .as('t'),
      )
      .select(['t.id', 't.ord'])
      .where('t.id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [Number(r.id), Number(r.ord)]));
  }

  /** The stored chunks of run `version` (start and count, no data), in asset order. */
  chunkList(projectId: number, version: number) {
    return this.db
      .selectFrom('analysis_chunks')
      .select(['chunk_start', 'chunk_count'])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .orderBy('chunk_start')
      .execute();
  }

  /** One stored chunk's blob. */
  async chunkBlob(projectId: number, version: number, chunkStart: number): Promise<Buffer | null> {
    const row = await this.db
      .selectFrom('analysis_chunks')
      .select(blobColumn('data').as('data'))
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('chunk_start', '=', chunkStart)
      .executeTakeFirst();
    return row ? blobOf(row.data) : null;
  }

  /**
   * `count` assets in position order from ordinal `from`: after position `afterPosition` when the caller read the
   * ordinals before (keyset, cheap on a large project), else by offset.
   */
  assetsFrom(projectId: number, from: number, count: number, afterPosition: number | null): Promise<AssetRow[]> {
    const q = this.db.selectFrom('assets').selectAll().where('project_id', '=', projectId);
    if (afterPosition !== null) return q.where('position', '>', afterPosition).orderBy('position').limit(count).execute();
    return q.orderBy('position').limit(count).offset(from).execute();
  }
}
