import type { CompanyMember, Notification, UserSummary } from '@crp/contracts';
import type { CompanyRow, NotificationRow, UserRow } from '../../infra/db/schema.js';

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export function presentUser(user: UserRow, company: CompanyRow): UserSummary {
  return {
    id: user.id,
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_2fa_enabled: user.twofa_method !== null,
    twofa_method: user.twofa_method,
    is_company_admin: user.is_company_admin,
    is_operator: user.is_operator,
    company_name: company.name,
    company_code: company.code,
  };
}

export function presentNotification(n: NotificationRow): Notification {
  return { id: n.id, title: n.title, message: n.message, notification_type: n.notification_type, link: n.link, created_at: iso(n.created_at) };
}

export function presentMember(u: UserRow): CompanyMember {
  return {
    id: u.id,
    username: u.username,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    status: u.status,
    is_company_admin: u.is_company_admin,
    created_at: iso(u.created_at),
  };
}

export { iso };
