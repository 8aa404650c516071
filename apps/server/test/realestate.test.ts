import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newUser, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const LOCATIONS = [
  { name: 'Central Tower', latitude: 22.2819, longitude: 114.1585, property_type: 'Office', valuation: 3.1e8, revenue: 1.25e7 },
  { name: 'Houston Depot', lat: 29.76, long: -95.37, property_type: 'Warehouse', min_distance: 2, max_distance: 15 },
  { name: 'Madrid Flat', latitude: 40.42, longitude: -3.7, property_type: 'Residential' },
];

describe('real estate: property-risk compute and fetch', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({}, { jobs: true });
  });
  after(() => s.close());

  test('compute queues a job; fetch returns one row per location with point and ring scores, GDP and population', async () => {
    const u = await registerAndLogin(s.api);
    const res = await s.api.post('/api/v2/property_risk/', { token: u.token, form: { project_name: 'HK and friends', data: JSON.stringify(LOCATIONS) } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.project.assets, 3);
    assert.ok(res.body.job_id > 0);
    const early = await s.api.post('/api/v2/property_risk/fetch/', { token: u.token, form: { project_name: 'hk and friends' } });
    assert.equal(early.status, 200, JSON.stringify(early.body));
    assert.equal(early.body.project_name, 'HK and friends');
    const done = await waitForAnalysis(s, u.token, res.body.project.project_id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    const f = await s.api.post('/api/v2/property_risk/fetch/', { token: u.token, json: { project_name: 'HK and friends' } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    assert.deepEqual(f.body.scenario, { analysis_type: 'ssp', scenario: '85', year: 2050 });
    const [hk, hou, mad] = f.body.data;
    assert.deepEqual(
      f.body.data.map((r: { name: string }) => r.name),
      ['Central Tower', 'Houston Depot', 'Madrid Flat'],
    );
    for (const r of f.body.data) {
      for (const k of ['flood_score', 'typhoon_score']) assert.ok(r[k] >= 0 && r[k] <= 100, `${r.name} ${k} ${r[k]}`);
      for (const h of [r.flood, r.typhoon]) assert.ok(h.min_value <= h.mean_score && h.mean_score <= h.max_value, JSON.stringify(h));
    }
    // Default ring 1-10 km; a location's own ring is kept.
    assert.deepEqual([hk.flood.min_distance, hk.flood.max_distance], [1, 10]);
    assert.deepEqual([hou.typhoon.min_distance, hou.typhoon.max_distance], [2, 15]);
    // Hong Kong: typhoon exposure and GDP from the World Bank HKG GDP per capita x GeoNames population within 10 km.
    assert.ok(hk.typhoon_score > 0);
    assert.equal(hk.country_code, 'HK');
    assert.equal(hk.gdp_per_capita_usd, 50696.59);
    assert.equal(hk.gdp_year, 2023);
    assert.ok(hk.population_value > 1_000_000, String(hk.population_value));
    assert.equal(hk.gdp_value, Math.round(hk.population_value * hk.gdp_per_capita_usd));
    assert.equal(hk.lat, 22.2819);
    assert.equal(hk.lon, 114.1585);
    // Houston's ring differs from its point (the typhoon layer varies within 15 km; its river-flood cell and ring are
    // dry since the river depth became the cell mean over the sub-grid relief, hazards.md §3.4).
    assert.ok(hou.typhoon.min_value < hou.typhoon_score || hou.typhoon.max_value > hou.typhoon_score, JSON.stringify(hou));
    assert.equal(mad.typhoon_score, 0);
    assert.equal(f.body.summary.properties, 3);
    assert.equal(f.body.summary.total_population, hk.population_value + hou.population_value + mad.population_value);
  });

  test('bad input is a 400 naming the field, listing every row problem, and saves nothing', async () => {
    const u = await registerAndLogin(s.api);
    const missing = await s.api.post('/api/v2/property_risk/', { token: u.token, form: { data: JSON.stringify(LOCATIONS) } });
    assert.equal(missing.status, 400);
    assert.match(JSON.stringify(missing.body), /project_name/);
    const notJson = await s.api.post('/api/v2/property_risk/', { token: u.token, form: { project_name: 'x', data: '[{' } });
    assert.equal(notJson.status, 400);
    assert.match(JSON.stringify(notJson.body), /data/);
    const empty = await s.api.post('/api/v2/property_risk/', { token: u.token, json: { project_name: 'x', data: [] } });
    assert.equal(empty.status, 400);
    const bad = await s.api.post('/api/v2/property_risk/', {
      token: u.token,
      json: {
        project_name: 'Bad rows',
        data: [
          { name: 'A', latitude: 95, longitude: 10 },
          { name: 'B', latitude: 10, longitude: 10, min_distance: 8, max_distance: 3 },
          { name: 'C', latitude: 1, longitude: 1, max_distance: 'far' },
        ],
      },
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.error.length, 3, JSON.stringify(bad.body.error));
    assert.match(bad.body.error.join('\n'), /Row 1: latitude 95/);
    assert.match(bad.body.error.join('\n'), /Row 2: max_distance \(3 km\) must be greater than min_distance \(8 km\)/);
    assert.match(bad.body.error.join('\n'), /Row 3: max_distance 'far'/);
    const ring = await s.api.post('/api/v2/property_risk/', { token: u.token, json: { project_name: 'Far', data: LOCATIONS, max_distance: 80 } });
    assert.equal(ring.status, 400);
    assert.match(JSON.stringify(ring.body), /max_distance must be 0 to 50 km/);
    const year = await s.api.post('/api/v2/property_risk/', {
      token: u.token,
      json: { project_name: 'Year', data: LOCATIONS, analysis_type: 'rcp', year: 2040 },
    });
    assert.equal(year.status, 400);
    assert.match(JSON.stringify(year.body), /year/);
    const n = await s.db.selectFrom('projects').select(s.db.fn.countAll<number>().as('n')).where('owner_id', '=', u.userId).executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0, 'nothing saved');
    const none = await s.api.post('/api/v2/property_risk/fetch/', { token: u.token, form: { project_name: 'Nope' } });
    assert.equal(none.status, 404);
    assert.match(none.body.detail, /project_name/);
    const anon = await s.api.post('/api/v2/property_risk/fetch/', { form: { project_name: 'Nope' } });
    assert.equal(anon.status, 401);
  });

  test('a second project of the same name needs overwrite; overwrite replaces the locations', async () => {
    const u = await registerAndLogin(s.api);
    const first = await s.api.post('/api/v2/property_risk/', { token: u.token, json: { project_name: 'Twice', data: LOCATIONS } });
    assert.equal(first.status, 202);
    const again = await s.api.post('/api/v2/property_risk/', { token: u.token, json: { project_name: 'Twice', data: LOCATIONS.slice(0, 1) } });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /already have a property-risk project named 'Twice'/);
    const over = await s.api.post('/api/v2/property_risk/', {
      token: u.token,
      form: { project_name: 'Twice', data: JSON.stringify(LOCATIONS.slice(0, 1)), overwrite: 'true' },
    });
    assert.equal(over.status, 202, JSON.stringify(over.body));
    assert.equal(over.body.project.project_id, first.body.project.project_id);
    await waitForAnalysis(s, u.token, first.body.project.project_id);
    const f = await s.api.post('/api/v2/property_risk/fetch/', { token: u.token, form: { project_name: 'Twice' } });
    assert.equal(f.body.status, 'done');
    assert.deepEqual(
      f.body.data.map((r: { name: string }) => r.name),
      ['Central Tower'],
    );
    // The physical-risk list does not show property-risk projects under the same name space.
    const phys = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Twice', data: LOCATIONS.slice(0, 1) } });
    assert.equal(phys.status, 201, JSON.stringify(phys.body));
  });

  test('the tier asset limit applies', async () => {
    const u = await registerAndLogin(s.api);
    const company = await s.db.selectFrom('users').select('company_id').where('id', '=', u.userId).executeTakeFirstOrThrow();
    await s.db.updateTable('companies').set({ assets_allowed: 2 }).where('id', '=', company.company_id).execute();
    const res = await s.api.post('/api/v2/property_risk/', { token: u.token, json: { project_name: 'Too many', data: LOCATIONS } });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail, 'You are only allowed to add 2 assets for Analysis');
  });

  test('permissions: another company gets 404, a colleague sees it once shared', async () => {
    const owner = await registerAndLogin(s.api);
    const stranger = await registerAndLogin(s.api);
    const u = newUser({ company_code: owner.company_code });
    const reg = await s.api.post('/api/user/register/', { json: u });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
    const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: owner.company_code } });
    const colleague = { token: login.body.token as string, userId: reg.body.user.id as number };
    const res = await s.api.post('/api/v2/property_risk/', { token: owner.token, json: { project_name: 'Private', data: LOCATIONS.slice(0, 1) } });
    const id = res.body.project.project_id as number;
    await waitForAnalysis(s, owner.token, id);
    for (const who of [stranger, colleague]) {
      const f = await s.api.post('/api/v2/property_risk/fetch/', { token: who.token, form: { project_name: 'Private' } });
      assert.equal(f.status, 404, JSON.stringify(f.body));
      const st = await s.api.get(`/api/v2/projects/${id}/status/`, { token: who.token });
      assert.equal(st.status, 404);
    }
    // The stranger's own project of the same name does not collide with the owner's.
    const own = await s.api.post('/api/v2/property_risk/', { token: stranger.token, json: { project_name: 'Private', data: LOCATIONS.slice(2) } });
    assert.equal(own.status, 202);
    const share = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: id, share_with: JSON.stringify([colleague.userId]), permission: 'read' },
    });
    assert.equal(share.status, 201, JSON.stringify(share.body));
    const seen = await s.api.post('/api/v2/property_risk/fetch/', { token: colleague.token, form: { project_name: 'Private' } });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.data[0].name, 'Central Tower');
    // Lists: each sees their own and what was shared with them, never another company's.
    const mine = await s.api.get('/api/v2/property_risk/projects/', { token: owner.token });
    assert.deepEqual(
      mine.body.map((p: { project_id: number; own: boolean; properties: number; status: string }) => [p.project_id, p.own, p.properties, p.status]),
      [[id, true, 1, 'done']],
    );
    const shared = await s.api.get('/api/v2/property_risk/projects/', { token: colleague.token });
    assert.deepEqual(
      shared.body.map((p: { project_id: number; own: boolean }) => [p.project_id, p.own]),
      [[id, false]],
    );
    const theirs = await s.api.get('/api/v2/property_risk/projects/', { token: stranger.token });
    assert.deepEqual(
      theirs.body.map((p: { project_id: number }) => p.project_id),
      [own.body.project.project_id],
    );
  });
});
