import type { DatabaseHandle, DB } from '../../infra/db/database.js';

/** Liveness: the database answers a query. */
export class SystemService {
  constructor(
    private readonly db: DB,
    private readonly kind: DatabaseHandle['kind'],
  ) {}

  /** Runs a one-row query (throws when the database does not answer) and names the database kind. */
  async health(): Promise<{ database: DatabaseHandle['kind'] }> {
    await this.db.selectFrom('companies').select('id').limit(1).execute();
    return { database: this.kind };
  }
}
