import { sql, type Insertable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow, ProjectsTable } from '../../infra/db/schema.js';
import { ASSET_ATTRIBUTE_COLUMNS, type ImportedAsset } from './asset-import.js';

/** SQL of a physical project's creation, its adding to and overwriting; every function runs on the caller's `tx`. */

const ASSET_COLUMNS = [...ASSET_ATTRIBUTE_COLUMNS, 'country_code'] as const;

/** The owner's physical project of that name (lower case), its row locked until the transaction ends. */
export function lockOwnedPhysicalByName(tx: DB, ownerId: number, nameLower: string) {
  return tx
    .selectFrom('projects')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'physical')
    .where('name_lower', '=', nameLower)
    .forUpdate()
    .executeTakeFirst();
}

/** The number of the project's assets and their highest position (-1 without assets). */
export function assetCountAndMaxPosition(tx: DB, projectId: number) {
  return tx
    .selectFrom('assets')
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(max(position), -1)::int`.as('max')])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
}

export function assetNames(tx: DB, projectId: number) {
  return tx.selectFrom('assets').select('name').where('project_id', '=', projectId).execute();
}

export async function deleteAllAssets(tx: DB, projectId: number): Promise<void> {
  await tx.deleteFrom('assets').where('project_id', '=', projectId).execute();
}

/** A new version of the project, queued, with its variables (non-building ones only when sent). */
export function renewProject(tx: DB, existing: ProjectRow, variables: string[], nonBuilding: unknown): Promise<ProjectRow> {
  return tx
    .updateTable('projects')
    .set({
      portfolio_variables: JSON.stringify(variables),
      ...(nonBuilding ? { non_building_variables: JSON.stringify(nonBuilding) } : {}),
      status: 'queued',
      progress: 0,
      status_message: 'Waiting for analysis',
      version: existing.version + 1,
      updated_at: new Date(),
    })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertProject(tx: DB, values: Insertable<ProjectsTable>): Promise<ProjectRow> {
  return tx.insertInto('projects').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Columns of `assets` that insertAssets fills from ImportedAsset as text; the others are double precision. */
const TEXT_COLUMNS = new Set<string>(['name', 'property_type', 'country_code', 'construction']);

/**
 * Asset rows per INSERT. A batch goes as one array per column (INSERT ... SELECT FROM unnest(...)): the statement
 * text stays short whatever the batch size, so PostgreSQL parses and plans it once per batch instead of a VALUES list
 * of 18,000 parameters per 1,000 rows (issue 22). 2,000 rows keep each statement short enough on PGlite, which runs
 * it on the event loop (~50 ms); on a PostgreSQL server 10,000 were no faster.
 */
const INSERT_BATCH_ROWS = 2_000;

/**
 * A PostgreSQL array literal of one column's values, as the pg driver would write a JS array: text quoted with `"`
 * and `\` escaped, null as NULL, a number as String(n) (the text a scalar parameter sends, so the stored double is
 * the same). Sent as one text parameter and cast in SQL, which reads the same on PostgreSQL and PGlite.
 */
function arrayLiteral(values: unknown[], text: boolean): string {
  const parts = new Array<string>(values.length);
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v === null || v === undefined) parts[k] = 'NULL';
    else if (text) parts[k] = `"${String(v).replace(/[\\"]/g, '\\$&')}"`;
    else parts[k] = String(v);
  }
  return `{${parts.join(',')}}`;
}

/** The INSERT of one batch: a column that no row of the batch fills is left out (null, the column's default). */
function batchInsert(projectId: number, firstPosition: number, batch: ImportedAsset[]) {
  const names: string[] = ['name', 'latitude', 'longitude'];
  for (const c of ASSET_COLUMNS) if (batch.some((a) => (a as Record<string, unknown>)[c] != null)) names.push(c);
  const arrays = names.map((c) => {
    const literal = arrayLiteral(
      batch.map((a) => (a as Record<string, unknown>)[c]),
      TEXT_COLUMNS.has(c),
    );
    return sql`${literal}::text::${sql.raw(TEXT_COLUMNS.has(c) ? 'text[]' : 'float8[]')}`;
  });
  const aliases = names.map((_, k) => sql.raw(`c${k}`));
  return sql`insert into assets (project_id, position, ${sql.join(names.map((c) => sql.ref(c)))})
    select ${projectId}::int, ${firstPosition}::int + (t.ord::int - 1), ${sql.join(aliases.map((a) => sql`t.${a}`))}
    from unnest(${sql.join(arrays)}) with ordinality as t(${sql.join(aliases)}, ord)`;
}

/**
 * Inserts a project's assets in the caller's transaction, INSERT_BATCH_ROWS rows per statement (issue 22). The next
 * batch is built while the database stores the previous one, and the event loop gets a turn between batches (a large
 * upload does not hold other requests' turns). Rows are built per batch, so the upload is never held twice in memory.
 */
export async function insertAssets(tx: DB, projectId: number, startPosition: number, assets: ImportedAsset[]): Promise<void> {
  let pending: Promise<unknown> | null = null;
  for (let i = 0; i < assets.length; i += INSERT_BATCH_ROWS) {
    const query = batchInsert(projectId, startPosition + i, assets.slice(i, i + INSERT_BATCH_ROWS));
    if (pending) await pending;
    pending = query.execute(tx);
    // Handled when awaited above or below; this only keeps a failure meanwhile from counting as unhandled.
    pending.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
  }
  await pending;
}
