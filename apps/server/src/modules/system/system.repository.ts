import type { DB } from '../../infra/db/database.js';

/** SQL of the health check. */
export class SystemRepository {
  constructor(private readonly db: DB) {}

  /** A one-row query: throws when the database does not answer. */
  async ping(): Promise<void> {
    await this.db.selectFrom('companies').select('id').limit(1).execute();
  }
}
