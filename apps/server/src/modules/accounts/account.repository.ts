import { sql } from 'kysely';
import type { AuditLogQuery } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';

/** SQL of company settings, the activity log, membership decisions, page pings and demo requests. */
export class AccountRepository {
  constructor(private readonly db: DB) {}

  async downloadLinkHours(companyId: number): Promise<number> {
    const row = await this.db.selectFrom('companies').select('download_link_hours').where('id', '=', companyId).executeTakeFirstOrThrow();
    return row.download_link_hours;
  }

  async setDownloadLinkHours(companyId: number, hours: number): Promise<void> {
    await this.db.updateTable('companies').set({ download_link_hours: hours }).where('id', '=', companyId).execute();
  }

  /**
   * One page of the company's activity log, newest first, and the number of matching rows: only rows of `companyId`.
   * `action` is a code (login.succeeded) or a group (login = login and login.*); dates are UTC days or instants.
   */
  async auditLog(companyId: number, query: AuditLogQuery) {
    let base = this.db.selectFrom('audit_log as a').where('a.company_id', '=', companyId);
    if (query.action) {
      const action = query.action;
      base = action.includes('.')
        ? base.where('a.action', '=', action)
        : base.where((eb) => eb.or([eb('a.action', '=', action), eb('a.action', 'like', `${action.replace(/_/g, '\\_')}.%`)]));
    }
    const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000);
    if (query.from) base = base.where('a.created_at', '>=', new Date(query.from.length === 10 ? `${query.from}T00:00:00Z` : query.from));
    if (query.to) base = query.to.length === 10 ? base.where('a.created_at', '<', dayAfter(query.to)) : base.where('a.created_at', '<=', new Date(query.to));
    const total = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'a.user_id').on('u.company_id', '=', companyId))
      .select(['a.id', 'a.action', 'a.detail', 'a.client', 'a.created_at', 'u.id as user_id', 'u.username', 'u.first_name', 'u.last_name'])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute();
    return { total: Number(total.n), rows };
  }

  async setUserStatus(userId: number, status: 'active' | 'rejected'): Promise<void> {
    await this.db.updateTable('users').set({ status }).where('id', '=', userId).execute();
  }

  /** Revokes every live token of the user, sessions and personal API tokens (they are signed out everywhere). */
  async revokeTokens(userId: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await this.db.updateTable('personal_api_tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }

  /** The user's last page, and the visit, in one transaction. */
  async recordPage(userId: number, path: string, at: Date): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ last_accessed_at: at, last_accessed_path: path }).where('id', '=', userId).execute();
      await tx.insertInto('page_visits').values({ user_id: userId, path, accessed_at: at }).execute();
    });
  }

  async demoRequestsSince(client: string, since: Date): Promise<number> {
    const recent = await this.db
      .selectFrom('demo_requests')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('client', '=', client)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return recent.n;
  }

  async insertDemoRequest(values: {
    name: string;
    email: string;
    company: string;
    role: string | null;
    message: string | null;
    client: string;
  }): Promise<void> {
    await this.db.insertInto('demo_requests').values(values).execute();
  }
}
