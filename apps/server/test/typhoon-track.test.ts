// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (historical cyclone tracks near a location, read from the committed track archive).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

type Storm = {
  name: string | null;
  season: number;
  closest_km: number;
  wind_at_closest_ms: number | null;
  max_wind_ms: number;
  category: number;
  track: { latitude: number; longitude: number }[];
};

describe('POST /api/hazard/typhoon_track/{userId}/ (historical tropical-cyclone tracks near a location)', () => {
  let s: TestServer;
  let u: Awaited<ReturnType<typeof registerAndLogin>>;
  let other: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId = 0;
  let assetId = 0;
  const path = (id: number) => `/api/hazard/typhoon_track/${id}/`;

  before(async () => {
    s = await startServer();
    u = await registerAndLogin(s.api);
    other = await registerAndLogin(s.api);
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: {
        portfolio_name: 'Track assets',
        data: [
          { name: 'Kowloon office', latitude: 22.3, longitude: 114.17 },
          { name: 'Madrid office', latitude: 40.42, longitude: -3.7 },
        ],
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    assetId = (await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).where('name', '=', 'Kowloon office').executeTakeFirstOrThrow())
      .id;
  });
  after(() => s?.close());

  test('Hong Kong: 201 with Mangkhut (2018) and Hato (2017) within 200 km, sorted by distance, with sources', async () => {
    const res = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 22.3, longitude: 114.17 } });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.radius_km, 200);
    assert.equal(res.body.count, res.body.storms.length);
    assert.ok(res.body.count === 50 && res.body.total > 100, `count ${res.body.count} of ${res.body.total}`);
    const all = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 22.3, longitude: 114.17, since_year: 2017, limit: 500 } });
    const storms = all.body.storms as Storm[];
    assert.ok(storms.every((x) => x.season >= 2017 && x.closest_km <= 200));
    for (let i = 1; i < storms.length; i++) assert.ok(storms[i]!.closest_km >= storms[i - 1]!.closest_km, 'sorted by closest distance');
    const mangkhut = storms.find((x) => x.name === 'Mangkhut' && x.season === 2018)!;
    const hato = storms.find((x) => x.name === 'Hato' && x.season === 2017)!;
    assert.ok(mangkhut && hato, storms.map((x) => `${x.name} ${x.season}`).join(', '));
    assert.ok(mangkhut.closest_km > 60 && mangkhut.closest_km < 160, `Mangkhut ${mangkhut.closest_km} km`);
    assert.ok(mangkhut.wind_at_closest_ms! > 33 && mangkhut.wind_at_closest_ms! < 60, `Mangkhut ${mangkhut.wind_at_closest_ms} m/s`);
    assert.ok(mangkhut.category >= 4, 'Mangkhut peaked as a category 4-5 super typhoon');
    assert.ok(hato.closest_km < 100 && hato.wind_at_closest_ms! > 33, `Hato ${hato.closest_km} km ${hato.wind_at_closest_ms} m/s`);
    assert.ok(mangkhut.track.length >= 3);
    assert.ok(all.body.sources.some((x: { key: string }) => x.key === 'ibtracs-wp-v04r01'));
    assert.deepEqual(
      all.body.coverage.map((c: { basin: string }) => c.basin),
      ['WP'],
    );
    assert.equal(all.body.has_data, true);
  });

  test('Madrid: no storm within 200 km, only Vince (2005, landfall near Huelva) within 500 km; 501 km is refused', async () => {
    const res = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 40.42, longitude: -3.7 } });
    assert.equal(res.status, 201);
    assert.equal(res.body.count, 0);
    assert.equal(res.body.has_data, true, 'the Atlantic records reach Spain');
    const wide = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 40.42, longitude: -3.7, radius_km: 500 } });
    assert.deepEqual(
      wide.body.storms.map((x: Storm) => `${x.name} ${x.season}`),
      ['Vince 2005'],
    );
    const london = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 51.5, longitude: -0.12 } });
    assert.equal(london.body.count, 0);
    assert.equal(london.body.has_data, false, 'no basin record reaches London');
    const big = await s.api.post(path(u.userId), { token: u.token, json: { latitude: 40.42, longitude: -3.7, radius_km: 501 } });
    assert.equal(big.status, 400);
    assert.equal(big.body.errors[0].field, 'radius_km');
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ longitude: 114 }, 'latitude'],
      [{ latitude: 22.3 }, 'longitude'],
      [{ latitude: 95, longitude: 114 }, 'latitude'],
      [{ latitude: 22.3, longitude: 'east' }, 'longitude'],
      [{ latitude: 22.3, longitude: 114, radius_km: 0 }, 'radius_km'],
      [{ latitude: 22.3, longitude: 114, limit: 0 }, 'limit'],
      [{ latitude: 22.3, longitude: 114, since_year: 'recent' }, 'since_year'],
      [{ asset_id: 1 }, 'project_id'],
      [{ project_id: 1 }, 'asset_id'],
    ];
    for (const [json, field] of cases) {
      const res = await s.api.post(path(u.userId), { token: u.token, json });
      assert.equal(res.status, 400, `${JSON.stringify(json)} → ${res.status}`);
      assert.equal(res.body.errors?.[0]?.field, field, `${JSON.stringify(json)} → ${JSON.stringify(res.body)}`);
    }
  });

  test('userId must be the caller; no token is 401', async () => {
    const res = await s.api.post(path(other.userId), { token: u.token, json: { latitude: 22.3, longitude: 114.17 } });
    assert.equal(res.status, 404);
    const anon = await s.api.post(path(u.userId), { json: { latitude: 22.3, longitude: 114.17 } });
    assert.equal(anon.status, 401);
  });

  test('an asset of a readable project gives its location; another company’s project is 404', async () => {
    const res = await s.api.post(path(u.userId), { token: u.token, json: { project_id: projectId, asset_id: assetId, since_year: 2018 } });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.latitude, 22.3);
    assert.equal(res.body.asset.name, 'Kowloon office');
    assert.ok(res.body.storms.some((x: Storm) => x.name === 'Mangkhut' && x.season === 2018));
    const stranger = await s.api.post(path(other.userId), { token: other.token, json: { project_id: projectId, asset_id: assetId } });
    assert.equal(stranger.status, 404);
    const missing = await s.api.post(path(u.userId), { token: u.token, json: { project_id: projectId, asset_id: 2_000_000_000 } });
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /asset_id/);
  });
});
