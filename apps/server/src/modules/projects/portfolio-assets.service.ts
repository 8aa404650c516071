import type { PortfolioAssetsResponse, PortfolioListItem } from '@crp/contracts';
import type { z } from 'zod';
import type { DB } from '../../infra/db/database.js';
import type { JobQueue } from '../../infra/job-queue.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError } from '../../lib/errors.js';
import { Lru } from '../../lib/lru.js';
import { iso } from '../accounts/user.presenter.js';
import { assertCan, type ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { PortfolioAssetsRepository } from './portfolio-assets.repository.js';
import { ANALYSE_PORTFOLIO_JOB } from './project.service.js';

/** A project by id or name: the older calls accept either (one is required). */
export interface PortfolioRef {
  project_id?: number | undefined;
  portfolio_name?: string | undefined;
}

const requireRef = (ref: PortfolioRef) => {
  if (ref.project_id === undefined && !ref.portfolio_name)
    throw new AppError(400, 'project_id or portfolio_name is required', [{ field: 'project_id', message: 'required' }]);
};

/** The spec's older portfolio and asset calls (spec 000 §7 "Locations and assets"): list, asset list, asset delete. */
export class PortfolioAssetsService {
  /** Asset lists as sent (UTF-8 JSON), by project, version and name; at most 32 MiB (about 45,000 assets). */
  private readonly assetLists = new Lru<Buffer>(Infinity, 32 * 2 ** 20);

  constructor(
    private readonly db: DB,
    private readonly repo: PortfolioAssetsRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly jobs: JobQueue,
  ) {}

  /** The caller's physical-risk portfolios (own and shared) with hazards and asset counts. */
  async portfolios(caller: AuthUser): Promise<z.input<typeof PortfolioListItem>[]> {
    const rows = await this.repo.portfolios(caller);
    return rows.map((r) => ({
      project_id: r.id,
      portfolio_name: r.name,
      portfolio_variables: r.portfolio_variables,
      non_building_variables: r.non_building_variables,
      base_unit: r.base_unit,
      base_currency: r.base_currency,
      assets: r.assets ?? 0,
      status: r.status,
      created_at: iso(r.created_at),
    }));
  }

  /** The assets of a portfolio the caller can see, as the JSON bytes of the answer (kept per project version). */
  async assetList(caller: AuthUser, ref: PortfolioRef): Promise<Buffer> {
    requireRef(ref);
    const { project } = await this.policy.byIdOrName(caller, ref.project_id, ref.portfolio_name, 'physical', 'portfolio_name');
    // Every change of a project's assets (create, overwrite, edit, delete) raises its version in the same transaction,
    // so the list is kept, as sent, per project, version and name.
    const key = `${project.id}:${project.version}:${project.name}`;
    let body = this.assetLists.get(key);
    if (!body) {
      const assets = await this.repo.assets(project.id);
      const answer: z.input<typeof PortfolioAssetsResponse> = {
        project_id: project.id,
        portfolio_name: project.name,
        version: project.version,
        assets: assets.map(({ project_id: _p, created_at, updated_at, ...a }) => ({ ...a, created_at: iso(created_at), updated_at: iso(updated_at) })),
      };
      body = Buffer.from(JSON.stringify(answer), 'utf8');
      this.assetLists.set(key, body, body.byteLength);
    }
    return body;
  }

  /** Deletes assets of a portfolio (owner or write access), raises its version and queues its analysis, in one transaction. */
  async deleteAssets(caller: AuthUser, ref: PortfolioRef, assetIds: number[]): Promise<{ deleted: number; jobId: number }> {
    requireRef(ref);
    const { project, role } = await this.policy.byIdOrName(caller, ref.project_id, ref.portfolio_name, 'physical', 'portfolio_name');
    assertCan(role, 'editAssets', project.name);
    return this.db.transaction().execute(async (tx) => {
      const existing = await this.repo.assetIds(project.id, tx);
      const mine = new Set(existing.map((a) => a.id));
      const foreign = assetIds.filter((id) => !mine.has(id));
      if (foreign.length)
        throw new AppError(400, `asset_ids: ${foreign.slice(0, 10).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not an asset of '${project.name}'.`, [
          { field: 'asset_ids', message: 'unknown asset' },
        ]);
      if (assetIds.length >= existing.length)
        throw new AppError(400, `asset_ids: a portfolio keeps at least one asset; delete the project instead.`, [
          { field: 'asset_ids', message: 'would empty the portfolio' },
        ]);
      const deleted = await this.repo.deleteAssets(project.id, assetIds, tx);
      const version = await this.repo.bumpVersion(project.id, 'Re-analysing after deleting assets', tx);
      const jobId = await this.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: project.id, version }, tx);
      return { deleted, jobId };
    });
  }
}
