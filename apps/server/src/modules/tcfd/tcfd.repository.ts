import type { DB } from '../../infra/db/database.js';

/** The columns of a TCFD narrative a write may set (the notes, the carbon analysis text, who and when). */
export type TcfdNarrativeSet = Record<string, string | number | null | Date>;

/** SQL of the TCFD narratives: one row per physical project (migration 0019). */
export class TcfdRepository {
  constructor(private readonly db: DB) {}

  /** Inserts the project's row or updates the columns of `set`. */
  async upsert(projectId: number, set: TcfdNarrativeSet): Promise<void> {
    await this.db
      .insertInto('tcfd_narratives')
      .values({ project_id: projectId, ...set })
      .onConflict((oc) => oc.column('project_id').doUpdateSet(set))
      .execute();
  }

  /** The project's narrative with the name of whoever wrote it last, if there is one. */
  narrative(projectId: number) {
    return this.db
      .selectFrom('tcfd_narratives as t')
      .leftJoin('users as u', 'u.id', 't.updated_by')
      .select([
        't.governance_board',
        't.governance_management',
        't.risk_integration',
        't.targets',
        't.carbon_analysis',
        't.updated_at',
        'u.first_name',
        'u.last_name',
      ])
      .where('t.project_id', '=', projectId)
      .executeTakeFirst();
  }
}
