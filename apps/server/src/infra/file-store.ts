import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeFileName } from '@crp/contracts';
import type { Config } from '../config.js';
import type { DB } from './db/database.js';
import { copyRowsOf, sqlInt } from './db/copy-binary.js';
import { newToken, sha256 } from '../lib/crypto.js';
import { AppError, notFound } from '../lib/errors.js';

/** The file store's folder under DATA_DIR (backups include it: db/backup.ts). */
export const FILE_STORE_SUBDIR = 'files';

/** Generated files (exports, reports) live this long behind their link unless the owner's company chose less. */
export const DEFAULT_LINK_HOURS = 24;

/** Bytes of one stored_file_chunks row (PostgreSQL mode): a read or write holds one or two of them, never a whole file. */
export const CHUNK_BYTES = 1_048_576;

/** What a file's content is made from: the bytes at once, or a stream of them (never gathered whole by the store). */
export type FileBody = Uint8Array | AsyncIterable<Uint8Array>;

/** Bytes [start, end] of a file, both inclusive (an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the bytes of stored files live, by key (files.stored_as). Two implementations: a local folder (embedded
 * PGlite, one process: the default) and PostgreSQL (DATABASE_URL: every server and worker machine reads the same rows).
 */
export interface FileStorage {
  readonly kind: 'local' | 'postgres';
  /** Stores `body` under `key`, whole or not at all; answers its size and SHA-256 (hex). */
  write(key: string, contentType: string, body: FileBody): Promise<{ bytes: number; sha256: string }>;
  /** The size of the content under `key`, or null when none is stored. */
  size(key: string): Promise<number | null>;
  /** The content under `key` (or bytes `range` of it) as a stream; call after `size` answered a number. */
  read(key: string, range?: ByteRange): Readable;
  /** Deletes the contents under `keys` (missing ones are no error). */
  remove(keys: string[]): Promise<void>;
}

async function* chunksOf(body: FileBody): AsyncIterable<Uint8Array> {
  if (body instanceof Uint8Array) yield body;
  else yield* body;
}

/** Files under a local folder (DATA_DIR/files): only the process on this machine reads them. */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local';
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private path(key: string): string | null {
    const p = resolve(this.dir, key);
    return p.startsWith(this.dir + sep) ? p : null;
  }

  async write(key: string, _contentType: string, body: FileBody) {
    const path = this.path(key);
    if (!path) throw new Error(`file key ${key} leaves the file store`);
    const hash = createHash('sha256');
    let bytes = 0;
    const counted = async function* () {
      for await (const c of chunksOf(body)) {
        hash.update(c);
        bytes += c.length;
        yield c;
      }
    };
    try {
      await pipeline(Readable.from(counted()), createWriteStream(path));
    } catch (err) {
      rmSync(path, { force: true }); // a disk-full write leaves part of the file
      throw err;
    }
    return { bytes, sha256: hash.digest('hex') };
  }

  async size(key: string) {
    const path = this.path(key);
    if (!path) return null;
    try {
      const st = statSync(path);
      return st.isFile() ? st.size : null;
    } catch {
      return null;
    }
  }

  read(key: string, range?: ByteRange): Readable {
    return createReadStream(this.path(key)!, range ? { start: range.start, end: range.end } : {});
  }

  async remove(keys: string[]) {
    for (const k of keys) {
      const p = this.path(k);
      if (p) rmSync(p, { force: true });
    }
  }
}

/**
 * Files in PostgreSQL (migration 0028): one stored_files row per content and its bytes in CHUNK_BYTES bytea rows,
 * written in one transaction (a failed write leaves nothing) and read a chunk at a time, so memory stays at a chunk or
 * two whatever the file's size. node-postgres sends a Buffer parameter as binary and reads bytea as hex text (twice the
 * chunk, parsed into a Buffer): bounded by the chunk too.
 */
export class PostgresFileStorage implements FileStorage {
  readonly kind = 'postgres';
  constructor(
    private readonly db: DB,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async write(key: string, contentType: string, body: FileBody) {
    const hash = createHash('sha256');
    let bytes = 0;
    let digest = '';
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('stored_files').values({ key, bytes: 0, sha256: '', content_type: contentType, chunk_bytes: this.chunkBytes }).execute();
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (data: Buffer) => {
        await tx.insertInto('stored_file_chunks').values({ key, seq: seq++, data }).execute();
      };
      for await (const c of chunksOf(body)) {
        hash.update(c);
        bytes += c.length;
        let part = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
        while (part.length) {
          const take = Math.min(part.length, this.chunkBytes - pendingBytes);
          pending.push(part.subarray(0, take));
          pendingBytes += take;
          part = part.subarray(take);
          if (pendingBytes === this.chunkBytes) {
            await flush(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
            pending = [];
            pendingBytes = 0;
          }
        }
      }
      if (pendingBytes || seq === 0) await flush(Buffer.concat(pending));
      digest = hash.digest('hex');
      await tx.updateTable('stored_files').set({ bytes, sha256: digest }).where('key', '=', key).execute();
    });
    return { bytes, sha256: digest };
  }

