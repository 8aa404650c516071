import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/infra/db/database.js';
import { client, createTestDatabase, storedVersionsBesidesCurrent, type Api } from './support/harness.js';
import { spawnServer, spawnWorker, stopProc, type Proc } from './support/processes.js';

/**
 * Scale-out (issue 13 item 4): with DATABASE_URL the API server leaves jobs to `npm run worker` processes
 * (RUN_JOBS_IN_PROCESS=false); a large analysis is split into parts that both workers claim. Checks, reading the
 * database: both workers analysed parts, every asset is stored exactly once, the results equal a one-worker run
 * byte for byte, and after one worker is killed with SIGKILL in the middle the other takes over its part once the
 * heartbeat is older than JOB_STALE_AFTER_MS, still every asset once. Prints the times (docs/reliability.md).
 * Needs real processes sharing one database: PostgreSQL only (TEST_DB=postgres).
 */

const DEMO = { username: 'demo', password: 'ClimateDemo!2026', company_code: 'DEMO0-HK001' };
const ASSETS = Number(process.env.SCALEOUT_ASSETS ?? 10_000);
const PART_CHUNKS = 2; // 1,000 assets a part: 10 parts for 10,000 assets
const onPostgres = process.env.TEST_DB === 'postgres';

function portfolio(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    name: `Site ${i + 1}`,
    latitude: 22.2 + ((i * 7919) % 1000) / 2500,
    longitude: 113.9 + ((i * 104729) % 1000) / 1600,
    valuation: 1e6 + (i % 97) * 1e4,
    country_code: 'HK',
  }));
}

