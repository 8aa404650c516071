/**
 * Where an analysis run's chunks are stored (migration 0020): every chunk in analysis_chunks keyed by (project,
 * version, chunk_start), written as it is computed; a complete run is made the project's results by one small UPDATE
 * of projects.results_version (storeRun), so the swap moves no data whatever the portfolio's size; the chunks of other
 * runs are deleted afterwards, a few at a time (pruneRuns). The view analysis_results shows the current run.
 */
import { SCENARIO_YEARS } from '@crp/engine';
import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import { blobValue } from '../../infra/db/bytea.js';
import type { DefaultFilters, ProjectSummary } from '../../infra/db/schema.js';
import { summaryIndex, type SummaryShare } from './chunk-summary.js';

/** One chunk of a run as written to analysis_chunks. */
export interface RunChunk {
  start: number;
  count: number;
  data: Uint8Array;
  share: SummaryShare;
  part: number | null;
  worker_id: string | null;
  attempt: number | null;
}

/** Chunks deleted per statement when old runs are pruned (about 1 MB each): short statements, requests in between. */
const PRUNE_BATCH = 8;

/** Writes one chunk of run `version` (a retried part overwrites its own rows). */
export async function writeChunk(db: DB, projectId: number, version: number, c: RunChunk): Promise<void> {
  await db
    .insertInto('analysis_chunks')
    .values({
      project_id: projectId,
      version,
      chunk_start: c.start,
      chunk_count: c.count,
      data: blobValue(c.data),
      summary: JSON.stringify(c.share),
      part: c.part,
      worker_id: c.worker_id,
      attempt: c.attempt,
    })
    // The blob is sent once: the update takes the row that was to be inserted.
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'version', 'chunk_start'])
        .doUpdateSet((eb) => ({
          chunk_count: eb.ref('excluded.chunk_count'),
          data: eb.ref('excluded.data'),
          summary: eb.ref('excluded.summary'),
          part: eb.ref('excluded.part'),
          worker_id: eb.ref('excluded.worker_id'),
          attempt: eb.ref('excluded.attempt'),
        })),
    )
    .execute();
}

/**
 * Makes the complete run `version` the project's results and writes the project summary, inside the caller's
 * transaction (which holds the project's row lock): checks that the run's chunks cover every asset once, then flips
 * projects.results_version. Readers see the old analysis or the new one; no blob is copied.
 */
export async function storeRun(tx: DB, projectId: number, version: number, total: number, filters: DefaultFilters): Promise<void> {
  const chunks = await tx
    .selectFrom('analysis_chunks')
    .select(['chunk_start', 'chunk_count', 'summary'])
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .orderBy('chunk_start')
    .execute();
  let next = 0;
  for (const c of chunks) {
    if (c.chunk_start !== next) throw new Error(`chunks of project ${projectId} v${version} are not contiguous at ${next} (found ${c.chunk_start})`);
    next += c.chunk_count;
  }
  if (next !== total) throw new Error(`chunks of project ${projectId} v${version} cover ${next} of ${total} assets`);
  const types = await tx.selectFrom('assets').select('property_type').distinct().where('project_id', '=', projectId).execute();
  const summary = projectSummary(
    filters,
    chunks.map((c) => c.summary as unknown as SummaryShare),
    types
      .map((t) => t.property_type)
      .filter((t): t is string => !!t)
      .sort(),
  );
  await tx
    .updateTable('projects')
    .set({
      status: 'done',
      progress: 1,
      status_message: `Analysed ${total.toLocaleString('en-US')} assets`,
      analysed_at: new Date(),
      summary: JSON.stringify(summary),
      results_version: version,
    })
    .where('id', '=', projectId)
    .execute();
  await tx.updateTable('analysis_runs').set({ finished_at: new Date() }).where('project_id', '=', projectId).where('version', '=', version).execute();
}

/**
 * Deletes the chunks of a project's runs that can no longer become its results: versions older than the project's
 * (superseded, or replaced by a newer stored run) other than the current one. A few chunks per statement with a turn
 * of the event loop between, so that other requests are answered meanwhile; safe at any time (a run in progress is at
 * the project's version, and the current run is kept). Returns the chunks deleted.
 */
export async function pruneRuns(db: DB, projectId: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const r = await sql`delete from analysis_chunks where (project_id, version, chunk_start) in (
        select c.project_id, c.version, c.chunk_start from analysis_chunks c join projects p on p.id = c.project_id
        where c.project_id = ${projectId} and c.version < p.version and c.version is distinct from p.results_version
        limit ${PRUNE_BATCH})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    deleted += n;
    if (n < PRUNE_BATCH) return deleted;
    await new Promise((res) => setImmediate(res));
  }
}

/** The project card's figures from the chunks' shares, added in chunk order (the same sums whoever computed them). */
export function projectSummary(filters: DefaultFilters, shares: readonly SummaryShare[], propertyTypes: string[]): ProjectSummary {
  const t: SummaryShare = { scoreSum: 0, scored: 0, maxExposure: 0, totalValue: 0, cvar: 0, rcvar: 0 };
  for (const s of shares) {
    t.scoreSum += s.scoreSum;
    t.scored += s.scored;
    t.maxExposure += s.maxExposure;
    t.totalValue += s.totalValue;
    t.cvar += s.cvar;
    t.rcvar += s.rcvar;
  }
  return {
    key: SCENARIO_YEARS[summaryIndex(filters)]!.key,
    overall: t.scored ? Math.round((10 * t.scoreSum) / t.scored) / 10 : null,
    max_exposure: t.maxExposure,
    total_value: t.totalValue,
    cvar: t.cvar,
    rcvar: t.rcvar,
    property_types: propertyTypes,
  };
}
