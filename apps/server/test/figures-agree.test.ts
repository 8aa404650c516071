import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { sql } from 'kysely';
import { statements as valuationMigration } from '../src/infra/db/migrations/0032_valuation_denominator.js';
import { dashboardView, SCENARIO_LABELS, type AnalysisType, type DashboardAnswer, type ScenarioCode } from '@crp/contracts';
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
  // issue 37 item 2, the rest: percentages of the valuation the user gave. Valuations above the construction costs; the
  // same office as a construction cost only (its damage must be the same: the damage is of the construction cost); a mix.
  'Valued above cost': [
    { name: 'Kowloon Office', latitude: 22.28, longitude: 114.16, property_type: 'Office', valuation: 9e7, construction_cost: 4e7, revenue: 2e7 },
    {
      name: 'Manila Warehouse',
      latitude: 14.58,
      longitude: 120.98,
      property_type: 'Warehouse',
      valuation: 3e7,
      construction_cost: 1.8e7,
      revenue: 5e6,
      ownership: 60,
    },
    { name: 'Saigon Plant', latitude: 10.78, longitude: 106.7, property_type: 'Manufacture', valuation: 5e7, construction_cost: 2.5e7 },
  ],
  'Cost only': [
    { name: 'Kowloon Office', latitude: 22.28, longitude: 114.16, property_type: 'Office', construction_cost: 4e7, revenue: 2e7 },
    { name: 'Dhaka Depot', latitude: 23.81, longitude: 90.41, property_type: 'Warehouse', construction_cost: 8e6 },
    { name: 'Taipei Office', latitude: 25.03, longitude: 121.56, property_type: 'Office', construction_cost: 3.5e7, revenue: 1e7, ownership: 50 },
  ],
  Mixed: [
    { name: 'Harbour Hotel', latitude: 22.3, longitude: 114.17, property_type: 'Hotel', valuation: 1.2e8, construction_cost: 6e7 },
    { name: 'Macau Retail', latitude: 22.19, longitude: 113.54, property_type: 'Retail', construction_cost: 1.5e7 },
    { name: 'Guangzhou Office', latitude: 23.13, longitude: 113.26, property_type: 'Office', valuation: 4e7 },
    { name: 'Xiamen Warehouse', latitude: 24.48, longitude: 118.09, property_type: 'Warehouse' },
  ],
};
const VALUED = ['Valued above cost', 'Cost only', 'Mixed'];

