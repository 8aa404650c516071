import { z } from 'zod';
import { dbId, text } from './common.js';

/** Modules a tier can unlock (spec 000 §6). */
export const MODULES = ['physical_risk', 'transition_risk', 'map'] as const;
export type ModuleKey = (typeof MODULES)[number];

/** Dashboard sections gated by tier (spec 001 §6). */
export const TIER_SECTIONS = [
  'asset_level_risk_map',
  'climate_variable_intensity',
  'climate_heatmap',
  'portfolio_losses',
  'rcp_year_loss_bars',
  'asset_table',
] as const;
export type TierSection = (typeof TIER_SECTIONS)[number];

/** Column edit permissions (spec 001 §3.2 data_edit_permissions). */
export const DATA_EDIT_PERMISSIONS = [
  'can_edit_property_type',
  'can_edit_stories',
  'can_edit_ownership',
  'can_edit_valuation',
  'can_edit_revenue',
  'can_edit_construction_cost',
] as const;
export type DataEditPermission = (typeof DATA_EDIT_PERMISSIONS)[number];

export const TIERS = ['free', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const TierData = z.object({
  tier: z.enum(TIERS),
  allowed_modules: z.array(z.enum(MODULES)),
  tier_permissions: z.record(z.enum(TIER_SECTIONS), z.boolean()),
  assets_allowed: z.number().int(),
});
export type TierData = z.infer<typeof TierData>;

export const TWO_FA_METHODS = ['app', 'email'] as const;
/** Longest 2FA code field accepted: a recovery code XXXX-XXXX-XXXX-XXXX (19) with spaces to spare; a 6-digit code fits. */
export const TWO_FA_CODE_MAX_LENGTH = 24;
export type TwoFaMethod = (typeof TWO_FA_METHODS)[number];

export const NOTIFICATION_TYPES = ['success', 'warning', 'error', 'info'] as const;

export const Notification = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  notification_type: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof Notification>;

/** A new username: 3 to 50 characters, letters, digits and `. _ @ + -` (the server's schema and the register form). */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 50;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.@+-]+$/;

