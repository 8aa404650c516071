import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO, DEMO_CARBON_PORTFOLIO, DEMO_PORTFOLIO, seedDemo } from '../src/seed.js';
import { startServer, type TestServer } from './support/harness.js';

describe('demo seed', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({}, { jobs: true });
  });
  after(() => s.close());

  test('creates the demo company, user and an analysed demo portfolio once', async () => {
    assert.equal(await seedDemo(s.app, s.db), true);
    assert.equal(await seedDemo(s.app, s.db), false, 'idempotent');
    const login = await s.api.post('/api/user/rest_login/', { form: { username: DEMO.username, password: DEMO.password, company_code: DEMO.companyCode } });
    assert.equal(login.status, 201);
    assert.equal(login.body.tier_data.tier, 'enterprise');
    const token = login.body.token;
    let card;
    for (let i = 0; i < 300; i++) {
      const list = await s.api.get(`/api/project/${login.body.user.id}/`, { token });
      card = list.body.data.find((p: { name: string }) => p.name === DEMO_PORTFOLIO);
      if (card?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(card.status, 'done');
    assert.equal(card.assets, 18);
    assert.ok(card.overall > 0);
    const codes = await s.db.selectFrom('assets').select('country_code').where('project_id', '=', card.project_id).execute();
    assert.ok(
      codes.every((c) => c.country_code !== null),
      'demo assets carry their country',
    );
    const carbon = await s.api.post(`/api/report/get_carbon_analysis/${login.body.user.id}/`, { token, json: { portfolio_name: DEMO_CARBON_PORTFOLIO } });
    assert.equal(carbon.status, 200, JSON.stringify(carbon.body));
    assert.equal(carbon.body.table_data.length, 6);
    assert.equal(carbon.body.portfolio.projected_companies, 2);
    assert.equal(carbon.body.portfolio.unavailable_companies, 0);
    assert.ok(carbon.body.portfolio.total_carbon_emission_portfolio > 0);
  });
});
