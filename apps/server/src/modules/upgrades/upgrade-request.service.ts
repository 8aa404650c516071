/**
 * Upgrade requests (issue 37 item 1). Any active member of a company asks for a higher tier from a locked panel; the
 * request is stored (one pending per company), the company's administrators and the installation's operators get a
 * notification and an e-mail; an operator grants it in the app (the setup page's operator card) or with
 * `npm run admin -- grant-tier`, which sets the tier's sections and tells every member; the notifications about the
 * request are marked read for everyone once it is decided. No trials: decision in docs/decisions.md.
 */
import { PLAN_INCLUDES, TIERS, tiersAbove, type Tier, type UpgradeRequest } from '@crp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../infra/db/database.js';
import type { MailService } from '../../infra/mail.service.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { NotificationRepository } from '../accounts/notification.repository.js';
import { NotificationService } from '../accounts/notification.service.js';
import { TIER_DEFAULTS, tierColumns } from '../accounts/tier.service.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { UpgradeRequestsRepository } from './upgrade-requests.repository.js';

const iso = (d: Date | string | null) => (d === null ? null : (d instanceof Date ? d : new Date(d)).toISOString());
/** Decided requests an operator's list shows after the pending ones. */
const DECIDED_SHOWN = 50;
/** Where an operator decides: the setup page's card. */
export const OPERATOR_LINK = '/setup#upgrade-requests';
export const upgradeRef = (id: number) => `upgrade:${id}`;

type Row = NonNullable<Awaited<ReturnType<UpgradeRequestsRepository['byId']>>>;

function present(r: Row): UpgradeRequest {
  return {
    id: r.id,
    company_code: r.company_code,
    company_name: r.company_name,
    tier_from: r.tier_from,
    tier: r.tier as Tier,
    message: r.message,
    status: r.status,
    requested_by: r.requested_by,
    created_at: iso(r.created_at)!,
    decided_at: iso(r.decided_at),
    decided_by: r.decided_by,
  };
}

/**
 * Sets the company's tier (its default sections and modules; the asset limit is never lowered below an operator's
 * override), marks its pending request granted, tells every active member and marks the request's notifications read.
 * Shared by the operator route and `npm run admin -- grant-tier`. Answers the granted request's id, if there was one.
 */
export async function grantTier(db: DB, companyId: number, tier: Tier, by: string, client: string): Promise<{ requestId: number | null; from: string }> {
  return db.transaction().execute(async (tx) => {
    const repo = new UpgradeRequestsRepository(tx);
    const c = await repo.company(companyId);
    if (!c) throw notFound(`company: no company ${companyId}.`);
    const cols = tierColumns(tier, { assets: Math.max(TIER_DEFAULTS[tier].assets, tier === c.tier ? c.assets_allowed : 0) });
    await repo.setTier(c.id, cols);
    const requestId = (await repo.decidePending(c.id, 'granted', by)) ?? null;
    const members = (await repo.activeMembers(c.id)).map((m) => m.id);
    const notifications = new NotificationService(new NotificationRepository(tx));
    await notifications.notify(members, {
      title: 'Upgrade granted',
      message: `Your company is now on the ${tier} plan (${cols.assets_allowed.toLocaleString('en-US')} assets). ${PLAN_INCLUDES[tier]} Reload a dashboard to see the figures.`,
      notification_type: 'success',
      link: '/project',
    });
    if (requestId !== null) await notifications.resolve(upgradeRef(requestId));
    await repo.audit({
      company_id: c.id,
      action: 'tier.changed',
      detail: { from: c.tier, to: tier, assets_allowed: cols.assets_allowed, request_id: requestId, by },
      client,
    });
    return { requestId, from: c.tier };
  });
}

export class UpgradeRequestService {
  private readonly repo: UpgradeRequestsRepository;
  constructor(
    private readonly db: DB,
    private readonly users: UsersRepository,
    private readonly notifications: NotificationService,
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.repo = new UpgradeRequestsRepository(db);
  }

  async assertOperator(caller: AuthUser): Promise<void> {
    if (!(await this.repo.isOperator(caller.id)))
      throw new AppError(403, 'Only an operator of this installation may grant upgrades (npm run admin -- set-operator, or npm run admin -- grant-tier).');
  }

