/**
 * Logical backup and restore (`npm run admin -- backup <file>` / `restore <file>`), written by our own code through
 * Kysely so that it needs no pg_dump and works the same on PGlite and PostgreSQL: a backup of one restores into the
 * other.
 *
 * Format (gzip'd JSON lines, docs/reliability.md "Operations"):
 *   line 1   header {format: 'crp-backup', version: 1, created_at, source, migrations: [names], tables: [{name, columns, rows}], files}
 *   then     {t: table, r: row} for every row, tables in foreign-key order (parents first; self references parents first)
 *   then     {f: stored_as, b64} for every file of the server's file store that a `files` row points at, from where it
 *            is stored (DATA_DIR/files, or the stored_files tables with DATABASE_URL: those two tables are not dumped as
 *            rows, so a backup restores into either storage)
 *   last     {end: true, rows, files}: a truncated file is refused
 * Row values are PostgreSQL's own JSON rendering (to_jsonb): timestamps ISO 8601 with offset and microseconds, jsonb
 * inline, arrays as JSON arrays, numbers exact; bytea is base64. Generated columns (full-text vectors) are left out
 * and recomputed by the database on restore. The migration table is not copied: the header names the applied
 * migrations instead, and restore migrates the target to that level first.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrationNames, migrationProvider } from './migrate.js';
import { blobColumn, blobOf } from './bytea.js';
import type { DB } from './database.js';
import { PostgresFileStorage } from '../file-store.js';

/** The file store's tables (migration 0028): their content is written as `f` lines, not as rows. */
const FILE_TABLES = new Set(['stored_files', 'stored_file_chunks']);

export const BACKUP_FORMAT = 'crp-backup';
export const BACKUP_VERSION = 1;

export interface ColumnInfo {
  name: string;
  type: string;
}
export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  rows: number;
}
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  source: string;
  migrations: string[];
  tables: TableInfo[];
  files: number;
}

export class BackupError extends Error {}

type AnyDb = Kysely<any>;

