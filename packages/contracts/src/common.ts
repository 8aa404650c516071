import { z } from 'zod';

/** Every 4xx/5xx answer has this body: `detail` is a sentence for people, `errors` names the fields. */
export const ErrorBody = z.object({
  detail: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const DetailBody = z.object({ detail: z.string() });

/** Trimmed non-empty string of bounded length, for names typed by people. */
export const text = (label: string, max = 150) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Id in a path: positive integer as text. */
export const IdParam = (name: string) =>
  z.object({ [name]: z.coerce.number({ error: `${name} must be a number` }).int().positive(`${name} must be a positive integer`) });
