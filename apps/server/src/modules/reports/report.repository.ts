import type { Updateable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { Database, ReportsTable } from '../../infra/db/schema.js';

/** SQL of the slide reports: the request row, its status, the link's token. */
export class ReportRepository {
  constructor(private readonly db: DB) {}

  /** A queued report request; answers its id. */
  async insert(values: {
    token_hash: string;
    owner_id: number;
    project_id: number;
    analysis_type: ReportsTable['analysis_type'];
    scenario: ReportsTable['scenario'];
    year: ReportsTable['year'];
    with_content: boolean;
  }): Promise<number> {
    const row = await this.db
      .insertInto('reports')
      .values({ ...values, status: 'queued' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  status(reportId: number) {
    return this.db.selectFrom('reports').select(['status', 'message', 'slides', 'pdf_file_id', 'pptx_file_id']).where('id', '=', reportId).executeTakeFirst();
  }

  async idByTokenHash(tokenHash: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('reports').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
    return row?.id;
  }

  byId(reportId: number) {
    return this.db.selectFrom('reports').selectAll().where('id', '=', reportId).executeTakeFirst();
  }

  async set(reportId: number, fields: Updateable<Database['reports']>): Promise<void> {
    await this.db.updateTable('reports').set(fields).where('id', '=', reportId).execute();
  }
}
