/**
 * Large bytea values (analysis result blobs, about 1 MB each) cross the driver as base64 text: PGlite's JavaScript
 * protocol layer turns a bytea parameter into hex text and parses a bytea result from hex character by character,
 * in the server's event loop (measured on this machine: ten 1.1 MB blobs inserted in 8.9 s as bytea, 0.73 s as base64
 * text with decode() in SQL; read in 4.9 s as bytea, 0.15 s as encode()d base64). On PostgreSQL blobs are written
 * the same way and read as they are (readBlobsRaw). Use for blobs only; small bytea columns need none of this.
 */
import { sql, type RawBuilder } from 'kysely';

/** A blob as an SQL value: decode(base64, 'base64'). */
export function blobValue(data: Uint8Array): RawBuilder<Buffer> {
  const b64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  return sql<Buffer>`decode(${b64}, 'base64')`;
}

/**
 * Blob columns read as they are (node-postgres hands a bytea column over as a Buffer): set for PostgreSQL by
 * openDatabase. Measured on PostgreSQL 15 here: one job of a million-asset dashboard store (24 MiB in 125 rows) read in
 * 0.76-1.05 s as bytea against 1.5-3.4 s as encode()d base64 decoded in Node (load 11).
 */
let rawBlobs = false;
export function readBlobsRaw(on: boolean): void {
  rawBlobs = on;
}

/** A blob column: base64 text on PGlite, the bytes on PostgreSQL (see blobOf). */
export function blobColumn(column: string): RawBuilder<string | Buffer> {
  return rawBlobs ? sql<Buffer>`${sql.ref(column)}` : sql<string>`encode(${sql.ref(column)}, 'base64')`;
}

/** The bytes of a blobColumn value (PostgreSQL's base64 has line breaks, which Buffer.from skips). */
export function blobOf(v: string | Buffer): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : v;
}