interface Schema {
  tables: { name: string; columns: ColumnInfo[]; pk: string[]; selfRef: { column: string; references: string } | null }[];
  /** Columns filled by a sequence (serial), to be set past the restored maximum. */
  serials: { table: string; column: string }[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the public schema (not Kysely's migration tables) in foreign-key order, with their stored columns. */
async function readSchema(db: AnyDb): Promise<Schema> {
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname not like 'kysely\\_%' order by c.relname`.execute(db);
  const cols = await sql<{ table_name: string; column_name: string; data_type: string; is_generated: string; column_default: string | null }>`
    select table_name, column_name, data_type, is_generated, column_default from information_schema.columns
    where table_schema = 'public' order by table_name, ordinal_position`.execute(db);
  const pks = await sql<{ table_name: string; column_name: string }>`
    select cl.relname as table_name, a.attname as column_name
    from pg_index i join pg_class cl on cl.oid = i.indrelid join pg_namespace n on n.oid = cl.relnamespace
    join lateral unnest(i.indkey) with ordinality as k(attnum, ord) on true
    join pg_attribute a on a.attrelid = cl.oid and a.attnum = k.attnum
    where i.indisprimary and n.nspname = 'public' order by cl.relname, k.ord`.execute(db);
  const fks = await sql<{ child: string; parent: string; column: string; references: string; ncols: number }>`
    select cl.relname as child, pc.relname as parent, a.attname as column, pa.attname as references, array_length(co.conkey, 1) as ncols
    from pg_constraint co
    join pg_class cl on cl.oid = co.conrelid join pg_namespace n on n.oid = cl.relnamespace
    join pg_class pc on pc.oid = co.confrelid
    join pg_attribute a on a.attrelid = co.conrelid and a.attnum = co.conkey[1]
    join pg_attribute pa on pa.attrelid = co.confrelid and pa.attnum = co.confkey[1]
    where co.contype = 'f' and n.nspname = 'public'`.execute(db);

  const names = tables.rows.map((t) => t.name);
  const info = new Map(
    names.map((n) => [n, { name: n, columns: [] as ColumnInfo[], pk: [] as string[], selfRef: null as Schema['tables'][number]['selfRef'] }]),
  );
  const serials: Schema['serials'] = [];
  for (const c of cols.rows) {
    const t = info.get(c.table_name);
    if (!t || c.is_generated === 'ALWAYS') continue;
    t.columns.push({ name: c.column_name, type: c.data_type });
    if (c.column_default?.startsWith('nextval(')) serials.push({ table: c.table_name, column: c.column_name });
  }
  for (const p of pks.rows) info.get(p.table_name)?.pk.push(p.column_name);

  // Topological order: a table after every table it references.
  const deps = new Map(names.map((n) => [n, new Set<string>()]));
  for (const f of fks.rows) {
    if (!info.has(f.child)) continue;
    if (f.child === f.parent) {
      if (Number(f.ncols) !== 1) throw new BackupError(`table ${f.child}: multi-column self reference is not supported`);
      info.get(f.child)!.selfRef = { column: f.column, references: f.references };
    } else if (info.has(f.parent)) deps.get(f.child)!.add(f.parent);
  }
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (n: string, path: string[]) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'visiting') throw new BackupError(`foreign keys form a cycle: ${[...path, n].join(' -> ')}`);
    state.set(n, 'visiting');
    for (const d of [...deps.get(n)!].sort()) visit(d, [...path, n]);
    state.set(n, 'done');
    ordered.push(n);
  };
  for (const n of names) visit(n, []);
  return { tables: ordered.map((n) => info.get(n)!), serials };
}

/** Migration names applied to a database ([] when it was never migrated). */
export async function appliedMigrations(db: AnyDb): Promise<string[]> {
  const exists = await sql<{ ok: boolean }>`select to_regclass('public.kysely_migration') is not null as ok`.execute(db);
  if (!exists.rows[0]?.ok) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** bytea as PostgreSQL renders it in JSON (`\x` hex) <-> base64. */
const hexToBase64 = (v: unknown) => (typeof v === 'string' && v.startsWith('\\x') ? Buffer.from(v.slice(2), 'hex').toString('base64') : v);
const base64ToHex = (v: unknown) => (typeof v === 'string' ? `\\x${Buffer.from(v, 'base64').toString('hex')}` : v);

/** Orders rows of a self-referencing table so that every parent comes before its children. */
function parentsFirst(rows: Record<string, unknown>[], column: string, references: string): Record<string, unknown>[] {
  const present = new Set(rows.map((r) => String(r[references])));
  const placed = new Set<string>();
  const out: Record<string, unknown>[] = [];
  let rest = rows;
  while (rest.length) {
    const next: Record<string, unknown>[] = [];
    for (const r of rest) {
      const parent = r[column];
      if (parent === null || parent === undefined || placed.has(String(parent)) || !present.has(String(parent))) {
        out.push(r);
        placed.add(String(r[references]));
      } else next.push(r);
    }
    if (next.length === rest.length) throw new BackupError(`rows of a self-referencing table form a cycle on ${column}`);
    rest = next;
  }
  return out;
}

class LineWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly out;
  private readonly done: Promise<void>;
  constructor(file: string) {
    this.out = createWriteStream(file);
    this.gzip.pipe(this.out);
    this.done = new Promise((res, rej) => {
      this.out.on('finish', res);
      this.out.on('error', rej);
      this.gzip.on('error', rej);
    });
  }
  async write(obj: unknown) {
    if (!this.gzip.write(JSON.stringify(obj) + '\n')) await once(this.gzip, 'drain');
  }
  async close() {
    this.gzip.end();
    await this.done;
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  rows: number;
  files: number;
  tables: TableInfo[];
  ms: number;
}

/**
 * The stored files that `files` rows point at and that are stored: in the stored_files tables (`inDb`, DATABASE_URL)
 * or under `dir` (DATA_DIR/files).
 */
async function filesToBackUp(tx: AnyDb, tables: { name: string }[], dir: string): Promise<{ onDisk: string[]; inDb: Set<string> }> {
  const storedFiles = tables.some((t) => t.name === 'files')
    ? (await sql<{ stored_as: string }>`select stored_as from files order by id`.execute(tx)).rows.map((r) => r.stored_as)
    : [];
  const inDb = new Set(
    tables.some((t) => t.name === 'stored_files') ? (await sql<{ key: string }>`select key from stored_files`.execute(tx)).rows.map((r) => r.key) : [],
  );
  const onDisk = storedFiles.filter((s) => {
    const p = resolve(dir, s);
    return inDb.has(s) || (p.startsWith(dir + sep) && existsSync(p));
  });
  return { onDisk, inDb };
}

/** The bytes of a stored file, from the database's chunks or the folder. */
async function storedFileBytes(tx: AnyDb, dir: string, name: string, inDb: Set<string>): Promise<Buffer> {
  if (!inDb.has(name)) return readFileSync(resolve(dir, name));
  const parts = await sql<{ data: string | Buffer }>`select ${blobColumn('data')} as data from stored_file_chunks where key = ${name} order by seq`.execute(tx);
  return Buffer.concat(parts.rows.map((r) => blobOf(r.data)));
}

/**
 * Writes a backup of `db` (one consistent snapshot: a repeatable-read, read-only transaction, so a PostgreSQL server may
 * keep running) and of the files under `fileDir` that `files` rows point at.
 */
export async function backupDatabase(db: AnyDb, opts: { file: string; fileDir: string; source: string }): Promise<BackupResult> {
  const t0 = Date.now();
  const target = resolve(opts.file);
  const partial = `${target}.partial`;
  const writer = new LineWriter(partial);
  let rows = 0;
  let files = 0;
  let tables: TableInfo[] = [];
  try {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        await sql`set transaction read only`.execute(tx);
        const schema = await readSchema(tx);
        const migrations = await appliedMigrations(tx);
        if (!migrations.length) throw new BackupError('the database has no migrations applied: nothing to back up');
        tables = [];
        const dumped = schema.tables.filter((t) => !FILE_TABLES.has(t.name));
        for (const t of dumped) {
          const n = await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(q(t.name))}`.execute(tx);
          tables.push({ name: t.name, columns: t.columns, rows: Number(n.rows[0]!.n) });
        }
        const { onDisk, inDb } = await filesToBackUp(tx, schema.tables, resolve(opts.fileDir));
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          created_at: new Date().toISOString(),
          source: opts.source,
          migrations,
          tables,
          files: onDisk.length,
        };
        await writer.write(header);

        for (const t of dumped) {
          const bytea = t.columns.filter((c) => c.type === 'bytea').map((c) => c.name);
          const colList = sql.raw(t.columns.map((c) => q(c.name)).join(', '));
          const order = t.pk.length ? sql.raw(` order by ${t.pk.map(q).join(', ')}`) : sql.raw('');
          const select = sql`select to_jsonb(x) as r from (select ${colList} from ${sql.raw(q(t.name))}${order}) x`;
          const emit = async (r: Record<string, unknown>) => {
            for (const b of bytea) r[b] = hexToBase64(r[b]);
            await writer.write({ t: t.name, r });
            rows += 1;
          };
          if (t.selfRef) {
            // Small reference tables (help keywords): sorted in memory so parents are restored first.
            const all = (await select.execute(tx)).rows.map((x) => parseJson((x as { r: unknown }).r));
            for (const r of parentsFirst(all, t.selfRef.column, t.selfRef.references)) await emit(r);
            continue;
          }
          // A cursor keeps memory flat for big tables (stored analysis results).
          const cursor = `crp_backup_${t.name.replace(/\W/g, '_')}`;
          await sql`declare ${sql.raw(cursor)} no scroll cursor for ${select}`.execute(tx);
          const batch = bytea.length ? 20 : 1000;
          for (;;) {
            const got = await sql<{ r: unknown }>`fetch ${sql.raw(String(batch))} from ${sql.raw(cursor)}`.execute(tx);
            for (const x of got.rows) await emit(parseJson(x.r));
            if (got.rows.length < batch) break;
          }
          await sql`close ${sql.raw(cursor)}`.execute(tx);
        }
        for (const s of onDisk) {
          await writer.write({ f: s, b64: (await storedFileBytes(tx, resolve(opts.fileDir), s, inDb)).toString('base64') });
          files += 1;
        }
        await writer.write({ end: true, rows, files });
      });
    await writer.close();
  } catch (err) {
    await writer.close().catch(() => undefined);
    rmSync(partial, { force: true });
    throw err;
  }
  // Renamed only when complete, so an interrupted backup never leaves a file that looks whole.
  renameSync(partial, target);
  return { file: target, bytes: statSync(target).size, rows, files, tables, ms: Date.now() - t0 };
}

