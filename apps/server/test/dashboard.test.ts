import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DashboardAnswer, dashboardView } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

describe('dashboard query', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    const data = [
      { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, revenue: 1e7 },
      { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7 },
      { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7 },
      { name: 'Phoenix Plant', latitude: 33.45, longitude: -112.07, property_type: 'Manufacture', valuation: 3e7, revenue: 4e7 },
    ];
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Dash', data, portfolio_variables: ['Extreme Heat', 'Drought', 'Wildfire'] },
    });
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(() => s.close());

  const setTier = async (tier: 'free' | 'enterprise') => {
    const all = tier === 'enterprise';
    await s.db
      .updateTable('companies')
      .set({
        tier,
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: true,
          climate_heatmap: true,
          portfolio_losses: all,
          rcp_year_loss_bars: all,
          asset_table: true,
        }),
      })
      .execute();
  };
  const query = (form: Record<string, string | number>) => s.api.post('/api/v2/dashboard/', { token: owner.token, form: { project_name: 'Dash', ...form } });

  test('cards add up over assets and hazards; adaptation never raises a loss', async () => {
    await setTier('enterprise');
    const res = await query({ analysis_type: 'ssp', scenario: '85', year: 2050, mitigation: 'true' });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
    const b = res.body;
    assert.equal(b.asset_count, 4);
    assert.equal(b.project.permission, 'owner');
    assert.equal(b.hazard_count, 6);
    const card = b.climate_risk_card_data;
    assert.equal(card.total_asset_value, 1.8e8);
    const tableRcvar = b.asset_table.overall_loss.reduce((s: number, v: number) => s + v, 0);
    assert.ok(Math.abs(tableRcvar - card.residual_climate_value_at_risk) < 1, `assets ${tableRcvar} vs card ${card.residual_climate_value_at_risk}`);
    assert.ok(card.residual_climate_value_at_risk <= card.climate_value_at_risk + 1e-6);
    assert.ok(Math.abs(card.avoided_loss - (card.climate_value_at_risk - card.residual_climate_value_at_risk)) < 0.02);
    for (const h of b.overall_bar_chart) assert.ok(h.rcvar <= h.cvar + 1e-6, `${h.hazard} rcvar ${h.rcvar} <= cvar ${h.cvar}`);
    assert.ok(b.overall.overall_risk >= 0 && b.overall.overall_risk <= 100);
    assert.ok(['low', 'medium', 'high'].includes(b.overall.label));
    // Per-asset data is sent once, in columns: every per-asset section has one value per selected asset.
    assert.equal(b.assets.name.length, 4);
    assert.equal(b.heatmap.scores.length, 6);
    for (const col of [
      ...b.heatmap.scores,
      ...b.heatmap_without_adaptation.scores,
      ...b.hazard_map_data.scores,
      ...Object.values(b.asset_table),
      b.typhoon_map_data.wind_ms,
    ])
      assert.equal((col as unknown[]).length, 4);
    assert.deepEqual(Object.values(b.hazard_map_data_with_continent).flat().sort(), [0, 1, 2, 3]);
    // ... and reads as rows, one per asset and hazard.
    const view = dashboardView(b);
    assert.equal(view.heatmap!.data.length, 4 * 6);
    assert.deepEqual(view.asset_table!.map((r) => r.name).sort(), ['Kowloon Warehouse', 'Madrid Office', 'Manila Office', 'Phoenix Plant']);
    assert.equal(view.hazard_map_data!.find((r) => r.name === 'Madrid Office')!.continent, 'europe');
    const heat = b.hazard_values['Extreme Heat'];
    assert.equal(heat[1], '°C');
    assert.ok(heat[0] > 20 && heat[2] >= 0);
    assert.ok(typeof b.key_finding_data.value_of_transition_policies === 'number');
  });

  test('identical queries at the same time get the same answer (built once, the others wait for it)', async () => {
    const f = { analysis_type: 'ssp', scenario: '26', year: 2065, variable: 'Drought' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => query(f)));
    for (const a of answers) {
      assert.equal(a.status, 200);
      assert.deepEqual(a.body, answers[0]!.body);
    }
    const bad = await Promise.all(Array.from({ length: 3 }, () => query({ analysis_type: 'ssp', year: 2063 })));
    for (const b of bad) assert.equal(b.status, 400, 'an error reaches every caller');
  });

  test('warming-driven CVaR at 8.5 is not below 2.6, and the cone is ordered', async () => {
    const res = await query({ analysis_type: 'ssp', scenario: '45', year: 2080, variable: 'Extreme Heat' });
    assert.equal(res.status, 200);
    assert.ok(res.body.key_finding_data.cvar_85 >= res.body.key_finding_data.cvar_26, JSON.stringify(res.body.key_finding_data));
    for (const p of res.body.cone_chart ?? []) assert.ok(p.high >= p.low);
  });

  test('the free tier gets no data for the sections it does not allow; enterprise does', async () => {
    await setTier('free');
    const free = await query({});
    assert.equal(free.body.tier_permissions.portfolio_losses, false);
    assert.equal(free.body.climate_risk_card_data, null);
    assert.equal(free.body.loss_bars_data, null);
    // Money leaks through no side door: key findings and the maximum exposure are portfolio losses too.
    assert.equal(free.body.key_finding_data, null);
    assert.equal(free.body.overall.Max_exposure, null);
    assert.ok(free.body.overall.overall_risk !== undefined);
    assert.equal(free.body.asset_table.climatic_score.length, 4);
    assert.ok(
      free.body.asset_table.climatic_score.some((v: number | null) => v !== null),
      'the table itself is shown',
    );
    // ... nor through the asset table: its loss columns are empty (the assets' losses add up to the portfolio's).
    for (const k of ['cvar', 'overall_loss', 'percentage', 'max_exposure']) assert.deepEqual(free.body.asset_table[k], [null, null, null, null], k);
    // A tier without the asset table gets neither the table nor the single-asset row (which is a table row).
    await s.db
      .updateTable('companies')
      .set({
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: true,
          climate_heatmap: true,
          portfolio_losses: false,
          rcp_year_loss_bars: false,
          asset_table: false,
        }),
      })
      .execute();
    const noTable = await query({ count: 1 });
    assert.equal(noTable.body.asset_table, null);
    assert.deepEqual(noTable.body.single_asset, []);
    await setTier('enterprise');
    const paid = await query({ analysis_type: 'rcp', scenario: '85', year: 2100 });
    assert.equal(paid.status, 200);
    assert.equal(paid.body.filters.year, 2050, 'rcp with 2100 is forced to 2050');
    assert.ok(paid.body.climate_risk_card_data.climate_value_at_risk >= 0);
    assert.ok(paid.body.key_finding_data.cvar_85 >= 0);
    assert.ok(paid.body.overall.Max_exposure > 0);
    assert.deepEqual(paid.body.loss_bars_data.years, [2020, 2030, 2050]);
    assert.equal(paid.body.cvar_chart_data.cvar.dollar.rcp_constant.length, 3);
    const cone2050 = paid.body.cone_chart.find((p: { year: number }) => p.year === 2050);
    const card = paid.body.climate_risk_card_data.climate_value_at_risk;
    assert.ok(Math.abs(cone2050.high - card) <= 1e-6 * Math.max(1, card) + 0.02, `chart ${cone2050.high} = card ${card}`);
  });

  test('the real answers match the documented OpenAPI schema (DashboardAnswer, strict: no undocumented field)', async () => {
    const check = (body: unknown, what: string) => {
      const r = DashboardAnswer.safeParse(body);
      assert.ok(r.success, `${what}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 5))}`);
    };
    await setTier('enterprise');
    for (const form of [
      {},
      { analysis_type: 'rcp', scenario: '26', year: 2030, mitigation: 'false', with_content: 'false' },
      { count: 1, adjusted_gdp: 'true' },
      { variable: 'Wildfire', property_type: 'Office' },
    ] as Record<string, string | number>[]) {
      const res = await query(form);
      assert.equal(res.status, 200);
      check(res.body, JSON.stringify(form));
    }
    const detail = await s.api.post('/api/v2/dashboard/detail/', { token: owner.token, form: { project: 'Dash', rcp: '45', year: 2050 } });
    assert.equal(detail.status, 200);
    check(detail.body, 'detail');
    // Gated sections are null in the answer and in the schema.
    await s.db
      .updateTable('companies')
      .set({
        tier_permissions: JSON.stringify({
          asset_level_risk_map: false,
          climate_variable_intensity: false,
          climate_heatmap: false,
          portfolio_losses: false,
          rcp_year_loss_bars: false,
          asset_table: false,
        }),
      })
      .execute();
    const none = await query({});
    check(none.body, 'no section allowed');
    assert.equal(none.body.assets, null, 'no per-asset section allowed: the asset block is not sent either');
    // The schema is not a rubber stamp: an undocumented field or a wrong type fails.
    assert.equal(DashboardAnswer.safeParse({ ...none.body, extra_section: [] }).success, false);
    assert.equal(DashboardAnswer.safeParse({ ...none.body, asset_count: 'four' }).success, false);
    await setTier('enterprise');
  });

  test('a tier without climate variable intensity gets no hazard scores through the severity rows (combined_data)', async () => {
    await s.db
      .updateTable('companies')
      .set({
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: false,
          climate_heatmap: true,
          portfolio_losses: true,
          rcp_year_loss_bars: true,
          asset_table: true,
        }),
      })
      .execute();
    const res = await query({});
    assert.equal(res.status, 200);
    assert.equal(res.body.hazard_values, null);
    assert.equal(res.body.hazard_values_2020_without_adaptation, null);
    assert.equal(res.body.combined_data, null);
    await setTier('enterprise');
    const paid = await query({});
    assert.equal(paid.body.combined_data.length, 6);
    assert.ok(paid.body.combined_data.every((c: { score: number | null; band: string }) => c.score === null || c.band !== 'No data'));
  });

  test('filters: property type and count select assets; errors name the field; others get 404', async () => {
    const offices = await query({ property_type: 'Office' });
    assert.equal(offices.body.asset_count, 2);
    const top = await query({ count: 1 });
    assert.equal(top.body.asset_count, 1);
    assert.equal(top.body.single_asset.length, 1);
    assert.equal((await query({ year: 2033 })).status, 400);
    const v = await query({ variable: 'Volcano' });
    assert.equal(v.status, 400);
    assert.match(v.body.detail, /variable/);
    const none = await s.api.post('/api/v2/dashboard/', { token: owner.token, form: {} });
    assert.equal(none.status, 400);
    const stranger = await registerAndLogin(s.api);
    assert.equal((await s.api.post('/api/v2/dashboard/', { token: stranger.token, form: { project_id: projectId } })).status, 404);
    const detail = await s.api.post('/api/v2/dashboard/detail/', { token: owner.token, form: { project: 'Dash', rcp: '85', year: 2030 } });
    assert.equal(detail.status, 200);
  });

  test("filters not sent: the caller's saved defaults (update_default_filter), else the project's", async () => {
    const projectDefaults = (await query({})).body.filters;
    assert.deepEqual([projectDefaults.analysis_type, projectDefaults.scenario, projectDefaults.year], ['ssp', '45', 2050]);
    const saved = await s.api.post('/api/project/update_default_filter/', {
      token: owner.token,
      form: { data: JSON.stringify({ analysis_type: 'rcp', scenario: '26', year: 2030 }) },
    });
    assert.equal(saved.status, 200);
    const mine = (await query({})).body.filters;
    assert.deepEqual([mine.analysis_type, mine.scenario, mine.year], ['rcp', '26', 2030]);
    // Sent filters still win.
    const sent = (await query({ analysis_type: 'ssp', scenario: '85', year: 2080 })).body.filters;
    assert.deepEqual([sent.analysis_type, sent.scenario, sent.year], ['ssp', '85', 2080]);
    await s.db.updateTable('users').set({ default_filters: null }).where('id', '=', owner.userId).execute();
  });
  test('per hazard, the dashboard and the results API give the same CVaR and residual CVaR, with assets at mitigation levels 3 and 1 (issue 37 item 2)', async () => {
    await setTier('enterprise');
    const ids = await s.db.selectFrom('assets').select(['id', 'position']).where('project_id', '=', projectId).orderBy('position').execute();
    const edit = await s.api.post('/api/v2/update_assets/', {
      token: owner.token,
      json: { project_id: projectId, assets: ids.map((r) => ({ id: r.id, mitigation_risk: [3, 1, 0, 3][r.position % 4] })) },
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    await waitForAnalysis(s, owner.token, projectId);
    const f = { analysis_type: 'ssp', scenario: '85', year: 2050 } as const;
    const dash = await query({ ...f, mitigation: 'true' });
    assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 400));
    const rows = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: projectId, scenarios: [f.scenario], years: [f.year] } });
    assert.equal(rows.status, 200, JSON.stringify(rows.body).slice(0, 400));
    const byHazard = new Map<string, { cvar: number; rcvar: number }>();
    for (const r of rows.body.results as { hazard_label: string; cvar_usd: number | null; residual_cvar_usd: number | null }[]) {
      const t = byHazard.get(r.hazard_label) ?? { cvar: 0, rcvar: 0 };
      t.cvar += r.cvar_usd ?? 0;
      t.rcvar += r.residual_cvar_usd ?? 0;
      byHazard.set(r.hazard_label, t);
    }
    let mitigated = 0;
    for (const h of dash.body.overall_bar_chart as { hazard: string; cvar: number; rcvar: number }[]) {
      const want = byHazard.get(h.hazard);
      assert.ok(want, `${h.hazard} in the results API`);
      const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b)) + 0.05 * rows.body.assets;
      assert.ok(near(h.cvar, want.cvar), `${h.hazard}: dashboard CVaR ${h.cvar} vs results API ${want.cvar}`);
      assert.ok(near(h.rcvar, want.rcvar), `${h.hazard}: dashboard residual CVaR ${h.rcvar} vs results API ${want.rcvar}`);
      if (h.rcvar < h.cvar - 1) mitigated++;
    }
    // the mitigation levels lower some hazards' residual CVaR: a dashboard that swapped residual and gross would differ
    assert.ok(mitigated >= 2, `hazards whose residual CVaR is below the CVaR: ${mitigated}`);
    assert.ok(new Set([...byHazard.values()].map((v) => Math.round(v.cvar))).size >= 3, 'hazards carry different money (a swap would show)');
  });
});
