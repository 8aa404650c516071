import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { HAZARD_KEYS, legendClassIndex, MAP_LEGENDS } from '@crp/contracts';
import { loadHazardLayers, newCurveSample, RETURN_PERIODS_YEARS } from '@crp/hazards';
import { decodePng } from './support/png.js';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** Direct sampling of the layers, independent of the server's map code. */
const layers = loadHazardLayers();
const N_RP = RETURN_PERIODS_YEARS.length;
const I100 = RETURN_PERIODS_YEARS.indexOf(100);
const baseline = layers.resolveScenario({ analysisType: 'ssp', scenario: '85', year: 2020 });
const out = newCurveSample();
const surge100 = (lat: number, lng: number) => layers.sampleCurves(lat, lng, baseline, out).curves[N_RP + I100]!;
const rain = (rp: (typeof RETURN_PERIODS_YEARS)[number]) => (lat: number, lng: number) =>
  layers.sampleCurves(lat, lng, baseline, out).curves[3 * N_RP + RETURN_PERIODS_YEARS.indexOf(rp)]!;

/** Forward spherical Web Mercator (EPSG:3857) to global pixel coordinates at zoom z, 256 px tiles. */
function project(lat: number, lng: number, z: number) {
  const world = 256 * 2 ** z;
  const s = Math.sin((lat * Math.PI) / 180);
  return { px: ((lng + 180) / 360) * world, py: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world };
}

const hex = (rgba: number[]) =>
  `#${rgba
    .slice(0, 3)
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')}`;

