import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 22: a stored analysis too large to decode in the memory this server allows (RESULTS_DECODE_MAX_MB; a
 * million-asset analysis decodes to about 24 GB) is refused with a clear 422 by the readers that decode it whole (the
 * downloads; the results API streams it a stored chunk at a time since issue 36) instead of exhausting the server's memory; the project card still shows its figures. With a limit of
 * 1 MiB the server reads at most 43 assets (24.4 KB each), so a 60-asset project is over it and a 30-asset one under.
 * (The dashboard reads such an analysis from its dashboard store instead: dashboard-large.test.ts.)
 */
describe('results decode limit', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  const ids: Record<string, number> = {};
  const portfolio = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `Site ${i}`, latitude: 22 + i * 0.01, longitude: 114 + i * 0.01, property_type: 'Office', valuation: 1e7 }));

  before(async () => {
    s = await startServer({ RESULTS_DECODE_MAX_MB: 1 }, { jobs: true });
    owner = await registerAndLogin(s.api);
    for (const [name, n] of [
      ['Large', 60],
      ['Small', 30],
    ] as const) {
      const res = await s.api.post('/api/v2/create_project/', {
        token: owner.token,
        json: { portfolio_name: name, data: portfolio(n), portfolio_variables: ['Typhoon', 'River Flood'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[name] = res.body.project.project_id;
      await waitForAnalysis(s, owner.token, ids[name]!);
    }
  });
  after(() => s?.close());

  test('the CSV report refuses the large analysis with 422 naming the size and the limit; the results API streams it a chunk at a time', async () => {
    // issue 36 item 4: the results API reads one stored chunk at a time, so the decode limit does not apply to it
    const rows = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: ids.Large! } });
    assert.equal(rows.status, 200, JSON.stringify(rows.body).slice(0, 300));
    assert.equal(new Set(rows.body.results.map((r: { asset_name: string }) => r.asset_name)).size, 60);
    const csv = await s.api.post('/api/v2/download_csv_report/', { token: owner.token, json: { project_name: 'Large', analysis_type: 'ssp' } });
    assert.equal(csv.status, 422, JSON.stringify(csv.body).slice(0, 300));
  });

  test('the project card of the large project still has its figures, and a project under the limit reads as before', async () => {
    const status = await s.api.get(`/api/v2/projects/${ids.Large!}/status/`, { token: owner.token });
    assert.equal(status.status, 200);
    assert.equal(status.body.status, 'done');
    assert.equal(status.body.assets, 60);
    const dash = await s.api.post('/api/v2/dashboard/', { token: owner.token, form: { project_id: ids.Small! } });
    assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 300));
    const rows = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: ids.Small! } });
    assert.equal(rows.status, 200);
    assert.equal(new Set(rows.body.results.map((r: { asset_name: string }) => r.asset_name)).size, 30);
  });
});
