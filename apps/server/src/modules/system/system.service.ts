import type { DatabaseHandle } from '../../infra/db/database.js';
import type { SystemRepository } from './system.repository.js';

/** Liveness: the database answers a query. */
export class SystemService {
  constructor(
    private readonly repo: SystemRepository,
    private readonly kind: DatabaseHandle['kind'],
  ) {}

  /** Runs a one-row query (throws when the database does not answer) and names the database kind. */
  async health(): Promise<{ database: DatabaseHandle['kind'] }> {
    await this.repo.ping();
    return { database: this.kind };
  }
}
