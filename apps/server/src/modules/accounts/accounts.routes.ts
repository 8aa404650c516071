import {
  ApiTokenCreated,
  ApiTokenIdParam,
  ApiTokenList,
  AuditLogQuery,
  AuditLogResponse,
  CompanyMember,
  ConfigureMfaResponse,
  CreateApiTokenBody,
  CurrentCodeResponse,
  CurrentUserResponse,
  dbId,
  DemoRequestBody,
  DetailBody,
  DisableMfaBody,
  DownloadLinkHoursBody,
  DownloadLinkHoursResponse,
  ErrorBody,
  LastAccessedBody,
  LoginBody,
  LoginResponse,
  MarkNotificationReadBody,
  Notification,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PermissionsResponse,
  RecoveryCodesResponse,
  RecoveryCodesStatus,
  RegenerateRecoveryCodesBody,
  RegisterBody,
  RegisterResponse,
  TWO_FA_METHODS,
  TwoFaRequiredResponse,
  VerifyMfaBody,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteApp } from '../../lib/route-app.js';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { tierDataOf } from './tier.service.js';
import { presentUser, iso } from './user.presenter.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const MethodParam = z.object({ method: z.enum(TWO_FA_METHODS, { error: 'method must be app or email' }) });
const VerifyMfaResponse = DetailBody.extend({
  is_2fa_enabled: z.boolean(),
  method: z.enum(TWO_FA_METHODS),
  recovery_codes: z.array(z.string()).optional().describe('ten single-use recovery codes, answered once: when 2FA is turned on'),
});
const UserIdParam = z.object({ userId: dbId('userId', { coerce: true }) });

/** Registration, log-in and log-out, the signed-in user and their permissions. */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
function sessionRoutes(app: RouteApp) {
  const { auth, accounts } = app.services;
  app.post(
    '/api/user/register/',
    {
      schema: {
        tags: ['Account'],
        summary: 'Create an account (and a company, or a request to join one by company code)',
        body: RegisterBody,
        response: { 201: RegisterResponse, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await auth.register(req.body, req.ip)),
  );

  app.post(
    '/api/user/rest_login/',
    {
      schema: {
        tags: ['Account'],
        summary: 'Log in with username, password and company code (and a 2FA code when asked)',
        description:
          '201 with a token; 202 `{"detail":"2FA_REQUIRED"}` when the user has 2FA and sent no code (an e-mail code is sent for the e-mail method); 401 on bad credentials; 429 after repeated failures.',
        body: LoginBody,
        response: { 201: LoginResponse, 202: TwoFaRequiredResponse, ...errors },
      },
    },
    async (req, reply) => {
      const out = await auth.login(req.body, req.ip);
      if (out.kind === '2fa_required') return reply.status(202).send({ detail: '2FA_REQUIRED', method: out.method });
      return reply.status(201).send(out.body);
    },
  );

  app.post(
    '/api/user/rest_logout/',
    {
      onRequest: app.authenticate,
      schema: { tags: ['Account'], summary: 'Revoke the token of this session', security: TOKEN_SECURITY, response: { 201: DetailBody, ...errors } },
    },
    async (req, reply) => {
      await auth.logout(caller(req), req.ip);
      return reply.status(201).send({ detail: 'Logged out.' });
    },
  );

  app.post(
    '/api/user/rest_logout_all/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: 'Sign out everywhere: revoke every session of this user, this one included',
        security: TOKEN_SECURITY,
        response: { 201: DetailBody.extend({ sessions: z.number().int() }), ...errors },
      },
    },
    async (req, reply) => {
      const sessions = await auth.logoutEverywhere(caller(req), req.ip);
      return reply.status(201).send({ detail: `Signed out everywhere (${sessions} session${sessions === 1 ? '' : 's'} ended).`, sessions });
    },
  );

  app.get(
    '/accounts/user/',
    {
      onRequest: app.authenticate,
      schema: { tags: ['Account'], summary: 'The signed-in user with tier data', security: TOKEN_SECURITY, response: { 200: CurrentUserResponse, ...errors } },
    },
    async (req) => {
      const { user, company } = await auth.loadUser(caller(req).id);
      const idle = app.config.SESSION_IDLE_MINUTES;
      return {
        ...presentUser(user, company),
        tier_data: tierDataOf(company),
        last_accessed_at: user.last_accessed_at ? iso(user.last_accessed_at) : null,
        session_idle_minutes: idle,
        session_idle_slack_minutes: idle > 0 ? Math.min(5, idle / 10) : 0,
      };
    },
  );

  app.get(
    '/api/user/permissions/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: 'Permission set of a user of your company (assets_allowed, modules, sections, column edits)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        response: { 200: PermissionsResponse, ...errors },
      },
    },
    async (req) => accounts.permissions(caller(req), req.params.userId),
  );
}

