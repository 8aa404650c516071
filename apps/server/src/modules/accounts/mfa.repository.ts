import type { DB } from '../../infra/db/database.js';

export type EmailCodePurpose = 'mfa_setup' | 'login';

/** SQL of two-factor authentication: the users' TOTP columns and the e-mailed codes. No rules here. */
export class MfaRepository {
  constructor(private readonly db: DB) {}

  async setPendingTotpSecret(userId: number, secret: string): Promise<void> {
    await this.db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', userId).execute();
  }

  /** Puts the app method in force with its secret and the step of the code that verified it. */
  async enableApp(userId: number, secret: string, step: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ twofa_method: 'app', totp_secret: secret, totp_pending_secret: null, totp_last_step: step })
      .where('id', '=', userId)
      .execute();
  }

  async enableEmail(userId: number): Promise<void> {
    await this.db.updateTable('users').set({ twofa_method: 'email', totp_secret: null, totp_pending_secret: null }).where('id', '=', userId).execute();
  }

  async disable(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ twofa_method: null, totp_secret: null, totp_pending_secret: null, totp_last_step: null })
      .where('id', '=', userId)
      .execute();
  }

  /** Records a TOTP step as used unless it or a later one was; true when this call recorded it. */
  async useTotpStep(userId: number, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Retires the user's unused codes of the purpose and stores the new one, in one transaction. */
  async replaceEmailCode(userId: number, purpose: EmailCodePurpose, codeHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('email_codes')
        .set({ used_at: new Date() })
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      await tx.insertInto('email_codes').values({ user_id: userId, purpose, code_hash: codeHash, expires_at: expiresAt }).execute();
    });
  }

  /** The newest unused, unexpired code of the purpose. */
  liveEmailCode(userId: number, purpose: EmailCodePurpose) {
    return this.db
      .selectFrom('email_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async setEmailCodeAttempts(codeId: number, attempts: number): Promise<void> {
    await this.db.updateTable('email_codes').set({ attempts }).where('id', '=', codeId).execute();
  }

  /** Uses the code up; true when this call did (once only, even when two requests race). */
  async consumeEmailCode(codeId: number): Promise<boolean> {
    const res = await this.db.updateTable('email_codes').set({ used_at: new Date() }).where('id', '=', codeId).where('used_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
