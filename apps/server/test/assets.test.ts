import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newUser, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

describe('asset table editing', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  let ids: number[];
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ assets_allowed: 1000 }).execute();
    const data = Array.from({ length: 600 }, (_, i) => ({
      name: `Site ${i}`,
      latitude: -40 + (i % 80),
      longitude: -170 + ((i * 7) % 340),
      valuation: 1e6,
      revenue: 1e5,
      property_type: 'Office',
    }));
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Editable', data } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
    ids = (await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).orderBy('position').execute()).map((r) => r.id);
  });
  after(() => s.close());

  const save = (token: string, assets: unknown[], extra: Record<string, unknown> = {}) =>
    s.api.post('/api/v2/update_assets/', { token, json: { project_id: projectId, assets, ...extra } });

  test('an edit saves, bumps the version and re-analyses only the chunk of the changed asset', async () => {
    const before = await s.db
      .selectFrom('analysis_results')
      .select(['chunk_start', 'data'])
      .where('project_id', '=', projectId)
      .orderBy('chunk_start')
      .execute();
    assert.deepEqual(
      before.map((b) => b.chunk_start),
      [0, 500],
    );
    const res = await save(owner.token, [{ id: ids[550], valuation: 5e6, mitigation_risk: 2, basement: 'yes', floors: 3, construction: 'Timber frame' }], {
      version: 1,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.changed, 1);
    assert.equal(res.body.version, 2);
    await waitForAnalysis(s, owner.token, projectId);
    const afterRows = await s.db
      .selectFrom('analysis_results')
      .select(['chunk_start', 'data'])
      .where('project_id', '=', projectId)
      .orderBy('chunk_start')
      .execute();
    assert.ok(Buffer.from(afterRows[0]!.data).equals(Buffer.from(before[0]!.data)), 'untouched chunk kept as stored');
    assert.ok(!Buffer.from(afterRows[1]!.data).equals(Buffer.from(before[1]!.data)), 'changed chunk recomputed');
    const row = await s.db.selectFrom('assets').selectAll().where('id', '=', ids[550]!).executeTakeFirstOrThrow();
    assert.equal(row.valuation, 5e6);
    assert.equal(row.mitigation_risk, 2);
    assert.equal(row.basement, true);
    assert.equal(row.construction, 'wood', 'a synonym of a construction class is stored as the class');
    const nothing = await save(owner.token, [{ id: ids[550], valuation: 5e6 }]);
    assert.equal(nothing.body.changed, 0);
  });

  test('a stale version is a 409 and nothing is saved', async () => {
    const res = await save(owner.token, [{ id: ids[1], valuation: 9e9 }], { version: 1 });
    assert.equal(res.status, 409);
    assert.match(res.body.detail, /changed by someone else/);
    const row = await s.db.selectFrom('assets').select('valuation').where('id', '=', ids[1]!).executeTakeFirstOrThrow();
    assert.equal(row.valuation, 1e6);
  });

  test('two saves sent at the same moment from the same version: one is saved, the other is a 409, nothing is mixed', async () => {
    const { version } = await s.db.selectFrom('projects').select('version').where('id', '=', projectId).executeTakeFirstOrThrow();
    const [a, b] = await Promise.all([
      save(
        owner.token,
        [
          { id: ids[5], valuation: 2e6 },
          { id: ids[6], valuation: 2e6 },
        ],
        { version },
      ),
      save(
        owner.token,
        [
          { id: ids[5], valuation: 3e6 },
          { id: ids[6], valuation: 3e6 },
        ],
        { version },
      ),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409], `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`);
    const winner = a.status === 200 ? 2e6 : 3e6;
    assert.equal((a.status === 200 ? a : b).body.version, version + 1);
    const rows = await s.db.selectFrom('assets').select('valuation').where('id', 'in', [ids[5]!, ids[6]!]).execute();
    assert.deepEqual(
      rows.map((r) => r.valuation),
      [winner, winner],
      'both rows carry the winning save, none the losing one',
    );
    const after = await s.db.selectFrom('projects').select('version').where('id', '=', projectId).executeTakeFirstOrThrow();
    assert.equal(after.version, version + 1, 'the losing save did not bump the version');
    await waitForAnalysis(s, owner.token, projectId);
  });

  test('bad cells, locations, foreign ids and duplicate names are 400 naming the problem, all or nothing', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ id: ids[2], ownership: 150 }], /ownership must be 0 to 100/],
      [[{ id: ids[2], mitigation_risk: 5 }], /mitigation_risk/],
      [[{ id: ids[2], floors: 2.5 }], /floors must be a whole number/],
      [[{ id: ids[2], construction: 'straw' }], /construction 'straw' is not a construction class \(concrete, steel, masonry, wood, manufactured\)/],
      [[{ id: ids[2], valuation: -1 }], /valuation must not be negative/],
      [[{ id: ids[2], latitude: 10 }], /latitude cannot be changed/],
      [[{ id: 99999999, valuation: 1 }], /not an asset of/],
      [
        [
          { id: ids[2], valuation: 7e6 },
          { id: ids[3], name: 'Site 4' },
        ],
        /two assets would be named/,
      ],
    ];
    for (const [assets, msg] of cases) {
      const res = await save(owner.token, assets);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.detail, msg);
    }
    const row = await s.db.selectFrom('assets').select('valuation').where('id', '=', ids[2]!).executeTakeFirstOrThrow();
    assert.equal(row.valuation, 1e6, 'the valid row of a failed save was not written');
  });

  test('roles and column permissions are enforced on the server', async () => {
    const j = newUser({ company_code: owner.company_code });
    const reg = await s.api.post('/api/user/register/', { json: j });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
    const login = await s.api.post('/api/user/rest_login/', { form: { username: j.username, password: j.password, company_code: owner.company_code } });
    const token = login.body.token;
    assert.equal((await save(token, [{ id: ids[5], valuation: 2e6 }])).status, 404, 'not shared yet');
    await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([reg.body.user.id]), permission: 'read' },
    });
    assert.equal((await save(token, [{ id: ids[5], valuation: 2e6 }])).status, 403, 'reader');
    await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([reg.body.user.id]), permission: 'write' },
    });
    assert.equal((await save(token, [{ id: ids[5], valuation: 2e6 }])).status, 200, 'writer');
    await s.db
      .updateTable('users')
      .set({ data_edit_permissions: JSON.stringify({ can_edit_valuation: false }) })
      .where('id', '=', reg.body.user.id)
      .execute();
    // A value no earlier test wrote (the concurrent-save test leaves 2e6 or 3e6, and an unchanged cell is not an edit).
    const gated = await save(token, [{ id: ids[6], valuation: 4.5e6 }]);
    assert.equal(gated.status, 403);
    assert.match(gated.body.detail, /valuation/);
    assert.equal((await save(token, [{ id: ids[6], building_age: 12 }])).status, 200, 'ungated column still editable');
  });
});
