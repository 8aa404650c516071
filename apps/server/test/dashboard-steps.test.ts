/**
 * Issue 24: the dashboard answer is built in named steps (filter -> selection -> figures -> sections), each a function
 * of its own module. Each step is called here directly on a small real analysed project (the stored analysis read by
 * the results reader) and its output checked against the full answer the server sends for the same filters: the
 * resolved filters against the answer's filters, the selection against its assets and climate scores, the figures
 * against its cards, charts and averages, and the sections, put together, against the whole answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DashboardBody, HAZARDS } from '@crp/contracts';
import { loadProjectResults } from '../src/modules/analysis/results-reader.js';
import { hazardKeysOf, ResultsCache, seriesKeyOf, type CachedResults } from '../src/modules/dashboard/dashboard-cache.js';
import { r2 } from '../src/modules/dashboard/dashboard-columns.js';
import { resolveFilters } from '../src/modules/dashboard/dashboard-filter.js';
import { meanScore, portfolioSeries, portfolioTotals } from '../src/modules/dashboard/dashboard-figures.js';
import { answerOf } from '../src/modules/dashboard/dashboard-sections.js';
import {
  baselineSums,
  climateScoresOf,
  moneyAt,
  moneySumsOf,
  selectAssets,
  yearFiguresOf,
  type MoneySums,
} from '../src/modules/dashboard/dashboard-selection.js';
import { yearKeyOf } from '../src/modules/dashboard/year-batches-compute.js';
import { precomputedFigures, startYearBatches } from '../src/modules/dashboard/year-batches.js';
import type { ProjectRow } from '../src/infra/db/schema.js';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const DATA = [
  { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, revenue: 1e7 },
  { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7, content_value: 5e6 },
  { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7, ownership: 60 },
  { name: 'Phoenix Plant', latitude: 33.45, longitude: -112.07, property_type: 'Manufacture', valuation: 3e7, revenue: 4e7, yearly_inventory_value: 2e6 },
  { name: 'Miami Hotel', latitude: 25.77, longitude: -80.19, property_type: 'Hotel', valuation: 9e7, revenue: 3e7 },
  { name: 'Sydney Residential', latitude: -33.87, longitude: 151.21, property_type: 'Residential', valuation: 7e7, revenue: 0 },
];
const LABELS = ['Wildfire', 'Rainfall Flood', 'Extreme Heat', 'Sea Level Rise', 'Drought'];
const COMBOS: Record<string, unknown>[] = [
  {},
  { analysis_type: 'rcp', scenario: '45', year: 2030, mitigation: false },
  { analysis_type: 'ssp', scenario: '85', year: 2100, variable: 'Wildfire', with_content: false },
  { property_type: 'office', adjusted_gdp: true },
  { count: 2 },
];

/** The whole answer built through the four steps over a decoded analysis (what the server does). */
function answerVia(
  cached: CachedResults,
  project: ProjectRow,
  me: { data_edit_permissions: unknown; default_filters: unknown },
  body: ReturnType<typeof DashboardBody.parse>,
  tierPermissions: Parameters<typeof answerOf>[0]['tierPermissions'],
  precomputed = false,
) {
  const f = resolveFilters(project, me.default_filters, body);
  const sel = selectAssets(cached, f, body);
  // the server's path (precomputed figures when there are), or the event loop's own from the money at the year
  let atYear: MoneySums, assetScores: (number | null)[], at2020: MoneySums;
  if (precomputed) {
    ({ atYear, assetScores } = yearFiguresOf(sel));
    at2020 = sel.syIdx === sel.baseIdx ? atYear : baselineSums(sel);
  } else {
    const mm = moneyAt(sel, sel.syIdx);
    atYear = moneySumsOf(sel, mm);
    assetScores = climateScoresOf(sel, mm, f.mitigation, sel.syIdx);
    at2020 = sel.syIdx === sel.baseIdx ? atYear : moneySumsOf(sel, moneyAt(sel, sel.baseIdx));
  }
  const totals = portfolioTotals(sel, atYear, assetScores);
  const edits = (me.data_edit_permissions ?? {}) as Record<string, boolean>;
  const series = portfolioSeries(sel, body);
  return answerOf({
    project,
    role: 'owner',
    tierPermissions,
    edits,
    body,
    sel,
    atYear,
    at2020,
    assetScores,
    totals,
    series,
    ownData: null,
    fragments: undefined,
  });
}

