import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';

/** SQL of the dashboard: what the results cache is keyed on for a project. */
export class DashboardRepository {
  constructor(private readonly db: DB) {}

  /** The project's version, analysis time, status and hazard variables (undefined when there is no such project). */
  analysisState(projectId: number) {
    return this.db
      .selectFrom('projects')
      .select(['id', 'version', 'analysed_at', 'status', 'portfolio_variables', 'default_filters'])
      .where('id', '=', projectId)
      .executeTakeFirst();
  }

  /** Physical projects with a stored analysis, most recently analysed first, with their asset counts. */
  recentlyAnalysed(limit: number) {
    return this.db
      .selectFrom('projects as p')
      .select([
        'p.id',
        (eb) =>
          eb
            .selectFrom('assets as a')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('a.project_id', '=', 'p.id')
            .as('assets'),
      ])
      .where('p.kind', '=', 'physical')
      .where('p.status', '=', 'done')
      .where('p.results_version', 'is not', null)
      .orderBy('p.analysed_at', 'desc')
      .limit(limit)
      .execute();
  }
}
