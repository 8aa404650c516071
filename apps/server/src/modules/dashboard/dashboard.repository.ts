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
}
