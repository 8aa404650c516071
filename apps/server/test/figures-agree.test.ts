import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { enterpriseTier } from '../bench/fixtures.js';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 37 item 2, one number per figure: the project card (project list) and the dashboard show the same climate score,
 * maximum exposure and residual CVaR for the same scenario and year, for three projects of different make-up.
 */
const PROJECTS: Record<string, Record<string, unknown>[]> = {
  'Harbour book': [
    { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, revenue: 1e7 },
    { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7, floors: 12 },
    { name: 'Shenzhen Plant', latitude: 22.54, longitude: 114.06, property_type: 'Manufacture', valuation: 3e7, construction_cost: 2e7 },
  ],
  'No values': [
    { name: 'Manila site', latitude: 14.6, longitude: 120.98 },
    { name: 'Dhaka site', latitude: 23.81, longitude: 90.41 },
  ],
  'Dry and hot': [
    { name: 'Phoenix Plant', latitude: 33.45, longitude: -112.07, property_type: 'Manufacture', valuation: 3e7, revenue: 4e7 },
    { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7 },
    { name: 'Seville Hotel', latitude: 37.39, longitude: -5.98, property_type: 'Hotel', valuation: 2e7, revenue: 5e6 },
  ],
};

describe('one number per figure: project card and dashboard', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    await enterpriseTier(s.db, owner.company_code);
    for (const [name, data] of Object.entries(PROJECTS)) {
      // the dry project takes the heat, drought and wildfire hazards; the others the three defaults
      const variables = name === 'Dry and hot' ? { portfolio_variables: ['Extreme Heat', 'Drought', 'Wildfire'] } : {};
      const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: name, data, ...variables } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      await waitForAnalysis(s, owner.token, res.body.project.project_id);
    }
  });
  after(() => s.close());

  test('for each project, at the filters the card was computed at: the same score, maximum exposure and residual CVaR as the dashboard', async () => {
    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    assert.equal(list.status, 200, JSON.stringify(list.body).slice(0, 300));
    for (const name of Object.keys(PROJECTS)) {
      const card = list.body.data.find((p: { name: string }) => p.name === name);
      assert.ok(card, name);
      const f = card.default_filters;
      const dash = await s.api.post('/api/v2/dashboard/', {
        token: owner.token,
        json: { project_id: card.project_id, analysis_type: f.analysis_type, scenario: f.scenario, year: f.year },
      });
      assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 300));
      const b = dash.body;
      assert.equal(card.overall, b.overall.overall_risk, `${name}: card score ${card.overall} vs dashboard ${b.overall.overall_risk}`);
      // sites without value or revenue are scored by their damage ratios: a typhoon city is not "0, low risk"
      assert.ok(card.overall > 0, `${name}: score ${card.overall}`);
      const near = (x: number | null, y: number | null) => x !== null && y !== null && Math.abs(x - y) <= 1e-6 * Math.abs(y) + 0.02;
      assert.ok(near(card.value, b.climate_risk_card_data.max_exposure), `${name}: card exposure ${card.value} vs ${b.climate_risk_card_data.max_exposure}`);
      assert.ok(
        near(card.loss, b.climate_risk_card_data.residual_climate_value_at_risk),
        `${name}: card loss ${card.loss} vs dashboard ${b.climate_risk_card_data.residual_climate_value_at_risk}`,
      );
    }
  });
});
