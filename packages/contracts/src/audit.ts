import { z } from 'zod';

/**
 * The company activity log (audit trail, issue 13 item 6): what the server writes to audit_log, readable by the
 * company's administrators. Readable names of the actions; an action not listed shows as its code.
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'login.succeeded': 'Logged in',
  'login.failed': 'Failed login (wrong password)',
  'login.2fa_failed': 'Failed login (wrong 2FA code)',
  'login.recovery_code_used': 'Logged in with a 2FA recovery code',
  'password.reset_requested': 'Asked for a password reset link',
  'password.reset': 'Reset the password by e-mail link',
  logout: 'Logged out',
  'logout.everywhere': 'Signed out everywhere',
  'company.created': 'Created the company',
  'user.join_requested': 'Asked to join the company',
  'member.approved': 'Approved a member',
  'member.rejected': 'Rejected a member',
  '2fa.enabled': 'Turned on two-factor authentication',
  '2fa.changed': 'Changed the two-factor method or device',
  '2fa.disabled': 'Turned off two-factor authentication',
  '2fa.confirm_failed': 'Failed 2FA change (wrong password or code)',
  '2fa.reset': 'Two-factor authentication reset by an operator',
  '2fa.recovery_codes_generated': 'Made new 2FA recovery codes',
  'tier.changed': 'Plan changed by an operator',
  'project.created': 'Created a project',
  'project.add': 'Added assets to a project',
  'project.overwrite': 'Replaced the assets of a project',
  'project.renamed': 'Renamed a project',
  'project.deleted': 'Deleted a project',
  'project.shared': 'Shared a project',
  'assets.updated': 'Edited assets',
  'carbon.created': 'Created a carbon analysis',
  'carbon.overwritten': 'Replaced a carbon analysis',
  'carbon.modified': 'Edited a carbon analysis',
  'carbon.deleted': 'Deleted a carbon analysis',
  'realestate.created': 'Created a property-risk analysis',
  'realestate.overwrite': 'Replaced a property-risk analysis',
  'own_layer.uploaded': 'Uploaded an own hazard layer',
  'own_layer.deleted': 'Deleted an own hazard layer',
  'api_token.created': 'Made a personal API token',
  'api_token.revoked': 'Revoked a personal API token',
};

/** Filter groups offered by the activity log (an action's code before the dot). */
export const AUDIT_ACTION_GROUPS: Record<string, string> = {
  login: 'Logins',
  logout: 'Logouts',
  password: 'Password resets',
  member: 'Membership decisions',
  user: 'Join requests',
  company: 'Company',
  '2fa': 'Two-factor authentication',
  tier: 'Plan changes',
  project: 'Projects',
  assets: 'Asset edits',
  carbon: 'Carbon analyses',
  realestate: 'Property risk',
  own_layer: 'Own hazard layers',
  api_token: 'Personal API tokens',
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

const dateParam = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, `${field} must be a date (YYYY-MM-DD) or an ISO date-time`)
    .refine((v) => !Number.isNaN(Date.parse(v)), `${field} is not a valid date`);

export const AuditLogQuery = z
  .object({
    page: z.coerce
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be 1 or more')
      .max(100_000, 'page is too large')
      .default(1),
    page_size: z.coerce
      .number({ error: 'page_size must be a number' })
      .int('page_size must be a whole number')
      .min(1, 'page_size must be 1 or more')
      .max(200, 'page_size must be 200 or less')
      .default(20),
    /** An action code (login.succeeded) or a group (login: every login.* action). */
    action: z
      .string()
      .regex(/^[a-z0-9_]{1,40}(\.[a-z0-9_]{1,40})?$/, 'action must be an action code such as login.succeeded, or a group such as login')
      .optional(),
    /** From this date (inclusive; a date is its start, UTC). */
    from: dateParam('from').optional(),
    /** To this date (inclusive; a date means the whole day, UTC). */
    to: dateParam('to').optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to.length === 10 ? `${q.to}T23:59:59.999Z` : q.to), {
    message: 'to must not be before from',
    path: ['to'],
  });
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditLogEntry = z.object({
  id: z.number().int(),
  time: z.string(),
  action: z.string(),
  action_label: z.string(),
  /** Who did it: null for operator actions (admin command) and deleted users. */
  user: z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable(),
  detail: z.record(z.string(), z.unknown()),
  client: z.string().nullable(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

export const AuditLogResponse = z.object({ total: z.number().int(), page: z.number().int(), page_size: z.number().int(), results: z.array(AuditLogEntry) });
export type AuditLogResponse = z.infer<typeof AuditLogResponse>;
