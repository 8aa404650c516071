import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { ProjectAccessRepository } from './project-access.repository.js';

/**
 * Who may do what to a project, in one place (issue 6 §3, issue 24). A project is visible to its owner and to the
 * users it was shared with (read or write), all of the same company; anything else, another company's project
 * included, is a 404, indistinguishable from a missing id. Company administrators have no extra rights over other
 * users' projects: their rights are the company's (members, activity log, link lifetime, own hazard layers), checked
 * with `assertCompanyAdmin`.
 */
export type { ProjectRole } from '@crp/contracts';
import type { ProjectRole } from '@crp/contracts';

/** What each role may do to a project (issue 6 §3). */
export const ROLE_CAN = {
  view: ['owner', 'write', 'read'],
  download: ['owner', 'write', 'read'],
  editAssets: ['owner', 'write'],
  rename: ['owner', 'write'],
  /** The organisation's text of the TCFD report (issue 23). */
  editReport: ['owner', 'write'],
  delete: ['owner'],
  share: ['owner'],
} as const satisfies Record<string, readonly ProjectRole[]>;
export type ProjectAction = keyof typeof ROLE_CAN;

export interface ProjectAccess {
  project: ProjectRow;
  role: ProjectRole;
}

/** 403 unless `role` may do `action` (the message names the role, the project and who may). */
export function assertCan(role: ProjectRole, action: ProjectAction, projectName: string) {
  if (!(ROLE_CAN[action] as readonly string[]).includes(role)) {
    const verb = {
      view: 'view',
      download: 'download',
      editAssets: 'edit the assets of',
      rename: 'rename',
      editReport: 'edit the report text of',
      delete: 'delete',
      share: 'share',
    }[action];
    throw forbidden(`You have ${role} access to '${projectName}': only ${ROLE_CAN[action].join(' or ')} can ${verb} it.`);
  }
}

/** The caller's role on a row of the visible-projects query: owner, else the share's permission. */
export function roleOf(caller: Pick<AuthUser, 'id'>, ownerId: number, sharePermission: 'read' | 'write' | null): ProjectRole {
  return ownerId === caller.id ? 'owner' : (sharePermission ?? 'read');
}

/** 403 with `message` unless the caller administers their company. */
export function assertCompanyAdmin(caller: AuthUser, message: string) {
  if (!caller.isCompanyAdmin) throw forbidden(message);
}

/** The project-scoped checks every service uses: find a project the caller may see, then check the action. */
export class ProjectAccessPolicy {
  constructor(private readonly repo: ProjectAccessRepository) {}

  /**
   * The caller's role on a project, or 404 when the project does not exist or is not visible to the caller
   * (another company's ids are indistinguishable from missing ones).
   */
  async access(caller: AuthUser, projectId: number): Promise<ProjectAccess> {
    const project = await this.repo.project(projectId);
    if (!project || project.company_id !== caller.companyId) throw notFound(`project_id: no project ${projectId}.`);
    if (project.owner_id === caller.id) return { project, role: 'owner' };
    const share = await this.repo.share(projectId, caller.id);
    if (!share) throw notFound(`project_id: no project ${projectId}.`);
    return { project, role: share.permission };
  }

  /** A project of `kind` by name among those the caller owns or that were shared with them (own first), with the role. */
  async findVisibleByName(caller: AuthUser, name: string, kind: ProjectRow['kind'] = 'physical', field = 'project_name'): Promise<ProjectAccess> {
    const id = await this.repo.visibleIdByName(caller, name, kind);
    if (id === undefined) throw notFound(`${field}: no project named '${name}'.`);
    return this.access(caller, id);
  }

  /** `access`, then 403 unless the caller's role allows `action`. */
  async require(caller: AuthUser, projectId: number, action: ProjectAction): Promise<ProjectAccess> {
    const found = await this.access(caller, projectId);
    assertCan(found.role, action, found.project.name);
    return found;
  }

  /** `findVisibleByName`, then 403 unless the caller's role allows `action`. */
  async requireByName(
    caller: AuthUser,
    name: string,
    action: ProjectAction,
    kind: ProjectRow['kind'] = 'physical',
    field = 'project_name',
  ): Promise<ProjectAccess> {
    const found = await this.findVisibleByName(caller, name, kind, field);
    assertCan(found.role, action, found.project.name);
    return found;
  }

  /** A project by id or, without one, by name (the spec's older calls accept either). */
  byIdOrName(
    caller: AuthUser,
    projectId: number | undefined,
    name: string | undefined,
    kind: ProjectRow['kind'] = 'physical',
    field = 'project_name',
  ): Promise<ProjectAccess> {
    return projectId !== undefined ? this.access(caller, projectId) : this.findVisibleByName(caller, name!, kind, field);
  }

  /** The named asset in a visible project named `projectName` (any kind), if any; check the action on its project_id. */
  visibleAssetByName(caller: AuthUser, projectName: string, assetName: string) {
    return this.repo.visibleAssetByName(caller, projectName, assetName);
  }

  /** An asset of a project the caller may read (404 for the project as `access`); undefined when not in that project. */
  async readableAsset(caller: AuthUser, projectId: number, assetId: number) {
    await this.access(caller, projectId);
    return this.repo.asset(projectId, assetId);
  }
}
