import { z } from 'zod';
import { TIERS, type Tier } from './accounts.js';

/**
 * Plans in one line each (issue 37 item 1), shown beside 'Please upgrade tier to see content' on every locked panel.
 * They say what the server's TIER_DEFAULTS (apps/server/src/modules/accounts/tier.service.ts) give each tier.
 */
export const PLAN_INCLUDES: Record<Tier, string> = {
  free: 'Free plan: climate and hazard scores, maps, heat map and asset table, up to 100 assets.',
  professional: 'Professional adds: losses in money (CVaR, expected annual and 1-in-100-year losses) everywhere, Transition Risk and 2,000 assets.',
  enterprise: 'Enterprise adds: everything in Professional, for up to 100,000 assets.',
};

/** Tiers above a tier, in order (what it may ask for). */
export const tiersAbove = (tier: Tier): Tier[] => TIERS.slice(TIERS.indexOf(tier) + 1);

export const UPGRADE_REQUEST_STATUSES = ['pending', 'granted', 'declined'] as const;

/** `POST api/v2/upgrade_requests/`: the tier asked for (default professional) and an optional note to the operator. */
export const UpgradeRequestBody = z
  .strictObject({
    tier: z.enum(TIERS, { error: `tier must be one of ${TIERS.join(', ')}` }).default('professional'),
    message: z.string({ error: 'message must be text' }).trim().max(1000, 'message must be at most 1000 characters').default(''),
  })
  .meta({ id: 'UpgradeRequestBody' });
export type UpgradeRequestBody = z.input<typeof UpgradeRequestBody>;

export const UpgradeRequest = z
  .object({
    id: z.number().int(),
    company_code: z.string(),
    company_name: z.string(),
    tier_from: z.string().describe('the tier when asked'),
    tier: z.enum(TIERS).describe('the tier asked for'),
    message: z.string(),
    status: z.enum(UPGRADE_REQUEST_STATUSES),
    requested_by: z.string().nullable().describe('username of the requester (null: the user was deleted)'),
    created_at: z.string(),
    decided_at: z.string().nullable(),
    decided_by: z.string().nullable().describe('the operator who decided, or admin-cli'),
  })
  .meta({ id: 'UpgradeRequest' });
export type UpgradeRequest = z.infer<typeof UpgradeRequest>;

export const UpgradeRequestList = z.object({
  requests: z
    .array(UpgradeRequest)
    .describe("an operator: every company's pending requests, then the 50 last decided; anyone else: their own company's, newest first"),
});
export type UpgradeRequestList = z.infer<typeof UpgradeRequestList>;