  async size(key: string) {
    const row = await this.db.selectFrom('stored_files').select('bytes').where('key', '=', key).executeTakeFirst();
    return row ? row.bytes : null;
  }

  read(key: string, range?: ByteRange): Readable {
    const { db } = this;
    const copy = copyRowsOf(db);
    /** Chunk `seq` as it arrived: by binary COPY (the bytes, no hex text) when the driver has it, else a query. */
    const chunk = async (seq: number): Promise<Uint8Array[] | undefined> => {
      if (copy && /^[\w.-]{1,100}$/.test(key)) {
        const rows = await copy(`select data from stored_file_chunks where key = '${key}' and seq = ${sqlInt(seq)}`);
        return rows[0]?.[0] ?? undefined;
      }
      const row = await db.selectFrom('stored_file_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
      return row ? [row.data] : undefined;
    };
    return Readable.from(
      (async function* () {
        const head = await db.selectFrom('stored_files').select(['bytes', 'chunk_bytes']).where('key', '=', key).executeTakeFirst();
        if (!head) throw new Error(`stored file ${key} is gone`);
        const start = range?.start ?? 0;
        const end = Math.min(range?.end ?? head.bytes - 1, head.bytes - 1);
        const size = head.chunk_bytes;
        for (let seq = Math.floor(start / size); seq * size <= end; seq++) {
          const parts = await chunk(seq);
          if (!parts) throw new Error(`stored file ${key} lacks chunk ${seq}`);
          // bytes [from, to) of this chunk, across the views it arrived in
          let at = seq * size;
          for (const p of parts) {
            const from = Math.max(0, start - at);
            const to = Math.min(p.length, end - at + 1);
            if (to > from) yield p.subarray(from, to);
            at += p.length;
          }
        }
      })(),
      { objectMode: false },
    );
  }

  async remove(keys: string[]) {
    if (keys.length) await this.db.deleteFrom('stored_files').where('key', 'in', keys).execute();
  }

  /**
   * Deletes contents no `files` row points at any more (their owner was deleted: the rows went by cascade), older than
   * an hour so that a file between its write and its link row is never taken. Answers how many.
   */
  async removeOrphans(): Promise<number> {
    const gone = await this.db
      .deleteFrom('stored_files')
      .where('created_at', '<', new Date(Date.now() - 3_600_000))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('files').select('files.id').whereRef('files.stored_as', '=', 'stored_files.key'))))
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  }
}

/** A stored file found behind a link: what it is, and its bytes to stream (whole or a range). */
export interface OpenedFile {
  filename: string;
  contentType: string;
  bytes: number;
  /** SHA-256 of the content, hex (null for files stored before migration 0028). */
  sha256: string | null;
  stream(range?: ByteRange): Readable;
}

/**
 * Files made on the server (exports, reports), served by unguessable, expiring links (`/api/v2/files/<token>/<name>`):
 * 24-hour bearer links. Whoever holds the URL can download the file without a session, like a signed URL, until it
 * expires (then 410); only the token's SHA-256 is stored, logs redact it, answers are `Cache-Control: private,
 * no-store`, and `Referrer-Policy: same-origin` keeps it out of other sites' Referer.
 *
 * The links (owner, token hash, expiry) are `files` rows; the bytes are in `storage`: the local folder DATA_DIR/files
 * on embedded PGlite, the database when DATABASE_URL is set (every machine serves every link; docs/decisions.md).
 * In PostgreSQL mode a file written to the local folder before (an older version) is still read from there.
 */
export class FileStore {
  /** The local folder (the storage on PGlite; files of older versions in PostgreSQL mode). */
  readonly dir: string;
  readonly storage: FileStorage;
  private readonly local: LocalFileStorage;

  constructor(
    private readonly db: DB,
    config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL'>,
  ) {
    this.dir = resolve(config.DATA_DIR.startsWith('memory://') ? join(tmpdir(), `crp-files-${process.pid}`) : join(config.DATA_DIR, FILE_STORE_SUBDIR));
    this.local = new LocalFileStorage(this.dir);
    this.storage = config.DATABASE_URL ? new PostgresFileStorage(db) : this.local;
  }

  /** Link lifetime of the owner's company (companies.download_link_hours, set by its administrator), hours. */
  private async linkHours(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select('companies.download_link_hours')
      .where('users.id', '=', ownerId)
      .executeTakeFirst();
    const h = row?.download_link_hours ?? DEFAULT_LINK_HOURS;
    return h >= 1 && h <= DEFAULT_LINK_HOURS ? h : DEFAULT_LINK_HOURS;
  }

