/**
 * Issue 22 item 3 (the dashboard at scale): the asset table, heat map and maps are paged, sorted, searched and
 * clustered on the server. Every page is checked against the full answer (per_asset 'columns', itself compared with
 * the frozen oracle in dashboard-equivalence.test.ts) over real HTTP on a real analysed project: the rows of all pages
 * are the answer's rows cell by cell, sorted orders are what a stable sort of those rows gives (empty values last),
 * searches and id look-ups pick the right rows, map points are the answer's map rows and clusters add up to the
 * selection. Bad input gets a 400 naming the field; the tier and the project role are enforced.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dashboardView, type DashboardAssetRow } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const DATA = [
  { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, revenue: 1e7 },
  { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7, content_value: 5e6 },
  { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7, ownership: 60 },
  { name: 'Phoenix Plant', latitude: 33.45, longitude: -112.07, property_type: 'Manufacture', valuation: 3e7, revenue: 4e7, yearly_inventory_value: 2e6 },
  { name: 'Dhaka Depot', latitude: 23.81, longitude: 90.41, property_type: 'Warehouse', valuation: 8e6, revenue: 3e6 },
  { name: 'Miami Hotel', latitude: 25.77, longitude: -80.19, property_type: 'Hotel', valuation: 9e7, revenue: 3e7 },
  { name: 'Oslo Retail', latitude: 59.91, longitude: 10.75, property_type: 'Retail', valuation: 2e7, revenue: 5e6 },
  { name: 'Lagos Office', latitude: 6.52, longitude: 3.38, property_type: 'Office', valuation: 1.5e7, revenue: 4e6 },
  { name: 'Sydney Residential', latitude: -33.87, longitude: 151.21, property_type: 'Residential', valuation: 7e7, revenue: 0 },
  { name: 'Bangkok Plant', latitude: 13.75, longitude: 100.5, property_type: 'Manufacture', valuation: 2.5e7, revenue: 1.2e7 },
  { name: 'Kowloon Annex', latitude: 22.32, longitude: 114.21, property_type: 'Warehouse' },
];
const LABELS = ['Wildfire', 'Landslide', 'Rainfall Flood', 'Extreme Heat', 'Extreme Cold', 'Snowfall', 'Sea Level Rise', 'Drought'];
const COMBOS: Record<string, unknown>[] = [
  {},
  { analysis_type: 'rcp', scenario: '45', year: 2030, mitigation: false },
  { variable: 'Wildfire', with_content: false },
  { property_type: 'office' },
  { count: 4, adjusted_gdp: true },
];

/** A stable sort of the rows by a column, empty values (null, '') last in either order: what the server promises. */
function expectedOrder(rows: DashboardAssetRow[], key: keyof DashboardAssetRow, order: 'asc' | 'desc'): number[] {
  const v = (r: DashboardAssetRow) => {
    const x = r[key];
    return x === null || x === undefined || x === '' ? null : typeof x === 'string' ? x.toLowerCase() : Number(x);
  };
  return rows
    .map((r, n) => ({ n, x: v(r) }))
    .sort((a, b) =>
      a.x === null || b.x === null
        ? a.x === b.x
          ? a.n - b.n
          : a.x === null
            ? 1
            : -1
        : a.x === b.x
          ? a.n - b.n
          : (a.x < b.x ? -1 : 1) * (order === 'asc' ? 1 : -1),
    )
    .map((e) => e.n);
}
const strip = ({ position: _p, hazards: _h, ...row }: Record<string, unknown>) => row;

