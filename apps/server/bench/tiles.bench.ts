/**
 * Map tile benchmark (npm run bench): hazard raster tiles rendered from the layers and served over real HTTP with a
 * token, as a browser viewing a map would ask for them (5 x 5 tiles around six cities at zooms 8-16, three layers),
 * cold (every tile rendered and PNG-encoded) and warm (from the cache). Also the renderer alone, and zoom 0-5 cost.
 * BENCH_TILES_WORLD=1 (run by `npm run bench` after the city run): the world view instead, every tile of zooms 0-4
 * (341 per layer) of seven datasets, zoom by zoom as a map opened on the world is zoomed in, in this fresh process
 * (cold: nothing rendered yet, unless BENCH_TILE_DIR holds the packs of an earlier run) and again (warm); then the
 * background pre-render of every other dataset the maps page offers (the server does it at start).
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg, totalmem } from 'node:os';
import { loadConfig } from '../src/config.js';
import { startBenchApp } from './fixtures.js';

const CONCURRENCY = Number(process.env.BENCH_TILE_CONCURRENCY ?? 6); // a browser opens about 6 connections per host
// BENCH_TILE_DIR: keep the world tile packs there (a second run is then a restarted server that finds them)
const config = loadConfig(
  {},
  {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    SEED_DEMO: false,
    ARGON2_MEMORY_KIB: 8192,
    ARGON2_TIME_COST: 1,
    ...(process.env.BENCH_TILE_DIR ? { MAP_TILE_DIR: process.env.BENCH_TILE_DIR } : {}),
  },
);
const { app, database, base } = await startBenchApp(config, { jobs: false });
const post = async (path: string, body: unknown) => {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as any;
};
const user = {
  first_name: 'Bench',
  last_name: 'Tiles',
  username: 'benchtiles',
  email: 'benchtiles@example.com',
  password: 'benchmark password',
  confirm_password: 'benchmark password',
  company_name: 'Bench Tiles Co',
};
const reg = await post('/api/user/register/', user);
const token = (await post('/api/user/rest_login/', { username: user.username, password: user.password, company_code: reg.company_code })).token as string;

function tileOf(lat: number, lng: number, z: number) {
  const n = 2 ** z,
    s = Math.sin((lat * Math.PI) / 180);
  return { x: Math.floor(((lng + 180) / 360) * n), y: Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n) };
}
const CITIES = [
  [22.3, 114.17],
  [35.68, 139.7],
  [40.7, -74.0],
  [-33.9, 151.2],
  [13.7, 100.5],
  [25.77, -80.19],
];
const LAYERS = [
  'rainfall_flood/{p}?return_period=100yr&country_code=HK',
  'storm_surge_rp/{p}?return_period=100yr&country_code=HK',
  'wildfire/{p}?scenario_year=85_2050&country_code=HK',
];
const paths: string[] = [];
for (const layer of LAYERS)
  for (const [lat, lng] of CITIES)
    for (const z of [8, 10, 12, 14, 16]) {
      const { x, y } = tileOf(lat!, lng!, z);
      for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) paths.push(`/api/v2/map_tiles/${layer.replace('{p}', `${x + dx}/${y + dy}/${z}`)}`);
    }

async function run(list: string[]) {
  let i = 0,
    bytes = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (i < list.length) {
        const p = list[i++]!;
        const res = await fetch(base + p, { headers: { authorization: `Token ${token}` } });
        if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
        bytes += (await res.arrayBuffer()).byteLength;
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  return {
    tiles: list.length,
    seconds: +s.toFixed(2),
    tilesPerSecond: Math.round(list.length / s),
    avgBytes: Math.round(bytes / list.length),
    exactSeconds: s,
  };
}

/** World view (BENCH_TILES_WORLD=1): every tile of zooms 0-4 of each dataset, zoom by zoom, over HTTP. */
async function worldBench() {
  const WORLD = [
    'rainfall_flood/{p}?return_period=100yr',
    'storm_surge_rp/{p}?return_period=100yr',
    'wildfire/{p}?scenario_year=85_2050',
    'rainfall_flood/{p}?return_period=10yr',
    'rainfall_flood/{p}?return_period=1000yr',
    'storm_surge_rp/{p}?return_period=25yr',
    'wildfire/{p}?scenario_year=00_2020',
  ];
  const zoomPaths = (layer: string, z: number) => {
    const out: string[] = [];
    for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) out.push(`/api/v2/map_tiles/${layer.replace('{p}', `${x}/${y}/${z}`)}`);
    return out;
  };
  const pass = async () => {
    const cpu0 = process.cpuUsage();
    const perZoom = [0, 1, 2, 3, 4].map(() => ({ tiles: 0, seconds: 0 }));
    const perLayer: Record<string, number> = {};
    let tiles = 0,
      seconds = 0,
      bytes = 0;
    for (const layer of WORLD) {
      let ls = 0;
      for (let z = 0; z <= 4; z++) {
        const r = await run(zoomPaths(layer, z));
        perZoom[z]!.tiles += r.tiles;
        perZoom[z]!.seconds += r.exactSeconds;
        tiles += r.tiles;
        seconds += r.exactSeconds;
        ls += r.exactSeconds;
        bytes += r.avgBytes * r.tiles;
      }
      perLayer[layer.replace('/{p}?', ' ')] = Math.round(341 / ls);
    }
    return {
      tiles,
      seconds: +seconds.toFixed(2),
      tilesPerSecond: Math.round(tiles / seconds),
      tilesPerSecondByZoom0to4: perZoom.map((p) => Math.round(p.tiles / p.seconds)),
      msPerTileByZoom0to4: perZoom.map((p) => +((p.seconds * 1000) / p.tiles).toFixed(1)),
      tilesPerSecondByLayer: perLayer,
      avgBytes: Math.round(bytes / tiles),
      // CPU of this process (server and client) per tile: the figure the neighbours' load does not change
      cpuMsPerTile: +((c) => (c.user + c.system) / 1000 / tiles)(process.cpuUsage(cpu0)).toFixed(2),
    };
  };
  const la0 = loadavg()[0]!;
  const t0 = performance.now();
  // the first tile also waits for the hazard layers to load (the server's lazy start): timed apart, not in the figures
  const first = await run(['/api/v2/map_tiles/rainfall_flood/0/0/3?return_period=50yr']);
  const firstTileMs = Math.round(performance.now() - t0);
  const cold = await pass();
  const warm = await pass();
  const renderer = await app.services.maps.renderer();
  const t1 = performance.now();
  const prerendered = await app.services.maps.prerenderWorld();
  const prerenderSeconds = +((performance.now() - t1) / 1000).toFixed(1);
  console.log(
    JSON.stringify(
      {
        bench: 'map tiles, world view (zooms 0-4, 341 tiles per dataset)',
        date: new Date().toISOString(),
        node: process.version,
        cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
        loadAverage1mBeforeAfter: [+la0.toFixed(1), +loadavg()[0]!.toFixed(1)],
        concurrency: CONCURRENCY,
        datasets: WORLD.length,
        firstTileMsWithLayerLoad: firstTileMs,
        firstTileBytes: first.avgBytes,
        httpCold: cold,
        httpWarm: warm,
        prerenderOtherDatasets: { tiles: prerendered, seconds: prerenderSeconds },
        rendererStats: renderer.stats,
        worldTiles: renderer.world?.stats,
        rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
      },
      null,
      2,
    ),
  );
  await app.close();
  await database.close();
  process.exit(0);
}
if (process.env.BENCH_TILES_WORLD) await worldBench();