/** Two-factor authentication: set up, current code, switch off. */
function multifactorRoutes(app: RouteApp) {
  const { auth, mfa } = app.services;
  app.get(
    '/user/configure_multifactor/:method',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'Start 2FA setup: app returns an otpauth:// URI for a QR code; email sends a 6-digit code',
        security: TOKEN_SECURITY,
        params: MethodParam,
        response: { 200: ConfigureMfaResponse, ...errors },
      },
    },
    async (req) => {
      const { user } = await auth.loadUser(caller(req).id);
      return mfa.configure(user, req.params.method);
    },
  );

  app.post(
    '/user/configure_multifactor/:method/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'Verify the code and enable 2FA with this method',
        description:
          "When 2FA is already on, changing it also needs `password` and `current_code` (a code of the method in force: the app's, or one from `POST user/multifactor/current_code/`): 400 when they are missing, 403 when wrong (counted like failed logins; 429 after repeated failures). The user is told by e-mail.",
        security: TOKEN_SECURITY,
        params: MethodParam,
        body: VerifyMfaBody,
        response: { 200: VerifyMfaResponse, ...errors },
      },
    },
    async (req) => {
      const { user, company } = await auth.loadUser(caller(req).id);
      return mfa.verify(user, req.params.method, req.body.code, req.ip, () => auth.confirmIdentity(user, company, req.body, req.ip));
    },
  );

  app.post(
    '/user/multifactor/current_code/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'E-mail a code of the e-mail method in force, to confirm changing or turning off 2FA',
        description: '400 when the method in force is the authenticator app (use its code) or 2FA is off.',
        security: TOKEN_SECURITY,
        response: { 200: CurrentCodeResponse, ...errors },
      },
    },
    async (req) => {
      const { user } = await auth.loadUser(caller(req).id);
      return mfa.sendCurrentCode(user);
    },
  );

  app.post(
    '/user/disable_multifactor/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'Turn 2FA off, with the password and a code of the method in force',
        description:
          '400 when a field is missing or 2FA is off; 403 when the password or code is wrong (counted like failed logins; 429 after repeated failures). The user is told by e-mail.',
        security: TOKEN_SECURITY,
        body: DisableMfaBody,
        response: { 200: DetailBody.extend({ is_2fa_enabled: z.boolean() }), ...errors },
      },
    },
    async (req) => {
      const { user, company } = await auth.loadUser(caller(req).id);
      return mfa.disable(user, req.ip, () => auth.confirmIdentity(user, company, req.body, req.ip));
    },
  );
}

/** 2FA recovery codes: how many are left, and a new set (ASVS V2.6). */
function recoveryCodeRoutes(app: RouteApp) {
  const { auth, mfa } = app.services;
  app.get(
    '/user/multifactor/recovery_codes/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'How many 2FA recovery codes you have left (the codes themselves are shown only when made)',
        security: TOKEN_SECURITY,
        response: { 200: RecoveryCodesStatus, ...errors },
      },
    },
    async (req) => {
      const { user } = await auth.loadUser(caller(req).id);
      return mfa.recoveryStatus(user);
    },
  );

  app.post(
    '/user/multifactor/recovery_codes/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Two-factor'],
        summary: 'Replace your 2FA recovery codes with ten new ones (needs a current code of the method in force)',
        description:
          'The old codes stop working. `current_code` is the code your authenticator app shows now, or one e-mailed by `POST user/multifactor/current_code/`; a recovery code is not accepted here. 403 when it is wrong (counted like failed logins; 429 after repeated failures). The user is told by e-mail.',
        security: TOKEN_SECURITY,
        body: RegenerateRecoveryCodesBody,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (req) => {
      const { user, company } = await auth.loadUser(caller(req).id);
      return mfa.regenerateRecoveryCodes(user, req.ip, () => auth.confirmCurrentCode(user, company, req.body.current_code, req.ip));
    },
  );
}

