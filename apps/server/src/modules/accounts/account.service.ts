import type { AuditLogQuery, AuditLogResponse, DataEditPermission, PermissionsResponse } from '@crp/contracts';
import { auditActionLabel } from '@crp/contracts';
import { DATA_EDIT_PERMISSIONS } from '@crp/contracts';
import type { AccountRepository } from './account.repository.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { forbidden, notFound, tooManyRequests } from '../../lib/errors.js';
import { presentMember } from './user.presenter.js';
import type { UsersRepository } from './users.repository.js';
import type { NotificationService } from './notification.service.js';
import { tierDataOf } from './tier.service.js';
import { assertCompanyAdmin } from '../access/project-access.policy.js';

/** Company membership, permissions, page pings and demo requests. */
export class AccountService {
  constructor(
    private readonly repo: AccountRepository,
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
    return { download_link_hours: await this.repo.downloadLinkHours(caller.companyId) };
  }

  /** Shortens (or restores) the lifetime of the company's future download links, 1-24 hours (administrators only). */
  async setDownloadLinkHours(caller: AuthUser, hours: number): Promise<{ download_link_hours: number }> {
    assertCompanyAdmin(caller, 'Only a company administrator can change how long download links last.');
    await this.repo.setDownloadLinkHours(caller.companyId, hours);
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
    const { total, rows } = await this.repo.auditLog(caller.companyId, query);
    return {
      total,
      page: query.page,
      page_size: query.page_size,
      results: rows.map((r) => ({
        id: r.id,
        time: new Date(r.created_at).toISOString(),
        action: r.action,
        action_label: auditActionLabel(r.action),
        user:
          r.user_id === null
            ? null
            : { id: r.user_id, username: r.username ?? '', name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || (r.username ?? '') },
        detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : (r.detail ?? {})) as Record<string, unknown>,
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
    await this.repo.setUserStatus(user.id, status);
    if (status === 'rejected') await this.repo.revokeTokens(user.id);
    // Settled: no administrator sees "New member waiting for approval" about this member again.
    await this.notifications.resolve(`member:${user.id}`);
    if (status === 'active') {
      await this.notifications.notify([user.id], {
        title: 'Welcome',
        message: 'An administrator approved your account.',
        notification_type: 'success',
        link: null,
      });
    }
    await this.users.audit({ company_id: caller.companyId, user_id: caller.id, action: `member.${decision}d`, detail: { member_id: user.id }, client });
    const updated = await this.users.userById(user.id);
    return presentMember(updated!);
  }

  async recordPage(caller: AuthUser, path: string) {
    await this.repo.recordPage(caller.id, path, new Date());
  }

  /** Public form: at most 5 requests an hour from one client. */
  async demoRequest(body: { name: string; email: string; company: string; role?: string | undefined; message?: string | undefined }, client: string) {
    const recent = await this.repo.demoRequestsSince(client, new Date(Date.now() - 3_600_000));
    if (recent >= 5) throw tooManyRequests('Too many demo requests from this address. Try again in an hour.', 3600);
    await this.repo.insertDemoRequest({
      name: body.name,
      email: body.email,
      company: body.company,
      role: body.role ?? null,
      message: body.message ?? null,
      client,
    });
  }
}