  /** Stores `data` and returns the link path. `filename` is what the browser saves it as. */
  async save(ownerId: number, filename: string, contentType: string, data: FileBody): Promise<{ url: string; expires_at: string }> {
    const { url, expires_at } = await this.store(ownerId, filename, contentType, data);
    return { url, expires_at };
  }

  /** As `save`, also returning the row id (for records that point at their files, such as reports). */
  async store(ownerId: number, filename: string, contentType: string, data: FileBody): Promise<{ id: number; url: string; expires_at: string }> {
    const token = newToken();
    const safeName = safeFileName(filename);
    const storedAs = `${sha256(token).slice(0, 32)}.bin`;
    const written = await this.storage.write(storedAs, contentType, data);
    const expires = new Date(Date.now() + (await this.linkHours(ownerId)) * 3_600_000);
    try {
      const row = await this.db
        .insertInto('files')
        .values({
          token_hash: sha256(token),
          owner_id: ownerId,
          stored_as: storedAs,
          filename: safeName,
          content_type: contentType,
          bytes: written.bytes,
          sha256: written.sha256,
          expires_at: expires,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, url: `/api/v2/files/${token}/${encodeURIComponent(safeName)}`, expires_at: expires.toISOString() };
    } catch (err) {
      await this.storage.remove([storedAs]).catch(() => undefined); // no content without its link
      throw err;
    }
  }

  /** The storage holding `key`, and its size; null when neither the storage nor (PostgreSQL mode) the local folder has it. */
  private async locate(key: string): Promise<{ storage: FileStorage; bytes: number } | null> {
    const n = await this.storage.size(key);
    if (n !== null) return { storage: this.storage, bytes: n };
    if (this.storage === this.local) return null;
    const m = await this.local.size(key);
    return m === null ? null : { storage: this.local, bytes: m };
  }

  /**
   * A stored file by row id (reports serve their files behind their own link). Like a file link, it is refused with
   * 410 once the file's 24 hours are over: a report link is a 24-hour bearer link too.
   */
  async openById(id: number): Promise<OpenedFile> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('No such file.');
    if (new Date(row.expires_at).getTime() < Date.now())
      throw new AppError(410, 'This report link has expired (links last 24 hours). Generate the report again.');
    return this.read(row);
  }

  private async read(row: { stored_as: string; filename: string; content_type: string; sha256: string | null }): Promise<OpenedFile> {
    const at = await this.locate(row.stored_as);
    if (!at) throw notFound('The file is no longer stored. Generate it again.');
    return {
      filename: row.filename,
      contentType: row.content_type,
      bytes: at.bytes,
      sha256: row.sha256,
      stream: (range) => at.storage.read(row.stored_as, range),
    };
  }

  /** The file behind a link; 404 when unknown, 410 when expired. */
  async open(token: string): Promise<OpenedFile> {
    const row = await this.db.selectFrom('files').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!row) throw notFound('No such file.');
    if (new Date(row.expires_at).getTime() < Date.now()) throw new AppError(410, 'This download link has expired. Generate the file again.');
    return this.read(row);
  }

  /**
   * A fresh link to a file the caller made (spec "get_link": a cloud file link), from an earlier link or its token,
   * valid for another 24 hours. Expired files that are still stored are renewed too.
   */
  async renew(ownerId: number, linkOrToken: string): Promise<{ url: string; expires_at: string }> {
    const token = /\/api\/v2\/files\/([A-Za-z0-9_-]{20,100})\//.exec(linkOrToken)?.[1] ?? linkOrToken.trim();
    const row = await this.db.selectFrom('files').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!row || row.owner_id !== ownerId) throw notFound('file: no file of yours behind this link.');
    if (!(await this.locate(row.stored_as))) throw new AppError(410, 'The file is no longer stored. Generate it again.');
    const fresh = newToken();
    const expires = new Date(Date.now() + (await this.linkHours(ownerId)) * 3_600_000);
    await this.db
      .updateTable('files')
      .set({ token_hash: sha256(fresh), expires_at: expires })
      .where('id', '=', row.id)
      .execute();
    return { url: `/api/v2/files/${fresh}/${encodeURIComponent(row.filename)}`, expires_at: expires.toISOString() };
  }

  /** Deletes expired files and their rows (and, in PostgreSQL, contents whose rows went with their owner). */
  async sweep(): Promise<number> {
    if (this.storage instanceof PostgresFileStorage) await this.storage.removeOrphans();
    const rows = await this.db.selectFrom('files').select(['id', 'stored_as']).where('expires_at', '<', new Date()).execute();
    if (!rows.length) return 0;
    const keys = rows.map((r) => r.stored_as);
    await this.storage.remove(keys);
    if (this.storage !== this.local) await this.local.remove(keys);
    await this.db
      .deleteFrom('files')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows.length;
  }
}
