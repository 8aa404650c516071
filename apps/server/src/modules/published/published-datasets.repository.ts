import type { DB } from '../../infra/db/database.js';

/** The stored registrations of published flood datasets (migration 0026) and the operator flag of users. */
export class PublishedDatasetsRepository {
  constructor(
    private readonly db: DB,
    /** The analysis job type queued for each portfolio (project.service.ts ANALYSE_PORTFOLIO_JOB). */
    private readonly analyseJob: string,
  ) {}

  /** Stores (or replaces, by name) a registration and re-queues every analysis, in one transaction; true when it replaced one. */
  async upsert(
    values: { name: string; directory: string; files: string; file_count: number; bytes: number; registered_by: string },
    why: string,
  ): Promise<{ replaced: boolean; reanalysed: number }> {
    return this.db.transaction().execute(async (tx) => {
      const old = await tx.selectFrom('published_datasets').select('id').where('name', '=', values.name).executeTakeFirst();
      if (old)
        await tx
          .updateTable('published_datasets')
          .set({ ...values, registered_at: new Date() })
          .where('id', '=', old.id)
          .execute();
      else await tx.insertInto('published_datasets').values(values).execute();
      return { replaced: !!old, reanalysed: await reanalyseAll(tx, why, this.analyseJob) };
    });
  }

  /** Deletes a registration by name and re-queues every analysis; null when there was none. */
  async remove(name: string, why: string): Promise<{ reanalysed: number } | null> {
    return this.db.transaction().execute(async (tx) => {
      const gone = await tx.deleteFrom('published_datasets').where('name', '=', name).returning('id').executeTakeFirst();
      return gone ? { reanalysed: await reanalyseAll(tx, why, this.analyseJob) } : null;
    });
  }

  async byName(name: string) {
    return this.db.selectFrom('published_datasets').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }

  async all() {
    return this.db.selectFrom('published_datasets').selectAll().orderBy('id').execute();
  }

  async signature() {
    return this.db.selectFrom('published_datasets').select(['id', 'registered_at']).orderBy('id').execute();
  }

  async isOperator(userId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('users').select('is_operator').where('id', '=', userId).executeTakeFirst())?.is_operator;
  }
}

/** Every physical portfolio with assets is analysed again (a new version supersedes a running analysis). */
async function reanalyseAll(tx: DB, why: string, jobType: string): Promise<number> {
  const projects = await tx
    .selectFrom('projects')
    .select(['id', 'version'])
    .where('kind', '=', 'physical')
    .where(({ exists, selectFrom }) => exists(selectFrom('assets').select('assets.id').whereRef('assets.project_id', '=', 'projects.id')))
    .forUpdate()
    .execute();
  for (const p of projects) {
    const version = p.version + 1;
    await tx
      .updateTable('projects')
      .set({ version, status: 'queued', progress: 0, status_message: `Waiting for analysis (${why})`.slice(0, 200), updated_at: new Date() })
      .where('id', '=', p.id)
      .execute();
    await tx
      .insertInto('jobs')
      .values({
        type: jobType,
        payload: JSON.stringify({ projectId: p.id, version }),
        status: 'queued',
        attempts: 0,
        max_attempts: 3,
        progress: 0,
        run_after: new Date(),
      })
      .execute();
  }
  return projects.length;
}
