import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../infra/db/database.js';
import type { SystemRepository } from './system.repository.js';

/** What the health check reports about this process and its supervisor's restarts (scripts/supervise.mjs). */
export interface ProcessHealth {
  pid: number;
  uptime_seconds: number;
  restarts: number;
  last_restart: { reason: string; at: string | null } | null;
}

/** Liveness: the database answers a query; the process says how often it was restarted after a crash, and why. */
export class SystemService {
  constructor(
    private readonly repo: SystemRepository,
    private readonly kind: DatabaseHandle['kind'],
    private readonly supervisor: Pick<Config, 'SUPERVISOR_RESTARTS' | 'SUPERVISOR_LAST_RESTART_REASON' | 'SUPERVISOR_LAST_RESTART_AT'>,
  ) {}

  /** Runs a one-row query (throws when the database does not answer) and names the database kind. */
  async health(): Promise<{ database: DatabaseHandle['kind'] } & ProcessHealth> {
    await this.repo.ping();
    const s = this.supervisor;
    return {
      database: this.kind,
      pid: process.pid,
      uptime_seconds: Math.round(process.uptime()),
      restarts: s.SUPERVISOR_RESTARTS,
      last_restart: s.SUPERVISOR_LAST_RESTART_REASON ? { reason: s.SUPERVISOR_LAST_RESTART_REASON, at: s.SUPERVISOR_LAST_RESTART_AT ?? null } : null,
    };
  }
}
