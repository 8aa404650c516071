import type { DB } from '../../infra/db/database.js';
import type { CompanyRow, UserRow } from '../../infra/db/schema.js';

/** SQL for users and companies. No rules here. */
export class UsersRepository {
  constructor(private readonly db: DB) {}

  companyByCode(code: string): Promise<CompanyRow | undefined> {
    return this.db.selectFrom('companies').selectAll().where('code', '=', code).executeTakeFirst();
  }

  companyById(id: number): Promise<CompanyRow | undefined> {
    return this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  }

  userInCompany(companyId: number, usernameLower: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('username_lower', '=', usernameLower).executeTakeFirst();
  }

  userById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  companyMembers(companyId: number): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute();
  }

  companyAdmins(companyId: number): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('is_company_admin', '=', true)
      .where('status', '=', 'active')
      .execute();
  }

  async audit(
    entry: { company_id: number | null; user_id: number | null; action: string; detail?: Record<string, unknown>; client?: string | null },
    db: DB = this.db,
  ): Promise<void> {
    await db
      .insertInto('audit_log')
      .values({ ...entry, detail: JSON.stringify(entry.detail ?? {}), client: entry.client ?? null })
      .execute();
  }
}
