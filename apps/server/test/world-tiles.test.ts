// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (world-view tiles rendered from the hazard layers: no database content in what is checked).
/**
 * World-view map tiles (zooms 0-4, issue 22 item 4): over real HTTP, every pixel of a world tile is the legend colour
 * of the native cell under its centre as the full sampler (sampleCurves, every hazard model) gives it; the tile is kept
 * in the world store (the path is taken), its dataset's pack is written once complete, and a restarted server serves
 * the pack without rendering; a pack of other layers or a damaged pack is never served.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HAZARD_KEYS, legendClassIndex, MAP_LEGENDS, type MapHazardKey } from '@crp/contracts';
import { defaultHazardLayers, HAZARD_META, newCurveSample, RETURN_PERIODS_YEARS, type HazardLayers } from '@crp/hazards';
import { decodePng } from './support/png.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';
import { layersFingerprint } from '../src/modules/maps/tile-renderer.js';

const N_RP = RETURN_PERIODS_YEARS.length;

/**
 * Reference renderer, written apart from the server's: the pixel centre un-projected (spherical Web Mercator), its
 * cell on the hazard's finest grid, the full sampler at the cell centre, the legend class; the pixel's RGBA.
 */
function referenceTile(l: HazardLayers, hazard: MapHazardKey, dataset: string, z: number, x: number, y: number): number[][] {
  let res = Infinity;
  for (const n of HAZARD_META[hazard].layers) res = Math.min(res, l.layer(n)?.entry.grid.resDeg ?? Infinity);
  const wildfire = hazard === 'wildfire';
  const [sc, yr] = wildfire ? dataset.split('_') : ['85', '2020'];
  const ctx = l.resolveScenario({ analysisType: 'ssp', scenario: sc === '00' ? '85' : (sc as '85'), year: Number(yr) });
  const rpi = wildfire ? -1 : RETURN_PERIODS_YEARS.indexOf(Number(dataset.replace('yr', '')) as 100);
  const block = hazard === 'storm_surge' ? 1 : 3;
  const legend = MAP_LEGENDS[hazard];
  const out = newCurveSample();
  const world = 256 * 2 ** z;
  const cols = Math.round(360 / res),
    rows = Math.round(180 / res);
  const colour = (cls: number) => {
    if (cls === 0) return [0, 0, 0, 0];
    const n = parseInt(legend.classes[cls - 1]!.color.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 255];
  };
  const px: number[][] = [];
  for (let py = 0; py < 256; py++) {
    const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y * 256 + py + 0.5)) / world))) * 180) / Math.PI;
    const r = Math.min(rows - 1, Math.max(0, Math.floor((90 - lat) / res)));
    for (let p = 0; p < 256; p++) {
      const lng = ((x * 256 + p + 0.5) / world) * 360 - 180;
      const c = Math.min(cols - 1, Math.max(0, Math.floor((lng + 180) / res)));
      const s = l.sampleCurves(90 - (r + 0.5) * res, (c + 0.5) * res - 180, ctx, out);
      let v: number;
      if (wildfire) v = Number.isNaN(s.curves[3 * N_RP]!) ? NaN : s.values[HAZARD_KEYS.indexOf('wildfire')]! * 100;
      else v = s.curves[block * N_RP + rpi]!;
      px.push(colour(legendClassIndex(legend, v)));
    }
  }
  return px;
}

async function getTile(s: TestServer, path: string, token: string) {
  const res = await fetch(s.url + path, { headers: { authorization: `Token ${token}` } });
  assert.equal(res.status, 200, path);
  return Buffer.from(await res.arrayBuffer());
}

const LAYER = { rainfall_flood: 'rainfall_flood', storm_surge: 'storm_surge_rp', wildfire: 'wildfire' } as const;
const path = (h: MapHazardKey, d: string, z: number, x: number, y: number) =>
  `/api/v2/map_tiles/${LAYER[h]}/${x}/${y}/${z}?${h === 'wildfire' ? 'scenario_year' : 'return_period'}=${d}`;

