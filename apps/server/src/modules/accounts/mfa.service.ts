import type { TwoFaMethod } from '@crp/contracts';
import * as OTPAuth from 'otpauth';
import type { MfaRepository } from './mfa.repository.js';
import type { UserRow } from '../../infra/db/schema.js';
import { safeEqual, sha256, sixDigitCode } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { UsersRepository } from './users.repository.js';
import type { MailService } from '../../infra/mail.service.js';
import type { RecoveryCodes } from './recovery-codes.js';

/** RFC 6238 TOTP: SHA-1, 6 digits, 30 s steps (what every authenticator app supports). */
const TOTP_PERIOD_S = 30;
/** Accept the previous and next step too, for clock drift. */
const TOTP_WINDOW = 1;
const EMAIL_CODE_TTL_MS = 10 * 60_000;
const EMAIL_CODE_MAX_ATTEMPTS = 5;
const ISSUER = 'Climate Risk Platform';
const METHOD_LABEL: Record<TwoFaMethod, string> = { app: 'authenticator app', email: 'e-mail code' };

export const INVALID_CODE = 'Invalid verification code. Please try again.';

function totpFor(secretBase32: string, label: string) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 2)}${'*'.repeat(Math.max(1, local.length - 2))}@${domain}`;
}

export class MfaService {
  constructor(
    private readonly repo: MfaRepository,
    private readonly users: UsersRepository,
    private readonly mail: MailService,
    private readonly recovery: RecoveryCodes,
  ) {}

  /** Starts a setup. The existing 2FA stays in force until the new one is verified. */
  async configure(user: UserRow, method: TwoFaMethod) {
    if (method === 'app') {
      const secret = new OTPAuth.Secret({ size: 20 });
      await this.repo.setPendingTotpSecret(user.id, secret.base32);
      const uri = totpFor(secret.base32, user.username).toString();
      return { detail: '2FA code generated successfully', data: { method, uri, secret: secret.base32 } };
    }
    const code = await this.newEmailCode(user.id, 'mfa_setup');
    await this.mail.send({
      to: user.email,
      subject: 'Your verification code',
      text: `Your verification code to set up e-mail two-factor authentication is ${code}.\nIt expires in 10 minutes. If you did not ask for it, change your password.`,
    });
    return { detail: '2FA code generated successfully', data: { method, sent_to: maskEmail(user.email) } };
  }

  /**
   * Verifies a setup's code and puts the method in force. `confirm` runs once the new code is known to be right and
   * before anything changes: when 2FA is already on it checks the password and a code of the current method
   * (AuthService.confirmIdentity), so a session token alone cannot replace the second factor. The user is told by e-mail.
   */
  async verify(user: UserRow, method: TwoFaMethod, code: string, client: string, confirm: () => Promise<void> = async () => {}) {
    const previous = user.twofa_method;
    if (method === 'app') {
      if (!user.totp_pending_secret)
        throw new AppError(400, 'Start the authenticator app setup first (GET user/configure_multifactor/app).', [
          { field: 'method', message: 'no app setup in progress' },
        ]);
      const step = this.matchTotp(user.totp_pending_secret, user.username, code, null);
      if (step === null) throw new AppError(400, INVALID_CODE, [{ field: 'code', message: INVALID_CODE }]);
      await confirm();
      await this.repo.enableApp(user.id, user.totp_pending_secret, step);
    } else {
      if (!(await this.checkEmailCode(user.id, 'mfa_setup', code, false))) throw new AppError(400, INVALID_CODE, [{ field: 'code', message: INVALID_CODE }]);
      await confirm();
      if (!(await this.checkEmailCode(user.id, 'mfa_setup', code, true))) throw new AppError(400, INVALID_CODE, [{ field: 'code', message: INVALID_CODE }]);
      await this.repo.enableEmail(user.id);
    }
    await this.users.audit({
      company_id: user.company_id,
      user_id: user.id,
      action: previous ? '2fa.changed' : '2fa.enabled',
      detail: previous ? { method, from: previous } : { method },
      client,
    });
    await this.tell(user, previous ? `changed from ${METHOD_LABEL[previous]} to ${METHOD_LABEL[method]}` : `turned on (${METHOD_LABEL[method]})`, client);
    // Recovery codes come with turning 2FA on (and with a method change when the user has none yet); shown this once.
    const recoveryCodes = !previous || (await this.recovery.status(user.id)).created_at === null ? await this.recovery.replace(user.id) : undefined;
    return { detail: '2FA verification successful', is_2fa_enabled: true, method, ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
  }

  /** Turns 2FA off once `confirm` (password and a current code) has passed; the user is told by e-mail. */
  async disable(user: UserRow, client: string, confirm: () => Promise<void>) {
    if (!user.twofa_method) throw new AppError(400, 'Two-factor authentication is not on for this account.', [{ field: 'method', message: '2FA is off' }]);
    await confirm();
    await this.repo.disable(user.id);
    await this.recovery.deleteAll(user.id);
    await this.users.audit({ company_id: user.company_id, user_id: user.id, action: '2fa.disabled', detail: { method: user.twofa_method }, client });
    await this.tell(user, `turned off (it was ${METHOD_LABEL[user.twofa_method]})`, client);
    return { detail: 'Two-factor authentication is off.', is_2fa_enabled: false };
  }

  /** E-mails a code of the e-mail method in force, to confirm a change or a turn-off (an app user reads the app). */
  async sendCurrentCode(user: UserRow) {
    if (user.twofa_method !== 'email') {
      const why =
        user.twofa_method === 'app'
          ? 'Your current method is the authenticator app: use the code it shows.'
          : 'Two-factor authentication is not on for this account.';
      throw new AppError(400, why, [{ field: 'method', message: why }]);
    }
    const code = await this.newEmailCode(user.id, 'login');
    await this.mail.send({
      to: user.email,
      subject: 'Your code to confirm a two-factor change',
      text: `Your code to confirm changing or turning off two-factor authentication is ${code}.\nIt expires in 10 minutes. If you did not ask for it, change your password.`,
    });
    return { detail: 'Code sent.', sent_to: maskEmail(user.email) };
  }

  /** ASVS V2.2.3: the user hears of every change to their second factor, at their address on file. */
  private async tell(user: UserRow, what: string, client: string) {
    try {
      await this.mail.send({
        to: user.email,
        subject: 'Two-factor authentication changed on your account',
        text:
          `Hello ${user.first_name},\n\nTwo-factor authentication of your account ${user.username} was ${what} at ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
          `from the address ${client}.\n\nIf this was not you, change your password now and ask your company administrator to have two-factor authentication reset.`,
      });
    } catch {
      // Logged and recorded as failed in the outbox by the mail service; the change itself is made.
    }
  }

  async sendLoginCode(user: UserRow): Promise<void> {
    const code = await this.newEmailCode(user.id, 'login');
    await this.mail.send({
      to: user.email,
      subject: 'Your login code',
      text: `Your login code is ${code}. It expires in 10 minutes.\nIf you did not try to log in, change your password.`,
    });
  }

  /**
   * Checks a login code; a TOTP step can be used only once (replay protection). With `recovery` a code that is not
   * a 6-digit one is tried as one of the user's recovery codes (used up when right). Answers what matched, or false.
   */
  async checkLoginCode(user: UserRow, code: string, opts: { recovery?: boolean } = {}): Promise<false | 'code' | 'recovery'> {
    if (opts.recovery && !/^\d{6}$/.test(code.trim())) return (await this.recovery.consume(user.id, code)) ? 'recovery' : false;
    if (user.twofa_method === 'email') return (await this.checkEmailCode(user.id, 'login', code, true)) && 'code';
    if (!user.totp_secret) return false;
    const step = this.matchTotp(user.totp_secret, user.username, code, user.totp_last_step);
    if (step === null) return false;
    return (await this.repo.useTotpStep(user.id, step)) && 'code';
  }

  /** How many recovery codes the user has left (null `created_at` when none were ever made). */
  async recoveryStatus(user: UserRow) {
    const s = await this.recovery.status(user.id);
    return { is_2fa_enabled: user.twofa_method !== null, remaining: s.remaining, created_at: s.created_at ? s.created_at.toISOString() : null };
  }

  /**
   * Replaces the user's recovery codes once `confirm` (a current code of the method in force, not a recovery code) has
   * passed; answers the new codes, shown once. The user is told by e-mail.
   */
  async regenerateRecoveryCodes(user: UserRow, client: string, confirm: () => Promise<void>) {
    if (!user.twofa_method)
      throw new AppError(400, 'Turn on two-factor authentication first: recovery codes come with it.', [{ field: 'method', message: '2FA is off' }]);
    await confirm();
    const codes = await this.recovery.replace(user.id);
    await this.users.audit({ company_id: user.company_id, user_id: user.id, action: '2fa.recovery_codes_generated', client });
    await this.tell(user, 'given new recovery codes (the old ones no longer work)', client);
    return { detail: 'New recovery codes made. Save them now: they are shown only once, and the old ones no longer work.', recovery_codes: codes };
  }

  /** Tells the user a recovery code was used to sign in, and how many are left. */
  async tellRecoveryCodeUsed(user: UserRow, client: string): Promise<void> {
    const { remaining } = await this.recovery.status(user.id);
    await this.tell(user, `used to sign in with a recovery code (${remaining} left)`, client);
  }

  private matchTotp(secret: string, label: string, code: string, lastStep: number | null): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const delta = totpFor(secret, label).validate({ token: code, window: TOTP_WINDOW });
    if (delta === null) return null;
    const step = Math.floor(Date.now() / 1000 / TOTP_PERIOD_S) + delta;
    if (lastStep !== null && step <= Number(lastStep)) return null;
    return step;
  }

  private async newEmailCode(userId: number, purpose: 'mfa_setup' | 'login'): Promise<string> {
    const code = sixDigitCode();
    await this.repo.replaceEmailCode(userId, purpose, sha256(`${userId}:${purpose}:${code}`), new Date(Date.now() + EMAIL_CODE_TTL_MS));
    return code;
  }

  /**
   * Checks an e-mailed code; a wrong code counts an attempt (5 per code). With `consume` a right code is used up
   * (once only, even when two requests race); without, it stays valid (a first check before other checks run).
   */
  private async checkEmailCode(userId: number, purpose: 'mfa_setup' | 'login', code: string, consume: boolean): Promise<boolean> {
    const row = await this.repo.liveEmailCode(userId, purpose);
    if (!row || row.attempts >= EMAIL_CODE_MAX_ATTEMPTS) return false;
    if (!safeEqual(row.code_hash, sha256(`${userId}:${purpose}:${code.trim()}`))) {
      await this.repo.setEmailCodeAttempts(row.id, row.attempts + 1);
      return false;
    }
    if (!consume) return true;
    return this.repo.consumeEmailCode(row.id);
  }
}
