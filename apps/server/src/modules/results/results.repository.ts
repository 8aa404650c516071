import type { DB } from '../../infra/db/database.js';

/** SQL of the results API: the asset count checked before a project's stored analysis is decoded. */
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
}
