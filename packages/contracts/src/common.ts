import { z } from 'zod';

/** Every 4xx/5xx answer has this body: `detail` is a sentence for people, `errors` names the fields. */
export const ErrorBody = z
  .object({
    detail: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    retry_after_seconds: z
      .number()
      .int()
      .optional()
      .describe('409 while an analysis runs, 429: seconds to wait before asking again (also the Retry-After header).'),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const DetailBody = z.object({ detail: z.string() });

/** Longest name of a project (portfolio, map or transition project), characters: the schemas here and the web app's name inputs. */
export const PROJECT_NAME_MAX_LENGTH = 150;

/** Trimmed non-empty string of bounded length, for names typed by people. */
export const text = (label: string, max = 150) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * Largest id of a row: every id column is `serial`, a PostgreSQL `integer` (int4), so 1..2,147,483,647
 * (apps/server/src/infra/db/migrations). A larger number would fail in the query ("out of range for type integer").
 */
export const ID_MAX = 2_147_483_647;

/**
 * A row id in a request (issue 32: ids of 2^31 or more answered 500): a whole number from 1 to ID_MAX, refused
 * with a 400 naming the field otherwise. `coerce` for text (paths, queries, form fields, JSON text lists); JSON
 * bodies take a number. Every id a route reads goes through this.
 */
export function dbId(name: string, opts: { coerce?: boolean } = {}) {
  const base = opts.coerce ? z.coerce.number({ error: `${name} must be a number` }) : z.number({ error: `${name} must be a number` });
  return base.int(`${name} must be a whole number`).min(1, `${name} must be a positive id`).max(ID_MAX, `${name} must be at most ${ID_MAX} (no such id)`);
}

/** Id in a path: positive integer as text, at most ID_MAX. */
export const IdParam = (name: string) => z.object({ [name]: dbId(name, { coerce: true }) });

/**
 * A binary answer (a file, an image) in the OpenAPI document: `type: string, format: binary`. The routes send a Buffer
 * (or a string with a non-JSON content type), which Fastify writes as is, so this schema never validates or serialises.
 */
export const BinaryBody = (description: string) => z.string().meta({ format: 'binary' }).describe(description) as unknown as z.ZodType<Uint8Array | string>;

/** Edit distance of two short keys (a misspelt key's nearest known key). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The sentence for keys an object does not have: the nearest known key when one is close, and the known keys. */
export function unknownKeysMessage(keys: readonly string[], known: readonly string[]): string {
  const near = keys.length === 1 ? known.find((k) => editDistance(keys[0]!.toLowerCase(), k) <= Math.max(1, Math.floor(k.length / 4))) : undefined;
  return `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k.slice(0, 60)}'`).join(', ')}${near ? ` (did you mean '${near}'?)` : ''}; the keys are ${known.join(', ')}`;
}

/**
 * An object that refuses keys it does not have (issue 38: a misspelt `hazard` was dropped and all hazards answered):
 * a 400 naming each unknown key (plugins/errors.ts turns the issue into one `{field, message}` per key).
 */
export function strictObject<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, { error: (iss) => (iss.code === 'unrecognized_keys' ? unknownKeysMessage(iss.keys, known) : undefined) });
}
