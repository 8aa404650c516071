import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Answers below this size are sent as they are (compressing them costs more than it saves). */
export const COMPRESS_MIN_BYTES = 64 * 1024;
/** Brotli quality 3 / gzip level 4: a 1.4 MiB dashboard answer shrinks 7-12x in a few ms of a thread-pool thread. */
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 4;

const br = promisify(brotliCompress);
const gz = promisify(gzip);
export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with, from Accept-Encoding: br if accepted, else gzip, else none. `q=0` refuses an encoding;
 * `*` accepts any. (Browsers send br only over HTTPS; over plain HTTP they get gzip.)
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/**
 * Compressed copies of Buffer answers, kept as long as the answer itself is (the dashboard's answer cache returns the
 * same Buffer for a repeated query, so a repeated answer is compressed once per encoding).
 */
const compressedOf = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();

export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let entry = compressedOf.get(body);
  if (!entry) compressedOf.set(body, (entry = {}));
  let out = entry[encoding];
  if (!out) {
    out =
      encoding === 'br'
        ? br(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
            },
          })
        : gz(body, { level: GZIP_LEVEL });
    entry[encoding] = out;
    out.catch(() => {
      if (entry[encoding] === out) delete entry[encoding];
    });
  }
  return out;
}

const isJson = (type: unknown) => typeof type === 'string' && type.startsWith('application/json');

/**
 * HTTP compression of large JSON answers (dashboard, asset lists), negotiated by Accept-Encoding; compressed on the
 * libuv thread pool, so the event loop is not blocked. Streams (files, exports, tiles) are left alone.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req: FastifyRequest, reply, payload) => {
    if (reply.hasHeader('content-encoding') || !isJson(reply.getHeader('content-type'))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : null;
    if (!body || body.byteLength < COMPRESS_MIN_BYTES) return payload;
    void reply.header('vary', 'Accept-Encoding');
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    const out = await compress(body, encoding);
    void reply.header('content-encoding', encoding);
    return out;
  });
}
