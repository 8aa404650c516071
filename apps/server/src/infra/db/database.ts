import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import { readBlobsRaw } from './bytea.js';
import { setCopyRows } from './copy-binary.js';
import type { Config } from '../../config.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * One query layer, two drivers: PostgreSQL when DATABASE_URL is set, else embedded PGlite under DATA_DIR.
 * `pgliteLoadDataDir` (tests): an in-memory PGlite starts from this dumped data directory instead of running initdb.
 */
export async function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>, options: { pgliteLoadDataDir?: Blob } = {}): Promise<DatabaseHandle> {
  if (config.DATABASE_URL) {
    const pg = await import('pg');
    // int8 (counts, bigint ids) as JS numbers: our values stay far below 2^53.
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.default.Pool({ connectionString: config.DATABASE_URL, max: 10 });
    // An idle connection closed by the server (restart, failover, dropped database) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (err) => console.error(`[db] idle PostgreSQL connection closed: ${err.message}`));
    // The same for a connection held between the statements of a transaction (a job computing between them): the
    // statement in flight fails (the job attempt fails and is retried) instead of an unhandled 'error' ending the process.
    pool.on('connect', (client) => client.on('error', (err) => console.error(`[db] PostgreSQL connection closed: ${err.message}`)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    readBlobsRaw(true);
    setCopyRows(db, pool);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let dataDir: string | undefined;
  if (!config.DATA_DIR.startsWith('memory://')) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    dataDir = `${config.DATA_DIR}/pgdata`;
  }
  // pg_trgm: trigram matching for the company search (migration 0011); PostgreSQL servers ship it in contrib.
  const load = !dataDir && options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {};
  const pglite = new PGlite({ ...(dataDir ? { dataDir } : {}), ...load, extensions: { pg_trgm } });
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