  /** Stores the request and tells the company's administrators and the operators (notification and e-mail). */
  async request(caller: AuthUser, body: { tier: Tier; message: string }, client: string): Promise<UpgradeRequest> {
    const company = (await this.users.companyById(caller.companyId))!;
    const from = (TIERS as readonly string[]).includes(company.tier) ? (company.tier as Tier) : 'free';
    const above = tiersAbove(from);
    if (!above.includes(body.tier))
      throw badRequest(
        above.length === 0
          ? `tier: your company is already on the ${from} plan, the highest; there is nothing to upgrade to.`
          : `tier: your company is already on the ${from} plan; ask for ${above.join(' or ')}.`,
        'tier',
      );
    const pending = await this.repo.pendingOf(company.id);
    if (pending) throw this.alreadyPending(pending);
    let id: number;
    try {
      id = await this.repo.insert({ company_id: company.id, requested_by: caller.id, tier_from: from, tier: body.tier, message: body.message });
    } catch (err) {
      // two requests at once: the partial unique index keeps one
      const again = (err as { code?: string }).code === '23505' ? await this.repo.pendingOf(company.id) : undefined;
      if (again) throw this.alreadyPending(again);
      throw err;
    }
    await this.users.audit({
      company_id: company.id,
      user_id: caller.id,
      action: 'upgrade.requested',
      detail: { request_id: id, from, to: body.tier },
      client,
    });
    const row = (await this.repo.byId(id))!;
    await this.tell(row, caller);
    return present(row);
  }

  private alreadyPending(r: Row): AppError {
    return conflict(
      `Your company already asked for the ${r.tier} plan on ${iso(r.created_at)!.slice(0, 10)}${r.requested_by ? ` (${r.requested_by})` : ''}; an operator will answer it. One request at a time.`,
    );
  }

  /** Notification and e-mail to the company's administrators and the operators (not to the requester, who sees the answer). */
  private async tell(r: Row, caller: AuthUser): Promise<void> {
    const admins = (await this.users.companyAdmins(r.company_id)).filter((u) => u.id !== caller.id);
    const operators = (await this.repo.operators()).filter((u) => u.id !== caller.id);
    const what = `${r.requested_by ?? 'A member'} of ${r.company_name} (company code ${r.company_code}) asks to upgrade from the ${r.tier_from} plan to ${r.tier}.`;
    const note = r.message ? ` Note: "${r.message}"` : '';
    await this.notifications.notify(
      admins.map((u) => u.id),
      { title: 'Upgrade requested', message: `${what}${note} An operator of this installation decides.`, notification_type: 'info', ref: upgradeRef(r.id) },
    );
    await this.notifications.notify(
      operators.map((u) => u.id),
      {
        title: 'Upgrade requested',
        message: `${what}${note} Grant it on the setup page.`,
        notification_type: 'info',
        link: OPERATOR_LINK,
        ref: upgradeRef(r.id),
      },
    );
    const to = new Map<string, string>();
    for (const u of admins) to.set(u.email.toLowerCase(), `${what}${note}\n\nAn operator of the installation decides; you will be told in the app.`);
    for (const u of operators)
      to.set(
        u.email.toLowerCase(),
        `${what}${note}\n\nGrant it in the app: ${this.publicUrl}${OPERATOR_LINK}\nor on the server: npm run admin -- grant-tier --company ${r.company_code} --tier ${r.tier}`,
      );
    for (const [address, text] of to) {
      // the request is stored and notified: a mail server that fails is logged (outbox_emails status failed), not the caller's problem
      await this.mail
        .send({ to: address, subject: `Upgrade requested: ${r.company_name} (${r.tier})`, text })
        .catch((err: unknown) => this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'upgrade request mail failed'));
    }
  }

  /** An operator: every pending request and the last decided; anyone else: their company's. */
  async list(caller: AuthUser): Promise<UpgradeRequest[]> {
    const rows = (await this.repo.isOperator(caller.id)) ? await this.repo.forOperators(DECIDED_SHOWN) : await this.repo.ofCompany(caller.companyId, 20);
    return rows.map(present);
  }

  /** An operator grants a pending request: the company gets the tier asked for. */
  async grant(caller: AuthUser, id: number, client: string): Promise<UpgradeRequest> {
    await this.assertOperator(caller);
    const r = await this.repo.byId(id);
    if (!r) throw notFound(`id: no upgrade request ${id}.`);
    if (r.status !== 'pending') throw conflict(`Upgrade request ${id} was already ${r.status}${r.decided_by ? ` by ${r.decided_by}` : ''}.`);
    await grantTier(this.db, r.company_id, r.tier as Tier, caller.username, client);
    return present((await this.repo.byId(id))!);
  }
}
