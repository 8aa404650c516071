import type { AuditLogQuery, AuditLogResponse, DataEditPermission, PermissionsResponse } from '@crp/contracts';
import { auditActionLabel } from '@crp/contracts';
import { DATA_EDIT_PERMISSIONS } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { forbidden, notFound, tooManyRequests } from '../../lib/errors.js';
import { presentMember } from './user.presenter.js';
import type { UsersRepository } from './users.repository.js';
import type { NotificationService } from './notification.service.js';
import { tierDataOf } from './tier.service.js';
import { assertCompanyAdmin } from '../access/project-access.policy.js';
import { sql } from 'kysely';

/** Company membership, permissions, page pings and demo requests. */
export class AccountService {
  constructor(
    private readonly db: DB,
    private readonly users: UsersRepository,
    private readonly notifications: NotificationService,
  ) {}

  /** Another company's user is a 404 (ids of other companies are not confirmed); a colleague needs admin rights. */
  async permissions(caller: AuthUser, userId: number): Promise<PermissionsResponse> {
    const user = await this.users.userById(userId);
    if (!user || user.company_id !== caller.companyId) throw notFound(`userId: no user ${userId} in your company.`);
    if (user.id !== caller.id && !caller.isCompanyAdmin) throw forbidden('Only a company administrator can read the permissions of another user.');
    const company = await this.users.companyById(user.company_id);
    if (!company) throw notFound();
    const tier = tierDataOf(company);
    const edits = user.data_edit_permissions as Record<string, boolean>;
    return {
      user_id: user.id,
      tier: tier.tier,
      assets_allowed: tier.assets_allowed,
      allowed_modules: tier.allowed_modules,
      tier_permissions: tier.tier_permissions,
      data_edit_permissions: Object.fromEntries(DATA_EDIT_PERMISSIONS.map((k) => [k, edits[k] !== false])) as Record<DataEditPermission, boolean>,
      is_company_admin: user.is_company_admin,
    };
  }

  /** The company's download-link lifetime (hours); any member may read it. */
  async downloadLinkHours(caller: AuthUser): Promise<{ download_link_hours: number }> {
    const row = await this.db.selectFrom('companies').select('download_link_hours').where('id', '=', caller.companyId).executeTakeFirstOrThrow();
    return { download_link_hours: row.download_link_hours };
  }

  /** Shortens (or restores) the lifetime of the company's future download links, 1-24 hours (administrators only). */
  async setDownloadLinkHours(caller: AuthUser, hours: number): Promise<{ download_link_hours: number }> {
    assertCompanyAdmin(caller, 'Only a company administrator can change how long download links last.');
    await this.db.updateTable('companies').set({ download_link_hours: hours }).where('id', '=', caller.companyId).execute();
    return { download_link_hours: hours };
  }

  async members(caller: AuthUser) {
    assertCompanyAdmin(caller, 'Only a company administrator can list the members.');
    return (await this.users.companyMembers(caller.companyId)).map(presentMember);
  }

  /**
   * The company's activity log, newest first (administrators only): only rows of the caller's company, whatever the
   * filter. `action` is a code (login.succeeded) or a group (login = login and login.*); dates are UTC days.
   */
  async auditLog(caller: AuthUser, query: AuditLogQuery): Promise<AuditLogResponse> {
    assertCompanyAdmin(caller, 'Only a company administrator can read the activity log.');
    let base = this.db.selectFrom('audit_log as a').where('a.company_id', '=', caller.companyId);
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
      .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'a.user_id').on('u.company_id', '=', caller.companyId))
      .select(['a.id', 'a.action', 'a.detail', 'a.client', 'a.created_at', 'u.id as user_id', 'u.username', 'u.first_name', 'u.last_name'])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute();
    return {
      total: Number(total.n),
      page: query.page,
      page_size: query.page_size,
      results: rows.map((r) => ({
        id: r.id,
        time: new Date(r.created_at).toISOString(),
        action: r.action,
        action_label: auditActionLabel(r.action),
        user: r.user_id === null ? null : { id: r.user_id, username: r.username ?? '', name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || (r.username ?? '') },
        detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail ?? {}) as Record<string, unknown>,
        client: r.client,
      })),
    };
  }

  async decide(caller: AuthUser, userId: number, decision: 'approve' | 'reject', client: string) {
    assertCompanyAdmin(caller, 'Only a company administrator can approve or reject members.');
    const user = await this.users.userById(userId);
    if (!user || user.company_id !== caller.companyId) throw notFound(`userId: no user ${userId} in your company.`);
    if (user.id === caller.id) throw forbidden('You cannot change your own membership.');
    const status = decision === 'approve' ? 'active' : 'rejected';
    await this.db.updateTable('users').set({ status }).where('id', '=', user.id).execute();
    if (status === 'rejected') await this.db.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    if (status === 'active') {
      await this.notifications.notify([user.id], { title: 'Welcome', message: 'An administrator approved your account.', notification_type: 'success', link: null });
    }
    await this.users.audit({ company_id: caller.companyId, user_id: caller.id, action: `member.${decision}d`, detail: { member_id: user.id }, client });
    const updated = await this.users.userById(user.id);
    return presentMember(updated!);
  }

  async recordPage(caller: AuthUser, path: string) {
    const now = new Date();
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ last_accessed_at: now, last_accessed_path: path }).where('id', '=', caller.id).execute();
      await tx.insertInto('page_visits').values({ user_id: caller.id, path, accessed_at: now }).execute();
    });
  }

  /** Public form: at most 5 requests an hour from one client. */
  async demoRequest(body: { name: string; email: string; company: string; role?: string | undefined; message?: string | undefined }, client: string) {
    const recent = await this.db
      .selectFrom('demo_requests')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('client', '=', client)
      .where('created_at', '>', new Date(Date.now() - 3_600_000))
      .executeTakeFirstOrThrow();
    if (recent.n >= 5) throw tooManyRequests('Too many demo requests from this address. Try again in an hour.', 3600);
    await this.db
      .insertInto('demo_requests')
      .values({ name: body.name, email: body.email, company: body.company, role: body.role ?? null, message: body.message ?? null, client })
      .execute();
  }
}