const username = z
  .string({ error: 'username is required' })
  .trim()
  .min(USERNAME_MIN_LENGTH, `username must be at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(USERNAME_PATTERN, 'username may contain letters, digits and . _ @ + - only');

/** ASVS V2.1.1 / V2.1.2: 12 to 256 characters, any characters; the server also refuses common and breached passwords. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
/** The confirmation differs from the password: the server's 400 (field confirm_password) and the register form's hint. */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

const password = z
  .string({ error: 'password is required' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/**
 * `POST api/user/register/` (JSON). `company_code` is optional: with it, the user asks to join that company, and
 * `company_name` is neither needed nor read (the company has its name); without it, `company_name` names the new company.
 */
export const RegisterBody = z
  .object({
    first_name: text('first_name', 80),
    last_name: text('last_name', 80),
    username,
    email: z.string({ error: 'email is required' }).trim().toLowerCase().max(254, 'email is too long').email('email is not a valid e-mail address'),
    password,
    confirm_password: z.string({ error: 'confirm_password is required' }),
    company_name: z.string().trim().max(150, 'company_name must be at most 150 characters').optional(),
    company_code: z.string().trim().max(32, 'company_code is too long').optional(),
  })
  .refine((b) => b.password === b.confirm_password, { message: PASSWORDS_DO_NOT_MATCH, path: ['confirm_password'] })
  .refine((b) => !!b.company_code || !!b.company_name, {
    message: 'company_name is required to create a company (or give a company_code to join one)',
    path: ['company_name'],
  });
export type RegisterBody = z.infer<typeof RegisterBody>;

export const RegisterResponse = z.object({
  detail: z.string(),
  company_code: z.string(),
  company_name: z.string(),
  /** `active` when the user created the company; `pending` when an admin of an existing company must approve. */
  status: z.enum(['active', 'pending']),
  user: z.object({ id: z.number().int(), username: z.string(), email: z.string() }),
});

/** `POST api/user/rest_login/` (form). */
export const LoginBody = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(254, 'username is too long'),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(PASSWORD_MAX_LENGTH, 'password is too long'),
  company_code: z.string({ error: 'company_code is required' }).trim().min(1, 'company_code is required').max(32, 'company_code is too long'),
  totp_code: z.string().trim().max(TWO_FA_CODE_MAX_LENGTH, 'totp_code is too long').optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const UserSummary = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_2fa_enabled: z.boolean(),
  twofa_method: z.enum(TWO_FA_METHODS).nullable(),
  is_company_admin: z.boolean(),
  is_operator: z.boolean().describe('an operator of the installation (registers published flood maps; npm run admin -- set-operator)'),
  company_name: z.string(),
  company_code: z.string(),
});
export type UserSummary = z.infer<typeof UserSummary>;

export const LoginResponse = z.object({
  token: z.string(),
  user: UserSummary,
  tier_data: TierData,
  detail: z.string(),
  pending_notifications: z.array(Notification),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const TwoFaRequiredResponse = z.object({ detail: z.literal('2FA_REQUIRED'), method: z.enum(TWO_FA_METHODS) });

export const CurrentUserResponse = UserSummary.extend({
  tier_data: TierData,
  last_accessed_at: z.string().nullable(),
  /** The server's idle time-out (SESSION_IDLE_MINUTES; 0 = none), so the browser can warn before it. */
  session_idle_minutes: z.number(),
  /** Minutes by which the server may record use late (it writes last use at most every min(5, idle/10) minutes). */
  session_idle_slack_minutes: z.number(),
});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

export const PermissionsResponse = z.object({
  user_id: z.number().int(),
  tier: z.enum(TIERS),
  assets_allowed: z.number().int(),
  allowed_modules: z.array(z.enum(MODULES)),
  tier_permissions: z.record(z.enum(TIER_SECTIONS), z.boolean()),
  data_edit_permissions: z.record(z.enum(DATA_EDIT_PERMISSIONS), z.boolean()),
  is_company_admin: z.boolean(),
});
export type PermissionsResponse = z.infer<typeof PermissionsResponse>;

export const ConfigureMfaResponse = z.object({
  detail: z.string(),
  data: z.object({ method: z.enum(TWO_FA_METHODS), uri: z.string().optional(), secret: z.string().optional(), sent_to: z.string().optional() }),
});

/**
 * Verifies a 2FA setup. When 2FA is already on, the change also needs the account's `password` and `current_code`, a
 * code of the method now in force (the authenticator app's, or one e-mailed by `POST user/multifactor/current_code/`):
 * a session token alone cannot replace the second factor.
 */
export const VerifyMfaBody = z.object({
  code: z.string({ error: 'code is required' }).trim().min(1, 'code is required').max(TWO_FA_CODE_MAX_LENGTH, 'code is too long'),
  password: z.string().max(PASSWORD_MAX_LENGTH, 'password is too long').optional(),
  current_code: z.string().trim().max(TWO_FA_CODE_MAX_LENGTH, 'current_code is too long').optional(),
});

/** Turns 2FA off: the account's password and a code of the method in force. */
export const DisableMfaBody = z.object({
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(PASSWORD_MAX_LENGTH, 'password is too long'),
  current_code: z
    .string({ error: 'current_code is required' })
    .trim()
    .min(1, 'current_code is required')
    .max(TWO_FA_CODE_MAX_LENGTH, 'current_code is too long'),
});

export const CurrentCodeResponse = z.object({ detail: z.string(), sent_to: z.string() });

/** How long a password reset link lasts, minutes (ASVS V2.5; the e-mail and the help centre say so). */
export const PASSWORD_RESET_MINUTES = 30;

/**
 * `POST api/user/password_reset/request/`: either the e-mail address, or the username and the company code (the login's
 * fields). The answer is the same whether or not an account matches.
 */
export const PasswordResetRequestBody = z
  .object({
    email: z.string().trim().toLowerCase().max(254, 'email is too long').email('email is not a valid e-mail address').optional().or(z.literal('')),
    username: z.string().trim().max(254, 'username is too long').optional(),
    company_code: z.string().trim().max(32, 'company_code is too long').optional(),
  })
  .superRefine((b, ctx) => {
    if (b.email) return;
    if (!b.username && !b.company_code) ctx.addIssue({ code: 'custom', path: ['email'], message: 'email is required (or your username and company code)' });
    else if (!b.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'username is required with the company code' });
    else if (!b.company_code) ctx.addIssue({ code: 'custom', path: ['company_code'], message: 'company_code is required with the username' });
  });
export type PasswordResetRequestBody = z.infer<typeof PasswordResetRequestBody>;

/** `POST api/user/password_reset/confirm/`: the token from the e-mailed link and the new password (the registration rules). */
export const PasswordResetConfirmBody = z
  .object({
    token: z.string({ error: 'token is required' }).trim().min(1, 'token is required').max(100, 'token is too long'),
    password,
    confirm_password: z.string({ error: 'confirm_password is required' }),
  })
  .refine((b) => b.password === b.confirm_password, { message: PASSWORDS_DO_NOT_MATCH, path: ['confirm_password'] });
export type PasswordResetConfirmBody = z.infer<typeof PasswordResetConfirmBody>;

/** How many 2FA recovery codes are left (`GET user/multifactor/recovery_codes/`). */
export const RecoveryCodesStatus = z.object({ is_2fa_enabled: z.boolean(), remaining: z.number().int(), created_at: z.string().nullable() });
export type RecoveryCodesStatus = z.infer<typeof RecoveryCodesStatus>;

/** New recovery codes need a current code of the method in force (the app's, or one e-mailed by `user/multifactor/current_code/`). */
export const RegenerateRecoveryCodesBody = z.object({
  current_code: z
    .string({ error: 'current_code is required' })
    .trim()
    .min(1, 'current_code is required')
    .max(TWO_FA_CODE_MAX_LENGTH, 'current_code is too long'),
});

/** Recovery codes in clear: answered once, when they are made. */
export const RecoveryCodesResponse = z.object({ detail: z.string(), recovery_codes: z.array(z.string()) });

export const MarkNotificationReadBody = z.object({ notification_id: dbId('notification_id', { coerce: true }) });

export const LastAccessedBody = z.object({
  path: z.string({ error: 'path is required' }).trim().min(1, 'path is required').max(500, 'path is too long').startsWith('/', 'path must start with /'),
});

/** How long a company's new download links (exports, reports) last, hours: 24 by default, an administrator may shorten it to 1. */
export const DOWNLOAD_LINK_HOURS_MIN = 1;
export const DOWNLOAD_LINK_HOURS_MAX = 24;
const downloadLinkHoursMessage = `hours must be a whole number from ${DOWNLOAD_LINK_HOURS_MIN} to ${DOWNLOAD_LINK_HOURS_MAX}`;
/** `POST api/company/download_link_hours/` (administrators). */
export const DownloadLinkHoursBody = z.object({
  hours: z.coerce
    .number({ error: downloadLinkHoursMessage })
    .int(downloadLinkHoursMessage)
    .min(DOWNLOAD_LINK_HOURS_MIN, downloadLinkHoursMessage)
    .max(DOWNLOAD_LINK_HOURS_MAX, downloadLinkHoursMessage),
});
/** `GET` and `POST api/company/download_link_hours/`. */
export const DownloadLinkHoursResponse = z.object({ download_link_hours: z.number().int().describe('hours a new export or report link lasts (1-24)') });
export type DownloadLinkHoursResponse = z.infer<typeof DownloadLinkHoursResponse>;

/** Longest message of a demo request (the landing page's form), characters. */
export const DEMO_MESSAGE_MAX_LENGTH = 4000;

export const DemoRequestBody = z.object({
  name: text('name', 120),
  email: z.string({ error: 'email is required' }).trim().toLowerCase().max(254, 'email is too long').email('email is not a valid e-mail address'),
  company: text('company', 150),
  role: z.string().trim().max(120, 'role is too long').optional(),
  message: z.string().trim().max(DEMO_MESSAGE_MAX_LENGTH, `message must be at most ${DEMO_MESSAGE_MAX_LENGTH} characters`).optional(),
});
export type DemoRequestBody = z.infer<typeof DemoRequestBody>;

export const CompanyMember = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  status: z.enum(['active', 'pending', 'rejected']),
  is_company_admin: z.boolean(),
  created_at: z.string(),
});
export type CompanyMember = z.infer<typeof CompanyMember>;