describe('world-view tiles (zooms 0-4): stored whole per dataset, the same pixels as the full sampler', () => {
  let s: TestServer;
  let token: string;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crp-world-tiles-'));
    mkdirSync(join(dir, '0123456789abcdef')); // packs of other layers: removed when the renderer starts
    s = await startServer({ MAP_TILE_DIR: dir });
    token = (await registerAndLogin(s.api)).token;
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every pixel of world tiles of the three hazards equals the reference renderer; the world store keeps them', async () => {
    const l = await defaultHazardLayers();
    const cases: [MapHazardKey, string, number, number, number][] = [
      ['rainfall_flood', '100yr', 0, 0, 0],
      ['storm_surge', '100yr', 2, 3, 1], // East Asia
      ['storm_surge', '1000yr', 4, 13, 6], // the South China coast
      ['wildfire', '85_2050', 1, 1, 0],
      ['wildfire', '00_2020', 3, 4, 3],
      ['rainfall_flood', '10yr', 4, 12, 7],
    ];
    const renderer = await s.app.services.maps.renderer();
    assert.ok(renderer.world, 'the server renders world tiles through the world store');
    const world = renderer.world;
    for (const [h, d, z, x, y] of cases) {
      const storedBefore = world.stats.stored;
      const png = decodePng(await getTile(s, path(h, d, z, x, y), token));
      assert.equal(world.stats.stored, storedBefore + 1, `${h} ${d} ${z}/${x}/${y} went into the world store`);
      const ref = referenceTile(l, h, d, z, x, y);
      let coloured = 0;
      for (let py = 0; py < 256; py++)
        for (let p = 0; p < 256; p++) {
          const want = ref[py * 256 + p]!;
          const got = png.rgba(p, py);
          if (want[3]! > 0) coloured++;
          assert.deepEqual(got[3] === 0 ? [0, 0, 0, 0] : got, want, `${h} ${d} ${z}/${x}/${y} pixel ${p},${py}`);
        }
      assert.ok(coloured > 0, `${h} ${d} ${z}/${x}/${y} shows some hazard`);
    }
    // asked again: from the world store, nothing rendered
    const rendered = renderer.stats.rendered,
      hits = world.stats.hits;
    await getTile(s, path('storm_surge', '100yr', 2, 3, 1), token);
    assert.equal(renderer.stats.rendered, rendered);
    assert.equal(world.stats.hits, hits + 1);
    // a city zoom is not a world tile: the LRU cache path
    const stored = world.stats.stored;
    await getTile(s, path('storm_surge', '100yr', 5, 26, 13), token);
    assert.equal(world.stats.stored, stored);
    assert.equal(renderer.stats.rendered, rendered + 1);
    assert.ok(!existsSync(join(dir, '0123456789abcdef')), 'the folder of another fingerprint is removed');
  });

  test("a dataset's pack is written once its 341 tiles are rendered; a restarted server serves it without rendering", async () => {
    const renderer = await s.app.services.maps.renderer();
    const wildfire = { hazard: 'wildfire', scenarioYear: '85_2030' } as const;
    const n = await renderer.prerenderWorld([wildfire]);
    assert.equal(n, 341);
    const folder = join(dir, renderer.world!.fingerprint);
    assert.deepEqual(readdirSync(folder), ['wildfire-85_2030.pack']);
    const tiles = [
      [0, 0, 0],
      [2, 1, 1],
      [4, 5, 9],
      [4, 15, 15],
    ] as const;
    const before = await Promise.all(tiles.map(([z, x, y]) => getTile(s, path('wildfire', '85_2030', z, x, y), token)));

    // a damaged pack next to it is rendered again, never served
    writeFileSync(join(folder, 'wildfire-00_2020.pack'), Buffer.from('CRPW not a pack'));
    await s.close();
    s = await startServer({ MAP_TILE_DIR: dir });
    token = (await registerAndLogin(s.api)).token;
    const again = await s.app.services.maps.renderer();
    assert.notEqual(again, renderer);
    for (const [i, [z, x, y]] of tiles.entries())
      assert.ok((await getTile(s, path('wildfire', '85_2030', z, x, y), token)).equals(before[i]!), `${z}/${x}/${y}`);
    assert.equal(again.stats.rendered, 0, 'served from the pack');
    assert.equal(again.world!.stats.packsRead, 1);
    const damaged = decodePng(await getTile(s, path('wildfire', '00_2020', 1, 1, 0), token));
    assert.equal(again.stats.rendered, 1, 'the damaged pack is not served: the tile is rendered');
    const ref = referenceTile(await defaultHazardLayers(), 'wildfire', '00_2020', 1, 1, 0);
    assert.deepEqual(damaged.rgba(128, 100)[3] === 0 ? [0, 0, 0, 0] : damaged.rgba(128, 100), ref[100 * 256 + 128]);
  });

  test('the server pre-renders in a low-priority thread: each pack comes back whole, the tiles equal a render here', async () => {
    const renderer = await s.app.services.maps.renderer();
    const surge50 = { hazard: 'storm_surge', returnPeriod: 50 } as const;
    const rendered = renderer.stats.rendered;
    assert.equal(await s.app.services.maps.prerenderWorld([surge50]), 341);
    assert.equal(renderer.stats.rendered, rendered, 'nothing rendered in the server thread');
    assert.ok(renderer.world!.complete('storm_surge-50yr'));
    assert.ok(existsSync(join(dir, renderer.world!.fingerprint, 'storm_surge-50yr.pack')), 'the thread wrote the pack');
    for (const [z, x, y] of [
      [0, 0, 0],
      [3, 6, 3],
      [4, 13, 6],
    ] as const) {
      const served = await getTile(s, path('storm_surge', '50yr', z, x, y), token);
      assert.ok(served.equals(renderer.render({ dataset: surge50, z, x, y })), `${z}/${x}/${y} as rendered in the server thread`);
    }
    assert.equal(renderer.stats.rendered, rendered + 3, 'only the three comparison renders');
  });

  test('the pack fingerprint changes with the layers (a layer checksum) and stays the same otherwise', async () => {
    const l = await defaultHazardLayers();
    const a = layersFingerprint(l);
    assert.match(a, /^[0-9a-f]{16}$/);
    assert.equal(layersFingerprint(l), a);
    const layers = l.manifest.layers.map((e, i) => (i === 0 ? { ...e, sha256: '0'.repeat(64) } : e));
    assert.notEqual(layersFingerprint({ ...l, manifest: { ...l.manifest, layers } }), a);
    assert.equal((await s.app.services.maps.renderer()).world!.fingerprint, a, "the server's packs are named by it");
  });
});
