import { PASSWORD_RESET_MINUTES, type PasswordResetConfirmBody, type PasswordResetRequestBody } from '@crp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { UserRow } from '../../infra/db/schema.js';
import type { MailService } from '../../infra/mail.service.js';
import { newToken, normaliseCompanyCode, sha256 } from '../../lib/crypto.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { AuthRepository } from './auth.repository.js';
import type { PasswordResetRepository } from './password-reset.repository.js';
import { throttleKey, type AuthService } from './auth.service.js';
import type { PasswordHasher } from './password.js';
import { passwordProblem } from './password-policy.js';
import type { UsersRepository } from './users.repository.js';

/** The one answer to a reset request, whether or not an account matched (no user enumeration, ASVS V2.5.x / V3.2). */
export const RESET_REQUESTED =
  'If an account matches, we sent an e-mail with a link to choose a new password. The link works once, for 30 minutes. Check your spam folder if it does not arrive.';
export const RESET_LINK_INVALID = 'This password reset link is not valid: it was already used, it expired, or a newer link was sent. Ask for a new one.';
/** Accounts one e-mail address may hold across companies: a request by address mails at most this many links. */
const MAX_ACCOUNTS_PER_ADDRESS = 5;

/**
 * "Forgot password?" (ASVS V2.5.1-V2.5.6, issue 37 item 6). A request names the account by the login's fields
 * (username and company code) or by e-mail address and always gets the same answer, at once: the lookup and the mail
 * run after the answer, so neither the text nor the time says whether an account exists. Requests are throttled with
 * the login's counters (per account key and per client). The link carries 32 random bytes; only their SHA-256 is stored,
 * it expires after PASSWORD_RESET_MINUTES, works once, and a new request retires the user's older links. Setting the new
 * password applies the registration rules (length, breached list, zxcvbn), ends every session of the user, retires
 * every other link, is audited and is told to the user by e-mail. 2FA stays on: the next login still asks for it.
 */
export class PasswordResetService {
  constructor(
    private readonly repo: PasswordResetRepository,
    private readonly users: UsersRepository,
    private readonly authRepo: AuthRepository,
    private readonly auth: AuthService,
    private readonly passwords: PasswordHasher,
    private readonly mail: MailService,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Answers RESET_REQUESTED (or 429 when throttled); the e-mail, if any, is sent after the answer. */
  async request(body: PasswordResetRequestBody, client: string): Promise<{ detail: string }> {
    const key = body.email ? `reset-mail/${body.email}` : `reset/${throttleKey(body.company_code!, body.username!.toLowerCase())}`;
    await this.auth.checkThrottle(key, client, 'password reset requests');
    // Counted like a failed login: five requests for one account (or fifty from one client) in the window, then 429.
    await this.authRepo.recordAttempt(key, client, false);
    void this.sendLinks(body, client).catch((err: unknown) =>
      this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset mail failed'),
    );
    return { detail: RESET_REQUESTED };
  }

  private async accountsOf(body: PasswordResetRequestBody): Promise<UserRow[]> {
    if (body.email) return this.repo.usersByEmail(body.email, MAX_ACCOUNTS_PER_ADDRESS);
    const company = await this.users.companyByCode(normaliseCompanyCode(body.company_code!));
    const user = company ? await this.users.userInCompany(company.id, body.username!.toLowerCase()) : undefined;
    return user && user.status !== 'rejected' ? [user] : [];
  }

  private async sendLinks(body: PasswordResetRequestBody, client: string): Promise<void> {
    for (const user of await this.accountsOf(body)) {
      const token = newToken();
      await this.repo.replaceToken(user.id, sha256(token), new Date(Date.now() + PASSWORD_RESET_MINUTES * 60_000));
      const company = await this.users.companyById(user.company_id);
      await this.users.audit({ company_id: user.company_id, user_id: user.id, action: 'password.reset_requested', client });
      await this.mail.send({
        to: user.email,
        subject: 'Reset your password',
        text:
          `Hello ${user.first_name},\n\nSomeone (we hope you) asked to reset the password of your account ${user.username}` +
          `${company ? ` in ${company.name} (company code ${company.code})` : ''}.\n\nChoose a new password here (the link works once, for ${PASSWORD_RESET_MINUTES} minutes):\n` +
          `${this.config.PUBLIC_URL}/reset-password?token=${token}\n\nIf you did not ask for it, ignore this e-mail: your password stays as it is.`,
      });
    }
  }

  /** Sets the new password with a live link; ends every session of the user. */
  async confirm(body: PasswordResetConfirmBody, client: string): Promise<{ detail: string }> {
    const key = `reset-token/${client}`;
    await this.auth.checkThrottle(key, client, 'password reset attempts');
    const row = await this.repo.liveToken(sha256(body.token));
    if (!row) {
      await this.authRepo.recordAttempt(key, client, false);
      throw new AppError(400, RESET_LINK_INVALID, [{ field: 'token', message: RESET_LINK_INVALID }]);
    }
    const user = (await this.users.userById(row.user_id))!;
    const weak = passwordProblem(body.password, { username: user.username, email: user.email });
    if (weak) throw badRequest(weak, 'password'); // the link stays usable: the user tries another password
    const hash = await this.passwords.hash(body.password);
    const sessions = await this.repo.applyReset(row.id, user.id, hash);
    if (sessions === false) throw new AppError(400, RESET_LINK_INVALID, [{ field: 'token', message: RESET_LINK_INVALID }]);
    await this.users.audit({ company_id: user.company_id, user_id: user.id, action: 'password.reset', detail: { sessions_ended: sessions }, client });
    try {
      await this.mail.send({
        to: user.email,
        subject: 'Your password was changed',
        text:
          `Hello ${user.first_name},\n\nThe password of your account ${user.username} was changed with a reset link at ` +
          `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC from the address ${client}. Every session of the account was ended.\n\n` +
          `If this was not you, reset your password again now and tell your company administrator.`,
      });
    } catch {
      // Logged and recorded as failed in the outbox by the mail service; the password is changed.
    }
    return { detail: 'Your password was changed and every session of your account was ended. Log in with the new password.' };
  }
}
