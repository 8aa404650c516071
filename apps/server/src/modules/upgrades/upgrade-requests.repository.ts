import type { DB } from '../../infra/db/database.js';

/** SQL of the upgrade requests (migration 0029). No rules here. */
export class UpgradeRequestsRepository {
  constructor(private readonly db: DB) {}

  private base(db: DB = this.db) {
    return db
      .selectFrom('upgrade_requests as r')
      .innerJoin('companies as c', 'c.id', 'r.company_id')
      .leftJoin('users as u', 'u.id', 'r.requested_by')
      .select([
        'r.id',
        'r.company_id',
        'r.requested_by as requested_by_id',
        'r.tier_from',
        'r.tier',
        'r.message',
        'r.status',
        'r.created_at',
        'r.decided_at',
        'r.decided_by',
        'c.code as company_code',
        'c.name as company_name',
        'u.username as requested_by',
      ]);
  }

  byId(id: number, db: DB = this.db) {
    return this.base(db).where('r.id', '=', id).executeTakeFirst();
  }

  pendingOf(companyId: number, db: DB = this.db) {
    return this.base(db).where('r.company_id', '=', companyId).where('r.status', '=', 'pending').executeTakeFirst();
  }

  ofCompany(companyId: number, limit: number) {
    return this.base().where('r.company_id', '=', companyId).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
  }

  /** Every pending request (oldest first), then the `decided` last decided ones. */
  async forOperators(decided: number) {
    const pending = await this.base().where('r.status', '=', 'pending').orderBy('r.created_at').orderBy('r.id').execute();
    const done = await this.base().where('r.status', '!=', 'pending').orderBy('r.decided_at', 'desc').orderBy('r.id', 'desc').limit(decided).execute();
    return [...pending, ...done];
  }

  async insert(v: { company_id: number; requested_by: number; tier_from: string; tier: string; message: string }, db: DB = this.db): Promise<number> {
    const r = await db.insertInto('upgrade_requests').values(v).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Marks the company's pending request decided; answers its id, or undefined when there was none. */
  async decidePending(companyId: number, status: 'granted' | 'declined', by: string, db: DB = this.db): Promise<number | undefined> {
    const r = await db
      .updateTable('upgrade_requests')
      .set({ status, decided_at: new Date(), decided_by: by })
      .where('company_id', '=', companyId)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }

  /** Active operators of the installation (any company). */
  operators(db: DB = this.db) {
    return db.selectFrom('users').select(['id', 'email', 'first_name']).where('is_operator', '=', true).where('status', '=', 'active').execute();
  }

  async isOperator(userId: number): Promise<boolean> {
    const r = await this.db.selectFrom('users').select('is_operator').where('id', '=', userId).executeTakeFirst();
    return r?.is_operator === true;
  }

  company(id: number) {
    return this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setTier(companyId: number, cols: { tier: string; assets_allowed: number; allowed_modules: string; tier_permissions: string }): Promise<void> {
    await this.db.updateTable('companies').set(cols).where('id', '=', companyId).execute();
  }

  async audit(e: { company_id: number; action: string; detail: Record<string, unknown>; client: string }): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({ ...e, user_id: null, detail: JSON.stringify(e.detail) })
      .execute();
  }

  activeMembers(companyId: number, db: DB = this.db) {
    return db.selectFrom('users').select('id').where('company_id', '=', companyId).where('status', '=', 'active').execute();
  }
}
