import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { safeFileName } from '@crp/contracts';
import type { Config } from '../config.js';
import type { DB } from './db/database.js';
import { newToken, sha256 } from '../lib/crypto.js';
import { AppError, notFound } from '../lib/errors.js';

/** The file store's folder under DATA_DIR (backups include it: db/backup.ts). */
export const FILE_STORE_SUBDIR = 'files';

/** Generated files (exports, reports) live this long behind their link unless the owner's company chose less. */
export const DEFAULT_LINK_HOURS = 24;

/**
 * Files made on the server (exports, reports), stored under DATA_DIR/files and served by unguessable, expiring
 * links (`/api/v2/files/<token>/<name>`): 24-hour bearer links. Whoever holds the URL can download the file without a
 * session, like a signed URL, until it expires (then 410); only the token's SHA-256 is stored, logs redact it, answers
 * are `Cache-Control: private, no-store`, and `Referrer-Policy: same-origin` keeps it out of other sites' Referer.
 */
export class FileStore {
  readonly dir: string;

  constructor(
    private readonly db: DB,
    config: Pick<Config, 'DATA_DIR'>,
  ) {
    this.dir = resolve(config.DATA_DIR.startsWith('memory://') ? join(tmpdir(), `crp-files-${process.pid}`) : join(config.DATA_DIR, FILE_STORE_SUBDIR));
    mkdirSync(this.dir, { recursive: true });
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
  async save(ownerId: number, filename: string, contentType: string, data: Buffer): Promise<{ url: string; expires_at: string }> {
    const { url, expires_at } = await this.store(ownerId, filename, contentType, data);
    return { url, expires_at };
  }

  /** As `save`, also returning the row id (for records that point at their files, such as reports). */
  async store(ownerId: number, filename: string, contentType: string, data: Buffer): Promise<{ id: number; url: string; expires_at: string }> {
    const token = newToken();
    const safeName = safeFileName(filename);
    const storedAs = `${sha256(token).slice(0, 32)}.bin`;
    try {
      writeFileSync(join(this.dir, storedAs), data);
    } catch (err) {
      rmSync(join(this.dir, storedAs), { force: true }); // a disk-full write leaves part of the file
      throw err;
    }
    const expires = new Date(Date.now() + (await this.linkHours(ownerId)) * 3_600_000);
    const row = await this.db
      .insertInto('files')
      .values({
        token_hash: sha256(token),
        owner_id: ownerId,
        stored_as: storedAs,
        filename: safeName,
        content_type: contentType,
        bytes: data.length,
        expires_at: expires,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, url: `/api/v2/files/${token}/${encodeURIComponent(safeName)}`, expires_at: expires.toISOString() };
  }

  /**
   * A stored file by row id (reports serve their files behind their own link). Like a file link, it is refused with
   * 410 once the file's 24 hours are over: a report link is a 24-hour bearer link too.
   */
  async openById(id: number): Promise<{ filename: string; contentType: string; data: Buffer }> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('No such file.');
    if (new Date(row.expires_at).getTime() < Date.now())
      throw new AppError(410, 'This report link has expired (links last 24 hours). Generate the report again.');
    return this.read(row);
  }

  private read(row: { stored_as: string; filename: string; content_type: string }) {
    const path = resolve(this.dir, row.stored_as);
    if (!path.startsWith(this.dir + sep) || !existsSync(path)) throw notFound('The file is no longer stored. Generate it again.');
    return { filename: row.filename, contentType: row.content_type, data: readFileSync(path) };
  }

  /** The file behind a link; 404 when unknown, 410 when expired. */
  async open(token: string): Promise<{ filename: string; contentType: string; data: Buffer }> {
    const row = await this.db.selectFrom('files').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!row) throw notFound('No such file.');
    if (new Date(row.expires_at).getTime() < Date.now()) throw new AppError(410, 'This download link has expired. Generate the file again.');
    return this.read(row);
  }

  /**
   * A fresh link to a file the caller made (spec "get_link": a cloud file link), from an earlier link or its token,
   * valid for another 24 hours. Expired files that are still on disk are renewed too.
   */
  async renew(ownerId: number, linkOrToken: string): Promise<{ url: string; expires_at: string }> {
    const token = /\/api\/v2\/files\/([A-Za-z0-9_-]{20,100})\//.exec(linkOrToken)?.[1] ?? linkOrToken.trim();
    const row = await this.db.selectFrom('files').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!row || row.owner_id !== ownerId) throw notFound('file: no file of yours behind this link.');
    const path = resolve(this.dir, row.stored_as);
    if (!path.startsWith(this.dir + sep) || !existsSync(path)) throw new AppError(410, 'The file is no longer stored. Generate it again.');
    const fresh = newToken();
    const expires = new Date(Date.now() + (await this.linkHours(ownerId)) * 3_600_000);
    await this.db
      .updateTable('files')
      .set({ token_hash: sha256(fresh), expires_at: expires })
      .where('id', '=', row.id)
      .execute();
    return { url: `/api/v2/files/${fresh}/${encodeURIComponent(row.filename)}`, expires_at: expires.toISOString() };
  }

  /** Deletes expired files and their rows. */
  async sweep(): Promise<number> {
    const rows = await this.db.selectFrom('files').select(['id', 'stored_as']).where('expires_at', '<', new Date()).execute();
    for (const r of rows) rmSync(resolve(this.dir, r.stored_as), { force: true });
    if (rows.length)
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
