import type { DB } from '../../infra/db/database.js';

/** The street basemap set in the app (table basemap_settings, migration 0037: one row, id 1). */
export class BasemapRepository {
  constructor(private readonly db: DB) {}

  get() {
    return this.db.selectFrom('basemap_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  }

  async put(values: { style_url: string | null; pmtiles: string | null; labels: boolean; updated_at: Date; updated_by: string }): Promise<void> {
    await this.db
      .insertInto('basemap_settings')
      .values({ id: 1, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }

  async remove(): Promise<void> {
    await this.db.deleteFrom('basemap_settings').where('id', '=', 1).execute();
  }

  async isOperator(userId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('users').select('is_operator').where('id', '=', userId).executeTakeFirst())?.is_operator;
  }
}
