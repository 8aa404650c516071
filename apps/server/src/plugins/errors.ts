import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DISK_FULL_DETAIL, isDiskFull } from '../lib/disk-full.js';
import { AppError } from '../lib/errors.js';

interface FieldError {
  field: string;
  message: string;
}

function fieldOf(instancePath: string | undefined, params: unknown): string {
  const fromPath = (instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (fromPath) return fromPath;
  const p = params as { missingProperty?: string; issue?: { path?: unknown[] } } | undefined;
  const issuePath = p?.issue?.path;
  if (Array.isArray(issuePath) && issuePath.length) return issuePath.join('.');
  return p?.missingProperty ?? 'body';
}

/** One place that turns errors into answers: 4xx with a sentence naming the field, 5xx without internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const errors: FieldError[] = error.validation.flatMap((v) => {
        const field = fieldOf(v.instancePath, v.params);
        // keys a strict object does not have (contracts strictObject): one error naming each key, at its place
        const keys = (v.params as { keys?: unknown } | undefined)?.keys;
        if (v.keyword === 'unrecognized_keys' && Array.isArray(keys) && keys.length) {
          const at = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
          return keys.map((k) => ({ field: at ? `${at}.${String(k)}` : String(k), message: v.message ?? 'unknown key' }));
        }
        return [{ field, message: v.message ?? 'is invalid' }];
      });
      const first = errors[0] ?? { field: where, message: 'is invalid' };
      const detail = first.message.startsWith(first.field) ? first.message : `${first.field}: ${first.message}`;
      return reply.status(400).send({ detail, errors });
    }
    if (error instanceof AppError) {
      // 429 (rate limits) and 409 (an analysis still running): when to ask again
      if ((error.statusCode === 429 || error.statusCode === 409) && typeof error.extra?.retry_after_seconds === 'number') {
        void reply.header('retry-after', String(error.extra.retry_after_seconds));
      }
      return reply.status(error.statusCode).send({ detail: error.message, ...(error.errors ? { errors: error.errors } : {}), ...(error.extra ?? {}) });
    }
    // A write that met a full disk (file store, PostgreSQL, PGlite): 507, and the request changed nothing.
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'disk full');
      return reply.status(507).send({ detail: DISK_FULL_DETAIL });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_REQ_FILE_TOO_LARGE'
          ? `upload_file is larger than the ${Math.round(app.config.UPLOAD_LIMIT_BYTES / 1_048_576)} MB upload limit.`
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? `Request body is too large (limit ${(request.routeOptions.config as { bodyLimit?: number } | undefined)?.bodyLimit ?? request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0} bytes).`
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? `Unsupported content type: ${request.headers['content-type'] ?? 'none'}. Send JSON, a form or multipart form data.`
              : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'Request body is empty but content-type is application/json.'
                : error.message;
      return reply.status(status).send({ detail });
    }
    // The multipart parser (busboy) throws plain errors on a broken body: the client's fault, not ours.
    if (
      String(request.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('multipart/') &&
      MULTIPART_ERROR.test(error.message)
    ) {
      return reply
        .status(400)
        .send({ detail: `Malformed multipart/form-data body: ${error.message.replace(/\.$/, '')}.`, errors: [{ field: 'body', message: error.message }] });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Server Error: something went wrong on our side. The error was logged.' });
  });
}

/** What busboy says about a broken multipart body (a missing boundary, a truncated part). */
const MULTIPART_ERROR = /multipart|boundary|Unsupported Content-Type|terminated early/i;

/**
 * Errors the router meets before any route runs (a path with a broken percent-encoding such as %zz, a path
 * parameter over maxParamLength): answered in the API's shape, `{detail}`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: a path segment has a broken percent-encoding (use %XX with two hex digits, UTF-8).'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is too long (at most 200 characters).'
        : error.message;
  void reply.status(error.statusCode && error.statusCode < 500 ? error.statusCode : 400).send({ detail });
}

/**
 * Errors of the HTTP parser, before Fastify sees a request (headers or URL over Node's 16 KiB header limit, a broken
 * request line): the same answers as Fastify's default handler, with a `detail` sentence.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, detail] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long to arrive.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers (with the URL and query string) are larger than the 16 KiB limit.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ detail });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
