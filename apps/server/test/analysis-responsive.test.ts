import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { PassThrough } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, storedVersionsBesidesCurrent, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 22 item 1: while a large analysis runs, other users' requests keep answering. The analysis of a 6,000-asset
 * portfolio (12 chunks, above the 2,000 at which the engine's worker threads take over) is computed, compressed and
 * summarised in the worker threads (the job's log line says so), and the server's event loop, which also serves the
 * HTTP requests here, never stalls for long: another company's user asks for their account every 25 ms during the
 * whole analysis and each answer comes promptly. The bounds are generous (the machine is shared and not timed);
 * before issue 22 a 20,000-asset analysis gave the other user's requests a p95 of 1.4 s and the event loop a 38 s stall
 * on the loaded machine (docs/performance-history.md "Analysis at scale"). On PGlite the swap of the finished run still holds
 * the single database connection for a moment, hence the loose bound on the slowest answer.
 */

const ASSETS = 6_000;

function portfolio(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    name: `Site ${i + 1}`,
    latitude: -45 + ((i * 7919) % 9000) / 100,
    longitude: -170 + ((i * 104729) % 34000) / 100,
    valuation: 1e6 + (i % 97) * 1e4,
    revenue: 1e5 + (i % 13) * 1e3,
    property_type: ['Office', 'Retail', 'Warehouse'][i % 3],
  }));
}

describe('a large analysis does not hold up other users', { timeout: 600_000 }, () => {
  let s: TestServer;
  const log: Record<string, unknown>[] = [];

  before(async () => {
    const stream = new PassThrough();
    let buf = '';
    stream.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          log.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          /* not JSON */
        }
      }
    });
    s = await startServer({ LOG_LEVEL: 'info' }, { jobs: true, logStream: stream });
  });
  after(async () => {
    await s?.close();
  });

  test('another user is answered promptly during a 6,000-asset analysis; the results are encoded in worker threads', async () => {
    const owner = await registerAndLogin(s.api);
    const other = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ tier: 'enterprise', assets_allowed: 1_000_000 }).execute();
    const created = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Large book', data: portfolio(ASSETS), portfolio_variables: ['River Flood', 'Typhoon', 'Wildfire', 'Extreme Heat'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body).slice(0, 300));
    const projectId = created.body.project.project_id as number;

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const latencies: number[] = [];
    let finished = false;
    const analysis = waitForAnalysis(s, owner.token, projectId, 480_000).finally(() => {
      finished = true;
    });
    while (!finished) {
      const t = performance.now();
      const res = await s.api.get('/accounts/user/', { token: other.token });
      latencies.push(performance.now() - t);
      assert.equal(res.status, 200);
      await new Promise((r) => setTimeout(r, 25));
    }
    delay.disable();
    const st = await analysis;
    assert.equal(st.status, 'done', JSON.stringify(st));

    // One job (PGlite), or parts of it that any worker may take (PostgreSQL fans out): each logs where it encoded.
    const done = log.filter((l) => (l.msg === 'portfolio analysed' || l.msg === 'analysis part done') && l.projectId === projectId);
    assert.ok(done.length > 0, 'the job logged its analysis');
    for (const d of done) {
      assert.equal(d.encodedInWorkers, true, 'every chunk compressed and summarised in a worker thread');
      assert.ok(Number(d.encodeMsInWorkers) > 0);
    }
    const rows = await s.db
      .selectFrom('analysis_results')
      .select(['chunk_start', 'chunk_count'])
      .where('project_id', '=', projectId)
      .orderBy('chunk_start')
      .execute();
    assert.equal(
      rows.reduce((n, r) => n + r.chunk_count, 0),
      ASSETS,
      'every asset stored once',
    );
    assert.deepEqual(await storedVersionsBesidesCurrent(s.db, projectId), [], 'every stored chunk belongs to the current run');

    latencies.sort((a, b) => a - b);
    const p95 = latencies[Math.floor(latencies.length * 0.95)]!;
    const max = latencies.at(-1)!;
    const loopMax = delay.max / 1e6;
    console.log(
      `# ${latencies.length} requests during the analysis: p50 ${latencies[latencies.length >> 1]!.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${max.toFixed(0)} ms; event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${loopMax.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    assert.ok(latencies.length >= 10, 'requests were answered while the analysis ran');
    // Generous: a shared 2-core machine at load average 10 gives this process a fraction of a core.
    assert.ok(p95 < 1_500, `another user's p95 ${p95.toFixed(0)} ms during the analysis`);
    assert.ok(max < 10_000, `another user's slowest answer ${max.toFixed(0)} ms during the analysis`);
  });
});
