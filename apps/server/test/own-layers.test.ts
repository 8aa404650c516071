import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { geoTiff, webMercator } from './support/geotiff.js';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Own hazard layers (issue 23 item 3) through the real server: bad layers are refused with a 4xx naming the problem and
 * nothing is stored; a good one (EPSG:3857, and one in a UTM zone) changes the uploading company's analysis where it
 * covers its assets and nowhere else, never another company's; exports, the dashboard and the point API mark it.
 */
const HK = { name: 'Hong Kong office', latitude: 22.3, longitude: 114.17, property_type: 'Office', valuation: 1e8, revenue: 2e7 };
const MADRID = { name: 'Madrid office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 };

/** River flood depth 2.5 m (100-year) over a 20 km square around the Hong Kong asset, in Web Mercator. */
function hkFloodTiff(
  fill: number | ((c: number, r: number) => number) = 2.5,
  geoKeys: Record<string, number> = { ProjectedCSTypeGeoKey: 3857, GTModelTypeGeoKey: 1 },
  nodata?: number,
) {
  const [x, y] = webMercator(HK.longitude, HK.latitude);
  return geoTiff({ width: 20, height: 20, x0: x - 10_000, y0: y + 10_000, res: 1000, fill, geoKeys, ...(nodata !== undefined ? { nodata } : {}) });
}

describe('own hazard layers: upload, checks, company scope and marks', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof registerAndLogin>>;
  let b: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectA = 0;
  let projectB = 0;
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const upload = (token: string, fields: Record<string, string>, file: { filename: string; data: Buffer } | null) =>
    s.api.post('/api/v2/own_layers/', { token, multipart: { ...fields, ...(file ? { file } : {}) } });
  const exportRows = async (token: string, name: string) => {
    const res = await s.api.post('/api/v2/download_csv_report/', {
      token,
      form: {
        project_name: name,
        climate_variables: JSON.stringify(['River Flood', 'Extreme Heat']),
        year_list: JSON.stringify([2050]),
        scenario_list: JSON.stringify(['45']),
        analysis_type: 'ssp',
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
    const file = await fetch(s.url + res.body.url);
    const wb = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: 'buffer' });
    return XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Analysis!);
  };
  const row = (rows: Record<string, unknown>[], asset: string, hazard: string) => rows.find((r) => r.Asset === asset && r.Hazard === hazard)!;

  before(async () => {
    s = await startServer({ LOG_LEVEL: 'warn' }, { jobs: true, logStream: sink });
    a = await onPaidPlan(s, await registerAndLogin(s.api));
    b = await onPaidPlan(s, await registerAndLogin(s.api));
    for (const [who, set] of [
      [a, (id: number) => (projectA = id)],
      [b, (id: number) => (projectB = id)],
    ] as const) {
      const res = await s.api.post('/api/v2/create_project/', {
        token: who.token,
        json: { portfolio_name: 'Own layers', data: [HK, MADRID], portfolio_variables: ['River Flood', 'Extreme Heat'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      set(res.body.project.project_id);
      await waitForAnalysis(s, who.token, res.body.project.project_id);
    }
  });
  after(() => s.close());

  test('bad layers are refused with a 4xx naming the problem; nothing is stored', async () => {
    const fields = { hazard: 'river_flood', scenario: 'any', year: 'any', return_period_years: '100' };
    const cases: {
      what: string;
      fields?: Record<string, string>;
      file: { filename: string; data: Buffer } | null;
      status: number;
      field: string;
      re: RegExp;
    }[] = [
      {
        what: 'a user-defined projection (no EPSG code)',
        file: { filename: 'custom.tif', data: hkFloodTiff(2.5, { ProjectedCSTypeGeoKey: 32767, GTModelTypeGeoKey: 1 }) },
        status: 400,
        field: 'file',
        re: /a user-defined projection\) is not supported; use a projected or geographic CRS of the EPSG registry/,
      },
      {
        what: 'a code that is no CRS of the EPSG registry',
        file: { filename: 'vertical.tif', data: hkFloodTiff(2.5, { ProjectedCSTypeGeoKey: 5703, GTModelTypeGeoKey: 1 }) },
        status: 400,
        field: 'file',
        re: /EPSG:5703\) is not supported/,
      },
      {
        what: 'Web Mercator metres labelled EPSG:4326',
        file: { filename: 'mislabelled.tif', data: hkFloodTiff(2.5, { GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2 }) },
        status: 400,
        field: 'file',
        re: /outside the world .*is it really in EPSG:4326/,
      },
      {
        what: 'garbage',
        file: { filename: 'flood.tif', data: Buffer.from('latitude,longitude,depth\n22.3,114.17,2.5\n') },
        status: 400,
        field: 'file',
        re: /not a GeoTIFF/,
      },
      {
        what: 'a truncated TIFF',
        file: { filename: 'cut.tif', data: hkFloodTiff().subarray(0, 200) },
        status: 400,
        field: 'file',
        re: /'cut\.tif' was refused: The file is truncated/,
      },
      {
        what: 'out-of-range values (depth in mm sent as m)',
        file: { filename: 'mm.tif', data: hkFloodTiff(2500) },
        status: 400,
        field: 'file',
        re: /outside the plausible range of river_flood \(0 to 50 m\)/,
      },
      {
        what: 'nodata everywhere',
        file: { filename: 'empty.tif', data: hkFloodTiff(-9999, undefined, -9999) },
        status: 400,
        field: 'file',
        re: /Every pixel is nodata/,
      },
      {
        what: 'a unit not accepted',
        fields: { ...fields, unit: 'furlongs' },
        file: { filename: 'f.tif', data: hkFloodTiff() },
        status: 400,
        field: 'unit',
        re: /furlongs/,
      },
      {
        what: 'no return period for a curve hazard',
        fields: { hazard: 'river_flood' },
        file: { filename: 'f.tif', data: hkFloodTiff() },
        status: 400,
        field: 'return_period_years',
        re: /return period/,
      },
      {
        what: 'an unknown hazard',
        fields: { hazard: 'volcano' },
        file: { filename: 'f.tif', data: hkFloodTiff() },
        status: 400,
        field: 'hazard',
        re: /hazard must be one of/,
      },
      {
        what: 'a year outside 2020-2100',
        fields: { ...fields, year: '1900' },
        file: { filename: 'f.tif', data: hkFloodTiff() },
        status: 400,
        field: 'year',
        re: /year must be/,
      },
      { what: 'no file', file: null, status: 400, field: 'file', re: /file/ },
    ];
    for (const c of cases) {
      const res = await upload(a.token, c.fields ?? fields, c.file);
      assert.equal(res.status, c.status, `${c.what}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors?.some((e: { field: string }) => e.field === c.field),
        `${c.what}: names the field ${c.field}: ${JSON.stringify(res.body)}`,
      );
      assert.match(res.body.detail, c.re, c.what);
    }
    // too many pixels for the configured limit: the limit is named
    const big = geoTiff({ width: 300, height: 300, x0: 113.9, y0: 22.5, res: 0.001, fill: 1, geoKeys: { GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2 } });
    s.app.services.ownLayers['config'].OWN_LAYER_MAX_PIXELS = 50_000;
    try {
      const res = await upload(a.token, fields, { filename: 'big.tif', data: big });
      assert.equal(res.status, 400);
      assert.match(res.body.detail, /90,000 pixels; the limit is 50,000/);
    } finally {
      s.app.services.ownLayers['config'].OWN_LAYER_MAX_PIXELS = s.config.OWN_LAYER_MAX_PIXELS;
    }
    const list = await s.api.get('/api/v2/own_layers/', { token: a.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.layers, [], 'no layer half-written');
    const status = await s.api.get(`/api/v2/projects/${projectA}/status/`, { token: a.token });
    assert.equal(status.body.status, 'done', 'a refused layer re-queues nothing');
  });

  test("a good layer (EPSG:3857) changes this company's analysis where it covers, nowhere else, and is marked", async () => {
    const before = await exportRows(a.token, 'Own layers');
    const hkBefore = row(before, HK.name, 'River Flood');
    assert.notEqual(hkBefore.Intensity, 2.5);

    const res = await upload(
      a.token,
      { hazard: 'river_flood', scenario: 'any', year: 'any', return_period_years: '100', label: 'HK flood study 100-yr', source: 'Our engineers, 2026' },
      { filename: 'hk_flood_100.tif', data: hkFloodTiff() },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.layer.crs, 'EPSG:3857');
    assert.equal(res.body.layer.hazard, 'river_flood');
    assert.equal(res.body.layer.return_period_years, 100);
    assert.equal(res.body.layer.valid_pixels, 400);
    assert.equal(res.body.layer.value_max, 2.5);
    const bb = res.body.layer.bounds;
    assert.ok(bb.west < 114.17 && bb.east > 114.17 && bb.south < 22.3 && bb.north > 22.3, JSON.stringify(bb));
    assert.equal(res.body.reanalysed, 1);
    // the same hazard, scenario, year and return period again: 409
    const again = await upload(a.token, { hazard: 'river_flood', return_period_years: '100' }, { filename: 'again.tif', data: hkFloodTiff(1) });
    assert.equal(again.status, 409, JSON.stringify(again.body));

    // a UTM layer (zone 30N, EPSG:32630): extreme heat 44 °C over 100 km around Madrid
    const utm = geoTiff({
      width: 100,
      height: 100,
      x0: 390_000,
      y0: 4_524_000,
      res: 1000,
      fill: 44,
      geoKeys: { ProjectedCSTypeGeoKey: 32630, GTModelTypeGeoKey: 1 },
    });
    const heat = await upload(
      a.token,
      { hazard: 'extreme_heat', scenario: '45', year: '2050', label: 'Madrid heat 2050' },
      { filename: 'madrid_heat.tif', data: utm },
    );
    assert.equal(heat.status, 201, JSON.stringify(heat.body));
    assert.equal(heat.body.layer.crs, 'EPSG:32630');

    await waitForAnalysis(s, a.token, projectA);
    const mine = await exportRows(a.token, 'Own layers');
    const theirs = await exportRows(b.token, 'Own layers');
    // inside the flood layer: the own value, marked
    assert.equal(row(mine, HK.name, 'River Flood').Intensity, 2.5);
    assert.equal(row(mine, HK.name, 'River Flood')['Data tier'], 'own data');
    assert.equal(row(mine, HK.name, 'River Flood')['Own data layer'], 'HK flood study 100-yr');
    // outside it: unchanged, not marked
    assert.equal(row(mine, MADRID.name, 'River Flood').Intensity, row(before, MADRID.name, 'River Flood').Intensity);
    assert.equal(row(mine, MADRID.name, 'River Flood')['Data tier'], 'placeholder');
    // the UTM heat layer at Madrid (SSP2-4.5, 2050), not in Hong Kong
    assert.equal(row(mine, MADRID.name, 'Extreme Heat').Intensity, 44);
    assert.equal(row(mine, MADRID.name, 'Extreme Heat')['Data tier'], 'own data');
    assert.equal(row(mine, HK.name, 'Extreme Heat').Intensity, row(before, HK.name, 'Extreme Heat').Intensity);
    // losses follow the own depth
    assert.notEqual(row(mine, HK.name, 'River Flood')['Expected annual loss (USD)'], hkBefore['Expected annual loss (USD)']);
    // the other company: built-in values everywhere, never marked
    assert.equal(row(theirs, HK.name, 'River Flood').Intensity, hkBefore.Intensity);
    assert.equal(row(theirs, MADRID.name, 'Extreme Heat').Intensity, row(before, MADRID.name, 'Extreme Heat').Intensity);
    assert.ok(theirs.every((r) => r['Data tier'] !== 'own data' && !r['Own data layer']));

    // the results API: the project's rows and the same asset posted now both carry the own value and its mark;
    // the other company's posted asset gets the built-in value
    const sel = { hazards: ['river_flood'], scenarios: ['45'], years: [2050] };
    const fromProject = await s.api.post('/api/v2/asset_results/', { token: a.token, json: { project_id: projectA, ...sel } });
    assert.equal(fromProject.status, 200, JSON.stringify(fromProject.body).slice(0, 300));
    const hkProject = fromProject.body.results.find((r: { asset_name: string }) => r.asset_name === HK.name);
    assert.deepEqual([hkProject.intensity, hkProject.data_tier, hkProject.own_data_layer], [2.5, 'own data', 'HK flood study 100-yr']);
    const posted = await s.api.post('/api/v2/asset_results/', { token: a.token, json: { assets: [HK], ...sel } });
    assert.equal(posted.status, 200, JSON.stringify(posted.body).slice(0, 300));
    assert.deepEqual(
      [posted.body.results[0].intensity, posted.body.results[0].data_tier, posted.body.results[0].own_data_layer],
      [2.5, 'own data', 'HK flood study 100-yr'],
    );
    assert.equal(posted.body.results[0].expected_annual_loss_usd, hkProject.expected_annual_loss_usd, 'posted = stored, own layer included');
    const postedB = await s.api.post('/api/v2/asset_results/', { token: b.token, json: { assets: [HK], ...sel } });
    assert.equal(postedB.body.results[0].intensity, hkBefore.Intensity);
    assert.equal(postedB.body.results[0].own_data_layer, null);

    // the dashboard marks it for this company only
    const dashA = await s.api.post('/api/v2/dashboard/', {
      token: a.token,
      form: { project_name: 'Own layers', analysis_type: 'ssp', scenario: '45', year: 2050 },
    });
    assert.equal(dashA.status, 200, JSON.stringify(dashA.body).slice(0, 300));
    assert.deepEqual(dashA.body.project.own_data, {
      hazards: ['River Flood', 'Extreme Heat'],
      assets: 2,
      layers: ['HK flood study 100-yr', 'Madrid heat 2050'],
    });
    const dashA85 = await s.api.post('/api/v2/dashboard/', {
      token: a.token,
      form: { project_name: 'Own layers', analysis_type: 'ssp', scenario: '85', year: 2050 },
    });
    assert.deepEqual(dashA85.body.project.own_data.hazards, ['River Flood'], 'the heat layer is for SSP2-4.5 only');
    const dashB = await s.api.post('/api/v2/dashboard/', {
      token: b.token,
      form: { project_name: 'Own layers', analysis_type: 'ssp', scenario: '45', year: 2050 },
    });
    assert.equal(dashB.body.project.own_data, null);

    // the point API: own value and tier for this company, built-in for the other; no server path anywhere
    const q = `/api/v2/hazard/point/?latitude=${HK.latitude}&longitude=${HK.longitude}&scenario=45&year=2050`;
    const pa = await s.api.get(q, { token: a.token });
    const pb = await s.api.get(q, { token: b.token });
    assert.equal(pa.body.hazards.river_flood.value, 2.5);
    assert.equal(pa.body.hazards.river_flood.tier, 'own data');
    assert.match(pa.body.hazards.river_flood.source, /^own data: HK flood study 100-yr/);
    assert.notEqual(pb.body.hazards.river_flood.tier, 'own data');
    const list = await s.api.get('/api/v2/own_layers/', { token: a.token });
    assert.deepEqual(
      list.body.layers.map((l: { label: string }) => l.label),
      ['HK flood study 100-yr', 'Madrid heat 2050'],
    );
    assert.equal((await s.api.get('/api/v2/own_layers/', { token: b.token })).body.layers.length, 0, 'another company never sees them');
    for (const body of [JSON.stringify(list.body), JSON.stringify(pa.body), JSON.stringify(res.body)]) {
      assert.doesNotMatch(body, /\/(tmp|home|work|var|srv)\/|[A-Z]:\\\\/, 'no server path in any answer');
    }
  });

  test('delete: only within the company; the analysis goes back to the built-in values', async () => {
    const list = await s.api.get('/api/v2/own_layers/', { token: a.token });
    const flood = list.body.layers.find((l: { hazard: string }) => l.hazard === 'river_flood');
    assert.equal((await s.api.request('DELETE', `/api/v2/own_layers/${flood.id}/`, { token: b.token })).status, 404, 'another company cannot delete it');
    const del = await s.api.request('DELETE', `/api/v2/own_layers/${flood.id}/`, { token: a.token });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(del.body.reanalysed, 1);
    assert.equal((await s.api.request('DELETE', `/api/v2/own_layers/${flood.id}/`, { token: a.token })).status, 404);
    await waitForAnalysis(s, a.token, projectA);
    const mine = await exportRows(a.token, 'Own layers');
    const theirs = await exportRows(b.token, 'Own layers');
    assert.equal(row(mine, HK.name, 'River Flood').Intensity, row(theirs, HK.name, 'River Flood').Intensity);
    assert.notEqual(row(mine, HK.name, 'River Flood')['Data tier'], 'own data');
    assert.equal(row(mine, MADRID.name, 'Extreme Heat')['Data tier'], 'own data', 'the other layer stays');
    assert.ok(projectB > 0);
  });

  test('a stored layer that can no longer be read is skipped with a logged reason; the others still apply', async () => {
    const good = (await s.api.get('/api/v2/own_layers/', { token: a.token })).body.layers[0];
    assert.equal(good.hazard, 'extreme_heat');
    // a row whose bytes no longer read (as after a damaged restore): written straight to the database
    await s.db
      .insertInto('own_hazard_layers')
      .values({
        company_id: (await s.db.selectFrom('users').select('company_id').where('id', '=', a.userId).executeTakeFirstOrThrow()).company_id,
        hazard: 'river_flood',
        scenario: null,
        year: null,
        return_period_years: 100,
        unit: 'm',
        label: 'Damaged layer',
        filename: 'damaged.tif',
        bytes: 10,
        sha256: 'x',
        crs: 'EPSG:4326',
        width: 1,
        height: 1,
        west: 114,
        south: 22,
        east: 115,
        north: 23,
        resolution_km: 1,
        valid_pixels: 1,
        value_min: 1,
        value_max: 1,
        data: Buffer.from('II*\0garbage'),
        uploaded_by: null,
      })
      .execute();
    const heat = await s.api.get(`/api/v2/hazard/point/?latitude=${MADRID.latitude}&longitude=${MADRID.longitude}&scenario=45&year=2050`, { token: a.token });
    assert.equal(heat.status, 200, JSON.stringify(heat.body));
    assert.equal(heat.body.hazards.extreme_heat.value, 44, 'the good layer still applies');
    const flood = await s.api.get(`/api/v2/hazard/point/?latitude=${HK.latitude}&longitude=${HK.longitude}&scenario=45&year=2050`, { token: a.token });
    assert.notEqual(flood.body.hazards.river_flood.tier, 'own data', 'the damaged layer is skipped');
    const logged = logLines
      .map((l) => JSON.parse(l) as { msg?: string; reason?: string })
      .filter((l) => l.msg === 'own hazard layer skipped: it could not be loaded');
    assert.ok(logged.length >= 1 && logged[0]!.reason, `logged with its reason: ${JSON.stringify(logged)}`);
    // another company's analyses and answers are untouched
    assert.equal((await s.api.get(`/api/v2/hazard/point/?latitude=${HK.latitude}&longitude=${HK.longitude}`, { token: b.token })).status, 200);
  });

  test('a layer stored before migration 0023 (the file only) is decoded once in the parse child on first load and rewritten', async () => {
    const companyId = (await s.db.selectFrom('users').select('company_id').where('id', '=', a.userId).executeTakeFirstOrThrow()).company_id;
    const { id } = await s.db
      .insertInto('own_hazard_layers')
      .values({
        company_id: companyId,
        hazard: 'river_flood',
        scenario: null,
        year: null,
        return_period_years: 50,
        unit: 'm',
        label: 'Old layer',
        filename: 'old.tif',
        bytes: 1,
        sha256: 'x',
        crs: 'EPSG:3857',
        width: 20,
        height: 20,
        west: 114.08,
        south: 22.2,
        east: 114.26,
        north: 22.4,
        resolution_km: 1,
        valid_pixels: 400,
        value_min: 3,
        value_max: 3,
        data: hkFloodTiff(3),
        uploaded_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const point = await s.api.get(`/api/v2/hazard/point/?latitude=${HK.latitude}&longitude=${HK.longitude}&scenario=45&year=2050`, { token: a.token });
    assert.equal(point.status, 200);
    assert.equal(point.body.hazards.river_flood.tier, 'own data', JSON.stringify(point.body.hazards.river_flood));
    const row = await s.db.selectFrom('own_hazard_layers').select(['data', 'pixels', 'x0', 'res_x']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.data, null, 'the file is let go');
    assert.ok(row.pixels && row.pixels.length > 0 && row.x0 !== null && row.res_x === 1000, 'stored decoded, with its grid');
  });
});
