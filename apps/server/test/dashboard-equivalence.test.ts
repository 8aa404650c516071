/**
 * Issue 7 (dashboard speed): the optimised dashboard must return exactly what the dashboard returned before. The
 * oracle is the pre-optimisation service and results reader, frozen in support/dashboard-reference.ts; both read the
 * same analysed portfolio in the same database. Every filter combination below is asked over real HTTP (twice, so
 * the second answer comes from the caches) and compared field by field with the oracle's answer (numbers within
 * 1e-9 relative; everything else equal; the columnar per-asset sections read as rows with dashboardView, so the
 * oracle's rows are compared cell by cell), for the enterprise tier and for a tier without the money sections. After
 * an asset edit and re-analysis, the answer must follow the new analysis (no stale cache).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DashboardBody, dashboardView } from '@crp/contracts';
import { UsersRepository } from '../src/modules/accounts/users.repository.js';
import { ReferenceDashboardService } from './support/dashboard-reference.js';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/** Path of the first difference (numbers within 1e-9 relative), or null when equal. */
function diff(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? null : `${path}: ${a} != ${b}`;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return a === b ? null : `${path}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a as object),
    kb = Object.keys(b as object);
  if (ka.length !== kb.length || ka.some((k) => !(k in (b as object)))) return `${path}: keys ${ka.join(',')} != ${kb.join(',')}`;
  for (const k of ka) {
    const d = diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

const COMBOS: Record<string, string | number | boolean>[] = [
  {},
  { analysis_type: 'ssp', scenario: '26', year: 2100 },
  { analysis_type: 'ssp', scenario: '85', year: 2050 },
  { analysis_type: 'ssp', scenario: '45', year: 2020 },
  { analysis_type: 'ssp', scenario: '85', year: 2075, mitigation: false },
  { analysis_type: 'rcp', scenario: '45', year: 2030 },
  { analysis_type: 'rcp', scenario: '85', year: 2050 },
  { analysis_type: 'rcp', scenario: '26', year: 2020 },
  { analysis_type: 'rcp', scenario: '85', year: 2100 },
  { variable: 'Wildfire' },
  { variable: 'Typhoon', analysis_type: 'ssp', scenario: '85', year: 2100 },
  { variable: 'River Flood', mitigation: false },
  { variable: 'Extreme Heat', analysis_type: 'rcp', scenario: '26', year: 2030 },
  { variable: 'Sea Level Rise', adjusted_gdp: true },
  { mitigation: false },
  { with_content: false },
  { adjusted_gdp: true },
  { with_content: false, adjusted_gdp: true, analysis_type: 'rcp', scenario: '45', year: 2050 },
  { count: 1 },
  { count: 3 },
  { count: 3, mitigation: false, analysis_type: 'ssp', scenario: '26', year: 2040 },
  { property_type: 'Office' },
  { property_type: 'office', count: 1 },
  { property_type: 'Warehouse', variable: 'Drought' },
  { property_type: 'Nothing of that type' },
  { percentage_type: 'percentage' },
];

describe('dashboard answers are unchanged by the performance work (issue 7)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  let reference: ReferenceDashboardService;
  let caller: { id: number; companyId: number; username: string; isCompanyAdmin: boolean; tokenId: number };
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    const data = [
      // a valuation above the construction cost, and a construction cost without valuation (Oslo): the percentages and the
      // Total Asset Value are of the valuation, the damage of the construction cost (issue 37 item 2)
      { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, construction_cost: 2.5e7, revenue: 1e7 },
      { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7, content_value: 5e6 },
      { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7, ownership: 60 },
      { name: 'Phoenix Plant', latitude: 33.45, longitude: -112.07, property_type: 'Manufacture', valuation: 3e7, revenue: 4e7, yearly_inventory_value: 2e6 },
      { name: 'Dhaka Depot', latitude: 23.81, longitude: 90.41, property_type: 'Warehouse', valuation: 8e6, revenue: 3e6 },
      { name: 'Miami Hotel', latitude: 25.77, longitude: -80.19, property_type: 'Hotel', valuation: 9e7, revenue: 3e7 },
      { name: 'Oslo Retail', latitude: 59.91, longitude: 10.75, property_type: 'Retail', construction_cost: 1.2e7, revenue: 5e6 },
      { name: 'Lagos Office', latitude: 6.52, longitude: 3.38, property_type: 'Office', valuation: 1.5e7, revenue: 4e6 },
      { name: 'Sydney Residential', latitude: -33.87, longitude: 151.21, property_type: 'Residential', valuation: 7e7, revenue: 0 },
      { name: 'Bangkok Plant', latitude: 13.75, longitude: 100.5, property_type: 'Manufacture', valuation: 2.5e7, revenue: 1.2e7 },
    ];
    const labels = ['Wildfire', 'Landslide', 'Rainfall Flood', 'Extreme Heat', 'Extreme Cold', 'Snowfall', 'Sea Level Rise', 'Drought'];
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Equivalence', data, portfolio_variables: labels } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
    const u = await s.db.selectFrom('users').select(['id', 'company_id']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
    caller = { id: u.id, companyId: u.company_id, username: owner.username, isCompanyAdmin: true, tokenId: 0 };
    reference = new ReferenceDashboardService(s.db, s.app.services.projectAccess, new UsersRepository(s.db));
  });
  after(() => s.close());

  const setTier = async (all: boolean) => {
    await s.db
      .updateTable('companies')
      .set({
        tier: all ? 'enterprise' : 'free',
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: all,
          climate_heatmap: true,
          portfolio_losses: all,
          rcp_year_loss_bars: all,
          asset_table: all,
        }),
      })
      .where('id', '=', caller.companyId)
      .execute();
  };
  const compareAll = async (label: string) => {
    let compared = 0;
    for (const round of [1, 2]) {
      for (const c of COMBOS) {
        const res = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId, ...c } });
        assert.equal(res.status, 200, `${JSON.stringify(c)}: ${JSON.stringify(res.body).slice(0, 300)}`);
        const expected = JSON.parse(JSON.stringify(await reference.query(caller, DashboardBody.parse({ project_id: projectId, ...c }))));
        const d = diff(dashboardView(res.body), expected);
        assert.equal(d, null, `${label}, round ${round}, filters ${JSON.stringify(c)}: ${d}`);
        compared++;
      }
    }
    return compared;
  };

  test('every filter combination, enterprise tier, cold and cached', async () => {
    await setTier(true);
    assert.equal(await compareAll('enterprise'), 2 * COMBOS.length);
  });

  test('a tier without the money sections gets the same (nulled) answer', async () => {
    await setTier(false);
    const one = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId } });
    assert.equal(one.body.climate_risk_card_data, null);
    assert.equal(one.body.asset_table, null);
    await compareAll('restricted tier');
    await setTier(true);
  });

  test('the in-process answer (reports build on it) is the same objects', async () => {
    for (const c of [COMBOS[0]!, COMBOS[9]!, COMBOS[19]!, COMBOS[21]!]) {
      const body = DashboardBody.parse({ project_id: projectId, ...c });
      const got = JSON.parse(JSON.stringify(await s.app.services.dashboard.query(caller, body)));
      const expected = JSON.parse(JSON.stringify(await reference.query(caller, body)));
      assert.equal(diff(got, expected), null, JSON.stringify(c));
    }
  });

  test('the detail-by-year call answers as before', async () => {
    const res = await s.api.post('/api/v2/dashboard/detail/', { token: owner.token, form: { project: 'Equivalence', rcp: '85', year: 2030, count: 2 } });
    assert.equal(res.status, 200);
    const expected = JSON.parse(
      JSON.stringify(await reference.query(caller, DashboardBody.parse({ project_name: 'Equivalence', scenario: '85', year: 2030, count: 2 }))),
    );
    assert.equal(diff(dashboardView(res.body), expected), null);
  });

  test('after an asset edit and re-analysis the answer follows the new analysis', async () => {
    const before = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId } });
    const row = dashboardView(before.body).asset_table!.find((r) => r.name === 'Miami Hotel')!;
    const edit = await s.api.post('/api/v2/modify-bulk-asset/', {
      token: owner.token,
      json: { project_id: projectId, assets: [{ id: row.id, valuation: 1.8e8 }] },
    });
    assert.ok(edit.status === 200 || edit.status === 201, JSON.stringify(edit.body));
    await waitForAnalysis(s, owner.token, projectId);
    const after = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId } });
    assert.equal(after.body.climate_risk_card_data.total_asset_value, before.body.climate_risk_card_data.total_asset_value + 0.9e8);
    assert.equal(await compareAll('after an edit'), 2 * COMBOS.length);
  });
});