/** Drivers hand jsonb over parsed (pg, PGlite); a string is parsed here in case one does not. */
function parseJson(v: unknown): Record<string, unknown> {
  return (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
}

async function* readLines(file: string): AsyncGenerator<any> {
  const source = createReadStream(file);
  const input = source.pipe(createGunzip());
  source.on('error', (err) => input.destroy(err));
  let n = 0;
  let rest = '';
  const parse = (line: string) => {
    n += 1;
    try {
      return JSON.parse(line);
    } catch {
      throw new BackupError(`line ${n} of the backup is not JSON: the file is damaged`);
    }
  };
  try {
    input.setEncoding('utf8'); // decodes characters split between chunks
    for await (const text of input as AsyncIterable<string>) {
      if (!text.includes('\n')) {
        rest += text;
        continue;
      }
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) yield parse(line);
    }
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the backup cannot be read (${(err as Error).message}): is it a whole file written by \`admin backup\`?`);
  } finally {
    input.destroy();
    source.destroy();
  }
  if (rest) yield parse(rest);
}

/** The header of a backup file, checked. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  if (!existsSync(file)) throw new BackupError(`no file ${file}`);
  for await (const first of readLines(file)) return checkHeader(first);
  throw new BackupError('the backup is empty');
}

function checkHeader(h: any): BackupHeader {
  if (!h || h.format !== BACKUP_FORMAT) throw new BackupError('not a backup of this platform (header format is not crp-backup)');
  if (h.version !== BACKUP_VERSION) throw new BackupError(`backup format version ${h.version} is not supported (this code reads version ${BACKUP_VERSION})`);
  if (!Array.isArray(h.migrations) || !Array.isArray(h.tables)) throw new BackupError('the backup header has no migrations or tables');
  return h as BackupHeader;
}

export interface RestoreResult {
  rows: number;
  files: number;
  tables: number;
  migrations: string[];
  ms: number;
}

/**
 * Restores a backup into `db`. The target is migrated to the backup's level first (a fresh database is), filled in one
 * transaction (all or nothing), its sequences set past the restored ids, then migrated to this code's latest level.
 * A target that holds data is refused unless `force` (its rows are then replaced). Files go to `fileDir`, then with
 * `filesInDatabase` (DATABASE_URL: the file store is in PostgreSQL) into the stored_files tables, so every machine
 * serves them.
 */
