/**
 * Cursor paging of the results API (issue 36 item 4). A request's rows are numbered in answer order (asset, hazard,
 * scenario, year over the selected assets); a cursor is the number of the next page's first row, with the analysis run
 * it was read from and a fingerprint of the request, base64url-encoded. Opaque to clients: they send back what they
 * got. A cursor of another request, of a replaced analysis, or one that does not parse is a 400 naming `cursor`.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../lib/errors.js';

interface CursorBody {
  /** First row of the page (0-based, over every page of the request). */
  o: number;
  /** The analysis run (projects.results_version) the rows come from; 0 for posted assets. */
  r: number;
  /** Fingerprint of the request (requestFingerprint). */
  f: string;
}

const PREFIX = 'c1.';

/** A short fingerprint of everything that decides a request's rows (project or posted assets, filters, options). */
export function requestFingerprint(selection: unknown): string {
  return createHash('sha256').update(JSON.stringify(selection)).digest('base64url').slice(0, 16);
}

export function encodeCursor(c: CursorBody): string {
  return PREFIX + Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

const bad = (message: string) => badRequest(`cursor: ${message}`, 'cursor');

/** The first row a cursor points at; 400 naming `cursor` when it is not one of this request's cursors. */
export function decodeCursor(cursor: string, expect: { run: number; fingerprint: string; totalRows: number }): number {
  let c: Partial<CursorBody> | null = null;
  if (cursor.startsWith(PREFIX)) {
    try {
      c = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8')) as Partial<CursorBody>;
    } catch {
      c = null;
    }
  }
  if (!c || typeof c !== 'object' || !Number.isSafeInteger(c.o) || !Number.isSafeInteger(c.r) || typeof c.f !== 'string')
    throw bad('not a cursor of this API: send the next_cursor of the previous page as it came');
  if (c.f !== expect.fingerprint)
    throw bad(
      'this cursor was made for another request: send the same body (project or assets, hazards, scenarios, years, asset_ids, options) as the first page',
    );
  if (c.r !== expect.run) throw bad('the project was analysed again since this cursor was made (its rows may have changed): start again without cursor');
  if (c.o! < 0 || c.o! >= expect.totalRows) throw bad(`this cursor points past the request's ${expect.totalRows} rows`);
  return c.o!;
}
