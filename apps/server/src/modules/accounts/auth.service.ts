import { API_TOKEN_PREFIX, type LoginBody, type LoginResponse, type RegisterBody } from '@crp/contracts';
import type { Config } from '../../config.js';
import type { NewUser, UserRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { newCompanyCode, newToken, normaliseCompanyCode, sha256 } from '../../lib/crypto.js';
import { AppError, badRequest, forbidden, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { ApiTokenService } from './api-token.service.js';
import type { AuthRepository } from './auth.repository.js';
import { presentUser } from './user.presenter.js';
import type { UsersRepository } from './users.repository.js';
import type { MailService } from '../../infra/mail.service.js';
import type { MfaService } from './mfa.service.js';
import type { NotificationService } from './notification.service.js';
import type { PasswordHasher } from './password.js';
import { passwordProblem } from './password-policy.js';
import { defaultDataEditPermissions, tierColumns, tierDataOf } from './tier.service.js';

export const LOGIN_FAILED = 'Unable to log in with the provided credentials.';

/**
 * What the per-user login lock counts failures by: the company code as typed (normalised) and the username, lower
 * case. Usernames are unique per company only, so keying on the username alone let five failures with a made-up
 * company code lock out every user of that name in every company (issue 21). Stored in `login_attempts.username_lower`
 * as `CODE/username`: a real company code and a registered username hold no `/`, so no other pair maps to a real one.
 */
export const throttleKey = (companyCode: string, usernameLower: string) => `${normaliseCompanyCode(companyCode)}/${usernameLower}`;

/** The row of a registering user. */
function newUser(companyId: number, body: RegisterBody, passwordHash: string, status: 'active' | 'pending', isAdmin: boolean): NewUser {
  return {
    company_id: companyId,
    username: body.username,
    username_lower: body.username.toLowerCase(),
    email: body.email,
    first_name: body.first_name,
    last_name: body.last_name,
    password_hash: passwordHash,
    status,
    is_company_admin: isAdmin,
    data_edit_permissions: JSON.stringify(defaultDataEditPermissions()),
  };
}

export type LoginOutcome = { kind: 'ok'; body: LoginResponse } | { kind: '2fa_required'; method: 'app' | 'email' };

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly mail: MailService,
    private readonly notifications: NotificationService,
    private readonly mfa: MfaService,
    private readonly config: Config,
    private readonly apiTokens: ApiTokenService,
  ) {}

  /**
   * Registration. Without company_code a new company is created and the user is its administrator.
   * With company_code the user asks to join: the account stays pending until an administrator approves,
   * so nobody reaches a company's data by knowing or guessing its code alone.
   */
  async register(body: RegisterBody, client: string) {
    const usernameLower = body.username.toLowerCase();
    const weak = passwordProblem(body.password, body);
    if (weak) throw badRequest(weak, 'password');
    const passwordHash = await this.passwords.hash(body.password);

    if (body.company_code) {
      const company = await this.users.companyByCode(normaliseCompanyCode(body.company_code));
      if (!company) throw badRequest('company_code: no company has this code. Check it with your company administrator.', 'company_code');
      const user = await this.repo.transaction(async (repo, tx) => {
        const taken = await repo.usernameTaken(company.id, usernameLower);
        if (taken) throw badRequest('username: this username is already taken in this company.', 'username');
        const u = await repo.insertUser(newUser(company.id, body, passwordHash, 'pending', false));
        const admins = await repo.activeAdminIds(company.id);
        await this.notifications.notify(
          admins.map((a) => a.id),
          {
            title: 'New member waiting for approval',
            message: `${body.first_name} ${body.last_name} (${body.username}, ${body.email}) asked to join ${company.name}. Approve or reject in Settings.`,
            notification_type: 'warning',
            link: '/setup',
            ref: `member:${u.id}`,
          },
          tx,
        );
        return u;
      });
      await this.users.audit({ company_id: company.id, user_id: user.id, action: 'user.join_requested', client });
      await this.safeMail({
        to: user.email,
        subject: `Your request to join ${company.name}`,
        text: `Hello ${user.first_name},\n\nYour account ${user.username} was created and is waiting for approval by an administrator of ${company.name}.\nCompany code: ${company.code}\n\nYou can log in once it is approved.`,
      });
      return {
        detail: `Account created. An administrator of ${company.name} must approve it before you can log in.`,
        company_code: company.code,
        company_name: company.name,
        status: 'pending' as const,
        user: { id: user.id, username: user.username, email: user.email },
      };
    }

    // the body schema asks for it without a company_code; checked again here for the type
    const companyName = body.company_name;
    if (!companyName) throw badRequest('company_name is required to create a company (or give a company_code to join one)', 'company_name');
    const { company, user } = await this.repo.transaction(async (repo, tx) => {
      let code = newCompanyCode();
      for (let i = 0; i < 5; i++) {
        const clash = await repo.companyCodeTaken(code);
        if (!clash) break;
        code = newCompanyCode();
      }
      const company = await repo.insertCompany({ name: companyName, code, ...tierColumns('free') });
      const user = await repo.insertUser(newUser(company.id, body, passwordHash, 'active', true));
      await this.notifications.notify(
        [user.id],
        {
          title: 'Welcome',
          message: `Your company ${company.name} was created with company code ${company.code}. Share the code with colleagues: you approve them in Settings.`,
          notification_type: 'success',
          link: '/setup',
        },
        tx,
      );
      return { company, user };
    });
    await this.users.audit({ company_id: company.id, user_id: user.id, action: 'company.created', client });
    await this.safeMail({
      to: user.email,
      subject: 'Welcome: your company code',
      text: `Hello ${user.first_name},\n\nYour account ${user.username} and your company ${company.name} are ready.\n\nCompany code: ${company.code}\n\nYou need the company code, your username and your password to log in. Colleagues who register with this code join ${company.name} once you approve them.\n\n${this.config.PUBLIC_URL}/login`,
    });
    return {
      detail: 'Account created.',
      company_code: company.code,
      company_name: company.name,
      status: 'active' as const,
      user: { id: user.id, username: user.username, email: user.email },
    };
  }

  private async safeMail(m: { to: string; subject: string; text: string }) {
    try {
      await this.mail.send(m);
    } catch {
      // Already logged and recorded as failed in the outbox; registration itself succeeded.
    }
  }

  /**
   * `key` is `throttleKey(company code, username)` (or a password reset's key); the per-client count is over every key.
   * `what` names the attempts in the 429's message.
   */
  async checkThrottle(key: string, client: string, what = 'failed login attempts') {
    const windowStart = new Date(Date.now() - this.config.LOGIN_THROTTLE_WINDOW_MINUTES * 60_000);
    const lastSuccess = await this.repo.lastLoginSuccess(key);
    const since = lastSuccess?.at && new Date(lastSuccess.at) > windowStart ? new Date(lastSuccess.at) : windowStart;
    const [byUser, byClient] = await Promise.all([this.repo.failuresOfKey(key, since), this.repo.failuresOfClient(client, windowStart)]);
    const minutes = this.config.LOGIN_THROTTLE_WINDOW_MINUTES;
    if (byUser.n >= this.config.LOGIN_MAX_FAILURES_PER_USER || byClient.n >= this.config.LOGIN_MAX_FAILURES_PER_CLIENT) {
      throw tooManyRequests(`Too many ${what}. Try again in ${minutes} minutes.`, minutes * 60);
    }
  }

  private async recordAttempt(key: string, client: string, succeeded: boolean) {
    await this.repo.recordAttempt(key, client, succeeded);
  }

  async login(body: LoginBody, client: string): Promise<LoginOutcome> {
    const usernameLower = body.username.toLowerCase();
    const key = throttleKey(body.company_code, usernameLower);
    await this.checkThrottle(key, client);

    const company = await this.users.companyByCode(normaliseCompanyCode(body.company_code));
    const user = company ? await this.users.userInCompany(company.id, usernameLower) : undefined;
    const ok = user ? await this.passwords.verify(user.password_hash, body.password) : (await this.passwords.burn(body.password), false);
    if (!company || !user || !ok) {
      await this.recordAttempt(key, client, false);
      if (company && user) await this.users.audit({ company_id: company.id, user_id: user.id, action: 'login.failed', client });
      throw unauthorized(LOGIN_FAILED);
    }
    if (user.status === 'pending') throw forbidden(`Your account is waiting for approval by an administrator of ${company.name}.`);
    if (user.status === 'rejected') throw forbidden(`Your request to join ${company.name} was not approved. Contact its administrator.`);

    if (user.twofa_method) {
      const code = body.totp_code?.trim();
      if (!code) {
        if (user.twofa_method === 'email') await this.mfa.sendLoginCode(user);
        return { kind: '2fa_required', method: user.twofa_method };
      }
      const valid = await this.mfa.checkLoginCode(user, code, { recovery: true });
      if (!valid) {
        await this.recordAttempt(key, client, false);
        await this.users.audit({ company_id: company.id, user_id: user.id, action: 'login.2fa_failed', client });
        throw new AppError(401, 'Invalid 2FA code. Please try again.', [{ field: 'totp_code', message: 'Invalid 2FA code or recovery code' }]);
      }
      if (valid === 'recovery') {
        await this.users.audit({ company_id: company.id, user_id: user.id, action: 'login.recovery_code_used', client });
        await this.mfa.tellRecoveryCodeUsed(user, client);
      }
    }

    await this.recordAttempt(key, client, true);
    const token = await this.issueToken(user.id);
    await this.users.audit({ company_id: company.id, user_id: user.id, action: 'login.succeeded', client });
    return {
      kind: 'ok',
      body: {
        token,
        user: presentUser(user, company),
        tier_data: tierDataOf(company),
        detail: 'Login successful.',
        pending_notifications: await this.notifications.pending(user.id),
      },
    };
  }

  /**
   * Re-authentication before the second factor is changed or turned off (ASVS V2.7/V2.8, V3.7.1): when 2FA is on, the
   * account's password and a code of the method in force are required, so a session token alone (a stolen one, or an
   * unlocked computer) cannot replace or remove the second factor. Failures count like failed logins (same throttle)
   * and are audited. Does nothing while 2FA is off (setting it up the first time needs the session only).
   */
  async confirmIdentity(
    user: UserRow,
    company: { id: number; code: string },
    body: { password?: string | undefined; current_code?: string | undefined },
    client: string,
  ): Promise<void> {
    if (!user.twofa_method) return;
    const method = user.twofa_method === 'app' ? 'the code your authenticator app shows now' : 'a code e-mailed to you (POST user/multifactor/current_code/)';
    const missing: { field: string; message: string }[] = [];
    if (!body.password)
      missing.push({ field: 'password', message: 'password is required: two-factor authentication is on, so changing or turning it off needs your password' });
    if (!body.current_code?.trim()) missing.push({ field: 'current_code', message: `current_code is required: ${method}` });
    if (missing.length) throw new AppError(400, `${missing.map((m) => m.message).join('; ')}.`, missing);
    const key = throttleKey(company.code, user.username_lower);
    await this.checkThrottle(key, client);
    const fail = async (field: 'password' | 'current_code', message: string): Promise<never> => {
      await this.recordAttempt(key, client, false);
      await this.users.audit({ company_id: company.id, user_id: user.id, action: '2fa.confirm_failed', detail: { field }, client });
      throw new AppError(403, message, [{ field, message }]);
    };
    if (!(await this.passwords.verify(user.password_hash, body.password!)))
      await fail('password', 'password: this is not your password. Two-factor authentication was not changed.');
    if (!(await this.mfa.checkLoginCode(user, body.current_code!.trim(), { recovery: true })))
      await fail(
        'current_code',
        `current_code: the code is not right or was already used (${method}, or a recovery code). Two-factor authentication was not changed.`,
      );
  }

  /**
   * A current code of the method in force (not a recovery code), before new recovery codes are made: throttled and
   * audited like `confirmIdentity`, so a stolen session cannot mint codes without the second factor.
   */
  async confirmCurrentCode(user: UserRow, company: { id: number; code: string }, code: string, client: string): Promise<void> {
    const key = throttleKey(company.code, user.username_lower);
    await this.checkThrottle(key, client);
    if (await this.mfa.checkLoginCode(user, code.trim())) return;
    await this.recordAttempt(key, client, false);
    await this.users.audit({ company_id: company.id, user_id: user.id, action: '2fa.confirm_failed', detail: { field: 'current_code' }, client });
    const message =
      'current_code: the code is not right or was already used (the code your authenticator app shows now, or one e-mailed to you). Recovery codes were not changed.';
    throw new AppError(403, message, [{ field: 'current_code', message }]);
  }

  private async issueToken(userId: number): Promise<string> {
    const token = newToken();
    await this.repo.insertToken(userId, sha256(token), new Date(Date.now() + this.config.TOKEN_TTL_DAYS * 86_400_000));
    return token;
  }

  /** Resolves an `Authorization: Token <t>` (or `Bearer <t>`) header to the caller, or null. */
  async authenticate(header: string | undefined, opts: { activity?: boolean } = {}): Promise<AuthUser | null> {
    const r = await this.resolveSession(header, opts);
    return r && 'user' in r ? r.user : null;
  }

  /**
   * The caller behind a token, or why there is none. A personal API token (`crp_pat_...`) is resolved by the
   * ApiTokenService: no idle time-out and no SESSION_MAX_HOURS, its own expiry only. A session ends SESSION_MAX_HOURS after its login however much it
   * is used, and when unused for SESSION_IDLE_MINUTES (its token is revoked: ASVS V3.3.2). `activity: false` (the
   * browser's own background ping) checks the session without counting as use. `last_used_at` is written at most every
   * tenth of the idle time (and every 5 minutes at most), so a session may end up to that much before the full idle
   * time after its last use.
   */
  async resolveSession(header: string | undefined, opts: { activity?: boolean } = {}): Promise<{ user: AuthUser } | { ended: 'idle' | 'lifetime' } | null> {
    const m = header?.match(/^(?:Token|Bearer)\s+([A-Za-z0-9_-]{20,100})$/);
    if (!m?.[1]) return null;
    if (m[1].startsWith(API_TOKEN_PREFIX)) {
      const user = await this.apiTokens.resolve(m[1]);
      return user ? { user } : null;
    }
    const row = await this.repo.liveToken(sha256(m[1]));
    if (!row || row.status !== 'active') return null;
    if (Date.now() - new Date(row.created_at).getTime() > this.config.SESSION_MAX_HOURS * 3_600_000) {
      await this.repo.revokeLiveToken(row.token_id);
      return { ended: 'lifetime' };
    }
    const idleMs = this.config.SESSION_IDLE_MINUTES * 60_000;
    const unused = Date.now() - new Date(row.last_used_at).getTime();
    if (idleMs > 0 && unused > idleMs) {
      await this.repo.revokeLiveToken(row.token_id);
      return { ended: 'idle' };
    }
    if (opts.activity !== false && unused > Math.min(5 * 60_000, idleMs > 0 ? idleMs / 10 : Infinity)) {
      await this.repo.touchToken(row.token_id);
    }
    return { user: { id: row.user_id, companyId: row.company_id, username: row.username, isCompanyAdmin: row.is_company_admin, tokenId: row.token_id } };
  }

  async logout(user: AuthUser, client: string): Promise<void> {
    await this.repo.revokeToken(user.tokenId);
    await this.users.audit({ company_id: user.companyId, user_id: user.id, action: 'logout', client });
  }

  /** Signs the user out on every device: every session of theirs ends, this one included (ASVS V3.3.4). */
  async logoutEverywhere(user: AuthUser, client: string): Promise<number> {
    const sessions = await this.repo.revokeUserTokens(user.id);
    await this.users.audit({ company_id: user.companyId, user_id: user.id, action: 'logout.everywhere', detail: { sessions }, client });
    return sessions;
  }

  async loadUser(id: number): Promise<{ user: UserRow; company: NonNullable<Awaited<ReturnType<UsersRepository['companyById']>>> }> {
    const user = await this.users.userById(id);
    const company = user ? await this.users.companyById(user.company_id) : undefined;
    if (!user || !company) throw unauthorized();
    return { user, company };
  }
}
