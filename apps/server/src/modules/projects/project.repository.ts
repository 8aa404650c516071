import { sql, type Insertable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow, ProjectsTable } from '../../infra/db/schema.js';
import { ASSET_ATTRIBUTE_COLUMNS, type ImportedAsset } from './asset-import.js';

/** SQL of a physical project's creation, its adding to and overwriting; every function runs on the caller's `tx`. */

const ASSET_COLUMNS = [...ASSET_ATTRIBUTE_COLUMNS, 'country_code'] as const;

/** Asset rows per INSERT: 18 columns x 1,000 rows stays far under a statement's 65,535 parameters. */
const INSERT_ROWS = 1_000;

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

/**
 * Inserts a project's assets in the caller's transaction, a multi-row INSERT of INSERT_ROWS rows at a time with a turn
 * of the event loop after each (a large upload does not hold other requests' turns; issue 22). Rows are built per
 * batch, so the whole upload is never held twice in memory.
 */
export async function insertAssets(tx: DB, projectId: number, startPosition: number, assets: ImportedAsset[]): Promise<void> {
  for (let i = 0; i < assets.length; i += INSERT_ROWS) {
    const rows = assets.slice(i, i + INSERT_ROWS).map((a, k) => {
      const r: Record<string, unknown> = { project_id: projectId, position: startPosition + i + k, name: a.name, latitude: a.latitude, longitude: a.longitude };
      for (const c of ASSET_COLUMNS) r[c] = (a as Record<string, unknown>)[c] ?? null;
      return r;
    });
    await tx
      .insertInto('assets')
      .values(rows as never)
      .execute();
    await new Promise((r) => setImmediate(r));
  }
}
