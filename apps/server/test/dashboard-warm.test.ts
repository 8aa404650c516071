import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { client } from './support/harness.js';
import { spawnServer, stopProc, type Proc } from './support/processes.js';

/**
 * Issue 22: after a restart the server decodes the most recently analysed projects for the dashboard in the
 * background (DASHBOARD_WARM_ON_START), so the first dashboard query does not wait for the decode. The real server
 * (`npm start`'s main.ts) on an embedded database, started twice on the same data directory.
 */
const DEMO = { username: 'demo', password: 'ClimateDemo!2026', company_code: 'DEMO0-HK001' };

describe('dashboards decoded at start-up', { timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crp-warm-'));
  const procs: Proc[] = [];
  after(async () => {
    for (const p of procs) await stopProc(p, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const waitFor = async (p: Proc, pattern: RegExp) => {
    for (let i = 0; i < 600 && !pattern.test(p.output()); i++) await new Promise((r) => setTimeout(r, 100));
    return pattern.exec(p.output());
  };

  test('a restarted server decodes the analysed demo project before anyone asks', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info', MAP_PRERENDER_WORLD: 'false' };
    const first = await spawnServer(env);
    procs.push(first);
    const api = client(first.url);
    const token = (await api.post('/api/user/rest_login/', { form: DEMO })).body.token as string;
    const list = await api.get('/api/project/all_projects/?list_for=physical_risk', { token });
    const projectId = list.body[0].project_id as number;
    for (let i = 0; i < 600; i++) {
      if ((await api.get(`/api/v2/projects/${projectId}/status/`, { token })).body.status === 'done') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    await stopProc(first, 'SIGTERM');

    const second = await spawnServer(env);
    procs.push(second);
    const line = await waitFor(second, /"projects":\[([\d,]+)\][^\n]*"msg":"dashboards decoded at start-up"/);
    assert.ok(line, `no start-up decode logged:\n${second.output().slice(-3000)}`);
    assert.deepEqual(line[1]!.split(',').map(Number), [projectId]);
    const api2 = client(second.url);
    const token2 = (await api2.post('/api/user/rest_login/', { form: DEMO })).body.token as string;
    const dash = await api2.post('/api/v2/dashboard/', { token: token2, json: { project_id: projectId } });
    assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 300));
    await stopProc(second, 'SIGTERM');
  });
});
