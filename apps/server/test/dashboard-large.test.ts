import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DashboardAssetPageBody, DashboardBody, DashboardHeatmapPageBody, DashboardMapBody } from '@crp/contracts';
import { deflateRawSync } from 'node:zlib';
import { blobColumn, blobOf, blobValue } from '../src/infra/db/bytea.js';
import { DashboardRepository } from '../src/modules/dashboard/dashboard.repository.js';
import { sliceBytes } from '../src/modules/dashboard/large-store-compute.js';
import { DashboardService } from '../src/modules/dashboard/dashboard.service.js';
import type { AuthUser } from '../src/lib/auth-context.js';
import { enterpriseTier } from '../bench/fixtures.js';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 22: the dashboard of an analysis too large to decode (RESULTS_DECODE_MAX_MB; a million assets decode to about
 * 24 GB) is read from its dashboard store, made once per analysis (large-store.ts): 409 with the progress while it is
 * made, then the same figures as the dashboard of the decoded analysis (per-asset CVaRs kept as Float32: equal to 6
 * significant digits), the page endpoints, and a 422 naming each filter the store does not hold. With a limit of 1 MiB
 * the server decodes at most 43 assets, so the 700-asset project is read from its store, made of two batches.
 */
describe('dashboard of a large analysis (dashboard store)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let id = 0;
  let reference: DashboardService;
  let caller: AuthUser;
  const types = ['Office', 'Warehouse', 'Retail'];
  const portfolio = Array.from({ length: 700 }, (_, i) => ({
    name: `Site ${i}`,
    latitude: [22.3, 14.6, 35.7][i % 3]! + (i % 10) * 0.013,
    longitude: [114.17, 121.0, 139.7][i % 3]! + (Math.floor(i / 10) % 40) * 0.011,
    property_type: types[i % 3],
    valuation: 5e6 + i * 1e5,
    revenue: i % 4 === 0 ? 2e6 : 0,
    // the asset table's stored columns, some not known (null), as the store keeps them
    area: i % 5 === 0 ? null : 1000 + i * 3.25,
    floors: (i % 7) + 1,
    construction_cost: i % 2 ? 3e6 + i : null,
    ownership: 50 + (i % 50),
  }));

  before(async () => {
    s = await startServer({ RESULTS_DECODE_MAX_MB: 1 }, { jobs: true });
    owner = await registerAndLogin(s.api);
    await enterpriseTier(s.db, owner.company_code);
    // one stored chunk (500 assets) a batch: two batches on two threads, merged in order
    s.app.services.dashboard.large.batchChunks = 1;
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Large book', data: portfolio, portfolio_variables: ['Typhoon', 'River Flood', 'Extreme Heat', 'Rainfall Flood'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    id = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, id);
    // the columns only the asset table sets (update_assets), analysed again: the store is made of the second run
    const rows = await s.db.selectFrom('assets').select(['id', 'position']).where('project_id', '=', id).orderBy('position').execute();
    const edit = await s.api.post('/api/v2/update_assets/', {
      token: owner.token,
      json: {
        project_id: id,
        assets: rows.map(({ id: assetId, position: i }) => ({
          id: assetId,
          basement: ['yes', 'no', null][i % 3],
          building_age: i % 6 === 0 ? null : 10 + (i % 30),
          content_value: i % 4 === 1 ? 1e6 : null,
          plinth_height: i % 8 === 0 ? 0.5 : null,
          yearly_inventory_value: i % 9 === 0 ? 2e5 : null,
          mitigation_risk: i % 4,
          // the first batch with construction classes (a synonym among them), the second without any (its store has
          // no construction list, as batches stored before the column existed)
          construction: i < 500 ? [null, 'concrete', 'Timber frame', 'masonry'][i % 4] : null,
        })),
      },
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body).slice(0, 300));
    await waitForAnalysis(s, owner.token, id);
    const u = await s.db.selectFrom('users').select(['id', 'company_id', 'username']).where('id', '=', owner.userId).executeTakeFirstOrThrow();
    caller = { id: u.id, companyId: u.company_id!, username: u.username, isCompanyAdmin: true, tokenId: 0 };
    // the same dashboard over the decoded analysis (no decode limit), on the same database
    const services = s.app.services;
    reference = new DashboardService(s.db, new DashboardRepository(s.db), services.projectAccess, services.users, {
      resultsCacheMb: 256,
      answerCacheMb: 16,
      maxDecodedBytes: Infinity,
    });
  });
  after(() => s?.close());

  const ask = (body: Record<string, unknown>) =>
    s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: id, per_asset: 'pages', ...body } });

  /** Every number of `a` equal to `b`'s to 6 significant digits (the store keeps per-asset CVaRs as Float32), the rest equal. */
  function close(a: unknown, b: unknown, path = ''): void {
    if (typeof a === 'number' && typeof b === 'number') {
      const tol = Math.max(1e-6 * Math.max(Math.abs(a), Math.abs(b)), 0.011);
      assert.ok(Math.abs(a - b) <= tol, `${path}: ${a} vs ${b}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      assert.equal(a.length, b.length, `${path}: length`);
      a.forEach((x, i) => close(x, b[i], `${path}[${i}]`));
      return;
    }
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${path}: keys`);
      for (const k of Object.keys(a)) close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      return;
    }
    assert.deepEqual(a, b, path);
  }

  test('409 with the progress while the store is made, then the answer', async () => {
    const r = await ask({});
    assert.equal(r.status, 409, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.status, 'preparing');
    assert.match(r.body.detail, /700 assets, more than this server reads at once: its dashboard is being prepared \(\d+ %\)/);
    // made in the background, then read into the cache with the job of the default filters, before anyone asks again
    const end = Date.now() + 90_000;
    for (;;) {
      const warm = await s.app.services.dashboard.precomputed(id);
      if (warm?.years === 1) break;
      assert.ok(Date.now() < end, 'the dashboard store was not made and read in time');
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal((await ask({})).status, 200);
    const st = await s.db.selectFrom('dashboard_stores').select(['state', 'progress', 'assets']).where('project_id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(st, { state: 'done', progress: 1, assets: 700 });
    const slices = await s.db
      .selectFrom('dashboard_slices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(slices.n), 122, 'one slice per scenario-year job and batch of assets, and the assets of each batch');
    const assetRows = await s.db
      .selectFrom('dashboard_slices')
      .select(['batch_start', 'batch_count'])
      .where('project_id', '=', id)
      .where('job', '=', -1)
      .orderBy('batch_start')
      .execute();
    assert.deepEqual(assetRows, [
      { batch_start: 0, batch_count: 500 },
      { batch_start: 500, batch_count: 200 },
    ]);
  });

  test('the same figures as the dashboard of the decoded analysis, for scenarios, years and adaptation', async () => {
    for (const f of [
      {},
      { analysis_type: 'ssp', scenario: '26', year: 2100 },
      { analysis_type: 'rcp', scenario: '45', year: 2030 },
      { analysis_type: 'ssp', scenario: '85', year: 2020 },
      { analysis_type: 'ssp', scenario: '45', year: 2055, mitigation: false },
    ]) {
      const got = await ask(f);
      assert.equal(got.status, 200, JSON.stringify(got.body).slice(0, 300));
      const want = JSON.parse((await reference.queryJson(caller, DashboardBody.parse({ project_id: id, per_asset: 'pages', ...f }))).toString('utf8'));
      assert.ok(got.body.climate_risk_card_data.climate_value_at_risk > 0, 'a loss to compare');
      // the answer names what a large portfolio's dashboard cannot serve (the web disables those filters)
      assert.deepEqual(got.body.large_portfolio, {
        assets: 700,
        unavailable: ['variable', 'with_content', 'adjusted_gdp', 'count', 'property_type', 'per_asset'],
      });
      assert.equal(want.large_portfolio, undefined);
      delete got.body.large_portfolio;
      close(got.body, want, JSON.stringify(f));
    }
  });

  test('the page endpoints: asset table sorted by loss, heat map and map as for the decoded analysis', async () => {
    const f = { analysis_type: 'ssp', scenario: '85', year: 2050 };
    const body = { project_id: id, ...f, sort: 'cvar', order: 'desc', offset: 0, limit: 20 };
    const page = await s.api.post('/api/v2/dashboard/assets/', { token: owner.token, json: body });
    assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 300));
    const want = await reference.assetPage(caller, DashboardAssetPageBody.parse(body));
    assert.equal(page.body.total, 700);
    close(page.body.rows, want.rows, 'cvar page');
    // every stored column of every asset as the decoded analysis's (names, nulls, booleans), in name order
    for (const offset of [0, 350]) {
      const byName = { ...body, sort: 'name', order: 'asc', offset, limit: 350 };
      const all = await s.api.post('/api/v2/dashboard/assets/', { token: owner.token, json: byName });
      assert.equal(all.status, 200, JSON.stringify(all.body).slice(0, 300));
      const allWant = await reference.assetPage(caller, DashboardAssetPageBody.parse(byName));
      assert.equal(all.body.rows.length, 350);
      assert.ok(
        all.body.rows.some((r: { basement: boolean | null }) => r.basement === true) &&
          all.body.rows.some((r: { area: number | null }) => r.area === null) &&
          all.body.rows.some((r: { construction: string | null }) => r.construction === 'wood') &&
          all.body.rows.some((r: { construction: string | null }) => r.construction === null),
        JSON.stringify(all.body.rows.slice(0, 3)),
      );
      close(all.body.rows, allWant.rows, `name page at ${offset}`);
    }
    const heat = await s.api.post('/api/v2/dashboard/heatmap/', {
      token: owner.token,
      json: { project_id: id, ...f, sort: 'Typhoon', order: 'desc', limit: 30 },
    });
    assert.equal(heat.status, 200, JSON.stringify(heat.body).slice(0, 300));
    const heatWant = await reference.heatmapPage(caller, DashboardHeatmapPageBody.parse({ project_id: id, ...f, sort: 'Typhoon', order: 'desc', limit: 30 }));
    assert.deepEqual(heat.body.scores, heatWant.scores);
    assert.ok(
      heat.body.scores.flat().some((v: number | null) => v !== null && v > 0),
      'scores to compare',
    );
    const map = await s.api.post('/api/v2/dashboard/map/', { token: owner.token, json: { project_id: id, ...f, colour_by: 'River Flood' } });
    assert.equal(map.status, 200, JSON.stringify(map.body).slice(0, 300));
    const mapWant = await reference.mapData(caller, DashboardMapBody.parse({ project_id: id, ...f, colour_by: 'River Flood' }));
    assert.deepEqual(map.body.points, mapWant.points);
  });

  test('what the store does not hold is refused with a 422 naming each filter', async () => {
    const r = await ask({ variable: 'Typhoon', with_content: false, count: 10, property_type: 'Office' });
    assert.equal(r.status, 422, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(r.body.errors.map((e: { field: string }) => e.field).sort(), ['count', 'property_type', 'variable', 'with_content']);
    assert.match(r.body.detail, /700 assets: its dashboard is read from a summary made once per analysis/);
    const cols = await s.api.post('/api/v2/dashboard/', { token: owner.token, json: { project_id: id } });
    assert.equal(cols.status, 422);
    assert.deepEqual(
      cols.body.errors.map((e: { field: string }) => e.field),
      ['per_asset'],
    );
    const gdp = await s.api.post('/api/v2/dashboard/assets/', { token: owner.token, json: { project_id: id, adjusted_gdp: true } });
    assert.equal(gdp.status, 422);
    assert.deepEqual(
      gdp.body.errors.map((e: { field: string }) => e.field),
      ['adjusted_gdp'],
    );
  });

  test('a store made before it kept its assets, with deflated slices, reads its assets from the assets table', async () => {
    await s.db.deleteFrom('dashboard_slices').where('project_id', '=', id).where('job', '=', -1).execute();
    // slices as stores made before migration 0022 kept them: deflated
    const rows = await s.db
      .selectFrom('dashboard_slices')
      .select(['job', 'batch_start', blobColumn('data').as('data')])
      .where('project_id', '=', id)
      .execute();
    assert.equal(rows.length, 120);
    for (const r of rows) {
      const raw = blobOf(r.data);
      assert.equal(raw.byteLength, sliceBytes(r.batch_start === 0 ? 500 : 200), 'slices are stored as they are');
      await s.db
        .updateTable('dashboard_slices')
        .set({ data: blobValue(deflateRawSync(raw, { level: 1 })) })
        .where('project_id', '=', id)
        .where('job', '=', r.job)
        .where('batch_start', '=', r.batch_start)
        .execute();
    }
    // a new service (as after a restart) over the same store, with the server's decode limit
    const services = s.app.services;
    const restarted = new DashboardService(s.db, new DashboardRepository(s.db), services.projectAccess, services.users, {
      resultsCacheMb: 256,
      answerCacheMb: 16,
      maxDecodedBytes: 2 ** 20,
    });
    for (const offset of [0, 350]) {
      const body = DashboardAssetPageBody.parse({
        project_id: id,
        analysis_type: 'ssp',
        scenario: '45',
        year: 2030,
        sort: 'area',
        order: 'desc',
        offset,
        limit: 350,
      });
      const got = await restarted.assetPage(caller, body);
      const want = await reference.assetPage(caller, body);
      assert.equal(got.rows.length, 350);
      close(got.rows, want.rows, `area page at ${offset}`);
    }
  });
});
