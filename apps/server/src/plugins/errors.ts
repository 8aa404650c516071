import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
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
      const errors: FieldError[] = error.validation.map((v) => {
        const field = fieldOf(v.instancePath, v.params);
        return { field, message: v.message ?? 'is invalid' };
      });
      const first = errors[0] ?? { field: where, message: 'is invalid' };
      const detail = first.message.startsWith(first.field) ? first.message : `${first.field}: ${first.message}`;
      return reply.status(400).send({ detail, errors });
    }
    if (error instanceof AppError) {
      if (error.statusCode === 429 && typeof error.extra?.retry_after_seconds === 'number') {
        void reply.header('retry-after', String(error.extra.retry_after_seconds));
      }
      return reply
        .status(error.statusCode)
        .send({ detail: error.message, ...(error.errors ? { errors: error.errors } : {}), ...(error.extra ?? {}) });
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
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Server Error: something went wrong on our side. The error was logged.' });
  });

}

