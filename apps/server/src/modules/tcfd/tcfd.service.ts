import { TCFD_NOTE_KEYS, type TcfdNarrative, type TcfdNarrativeBody } from '@crp/contracts';
import type { TcfdNarrativeSet, TcfdRepository } from './tcfd.repository.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { badRequest } from '../../lib/errors.js';
import { assertCan, type ProjectAccessPolicy } from '../access/project-access.policy.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/**
 * The organisation's text of a portfolio's TCFD report (issue 23 item 6): read by anyone with access to the project,
 * written by its owner and users with write access. One row per physical project (migration 0019), made on the first
 * write; until then the answer is empty text.
 */
export class TcfdService {
  constructor(
    private readonly repo: TcfdRepository,
    private readonly policy: ProjectAccessPolicy,
  ) {}

  private async physical(caller: AuthUser, projectId: number) {
    const access = await this.policy.access(caller, projectId);
    if (access.project.kind !== 'physical')
      throw badRequest(`projectId: '${access.project.name}' is not a physical-risk portfolio; TCFD reports are made for those.`, 'projectId');
    return access;
  }

  async get(caller: AuthUser, projectId: number): Promise<TcfdNarrative> {
    const { project, role } = await this.physical(caller, projectId);
    assertCan(role, 'view', project.name);
    return this.read(projectId);
  }

  async update(caller: AuthUser, projectId: number, body: TcfdNarrativeBody): Promise<TcfdNarrative> {
    const { project, role } = await this.physical(caller, projectId);
    assertCan(role, 'editReport', project.name);
    const set: TcfdNarrativeSet = { updated_by: caller.id, updated_at: new Date() };
    for (const k of TCFD_NOTE_KEYS) if (body[k] !== undefined) set[k] = body[k];
    if (body.carbon_analysis !== undefined) set.carbon_analysis = body.carbon_analysis || null;
    await this.repo.upsert(projectId, set);
    return this.read(projectId);
  }

  private async read(projectId: number): Promise<TcfdNarrative> {
    const row = await this.repo.narrative(projectId);
    if (!row)
      return {
        project_id: projectId,
        governance_board: '',
        governance_management: '',
        risk_integration: '',
        targets: '',
        carbon_analysis: null,
        updated_at: null,
        updated_by: null,
      };
    return {
      project_id: projectId,
      governance_board: row.governance_board,
      governance_management: row.governance_management,
      risk_integration: row.risk_integration,
      targets: row.targets,
      carbon_analysis: row.carbon_analysis,
      updated_at: iso(row.updated_at),
      updated_by: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    };
  }
}
