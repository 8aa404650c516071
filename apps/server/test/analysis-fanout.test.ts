import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, storedVersionsBesidesCurrent, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * The fanned-out analysis (parts of chunks run as separate jobs, staged, swapped in by the last part) stores exactly
 * what the single-job path stores: same chunk blobs byte for byte and the same project summary, for a new project,
 * after an edit that re-runs only the changed chunks, and when a newer version supersedes a run in flight.
 * Two servers on two databases (PGlite, or PostgreSQL with TEST_DB=postgres): one always splits (2 chunks a part),
 * one never does.
 */

const ASSETS = 2_600; // 6 chunks, the last one of 100 assets
const HAZARDS = ['River Flood', 'Typhoon', 'Storm Surge', 'Extreme Heat'];

function portfolio(n: number, seed = 0) {
  return Array.from({ length: n }, (_, i) => ({
    name: `Site ${seed}-${i + 1}`,
    latitude: -40 + ((i * 37 + seed) % 800) / 10,
    longitude: -170 + ((i * 7919 + seed * 13) % 3400) / 10,
    valuation: 1e6 + (i % 97) * 1e4,
    revenue: 1e5 + (i % 13) * 1e3,
    property_type: ['Office', 'Retail', 'Industrial'][i % 3],
  }));
}

async function stored(s: TestServer, projectId: number) {
  const chunks = await s.db
    .selectFrom('analysis_results')
    .select(['chunk_start', 'chunk_count', 'data', 'worker_id', 'part'])
    .where('project_id', '=', projectId)
    .orderBy('chunk_start')
    .execute();
  const project = await s.db.selectFrom('projects').select(['status', 'summary', 'version']).where('id', '=', projectId).executeTakeFirstOrThrow();
  return { chunks, project };
}

function assertSameResults(a: Awaited<ReturnType<typeof stored>>, b: Awaited<ReturnType<typeof stored>>, total: number) {
  assert.equal(a.project.status, 'done');
  assert.equal(b.project.status, 'done');
  assert.deepEqual(
    a.chunks.map((c) => [c.chunk_start, c.chunk_count]),
    b.chunks.map((c) => [c.chunk_start, c.chunk_count]),
  );
  let next = 0;
  for (const c of a.chunks) {
    assert.equal(c.chunk_start, next, 'contiguous, each asset once');
    next += c.chunk_count;
  }
  assert.equal(next, total);
  a.chunks.forEach((c, i) => assert.ok(Buffer.from(c.data).equals(Buffer.from(b.chunks[i]!.data)), `chunk ${c.chunk_start}: same stored bytes`));
  assert.deepEqual(a.project.summary, b.project.summary, 'same project summary');
}

// Fan-out is what workers sharing a PostgreSQL queue do (ANALYSIS_FAN_OUT=auto splits only with DATABASE_URL); the
// part jobs' SQL is the same on both databases, so the PGlite run (slow for the staged copies) is left to PostgreSQL.
const onPostgres = process.env.TEST_DB === 'postgres';

