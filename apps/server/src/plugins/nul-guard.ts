import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';

/** What the answer says about a NUL, after the field's name. */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

interface Frame {
  value: unknown;
  key: string;
  parent: Frame | null;
}

const pathOf = (f: Frame): string => {
  const parts: string[] = [];
  for (let p: Frame | null = f; p; p = p.parent) if (p.key !== '') parts.push(p.key);
  return parts.reverse().join('.');
};

/**
 * The dotted path (`data.1.name`, the errors plugin's way of naming fields) of the first string or object key holding
 * U+0000 in `value`, or null. Iterative with parent links, so 100,000-deep nesting neither overflows the stack nor
 * builds long paths it does not need. File parts of a multipart body (`{filename, data: Buffer}`) are skipped: their
 * bytes are read by the upload reader, which checks the cells, and the file name is never stored as given.
 */
export function findNul(value: unknown, root = ''): string | null {
  const stack: Frame[] = [{ value, key: root, parent: null }];
  while (stack.length) {
    const f = stack.pop()!;
    const v = f.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(f) || 'body';
      continue;
    }
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v) || ArrayBuffer.isView(v)) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        if (typeof v[i] === 'string' || (v[i] && typeof v[i] === 'object')) stack.push({ value: v[i], key: String(i), parent: f });
      continue;
    }
    if (Buffer.isBuffer((v as { data?: unknown }).data) && typeof (v as { filename?: unknown }).filename === 'string') continue;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (k.includes('\u0000')) return pathOf({ value: null, key: k, parent: f });
      stack.push({ value: (v as Record<string, unknown>)[k], key: k, parent: f });
    }
  }
  return null;
}

/** The first field of the request (path parameters, then query, then body) holding a NUL, or null. */
export function nulField(req: Pick<FastifyRequest, 'params' | 'query' | 'body'>): string | null {
  return findNul(req.params) ?? findNul(req.query) ?? findNul(req.body);
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL reaching a query made the request fail with a 500. Every
 * route refuses it before validation, with a 400 naming the field (ASVS V5.1.3/V5.1.4: input validated against what
 * the store accepts, rejected rather than altered). Upload cells are checked by the upload reader (asset-import.ts).
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const field = nulField(req);
    if (field !== null) {
      const message = `${field} ${NUL_MESSAGE}`;
      throw new AppError(400, `${message}.`, [{ field, message: NUL_MESSAGE }]);
    }
  });
}
