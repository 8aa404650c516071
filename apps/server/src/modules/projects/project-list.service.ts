import type { DefaultFilters, PhysicalProject, ProjectStatus, SharePermission } from '@crp/contracts';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { Lru } from '../../lib/lru.js';
import { iso } from '../accounts/user.presenter.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { moneyAllowed } from '../accounts/tier.service.js';
import { roleOf, type ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { ProjectListRepository } from './project-list.repository.js';

export const SYSTEM_DEFAULT_FILTERS: DefaultFilters = { analysis_type: 'ssp', scenario: '45', year: 2050 };

/** The project list, renaming, deleting, default filters and sharing (spec 000 §7 "Projects"). */
export class ProjectListService {
  /**
   * Asset counts by project id and version: every change of a project's assets raises its version in the same
   * transaction, so a count is valid as long as the version. Counting a million assets takes 100-250 ms, and the
   * project list and the status poll (every 1.5 s while a portfolio is analysed) ask it again and again (issue 22).
   */
  private readonly counts = new Lru<number>(10_000);

  constructor(
    private readonly db: DB,
    private readonly repo: ProjectListRepository,
    private readonly users: UsersRepository,
    private readonly policy: ProjectAccessPolicy,
  ) {}

  /** The `{userId}` of a path must be the caller: other users' lists are not reachable by id. */
  assertSelf(caller: AuthUser, userId: number) {
    if (userId !== caller.id) throw notFound(`userId: ${userId} is not your user id.`);
  }

  /** Physical projects the caller owns or that were shared with them, newest first. */
  async list(caller: AuthUser) {
    const rows = await this.repo.physicalProjects(caller);
    const counts = await this.assetCounts(rows);
    const shares = await this.repo.sharesOf(rows.map((r) => r.id));
    const me = await this.users.userById(caller.id);
    /** Filters the caller saved for themselves ("Save as default" on the dashboard), if any. */
    const savedByUser = (me?.default_filters as DefaultFilters | null) ?? null;
    const userDefaults = savedByUser ?? SYSTEM_DEFAULT_FILTERS;
    // The card's maximum exposure and RCVaR are money figures: a tier without portfolio losses (Free) gets null, as on the dashboard.
    const money = moneyAllowed(await this.users.companyById(caller.companyId));
    const data: PhysicalProject[] = rows.map((r) => {
      const permission = roleOf(caller, r.owner_id, r.share_permission);
      const summary = r.summary;
      return {
        project_id: r.id,
        name: r.name,
        date: iso(r.created_at).slice(0, 10),
        created_at: iso(r.created_at),
        status: r.status,
        progress: r.progress,
        message: r.status_message,
        overall: summary?.overall ?? null,
        value: summary && money ? summary.max_exposure : null,
        loss: summary && money ? summary.rcvar : null,
        total_value: summary ? summary.total_value : null,
        assets: counts.get(r.id) ?? 0,
        variables: r.portfolio_variables as string[],
        property_type: summary?.property_types ?? [],
        default_filters: (r.default_filters as DefaultFilters | null) ?? userDefaults,
        dashboard_filters: savedByUser ?? (r.default_filters as DefaultFilters | null) ?? userDefaults,
        company_portfolio: r.source === 'company' || r.source === 'index',
        owner: { id: r.owner_id, username: r.owner_username },
        permission,
        shared_with:
          permission === 'owner'
            ? shares.filter((s) => s.project_id === r.id).map((s) => ({ user_id: s.user_id, username: s.username, permission: s.permission }))
            : [],
      };
    });
    const members = await this.repo.colleagues(caller);
    return { username: caller.username, count: data.length, data, members };
  }

  /** Asset counts of the projects, counted in SQL only for the project versions not counted before. */
  private async assetCounts(projects: readonly { id: number; version: number }[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const missing: { id: number; version: number }[] = [];
    for (const p of projects) {
      const n = this.counts.get(`${p.id}:${p.version}`);
      if (n === undefined) missing.push(p);
      else out.set(p.id, n);
    }
    const counted = await this.repo.assetCounts(missing.map((p) => p.id));
    for (const p of missing) {
      const n = counted.get(p.id) ?? 0;
      this.counts.set(`${p.id}:${p.version}`, n);
      out.set(p.id, n);
    }
    return out;
  }

  /** Names of the caller's projects of one module (spec: all_projects?list_for=physical_risk|map_module). */
  async names(caller: AuthUser, listFor: 'physical_risk' | 'map_module') {
    const kind = listFor === 'physical_risk' ? 'physical' : 'map';
    const rows = await this.repo.names(caller, kind);
    return rows.map((r) => ({ project_id: r.id, name: r.name, created_at: iso(r.created_at) }));
  }

  /** A project's analysis status and asset count (any role). */
  async status(caller: AuthUser, projectId: number): Promise<ProjectStatus> {
    const { project } = await this.policy.access(caller, projectId);
    const assets = (await this.assetCounts([project])).get(project.id) ?? 0;
    return { project_id: project.id, name: project.name, status: project.status, progress: project.progress, message: project.status_message, assets };
  }

  async rename(caller: AuthUser, oldName: string, newName: string) {
    const { project } = await this.policy.requireByName(caller, oldName, 'rename', 'physical', 'name');
    if (newName.toLowerCase() !== project.name_lower) {
      if (await this.repo.ownerHasName(project.owner_id, project.kind, newName)) {
        const msg = `A project named '${newName}' already exists. Choose another name.`;
        throw new AppError(400, msg, [{ field: 'name', message: msg }], { Error: msg });
      }
    }
    await this.repo.rename(project.id, newName);
    await this.users.audit({
      company_id: caller.companyId,
      user_id: caller.id,
      action: 'project.renamed',
      detail: { project_id: project.id, from: project.name, to: newName },
    });
    return { project_id: project.id, name: newName };
  }

  async delete(caller: AuthUser, name: string, client: string) {
    const { project } = await this.policy.requireByName(caller, name, 'delete', 'physical', 'name');
    await this.db.transaction().execute(async (tx) => {
      await this.repo.deleteProject(project.id, tx);
      await this.users.audit(
        { company_id: caller.companyId, user_id: caller.id, action: 'project.deleted', detail: { project_id: project.id, name: project.name }, client },
        tx,
      );
    });
  }

  /** Saves Advanced Filter defaults: for one project (write access) or for the caller. */
  async updateDefaultFilter(caller: AuthUser, filters: DefaultFilters, projectId?: number) {
    if (filters.analysis_type === 'rcp' && ![2020, 2030, 2050].includes(filters.year))
      throw badRequest('data.year: RCP analyses have the years 2020, 2030 and 2050.', 'data.year');
    if (filters.analysis_type === 'ssp' && (filters.year < 2025 || filters.year % 5 !== 0))
      throw badRequest('data.year: SSP analyses have the years 2025 to 2100, every 5 years.', 'data.year');
    if (projectId !== undefined) {
      await this.policy.require(caller, projectId, 'editAssets');
      await this.repo.setProjectFilters(projectId, filters);
    } else {
      await this.repo.setUserFilters(caller.id, filters);
    }
    return filters;
  }

  /** Shares a project with users of the same company (owner only). */
  async share(caller: AuthUser, projectId: number, shareWith: (number | string)[], permission: SharePermission, client: string) {
    const { project } = await this.policy.require(caller, projectId, 'share');
    const ids = shareWith.filter((x): x is number => typeof x === 'number');
    const names = shareWith.filter((x): x is string => typeof x === 'string').map((s) => s.toLowerCase());
    const users = await this.repo.activeUsers(caller.companyId, ids, names);
    const found = new Set([...users.map((u) => u.id), ...users.map((u) => u.username_lower)]);
    const missing = shareWith.filter((x) => !found.has(typeof x === 'number' ? x : x.toLowerCase()));
    if (missing.length)
      throw badRequest(
        `share_with: ${missing.join(', ')} ${missing.length === 1 ? 'is not an active user' : 'are not active users'} of your company.`,
        'share_with',
      );
    if (users.some((u) => u.id === project.owner_id)) throw badRequest('share_with: the owner already has full access.', 'share_with');
    await this.db.transaction().execute(async (tx) => {
      for (const u of users) {
        const notice = { title: 'Project shared with you', message: `${caller.username} shared '${project.name}' with you (${permission} access).` };
        await this.repo.share(tx, { projectId: project.id, userId: u.id, permission, sharedBy: caller.id }, notice);
      }
      await this.users.audit(
        {
          company_id: caller.companyId,
          user_id: caller.id,
          action: 'project.shared',
          detail: { project_id: project.id, users: users.map((u) => u.id), permission },
          client,
        },
        tx,
      );
    });
    return users.map((u) => ({ user_id: u.id, username: u.username, permission }));
  }

  /** Removes a user's access (owner only). */
  async unshare(caller: AuthUser, projectId: number, userId: number) {
    const { project } = await this.policy.require(caller, projectId, 'share');
    await this.repo.unshare(project.id, userId);
  }
}
