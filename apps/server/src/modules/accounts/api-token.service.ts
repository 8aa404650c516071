import { API_TOKEN_PREFIX, API_TOKENS_PER_USER, type ApiTokenCreated, type ApiTokenList, type CreateApiTokenBody } from '@crp/contracts';
import type { Config } from '../../config.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { newToken, sha256 } from '../../lib/crypto.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { assertCompanyAdmin } from '../access/project-access.policy.js';
import type { ApiTokenRepository } from './api-token.repository.js';
import { presentApiToken } from './api-token.presenter.js';
import type { UsersRepository } from './users.repository.js';

/**
 * Personal API tokens (issue 32 item 3; ASVS V3.5.2/V3.5.3): long-lived tokens for QGIS, GDAL and notebooks that a
 * user makes, lists and revokes; a company administrator lists and revokes the company's. They are read-only (the auth
 * plugin refuses anything but GET and HEAD with them), expire after the days chosen (at most API_TOKEN_MAX_DAYS), are
 * shown once and stored as their SHA-256 only. They are not sessions: no idle time-out, no SESSION_MAX_HOURS, and
 * using one keeps no session alive.
 */
export class ApiTokenService {
  constructor(
    private readonly repo: ApiTokenRepository,
    private readonly users: UsersRepository,
    private readonly config: Pick<Config, 'API_TOKEN_MAX_DAYS'>,
  ) {}

  async create(caller: AuthUser, body: CreateApiTokenBody, client: string): Promise<ApiTokenCreated> {
    const max = this.config.API_TOKEN_MAX_DAYS;
    if (body.expires_in_days > max)
      throw badRequest(`expires_in_days: a personal API token may last at most ${max} days on this installation.`, 'expires_in_days');
    const token = API_TOKEN_PREFIX + newToken();
    const expiresAt = new Date(Date.now() + body.expires_in_days * 86_400_000);
    const id = await this.repo.transaction(async (repo) => {
      await repo.lockUser(caller.id);
      if ((await repo.countLive(caller.id)) >= API_TOKENS_PER_USER)
        throw new AppError(409, `You already have ${API_TOKENS_PER_USER} personal API tokens, the most one user may hold. Revoke one you no longer use first.`);
      return (
        await repo.insert({
          user_id: caller.id,
          name: body.name,
          token_hash: sha256(token),
          hint: token.slice(0, API_TOKEN_PREFIX.length + 4),
          expires_at: expiresAt,
        })
      ).id;
    });
    await this.users.audit({
      company_id: caller.companyId,
      user_id: caller.id,
      action: 'api_token.created',
      detail: { token_id: id, name: body.name, expires_at: expiresAt.toISOString() },
      client,
    });
    const row = await this.repo.byId(id);
    return { detail: `API token '${body.name}' created. Copy it now: it is not shown again.`, token, api_token: presentApiToken(row!) };
  }

  async list(caller: AuthUser): Promise<ApiTokenList> {
    return { tokens: (await this.repo.ofUser(caller.id)).map((r) => presentApiToken(r)), max_days: this.config.API_TOKEN_MAX_DAYS };
  }

  async listCompany(caller: AuthUser): Promise<ApiTokenList> {
    assertCompanyAdmin(caller, "Only a company administrator can list the company's API tokens.");
    return { tokens: (await this.repo.ofCompany(caller.companyId)).map((r) => presentApiToken(r)), max_days: this.config.API_TOKEN_MAX_DAYS };
  }

  /** Revokes one of the caller's tokens, or, for a company administrator, one of a colleague's. Others' tokens are 404. */
  async revoke(caller: AuthUser, tokenId: number, client: string): Promise<{ detail: string }> {
    const row = await this.repo.byId(tokenId);
    const mayRevoke = row && (row.user_id === caller.id || (caller.isCompanyAdmin && row.company_id === caller.companyId));
    if (!row || !mayRevoke) throw notFound(`tokenId: you have no API token with id ${tokenId} (or it was already revoked).`);
    await this.repo.revoke(row.id);
    await this.users.audit({
      company_id: caller.companyId,
      user_id: caller.id,
      action: 'api_token.revoked',
      detail: { token_id: row.id, name: row.name, owner: row.username },
      client,
    });
    return { detail: `API token '${row.name}' revoked.` };
  }

  /**
   * The caller behind a personal API token, or null. `last_used_at` is written at most every 5 minutes (for the list),
   * so a QGIS layer fetching tiles does not write a row per tile.
   */
  async resolve(token: string): Promise<AuthUser | null> {
    const row = await this.repo.live(sha256(token));
    if (!row || row.status !== 'active') return null;
    if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 5 * 60_000) await this.repo.touch(row.token_id);
    return { id: row.user_id, companyId: row.company_id, username: row.username, isCompanyAdmin: row.is_company_admin, tokenId: 0, apiTokenId: row.token_id };
  }
}
