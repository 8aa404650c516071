import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { REPO_ROOT } from '../src/config.js';
import { writeGeoTiff } from './support/geotiff-writer.js';
import { serverEntryArgs } from './support/entries.js';
import { createTestDatabase, onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Published flood datasets (issue 34 item 2) end to end: the test writes small GeoTIFFs named and laid out as WRI
 * Aqueduct Floods publishes them (EPSG:4326, several return periods, historical + RCP8.5 2050, riverine and coastal)
 * and a several-GB sparse BigTIFF named as the JRC maps, registers them with the real command (child process) and the
 * operator route, and checks that the point API, the results API (JSON and CSV), the spreadsheet export and the
 * dashboard read their depths where they cover an asset, marked 'published dataset'; bad names and headers are refused
 * naming the file; a non-operator gets 403.
 */
const RIVER = { name: 'Floodplain warehouse', latitude: 23.71, longitude: 90.41, property_type: 'Warehouse', valuation: 5e6 };
const COAST = { name: 'Coastal depot', latitude: 22.33, longitude: 91.81, property_type: 'Warehouse', valuation: 4e6 };
const NODATA_SPOT = { name: 'Outside the maps', latitude: 21.1, longitude: 89.05, property_type: 'Office', valuation: 3e6 };
const MADRID = { name: 'Madrid office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 };
const SAIGON = { latitude: 10.8, longitude: 106.7 };

const AQ_RPS = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
/** Test depths (m) by return period: a fixture of this test, not hazard data. */
const HIST = [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6];
const RCP85_2050 = [0, 0.7, 0.9, 1.1, 1.3, 1.5, 1.7, 1.9, 2.1];
const COAST_RPS = [10, 100, 1000];
const COAST_HIST = [0.3, 0.6, 0.9];
const COAST_85_WTSUB_P50 = [0.5, 1.0, 1.5];
const COAST_85_WTSUB_P95 = [0.8, 1.6, 2.4];
const COAST_85_NOSUB_P95 = [0.7, 1.4, 2.1];
/** Grid: 89-93°E, 21-25°N at 0.25°; the westernmost column (89-89.25°E) is nodata. */
const GRID = { width: 16, height: 16, west: 89, north: 25, res: 0.25, nodata: -9999 };

function cli(env: Record<string, string | undefined>, entry: 'hazards-register' | 'admin', ...args: string[]) {
  const res = spawnSync(process.execPath, [...serverEntryArgs(entry), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout + res.stderr };
}

function writeAqueduct(dir: string) {
  mkdirSync(dir, { recursive: true });
  const grid = (v: number, i: number) => ({
    ...GRID,
    value: (_r: number, c: number) => (c === 0 ? -9999 : v),
    // the layouts GDAL writes: strips, and tiles with DEFLATE and the floating-point predictor
    ...(i % 2 ? { tile: 16, deflate: true, predictor: 3 as const } : {}),
  });
  AQ_RPS.forEach((rp, i) => {
    const r5 = String(rp).padStart(5, '0');
    writeGeoTiff(join(dir, `inunriver_historical_000000000WATCH_1980_rp${r5}.tif`), grid(HIST[i]!, i));
    writeGeoTiff(join(dir, `inunriver_rcp8p5_00000NorESM1-M_2050_rp${r5}.tif`), grid(RCP85_2050[i]!, i + 1));
  });
  COAST_RPS.forEach((rp, i) => {
    const r4 = String(rp).padStart(4, '0');
    writeGeoTiff(join(dir, `inuncoast_historical_nosub_hist_rp${r4}_0.tif`), grid(COAST_HIST[i]!, i));
    writeGeoTiff(join(dir, `inuncoast_rcp8p5_wtsub_2050_rp${r4}_0_perc_50.tif`), grid(COAST_85_WTSUB_P50[i]!, i));
    writeGeoTiff(join(dir, `inuncoast_rcp8p5_wtsub_2050_rp${r4}_0.tif`), grid(COAST_85_WTSUB_P95[i]!, i));
    writeGeoTiff(join(dir, `inuncoast_rcp8p5_nosub_2050_rp${r4}_0.tif`), grid(COAST_85_NOSUB_P95[i]!, i));
  });
  writeFileSync(join(dir, 'README.txt'), 'other files are ignored');
}

describe('published flood datasets: register, read by window, use and mark', () => {
  const root = mkdtempSync(join(tmpdir(), 'crp-published-'));
  const aqDir = join(root, 'aqueduct');
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: Record<string, string | undefined>;
  let s: TestServer;
  let op: Awaited<ReturnType<typeof registerAndLogin>>;
  let other: Awaited<ReturnType<typeof registerAndLogin>>;
  let builtIn: { intensity: number; eal: number; tier: string };
  let projectId = 0;

  before(async () => {
    writeAqueduct(aqDir);
    database = await createTestDatabase();
    env = { DATA_DIR: database.overrides.DATA_DIR, DATABASE_URL: database.overrides.DATABASE_URL, LOG_LEVEL: 'silent' };
    // users first (PGlite: one process at a time), and the built-in answer for the river asset before any registration
    const s1 = await startServer(database.overrides);
    op = await onPaidPlan(s1, await registerAndLogin(s1.api));
    other = await onPaidPlan(s1, await registerAndLogin(s1.api));
    const posted = await s1.api.post('/api/v2/asset_results/', {
      token: op.token,
      json: { assets: [RIVER], hazards: ['river_flood'], scenarios: ['85'], years: [2050] },
    });
    assert.equal(posted.status, 200, JSON.stringify(posted.body).slice(0, 300));
    builtIn = { intensity: posted.body.results[0].intensity, eal: posted.body.results[0].expected_annual_loss_usd, tier: posted.body.results[0].data_tier };
    await s1.close();
  });
  after(async () => {
    await s?.close();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  test('the command refuses bad names and headers naming the file, registers idempotently, lists and removes', () => {
    const bad = join(root, 'bad');
    mkdirSync(bad);
    writeGeoTiff(join(bad, 'inunriver_rcp8p5_00000NorESM1-M_2050_rp00100.tif'), { ...GRID, value: () => 1 });
    writeGeoTiff(join(bad, 'river_depth_100yr.tif'), { ...GRID, value: () => 1 });
    writeGeoTiff(join(bad, 'inunriver_rcp8p5_00000NorESM1-M_2045_rp00100.tif'), { ...GRID, value: () => 1 });
    writeGeoTiff(join(bad, 'inuncoast_historical_nosub_hist_rp0100_0.tif'), { ...GRID, value: () => 1, projected: true, epsg: 32646 });
    writeFileSync(join(bad, 'inunriver_historical_000000000WATCH_1980_rp00010.tif'), 'not a tiff at all');
    const r = cli(env, 'hazards-register', bad);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /nothing registered; 4 problem\(s\)/);
    assert.match(r.out, /river_depth_100yr\.tif: not a published flood-map file name; expected an Aqueduct Floods name/);
    assert.match(r.out, /_2045_rp00100\.tif: year 2045 is not one of Aqueduct's future years \(2030, 2050, 2080\)/);
    assert.match(r.out, /inuncoast_historical_nosub_hist_rp0100_0\.tif: the CRS is projected \(EPSG:32646\); published maps must be EPSG:4326/);
    assert.match(r.out, /inunriver_historical_000000000WATCH_1980_rp00010\.tif: not a TIFF/);

    const ok = cli(env, 'hazards-register', aqDir, '--name', 'Aqueduct test');
    assert.equal(ok.code, 0, ok.out);
    assert.match(
      ok.out,
      /registered 'Aqueduct test': 30 file\(s\).*river_flood \+ storm_surge, historical, rcp8p5 2050, return periods 2, 5, 10, 25, 50, 100, 250, 500, 1000 y/,
    );
    const again = cli(env, 'hazards-register', aqDir, '--name', 'Aqueduct test');
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /^re-registered 'Aqueduct test': 30 file/m);
    const other = cli(env, 'hazards-register', aqDir, '--name', 'Second copy');
    assert.equal(other.code, 0, other.out);
    const list = cli(env, 'hazards-register', '--list');
    assert.equal(list.out.trim().split('\n').length, 2, list.out);
    assert.match(list.out, /^Aqueduct test: 30 file\(s\)/m);
    assert.equal(cli(env, 'hazards-register', '--remove', 'Second copy').code, 0);
    assert.match(cli(env, 'hazards-register', '--remove', 'Second copy').out, /no published dataset named 'Second copy'/);
    const opSet = cli(env, 'admin', 'set-operator', '--company', op.company_code, '--username', op.username);
    assert.equal(opSet.code, 0, opSet.out);
  });

  test('the point API reads the maps where they cover the point, for any company, with the nearest scenario and year', async () => {
    s = await startServer(database.overrides, { jobs: true });
    const point = (p: { latitude: number; longitude: number }, q: string, token = other.token) =>
      s.api.get(`/api/v2/hazard/point/?latitude=${p.latitude}&longitude=${p.longitude}&${q}`, { token });
    const f85 = await point(RIVER, 'scenario=85&year=2050');
    assert.equal(f85.status, 200);
    const river = f85.body.hazards.river_flood;
    assert.equal(river.tier, 'published dataset');
    assert.equal(river.value, 1.5);
    assert.deepEqual(river.return_periods, { returnPeriodsYears: AQ_RPS, intensities: RCP85_2050 });
    assert.match(river.source, /^published dataset: Aqueduct test \(river, RCP8\.5, 2050, NorESM1-M\); replaces built-in layer at this point$/);
    // 2020 reads the historical maps; SSP2-4.5 (no RCP4.5 registered) the nearest registered scenario, RCP8.5
    assert.deepEqual((await point(RIVER, 'scenario=85&year=2020')).body.hazards.river_flood.return_periods.intensities, HIST);
    assert.match((await point(RIVER, 'scenario=45&year=2080')).body.hazards.river_flood.source, /RCP8\.5, 2050/);
    // coastal: with subsidence before without, the median sea-level rise before the 95th percentile
    const coast = (await point(COAST, 'scenario=85&year=2050')).body.hazards.storm_surge;
    assert.equal(coast.tier, 'published dataset');
    assert.deepEqual(coast.return_periods, { returnPeriodsYears: COAST_RPS, intensities: COAST_85_WTSUB_P50 });
    assert.match(coast.source, /coast, RCP8\.5, 2050, with subsidence, SLR p50/);
    // nodata and outside the grid: the built-in layer
    for (const p of [NODATA_SPOT, MADRID]) {
      const h = (await point(p, 'scenario=85&year=2050')).body.hazards;
      assert.notEqual(h.river_flood.tier, 'published dataset', `${p.name}: built-in`);
      assert.notEqual(h.storm_surge.tier, 'published dataset');
    }
    assert.ok(!JSON.stringify(f85.body).includes(aqDir), 'no server path in an answer');
  });

  test('analyses, the results API, the CSV and spreadsheet exports and the dashboard use and mark the depths', async () => {
    const res = await s.api.post('/api/v2/create_project/', {
      token: other.token,
      json: { portfolio_name: 'Published maps', data: [RIVER, COAST, NODATA_SPOT, MADRID], portfolio_variables: ['River Flood', 'Storm Surge'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    assert.equal((await waitForAnalysis(s, other.token, projectId)).status, 'done');

    const sel = { hazards: ['river_flood', 'storm_surge'], scenarios: ['85'], years: [2050] };
    const rows = await s.api.post('/api/v2/asset_results/', { token: other.token, json: { project_id: projectId, ...sel } });
    assert.equal(rows.status, 200, JSON.stringify(rows.body).slice(0, 300));
    const cell = (name: string, h: string) => rows.body.results.find((r: { asset_name: string; hazard: string }) => r.asset_name === name && r.hazard === h);
    const river = cell(RIVER.name, 'river_flood');
    assert.deepEqual(
      [river.intensity, river.data_tier, river.published_dataset, river.own_data_layer],
      [1.5, 'published dataset', 'Aqueduct test (river, RCP8.5, 2050, NorESM1-M)', null],
    );
    assert.notEqual(river.expected_annual_loss_usd, builtIn.eal, 'the money follows the published depths');
    assert.notEqual(builtIn.tier, 'published dataset');
    assert.deepEqual([cell(COAST.name, 'storm_surge').intensity, cell(COAST.name, 'storm_surge').data_tier], [1, 'published dataset']);
    for (const name of [NODATA_SPOT.name, MADRID.name]) {
      assert.equal(cell(name, 'river_flood').published_dataset, null);
      assert.notEqual(cell(name, 'river_flood').data_tier, 'published dataset');
    }
    // posted assets (no project): the same figures and marks as the stored analysis
    const posted = await s.api.post('/api/v2/asset_results/', {
      token: op.token,
      json: { assets: [RIVER], hazards: ['river_flood'], scenarios: ['85'], years: [2050] },
    });
    assert.deepEqual(
      [posted.body.results[0].intensity, posted.body.results[0].data_tier, posted.body.results[0].expected_annual_loss_usd],
      [1.5, 'published dataset', river.expected_annual_loss_usd],
    );

    const csv = await fetch(`${s.url}/api/v2/asset_results/?format=csv`, {
      method: 'POST',
      headers: { authorization: `Token ${other.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, ...sel }),
    });
    assert.equal(csv.status, 200);
    const text = await csv.text();
    const lines = text.split(/\r?\n/);
    const header = lines[0]!.split(',');
    const line = lines.find((l) => l.includes(RIVER.name) && l.includes('river_flood'))!;
    assert.ok(header.includes('published_dataset') && header.includes('data_tier'), header.join(','));
    assert.match(line, /published dataset/);
    assert.match(line, /Aqueduct test \(river, RCP8\.5, 2050, NorESM1-M\)/);

    const xlsx = await s.api.post('/api/v2/download_csv_report/', {
      token: other.token,
      form: {
        project_name: 'Published maps',
        climate_variables: JSON.stringify(['River Flood']),
        year_list: JSON.stringify([2050]),
        scenario_list: JSON.stringify(['85']),
        analysis_type: 'ssp',
      },
    });
    assert.equal(xlsx.status, 200, JSON.stringify(xlsx.body).slice(0, 300));
    const wb = XLSX.read(Buffer.from(await (await fetch(s.url + xlsx.body.url)).arrayBuffer()), { type: 'buffer' });
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Analysis!);
    const xr = sheet.find((r) => r.Asset === RIVER.name)!;
    assert.deepEqual([xr.Intensity, xr['Data tier'], xr['Published dataset']], [1.5, 'published dataset', 'Aqueduct test (river, RCP8.5, 2050, NorESM1-M)']);
    assert.equal(sheet.find((r) => r.Asset === MADRID.name)!['Published dataset'], '');

    const dash = await s.api.post('/api/v2/dashboard/', {
      token: other.token,
      form: { project_name: 'Published maps', analysis_type: 'ssp', scenario: '85', year: 2050 },
    });
    assert.equal(dash.status, 200, JSON.stringify(dash.body).slice(0, 300));
    assert.deepEqual(dash.body.project.published_data.hazards, ['River Flood', 'Storm Surge']);
    assert.equal(dash.body.project.published_data.assets, 2);
    assert.ok(dash.body.project.published_data.datasets.includes('Aqueduct test (river, RCP8.5, 2050, NorESM1-M)'));
    assert.equal(dash.body.project.own_data, null);
  });

  test('operator route: 403 for others, 400 naming the file, a several-GB sparse JRC BigTIFF registered and read by window', async () => {
    assert.equal((await s.api.get('/api/v2/published_datasets/', { token: other.token })).status, 403);
    assert.equal((await s.api.post('/api/v2/published_datasets/', { token: other.token, json: { directory: aqDir } })).status, 403);
    assert.equal((await s.api.request('DELETE', '/api/v2/published_datasets/Aqueduct%20test/', { token: other.token })).status, 403);
    const list = await s.api.get('/api/v2/published_datasets/', { token: op.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.datasets.map((d: { name: string; file_count: number; hazards: string[] }) => [d.name, d.file_count, d.hazards]),
      [['Aqueduct test', 30, ['river_flood', 'storm_surge']]],
    );

    const bad = join(root, 'bad-route');
    mkdirSync(bad);
    writeGeoTiff(join(bad, 'floodMapGL_rp100y.tif'), { ...GRID, value: () => 1, epsg: 4269 });
    const refused = await s.api.post('/api/v2/published_datasets/', { token: op.token, json: { directory: bad } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /^directory: 1 problem\(s\): floodMapGL_rp100y\.tif: the CRS is EPSG:4269; published maps must be EPSG:4326/);
    assert.equal((await s.api.post('/api/v2/published_datasets/', { token: op.token, json: {} })).status, 400);

    // JRC v1's global 30″ grid (43,200 × 21,600 float32: 3.7 GB decoded), BigTIFF, every tile absent but the one
    // holding Saigon, whose bytes lie beyond 5 GiB in a sparse file
    const jrc = join(root, 'jrc');
    mkdirSync(jrc);
    const res = 1 / 120;
    const tile = 256;
    const idx =
      Math.floor(Math.floor((90 - SAIGON.latitude) / res) / tile) * Math.ceil(43200 / tile) + Math.floor(Math.floor((SAIGON.longitude + 180) / res) / tile);
    const file = join(jrc, 'floodMapGL_rp100y.tif');
    writeGeoTiff(file, {
      width: 43200,
      height: 21600,
      west: -180,
      north: 90,
      res,
      value: () => 2.75,
      nodata: -9999,
      tile,
      deflate: true,
      bigTiff: true,
      only: [idx],
      dataAt: 5 * 2 ** 30,
    });
    assert.ok(statSync(file).size > 5 * 2 ** 30, 'a several-GB file');
    const reg = await s.api.post('/api/v2/published_datasets/', { token: op.token, json: { directory: jrc, name: 'JRC global' } });
    assert.equal(reg.status, 201, JSON.stringify(reg.body).slice(0, 400));
    assert.equal(reg.body.dataset.files[0].width, 43200);
    assert.ok(reg.body.reanalysed >= 1, 'every portfolio is re-analysed');
    const pt = await s.api.get(`/api/v2/hazard/point/?latitude=${SAIGON.latitude}&longitude=${SAIGON.longitude}&scenario=85&year=2050`, { token: other.token });
    assert.equal(pt.body.hazards.river_flood.tier, 'published dataset');
    assert.equal(pt.body.hazards.river_flood.value, 2.75);
    assert.match(pt.body.hazards.river_flood.source, /^published dataset: JRC global \(river, historical\)/);
    // where the JRC file has no tile, the Aqueduct maps still answer
    const dh = await s.api.get(`/api/v2/hazard/point/?latitude=${RIVER.latitude}&longitude=${RIVER.longitude}&scenario=85&year=2050`, { token: other.token });
    assert.match(dh.body.hazards.river_flood.source, /Aqueduct test/);
    assert.equal((await waitForAnalysis(s, other.token, projectId)).status, 'done');
    const del = await s.api.request('DELETE', '/api/v2/published_datasets/JRC%20global/', { token: op.token });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal((await s.api.request('DELETE', '/api/v2/published_datasets/JRC%20global/', { token: op.token })).status, 404);
  });
});
