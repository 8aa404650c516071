// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (XYZ tiles rendered from the hazard layers: no database content in what is checked).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { redactUrl } from '../src/app.js';
import { decodePng } from './support/png.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

async function get(s: TestServer, path: string, token?: string) {
  const res = await fetch(s.url + path, { headers: token ? { authorization: `Token ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), buf: Buffer.from(await res.arrayBuffer()) };
}

describe('XYZ tiles for GIS clients: {z}/{x}/{y} with the token as a header or ?token=', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test("the {z}/{x}/{y} tile with ?token= is the same PNG as the app's {x}/{y}/{z} tile with the header", async () => {
    // zoom 4, column 13, row 6: East Asia (x != y != z, so a swapped order would fetch another tile or fail)
    const app = await get(s, '/api/v2/map_tiles/storm_surge_rp/13/6/4?return_period=100yr', owner.token);
    assert.equal(app.status, 200);
    const xyz = await get(s, `/api/v2/xyz_tiles/storm_surge_rp/4/13/6.png?return_period=100yr&token=${owner.token}`);
    assert.equal(xyz.status, 200);
    assert.equal(xyz.type, 'image/png');
    assert.ok(xyz.buf.equals(app.buf), 'same tile');
    const png = decodePng(xyz.buf);
    assert.equal(png.width, 256);
    let coloured = 0;
    for (let y = 0; y < 256; y += 4) for (let x = 0; x < 256; x += 4) if (png.rgba(x, y)[3] > 0) coloured++;
    assert.ok(coloured > 0, 'the East Asian coast has a 100-year surge');
    const swapped = await get(s, `/api/v2/xyz_tiles/storm_surge_rp/4/6/13.png?return_period=100yr&token=${owner.token}`);
    assert.equal(swapped.status, 200);
    assert.ok(!swapped.buf.equals(xyz.buf), 'x and y are not interchangeable');
    // without .png, with the header, and a wildfire scenario-year
    assert.equal((await get(s, '/api/v2/xyz_tiles/storm_surge_rp/4/13/6?return_period=100yr', owner.token)).buf.equals(app.buf), true);
    assert.equal((await get(s, `/api/v2/xyz_tiles/wildfire/2/3/1.png?scenario_year=85_2050&token=${owner.token}`)).status, 200);
  });

  test('a bad, missing or ended token is refused with 401; bad tile numbers with 400 naming the field', async () => {
    const path = '/api/v2/xyz_tiles/rainfall_flood/3/6/3.png?return_period=100yr';
    assert.equal((await get(s, path)).status, 401);
    assert.equal((await get(s, `${path}&token=not-a-token`)).status, 401);
    assert.equal((await get(s, `${path}&token=${'x'.repeat(40)}`)).status, 401);
    const bad = await s.api.get(`/api/v2/xyz_tiles/rainfall_flood/3/6/9.png?return_period=100yr&token=${owner.token}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'y');
    const badY = await s.api.get(`/api/v2/xyz_tiles/rainfall_flood/3/6/abc?return_period=100yr&token=${owner.token}`);
    assert.equal(badY.status, 400);
    assert.match(JSON.stringify(badY.body), /y must be a whole number/);
    // The app's route keeps the header way only.
    assert.equal((await get(s, `/api/v2/map_tiles/rainfall_flood/6/3/3?return_period=100yr&token=${owner.token}`)).status, 401);
    // A token ended by logging out stops working in the URL too.
    const other = await registerAndLogin(s.api);
    assert.equal((await get(s, `${path}&token=${other.token}`)).status, 200);
    assert.equal((await s.api.post('/api/user/rest_logout/', { token: other.token })).status < 300, true);
    assert.equal((await get(s, `${path}&token=${other.token}`)).status, 401);
  });

  test('the token in a tile URL never reaches the log', () => {
    const line = redactUrl('/api/v2/xyz_tiles/rainfall_flood/3/6/3.png?return_period=100yr&token=abcdefghijklmnopqrstuvwxyz');
    assert.ok(!line.includes('abcdefghijklmnopqrstuvwxyz'), line);
    assert.match(line, /token=\[redacted\]/);
  });
});
