import { sql } from 'kysely';
import type { DB } from '../../infra/db/database.js';

/** SQL of personal API tokens (issue 32 item 3). No rules here. */
export class ApiTokenRepository {
  constructor(private readonly db: DB) {}

  /** Runs `fn` in one transaction, with a repository on it. */
  transaction<T>(fn: (repo: ApiTokenRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((tx) => fn(new ApiTokenRepository(tx)));
  }

  /** Locks the user's row, so two creations of one user are counted one after the other. */
  async lockUser(userId: number): Promise<void> {
    await this.db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }

  /** How many unrevoked, unexpired tokens the user holds. */
  async countLive(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('personal_api_tokens')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirstOrThrow();
    return r.n;
  }

  insert(values: { user_id: number; name: string; token_hash: string; hint: string; expires_at: Date }) {
    return this.db.insertInto('personal_api_tokens').values(values).returning('id').executeTakeFirstOrThrow();
  }

  private listed() {
    return this.db
      .selectFrom('personal_api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id', 't.name', 't.hint', 't.created_at', 't.last_used_at', 't.expires_at', 'u.id as user_id', 'u.username', 'u.company_id'])
      .where('t.revoked_at', 'is', null)
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc');
  }

  /** The user's unrevoked tokens (expired ones too), newest first. */
  ofUser(userId: number) {
    return this.listed().where('t.user_id', '=', userId).execute();
  }

  /** The unrevoked tokens of every member of the company, newest first. */
  ofCompany(companyId: number) {
    return this.listed().where('u.company_id', '=', companyId).execute();
  }

  /** One unrevoked token with its owner's company, or undefined. */
  byId(id: number) {
    return this.listed().where('t.id', '=', id).executeTakeFirst();
  }

  /** Revokes the token unless it already was; answers whether it did. */
  async revoke(id: number): Promise<boolean> {
    const r = await this.db
      .updateTable('personal_api_tokens')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The live (unrevoked, unexpired) token with this hash and its user. */
  live(tokenHash: string) {
    return this.db
      .selectFrom('personal_api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id as token_id', 't.last_used_at', 'u.id as user_id', 'u.company_id', 'u.username', 'u.is_company_admin', 'u.status'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', new Date())
      .executeTakeFirst();
  }

  async touch(id: number): Promise<void> {
    await this.db.updateTable('personal_api_tokens').set({ last_used_at: new Date() }).where('id', '=', id).execute();
  }
}
