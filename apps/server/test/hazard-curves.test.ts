// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (the point API's curves: the database holds only the test's account).
/**
 * The batch hazard-curve call (issue 38 item 1): many points at one scenario and year, each answering the point API's
 * values (return-period curves first) by the same function, read with a read-only personal API token; strict keys,
 * point and year limits named.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HAZARD_CURVES_MAX_POINTS } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const POINTS = [
  { id: 'HK', latitude: 22.3, longitude: 114.17 },
  { id: 2, latitude: 14.6, longitude: 120.98 },
  { latitude: 51.5, longitude: -0.12 },
];

describe('POST /api/v2/hazard/curves/', () => {
  let s: TestServer;
  let pat: string;
  before(async () => {
    s = await startServer();
    const u = await registerAndLogin(s.api);
    const made = await s.api.post('/api/user/api_tokens/', { token: u.token, json: { name: 'curves', expires_in_days: 30 } });
    assert.equal(made.status, 201);
    pat = made.body.token;
  });
  after(() => s?.close());

  test("each point answers the point API's curve, value, unit and tier of each hazard; ids echoed", async () => {
    const res = await s.api.post('/api/v2/hazard/curves/', { token: pat, json: { points: POINTS, scenario: '45', year: 2050 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.analysis_type, res.body.scenario, res.body.scenario_label, res.body.year], ['ssp', '45', 'SSP2-4.5', 2050]);
    assert.deepEqual(
      res.body.points.map((p: { id: unknown }) => p.id),
      ['HK', 2, null],
    );
    for (const [i, p] of POINTS.entries()) {
      const point = await s.api.get(`/api/v2/hazard/point/?latitude=${p.latitude}&longitude=${p.longitude}&analysis_type=ssp&scenario=45&year=2050`, {
        token: pat,
      });
      assert.equal(point.status, 200);
      const got = res.body.points[i];
      assert.deepEqual(Object.keys(got.hazards).sort(), ['rainfall_flood', 'river_flood', 'storm_surge', 'typhoon']);
      for (const h of Object.keys(got.hazards)) assert.deepEqual(got.hazards[h], point.body.hazards[h], `${h} at point ${i}`);
    }
    const hk = res.body.points[0].hazards.typhoon;
    // the score named for what it is (issue 38), the old name kept as an alias
    assert.ok(hk.intensity_score > 0);
    assert.equal(hk.score, hk.intensity_score);
    assert.deepEqual(hk.return_periods.returnPeriodsYears, [2, 5, 10, 25, 50, 100, 250, 500, 1000]);
    assert.ok(
      hk.return_periods.intensities.every((x: number, k: number, a: number[]) => k === 0 || x >= a[k - 1]!),
      'wind rises with the return period',
    );
    // other hazards on request; RCP years
    const heat = await s.api.post('/api/v2/hazard/curves/', {
      token: pat,
      json: { points: POINTS.slice(0, 1), hazards: ['extreme_heat', 'typhoon'], analysis_type: 'rcp', scenario: '85', year: 2030 },
    });
    assert.equal(heat.status, 200, JSON.stringify(heat.body));
    assert.equal(heat.body.points[0].hazards.extreme_heat.return_periods, null);
    assert.deepEqual(Object.keys(heat.body.points[0].hazards), ['extreme_heat', 'typhoon']);
  });

  test('bad requests are 400s naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ points: POINTS, year: 2031 }, 'year'],
      [{ points: POINTS, analysis_type: 'rcp', year: 2100 }, 'year'],
      [{ points: [{ latitude: 95, longitude: 0 }] }, 'points.0.latitude'],
      [{ points: [{ latitude: 1, longitude: 2, lat: 1 }] }, 'points.0.lat'],
      [{ points: POINTS, hazard: ['typhoon'] }, 'hazard'],
      [{ points: POINTS, hazards: ['typhon'] }, 'hazards.0'],
      [{ points: [] }, 'points'],
      [{ points: Array.from({ length: HAZARD_CURVES_MAX_POINTS + 1 }, () => ({ latitude: 1, longitude: 1 })) }, 'points'],
    ];
    for (const [json, field] of cases) {
      const res = await s.api.post('/api/v2/hazard/curves/', { token: pat, json });
      assert.equal(res.status, 400, `${JSON.stringify(json).slice(0, 80)}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field} named in ${JSON.stringify(res.body.errors)}`,
      );
    }
  });
});
