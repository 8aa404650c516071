import { z } from 'zod';

/** Every 4xx/5xx answer has this body: `detail` is a sentence for people, `errors` names the fields. */
export const ErrorBody = z.object({ detail: z.string(), errors: z.array(z.object({ field: z.string(), message: z.string() })).optional() });
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

/** Id in a path: positive integer as text. */
export const IdParam = (name: string) =>
  z.object({
    [name]: z.coerce
      .number({ error: `${name} must be a number` })
      .int()
      .positive(`${name} must be a positive integer`),
  });

/**
 * A binary answer (a file, an image) in the OpenAPI document: `type: string, format: binary`. The routes send a Buffer
 * (or a string with a non-JSON content type), which Fastify writes as is, so this schema never validates or serialises.
 */
export const BinaryBody = (description: string) => z.string().meta({ format: 'binary' }).describe(description) as unknown as z.ZodType<Uint8Array | string>;