// eslint-disable-next-line max-lines-per-function -- one restore transaction read top to bottom (check, migrate, fill, sequences, files); an admin command, not on the request path
export async function restoreDatabase(db: AnyDb, opts: { file: string; fileDir: string; force: boolean; filesInDatabase?: boolean }): Promise<RestoreResult> {
  const t0 = Date.now();
  const file = resolve(opts.file);
  const header = await readBackupHeader(file);
  const known = migrationNames();
  const unknown = header.migrations.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new BackupError(`the backup was made by a newer version (migrations ${unknown.join(', ')} are unknown here): update the code first`);
  if (header.migrations.some((m, i) => m !== known[i]))
    throw new BackupError(`the backup's migrations (${header.migrations.join(', ')}) are not a prefix of this code's`);
  const level = header.migrations[header.migrations.length - 1]!;

  const applied = await appliedMigrations(db);
  if (applied.length > header.migrations.length) {
    throw new BackupError(
      `the target database is at migration ${applied[applied.length - 1]} but the backup at ${level}: restore into an empty database (it is migrated to the backup's level, filled, then migrated forward)`,
    );
  }
  const migrator = new Migrator({ db, provider: migrationProvider() });
  const to = await migrator.migrateTo(level);
  if (to.error) throw to.error instanceof Error ? to.error : new Error(String(to.error));

  const schema = await readSchema(db);
  const byName = new Map(schema.tables.map((t) => [t.name, t]));
  for (const t of header.tables) {
    const here = byName.get(t.name);
    if (!here) throw new BackupError(`table ${t.name} of the backup does not exist in the target at migration ${level}`);
    const missing = t.columns.filter((c) => !here.columns.some((h) => h.name === c.name));
    if (missing.length) throw new BackupError(`table ${t.name}: column(s) ${missing.map((c) => c.name).join(', ')} of the backup do not exist in the target`);
  }

  const nonEmpty: string[] = [];
  for (const t of schema.tables) {
    const r = await sql<{ any: boolean }>`select exists (select 1 from ${sql.raw(q(t.name))}) as any`.execute(db);
    if (r.rows[0]?.any) nonEmpty.push(t.name);
  }
  if (nonEmpty.length && !opts.force) {
    throw new BackupError(
      `the target database is not empty (${nonEmpty.slice(0, 6).join(', ')}${nonEmpty.length > 6 ? ', ...' : ''} hold rows): use --force to replace its data`,
    );
  }

  const dir = resolve(opts.fileDir);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  let rows = 0;
  let files = 0;
  try {
    await db.transaction().execute(async (tx) => {
      if (nonEmpty.length) await sql`truncate table ${sql.raw(schema.tables.map((t) => q(t.name)).join(', '))} restart identity cascade`.execute(tx);
      const headerTables = new Map(header.tables.map((t) => [t.name, t]));
      let batch: Record<string, unknown>[] = [];
      let batchBytes = 0;
      let batchTable: string | null = null;
      const flush = async () => {
        if (!batchTable || !batch.length) return;
        const cols = sql.raw(
          headerTables
            .get(batchTable)!
            .columns.map((c) => q(c.name))
            .join(', '),
        );
        await sql`insert into ${sql.raw(q(batchTable))} (${cols}) select ${cols} from jsonb_populate_recordset(null::${sql.raw(q(batchTable))}, ${JSON.stringify(batch)}::jsonb)`.execute(
          tx,
        );
        batch = [];
        batchBytes = 0;
      };
      let first = true;
      let ended: { rows: number; files: number } | null = null;
      const counts = new Map<string, number>();
      for await (const line of readLines(file)) {
        if (first) {
          first = false;
          continue;
        }
        if (ended) throw new BackupError('the backup has data after its end marker');
        if (typeof line.t === 'string') {
          const t = headerTables.get(line.t);
          if (!t) throw new BackupError(`row for table ${line.t}, which the header does not list`);
          if (batchTable !== line.t) {
            await flush();
            batchTable = line.t;
          }
          const r = line.r as Record<string, unknown>;
          for (const c of t.columns) if (c.type === 'bytea') r[c.name] = base64ToHex(r[c.name]);
          const size = JSON.stringify(r).length;
          batch.push(r);
          batchBytes += size;
          rows += 1;
          counts.set(line.t, (counts.get(line.t) ?? 0) + 1);
          if (batch.length >= 500 || batchBytes > 8_000_000) await flush();
        } else if (typeof line.f === 'string') {
          await flush();
          const p = resolve(dir, line.f);
          if (!p.startsWith(dir + sep)) throw new BackupError(`file name ${line.f} leaves the file store`);
          writeFileSync(p, Buffer.from(String(line.b64), 'base64'));
          written.push(p);
          files += 1;
        } else if (line.end === true) {
          await flush();
          ended = { rows: Number(line.rows), files: Number(line.files) };
        } else {
          throw new BackupError('the backup has a line that is neither a row, a file nor the end marker');
        }
      }
      if (!ended) throw new BackupError('the backup ends early (no end marker): it is truncated');
      if (ended.rows !== rows || ended.files !== files)
        throw new BackupError(`the backup is inconsistent: ${rows} rows and ${files} files read, ${ended.rows} and ${ended.files} announced`);
      for (const t of header.tables) {
        if ((counts.get(t.name) ?? 0) !== t.rows)
          throw new BackupError(`table ${t.name}: ${counts.get(t.name) ?? 0} rows read, the header announces ${t.rows}`);
      }
      // Sequences continue after the restored ids: the next new row gets a new id.
      for (const s of schema.serials) {
        await sql`select setval(pg_get_serial_sequence(${q(s.table)}, ${s.column}), coalesce((select max(${sql.raw(q(s.column))}) from ${sql.raw(q(s.table))}), 0) + 1, false)`.execute(
          tx,
        );
      }
    });
  } catch (err) {
    for (const p of written) rmSync(p, { force: true });
    throw err;
  }
  // The replaced data's stored files (exports, reports) belong to rows that are gone: remove them, so the file store
  // holds what the restored rows point at and nothing else. Only the store's own names (<32 hex>.bin) are touched.
  if (nonEmpty.length) {
    const kept = new Set(written);
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (/^[0-9a-f]{32}\.bin$/.test(name) && !kept.has(p) && statSync(p).isFile()) rmSync(p, { force: true });
    }
  }
  const forward = await migrator.migrateToLatest();
  if (forward.error) throw forward.error instanceof Error ? forward.error : new Error(String(forward.error));
  if (opts.filesInDatabase) {
    // streamed from the restored file into the database (the table exists at the latest level, whatever the backup's)
    const storage = new PostgresFileStorage(db as DB);
    for (const p of written) {
      const key = basename(p);
      const row = await sql<{ content_type: string }>`select content_type from files where stored_as = ${key} limit 1`.execute(db);
      await storage.remove([key]);
      await storage.write(key, row.rows[0]?.content_type ?? 'application/octet-stream', createReadStream(p));
      rmSync(p, { force: true });
    }
  }
  return { rows, files, tables: header.tables.length, migrations: await appliedMigrations(db), ms: Date.now() - t0 };
}
