import type { DB } from '../../infra/db/database.js';

/** SQL of the release announcements: which versions of the change log were announced. */
export class ReleaseRepository {
  constructor(private readonly db: DB) {}

  /** Runs `fn` in one transaction, with a repository on it and the transaction (for other repositories' writes). */
  transaction<T>(fn: (repo: ReleaseRepository, tx: DB) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((tx) => fn(new ReleaseRepository(tx), tx));
  }

  async announcedVersions(): Promise<Set<string>> {
    return new Set((await this.db.selectFrom('releases_announced').select('version').execute()).map((r) => r.version));
  }

  /** Marks the version announced; false when it already was (another process announced it). */
  async markAnnounced(version: string): Promise<boolean> {
    const ins = await this.db
      .insertInto('releases_announced')
      .values({ version })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(ins.numInsertedOrUpdatedRows ?? 0) !== 0;
  }
}
