import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newUser, onPaidPlan, registerAndLogin, startServer, type Api, type TestServer, waitForAnalysis } from './support/harness.js';

interface Who {
  token: string;
  userId: number;
  username: string;
}

async function colleague(s: TestServer, admin: Awaited<ReturnType<typeof registerAndLogin>>): Promise<Who> {
  const u = newUser({ company_code: admin.company_code });
  const reg = await s.api.post('/api/user/register/', { json: u });
  await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: admin.token });
  const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: admin.company_code } });
  return { token: login.body.token, userId: reg.body.user.id, username: u.username };
}

async function createProject(api: Api, token: string, name: string) {
  const data = [
    { name: 'Hong Kong HQ', latitude: 22.28, longitude: 114.16, property_type: 'Office', valuation: 2e8, revenue: 3e7 },
    { name: 'Miami branch', latitude: 25.77, longitude: -80.19, property_type: 'Retail', valuation: 5e7, revenue: 1e7 },
  ];
  const res = await api.post('/api/v2/create_project/', { token, json: { portfolio_name: name, data, portfolio_variables: ['Extreme Heat'] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.project.project_id as number;
}

describe('project list, renaming, deleting, default filters and sharing by role', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let writer: Who;
  let reader: Who;
  let stranger: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;

  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    writer = await colleague(s, owner);
    reader = await colleague(s, owner);
    stranger = await onPaidPlan(s, await registerAndLogin(s.api));
    projectId = await createProject(s.api, owner.token, 'Flagship');
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(() => s.close());

  test('the owner sees the card with score, exposure, loss, assets, hazards and filters, and the members to share with', async () => {
    const res = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.username, owner.username);
    assert.equal(res.body.count, 1);
    const card = res.body.data[0];
    assert.equal(card.name, 'Flagship');
    assert.match(card.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(card.assets, 2);
    assert.equal(card.status, 'done');
    assert.ok(card.overall >= 0 && card.overall <= 100, `overall ${card.overall}`);
    assert.ok(card.value > 0, `max exposure ${card.value}`);
    assert.ok(card.loss >= 0);
    assert.deepEqual(card.variables, ['River Flood', 'Typhoon', 'Storm Surge', 'Extreme Heat']);
    assert.deepEqual(card.property_type, ['Office', 'Retail']);
    assert.deepEqual(card.default_filters, { analysis_type: 'ssp', scenario: '45', year: 2050 });
    assert.equal(card.permission, 'owner');
    const members = res.body.members.map((m: { username: string }) => m.username).sort();
    assert.deepEqual(members, [writer.username, reader.username].sort());
  });

  test('only the owner shares, only with active users of the same company', async () => {
    const toStranger = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([stranger.username]), permission: 'read' },
    });
    assert.equal(toStranger.status, 400);
    assert.equal(toStranger.body.errors[0].field, 'share_with');
    const badPerm = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([writer.userId]), permission: 'admin' },
    });
    assert.equal(badPerm.status, 400);
    assert.match(badPerm.body.detail, /permission/);
    const w = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([writer.userId]), permission: 'write' },
    });
    assert.equal(w.status, 201, JSON.stringify(w.body));
    const r = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: projectId, share_with: JSON.stringify([reader.username]), permission: 'read' },
    });
    assert.equal(r.status, 201);
    for (const who of [writer, reader]) {
      const again = await s.api.post('/api/v2/share_project/', {
        token: who.token,
        form: { project_id: projectId, share_with: JSON.stringify([owner.userId]), permission: 'read' },
      });
      assert.equal(again.status, 403, 'writers and readers cannot re-share');
    }
    const foreign = await s.api.post('/api/v2/share_project/', {
      token: stranger.token,
      form: { project_id: projectId, share_with: JSON.stringify([stranger.userId]), permission: 'write' },
    });
    assert.equal(foreign.status, 404);
    const ownerList = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    assert.deepEqual(ownerList.body.data[0].shared_with.map((x: { permission: string }) => x.permission).sort(), ['read', 'write']);
  });

  test('shared users see the project with their permission; another company never does', async () => {
    for (const [who, perm] of [
      [writer, 'write'],
      [reader, 'read'],
    ] as const) {
      const list = await s.api.get(`/api/project/${who.userId}/`, { token: who.token });
      assert.equal(list.body.data[0].permission, perm);
      assert.deepEqual(list.body.data[0].shared_with, [], 'only the owner sees who else has access');
      assert.equal((await s.api.get(`/api/v2/projects/${projectId}/status/`, { token: who.token })).status, 200);
    }
    const list = await s.api.get(`/api/project/${stranger.userId}/`, { token: stranger.token });
    assert.equal(list.body.count, 0);
    assert.equal((await s.api.get(`/api/v2/projects/${projectId}/status/`, { token: stranger.token })).status, 404);
    assert.equal((await s.api.get(`/api/project/${owner.userId}/`, { token: stranger.token })).status, 404, 'another user id in the path');
  });

  test('rename: reader 403, writer may, a taken name is 400 with Error, a stranger 404', async () => {
    const byReader = await s.api.post(`/api/project/update/${reader.userId}/`, { token: reader.token, form: { oldname: 'Flagship', name: 'Renamed' } });
    assert.equal(byReader.status, 403);
    const byStranger = await s.api.post(`/api/project/update/${stranger.userId}/`, { token: stranger.token, form: { oldname: 'Flagship', name: 'Mine now' } });
    assert.equal(byStranger.status, 404);
    const byWriter = await s.api.post(`/api/project/update/${writer.userId}/`, { token: writer.token, form: { oldname: 'Flagship', name: 'Flagship 2026' } });
    assert.equal(byWriter.status, 200, JSON.stringify(byWriter.body));
    await createProject(s.api, owner.token, 'Second');
    const taken = await s.api.post(`/api/project/update/${owner.userId}/`, { token: owner.token, form: { oldname: 'Second', name: 'flagship 2026' } });
    assert.equal(taken.status, 400);
    assert.match(taken.body.Error, /already exists/);
    const missing = await s.api.post(`/api/project/update/${owner.userId}/`, { token: owner.token, form: { oldname: 'Nope', name: 'X' } });
    assert.equal(missing.status, 404);
    const names = await s.api.get('/api/project/all_projects/?list_for=physical_risk', { token: owner.token });
    assert.deepEqual(names.body.map((p: { name: string }) => p.name).sort(), ['Flagship 2026', 'Second']);
    assert.equal((await s.api.get('/api/project/all_projects/?list_for=carbon', { token: owner.token })).status, 400);
  });

  test('default filters: per user, or per project with write access; years follow the analysis type', async () => {
    const mine = await s.api.post('/api/project/update_default_filter/', {
      token: reader.token,
      form: { data: JSON.stringify({ year: 2030, scenario: '85', analysis_type: 'rcp' }) },
    });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const badYear = await s.api.post('/api/project/update_default_filter/', {
      token: reader.token,
      form: { data: JSON.stringify({ year: 2100, scenario: '85', analysis_type: 'rcp' }) },
    });
    assert.equal(badYear.status, 400);
    assert.equal(badYear.body.errors[0].field, 'data.year');
    const readerOnProject = await s.api.post('/api/project/update_default_filter/', {
      token: reader.token,
      form: { project_id: projectId, data: JSON.stringify({ year: 2050, scenario: '26', analysis_type: 'ssp' }) },
    });
    assert.equal(readerOnProject.status, 403);
    const writerOnProject = await s.api.post('/api/project/update_default_filter/', {
      token: writer.token,
      form: { project_id: projectId, data: JSON.stringify({ year: 2080, scenario: '26', analysis_type: 'ssp' }) },
    });
    assert.equal(writerOnProject.status, 200);
    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    const card = list.body.data.find((p: { project_id: number }) => p.project_id === projectId);
    assert.deepEqual(card.default_filters, { analysis_type: 'ssp', scenario: '26', year: 2080 });
    // The owner saved nothing for themselves: their dashboard opens with the project's filters.
    assert.deepEqual(card.dashboard_filters, card.default_filters);
    // The reader saved their own defaults: their dashboard opens with them; the project's filters stay.
    const readerList = await s.api.get(`/api/project/${reader.userId}/`, { token: reader.token });
    const readerCard = readerList.body.data.find((p: { project_id: number }) => p.project_id === projectId);
    assert.deepEqual(readerCard.dashboard_filters, { analysis_type: 'rcp', scenario: '85', year: 2030 });
    assert.deepEqual(readerCard.default_filters, { analysis_type: 'ssp', scenario: '26', year: 2080 });
    const garbage = await s.api.post('/api/project/update_default_filter/', { token: reader.token, form: { data: 'not json' } });
    assert.equal(garbage.status, 400);
  });

  test('delete: writer and reader 403, stranger 404, owner 201 and it is gone for everyone', async () => {
    assert.equal((await s.api.post(`/api/project/delete/${writer.userId}/`, { token: writer.token, form: { name: 'Flagship 2026' } })).status, 403);
    assert.equal((await s.api.post(`/api/project/delete/${reader.userId}/`, { token: reader.token, form: { name: 'Flagship 2026' } })).status, 403);
    assert.equal((await s.api.post(`/api/project/delete/${stranger.userId}/`, { token: stranger.token, form: { name: 'Flagship 2026' } })).status, 404);
    const ok = await s.api.post(`/api/project/delete/${owner.userId}/`, { token: owner.token, form: { name: 'Flagship 2026' } });
    assert.equal(ok.status, 201);
    assert.equal((await s.api.get(`/api/project/${writer.userId}/`, { token: writer.token })).body.count, 0);
    const leftovers = await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).execute();
    assert.equal(leftovers.length, 0);
    const results = await s.db.selectFrom('analysis_results').select('project_id').where('project_id', '=', projectId).execute();
    assert.equal(results.length, 0);
  });

  test('a company-location portfolio is marked on its card (Analyse opens /company-dashboard); a map portfolio is not', async () => {
    const u = await onPaidPlan(s, await registerAndLogin(s.api));
    const company = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Companies', ticker: '0005.HK', data: [{ name: 'HSBC Holdings', latitude: 22.28, longitude: 114.16 }] },
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    await createProject(s.api, u.token, 'Sites');
    const list = await s.api.get(`/api/project/${u.userId}/`, { token: u.token });
    const byName = Object.fromEntries(list.body.data.map((p: { name: string; company_portfolio: boolean }) => [p.name, p.company_portfolio]));
    assert.deepEqual(byName, { Companies: true, Sites: false });
  });
});
