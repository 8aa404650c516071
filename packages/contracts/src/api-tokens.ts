import { z } from 'zod';
import { text } from './common.js';

/**
 * Personal API tokens (issue 32 item 3): long-lived, read-only tokens for QGIS layers, GDAL and notebooks, instead of a
 * session token in a URL. Shown once at creation; the server keeps only their SHA-256. The prefix tells them apart
 * from session tokens (for users, logs and secret scanners).
 */
export const API_TOKEN_PREFIX = 'crp_pat_';
/** The lifetimes the web form offers, in days (the server's API_TOKEN_MAX_DAYS caps them). */
export const API_TOKEN_EXPIRY_CHOICES = [30, 90, 365] as const;
/** The longest lifetime the schema takes, days; the installation's cap (API_TOKEN_MAX_DAYS, default 365) is lower. */
export const API_TOKEN_SCHEMA_MAX_DAYS = 3650;
/** Most live personal API tokens one user may hold. */
export const API_TOKENS_PER_USER = 20;

const daysMessage = `expires_in_days must be a whole number of days from 1 to ${API_TOKEN_SCHEMA_MAX_DAYS}`;

/** `POST /api/user/api_tokens/`. */
export const CreateApiTokenBody = z.object({
  name: text('name', 100).describe('what the token is for, e.g. "QGIS on my laptop"'),
  expires_in_days: z.coerce
    .number({ error: daysMessage })
    .int(daysMessage)
    .min(1, daysMessage)
    .max(API_TOKEN_SCHEMA_MAX_DAYS, daysMessage)
    .describe('days until the token expires (30, 90 or 365 in the web app; at most the installation cap, API_TOKEN_MAX_DAYS)'),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

/** One personal API token as listed (never the token itself). */
export const ApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  hint: z.string().describe('the first characters of the token (crp_pat_ and four more), to tell tokens apart'),
  user: z.object({ id: z.number().int(), username: z.string() }).describe('whose token it is'),
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('last request made with it (written at most every 5 minutes); null when never used'),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** `GET /api/user/api_tokens/` and `GET /api/company/api_tokens/`: tokens not revoked, newest first. */
export const ApiTokenList = z.object({
  tokens: z.array(ApiToken),
  max_days: z.number().int().describe('the longest lifetime this installation allows (API_TOKEN_MAX_DAYS)'),
});
export type ApiTokenList = z.infer<typeof ApiTokenList>;

/** `POST /api/user/api_tokens/` (201): the token, shown this once. */
export const ApiTokenCreated = z.object({
  detail: z.string(),
  token: z.string().describe('the secret: send it as `Authorization: Token <token>` (or `?token=` on the tile route); it is not shown again'),
  api_token: ApiToken,
});
export type ApiTokenCreated = z.infer<typeof ApiTokenCreated>;

/** `tokenId` in a path: a positive integer within the id column (int4), so a larger one is a 400, not a database error. */
export const ApiTokenIdParam = z.object({
  tokenId: z.coerce
    .number({ error: 'tokenId must be a number' })
    .int('tokenId must be an integer')
    .positive('tokenId must be a positive integer')
    .max(2_147_483_647, 'tokenId is too large'),
});
