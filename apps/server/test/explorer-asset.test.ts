import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AssetResult } from '@crp/contracts';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 37 item 3: the building-damage explorer opens on the asset it was opened for (its storeys, basement, occupancy,
 * construction and value per m2) and draws the building the analysis models, with the dashboard's expected annual damage.
 */
const TOWER = {
  name: 'Harbour tower',
  latitude: 22.2855,
  longitude: 114.1577,
  property_type: 'Office',
  valuation: 5e8,
  floors: 40,
  area: 2000,
  construction: 'concrete',
};
const SHED = { name: 'River shed', latitude: 23.02, longitude: 113.75, property_type: 'Warehouse', valuation: 2e7, floors: 1, area: 4000 };
const FLOODS = ['river_flood', 'storm_surge', 'rainfall_flood'] as const;

describe('building-damage explorer for an asset: the building as stored, the EAD of the dashboard', () => {
  let s: TestServer;
  let token: string;
  let projectId: number;
  before(async () => {
    s = await startServer({}, { jobs: true });
    token = (await onPaidPlan(s, await registerAndLogin(s.api))).token;
    const res = await s.api.post('/api/v2/create_project/', {
      token,
      json: { portfolio_name: 'Towers', data: [TOWER, SHED], portfolio_variables: ['River Flood', 'Storm Surge', 'Rainfall Flood'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, token, projectId);
    // the basement is set in the asset table (not an upload column): the tower has one, the shed is left unknown
    const tower = await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).where('name', '=', TOWER.name).executeTakeFirstOrThrow();
    const edit = await s.api.post('/api/v2/update_assets/', { token, json: { project_id: projectId, assets: [{ id: tower.id, basement: 'yes' }] } });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    assert.equal((await waitForAnalysis(s, token, projectId)).status, 'done');
  });
  after(() => s.close());

  const explorer = (asset: string, extra: Record<string, unknown> = {}) =>
    s.api.post('/api/v2/building_damage/', { token, json: { project_name: 'Towers', asset_name: asset, year: 2050, analysis_type: 'ssp', ...extra } });

  test("opens with the asset's own storeys, occupancy and value band, and its EAD is the stored analysis's for every flood hazard", async () => {
    const rows = (await s.api.post('/api/v2/asset_results/', { token, json: { project_id: projectId, scenarios: ['26', '45', '85'], years: [2050] } })).body
      .results as AssetResult[];
    let wet = 0;
    for (const [a, value] of [
      [TOWER, 5e8],
      [SHED, 2e7],
    ] as const) {
      const res = await explorer(a.name);
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      assert.equal(res.body.asset, true);
      assert.equal(res.body.inputs.stories, String(a.floors));
      assert.equal(res.body.inputs.occupancy, 'commercial');
      // what the asset has is preselected (no "unknown"); what it does not have stays unknown
      assert.equal(res.body.inputs.construction, a === TOWER ? 'concrete' : 'unknown');
      assert.equal(res.body.inputs.basement, a === TOWER ? 'yes' : 'unknown');
      // value per m2 of floor area (valuation / (area x storeys)), as the band's upper bound
      assert.equal(res.body.inputs.per_sq_m_value, a === TOWER ? 10000 : 5000);
      for (const h of FLOODS)
        for (const sc of ['26', '45', '85'] as const) {
          const row = rows.find((r) => r.asset_name === a.name && r.hazard === h && r.scenario === sc)!;
          assert.ok(row, `${a.name} ${h} ${sc} in the results`);
          const ead = res.body[h][sc].expected_annual_damage_ratio as number;
          assert.equal(res.body[h][sc].x_unit, 'years');
          assert.ok(
            Math.abs(ead * value - (row.expected_damage_usd ?? 0)) <= 1e-6 * value + 1,
            `${a.name} ${h} ${sc}: explorer EAD ${ead} x ${value} vs the analysis's expected damage ${row.expected_damage_usd}`,
          );
          if (ead > 0) wet++;
        }
    }
    assert.ok(wet >= 3, `some flood damage to compare (${wet} cells)`);
  });

  test("a selector moved off the asset's value changes the building: one storey instead of forty takes more of the value", async () => {
    const own = await explorer(SHED.name);
    const tower = await explorer(TOWER.name);
    const low = await explorer(TOWER.name, { stories: '1' });
    assert.equal(low.status, 200, JSON.stringify(low.body).slice(0, 300));
    assert.equal(low.body.inputs.stories, '1');
    assert.equal(low.body.inputs.occupancy, 'commercial', 'the other selectors stay on the asset');
    const sum = (b: typeof tower.body) => FLOODS.reduce((t, h) => t + (b[h]['85'].expected_annual_damage_ratio ?? 0), 0);
    assert.ok(sum(own.body) > 0, 'the shed floods');
    assert.ok(sum(low.body) > sum(tower.body), `one storey ${sum(low.body)} > forty ${sum(tower.body)}`);
    // stories beyond the old '3 or more' band are accepted; nonsense is a 400 naming the field
    assert.equal((await explorer(TOWER.name, { stories: 25 })).body.inputs.stories, '25');
    for (const bad of ['0', '301', 'many']) {
      const res = await explorer(TOWER.name, { stories: bad });
      assert.equal(res.status, 400, bad);
      assert.match(res.body.detail, /stories must be a whole number of storeys 1 to 300/);
    }
  });
});
