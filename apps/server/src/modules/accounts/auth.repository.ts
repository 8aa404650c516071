import { sql, type Insertable } from 'kysely';
import type { DB } from '../../infra/db/database.js';
import type { CompaniesTable, NewUser } from '../../infra/db/schema.js';

/** SQL of registration, the login throttle and the session tokens. No rules here. */
export class AuthRepository {
  constructor(private readonly db: DB) {}

  /** Runs `fn` in one transaction, with a repository on it and the transaction (for other repositories' writes). */
  transaction<T>(fn: (repo: AuthRepository, tx: DB) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((tx) => fn(new AuthRepository(tx), tx));
  }

  usernameTaken(companyId: number, usernameLower: string) {
    return this.db.selectFrom('users').select('id').where('company_id', '=', companyId).where('username_lower', '=', usernameLower).executeTakeFirst();
  }

  insertUser(values: NewUser) {
    return this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Ids of the company's active administrators. */
  activeAdminIds(companyId: number) {
    return this.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .where('is_company_admin', '=', true)
      .where('status', '=', 'active')
      .execute();
  }

  companyCodeTaken(code: string) {
    return this.db.selectFrom('companies').select('id').where('code', '=', code).executeTakeFirst();
  }

  insertCompany(values: Insertable<CompaniesTable>) {
    return this.db.insertInto('companies').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** The time of the last successful login under the throttle key. */
  lastLoginSuccess(key: string) {
    return this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('username_lower', '=', key)
      .where('succeeded', '=', true)
      .executeTakeFirst();
  }

  /** Failed logins under the throttle key after `since`. */
  failuresOfKey(key: string, since: Date) {
    return this.db
      .selectFrom('login_attempts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('username_lower', '=', key)
      .where('succeeded', '=', false)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
  }

  /** Failed logins from the client after `since`. */
  failuresOfClient(client: string, since: Date) {
    return this.db
      .selectFrom('login_attempts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('client', '=', client)
      .where('succeeded', '=', false)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
  }

  async recordAttempt(key: string, client: string, succeeded: boolean): Promise<void> {
    await this.db.insertInto('login_attempts').values({ username_lower: key, client, succeeded }).execute();
  }

  async insertToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insertInto('auth_tokens').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt }).execute();
  }

  /** The live (unrevoked, unexpired) token with this hash and its user. */
  liveToken(tokenHash: string) {
    return this.db
      .selectFrom('auth_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.id as token_id', 't.created_at', 't.last_used_at', 'u.id as user_id', 'u.company_id', 'u.username', 'u.is_company_admin', 'u.status'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', new Date())
      .executeTakeFirst();
  }

  /** Revokes the token unless it already was. */
  async revokeLiveToken(tokenId: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
  }

  async touchToken(tokenId: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ last_used_at: new Date() }).where('id', '=', tokenId).execute();
  }

  async revokeToken(tokenId: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).execute();
  }

  /** Revokes every live token of the user; answers how many. */
  async revokeUserTokens(userId: number): Promise<number> {
    const res = await this.db
      .updateTable('auth_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