describe(
  'scale-out: two workers share one large analysis',
  {
    timeout: 900_000,
    skip: onPostgres ? false : 'needs TEST_DB=postgres: worker processes share the job queue through a PostgreSQL server (PGlite belongs to one process)',
  },
  () => {
    let env: Record<string, string>;
    let dropDb: (() => Promise<void>) | null = null;
    let db: DatabaseHandle;
    let server: Proc;
    let api: Api;
    let token: string;
    const workers: Proc[] = [];
    const data = portfolio(ASSETS);
    const times: Record<string, unknown> = {};

    before(async () => {
      const t = await createTestDatabase();
      dropDb = t.drop;
      env = { DATABASE_URL: t.overrides.DATABASE_URL!, JOB_STALE_AFTER_MS: '5000', ANALYSIS_PART_CHUNKS: String(PART_CHUNKS), ANALYSIS_FAN_OUT: 'auto' };
      server = await spawnServer({ ...env, RUN_JOBS_IN_PROCESS: 'false' });
      api = client(server.url);
      token = (await api.post('/api/user/rest_login/', { form: DEMO })).body.token as string;
      assert.ok(token, 'demo login');
      db = await openDatabase(loadConfig({}, { LOG_LEVEL: 'silent', SEED_DEMO: false, DATABASE_URL: env.DATABASE_URL! }));
    });
    after(async () => {
      for (const w of workers) await stopProc(w, 'SIGKILL');
      if (server) await stopProc(server, 'SIGTERM');
      await db?.close();
      await dropDb?.();
      if (Object.keys(times).length)
        console.log(
          `[scaleout] ${ASSETS} assets, ${PART_CHUNKS * 500} a part, load average ${loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')}: ${JSON.stringify(times)}`,
        );
    });

    /** Creates the portfolio and waits until its analysis is done; answers the project id and the seconds taken. */
    async function analyse(name: string, during?: (projectId: number) => Promise<void>) {
      const t0 = performance.now();
      const created = await api.post('/api/v2/create_project/', {
        token,
        json: { portfolio_name: name, data, portfolio_variables: ['River Flood', 'Typhoon', 'Storm Surge'] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body).slice(0, 300));
      const projectId = created.body.project.project_id as number;
      const progress: number[] = [];
      const watching = (async () => {
        for (let i = 0; ; i++) {
          const st = await api.get(`/api/v2/projects/${projectId}/status/`, { token });
          progress.push(st.body.progress);
          if (st.body.status === 'done' || st.body.status === 'failed') return st.body as { status: string; message: string };
          assert.ok(
            performance.now() - t0 < 600_000,
            `analysis not finished: ${JSON.stringify(st.body)}\n${workers.map((w) => w.output().slice(-3000)).join('\n---\n')}`,
          );
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      await during?.(projectId);
      const final = await watching;
      const seconds = (performance.now() - t0) / 1000;
      assert.equal(final.status, 'done', JSON.stringify(final));
      const run = await db.db.selectFrom('analysis_runs').select(['created_at', 'finished_at']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
      const parts = await db.db.selectFrom('analysis_parts').select(['worker_id', 'compute_ms']).where('project_id', '=', projectId).execute();
      const computeMs: Record<string, number> = {};
      for (const p of parts) computeMs[`pid ${p.worker_id!.split(':')[1]}`] = (computeMs[`pid ${p.worker_id!.split(':')[1]}`] ?? 0) + p.compute_ms!;
      times[name] = {
        seconds: Math.round(seconds * 10) / 10,
        plannedToStoredSeconds: Math.round((run.finished_at!.getTime() - run.created_at.getTime()) / 100) / 10,
        partComputeSecondsByWorker: Object.fromEntries(Object.entries(computeMs).map(([k, v]) => [k, Math.round(v / 100) / 10])),
      };
      assert.ok(
        progress.some((p) => p > 0 && p < 1),
        'progress over the parts was reported on the project',
      );
      return { projectId, seconds };
    }

    async function storedOf(projectId: number) {
      return db.db
        .selectFrom('analysis_results')
        .select(['chunk_start', 'chunk_count', 'data', 'worker_id', 'part'])
        .where('project_id', '=', projectId)
        .orderBy('chunk_start')
        .execute();
    }

    /** Every asset exactly once: chunks contiguous from 0, none repeated, covering all the assets; parts done once each. */
    async function assertEachAssetOnce(projectId: number) {
      const chunks = await storedOf(projectId);
      let next = 0;
      for (const c of chunks) {
        assert.equal(c.chunk_start, next, 'chunks contiguous, none repeated');
        next += c.chunk_count;
      }
      assert.equal(next, ASSETS, 'every asset analysed exactly once');
      const parts = await db.db.selectFrom('analysis_parts').selectAll().where('project_id', '=', projectId).orderBy('chunk_from').execute();
      assert.equal(parts.length, Math.ceil(ASSETS / 500 / PART_CHUNKS), 'the analysis was split into parts');
      let covered = 0;
      for (const p of parts) {
        assert.equal(p.status, 'done');
        assert.equal(p.chunk_from, covered, 'parts cover the chunks without overlap');
        covered = p.chunk_to;
        const mine = chunks.filter((c) => c.chunk_start >= p.chunk_from && c.chunk_start < p.chunk_to);
        assert.ok(
          mine.every((c) => c.part === p.part && c.worker_id === p.worker_id),
          `the chunks of part ${p.part} were stored from the attempt that completed it`,
        );
      }
      assert.equal(covered, ASSETS);
      assert.deepEqual(await storedVersionsBesidesCurrent(db.db, projectId), [], 'every stored chunk belongs to the current run');
      return { chunks, parts };
    }

    async function assertSameAs(projectId: number, reference: number) {
      const [a, b] = [await storedOf(projectId), await storedOf(reference)];
      assert.equal(a.length, b.length);
      a.forEach((c, i) => assert.ok(Buffer.from(c.data).equals(Buffer.from(b[i]!.data)), `chunk ${c.chunk_start} equals the one-worker run`));
      const [pa, pb] = await Promise.all(
        [projectId, reference].map((id) => db.db.selectFrom('projects').select('summary').where('id', '=', id).executeTakeFirstOrThrow()),
      );
      assert.deepEqual(pa!.summary, pb!.summary, 'same project summary');
    }

    let oneWorker = 0;

    test('one worker: the parts run one after the other (the reference run and the one-worker time)', async () => {
      workers.push(await spawnWorker(env));
      // The seeded demo portfolio is analysed first, so the timing below is the test project alone.
      for (let i = 0; ; i++) {
        const pending = await db.db.selectFrom('jobs').select('id').where('status', 'in', ['queued', 'running']).execute();
        if (pending.length === 0) break;
        assert.ok(i < 1200, 'the demo analysis did not finish');
        await new Promise((r) => setTimeout(r, 100));
      }
      const run = await analyse('Scale-out one worker');
      times.oneWorkerSeconds = Math.round(run.seconds * 10) / 10;
      oneWorker = run.projectId;
      const { parts } = await assertEachAssetOnce(oneWorker);
      assert.ok(parts.every((p) => p.worker_id === workers[0]!.workerId && p.attempt === 1));
    });

    test('two workers share one analysis: both analyse parts, every asset once, same results as one worker', async () => {
      assert.ok(oneWorker, 'the one-worker run is the reference');
      workers.push(await spawnWorker(env));
      const run = await analyse('Scale-out two workers');
      times.twoWorkersSeconds = Math.round(run.seconds * 10) / 10;
      const { parts } = await assertEachAssetOnce(run.projectId);
      const byWorker = new Map<string, number>();
      for (const p of parts) byWorker.set(p.worker_id!, (byWorker.get(p.worker_id!) ?? 0) + 1);
      times.partsPerWorker = [...byWorker.values()];
      assert.deepEqual(
        [...byWorker.keys()].sort(),
        [workers[0]!.workerId, workers[1]!.workerId].sort(),
        `both workers analysed parts: ${JSON.stringify([...byWorker])}`,
      );
      assert.ok(
        parts.every((p) => p.attempt === 1),
        'no part ran twice',
      );
      await assertSameAs(run.projectId, oneWorker);
    });

    test('a worker killed with SIGKILL midway: the other takes over its part, every asset still once', async () => {
      const [survivor, victim] = [workers[0]!, workers[1]!];
      let held: { id: number; payload: unknown }[] = [];
      const run = await analyse('Scale-out killed worker', async (projectId) => {
        // Kill the second worker while it is analysing a part, once some parts are done.
        for (let i = 0; ; i++) {
          const parts = await db.db.selectFrom('analysis_parts').select(['status', 'worker_id']).where('project_id', '=', projectId).execute();
          const done = parts.filter((p) => p.status === 'done').length;
          const victimBusy = parts.some((p) => p.status === 'running' && p.worker_id === victim.workerId);
          if (done >= 2 && victimBusy) break;
          assert.ok(i < 6000, 'the parts never started');
          assert.ok(parts.length === 0 || done < parts.length - 1, `no moment to kill the worker: ${JSON.stringify(parts)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        await stopProc(victim, 'SIGKILL');
        held = await db.db.selectFrom('jobs').select(['id', 'payload']).where('status', '=', 'running').where('locked_by', '=', victim.workerId!).execute();
      });
      times.killedWorkerSeconds = Math.round(run.seconds * 10) / 10;
      assert.equal(held.length, 1, 'the killed worker held a part');
      const { parts } = await assertEachAssetOnce(run.projectId);
      const taken = parts.find((p) => p.part === (held[0]!.payload as { part: number }).part)!;
      assert.equal(taken.worker_id, survivor.workerId, 'the surviving worker analysed the killed part');
      assert.equal(taken.attempt, 2, 'on the second attempt');
      const job = await db.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', held[0]!.id).executeTakeFirstOrThrow();
      assert.deepEqual(job, { status: 'done', attempts: 2 });
      const jobs = await db.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where(sql<boolean>`(payload->>'projectId')::int = ${run.projectId}`)
        .execute();
      assert.ok(
        jobs.every((j) => j.status === 'done' && j.attempts <= 2),
        JSON.stringify(jobs),
      );
      await assertSameAs(run.projectId, oneWorker);
    });
  },
);