/** "Forgot password?": a single-use, 30-minute link by e-mail (ASVS V2.5). */
function passwordResetRoutes(app: RouteApp) {
  const { passwordReset } = app.services;
  app.post(
    '/api/user/password_reset/request/',
    {
      schema: {
        tags: ['Account'],
        summary: 'Ask for a password reset link by e-mail (by e-mail address, or by username and company code)',
        description:
          'Always the same 200 answer whether or not an account matches (the e-mail is sent after the answer). Throttled with the login counters: 429 after 5 requests for one account or address (50 failed attempts of any kind from one client) within the login window.',
        body: PasswordResetRequestBody,
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => passwordReset.request(req.body, req.ip),
  );
  app.post(
    '/api/user/password_reset/confirm/',
    {
      schema: {
        tags: ['Account'],
        summary: 'Set a new password with the token of a reset link; every session of the account ends',
        description:
          '400 naming `token` when the link was used, expired (30 minutes) or replaced by a newer one; 400 naming `password` when the password breaks the registration rules (the link stays usable). Wrong tokens count like failed logins per client (429).',
        body: PasswordResetConfirmBody,
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => passwordReset.confirm(req.body, req.ip),
  );
}

/** Notifications and the last-accessed stamp. */
function notificationRoutes(app: RouteApp) {
  const { accounts, notifications } = app.services;
  app.get(
    '/api/user/notifications/',
    {
      onRequest: app.authenticate,
      schema: { tags: ['Notifications'], summary: 'Unread notifications', security: TOKEN_SECURITY, response: { 200: z.array(Notification), ...errors } },
    },
    async (req) => notifications.pending(caller(req).id),
  );

  app.post(
    '/api/user/mark_notification_read/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Notifications'],
        summary: 'Mark a notification read (sent when its toast closes)',
        security: TOKEN_SECURITY,
        body: MarkNotificationReadBody,
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => {
      await notifications.markRead(caller(req).id, req.body.notification_id);
      return { detail: 'Notification marked as read.' };
    },
  );

  app.post(
    '/user/update_last_accessed',
    {
      onRequest: app.authenticateBackground,
      schema: {
        tags: ['Account'],
        summary: 'Record the page the user is on (sent on load and every 5 minutes; does not keep an idle session alive)',
        security: TOKEN_SECURITY,
        body: LastAccessedBody,
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => {
      await accounts.recordPage(caller(req), req.body.path);
      return { detail: 'Last accessed page recorded.' };
    },
  );
}

/** Company administration (link lifetime, members, activity log) and demo requests. */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
function companyRoutes(app: RouteApp) {
  const { accounts } = app.services;
  app.get(
    '/api/company/download_link_hours/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Company'],
        summary: "How long your company's download links (exports, reports) last",
        security: TOKEN_SECURITY,
        response: { 200: DownloadLinkHoursResponse, ...errors },
      },
    },
    async (req) => accounts.downloadLinkHours(caller(req)),
  );
  app.post(
    '/api/company/download_link_hours/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Company'],
        summary: "Shorten how long your company's new download links last, 1-24 hours (administrators only)",
        description:
          'Export and report links are bearer links (anyone with the URL can download the file until it expires). An administrator may shorten their lifetime for the files made from now on; existing links keep their expiry.',
        security: TOKEN_SECURITY,
        body: DownloadLinkHoursBody,
        response: { 200: DownloadLinkHoursResponse, ...errors },
      },
    },
    async (req) => accounts.setDownloadLinkHours(caller(req), req.body.hours),
  );

  app.get(
    '/api/company/members/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Company'],
        summary: 'Members of your company, including pending requests (administrators only)',
        security: TOKEN_SECURITY,
        response: { 200: z.array(CompanyMember), ...errors },
      },
    },
    async (req) => accounts.members(caller(req)),
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/api/company/members/:userId/${decision}/`,
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['Company'],
          summary: `${decision === 'approve' ? 'Approve' : 'Reject'} a member's request to join (administrators only)`,
          security: TOKEN_SECURITY,
          params: UserIdParam,
          response: { 200: CompanyMember, ...errors },
        },
      },
      async (req) => accounts.decide(caller(req), req.params.userId, decision, req.ip),
    );
  }

  app.get(
    '/api/v2/audit_log/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Company'],
        summary: "Your company's activity log, newest first (administrators only)",
        description:
          'Logins, membership decisions, shares, deletions, plan changes and other audited actions of your company. `action` filters by a code (login.succeeded) or a group (login); `from` and `to` are UTC dates (inclusive) or ISO date-times.',
        security: TOKEN_SECURITY,
        querystring: AuditLogQuery,
        response: { 200: AuditLogResponse, ...errors },
      },
    },
    async (req) => accounts.auditLog(caller(req), req.query),
  );

  app.post(
    '/api/demo_request/',
    { schema: { tags: ['Public'], summary: 'Request a demo (landing page form)', body: DemoRequestBody, response: { 201: DetailBody, ...errors } } },
    async (req, reply) => {
      await accounts.demoRequest(req.body, req.ip);
      return reply.status(201).send({ detail: 'Thank you. We will contact you within two working days.' });
    },
  );
}