/** The value the user gave for an asset (valuation, else construction cost) times its ownership, from the upload itself. */
const givenValue = (a: Record<string, unknown>) => {
  const v = Number(a.valuation ?? 0) > 0 ? Number(a.valuation) : Number(a.construction_cost ?? 0);
  return (v * Number(a.ownership ?? 100)) / 100;
};
/** Equal to the cent, or to the rounding of the figure shown (`digits` decimals) of a figure derived from rounded ones. */
const close = (x: number | null | undefined, y: number, tol: number) => typeof x === 'number' && Math.abs(x - y) <= tol + 1e-9 * Math.abs(y);

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
  test('card, dashboard, asset table, pivot rows, the exported XLSX and the summary workbook: the same Total Asset Value and percentages of the valuation given (construction cost only without one), at one scenario and year', async () => {
    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    assert.equal(list.status, 200);
    const cvarOf: Record<string, Record<string, number>> = {};
    for (const name of VALUED) {
      const data = PROJECTS[name]!;
      const card = list.body.data.find((p: { name: string }) => p.name === name);
      const f = card.default_filters as { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };
      const dash = await s.api.post('/api/v2/dashboard/', {
        token: owner.token,
        json: { project_id: card.project_id, analysis_type: f.analysis_type, scenario: f.scenario, year: f.year },
      });
      assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 300));
      const c = dash.body.climate_risk_card_data;
      const total = data.reduce((t, a) => t + givenValue(a), 0);
      const atCost = data.filter((a) => !(Number(a.valuation ?? 0) > 0) && Number(a.construction_cost ?? 0) > 0).length;
      // the Total Asset Value: the valuations given (construction cost without one), on the card and the dashboard
      assert.ok(close(c.total_asset_value, total, 0.01), `${name}: dashboard total ${c.total_asset_value} vs given ${total}`);
      assert.ok(close(card.total_value, total, 0.01), `${name}: card total ${card.total_value} vs given ${total}`);
      assert.equal(c.assets_valued_at_construction_cost, atCost, `${name}: assets valued at construction cost`);
      assert.ok(
        close(c.climate_value_at_risk_percentage, (100 * c.climate_value_at_risk) / total, 0.006),
        `${name}: CVaR % ${c.climate_value_at_risk_percentage}`,
      );
      assert.ok(
        close(c.residual_climate_value_at_risk_percentage, (100 * c.residual_climate_value_at_risk) / total, 0.006),
        `${name}: residual CVaR % ${c.residual_climate_value_at_risk_percentage}`,
      );
      assert.ok(c.climate_value_at_risk > 0, `${name}: a loss to compare`);
      // the asset table: each asset's percentage is of its own given value
      const table = dashboardView(dash.body as DashboardAnswer).asset_table!;
      cvarOf[name] = {};
      for (const a of data) {
        const row = table.find((r) => r.name === a.name)!;
        assert.ok(row, `${name}: ${String(a.name)} in the asset table`);
        cvarOf[name]![String(a.name)] = row.cvar!;
        const v = givenValue(a);
        if (v > 0) assert.ok(close(row.percentage, (100 * row.overall_loss!) / v, 0.006), `${name} ${String(a.name)}: ${row.percentage} % of ${v}`);
        else assert.equal(row.percentage, 0, `${name} ${String(a.name)}: no value, no percentage`);
      }
      // the pivot's data (the Download CSV rows, every scenario asked) at the dashboard's scenario and year: each hazard's
      // residual CVaR is the dashboard's bar, each row's CVaR % is of the asset's given value; the same in the real file
      const report = await s.api.post('/api/v2/download_csv_report/', {
        token: owner.token,
        form: { project_name: name, year_list: JSON.stringify([f.year]), scenario_list: JSON.stringify(['26', '45', '85']), analysis_type: f.analysis_type },
      });
      assert.equal(report.status, 200, JSON.stringify(report.body).slice(0, 300));
      const file = await fetch(s.url + report.body.url);
      assert.equal(file.status, 200);
      const wb = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: 'buffer' });
      const fileRows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Analysis!);
      const label = SCENARIO_LABELS[f.analysis_type][f.scenario];
      for (const [what, rows] of [
        ['pivot rows', report.body.success as Record<string, unknown>[]],
        ['exported file', fileRows],
      ] as const) {
        assert.equal(rows.length, data.length * dash.body.overall_bar_chart.length * 3, `${name} ${what}: every asset x hazard x scenario`);
        const shown = rows.filter((r) => r.Scenario === label && r.Year === f.year);
        assert.equal(shown.length, rows.length / 3, `${name} ${what}: one scenario-year is a third of the rows`);
        for (const bar of dash.body.overall_bar_chart as { hazard: string; rcvar: number; cvar: number }[]) {
          const mine = shown.filter((r) => r.Hazard === bar.hazard);
          const sum = (k: string) => mine.reduce((t, r) => t + (typeof r[k] === 'number' ? (r[k] as number) : 0), 0);
          assert.ok(
            close(sum('Residual 20-year expected loss (USD)'), bar.rcvar, 0.01 * mine.length + 0.01),
            `${name} ${what} ${bar.hazard}: ${sum('Residual 20-year expected loss (USD)')} vs ${bar.rcvar}`,
          );
          assert.ok(close(sum('20-year expected loss (USD)'), bar.cvar, 0.01 * mine.length + 0.01), `${name} ${what} ${bar.hazard}: CVaR`);
        }
        for (const r of shown) {
          const v = givenValue(data.find((a) => a.name === r.Asset)!);
          if (v > 0 && typeof r['20-year expected loss (USD)'] === 'number')
            assert.ok(
              close(r['20-year expected loss (%)'] as number, (100 * (r['20-year expected loss (USD)'] as number)) / v, 0.0001),
              `${name} ${what} ${String(r.Asset)} ${String(r.Hazard)}: CVaR %`,
            );
        }
      }
      // the summary workbook (the real file): its portfolio row at the scenario and year is the dashboard's
      const summary = await s.api.post('/api/v2/summary_report/', { token: owner.token, form: { project_name: name, analysis_type: f.analysis_type } });
      assert.equal(summary.status, 200, JSON.stringify(summary.body).slice(0, 300));
      const sb = XLSX.read(Buffer.from(await (await fetch(s.url + summary.body.url)).arrayBuffer()), { type: 'buffer' });
      const row = XLSX.utils.sheet_to_json<Record<string, number | string>>(sb.Sheets.Portfolio!).find((r) => r.Scenario === label && r.Year === f.year)!;
      assert.ok(row, `${name}: the summary has ${label} ${f.year}`);
      assert.ok(close(row['Total asset value (USD)'] as number, total, 0.01), `${name}: summary total ${row['Total asset value (USD)']}`);
      assert.equal(row['Assets valued at construction cost (no valuation given)'], atCost);
      assert.ok(
        close(row['20-year expected loss (USD)'] as number, c.climate_value_at_risk, 0.02),
        `${name}: summary CVaR ${row['20-year expected loss (USD)']} vs ${c.climate_value_at_risk}`,
      );
      assert.ok(close(row['Residual 20-year expected loss (USD)'] as number, c.residual_climate_value_at_risk, 0.02), `${name}: summary residual CVaR`);
      assert.ok(close(row['20-year expected loss (% of value)'] as number, c.climate_value_at_risk_percentage, 0.006), `${name}: summary CVaR %`);
      const assets = XLSX.utils.sheet_to_json<Record<string, number | string>>(sb.Sheets.Assets!);
      for (const a of data) {
        const r = assets.find((x) => x.Asset === a.name)!;
        assert.ok(close(r['Asset value (USD)'] as number, givenValue(a), 0.01), `${name} ${String(a.name)}: summary asset value`);
        const basis =
          Number(a.valuation ?? 0) > 0 ? 'valuation' : Number(a.construction_cost ?? 0) > 0 ? 'construction cost (no valuation given)' : 'none given';
        assert.equal(r['Value basis'], basis, `${name} ${String(a.name)}: value basis`);
      }
    }
    // the damage is of the construction cost: the same office valued at 90 M or given at its 40 M cost loses the same
    const twin = 'Kowloon Office';
    assert.equal(cvarOf['Valued above cost']![twin], cvarOf['Cost only']![twin], 'the same building, the same CVaR whatever its valuation');
  });

  test('migration 0032 brings a card total stored with the construction-cost denominator to the valuations', async () => {
    const cards = async () => (await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token })).body.data as { name: string; total_value: number }[];
    const before = await cards();
    // as an analysis stored before the change left it: the construction costs (+ content, inventory) x ownership
    for (const name of VALUED) {
      const old = PROJECTS[name]!.reduce((t, a) => t + (Number(a.construction_cost ?? 0) || Number(a.valuation ?? 0)) * (Number(a.ownership ?? 100) / 100), 0);
      await sql`update projects set summary = jsonb_set(summary, '{total_value}', to_jsonb(${old}::double precision)) where name = ${name}`.execute(s.db);
    }
    assert.notEqual((await cards()).find((c) => c.name === 'Valued above cost')!.total_value, before.find((c) => c.name === 'Valued above cost')!.total_value);
    for (const st of valuationMigration) await sql.raw(st).execute(s.db);
    const after = await cards();
    for (const name of Object.keys(PROJECTS)) {
      const total = PROJECTS[name]!.reduce((t, a) => t + givenValue(a), 0);
      assert.ok(close(after.find((c) => c.name === name)!.total_value, total, 0.01), `${name}: ${after.find((c) => c.name === name)!.total_value} vs ${total}`);
    }
  });
});
