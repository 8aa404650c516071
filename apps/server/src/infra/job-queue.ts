import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from './db/database.js';
import type { JobRow } from './db/schema.js';

/** A job handler: does the work, reports progress (0-1), throws to fail the attempt. */
export interface JobDefinition<P extends Record<string, unknown> = Record<string, unknown>> {
  type: string;
  /** Attempts before the job is marked failed. */
  maxAttempts: number;
  /** Seconds to wait before the next attempt (multiplied by the attempt number). */
  retryDelaySeconds: number;
  run(payload: P, ctx: JobContext): Promise<void>;
  /** Called once when the last attempt failed, to leave the domain record in a clear state. */
  onFailed?(payload: P, error: string): Promise<void>;
}

export interface JobContext {
  jobId: number;
  attempt: number;
  /** The worker running this attempt (host:pid:random). */
  workerId: string;
  progress(fraction: number, message?: string): Promise<void>;
}

const HEARTBEAT_MS = 10_000;

/**
 * A PostgreSQL-backed job queue on the `jobs` table: workers claim jobs with SELECT ... FOR UPDATE SKIP LOCKED,
 * so any number of worker processes (on any machine) share the work and each job runs once at a time.
 * The same code runs inside `npm start` on PGlite and in `npm run worker` processes on PostgreSQL.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobDefinition>();
  private running = false;
  private active = 0;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  readonly workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private readonly db: DB,
    private readonly log: FastifyBaseLogger,
    private readonly options: {
      concurrency: number;
      pollMs: number;
      /** A running job whose worker sent no heartbeat for this long is considered dead and retried (default 60 s). */
      staleAfterMs?: number;
      /** This process is the only worker (embedded database): every job still running at start-up is dead. */
      soleWorker?: boolean;
    },
  ) {}

  private get staleAfterMs(): number {
    return this.options.staleAfterMs ?? 60_000;
  }

  /** Heartbeats come at least four times per stale period. */
  private get heartbeatMs(): number {
    return Math.min(HEARTBEAT_MS, this.staleAfterMs / 4);
  }

  register(def: JobDefinition) {
    this.handlers.set(def.type, def);
  }

  async enqueue(type: string, payload: Record<string, unknown>, db: DB = this.db, maxAttempts?: number): Promise<number> {
    const def = this.handlers.get(type);
    const row = await db
      .insertInto('jobs')
      .values({
        type,
        payload: JSON.stringify(payload),
        status: 'queued',
        attempts: 0,
        max_attempts: maxAttempts ?? def?.maxAttempts ?? 3,
        progress: 0,
        run_after: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.wake?.();
    return row.id;
  }

  /** Starts claiming jobs in this process. */
  start() {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop() {
    this.running = false;
    this.wake?.();
    await this.loop;
    while (this.active > 0) await new Promise((r) => setTimeout(r, 50));
  }

  /**
   * Re-queues running jobs whose worker stopped sending heartbeats (a crash or SIGKILL); with `all`, every running
   * job (used at start-up by the sole worker of an embedded database, where no other worker can be alive).
   */
  async recoverStale(all = false): Promise<number> {
    let q = this.db
      .updateTable('jobs')
      .set({ status: 'queued', locked_by: null, message: 'Restarted after the worker stopped' })
      .where('status', '=', 'running');
    if (!all) q = q.where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', new Date(Date.now() - this.staleAfterMs))]));
    const res = await q.executeTakeFirst();
    const n = Number(res.numUpdatedRows);
    if (n > 0) this.log.warn({ jobs: n }, 're-queued jobs whose worker stopped');
    return n;
  }

  private async run() {
    let lastRecovery = 0;
    if (this.options.soleWorker) {
      await this.recoverStale(true).catch((err) => this.log.error({ err }, 'start-up job recovery failed'));
      lastRecovery = Date.now();
    }
    while (this.running) {
      if (Date.now() - lastRecovery > this.staleAfterMs / 2) {
        lastRecovery = Date.now();
        await this.recoverStale().catch((err) => this.log.error({ err }, 'stale job recovery failed'));
      }
      let claimed: JobRow | undefined;
      if (this.active < this.options.concurrency) {
        claimed = await this.claim().catch((err) => {
          this.log.error({ err }, 'job claim failed');
          return undefined;
        });
      }
      if (claimed) {
        this.active += 1;
        void this.execute(claimed).finally(() => {
          this.active -= 1;
          this.wake?.();
        });
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private async claim(): Promise<JobRow | undefined> {
    const types = [...this.handlers.keys()];
    if (types.length === 0) return undefined;
    const res = await sql<JobRow>`
      update jobs set status = 'running', locked_by = ${this.workerId}, attempts = attempts + 1,
        started_at = now(), heartbeat_at = now()
      where id = (
        select id from jobs
        where status = 'queued' and run_after <= now() and type = any(${sql.val(types)}::text[])
        order by id
        for update skip locked
        limit 1
      )
      returning *`.execute(this.db);
    return res.rows[0];
  }

  private async execute(job: JobRow) {
    const def = this.handlers.get(job.type)!;
    const payload = job.payload as Record<string, unknown>;
    const heartbeat = setInterval(() => {
      void this.db
        .updateTable('jobs')
        .set({ heartbeat_at: new Date() })
        .where('id', '=', job.id)
        .where('locked_by', '=', this.workerId)
        .execute()
        .catch(() => undefined);
    }, this.heartbeatMs);
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      workerId: this.workerId,
      progress: async (fraction, message) => {
        await this.db
          .updateTable('jobs')
          .set({ progress: Math.max(0, Math.min(1, fraction)), message: message ?? null, heartbeat_at: new Date() })
          .where('id', '=', job.id)
          .execute();
      },
    };
    try {
      await def.run(payload, ctx);
      await this.db
        .updateTable('jobs')
        .set({ status: 'done', progress: 1, finished_at: new Date(), locked_by: null, error: null })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const last = job.attempts >= job.max_attempts;
      this.log.error({ err, jobId: job.id, type: job.type, attempt: job.attempts, last }, 'job attempt failed');
      await this.db
        .updateTable('jobs')
        .set(
          last
            ? { status: 'failed', error: message, finished_at: new Date(), locked_by: null }
            : { status: 'queued', error: message, locked_by: null, run_after: new Date(Date.now() + def.retryDelaySeconds * 1000 * job.attempts) },
        )
        .where('id', '=', job.id)
        .execute();
      if (last) await def.onFailed?.(payload, message).catch((e) => this.log.error({ err: e }, 'onFailed handler failed'));
    } finally {
      clearInterval(heartbeat);
    }
  }
}
