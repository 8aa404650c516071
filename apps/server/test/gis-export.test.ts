import { check as checkGeoJson } from '@placemarkio/check-geojson';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { geoTiff, webMercator } from './support/geotiff.js';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 38 item 3: the project GIS export (GeoPackage and GeoJSON) read back with an independent reader — python3's
 * sqlite3 module (SQLite 3.40 with its R*Tree module), not the sql.js that wrote it. The GeoPackage must be 1.2 with
 * the gpkg tables, the binary geometry header, an R-tree index that SQLite's own rtreecheck() accepts and that finds
 * the points of a bounding box, the six triggers GDAL looks for, and per hazard the same expected annual loss,
 * intensity, data tier and own-data layer as the results API's rows; the GeoJSON carries the same fields.
 */
const HK = { name: 'Hong Kong office', latitude: 22.3, longitude: 114.17, property_type: 'Office', valuation: 1e8, revenue: 2e7 };
const MANILA = { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 };
const MADRID = { name: 'Madrid office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 };
const HAZARDS = ['typhoon', 'river_flood', 'extreme_heat'];

/** What python3's sqlite3 reads from the GeoPackage, as JSON. */
const READER = `
import json, sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
q = lambda s, *a: db.execute(s, a).fetchall()
out = {}
out['application_id'] = q('PRAGMA application_id')[0][0]
out['user_version'] = q('PRAGMA user_version')[0][0]
out['integrity'] = q('PRAGMA integrity_check')[0][0]
out['rtreecheck'] = q("SELECT rtreecheck('rtree_assets_geom')")[0][0]
out['tables'] = sorted(r[0] for r in q("SELECT name FROM sqlite_master WHERE type = 'table'"))
out['triggers'] = sorted(r[0] for r in q("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
out['rtree_sql'] = q("SELECT sql FROM sqlite_master WHERE name = 'rtree_assets_geom'")[0][0]
out['contents'] = q('SELECT table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id FROM gpkg_contents')
out['geometry_columns'] = q('SELECT * FROM gpkg_geometry_columns')
out['srs'] = q('SELECT srs_id, organization, organization_coordsys_id FROM gpkg_spatial_ref_sys ORDER BY srs_id')
out['extensions'] = q('SELECT * FROM gpkg_extensions')
cols = [r[1] for r in q('PRAGMA table_info(assets)')]
out['columns'] = cols
features = []
for row in q('SELECT * FROM assets ORDER BY fid'):
    rec = dict(zip(cols, row))
    g = rec.pop('geom')
    magic, version, flags = g[:2].decode('latin1'), g[2], g[3]
    endian = '<' if flags & 1 else '>'
    (srs,) = struct.unpack(endian + 'i', g[4:8])
    env = [0, 32, 48, 48, 64][(flags >> 1) & 7]
    envelope = list(struct.unpack(endian + 'dddd', g[8:40])) if env == 32 else None
    w = g[8 + env:]
    we = '<' if w[0] == 1 else '>'
    (wtype,) = struct.unpack(we + 'I', w[1:5])
    x, y = struct.unpack(we + 'dd', w[5:21])
    rec['_geom'] = {'magic': magic, 'version': version, 'srs': srs, 'envelope': envelope, 'wkb_type': wtype, 'x': x, 'y': y}
    features.append(rec)
out['features'] = features
# the R-tree, queried as GDAL queries it for a map window: Hong Kong's box, then one around Manila and Hong Kong
box = lambda x0, x1, y0, y1: sorted(r[0] for r in q('SELECT a.name FROM assets a JOIN rtree_assets_geom r ON r.id = a.fid WHERE r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ?', x0, x1, y0, y1))
out['bbox_hk'] = box(113.8, 114.5, 22.1, 22.6)
out['bbox_asia'] = box(110, 125, 10, 25)
out['bbox_none'] = box(0, 10, 0, 10)
out['rtree_rows'] = q('SELECT id, minx, maxx, miny, maxy FROM rtree_assets_geom ORDER BY id')
print(json.dumps(out))
`;

describe('GIS export: GeoPackage 1.2 with an R-tree, read back by python3 sqlite3; GeoJSON with the same fields', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  let dir: string;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    dir = mkdtempSync(join(tmpdir(), 'crp-gis-export-'));
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'GIS export', data: [HK, MANILA, MADRID], portfolio_variables: ['Typhoon', 'River Flood', 'Extreme Heat'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
    // an own river-flood layer (2.5 m, 100-year) over Hong Kong only: the export must mark it there
    const [x, y] = webMercator(HK.longitude, HK.latitude);
    const tiff = geoTiff({
      width: 20,
      height: 20,
      x0: x - 10_000,
      y0: y + 10_000,
      res: 1000,
      fill: 2.5,
      geoKeys: { ProjectedCSTypeGeoKey: 3857, GTModelTypeGeoKey: 1 },
    });
    const layer = await s.api.post('/api/v2/own_layers/', {
      token: owner.token,
      multipart: {
        hazard: 'river_flood',
        scenario: 'any',
        year: 'any',
        return_period_years: '100',
        label: 'HK flood study',
        file: { filename: 'hk_flood.tif', data: tiff },
      },
    });
    assert.equal(layer.status, 201, JSON.stringify(layer.body));
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = 'analysis_type=ssp&scenario=45&year=2050';
  async function download(format: 'gpkg' | 'geojson') {
    const res = await fetch(`${s.url}/api/v2/projects/${projectId}/assets_gis/?format=${format}&${query}`, {
      headers: { authorization: `Token ${owner.token}` },
    });
    assert.equal(res.status, 200);
    return res;
  }
  /** The results API's rows of the project at the same scenario-year, by asset name and hazard. */
  async function apiRows() {
    const res = await s.api.post('/api/v2/asset_results/', {
      token: owner.token,
      json: { project_id: projectId, hazards: HAZARDS, scenarios: ['45'], years: [2050], analysis_type: 'ssp' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    const by = new Map<string, Record<string, unknown>>();
    for (const r of res.body.results as Record<string, unknown>[]) by.set(`${String(r.asset_name)}|${String(r.hazard)}`, r);
    return by;
  }

  test('the GeoPackage: gpkg tables, version 1.2, binary geometry header, R-tree that finds the points of a box', async () => {
    const res = await download('gpkg');
    assert.equal(res.headers.get('content-type'), 'application/geopackage+sqlite3');
    const path = join(dir, 'assets.gpkg');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    const py = spawnSync('python3', ['-c', READER, path], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(py.status, 0, py.stderr);
    const g = JSON.parse(py.stdout);

    assert.equal(g.application_id, 0x47504b47, "application_id 'GPKG'");
    assert.equal(g.user_version, 10200, 'GeoPackage 1.2.0');
    assert.equal(g.integrity, 'ok');
    assert.equal(g.rtreecheck, 'ok', "SQLite's own check of the R-tree's structure and boxes");
    for (const t of [
      'gpkg_spatial_ref_sys',
      'gpkg_contents',
      'gpkg_geometry_columns',
      'gpkg_extensions',
      'assets',
      'rtree_assets_geom',
      'rtree_assets_geom_node',
      'rtree_assets_geom_parent',
      'rtree_assets_geom_rowid',
    ])
      assert.ok(g.tables.includes(t), t);
    assert.match(g.rtree_sql, /^CREATE VIRTUAL TABLE "rtree_assets_geom" USING rtree\(id, minx, maxx, miny, maxy\)$/);
    // the trigger names GDAL's GeoPackage driver and validator look for (1.2 annex F.3)
    assert.deepEqual(
      g.triggers,
      ['delete', 'insert', 'update1', 'update2', 'update3', 'update4'].map((t) => `rtree_assets_geom_${t}`),
    );
    assert.deepEqual(g.extensions, [['assets', 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only']]);
    assert.deepEqual(g.geometry_columns, [['assets', 'geom', 'POINT', 4326, 0, 0]]);
    assert.deepEqual(
      g.srs.map((r: unknown[]) => r[0]),
      [-1, 0, 4326],
    );
    assert.deepEqual(g.contents, [['assets', 'features', 'assets', -3.7, 14.6, 120.98, 40.42, 4326]]);

    assert.equal(g.features.length, 3);
    for (const f of g.features) {
      const a = [HK, MANILA, MADRID].find((x) => x.name === f.name)!;
      assert.deepEqual(
        { ...f._geom },
        { magic: 'GP', version: 0, srs: 4326, envelope: [a.longitude, a.longitude, a.latitude, a.latitude], wkb_type: 1, x: a.longitude, y: a.latitude },
      );
    }
    assert.deepEqual(g.bbox_hk, [HK.name]);
    assert.deepEqual(g.bbox_asia, [HK.name, MANILA.name].sort());
    assert.deepEqual(g.bbox_none, []);
    // each box holds its point (float32, rounded outwards)
    for (const [id, minx, maxx, miny, maxy] of g.rtree_rows as number[][]) {
      const f = g.features.find((x: { fid: number }) => x.fid === id);
      assert.ok(minx! <= f._geom.x && f._geom.x <= maxx! && miny! <= f._geom.y && f._geom.y <= maxy!, `box of fid ${id}`);
      assert.ok(maxx! - minx! < 1e-4 && maxy! - miny! < 1e-4);
    }

    // per hazard: the results API's figures at the same scenario-year
    const rows = await apiRows();
    for (const f of g.features) {
      for (const h of HAZARDS) {
        const r = rows.get(`${f.name}|${h}`)!;
        assert.ok(r, `${f.name} ${h}`);
        assert.equal(f[`expected_annual_loss_${h}_usd`], r.expected_annual_loss_usd, `${f.name} ${h} EAL`);
        assert.equal(f[`intensity_${h}`], r.intensity, `${f.name} ${h} intensity`);
        assert.equal(f[`intensity_${h}_unit`], r.intensity_unit, `${f.name} ${h} unit`);
        assert.equal(f[`data_tier_${h}`], r.data_tier, `${f.name} ${h} tier`);
        assert.equal(f[`own_data_layer_${h}`], r.own_data_layer, `${f.name} ${h} own layer`);
        assert.equal(f[`score_${h}`], r.loss_score, `${f.name} ${h} score`);
      }
    }
    const hk = g.features.find((f: { name: string }) => f.name === HK.name);
    assert.deepEqual([hk.intensity_river_flood, hk.data_tier_river_flood, hk.own_data_layer_river_flood], [2.5, 'own data', 'HK flood study']);
    const madrid = g.features.find((f: { name: string }) => f.name === MADRID.name);
    assert.equal(madrid.own_data_layer_river_flood, null);
    assert.notEqual(madrid.data_tier_river_flood, 'own data');
  });

  test('round trip: the exported GeoPackage uploads again as a portfolio (names, types, points; result columns left out)', async () => {
    const data = Buffer.from(await (await download('gpkg')).arrayBuffer());
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      multipart: { portfolio_name: 'GIS round trip', upload_file: { filename: 'assets.gpkg', data } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 400));
    assert.match(String(res.body.warnings?.[0]), /columns 'asset_id', .*'expected_annual_loss_usd'.* are not known asset columns and were not imported/);
    const rows = await s.db
      .selectFrom('assets')
      .select(['name', 'latitude', 'longitude', 'property_type'])
      .where('project_id', '=', res.body.project.project_id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.name, r.latitude, r.longitude, r.property_type]),
      [HK, MANILA, MADRID].map((a) => [a.name, a.latitude, a.longitude, a.property_type]),
    );
  });

  test('the GeoJSON carries the same fields and values as the GeoPackage', async () => {
    const fc = checkGeoJson(await (await download('geojson')).text()) as unknown as {
      features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
    };
    const res = await download('gpkg');
    const path = join(dir, 'same.gpkg');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    const py = spawnSync('python3', ['-c', READER, path], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(py.status, 0, py.stderr);
    const g = JSON.parse(py.stdout);
    const gpkgColumns = (g.columns as string[]).filter((c) => c !== 'fid' && c !== 'geom');
    for (const f of fc.features) {
      const row = g.features.find((x: { name: string }) => x.name === f.properties.name);
      assert.ok(row, String(f.properties.name));
      // every GeoPackage column is a GeoJSON property with the same value (latitude/longitude are the geometry)
      for (const c of gpkgColumns) assert.deepEqual(f.properties[c], row[c], `${String(f.properties.name)} ${c}`);
      assert.deepEqual(
        Object.keys(f.properties).filter((k) => k !== 'latitude' && k !== 'longitude'),
        gpkgColumns,
      );
      assert.deepEqual(f.geometry.coordinates, [row._geom.x, row._geom.y]);
    }
  });
});