describe('dashboard steps: filter, selection, figures, sections (issue 24)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Steps', data: DATA, portfolio_variables: LABELS } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
    const u = await s.db.selectFrom('users').select(['company_id']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
    await s.db
      .updateTable('companies')
      .set({
        tier: 'enterprise',
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: true,
          climate_heatmap: true,
          portfolio_losses: true,
          rcp_year_loss_bars: true,
          asset_table: true,
        }),
      })
      .where('id', '=', u.company_id)
      .execute();
  });
  after(() => s.close());

  for (const c of COMBOS) {
    test(`each step agrees with the answer: ${JSON.stringify(c)}`, async () => {
      const res = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId, ...c } });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      const answer = res.body;
      const project = await s.db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
      const me = await s.db.selectFrom('users').select(['default_filters', 'data_edit_permissions']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
      const body = DashboardBody.parse({ project_id: projectId, ...c });

      // Step 1: the filters.
      const f = resolveFilters(project, me.default_filters, body);
      assert.deepEqual(
        { analysis_type: f.at, scenario: f.sc, year: f.year, mitigation: f.mitigation },
        { analysis_type: answer.filters.analysis_type, scenario: answer.filters.scenario, year: answer.filters.year, mitigation: answer.filters.mitigation },
      );
      assert.deepEqual(
        f.hazards.map((h) => HAZARDS.find((x) => x.key === h)!.label),
        c.variable ? [c.variable] : (project.portfolio_variables as string[]),
      );

      // Step 2: the selection (assets, climate scores).
      const cached = await new ResultsCache(64 * 2 ** 20).get('steps', () => loadProjectResults(s.db, projectId));
      const sel = selectAssets(cached, f, body);
      assert.equal(sel.N, answer.asset_count);
      assert.deepEqual(
        sel.idx.map((i) => sel.R.assets[i]!.id),
        answer.assets.id,
      );
      const money = moneyAt(sel, sel.syIdx);
      const assetScores = climateScoresOf(sel, money, f.mitigation, sel.syIdx);
      assert.deepEqual(assetScores, answer.asset_table.climatic_score);

      // Step 3: the figures (cards, series, averages).
      const atYear = moneySumsOf(sel, money);
      const totals = portfolioTotals(sel, atYear, assetScores);
      const card = answer.climate_risk_card_data;
      assert.equal(r2(totals.cvarTot), card.climate_value_at_risk);
      assert.equal(r2(totals.rcvarTot), card.residual_climate_value_at_risk);
      assert.equal(r2(totals.totalValue), card.total_asset_value);
      assert.equal(r2(totals.eal), card.expected_annual_loss);
      assert.equal(totals.overallRisk, answer.overall.overall_risk);
      const series = portfolioSeries(sel, body);
      for (const row of answer.cone_chart) assert.equal(r2(series.portfolioCvar('45', row.year).cvar), row.mid);
      f.hazards.forEach((h, k) => assert.equal(meanScore(sel, k, sel.syIdx, f.mitigation), answer.heatmap_average[HAZARDS.find((x) => x.key === h)!.label]));

      // Step 4: the sections, put together, are the whole answer.
      const at2020 = sel.syIdx === sel.baseIdx ? atYear : moneySumsOf(sel, moneyAt(sel, sel.baseIdx));
      const tierPermissions = answer.tier_permissions;
      const built = answerOf({
        project,
        role: 'owner',
        tierPermissions,
        edits: (me.data_edit_permissions ?? {}) as Record<string, boolean>,
        body,
        sel,
        atYear,
        at2020,
        assetScores,
        totals,
        series,
        ownData: null,
        fragments: undefined,
      });
      assert.deepEqual(JSON.parse(JSON.stringify(built)), answer);
    });
  }

  test('the scenario-years precomputed in a worker thread answer what the engine pass answers, to the last bit (issue 22)', async () => {
    const project = await s.db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
    const me = await s.db.selectFrom('users').select(['default_filters', 'data_edit_permissions']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
    const load = () => loadProjectResults(s.db, projectId);
    const plain = await new ResultsCache(64 * 2 ** 20).get('plain', load);
    const pre = await new ResultsCache(64 * 2 ** 20).get('pre', load);
    // the decoded arrays are shared with the worker, not copied
    for (const k of ['ead', 'tail100', 'intensity', 'score', 'scoreResidual'] as const) assert.ok(pre.R.chunks[0]![k].buffer instanceof SharedArrayBuffer, k);
    const hazards = hazardKeysOf(project.portfolio_variables as string[]);
    const defaults = project.default_filters as { analysis_type: 'ssp'; scenario: '45'; year: number };
    assert.deepEqual([defaults.analysis_type, defaults.scenario], ['ssp', '45']);
    startYearBatches(pre, hazards, { at: 'ssp', sc: '45', year: defaults.year });
    await pre.years!.done;
    assert.equal(pre.years!.error, undefined);
    assert.equal(
      pre.years!.pa.size,
      3 * 17 + 3 * 3 + 2 * 17 + hazards.length,
      'every SSP (with 2020) and RCP scenario-year, the default scenario also without content and GDP adjusted, each hazard alone at the default year',
    );
    // every stored scenario-year's money figures at those options (SSP 2020 of the three scenarios is one stored year)
    // (each hazard alone: at the default year and, for its 2020 bars, at the baseline)
    assert.equal(pre.years!.figures.size, 3 * 16 + 1 + 3 * 3 + 2 * 17 + 2 * hazards.length);
    // and the means of every stored scenario-year, before any query asked for them
    assert.equal(pre.means.size, (3 * 16 + 1 + 3 * 3) * hazards.length * 5);
    assert.equal(plain.means.size, 0);
    assert.ok(pre.years!.ms! > 0);
    // each property type's series came from the worker (the loop below checks them against the engine's)
    for (const t of ['Office', 'Warehouse']) assert.ok(pre.series.get(seriesKeyOf('ssp', '85', hazards, true, false, t)), t);
    assert.equal(plain.series.get(seriesKeyOf('ssp', '85', hazards, true, false, 'Office')), undefined);
    // so did the whole portfolio's at every content and GDP choice and each hazard's alone (no longer on the event loop)
    for (const [hs, content, gdp] of [
      [hazards, true, false],
      [hazards, false, true],
      [['wildfire'], true, false],
    ] as const)
      for (const at of ['ssp', 'rcp'] as const)
        for (const sc of ['26', '45', '85'] as const) assert.ok(pre.series.get(seriesKeyOf(at, sc, hs, content, gdp, 'All')));
    assert.ok(pre.hazardSeries.get(seriesKeyOf('rcp', '85', hazards, false, false, 'All')));
    const tierPermissions = (await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: projectId } })).body.tier_permissions;
    const fast: Record<string, unknown>[] = [
      {},
      { analysis_type: 'rcp', scenario: '45', year: 2030, mitigation: false },
      { analysis_type: 'ssp', scenario: '26', year: 2020 },
      { analysis_type: 'ssp', scenario: '85', year: 2100, property_type: 'office' },
      { analysis_type: 'rcp', scenario: '85', year: 2050, property_type: 'Warehouse' },
      { year: 2075, count: 2 },
      { property_type: 'Office', count: 1 },
      { property_type: 'Castle' },
      { variable: 'Wildfire' },
      { variable: 'Drought', property_type: 'Office' },
      { variable: 'Rainfall Flood', count: 3, mitigation: false },
      { with_content: false },
      { with_content: false, mitigation: false, analysis_type: 'ssp', scenario: '45', year: 2020 },
      { adjusted_gdp: true, analysis_type: 'ssp', scenario: '45', year: 2040 },
      { adjusted_gdp: true, analysis_type: 'ssp', scenario: '45', year: 2100, property_type: 'Office' },
    ];
    const slow: Record<string, unknown>[] = [
      { variable: 'Wildfire', analysis_type: 'ssp', scenario: '85', year: 2100 },
      { variable: 'Sea Level Rise', with_content: false },
      { with_content: false, adjusted_gdp: true },
      { analysis_type: 'rcp', scenario: '85', year: 2050, with_content: false },
    ];
    for (const c of [...fast, ...slow]) {
      const body = DashboardBody.parse({ project_id: projectId, ...c });
      const f = resolveFilters(project, me.default_filters, body);
      const a = selectAssets(plain, f, body);
      const b = selectAssets(pre, f, body);
      const alone = f.hazards.length < hazards.length ? f.hazards[0] : '';
      const looked = pre.years!.pa.get(yearKeyOf(f.at, f.sc, f.year, f.withContent, !!f.opt.gdpAdjusted, alone));
      if (fast.includes(c)) assert.equal(b.pa, looked, `${JSON.stringify(c)}: a lookup`);
      else assert.notEqual(b.pa, looked, `${JSON.stringify(c)}: the engine pass`);
      assert.deepEqual(b.idx, a.idx);
      assert.ok(
        Buffer.from(b.pa.buffer, b.pa.byteOffset, b.pa.byteLength).equals(Buffer.from(a.pa.buffer, a.pa.byteOffset, a.pa.byteLength)),
        JSON.stringify(c),
      );
      for (const s of ['45', '85'] as const) {
        const x = portfolioSeries(a, body).seriesOf(f.hazards, s);
        const y = portfolioSeries(b, body).seriesOf(f.hazards, s);
        assert.deepEqual([y.loss, y.lossResidual, y.at(f.year)], [x.loss, x.lossResidual, x.at(f.year)]);
      }
      // the money figures of every asset at the year were looked up too (when every asset is selected)
      const figures = b.everyAsset ? precomputedFigures(pre, f, b.syIdx) : undefined;
      assert.equal(!!figures, fast.includes(c) && b.everyAsset, `${JSON.stringify(c)}: figures`);
      if (figures && b.syIdx !== b.baseIdx) assert.ok(precomputedFigures(pre, f, b.baseIdx), `${JSON.stringify(c)}: 2020 figures`);
      const built = [plain, pre].map((cached, i) => JSON.stringify(answerVia(cached, project, me, body, tierPermissions, i === 1)));
      assert.equal(built[1], built[0], JSON.stringify(c));
    }
  });

  test('map clusters carry the mean score of their assets (what the world view is coloured by) besides the highest', async () => {
    const post = (json: Record<string, unknown>) => s.api.post('/api/v2/dashboard/map/', { token: owner.token, json: { project_id: projectId, ...json } });
    const pts = await post({});
    assert.equal(pts.body.clustered, false);
    const p = pts.body.points as { latitude: number[]; longitude: number[]; score: (number | null)[] };
    s.app.services.dashboard.mapPointsMax = 2;
    try {
      const world = await post({ zoom: 0 });
      assert.equal(world.body.clustered, true);
      // The grid the server promises: cells of 48 px of a 512-pixel world at zoom 0.
      const cell = (360 / 512) * 48;
      const groups = new Map<string, (number | null)[]>();
      p.latitude.forEach((lat, n) => {
        const k = `${Math.floor(p.longitude[n]! / cell)}:${Math.floor(lat / cell)}`;
        groups.set(k, [...(groups.get(k) ?? []), p.score[n]!]);
      });
      const expected = [...groups.values()].map((g) => {
        const scored = g.filter((v): v is number => v !== null);
        return [g.length, scored.length ? Math.max(...scored) : null, scored.length ? Math.round(scored.reduce((a, b) => a + b, 0) / scored.length) : null];
      });
      const got = world.body.clusters.map((c: { count: number; score: number | null; mean: number | null }) => [c.count, c.score, c.mean]);
      assert.deepEqual(got, expected);
    } finally {
      s.app.services.dashboard.mapPointsMax = 5000;
    }
  });
});