describe('dashboard pages: asset table, heat map and maps from the server (issue 22 item 3)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Pages', data: DATA, portfolio_variables: LABELS } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
    await enterprise();
  });
  after(() => s.close());

  const enterprise = async () => {
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
  };
  const post = (path: string, json: Record<string, unknown>, token = owner.token) => s.api.post(path, { token, json: { project_id: projectId, ...json } });
  const full = async (c: Record<string, unknown>) => {
    const res = await post('/api/v2/dashboard/', c);
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    return dashboardView(res.body);
  };
  /** Every page of the asset table, `limit` rows at a time. */
  const allPages = async (c: Record<string, unknown>, limit: number) => {
    const rows: Record<string, unknown>[] = [];
    let total = -1;
    for (let offset = 0; total < 0 || offset < total; offset += limit) {
      const res = await post('/api/v2/dashboard/assets/', { ...c, offset, limit });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      total = res.body.total;
      assert.ok(res.body.rows.length <= limit);
      rows.push(...res.body.rows);
      if (res.body.rows.length === 0) break;
    }
    assert.equal(rows.length, total);
    return rows;
  };

  test("per_asset 'pages' leaves the per-asset sections out and changes nothing else", async () => {
    for (const c of COMBOS) {
      const cols = await post('/api/v2/dashboard/', c);
      const pages = await post('/api/v2/dashboard/', { ...c, per_asset: 'pages' });
      assert.equal(pages.status, 200);
      for (const k of [
        'assets',
        'asset_table',
        'heatmap',
        'heatmap_without_adaptation',
        'hazard_map_data',
        'hazard_map_data_with_continent',
        'typhoon_map_data',
      ]) {
        assert.ok(k in cols.body, k);
        assert.ok(!(k in pages.body), `${k} is left out`);
        delete cols.body[k];
      }
      assert.equal(pages.body.per_asset_total, pages.body.asset_count);
      delete pages.body.per_asset_total;
      assert.deepEqual(pages.body, cols.body, JSON.stringify(c));
      assert.ok(JSON.stringify(pages.body).length < JSON.stringify(cols.body).length + 1);
    }
  });

  test("the pages of the asset table are the answer's rows, cell by cell, with the hazard scores of the map", async () => {
    for (const c of COMBOS) {
      const view = await full(c);
      const rows = await allPages(c, 3);
      assert.deepEqual(rows.map(strip), view.asset_table, JSON.stringify(c));
      rows.forEach((r, n) => {
        assert.equal(r.position, n);
        assert.deepEqual(r.hazards, view.hazard_map_data![n]!.scores, `${JSON.stringify(c)} hazards of ${String(r.name)}`);
      });
    }
  });

  test("sorting by any column gives a stable sort of the answer's rows, empty values last", async () => {
    const view = await full({});
    const rows = view.asset_table!;
    for (const [key, order] of [
      ['overall_loss', 'desc'],
      ['overall_loss', 'asc'],
      ['name', 'asc'],
      ['climatic_score', 'desc'],
      ['valuation', 'asc'],
      ['content_value', 'desc'],
      ['type', 'desc'],
      ['basement', 'asc'],
      ['loss_100_year', 'desc'],
    ] as const) {
      const got = await allPages({ sort: key, order }, 4);
      assert.deepEqual(
        got.map((r) => r.position),
        expectedOrder(rows, key, order),
        `${key} ${order}`,
      );
    }
    // text columns under other filters and the other order: each asset's rank is kept per analysis, not per filter set
    const other = { analysis_type: 'ssp', scenario: '85', year: 2050 };
    const otherRows = (await full(other)).asset_table!;
    for (const [key, order] of [
      ['name', 'desc'],
      ['type', 'asc'],
    ] as const) {
      const got = await allPages({ ...other, sort: key, order }, 4);
      assert.deepEqual(
        got.map((r) => r.position),
        expectedOrder(otherRows, key, order),
        `${key} ${order} at ${JSON.stringify(other)}`,
      );
    }
    // position desc is the upload order reversed
    const rev = await post('/api/v2/dashboard/assets/', { sort: 'position', order: 'desc', limit: 500 });
    assert.deepEqual(
      rev.body.rows.map((r: { name: string }) => r.name),
      rows.map((r) => r.name).reverse(),
    );
  });

  test('search (name or property type, any case) and ids narrow the rows; total follows', async () => {
    const view = await full({});
    const office = await post('/api/v2/dashboard/assets/', { search: 'OFFICE', sort: 'overall_loss', order: 'desc', limit: 2 });
    assert.equal(office.status, 200);
    const expected = expectedOrder(view.asset_table!, 'overall_loss', 'desc').filter(
      (n) => /office/i.test(view.asset_table![n]!.name) || /office/i.test(view.asset_table![n]!.type ?? ''),
    );
    assert.equal(office.body.total, expected.length);
    assert.equal(office.body.total, 3);
    assert.deepEqual(
      office.body.rows.map((r: { position: number }) => r.position),
      expected.slice(0, 2),
    );
    const kowloon = await post('/api/v2/dashboard/assets/', { search: 'kowloon' });
    assert.deepEqual(
      kowloon.body.rows.map((r: { name: string }) => r.name),
      ['Kowloon Warehouse', 'Kowloon Annex'],
    );
    const none = await post('/api/v2/dashboard/assets/', { search: 'no such asset' });
    assert.deepEqual([none.body.total, none.body.rows.length], [0, 0]);
    const ids = [view.asset_table![5]!.id, view.asset_table![1]!.id, 999_999];
    const byId = await post('/api/v2/dashboard/assets/', { ids });
    assert.deepEqual(
      byId.body.rows.map((r: { id: number }) => r.id),
      ids.slice(0, 2),
    );
    assert.deepEqual(strip(byId.body.rows[0]), view.asset_table![5]);
    const past = await post('/api/v2/dashboard/assets/', { offset: 50 });
    assert.deepEqual([past.body.total, past.body.rows.length], [DATA.length, 0]);
  });

  test("heat map pages are the answer's heat maps (with and without adaptation), sortable by a hazard", async () => {
    for (const c of COMBOS) {
      const view = await full(c);
      for (const adaptation of [true, false]) {
        const h = adaptation ? view.heatmap! : view.heatmap_without_adaptation!;
        const page = await post('/api/v2/dashboard/heatmap/', { ...c, adaptation, limit: 500 });
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.deepEqual(page.body.hazards, h.hazards);
        assert.deepEqual(page.body.names, h.assets);
        const triples: [number, number, number | null][] = [];
        page.body.names.forEach((_: string, n: number) => h.hazards.forEach((_h, k) => triples.push([k, n, page.body.scores[k][n]])));
        assert.deepEqual(triples, h.data, `${JSON.stringify(c)} adaptation ${adaptation}`);
      }
    }
    const view = await full({});
    const h = view.heatmap!;
    const k = h.hazards.indexOf('Extreme Heat');
    const scoreOf = (n: number) => h.data[n * h.hazards.length + k]![2];
    const byHeat = await post('/api/v2/dashboard/heatmap/', { sort: 'Extreme Heat', order: 'desc', limit: 5, offset: 2 });
    const expected = h.assets
      .map((_, n) => n)
      .sort((a, b) => {
        const x = scoreOf(a),
          y = scoreOf(b);
        return x === null || y === null ? (x === y ? a - b : x === null ? 1 : -1) : x === y ? a - b : y - x;
      });
    assert.deepEqual(
      byHeat.body.names,
      expected.slice(2, 7).map((n) => h.assets[n]),
    );
    assert.equal(byHeat.body.total, DATA.length);
  });

  test('map: every point below the threshold, clusters of the viewport above it', async () => {
    const view = await full({ mitigation: false });
    const pts = await post('/api/v2/dashboard/map/', { mitigation: false });
    assert.equal(pts.status, 200, JSON.stringify(pts.body));
    assert.equal(pts.body.clustered, false);
    assert.deepEqual(
      pts.body.points.name,
      view.hazard_map_data!.map((r) => r.name),
    );
    assert.deepEqual(
      pts.body.points.score,
      view.hazard_map_data!.map((r) => r.climate_score),
    );
    const fire = await post('/api/v2/dashboard/map/', { mitigation: false, colour_by: 'Wildfire' });
    assert.deepEqual(
      fire.body.points.score,
      view.hazard_map_data!.map((r) => r.scores.Wildfire),
    );
    assert.deepEqual(pts.body.bounds, [-112.07, -33.87, 151.21, 59.91]);

    s.app.services.dashboard.mapPointsMax = 5;
    try {
      const world = await post('/api/v2/dashboard/map/', { zoom: 0 });
      assert.equal(world.body.clustered, true);
      assert.equal(world.body.points, null);
      assert.equal(
        world.body.clusters.reduce((t: number, c: { count: number }) => t + c.count, 0),
        DATA.length,
      );
      assert.ok(world.body.clusters.length < DATA.length, 'zoom 0 groups assets');
      const z3 = await post('/api/v2/dashboard/map/', { zoom: 3 });
      const kowloon = z3.body.clusters.find((c: { count: number; latitude: number }) => Math.abs(c.latitude - 22.3) < 1);
      assert.equal(kowloon?.count, 2, 'the two Kowloon assets share a cluster at zoom 3, alone');
      assert.ok(Math.abs(kowloon.longitude - 114.215) < 1e-9);
      const scores = view.hazard_map_data!.filter((r) => r.name.startsWith('Kowloon'));
      const withAdaptation = await full({});
      const maxScore = Math.max(...withAdaptation.hazard_map_data!.filter((r) => r.name.startsWith('Kowloon')).map((r) => r.climate_score ?? -1));
      assert.equal(scores.length, 2);
      assert.equal(kowloon.score, maxScore);
      const zoomed = await post('/api/v2/dashboard/map/', { zoom: 14, bbox: [114, 22, 115, 23] });
      assert.deepEqual(zoomed.body.clusters.map((c: { count: number; name: string | null }) => [c.count, c.name]).sort(), [
        [1, 'Kowloon Annex'],
        [1, 'Kowloon Warehouse'],
      ]);
      const empty = await post('/api/v2/dashboard/map/', { zoom: 5, bbox: [0, -10, 1, -9] });
      assert.deepEqual(empty.body.clusters, []);
    } finally {
      s.app.services.dashboard.mapPointsMax = 5000;
    }
  });

  test('bad input gets a 400 naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/v2/dashboard/assets/', { limit: 501 }, 'limit'],
      ['/api/v2/dashboard/assets/', { limit: 0 }, 'limit'],
      ['/api/v2/dashboard/assets/', { offset: -1 }, 'offset'],
      ['/api/v2/dashboard/assets/', { sort: 'password' }, 'sort'],
      ['/api/v2/dashboard/assets/', { order: 'sideways' }, 'order'],
      ['/api/v2/dashboard/assets/', { search: 'x'.repeat(101) }, 'search'],
      ['/api/v2/dashboard/assets/', { ids: ['a'] }, 'ids'],
      ['/api/v2/dashboard/assets/', { year: 2031 }, 'year'],
      ['/api/v2/dashboard/heatmap/', { sort: 'No such hazard' }, 'sort'],
      ['/api/v2/dashboard/heatmap/', { limit: 1000 }, 'limit'],
      ['/api/v2/dashboard/map/', { bbox: [0, 0, 1] }, 'bbox'],
      ['/api/v2/dashboard/map/', { bbox: [0, 0, 1, 95] }, 'bbox'],
      ['/api/v2/dashboard/map/', { zoom: 30 }, 'zoom'],
      ['/api/v2/dashboard/map/', { colour_by: 'Earthquake' }, 'colour_by'],
      ['/api/v2/dashboard/', { per_asset: 'rows' }, 'per_asset'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, body);
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.status}`);
      assert.ok(JSON.stringify(res.body).includes(field), `${path} ${JSON.stringify(body)} names ${field}: ${JSON.stringify(res.body)}`);
    }
    const noProject = await s.api.post('/api/v2/dashboard/assets/', { token: owner.token, json: {} });
    assert.equal(noProject.status, 400);
  });

  test('the tier and the project role are enforced on the server', async () => {
    const stranger = await registerAndLogin(s.api);
    for (const path of ['assets', 'heatmap', 'map']) {
      const res = await post(`/api/v2/dashboard/${path}/`, {}, stranger.token);
      assert.ok(res.status === 403 || res.status === 404, `${path}: ${res.status}`);
      const anon = await s.api.post(`/api/v2/dashboard/${path}/`, { json: { project_id: projectId } });
      assert.equal(anon.status, 401);
    }
    const u = await s.db.selectFrom('users').select(['company_id']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
    const setTier = (p: Record<string, boolean>) =>
      s.db
        .updateTable('companies')
        .set({ tier_permissions: JSON.stringify(p) })
        .where('id', '=', u.company_id)
        .execute();
    try {
      await setTier({
        asset_level_risk_map: false,
        climate_variable_intensity: true,
        climate_heatmap: false,
        portfolio_losses: false,
        rcp_year_loss_bars: true,
        asset_table: true,
      });
      for (const path of ['heatmap', 'map']) assert.equal((await post(`/api/v2/dashboard/${path}/`, {})).status, 403, path);
      const rows = await post('/api/v2/dashboard/assets/', { limit: 500 });
      assert.equal(rows.status, 200);
      assert.ok(
        rows.body.rows.every((r: DashboardAssetRow) => r.overall_loss === null && r.cvar === null && r.percentage === null && r.loss_100_year === null),
      );
      assert.ok(rows.body.rows.some((r: DashboardAssetRow) => r.valuation !== null));
      const sortByLoss = await post('/api/v2/dashboard/assets/', { sort: 'overall_loss' });
      assert.equal(sortByLoss.status, 403, 'sorting by a hidden column would reveal it');
      await setTier({
        asset_level_risk_map: true,
        climate_variable_intensity: true,
        climate_heatmap: true,
        portfolio_losses: true,
        rcp_year_loss_bars: true,
        asset_table: false,
      });
      assert.equal((await post('/api/v2/dashboard/assets/', {})).status, 403);
      assert.equal((await post('/api/v2/dashboard/heatmap/', {})).status, 200);
      await setTier({
        asset_level_risk_map: false,
        climate_variable_intensity: true,
        climate_heatmap: false,
        portfolio_losses: true,
        rcp_year_loss_bars: true,
        asset_table: true,
      });
      const noScores = await post('/api/v2/dashboard/assets/', { limit: 500 });
      assert.ok(
        noScores.body.rows.every((r: { hazards: object; overall_loss: number | null }) => Object.keys(r.hazards).length === 0),
        'no heat map or risk map: no per-hazard scores',
      );
    } finally {
      await enterprise();
    }
  });
});
