import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.js';
import { openDatabase } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';

/**
 * A migrated, empty PGlite database made once and copied for every test database.
 *
 * A fresh PGlite data directory runs initdb (about 10 s on disk, 2-3 s in memory on a loaded 2-core machine) and then
 * the migrations; copying a cluster that went through exactly that takes well under a second. The template is made
 * the way the server makes a database (openDatabase on an empty DATA_DIR, then migrateToLatest) and lives in the
 * temp folder under a name that hashes the PGlite version and the migration sources, so a changed migration makes
 * a new template (and runs initdb and every migration from scratch once). The server still runs migrateToLatest on
 * the copy at start-up (nothing left to apply). Test files running at the same time may each make it: the first
 * rename into place wins, the others use it.
 */

/** A hash of the PGlite version, the database code and the migrations: a change makes new templates. */
export function templateKey(): string {
  const h = createHash('sha256');
  h.update(readFileSync(join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const dbDir = join(REPO_ROOT, 'apps/server/src/infra/db');
  for (const f of ['database.ts', 'migrate.ts']) h.update(f).update(readFileSync(join(dbDir, f)));
  for (const f of readdirSync(join(dbDir, 'migrations')).sort()) h.update(f).update(readFileSync(join(dbDir, 'migrations', f)));
  return h.digest('hex').slice(0, 16);
}

let made: Promise<string> | null = null;

/** The template folder: `pgdata` (a cleanly closed PGlite data directory) and `pgdata.tar` (the same, dumped). */
export function pgliteTemplate(): Promise<string> {
  made ??= (async () => {
    const dir = join(tmpdir(), `crp-pglite-template-${templateKey()}`);
    if (existsSync(join(dir, 'pgdata.tar'))) return dir;
    const build = mkdtempSync(join(tmpdir(), 'crp-pglite-template-build-'));
    try {
      const handle = await openDatabase({ DATA_DIR: build, DATABASE_URL: undefined });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const pglite = new PGlite({ dataDir: join(build, 'pgdata'), extensions: { pg_trgm } });
      try {
        await pglite.waitReady; // dumpDataDir does not wait for it
        const dump = await pglite.dumpDataDir('none');
        // Written last: its presence marks a complete template.
        writeFileSync(join(build, 'pgdata.tar'), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await pglite.close();
      }
      try {
        renameSync(build, dir);
      } catch (err) {
        // Another test process put its template in place first: use that one.
        if (!existsSync(join(dir, 'pgdata.tar'))) throw err;
      }
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
    return dir;
  })();
  return made;
}

/** Puts a copy of the template at `${dataDir}/pgdata`, unless that folder already holds a database. */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const target = join(dataDir, 'pgdata');
  if (existsSync(target)) return;
  const template = await pgliteTemplate();
  mkdirSync(dataDir, { recursive: true });
  cpSync(join(template, 'pgdata'), target, { recursive: true });
}

/** The template as a tarball for an in-memory PGlite (`loadDataDir`). */
export async function pgliteTemplateDump(): Promise<Blob> {
  return new Blob([readFileSync(join(await pgliteTemplate(), 'pgdata.tar'))]);
}
