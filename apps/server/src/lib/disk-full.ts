/**
 * Disk full (issue 32): the errors a write meets when the disk or the user's quota is full, from every layer that
 * writes: Node's file system (`ENOSPC`, `EDQUOT`), PostgreSQL (SQLSTATE 53100 `disk_full`, e.g. `could not extend
 * file "base/16384/2619": No space left on device`; 53400 is a configured limit, not this) and PGlite, whose
 * Emscripten file system throws `ErrnoError` with the WASI numbers (51 ENOSPC, 19 EDQUOT).
 */

/** What a user is told (HTTP 507 Insufficient Storage): the request changed nothing. */
export const DISK_FULL_DETAIL = "The server's disk is full; nothing was saved. Try again later: the administrator has to free space on the server first.";

const WASI_ENOSPC = 51;
const WASI_EDQUOT = 19;
const MESSAGE = /No space left on device|could not extend file|Disk quota exceeded/i;

function oneIsDiskFull(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const { code, errno, name, message } = e as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown };
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return true;
  if (name === 'ErrnoError' && (errno === WASI_ENOSPC || errno === WASI_EDQUOT)) return true;
  return typeof message === 'string' && MESSAGE.test(message);
}

/** Whether `err`, or an error it wraps (`cause`, an AggregateError's `errors`), says the disk is full. */
export function isDiskFull(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (oneIsDiskFull(e)) return true;
    const { cause, errors } = e as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

/**
 * The one line a start-up that failed prints instead of a stack trace, for the failures a person must fix on the
 * machine (disk full); null for the rest, which keep their stack trace.
 */
export function startupFailureLine(err: unknown, where: string): string | null {
  if (!isDiskFull(err)) return null;
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  const detail = typeof message === 'string' && message ? message : typeof code === 'string' ? code : 'no space left on device';
  return `Cannot start: the disk holding ${where} is full (${detail.slice(0, 200)}). Free space there and start again; no data was changed.`;
}
