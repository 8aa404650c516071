// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (the point API's hazard values: the database holds only the test's accounts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HAZARD_KEYS } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

describe('hazard point API and catalogue', () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await registerAndLogin(s.api)).token;
  });
  after(() => s.close());

  test('answers all eleven hazards for a point, scenario and year', async () => {
    const res = await s.api.get('/api/v2/hazard/point/?latitude=22.3&longitude=114.17&analysis_type=ssp&scenario=85&year=2050', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.hazards).sort(), [...HAZARD_KEYS].sort());
    const ty = res.body.hazards.typhoon;
    assert.equal(ty.unit, 'm/s');
    assert.ok(ty.value > 30, `Hong Kong 100-year typhoon wind ${ty.value} m/s`);
    assert.ok(ty.score >= 0 && ty.score <= 100);
    assert.ok(Array.isArray(ty.return_periods.returnPeriodsYears));
    for (const h of HAZARD_KEYS) {
      const v = res.body.hazards[h];
      assert.ok(typeof v.resolution_km === 'number' && v.tier && v.source, `${h} has resolution, tier and source`);
    }
    // sea-level rise carries the AR6 likely (17-83 %) range beside the median
    const slr = res.body.hazards.sea_level_rise;
    assert.ok(slr.likely_range.low < slr.value && slr.value < slr.likely_range.high, JSON.stringify(slr));
  });

  test('bad coordinates or scenario are a 400 naming the field; no token is a 401', async () => {
    const cases: [string, string][] = [
      ['latitude=95&longitude=0', 'latitude'],
      ['latitude=10&longitude=abc', 'longitude'],
      ['latitude=10&longitude=10&scenario=60', 'scenario'],
      ['latitude=10&longitude=10&analysis_type=xyz', 'analysis_type'],
      ['latitude=10&longitude=10&year=1900', 'year'],
      ['latitude=10&longitude=10&analysis_type=rcp&year=2100', 'year'],
      ['latitude=10&longitude=10&analysis_type=ssp&year=2031', 'year'],
    ];
    for (const [q, field] of cases) {
      const res = await s.api.get(`/api/v2/hazard/point/?${q}`, { token });
      assert.equal(res.status, 400, q);
      assert.equal(res.body.errors[0].field, field, JSON.stringify(res.body));
    }
    assert.equal((await s.api.get('/api/v2/hazard/point/?latitude=1&longitude=1')).status, 401);
    const rcp2100 = await s.api.get('/api/v2/hazard/point/?latitude=22.3&longitude=114.17&analysis_type=rcp&year=2100', { token });
    assert.equal(rcp2100.body.detail, 'year: 2100 is not RCP year(s); choose from 2020, 2030, 2050.');
    // the years the results API takes answer, the SSP baseline among them
    for (const q of ['analysis_type=rcp&year=2030', 'analysis_type=ssp&year=2020', 'analysis_type=ssp&year=2100'])
      assert.equal((await s.api.get(`/api/v2/hazard/point/?latitude=22.3&longitude=114.17&${q}`, { token })).status, 200, q);
  });

  test('the catalogue lists every layer with provenance', async () => {
    const res = await s.api.get('/api/v2/hazard/catalog/', { token });
    assert.equal(res.status, 200);
    assert.ok(res.body.length >= 11);
    for (const e of res.body) assert.ok(e.sources.length > 0 && e.sha256 && e.resolutionKm > 0, `${e.layer} provenance`);
  });
});

describe('building-damage explorer', () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await registerAndLogin(s.api)).token;
  });
  after(() => s.close());

  test('depth-damage curves per hazard and scenario, rising with depth; a site gives return-period curves', async () => {
    const res = await s.api.post('/api/v2/building_damage/', {
      token,
      form: { basement: 'no', construction: 'concrete', stories: '2', occupancy: 'commercial', per_sq_m_value: '10000' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const h of ['river_flood', 'storm_surge', 'rainfall_flood']) {
      for (const sc of ['26', '45', '85']) {
        const ser = res.body[h][sc];
        assert.equal(ser.x_unit, 'm');
        for (let i = 1; i < ser.y.length; i++) assert.ok(ser.y[i] >= ser.y[i - 1], 'damage never falls with depth');
        assert.ok(ser.y.at(-1) > 0 && ser.y.at(-1) <= 1);
        assert.equal(ser.y_value.at(-1), Math.round(ser.y.at(-1) * 10000 * 1e6) / 1e6);
      }
    }
    const p = await s.api.post('/api/v2/create_project/', {
      token,
      json: { portfolio_name: 'Explorer', data: [{ name: 'Quay', latitude: 22.3, longitude: 114.17 }] },
    });
    assert.equal(p.status, 201);
    const site = await s.api.post('/api/v2/building_damage/', {
      token,
      form: { project_name: 'Explorer', asset_name: 'Quay', year: '2050', analysis_type: 'ssp' },
    });
    assert.equal(site.status, 200, JSON.stringify(site.body));
    assert.equal(site.body.storm_surge['85'].x_unit, 'years');
    const bad = await s.api.post('/api/v2/building_damage/', { token, form: { per_sq_m_value: '1234' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /per_sq_m_value/);
    const missing = await s.api.post('/api/v2/building_damage/', { token, form: { project_name: 'Explorer', asset_name: 'Nope' } });
    assert.equal(missing.status, 404);
  });
});