/** Personal API tokens (issue 32 item 3): read-only tokens for QGIS and notebooks, shown once, revocable. */
function apiTokenRoutes(app: RouteApp) {
  const { apiTokens } = app.services;
  const about =
    'A personal API token is sent like a session token (`Authorization: Token crp_pat_...`, or `?token=` on the XYZ tile route) and is read-only: any request other than GET or HEAD (except the results query POST /api/v2/asset_results/) answers 403. It lasts until its expiry or until it is revoked; it has no idle time-out and does not keep a session alive. Only its SHA-256 is stored: the token is shown once, when it is made.';
  app.get(
    '/api/user/api_tokens/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'Your personal API tokens (not the secrets): name, created, last used, expiry',
        description: about,
        security: TOKEN_SECURITY,
        response: { 200: ApiTokenList, ...errors },
      },
    },
    async (req) => apiTokens.list(caller(req)),
  );
  app.post(
    '/api/user/api_tokens/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: 'Make a personal API token for QGIS or a notebook (read-only; shown once)',
        description: about,
        security: TOKEN_SECURITY,
        body: CreateApiTokenBody,
        response: { 201: ApiTokenCreated, ...errors, 409: ErrorBody },
      },
    },
    async (req, reply) => reply.status(201).send(await apiTokens.create(caller(req), req.body, req.ip)),
  );
  app.post(
    '/api/user/api_tokens/:tokenId/revoke/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Auth'],
        summary: "Revoke a personal API token: one of yours, or, for a company administrator, a colleague's",
        security: TOKEN_SECURITY,
        params: ApiTokenIdParam,
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => apiTokens.revoke(caller(req), req.params.tokenId, req.ip),
  );
  app.get(
    '/api/company/api_tokens/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Company'],
        summary: "Your company members' personal API tokens (administrators only)",
        security: TOKEN_SECURITY,
        response: { 200: ApiTokenList, ...errors },
      },
    },
    async (req) => apiTokens.listCompany(caller(req)),
  );
}

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  sessionRoutes(app);
  multifactorRoutes(app);
  recoveryCodeRoutes(app);
  passwordResetRoutes(app);
  notificationRoutes(app);
  companyRoutes(app);
  apiTokenRoutes(app);
};