describe(
  'fanned-out analysis stores what the single job stores',
  { timeout: 300_000, skip: onPostgres ? false : 'runs with TEST_DB=postgres, where analyses fan out by default' },
  () => {
    let fan: TestServer;
    let single: TestServer;
    let fanUser: Awaited<ReturnType<typeof registerAndLogin>>;
    let singleUser: Awaited<ReturnType<typeof registerAndLogin>>;
    let fanId: number;
    let singleId: number;

    before(async () => {
      fan = await startServer({ ANALYSIS_FAN_OUT: 'always', ANALYSIS_PART_CHUNKS: 2 }, { jobs: true });
      single = await startServer({ ANALYSIS_FAN_OUT: 'never' }, { jobs: true });
      fanUser = await registerAndLogin(fan.api);
      singleUser = await registerAndLogin(single.api);
      for (const s of [fan, single]) await s.db.updateTable('companies').set({ assets_allowed: 10_000 }).execute();
    });
    after(async () => {
      await fan?.close();
      await single?.close();
    });

    test('a new medium project: parts on the fan-out server, one job on the other, identical stored results', async () => {
      const data = portfolio(ASSETS);
      const body = { portfolio_name: 'Medium', data, portfolio_variables: HAZARDS };
      // One after the other: both servers share this process, and the in-process parts keep its event loop busy.
      const a = await fan.api.post('/api/v2/create_project/', { token: fanUser.token, json: body });
      assert.equal(a.status, 201, JSON.stringify(a.body).slice(0, 300));
      fanId = a.body.project.project_id;
      const sa = await waitForAnalysis(fan, fanUser.token, fanId, 300_000);
      const b = await single.api.post('/api/v2/create_project/', { token: singleUser.token, json: body });
      assert.equal(b.status, 201, JSON.stringify(b.body).slice(0, 300));
      singleId = b.body.project.project_id;
      const sb = await waitForAnalysis(single, singleUser.token, singleId, 300_000);
      assert.equal(sa.status, 'done', JSON.stringify(sa));
      assert.equal(sb.status, 'done', JSON.stringify(sb));
      assert.equal(sa.progress, 1);

      const ra = await stored(fan, fanId);
      const rb = await stored(single, singleId);
      assertSameResults(ra, rb, ASSETS);
      // The split: 6 chunks in parts of 2 -> 3 parts, each done once, covering the chunks without overlap.
      const parts = await fan.db.selectFrom('analysis_parts').selectAll().where('project_id', '=', fanId).orderBy('part').execute();
      assert.deepEqual(
        parts.map((p) => [p.part, p.chunk_from, p.chunk_to, p.status, p.attempt]),
        [
          [0, 0, 1000, 'done', 1],
          [1, 1000, 2000, 'done', 1],
          [2, 2000, 2600, 'done', 1],
        ],
      );
      assert.deepEqual(
        ra.chunks.map((c) => c.part),
        [0, 0, 1, 1, 2, 2],
      );
      assert.ok(ra.chunks.every((c) => c.worker_id === fan.app.services.jobs.workerId));
      assert.ok(rb.chunks.every((c) => c.part === null && c.worker_id === single.app.services.jobs.workerId));
      assert.deepEqual(await storedVersionsBesidesCurrent(fan.db, fanId), [], 'every stored chunk belongs to the current run');
    });

    test('an edit re-runs only the changed chunks (in parts) and still equals the single path', async () => {
      const before = await stored(fan, fanId);
      const edit = async (s: TestServer, token: string, projectId: number) => {
        const ids = (await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).orderBy('position').execute()).map((r) => r.id);
        // Assets in chunks 0, 2 and 5: three chunks to recompute, more than the 2 of a part.
        const res = await s.api.post('/api/v2/update_assets/', {
          token,
          json: {
            project_id: projectId,
            assets: [
              { id: ids[10], valuation: 5e6 },
              { id: ids[1200], valuation: 7e6, floors: 4 },
              { id: ids[2550], mitigation_risk: 2 },
            ],
          },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal((await waitForAnalysis(s, token, projectId, 300_000)).status, 'done');
      };
      await edit(fan, fanUser.token, fanId);
      await edit(single, singleUser.token, singleId);
      const ra = await stored(fan, fanId);
      const rb = await stored(single, singleId);
      assertSameResults(ra, rb, ASSETS);
      const run = await fan.db.selectFrom('analysis_runs').selectAll().where('project_id', '=', fanId).execute();
      assert.equal(run.length, 1, 'older runs dropped');
      assert.equal(run[0]!.version, 2);
      assert.equal(run[0]!.reused_assets, 1500, 'chunks 1, 3 and 4 kept');
      const parts = await fan.db.selectFrom('analysis_parts').selectAll().where('project_id', '=', fanId).where('version', '=', 2).orderBy('part').execute();
      assert.deepEqual(
        parts.map((p) => [p.chunk_from, p.chunk_to, p.chunks, p.status]),
        [
          [0, 1500, 2, 'done'],
          [2500, 2600, 1, 'done'],
        ],
        'only chunks 0, 2 and 5 recomputed',
      );
      for (const [i, c] of ra.chunks.entries()) {
        if ([0, 1000, 2500].includes(c.chunk_start)) continue;
        assert.ok(Buffer.from(c.data).equals(Buffer.from(before.chunks[i]!.data)), `chunk ${c.chunk_start} kept as stored`);
        assert.equal(c.part, before.chunks[i]!.part, 'kept with the part that computed it');
      }
    });

    test('a newer version supersedes the parts of a run in flight: only the newer assets are stored', async () => {
      const first = portfolio(ASSETS, 1);
      const second = portfolio(2_100, 2);
      const a = await fan.api.post('/api/v2/create_project/', {
        token: fanUser.token,
        json: { portfolio_name: 'Superseded', data: first, portfolio_variables: HAZARDS },
      });
      assert.equal(a.status, 201);
      const id = a.body.project.project_id as number;
      // Overwrite once the first run is planned (its parts queued or running).
      for (let i = 0; ; i++) {
        const run = await fan.db.selectFrom('analysis_runs').select('version').where('project_id', '=', id).executeTakeFirst();
        if (run) break;
        assert.ok(i < 400, 'the first run was never planned');
        await new Promise((r) => setTimeout(r, 25));
      }
      const o = await fan.api.post('/api/v2/create_project/', {
        token: fanUser.token,
        json: { portfolio_name: 'Superseded', mode: 'overwrite', data: second },
      });
      assert.equal(o.status, 201, JSON.stringify(o.body).slice(0, 300));
      assert.equal((await waitForAnalysis(fan, fanUser.token, id, 300_000)).status, 'done');
      const b = await single.api.post('/api/v2/create_project/', {
        token: singleUser.token,
        json: { portfolio_name: 'Superseded', data: second, portfolio_variables: HAZARDS },
      });
      assert.equal((await waitForAnalysis(single, singleUser.token, b.body.project.project_id, 300_000)).status, 'done');
      const ra = await stored(fan, id);
      assert.equal(ra.project.version, 2);
      assertSameResults(ra, await stored(single, b.body.project.project_id), 2_100);
      const runs = await fan.db.selectFrom('analysis_runs').select(['version', 'finished_at']).where('project_id', '=', id).execute();
      assert.deepEqual(
        runs.map((r) => r.version),
        [2],
        'the superseded run and its staged chunks are gone',
      );
    });
  },
);
