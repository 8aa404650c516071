import { sql, type Insertable, type Updateable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobColumn } from '../../infra/db/bytea.js';
import type { AnalysisPartsTable, AnalysisRunsTable, AssetRow } from '../../infra/db/schema.js';

/**
 * SQL of the portfolio analysis jobs (analysis.jobs.ts): the project's status, its runs and parts, and the reads of its
 * assets. Every function runs on the executor it is given, the caller's transaction `tx` where there is one.
 */

/** A part of a run: the row of analysis_parts. */
export interface PartKey {
  projectId: number;
  version: number;
  part: number;
}

/** Marks the project failed with `message` (only at `version` when given). */
export async function markProjectFailed(db: DB, projectId: number, message: string, version?: number): Promise<void> {
  let q = db.updateTable('projects').set({ status: 'failed', status_message: message }).where('id', '=', projectId);
  if (version !== undefined) q = q.where('version', '=', version);
  await q.execute();
}

export function projectToAnalyse(db: DB, projectId: number) {
  return db
    .selectFrom('projects')
    .select(['id', 'version', 'portfolio_variables', 'default_filters', 'results_version'])
    .where('id', '=', projectId)
    .executeTakeFirst();
}

/** The project's version, unlocked. */
export function projectVersion(db: DB, projectId: number) {
  return db.selectFrom('projects').select(['version']).where('id', '=', projectId).executeTakeFirst();
}

/** The project's version, its row locked until the transaction ends; undefined when it was deleted. */
export function lockProjectVersion(tx: DB, projectId: number) {
  return tx.selectFrom('projects').select('version').where('id', '=', projectId).forUpdate().executeTakeFirst();
}

export async function markProjectRunning(db: DB, projectId: number, message: string): Promise<void> {
  await db.updateTable('projects').set({ status: 'running', progress: 0, status_message: message }).where('id', '=', projectId).execute();
}

export async function setProjectProgress(db: DB, projectId: number, progress: number, message: string): Promise<void> {
  await db.updateTable('projects').set({ progress, status_message: message }).where('id', '=', projectId).execute();
}

/** Raises a running project's progress at `version`. */
export async function raiseProjectProgress(db: DB, projectId: number, version: number, progress: number, message: string): Promise<void> {
  await db
    .updateTable('projects')
    // greatest(): parts report concurrently and a retried part starts again from 0; progress only goes forward.
    .set({ progress: sql<number>`greatest(progress, ${progress})`, status_message: message })
    .where('id', '=', projectId)
    .where('version', '=', version)
    .where('status', '=', 'running')
    .execute();
}

export async function countAssets(db: DB, projectId: number): Promise<number> {
  return (
    await db
      .selectFrom('assets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
  ).n;
}

/** `count` assets in position order from the `from`-th. */
export function assetsSlice(db: DB, projectId: number, from: number, count: number) {
  return db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').limit(count).offset(from).execute();
}

/** Page size when reading a project's assets (each page one query, so requests interleave on a large project). */
const READ_PAGE = 5_000;

/** A project's assets in position order, read page by page (keyset on position) with a turn of the event loop between. */
export async function readAssets(db: DB, projectId: number): Promise<AssetRow[]> {
  const out: AssetRow[] = [];
  let after = -1;
  for (;;) {
    const page = await db
      .selectFrom('assets')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('position', '>', after)
      .orderBy('position')
      .limit(READ_PAGE)
      .execute();
    for (const r of page) out.push(r);
    if (page.length < READ_PAGE) return out;
    after = page[page.length - 1]!.position;
    await new Promise((r) => setImmediate(r));
  }
}

/** The stored chunks of run `version`. */
export function runChunks(db: DB, projectId: number, version: number) {
  return db
    .selectFrom('analysis_chunks')
    .select(['chunk_start', 'chunk_count', blobColumn('data').as('data'), 'worker_id', 'part'])
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .execute();
}

export function runOf(db: DB, projectId: number, version: number) {
  return db.selectFrom('analysis_runs').select(['version', 'parts']).where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
}

/** The run's version when it exists (a planned or streamed run). */
export function runVersion(db: DB, projectId: number, version: number) {
  return db.selectFrom('analysis_runs').select('version').where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
}

export function runFinishedAt(db: DB, projectId: number, version: number) {
  return db.selectFrom('analysis_runs').select(['finished_at']).where('project_id', '=', projectId).where('version', '=', version).executeTakeFirst();
}

/** The run's row, locked until the transaction ends. */
export function lockRun(tx: DB, projectId: number, version: number) {
  return tx
    .selectFrom('analysis_runs')
    .select(['finished_at', 'total_assets'])
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .forUpdate()
    .executeTakeFirst();
}

export async function deleteRun(db: DB, projectId: number, version: number): Promise<void> {
  await db.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '=', version).execute();
}

/** Deletes the project's runs older than `version`. */
export async function deleteRunsBefore(tx: DB, projectId: number, version: number): Promise<void> {
  await tx.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '<', version).execute();
}

/** Deletes the project's runs other than `version`. */
export async function deleteOtherRuns(tx: DB, projectId: number, version: number): Promise<void> {
  await tx.deleteFrom('analysis_runs').where('project_id', '=', projectId).where('version', '<>', version).execute();
}

export async function insertRun(db: DB, values: Insertable<AnalysisRunsTable>): Promise<void> {
  await db.insertInto('analysis_runs').values(values).execute();
}

export async function insertPart(tx: DB, values: Insertable<AnalysisPartsTable>): Promise<void> {
  await tx.insertInto('analysis_parts').values(values).execute();
}

/** Narrows a query on analysis_parts to the row of part `p`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely query builder with a where(); their where() overloads have no common typed signature
function partQuery<Q extends { where: (...a: any[]) => Q }>(q: Q, p: PartKey): Q {
  return q.where('project_id', '=', p.projectId).where('version', '=', p.version).where('part', '=', p.part);
}

export async function updatePart(db: DB, p: PartKey, values: Updateable<AnalysisPartsTable>): Promise<void> {
  await partQuery(db.updateTable('analysis_parts').set(values), p).execute();
}

/** Sets a part's analysed assets (its own where clause: project, version, part). */
export async function setPartAssetsDone(db: DB, projectId: number, version: number, part: number, done: number): Promise<void> {
  await db
    .updateTable('analysis_parts')
    .set({ assets_done: done })
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .where('part', '=', part)
    .execute();
}

/** The run's parts not done yet. */
export async function partsLeft(tx: DB, projectId: number, version: number): Promise<number> {
  const left = await tx
    .selectFrom('analysis_parts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .where('status', '<>', 'done')
    .executeTakeFirstOrThrow();
  return left.n;
}

/** Kept chunks plus every part's analysed assets, and the project's assets, of run `version`. */
export async function runProgress(db: DB, projectId: number, version: number) {
  const row = await sql<{ done: number; total: number }>`
    select (r.reused_assets + coalesce((select sum(p.assets_done) from analysis_parts p where p.project_id = r.project_id and p.version = r.version), 0))::int as done,
      r.total_assets as total
    from analysis_runs r where r.project_id = ${projectId} and r.version = ${version}`.execute(db);
  return row.rows[0];
}