const renderer = await app.services.maps.renderer();
// warm the layers and the auth path, then measure
await run(paths.slice(0, 10));
renderer.clearCache();
const cold = await run(paths);
const warm = await run(paths);

// renderer alone (no HTTP), cold
renderer.clearCache();
const { parseDataset } = await import('../src/modules/maps/tile-renderer.js');
const t1 = performance.now();
let n = 0;
for (const p of paths) {
  const m = /map_tiles\/(\w+)\/(\d+)\/(\d+)\/(\d+)\?(?:return_period|scenario_year)=([\w]+)/.exec(p)!;
  const hz = m[1] === 'storm_surge_rp' ? 'storm_surge' : (m[1] as 'rainfall_flood' | 'wildfire');
  renderer.render({ dataset: parseDataset(hz, m[5]!)!, x: Number(m[2]), y: Number(m[3]), z: Number(m[4]) });
  n++;
}
const rendererPerSecond = Math.round(n / ((performance.now() - t1) / 1000));
// world view: zooms 0-5, every tile of the rainfall flood layer
renderer.clearCache();
const low: number[] = [];
for (let z = 0; z <= 5; z++) {
  const t = performance.now();
  const k = 2 ** z;
  for (let x = 0; x < k; x++) for (let y = 0; y < k; y++) renderer.render({ dataset: { hazard: 'rainfall_flood', returnPeriod: 100 }, x, y, z });
  low.push(+((performance.now() - t) / (k * k)).toFixed(1));
}

console.log(
  JSON.stringify(
    {
      bench: 'map tiles',
      date: new Date().toISOString(),
      node: process.version,
      cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
      memGiB: +(totalmem() / 2 ** 30).toFixed(1),
      concurrency: CONCURRENCY,
      httpCold: cold,
      httpWarm: warm,
      rendererColdTilesPerSecond: rendererPerSecond,
      msPerTileAtZoom0to5: low,
    },
    null,
    2,
  ),
);
await app.close();
await database.close();
process.exit(0);