async function getTile(s: TestServer, path: string, token?: string) {
  const res = await fetch(s.url + path, { headers: token ? { authorization: `Token ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), buf: Buffer.from(await res.arrayBuffer()) };
}

describe('map legends', () => {
  test('class edges follow spec 001 §9 (flood ">2" keeps 2 in 1.5-2; surge ">=1.5"; wildfire steps of 15, "<" upper edges)', () => {
    const rf = MAP_LEGENDS.rainfall_flood,
      ss = MAP_LEGENDS.storm_surge,
      wf = MAP_LEGENDS.wildfire;
    assert.equal(rf.title, 'Flood in meters');
    assert.deepEqual(
      rf.classes.map((c) => c.label),
      ['0-0.25', '0.25-0.5', '0.5-0.75', '0.75-1', '1-1.5', '1.5-2', '>2'],
    );
    assert.deepEqual(
      ss.classes.map((c) => c.label),
      ['0-0.25', '0.25-0.5', '0.5-0.75', '0.75-1', '1-1.5', '>=1.5'],
    );
    assert.deepEqual(
      wf.classes.map((c) => c.label),
      ['<15', '15-<30', '30-<45', '45-<60', '60-<75', '>=75'],
    );
    const cases: [typeof rf, number, number][] = [
      [rf, 0, 0],
      [rf, Number.NaN, 0],
      [rf, 0.01, 1],
      [rf, 0.25, 1],
      [rf, 0.2501, 2],
      [rf, 0.75, 3],
      [rf, 1, 4],
      [rf, 1.5, 5],
      [rf, 2, 6],
      [rf, 2.0001, 7],
      [rf, 40, 7],
      [ss, 0, 0],
      [ss, 0.2499, 1],
      [ss, 0.25, 2],
      [ss, 1, 5],
      [ss, 1.4999, 5],
      [ss, 1.5, 6],
      [ss, 9, 6],
      [wf, 0, 0],
      [wf, 14.99, 1],
      [wf, 15, 2],
      [wf, 29.99, 2],
      [wf, 30, 3],
      [wf, 45, 4],
      [wf, 60, 5],
      [wf, 74.99, 5],
      [wf, 75, 6],
      [wf, 100, 6],
    ];
    for (const [legend, v, want] of cases) assert.equal(legendClassIndex(legend, v), want, `${legend.layer} ${v}`);
  });
});

describe('map module API', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let stranger: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
    stranger = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test('a high storm-surge cell of the native grid lands in the right pixel of the right tile (Web Mercator), its neighbour keeps its own class', async () => {
    // scan the Pearl River estuary for two east-west neighbours of different class, one of them high (>= 1 m), on the
    // surge's native grid (1′: the coastline-distance layer; docs/methodology/hazards.md)
    const perDeg = 60;
    const res = 1 / perDeg;
    let found: { lat: number; lng: number; v: number; vE: number } | null = null;
    for (let r = Math.floor((90 - 23) * perDeg); r < Math.floor((90 - 21) * perDeg) && !found; r++) {
      for (let c = Math.floor((180 + 112) * perDeg); c < Math.floor((180 + 115) * perDeg); c++) {
        const lat = 90 - (r + 0.5) * res,
          lng = (c + 0.5) * res - 180;
        const v = surge100(lat, lng),
          vE = surge100(lat, lng + res);
        const k = legendClassIndex(MAP_LEGENDS.storm_surge, v),
          kE = legendClassIndex(MAP_LEGENDS.storm_surge, vE);
        if (k >= 5 && kE !== k) {
          found = { lat, lng, v, vE };
          break;
        }
      }
    }
    assert.ok(found, 'a high-surge cell with a different eastern neighbour exists');
    const z = 11;
    const east = found.lng + res / 2; // the cell's east edge
    // a point 3 px west of the east edge (inside the cell) and 3 px east of it (inside the neighbour)
    const { py } = project(found.lat, found.lng, z);
    const edge = project(found.lat, east, z).px;
    for (const [gx, want] of [
      [edge - 3, found.v],
      [edge + 3, found.vE],
    ] as const) {
      const tx = Math.floor(gx / 256),
        ty = Math.floor(py / 256);
      const tile = await getTile(s, `/api/v2/map_tiles/storm_surge_rp/${tx}/${ty}/${z}?return_period=100yr&country_code=CN`, owner.token);
      assert.equal(tile.status, 200);
      assert.equal(tile.type, 'image/png');
      const png = decodePng(tile.buf);
      assert.equal(png.width, 256);
      assert.equal(png.height, 256);
      const rgba = png.rgba(Math.floor(gx) - tx * 256, Math.floor(py) - ty * 256);
      const k = legendClassIndex(MAP_LEGENDS.storm_surge, want);
      if (k === 0) assert.equal(rgba[3], 0, 'no surge is transparent');
      else {
        assert.equal(hex(rgba), MAP_LEGENDS.storm_surge.classes[k - 1]!.color, `surge ${want} m at pixel`);
        assert.equal(rgba[3], 255);
      }
    }
  });

  test('a rainfall-flood tile over Hong Kong at zoom 12 shows the 0.1° cell value of the layers', async () => {
    const lat = 22.3456,
      lng = 114.1234,
      z = 12;
    const { px, py } = project(lat, lng, z);
    const tx = Math.floor(px / 256),
      ty = Math.floor(py / 256);
    const tile = await getTile(s, `/api/v2/map_tiles/rainfall_flood/${tx}/${ty}/${z}?return_period=100yr&country_code=HK&region_code=Central`, owner.token);
    assert.equal(tile.status, 200);
    const rgba = decodePng(tile.buf).rgba(Math.floor(px) - tx * 256, Math.floor(py) - ty * 256);
    const k = legendClassIndex(MAP_LEGENDS.rainfall_flood, rain(100)(lat, lng));
    assert.ok(k > 0, 'Hong Kong has a 100-year rainfall flood depth');
    assert.equal(hex(rgba), MAP_LEGENDS.rainfall_flood.classes[k - 1]!.color);
    // the open ocean is transparent
    const sea = project(10, -140, 6);
    const t2 = await getTile(s, `/api/v2/map_tiles/rainfall_flood/${Math.floor(sea.px / 256)}/${Math.floor(sea.py / 256)}/6?return_period=100yr`, owner.token);
    assert.equal(decodePng(t2.buf).rgba(Math.floor(sea.px) % 256, Math.floor(sea.py) % 256)[3], 0);
  });

  test('tiles need the token and name bad parameters', async () => {
    assert.equal((await getTile(s, '/api/v2/map_tiles/wildfire/0/0/0?scenario_year=85_2050')).status, 401);
    assert.equal((await getTile(s, '/api/v2/map_tiles/wildfire/0/0/0?scenario_year=85_2050', 'not-a-token')).status, 401);
    const cases: [string, string][] = [
      ['/api/v2/map_tiles/wildfire/0/0/0', 'scenario_year'],
      ['/api/v2/map_tiles/wildfire/0/0/0?scenario_year=45_2070', 'scenario_year'],
      ['/api/v2/map_tiles/rainfall_flood/0/0/0', 'return_period'],
      ['/api/v2/map_tiles/storm_surge_rp/0/0/0?return_period=7yr', 'return_period'],
      ['/api/v2/map_tiles/storm_surge_rp/2/0/1?return_period=100yr', 'x'],
      ['/api/v2/map_tiles/storm_surge_rp/0/2/1?return_period=100yr', 'y'],
      ['/api/v2/map_tiles/storm_surge_rp/0/0/23?return_period=100yr', 'z'],
      ['/api/v2/map_tiles/river/0/0/0?return_period=100yr', 'layer'],
      ['/api/v2/map_tiles/wildfire/0/0/0?scenario_year=85_2050&country_code=12', 'country_code'],
    ];
    for (const [path, field] of cases) {
      const res = await s.api.get(path, { token: owner.token });
      assert.equal(res.status, 400, path);
      assert.ok(JSON.stringify(res.body).includes(field), `${path}: ${JSON.stringify(res.body)}`);
    }
    const w = await getTile(s, '/api/v2/map_tiles/wildfire/0/0/0?scenario_year=85_2050', owner.token);
    assert.equal(w.status, 200);
    assert.ok(decodePng(w.buf).width === 256);
    // zoom 22 is served
    const p = project(22.3, 114.17, 22);
    const deep = await getTile(s, `/api/v2/map_tiles/rainfall_flood/${Math.floor(p.px / 256)}/${Math.floor(p.py / 256)}/22?return_period=10yr`, owner.token);
    assert.equal(deep.status, 200);
  });

  test('dataset lookup: land near the coast has all three; the open ocean none', async () => {
    const hk = await s.api.post('/api/v2/map_datasets/', { token: owner.token, form: { latitude: 22.25, longitude: 114.15 } });
    assert.equal(hk.status, 200);
    for (const k of ['rainfall_flood', 'storm_surge', 'wildfire'] as const) assert.ok(hk.body[k].length > 0, k);
    assert.deepEqual(hk.body.rainfall_flood[0], { key: '10-year return period', value: '10yr' });
    assert.deepEqual(
      hk.body.wildfire.map((d: { value: string }) => d.value),
      ['00_2020', '85_2030', '85_2050'],
    );
    const sea = await s.api.post('/api/v2/map_datasets/', { token: owner.token, form: { latitude: 10, longitude: -140 } });
    assert.deepEqual(sea.body, { rainfall_flood: [], storm_surge: [], wildfire: [] });
    const inland = await s.api.post('/api/v2/map_datasets/', { token: owner.token, form: { latitude: 30.0, longitude: 100.0 } });
    assert.equal(inland.body.storm_surge.length, 0, 'no storm surge 1,000 km from the sea');
    const bad = await s.api.post('/api/v2/map_datasets/', { token: owner.token, form: { latitude: 95, longitude: 0 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'latitude');
  });

  test('createMap validates every field and the name is unique per user', async () => {
    const base = {
      name: 'Bad map',
      address: 'Hong Kong',
      latitude: 22.3,
      longitude: 114.2,
      portfolio_variables: '["Rainfall Flood"]',
      distance: 1,
      duration_data: '["100yr"]',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: ' ab ' }, 'name'],
      [{ latitude: 'north' }, 'latitude'],
      [{ portfolio_variables: '["River Flood"]' }, 'portfolio_variables'],
      [{ portfolio_variables: '["Rainfall Flood","Wildfire"]' }, 'portfolio_variables'],
      [{ distance: 2 }, 'distance'],
      [{ duration_data: '[]' }, 'duration_data'],
      [{ duration_data: '["7yr"]' }, 'duration_data'],
      [{ portfolio_variables: '["Wildfire"]', duration_data: '["85_2050"]', distance: 1 }, 'distance'],
      [{ latitude: 10, longitude: -140 }, 'portfolio_variables'],
    ];
    for (const [patch, field] of cases) {
      const res = await s.api.post('/api/v2/create_map_project/', { token: owner.token, form: { ...base, ...patch } as unknown as Record<string, string> });
      assert.equal(res.status, 400, JSON.stringify(patch));
      assert.ok(String(res.body.errors?.[0]?.field).startsWith(field), `${JSON.stringify(patch)} -> ${JSON.stringify(res.body)}`);
    }
    const ok = await s.api.post('/api/v2/create_map_project/', { token: owner.token, form: { ...base, name: 'Unique map' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.name, 'Unique map');
    const again = await s.api.post('/api/v2/create_map_project/', { token: owner.token, form: { ...base, name: 'unique MAP' } });
    assert.equal(again.status, 400);
    assert.equal(again.body.errors[0].field, 'name');
    assert.equal((await s.api.post('/api/v2/create_map_project/', { form: base })).status, 401);
  });

  test('generateMap: average, max and min inside the box match direct sampling of the layers', async () => {
    // a point on a 0.1° corner: the 3 km box overlaps four rainfall-flood cells
    const lat = 22.3,
      lng = 114.2,
      distance = 3;
    const create = await s.api.post('/api/v2/create_map_project/', {
      token: owner.token,
      form: {
        name: 'Kowloon flood',
        address: 'Kowloon, Hong Kong',
        latitude: lat,
        longitude: lng,
        portfolio_variables: JSON.stringify(['Rainfall Flood']),
        distance,
        duration_data: JSON.stringify(['100yr', '10yr', '1000yr']),
      },
    });
    assert.equal(create.status, 201, JSON.stringify(create.body));
    const r = await s.api.post('/api/v2/generate_map/', { token: owner.token, form: { name: 'Kowloon flood' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const m = r.body;
    assert.equal(m.country_code, 'HK');
    assert.equal(m.distance, 3);
    assert.deepEqual(m.coordinates, { latitude: lat, longitude: lng });
    assert.deepEqual(m.portfolio_variables, ['Rainfall Flood']);
    assert.deepEqual(m.duration_data, ['10yr', '100yr', '1000yr']);
    assert.match(m.resolution, /0\.1° grid \(about 11 km\); coarsest input about 280 km/);
    assert.equal(m.cells, 4);
    assert.ok(m.population > 1000, `Hong Kong's 1° cell is dense: ${m.population}`);
    assert.ok(m.gdp > 1e11 && m.gdp_year >= 2020, `Hong Kong GDP ${m.gdp}`);
    assert.deepEqual(m.storm_surge, { average: {}, max: {}, min: {} });
    // independent check: a dense lattice of points over the 3 km x 3 km box (half-side 1,500 m)
    const dLat = 1500 / 111_195.08,
      dLng = dLat / Math.cos((lat * Math.PI) / 180);
    for (const rp of [10, 100, 1000] as const) {
      const key = `${rp}yr`;
      const f = rain(rp);
      const vals: number[] = [];
      for (let i = 0; i <= 60; i++)
        for (let j = 0; j <= 60; j++) vals.push(f(lat - dLat + (2 * dLat * (i + 0.5)) / 61, lng - dLng + (2 * dLng * (j + 0.5)) / 61));
      const mean = vals.reduce((a, b) => a + b, 0) / vals.length;
      assert.ok(Math.abs(m.rainfall_flood.max[key] - Math.max(...vals)) < 1e-4, `${key} max ${m.rainfall_flood.max[key]} vs ${Math.max(...vals)}`);
      assert.ok(Math.abs(m.rainfall_flood.min[key] - Math.min(...vals)) < 1e-4, `${key} min`);
      assert.ok(
        Math.abs(m.rainfall_flood.average[key] - mean) <= 0.01 * Math.max(mean, 1e-3) + 1e-4,
        `${key} average ${m.rainfall_flood.average[key]} vs ${mean}`,
      );
    }
    assert.ok(m.rainfall_flood.average['1000yr'] > m.rainfall_flood.average['10yr'], 'deeper at longer return periods');
  });

  test('MapValue answers the point values; flood variants grow with warming', async () => {
    const r = await s.api.post('/api/v2/map_value/', {
      token: owner.token,
      form: { latitude: 22.3, longitude: 114.2, variable: 'Rainfall Flood', duration_data: '100yr', country_code: 'HK' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const k of ['hand', 'elevation', 'no_of_days', 'slope', 'flood', 'value', 'value_00_2020', 'value_85_2030', 'value_85_2050'])
      assert.ok(k in r.body, k);
    assert.ok(Math.abs(r.body.value - rain(100)(22.3, 114.2)) < 1e-4);
    assert.equal(r.body.flood, r.body.value);
    assert.ok(r.body.value_85_2050 >= r.body.value_00_2020);
    const hand = layers.layer('river_hand')!;
    const raw = hand.data[Math.floor((90 - 22.3) * 12) * 4320 + Math.floor((114.2 + 180) * 12)]!;
    assert.equal(r.body.hand, raw === 255 ? null : raw * hand.entry.scale);
    assert.equal(r.body.no_of_days, null);
    const w = await s.api.post('/api/v2/map_value/', { token: owner.token, form: { latitude: 22.25, longitude: 114.25, variable: 'Wildfire' } });
    assert.equal(w.status, 200);
    assert.equal(w.body.flood, null);
    const ctx = layers.resolveScenario({ analysisType: 'ssp', scenario: '85', year: 2050 });
    const direct = layers.sampleCurves(22.25, 114.25, ctx, out).values[HAZARD_KEYS.indexOf('wildfire')]! * 100;
    assert.ok(Math.abs(w.body.value_85_2050 - direct) < 1e-3, `${w.body.value_85_2050} vs ${direct}`);
    const bad = await s.api.post('/api/v2/map_value/', {
      token: owner.token,
      form: { latitude: 22.25, longitude: 114.25, variable: 'Wildfire', duration_data: '100yr' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'duration_data');
  });

  test('map projects follow the sharing rules: another company gets 404; a colleague after sharing can read and download', async () => {
    const create = await s.api.post('/api/v2/create_map_project/', {
      token: owner.token,
      form: {
        name: 'Shared surge',
        address: 'Aberdeen, Hong Kong',
        latitude: 22.25,
        longitude: 114.15,
        portfolio_variables: '["Storm Surge"]',
        distance: 5,
        duration_data: '["100yr","1000yr"]',
      },
    });
    assert.equal(create.status, 201, JSON.stringify(create.body));
    const other = await s.api.post('/api/v2/generate_map/', { token: stranger.token, form: { name: 'Shared surge' } });
    assert.equal(other.status, 404);
    assert.equal((await s.api.post('/api/v2/download_map/', { token: stranger.token, form: { project_name: 'Shared surge' } })).status, 404);
    const theirList = await s.api.get('/api/v2/map_projects/', { token: stranger.token });
    assert.deepEqual(theirList.body, []);

    const u = newUser({ company_code: owner.company_code });
    const reg = await s.api.post('/api/user/register/', { json: u });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
    const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: owner.company_code } });
    const colleague = login.body.token as string;
    assert.equal((await s.api.post('/api/v2/generate_map/', { token: colleague, form: { name: 'Shared surge' } })).status, 404, 'not shared yet');
    const share = await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      json: { project_id: create.body.project_id, share_with: [reg.body.user.id], permission: 'read' },
    });
    assert.equal(share.status, 201, JSON.stringify(share.body));
    const g = await s.api.post('/api/v2/generate_map/', { token: colleague, form: { name: 'Shared surge' } });
    assert.equal(g.status, 200);
    assert.ok(g.body.storm_surge.max['1000yr'] >= g.body.storm_surge.max['100yr']);
    assert.match(g.body.resolution, /^1′ grid \(about 1\.9 km\); effective resolution about 9\.3 km/);
    const list = await s.api.get('/api/v2/map_projects/', { token: colleague });
    assert.deepEqual(
      list.body.map((p: { name: string; distance: number; portfolio_variable: string; permission: string }) => [
        p.name,
        p.distance,
        p.portfolio_variable,
        p.permission,
      ]),
      [['Shared surge', 5, 'Storm Surge', 'read']],
    );
    const names = await s.api.get('/api/project/all_projects/?list_for=map_module', { token: colleague });
    assert.deepEqual(
      names.body.map((p: { name: string }) => p.name),
      ['Shared surge'],
    );

    const dl = await s.api.post('/api/v2/download_map/', { token: colleague, form: { project_name: 'Shared surge' } });
    assert.equal(dl.status, 200, JSON.stringify(dl.body));
    const file = await fetch(s.url + dl.body.url);
    assert.equal(file.status, 200);
    const wb = XLSX.read(Buffer.from(await file.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets['Map results']!);
    assert.deepEqual(
      rows.map((r) => [r.Dataset, r.Scenario, r.Year]),
      [
        ['100-year return period', 'Baseline', 2020],
        ['100-year return period', 'SSP 8.5', 2050],
        ['1000-year return period', 'Baseline', 2020],
        ['1000-year return period', 'SSP 8.5', 2050],
      ],
    );
    assert.equal(rows[0]!.Max, g.body.storm_surge.max['100yr']);
    assert.ok((rows[1]!.Average as number) >= (rows[0]!.Average as number), 'sea-level rise by 2050 deepens the surge');
  });
});

describe('address search country detection', () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await registerAndLogin(s.api)).token;
  });
  after(() => s.close());

  test('a query naming a country gives its point; other text gives null; 1 character is a 400', async () => {
    const vn = await s.api.get('/api/v2/map_country/?q=Viet%20Nam', { token });
    assert.equal(vn.status, 200);
    assert.equal(vn.body.country.country_code, 'VN');
    assert.ok(vn.body.country.latitude > 8 && vn.body.country.latitude < 24);
    assert.deepEqual((await s.api.get('/api/v2/map_country/?q=Kowloon%20Bay', { token })).body, { country: null });
    const short = await s.api.get('/api/v2/map_country/?q=V', { token });
    assert.equal(short.status, 400);
    assert.equal(short.body.errors[0].field, 'q');
  });
});
