import type { DB } from '../../infra/db/database.js';
import { visibleProjects } from '../access/project-access.repository.js';
import type { CarbonCompanyDbRow } from '../../infra/db/schema.js';

export type CarbonCompanyInsert = Omit<CarbonCompanyDbRow, 'id' | 'project_id' | 'position'>;

/** SQL of the carbon module: transition projects, their portfolio value and company rows. */
export class CarbonRepository {
  constructor(private readonly db: DB) {}

  /** Transition projects the user owns or that were shared with them, newest first, with the row count. */
  listVisible(userId: number, companyId: number) {
    return visibleProjects(this.db, { id: userId, companyId }, 'transition')
      .innerJoin('users as o', 'o.id', 'p.owner_id')
      .select(['p.id', 'p.name', 'p.owner_id', 'p.created_at', 'p.updated_at', 'o.username as owner_username', 's.permission as share_permission'])
      .select((eb) =>
        eb
          .selectFrom('carbon_companies as c')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('c.project_id', '=', 'p.id')
          .as('companies'),
      )
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .execute();
  }

  ownByName(db: DB, ownerId: number, name: string) {
    return db
      .selectFrom('projects')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'transition')
      .where('name_lower', '=', name.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
  }

  insertProject(db: DB, values: { company_id: number; owner_id: number; name: string }) {
    return db
      .insertInto('projects')
      .values({
        ...values,
        kind: 'transition',
        name_lower: values.name.toLowerCase(),
        portfolio_variables: JSON.stringify([]),
        non_building_variables: JSON.stringify({}),
        base_unit: 'meter',
        base_currency: 'USD',
        source: 'carbon',
        is_benchmark: false,
        ticker: null,
        index_name: null,
        default_filters: JSON.stringify({ analysis_type: 'ssp', scenario: '45', year: 2050 }),
        status: 'done',
        progress: 1,
        status_message: null,
        version: 1,
        analysed_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  touchProject(db: DB, projectId: number, version: number) {
    return db.updateTable('projects').set({ updated_at: new Date(), analysed_at: new Date(), version }).where('id', '=', projectId).execute();
  }

  async saveInputs(db: DB, projectId: number, portfolioValue: number, rows: CarbonCompanyInsert[]) {
    await db
      .insertInto('carbon_portfolios')
      .values({ project_id: projectId, portfolio_value: portfolioValue })
      .onConflict((oc) => oc.column('project_id').doUpdateSet({ portfolio_value: portfolioValue, updated_at: new Date() }))
      .execute();
    await db.deleteFrom('carbon_companies').where('project_id', '=', projectId).execute();
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('carbon_companies')
        .values(rows.slice(i, i + 500).map((r, j) => ({ ...r, project_id: projectId, position: i + j })))
        .execute();
    }
  }

  portfolio(projectId: number) {
    return this.db.selectFrom('carbon_portfolios').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  }

  companies(projectId: number) {
    return this.db.selectFrom('carbon_companies').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
  }

  ownerName(userId: number) {
    return this.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  }

  deleteProject(db: DB, projectId: number) {
    return db.deleteFrom('projects').where('id', '=', projectId).where('kind', '=', 'transition').execute();
  }
}
