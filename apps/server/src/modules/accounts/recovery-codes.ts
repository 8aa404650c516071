import type { DB } from '../../infra/db/database.js';
import { newRecoveryCode, newSalt, normaliseRecoveryCode, safeEqual, sha256 } from '../../lib/crypto.js';

/** How many recovery codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * 2FA recovery codes (ASVS V2.6: lookup secrets). Ten codes of 79 random bits each (16 characters of a 31-letter
 * alphabet), shown once when made, stored as SHA-256(salt + code) with a random 128-bit salt per code, each usable once.
 *
 * Why SHA-256 and not Argon2id like passwords: a slow hash protects low-entropy secrets people choose. These codes are
 * random with 79 bits, so an offline search of one code's hash needs ~2^78 SHA-256 evaluations on average (about 10^8
 * GPU-years at 10^10 hashes/s), and the per-code salt stops any precomputed table. ASVS V2.6.2 asks exactly this for
 * lookup secrets under 112 bits (a unique salt and an approved one-way hash). A login then checks at most ten hashes
 * in microseconds instead of ten Argon2id runs (each one tenth of a second and 19 MiB).
 */
export class RecoveryCodes {
  constructor(private readonly db: DB) {}

  /** Replaces the user's codes with a new set; answers the codes in clear (to show once). */
  async replace(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    const rows = codes.map((code) => {
      const salt = newSalt();
      return { user_id: userId, salt, code_hash: sha256(salt + normaliseRecoveryCode(code)!) };
    });
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
      await tx.insertInto('mfa_recovery_codes').values(rows).execute();
    });
    return codes;
  }

  async deleteAll(userId: number): Promise<void> {
    await this.db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  }

  /** Unused codes left, and when the set was made (null without a set). */
  async status(userId: number): Promise<{ remaining: number; created_at: Date | null }> {
    const rows = await this.db.selectFrom('mfa_recovery_codes').select(['created_at', 'used_at']).where('user_id', '=', userId).execute();
    return {
      remaining: rows.filter((r) => r.used_at === null).length,
      created_at: rows.length ? new Date(Math.max(...rows.map((r) => new Date(r.created_at).getTime()))) : null,
    };
  }

  /** Uses up the code when it is one of the user's unused codes; true when this call used it (once, even in a race). */
  async consume(userId: number, typed: string): Promise<boolean> {
    const code = normaliseRecoveryCode(typed);
    if (!code) return false;
    const rows = await this.db
      .selectFrom('mfa_recovery_codes')
      .select(['id', 'salt', 'code_hash'])
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    const hit = rows.find((r) => safeEqual(r.code_hash, sha256(r.salt + code)));
    if (!hit) return false;
    const res = await this.db
      .updateTable('mfa_recovery_codes')
      .set({ used_at: new Date() })
      .where('id', '=', hit.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
