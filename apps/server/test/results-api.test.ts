import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { check as checkGeoJson } from '@placemarkio/check-geojson';
import initSqlJs from 'sql.js';
import { ApiError, createApiClient } from '@crp/api-client';
import { readFileSync } from 'node:fs';
import { ASSET_RESULT_COLUMNS, OWN_DATA_TIER, RESULTS_MAX_ASSETS, severityBand, type AssetResult } from '@crp/contracts';
import { HAZARD_META } from '@crp/hazards';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const require = createRequire(import.meta.url);
const ASSETS = [
  { name: 'Hong Kong office', latitude: 22.3, longitude: 114.17, property_type: 'Office', valuation: 1e8, revenue: 2e7 },
  { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
  { name: '=cmd|"/c calc"!A1', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 },
];

/** RFC 4180 reader (quoted cells with "" escapes), independent of the server's writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [],
    cell = '',
    quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('results API: typed per-asset results as JSON, CSV and GeoJSON; GIS export of a project', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let stranger: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    stranger = await onPaidPlan(s, await registerAndLogin(s.api));
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Results API', data: ASSETS, portfolio_variables: ['Typhoon', 'Extreme Heat', 'River Flood'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(() => s.close());

  test("a project's rows: one per asset x hazard x scenario x year, typed fields, the same figures as the spreadsheet export", async () => {
    const res = await s.api.post('/api/v2/asset_results/', {
      token: owner.token,
      json: { project_id: projectId, scenarios: ['45', '85'], years: [2030, 2050] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
    assert.equal(res.body.project_id, projectId);
    assert.equal(res.body.assets, 3);
    const rows = res.body.results as AssetResult[];
    const hazards = new Set(rows.map((r) => r.hazard));
    for (const h of ['typhoon', 'extreme_heat', 'river_flood']) assert.ok(hazards.has(h as AssetResult['hazard']), `the project's hazard ${h}`);
    assert.equal(res.body.rows, 3 * hazards.size * 2 * 2);
    assert.equal(rows.length, res.body.rows);
    assert.deepEqual(Object.keys(rows[0]!), ASSET_RESULT_COLUMNS);
    const hk = rows.find((r) => r.asset_name === 'Hong Kong office' && r.hazard === 'typhoon' && r.scenario === '85' && r.year === 2050)!;
    assert.equal(hk.intensity_unit, 'm/s');
    assert.ok(hk.intensity! > 20, `a Hong Kong typhoon gust, got ${hk.intensity}`);
    assert.ok(hk.score! > 0 && hk.score! <= 100);
    assert.ok(hk.expected_annual_loss_usd! > 0);
    assert.ok(
      Math.abs(hk.expected_damage_usd! + hk.expected_disruption_usd! - hk.expected_annual_loss_usd!) < 0.02,
      'damage + disruption = expected annual loss',
    );
    assert.ok(hk.loss_1_in_250_usd! >= hk.loss_1_in_100_usd!, 'the rarer event costs at least as much');
    assert.ok(typeof hk.asset_id === 'number' && hk.asset_id > 0, 'a project asset answers its id there');
    // The spreadsheet export reads the same rows (shared code): same figures for the same cell.
    const xl = await s.api.post('/api/v2/download_csv_report/', {
      token: owner.token,
      form: {
        project_name: 'Results API',
        climate_variables: JSON.stringify(['Typhoon']),
        year_list: JSON.stringify([2050]),
        scenario_list: JSON.stringify(['85']),
        analysis_type: 'ssp',
      },
    });
    assert.equal(xl.status, 200);
    const sheetRow = xl.body.success.find((r: Record<string, unknown>) => r.Asset === 'Hong Kong office');
    assert.equal(sheetRow.Intensity, hk.intensity);
    assert.equal(sheetRow['Expected annual loss (USD)'], hk.expected_annual_loss_usd);
    assert.equal(sheetRow['Loss 1-in-100 yr (USD)'], hk.loss_1_in_100_usd);
    assert.equal(sheetRow['20-year expected loss (USD)'], hk.cvar_usd);
  });

  test('posted assets are analysed now with the same engine: the same figures as the stored analysis of the same asset', async () => {
    const body = { assets: [ASSETS[0]], hazards: ['typhoon', 'river_flood'], scenarios: ['85'], years: [2050] };
    const res = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: body });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
    assert.equal(res.body.project_id, null);
    assert.equal(res.body.rows, 2);
    const posted = res.body.results as AssetResult[];
    assert.equal(posted[0]!.asset_id, null);
    const stored = (await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: projectId, ...body, assets: undefined } })).body
      .results as AssetResult[];
    for (const h of ['typhoon', 'river_flood']) {
      const a = posted.find((r) => r.hazard === h)!,
        b = stored.find((r) => r.hazard === h && r.asset_name === 'Hong Kong office')!;
      for (const k of ['intensity', 'score', 'expected_annual_loss_usd', 'loss_1_in_100_usd', 'loss_1_in_250_usd', 'cvar_usd'] as const)
        assert.equal(a[k], b[k], `${h} ${k}`);
    }
  });

  test('a posted construction class selects the Hazus wind curve of the building: it changes the typhoon loss, not the others', async () => {
    const base = { name: 'Manila 2-storey shop', latitude: 14.58, longitude: 120.98, property_type: 'Retail', valuation: 1e7, floors: 2 };
    const post = async (construction?: string) => {
      const asset = construction === undefined ? base : { ...base, construction };
      const res = await s.api.post('/api/v2/asset_results/', {
        token: owner.token,
        json: { assets: [asset], hazards: ['typhoon', 'river_flood'], scenarios: ['85'], years: [2050] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
      const rows = res.body.results as AssetResult[];
      return { typhoon: rows.find((r) => r.hazard === 'typhoon')!, river: rows.find((r) => r.hazard === 'river_flood')! };
    };
    const none = await post();
    const wood = await post('wood');
    const concrete = await post('Concrete');
    const wood2 = await post('Timber Frame');
    assert.ok(none.typhoon.intensity! > 30, `Manila has typhoon wind (${none.typhoon.intensity} m/s)`);
    for (const r of [none, wood, concrete]) assert.ok(r.typhoon.expected_annual_loss_usd! > 0);
    // Hazus WMUH2 (wood multi-unit, 2 storeys) above CECBL (concrete commercial low-rise) at the same wind
    assert.ok(
      wood.typhoon.expected_annual_loss_usd! > 1.5 * concrete.typhoon.expected_annual_loss_usd!,
      `wood ${wood.typhoon.expected_annual_loss_usd} vs concrete ${concrete.typhoon.expected_annual_loss_usd}`,
    );
    assert.notEqual(none.typhoon.expected_annual_loss_usd, concrete.typhoon.expected_annual_loss_usd);
    assert.notEqual(none.typhoon.loss_1_in_100_usd, wood.typhoon.loss_1_in_100_usd);
    assert.equal(wood2.typhoon.expected_annual_loss_usd, wood.typhoon.expected_annual_loss_usd, 'a synonym of wood');
    // each row names the class and the Hazus building type whose curve was used (retail, 2 storeys)
    assert.deepEqual([none.typhoon.construction, none.typhoon.wind_building_type], [null, null]);
    assert.deepEqual([wood2.typhoon.construction, wood2.typhoon.wind_building_type], ['wood', 'WMUH2']);
    assert.deepEqual([concrete.river.construction, concrete.river.wind_building_type], ['concrete', 'CECBL']);
    // the wind intensity and the other hazards do not depend on the construction class
    assert.equal(wood.typhoon.intensity, none.typhoon.intensity);
    assert.equal(wood.river.expected_annual_loss_usd, none.river.expected_annual_loss_usd);
    // a value that is not a class: 400 naming the field and the classes
    const bad = await s.api.post('/api/v2/asset_results/', {
      token: owner.token,
      json: { assets: [base, { ...base, name: 'b', construction: 'adobe' }], hazards: ['typhoon'], scenarios: ['85'], years: [2050] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors?.map((e: { field: string }) => e.field).join(','), 'assets.1.construction');
    assert.match(bad.body.detail, /construction 'adobe' is not a construction class \(concrete, steel, masonry, wood, manufactured\)/);
    const num = await s.api.post('/api/v2/asset_results/', {
      token: owner.token,
      json: { assets: [{ ...base, construction: 3 }], hazards: ['typhoon'], scenarios: ['85'], years: [2050] },
    });
    assert.equal(num.status, 400);
    assert.match(JSON.stringify(num.body.errors), /assets\.0\.construction/);
  });

  test('the generated typed client calls the results API and surfaces 4xx with the field', async () => {
    const api = createApiClient({ baseUrl: s.url, token: owner.token });
    const out = await api.assetResults({
      assets: [{ name: 'Client HQ', latitude: 22.3, longitude: 114.17, valuation: 5e7 }],
      hazards: ['typhoon'],
      scenarios: ['45'],
      years: [2030, 2050],
    });
    assert.equal(out.rows, 2);
    const typed: number | null = out.results[0]!.loss_1_in_100_usd;
    assert.ok(typed === null || typed >= 0);
    assert.deepEqual(
      out.results.map((r) => r.year),
      [2030, 2050],
    );
    const viaRequest = await api.request('post', '/api/v2/asset_results/', {
      body: { project_id: projectId, hazards: ['typhoon'], scenarios: ['45'], years: [2050] },
    });
    assert.equal(viaRequest.assets, 3);
    const csv = await api.raw('post', '/api/v2/asset_results/', {
      query: { format: 'csv' },
      body: { project_id: projectId, hazards: ['typhoon'], scenarios: ['45'], years: [2050] },
    });
    assert.match(await csv.text(), /^asset_index,asset_id,asset_name,/);
    await assert.rejects(
      api.assetResults({ assets: [{ name: 'x', latitude: 10, longitude: 10 }], years: [2031] }),
      (e: unknown) => e instanceof ApiError && e.status === 400 && e.errors[0]?.field === 'years',
    );
    // @ts-expect-error: a hazard key the schema does not have is a compile error in client code
    await assert.rejects(api.assetResults({ assets: [{ name: 'x', latitude: 10, longitude: 10 }], hazards: ['volcano'] }), ApiError);
  });

  test('CSV has the documented columns and one line per row; formula-like names are escaped', async () => {
    const res = await fetch(`${s.url}/api/v2/asset_results/?format=csv`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, years: [2050], scenarios: ['45'], hazards: ['typhoon', 'extreme_heat', 'river_flood'] }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/csv/);
    const table = parseCsv(await res.text());
    assert.deepEqual(table[0], ASSET_RESULT_COLUMNS);
    assert.equal(table.length, 1 + 3 * 3);
    const names = new Set(table.slice(1).map((r) => r[ASSET_RESULT_COLUMNS.indexOf('asset_name')]));
    assert.ok(names.has(`'=cmd|"/c calc"!A1`), [...names].join(' | '));
  });

  test('GeoJSON is a valid RFC 7946 FeatureCollection of points at the assets', async () => {
    const res = await fetch(`${s.url}/api/v2/asset_results/?format=geojson`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, years: [2050], scenarios: ['45'], hazards: ['typhoon'] }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/geo\+json/);
    const fc = checkGeoJson(await res.text()) as unknown as {
      type: string;
      features: { geometry: { type: string; coordinates: number[] }; properties: AssetResult }[];
    };
    assert.equal(fc.type, 'FeatureCollection');
    assert.equal(fc.features.length, 3);
    const hk = fc.features.find((f) => f.properties.asset_name === 'Hong Kong office')!;
    assert.deepEqual(hk.geometry, { type: 'Point', coordinates: [114.17, 22.3] });
    assert.equal(hk.properties.hazard, 'typhoon');
  });

  test("bad requests answer 400 naming the field; others' projects 404; no token 401", async () => {
    const post = (json: unknown, token = owner.token) => s.api.post('/api/v2/asset_results/', { token, json });
    const fieldOf = (r: { body: { errors?: { field: string }[] } }) => r.body.errors?.map((e) => e.field).join(',');
    const many = Array.from({ length: RESULTS_MAX_ASSETS + 1 }, (_, i) => ({ name: `a${i}`, latitude: 10, longitude: 10 }));
    let r = await post({ assets: many });
    assert.equal(r.status, 400);
    assert.match(fieldOf(r)!, /assets/);
    assert.match(r.body.detail, /at most 1000/);
    r = await post({ project_id: projectId, assets: [ASSETS[0]] });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /either project_id or assets/);
    r = await post({});
    assert.equal(r.status, 400);
    r = await post({ assets: [{ name: 'x', latitude: 95, longitude: 0 }] });
    assert.equal(r.status, 400);
    assert.match(fieldOf(r)!, /assets\.0\.latitude/);
    r = await post({ project_id: projectId, hazards: ['volcano'] });
    assert.equal(r.status, 400);
    assert.match(fieldOf(r)!, /hazards/);
    r = await post({ project_id: projectId, years: [2031] });
    assert.equal(r.status, 400);
    assert.equal(fieldOf(r), 'years');
    // no row cap (issue 36 item 4): all hazards x scenarios x years of 1,000 assets is 528,000 rows, paged here
    r = await s.api.post('/api/v2/asset_results/?limit=7', {
      token: owner.token,
      json: { assets: Array.from({ length: 1000 }, (_, i) => ({ name: `a${i}`, latitude: 10, longitude: 10 })) },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.total_rows, 1000 * 11 * 3 * 16);
    assert.equal(r.body.results.length, 7);
    assert.equal(typeof r.body.next_cursor, 'string');
    r = await post({ project_id: projectId }, stranger.token);
    assert.equal(r.status, 404);
    r = await s.api.post('/api/v2/asset_results/?format=xml', { token: owner.token, json: { project_id: projectId } });
    assert.equal(r.status, 400);
    assert.match(fieldOf(r)!, /format/);
    r = await s.api.post('/api/v2/asset_results/', { json: { project_id: projectId } });
    assert.equal(r.status, 401);
  });

  test('strict requests (issue 38): unknown keys are a 400 naming each; posted ids come back as asset_id; property type and 0,0 as an upload checks them', async () => {
    const post = (json: unknown) => s.api.post('/api/v2/asset_results/', { token: owner.token, json });
    const fields = (r: { body: { errors?: { field: string }[] } }) => r.body.errors?.map((e) => e.field).join(',');
    const one = { name: 'HK office', latitude: 22.3, longitude: 114.17 };
    // a misspelt top-level key: it answered all eleven hazards before
    let r = await post({ assets: [one], hazard: ['typhoon'], years: [2050] });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(fields(r), 'hazard');
    assert.match(r.body.detail, /^hazard: unknown key 'hazard' \(did you mean 'hazards'\?\)/);
    r = await post({ project_id: projectId, foo: 1, bar: 2 });
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'foo,bar');
    // unknown keys of a posted asset, at their place
    r = await post({ assets: [one, { ...one, name: 'b', lat: 1, colour: 'red' }], hazards: ['typhoon'], years: [2050] });
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'assets.1.lat,assets.1.colour');
    // the caller's own ids, text or number, echoed in every row of the asset
    r = await post({
      assets: [
        { ...one, id: 'HK-001' },
        { name: 'Manila', latitude: 14.6, longitude: 120.98, id: 17 },
        { name: 'Madrid', latitude: 40.42, longitude: -3.7 },
      ],
      hazards: ['typhoon', 'extreme_heat'],
      scenarios: ['45'],
      years: [2030, 2050],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const ids = (r.body.results as AssetResult[]).map((x) => `${x.asset_name}=${JSON.stringify(x.asset_id)}`);
    assert.deepEqual([...new Set(ids)], ['HK office="HK-001"', 'Manila=17', 'Madrid=null']);
    assert.equal(ids.length, 3 * 2 * 2);
    const csv = await fetch(`${s.url}/api/v2/asset_results/?format=csv`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assets: [{ ...one, id: 'HK-001' }], hazards: ['typhoon'], scenarios: ['45'], years: [2050] }),
    });
    const table = parseCsv(await csv.text());
    assert.equal(table[1]![ASSET_RESULT_COLUMNS.indexOf('asset_id')], 'HK-001');
    for (const [id, field, why] of [
      ['x'.repeat(201), 'assets.0.id', /longer than 200/],
      [{ a: 1 }, 'assets.0.id', /string or a number/],
      [true, 'assets.0.id', /string or a number/],
    ] as const) {
      r = await post({ assets: [{ ...one, id }], hazards: ['typhoon'], years: [2050] });
      assert.equal(r.status, 400, JSON.stringify(id));
      assert.equal(fields(r), field);
      assert.match(r.body.detail, why);
    }
    r = await post({
      assets: [
        { ...one, id: 'a' },
        { ...one, name: 'b', id: 'a' },
      ],
      hazards: ['typhoon'],
      years: [2050],
    });
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'assets.1.id');
    assert.match(r.body.detail, /already the id of assets\.0/);
    // property type: the upload's rule (free text up to 80 characters, NA = none, unknown types analysed as Commercial)
    const typed = async (property_type: unknown) => post({ assets: [{ ...one, property_type }], hazards: ['typhoon'], scenarios: ['45'], years: [2050] });
    r = await typed('P'.repeat(81));
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'assets.0.property_type');
    assert.match(r.body.detail, /property_type is longer than 80 characters/);
    r = await typed(7);
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'assets.0.property_type');
    const spaceport = await typed('Spaceport');
    const commercial = await typed('Commercial');
    assert.equal(spaceport.status, 200);
    assert.equal(spaceport.body.results[0].property_type, 'Spaceport');
    assert.equal(spaceport.body.results[0].expected_annual_loss_usd, commercial.body.results[0].expected_annual_loss_usd);
    const na = await typed('  NA ');
    assert.equal(na.body.results[0].property_type, null);
    // the same in an upload: 81 characters are refused with the same words, 'Spaceport' is kept
    const up = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Strict types', data: [{ ...one, property_type: 'P'.repeat(81) }] },
    });
    assert.equal(up.status, 400);
    assert.match(JSON.stringify(up.body), /property type is longer than 80 characters/);
    // 0,0 is refused as an upload refuses it, with the same sentence
    r = await post({ assets: [{ name: 'zero', latitude: 0, longitude: 0 }], hazards: ['typhoon'], years: [2050] });
    assert.equal(r.status, 400);
    assert.equal(fields(r), 'assets.0.latitude');
    const zero = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Zero', data: [{ name: 'zero', latitude: 0, longitude: 0 }] },
    });
    assert.equal(zero.status, 400);
    const sentence = "latitude and longitude are both 0 (a point in the Gulf of Guinea): give the asset's real location";
    assert.ok(r.body.detail.endsWith(sentence), r.body.detail);
    assert.ok(JSON.stringify(zero.body).includes(sentence), JSON.stringify(zero.body));
    // one of them 0 is a real place (the equator, the prime meridian)
    r = await post({ assets: [{ name: 'equator', latitude: 0, longitude: 32.5 }], hazards: ['typhoon'], years: [2050] });
    assert.equal(r.status, 200);
  });

  test('the project GIS export: GeoJSON per asset, and a GeoPackage that SQLite opens with a decodable point geometry', async () => {
    const gj = await fetch(`${s.url}/api/v2/projects/${projectId}/assets_gis/?format=geojson&analysis_type=ssp&scenario=85&year=2050`, {
      headers: { authorization: `Token ${owner.token}` },
    });
    assert.equal(gj.status, 200);
    const fc = checkGeoJson(await gj.text()) as unknown as { features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[] };
    assert.equal(fc.features.length, 3);
    const hk = fc.features.find((f) => f.properties.name === 'Hong Kong office')!;
    assert.deepEqual(hk.geometry.coordinates, [114.17, 22.3]);
    for (const k of ['climate_score', 'cvar_usd', 'loss_1_in_100_usd', 'loss_1_in_250_usd', 'score_typhoon', 'score_extreme_heat', 'score_river_flood'])
      assert.ok(k in hk.properties, k);
    assert.ok((hk.properties.score_typhoon as number) > 0);

    const res = await fetch(`${s.url}/api/v2/projects/${projectId}/assets_gis/?format=gpkg&analysis_type=ssp&scenario=85&year=2050`, {
      headers: { authorization: `Token ${owner.token}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/geopackage+sqlite3');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(Buffer.from(bytes.subarray(0, 16)).toString('latin1'), 'SQLite format 3\0');
    assert.equal(Buffer.from(bytes).readUInt32BE(68), 0x47504b47, 'application_id GPKG');
    const SQL = await initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
    const db = new SQL.Database(bytes);
    const one = (q: string) => db.exec(q)[0]!.values;
    assert.deepEqual(one('select srs_id, organization, organization_coordsys_id from gpkg_spatial_ref_sys where srs_id = 4326'), [[4326, 'EPSG', 4326]]);
    assert.deepEqual(one('select table_name, data_type, srs_id from gpkg_contents'), [['assets', 'features', 4326]]);
    assert.deepEqual(one('select table_name, column_name, geometry_type_name, srs_id, z, m from gpkg_geometry_columns'), [
      ['assets', 'geom', 'POINT', 4326, 0, 0],
    ]);
    assert.deepEqual(one('select min_x, min_y, max_x, max_y from gpkg_contents'), [[-3.7, 14.6, 120.98, 40.42]]);
    const [[geom, name, score]] = one("select geom, name, score_typhoon from assets where name = 'Hong Kong office'") as [[Uint8Array, string, number]];
    assert.equal(name, 'Hong Kong office');
    assert.equal(score, hk.properties.score_typhoon);
    // GeoPackage binary header (OGC 12-128 §2.1.3) then WKB, decoded by hand
    const g = Buffer.from(geom);
    assert.equal(g.toString('latin1', 0, 2), 'GP');
    assert.equal(g[2], 0, 'version 1');
    const flags = g[3]!;
    const little = (flags & 1) === 1;
    const envelopeDoubles = [0, 4, 6, 6, 8][(flags >> 1) & 7]!;
    assert.equal(little ? g.readInt32LE(4) : g.readInt32BE(4), 4326);
    const wkb = g.subarray(8 + envelopeDoubles * 8);
    const wle = wkb[0] === 1;
    assert.equal(wle ? wkb.readUInt32LE(1) : wkb.readUInt32BE(1), 1, 'WKB Point');
    assert.deepEqual([wle ? wkb.readDoubleLE(5) : wkb.readDoubleBE(5), wle ? wkb.readDoubleLE(13) : wkb.readDoubleBE(13)], [114.17, 22.3]);
    assert.equal(one('select count(*) from assets')[0]![0], 3);
    db.close();

    const bad = await s.api.get(`/api/v2/projects/${projectId}/assets_gis/?format=shp`, { token: owner.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'format');
    const badYear = await s.api.get(`/api/v2/projects/${projectId}/assets_gis/?year=2031`, { token: owner.token });
    assert.equal(badYear.status, 400);
    assert.equal(badYear.body.errors[0].field, 'year');
    assert.equal((await s.api.get(`/api/v2/projects/${projectId}/assets_gis/`, { token: stranger.token })).status, 404);
  });
});

describe('results API while a project is analysing', () => {
  let s: TestServer;
  after(() => s?.close());
  test('409 with Retry-After (seconds) until the analysis is done; a failed analysis has none', async () => {
    // no job worker: the project's analysis stays queued
    s = await startServer();
    const u = await onPaidPlan(s, await registerAndLogin(s.api));
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Queued', data: [ASSETS[0]], portfolio_variables: ['Typhoon'] },
    });
    assert.equal(res.status, 201);
    const projectId = res.body.project.project_id;
    const r = await fetch(`${s.url}/api/v2/asset_results/`, {
      method: 'POST',
      headers: { authorization: `Token ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, years: [2050] }),
    });
    assert.equal(r.status, 409);
    assert.equal(r.headers.get('retry-after'), '5');
    const body = (await r.json()) as { detail: string; retry_after_seconds: number };
    assert.match(body.detail, /not finished yet/);
    assert.equal(body.retry_after_seconds, 5);
    await s.db.updateTable('projects').set({ status: 'failed', status_message: 'test' }).where('id', '=', projectId).execute();
    const failed = await fetch(`${s.url}/api/v2/asset_results/`, {
      method: 'POST',
      headers: { authorization: `Token ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, years: [2050] }),
    });
    assert.equal(failed.status, 409);
    assert.equal(failed.headers.get('retry-after'), null);
    assert.match(((await failed.json()) as { detail: string }).detail, /failed: test/);
  });
});

test('OpenAPI of the results API (issue 38): named request and error components, every media type of the 200, 409/413/422, enums', () => {
  const doc = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
  const schemas = doc.components.schemas;
  const op = doc.paths['/api/v2/asset_results/'].post;
  assert.equal(op.requestBody.content['application/json'].schema.$ref, '#/components/schemas/ResultsRequestInput');
  const req = schemas.ResultsRequestInput;
  assert.equal(req.additionalProperties, false);
  assert.deepEqual(
    req.oneOf.map((o: { required: string[] }) => o.required),
    [['project_id'], ['assets']],
  );
  assert.equal(schemas.ResultsAssetInput.additionalProperties, false);
  assert.deepEqual(Object.keys(op.responses[200].content).sort(), [
    'application/geo+json',
    'application/json',
    'application/vnd.apache.parquet',
    'application/x-ndjson',
    'text/csv',
  ]);
  assert.equal(op.responses[200].content['application/x-ndjson'].schema.$ref, '#/components/schemas/AssetResultsNdjson');
  assert.deepEqual(
    op.parameters
      .filter((p: { in: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name)
      .filter((n: string) => n === 'limit' || n === 'cursor'),
    ['limit', 'cursor'],
  );
  assert.equal(op.responses[200].content['application/geo+json'].schema.$ref, '#/components/schemas/AssetResultsFeatureCollection');
  for (const code of ['400', '401', '403', '404', '409', '413', '422']) assert.ok(op.responses[code], `${code} listed`);
  assert.equal(op.responses[400].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
  assert.ok(schemas.ErrorBody.properties.retry_after_seconds, 'the 409 body may say when to ask again');
  // every value the code can produce is in the enums
  const row = schemas.AssetResult.properties;
  const tiers = new Set([...Object.values(HAZARD_META).map((m) => m.tier), OWN_DATA_TIER, 'published dataset']);
  for (const t of tiers) assert.ok(row.data_tier.enum.includes(t), `tier ${t}`);
  const bands = new Set(['No data', ...Array.from({ length: 101 }, (_, i) => severityBand(i))]);
  assert.deepEqual([...bands].sort(), [...row.band.enum].sort());
});
