import type { DB } from '../../infra/db/database.js';
import type { UserRow } from '../../infra/db/schema.js';

/** SQL of password reset links (migration 0027). No rules here. */
export class PasswordResetRepository {
  constructor(private readonly db: DB) {}

  /** The accounts (not rejected) with this e-mail address, oldest first, at most `limit`. */
  usersByEmail(email: string, limit: number): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).where('status', '!=', 'rejected').orderBy('id').limit(limit).execute();
  }

  /** Retires the user's unused links and stores the new one, in one transaction. */
  async replaceToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('password_reset_tokens').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await tx.insertInto('password_reset_tokens').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt }).execute();
    });
  }

  /** The unused, unexpired link with this hash. */
  liveToken(tokenHash: string) {
    return this.db
      .selectFrom('password_reset_tokens')
      .select(['id', 'user_id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  }

  /**
   * In one transaction: uses the link up (false, and nothing changes, when another request used it first), retires the
   * user's other links, sets the password hash and revokes every session; answers how many sessions ended.
   */
  async applyReset(tokenId: number, userId: number, passwordHash: string): Promise<number | false> {
    return this.db.transaction().execute(async (tx) => {
      const used = await tx
        .updateTable('password_reset_tokens')
        .set({ used_at: new Date() })
        .where('id', '=', tokenId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return false;
      await tx.updateTable('password_reset_tokens').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await tx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      const revoked = await tx
        .updateTable('auth_tokens')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(revoked.numUpdatedRows);
    });
  }
}
