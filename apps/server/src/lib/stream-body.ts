/**
 * A streamed HTTP body from an async sequence of text or bytes (issue 36 item 4): pieces are gathered into writes of
 * about 64 KiB, the producer is pulled only as fast as the client reads (Node's Readable backpressure), and gzip'd on
 * the thread pool when the client accepts it. Memory per answer: the gathering buffer and the socket's buffers.
 */
import { Readable } from 'node:stream';
import { createGzip, constants } from 'node:zlib';

/** Bytes gathered before one write. */
const WRITE_BYTES = 64 * 1024;
/** gzip level 4: most of level 6's saving at about half its CPU (the JSON rows are very repetitive). */
const GZIP_LEVEL = 4;

/** Whether the Accept-Encoding header accepts gzip (q=0 refuses it; `*` accepts it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name === 'gzip' || name === 'x-gzip') gzip = weight;
    else if (name === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

async function* gathered(pieces: AsyncIterable<string | Uint8Array>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const p of pieces) {
    const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p.buffer, p.byteOffset, p.byteLength);
    parts.push(b);
    size += b.byteLength;
    if (size >= WRITE_BYTES) {
      yield parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  if (size) yield Buffer.concat(parts, size);
}

/** The body stream of `pieces`, gzip'd when `gzip`. */
export function streamBody(pieces: AsyncIterable<string | Uint8Array>, gzip: boolean): Readable {
  const body = Readable.from(gathered(pieces), { objectMode: false, highWaterMark: WRITE_BYTES });
  if (!gzip) return body;
  const z = createGzip({ level: GZIP_LEVEL, flush: constants.Z_NO_FLUSH });
  body.on('error', (e) => z.destroy(e));
  return body.pipe(z);
}

/**
 * The same sequence with its first item already read: an error before the first item (a 409, a 400) is thrown here,
 * while the answer can still be a 4xx, not in the middle of a 200 stream.
 */
export async function primed<T>(items: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    },
  };
}
