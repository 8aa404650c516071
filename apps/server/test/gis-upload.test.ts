import shpwrite from '@mapbox/shp-write';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import proj4 from 'proj4';
import { countDiff, tableCounts } from './support/fuzz.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';
import { entry, zip } from './support/zip.js';

/**
 * Issue 38 item 3: a portfolio uploaded as a GeoJSON FeatureCollection, a GeoPackage or a zipped Shapefile, through
 * real HTTP into the real database. Each file is written by an independent writer (JSON.stringify, python3's sqlite3
 * with the GeoPackage binary packed by `struct`, @mapbox/shp-write) and its attributes carry the CSV template's
 * column names and aliases (name, lat/long from the geometry, valuation, floors, property type, construction).
 */

/** EPSG:2326 Hong Kong 1980 Grid as proj4 states it in the EPSG registry (epsg-index), to write projected test files. */
const HK1980 =
  '+proj=tmerc +lat_0=22.3121333333333 +lon_0=114.178555555556 +k=1 +x_0=836694.05 +y_0=819069.8 +ellps=intl +towgs84=-162.619,-276.959,-161.764,-0.067753,2.243648,1.158828,-1.094246 +units=m +no_defs';
/** The .prj ArcGIS writes for EPSG:2326: no AUTHORITY, ESRI names. */
const HK1980_ESRI_PRJ =
  'PROJCS["Hong_Kong_1980_Grid",GEOGCS["GCS_Hong_Kong_1980",DATUM["D_Hong_Kong_1980",SPHEROID["International_1924",6378388.0,297.0]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",836694.05],PARAMETER["False_Northing",819069.8],PARAMETER["Central_Meridian",114.1785555555556],PARAMETER["Scale_Factor",1.0],PARAMETER["Latitude_Of_Origin",22.31213333333334],UNIT["Meter",1.0]]';

const SITES = [
  { name: 'Kowloon Depot', lng: 114.1722, lat: 22.3193, valuation: 12_500_000, floors: 8, type: 'Industrial', construction: 'concrete' },
  { name: 'Central Office', lng: 114.1588, lat: 22.2819, valuation: 48_000_000, floors: 30, type: 'Commercial', construction: 'steel' },
  { name: 'Tsuen Wan Store', lng: 114.1133, lat: 22.3707, valuation: 3_200_000, floors: 2, type: 'Commercial', construction: 'masonry' },
];

const featureCollection = (props: (s: (typeof SITES)[number]) => Record<string, unknown>, xy = (s: (typeof SITES)[number]) => [s.lng, s.lat]) => ({
  type: 'FeatureCollection',
  features: SITES.map((s) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: xy(s) }, properties: props(s) })),
});

let gpkgCount = 0;
/** A GeoPackage written by python3's sqlite3: GeoPackage binary header and WKB packed with struct, one point layer. */
function pythonGeoPackage(
  dir: string,
  srs: { id: number; org: string; code: number; def: string },
  points: { x: number; y: number; props: Record<string, unknown> }[],
) {
  const path = join(dir, `sites-${srs.id}-${++gpkgCount}.gpkg`);
  const script = `
import json, sqlite3, struct, sys
path, srs, points = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
db = sqlite3.connect(path)
db.execute("PRAGMA application_id = 1196444487")
db.execute("PRAGMA user_version = 10300")
db.execute("CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)")
db.execute("CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT, description TEXT, last_change DATETIME, min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)")
db.execute("CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT, geometry_type_name TEXT, srs_id INTEGER, z TINYINT, m TINYINT)")
db.execute("INSERT INTO gpkg_spatial_ref_sys VALUES ('s', ?, ?, ?, ?, NULL)", (srs['id'], srs['org'], srs['code'], srs['def']))
db.execute("INSERT INTO gpkg_contents (table_name, data_type, srs_id) VALUES ('sites', 'features', ?)", (srs['id'],))
db.execute("INSERT INTO gpkg_geometry_columns VALUES ('sites', 'shape', 'POINT', ?, 0, 0)", (srs['id'],))
keys = list(points[0]['props'].keys())
db.execute("CREATE TABLE sites (id INTEGER PRIMARY KEY AUTOINCREMENT, shape BLOB, %s)" % ", ".join('"%s"' % k for k in keys))
for p in points:
    # big-endian header and WKB without an envelope, to read what other writers write
    blob = b"GP" + bytes([0, 0]) + struct.pack(">i", srs['id']) + struct.pack(">bIdd", 0, 1, p['x'], p['y'])
    db.execute("INSERT INTO sites (shape, %s) VALUES (?, %s)" % (", ".join('"%s"' % k for k in keys), ", ".join("?" for _ in keys)), [blob] + [p['props'][k] for k in keys])
db.commit()
`;
  const r = spawnSync('python3', ['-c', script, path, JSON.stringify(srs), JSON.stringify(points)], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(path);
}

describe('portfolio uploads as GeoJSON, GeoPackage and zipped Shapefile', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let dir: string;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
    dir = mkdtempSync(join(tmpdir(), 'crp-gis-upload-'));
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  const upload = (filename: string, data: Buffer) =>
    s.api.post('/api/v2/create_project/', { token: owner.token, multipart: { portfolio_name: `GIS ${++n}`, upload_file: { filename, data } } });
  async function stored(projectId: number) {
    return s.db
      .selectFrom('assets')
      .select(['name', 'latitude', 'longitude', 'valuation', 'stories', 'property_type', 'construction'])
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();
  }
  /** The stored assets are SITES, positions within `toleranceDeg` (1e-9 for unprojected files, ~1 m for projected). */
  async function assertSites(res: { status: number; body: any }, toleranceDeg = 1e-9) {
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 400));
    const rows = await stored(res.body.project.project_id);
    assert.deepEqual(
      rows.map((r) => [r.name, Number(r.valuation), r.stories, r.property_type, r.construction]),
      SITES.map((x) => [x.name, x.valuation, x.floors, x.type, x.construction]),
    );
    rows.forEach((r, i) => {
      assert.ok(Math.abs(r.latitude - SITES[i]!.lat) <= toleranceDeg, `${r.name}: latitude ${r.latitude} vs ${SITES[i]!.lat}`);
      assert.ok(Math.abs(r.longitude - SITES[i]!.lng) <= toleranceDeg, `${r.name}: longitude ${r.longitude} vs ${SITES[i]!.lng}`);
    });
  }
  const templateProps = (x: (typeof SITES)[number]) => ({
    name: x.name,
    valuation: x.valuation,
    floors: x.floors,
    'property type': x.type,
    construction: x.construction,
  });

  test('a GeoJSON FeatureCollection of points: positions from the geometry, attributes by the template names', async () => {
    await assertSites(await upload('sites.geojson', Buffer.from(JSON.stringify(featureCollection(templateProps)))));
  });

  test('GeoJSON with the template aliases (Site Name, Market Value, Storeys, Asset Type) and an old EPSG:2326 crs member', async () => {
    const fc = {
      ...featureCollection(
        (x) => ({ 'Site Name': x.name, 'Market Value': x.valuation, Storeys: x.floors, 'Asset Type': x.type, 'Construction Class': x.construction }),
        (x) => proj4('EPSG:4326', HK1980, [x.lng, x.lat]),
      ),
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2326' } },
    };
    await assertSites(await upload('sites.json', Buffer.from(JSON.stringify(fc))), 1e-5);
  });

  test('a GeoPackage written by python3 sqlite3, in EPSG:4326 and in EPSG:2326', async () => {
    const wgs = pythonGeoPackage(
      dir,
      { id: 4326, org: 'EPSG', code: 4326, def: 'GEOGCS["WGS 84"]' },
      SITES.map((x) => ({ x: x.lng, y: x.lat, props: templateProps(x) })),
    );
    await assertSites(await upload('sites.gpkg', wgs));
    const hk = pythonGeoPackage(
      dir,
      { id: 2326, org: 'EPSG', code: 2326, def: 'undefined' },
      SITES.map((x) => {
        const [e, nn] = proj4('EPSG:4326', HK1980, [x.lng, x.lat]);
        return { x: e!, y: nn!, props: templateProps(x) };
      }),
    );
    await assertSites(await upload('sites-hk1980.gpkg', hk), 1e-5);
  });

  test('a zipped Shapefile written by @mapbox/shp-write (WGS 84 .prj), and one in Hong Kong 1980 Grid with an ESRI .prj', async () => {
    // dBASE field names have at most 10 characters: 'property type' is written by its alias 'type'; 'construction'
    // (12) has no alias that short, so this file leaves it out.
    const props = (x: (typeof SITES)[number]) => ({ name: x.name, valuation: x.valuation, floors: x.floors, type: x.type });
    const gj = featureCollection(props);
    const zipped = Buffer.from(await shpwrite.zip<'nodebuffer'>(gj as never, { outputType: 'nodebuffer', compression: 'DEFLATE', types: { point: 'sites' } }));
    const res = await upload('sites.zip', zipped);
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 400));
    const rows = await stored(res.body.project.project_id);
    assert.deepEqual(
      rows.map((r) => [r.name, Number(r.valuation), r.stories, r.property_type, r.latitude, r.longitude]),
      SITES.map((x) => [x.name, x.valuation, x.floors, x.type, x.lat, x.lng]),
    );

    const projected = featureCollection(props, (x) => proj4('EPSG:4326', HK1980, [x.lng, x.lat]));
    const written = await shpwrite.zip<'nodebuffer'>(projected as never, { outputType: 'nodebuffer', compression: 'STORE', types: { point: 'sites' } });
    // the same .shp/.shx/.dbf with ArcGIS's .prj of EPSG:2326 in place of the WGS 84 one, re-zipped
    const JSZip = (await import('jszip')).default;
    const parts = await JSZip.loadAsync(written);
    const files: { name: string; data: Buffer }[] = [];
    for (const [name, f] of Object.entries(parts.files))
      if (!f.dir) files.push({ name: name.replace(/^.*\//, ''), data: name.endsWith('.prj') ? Buffer.from(HK1980_ESRI_PRJ) : await f.async('nodebuffer') });
    const hk = await upload('sites-hk.zip', zip(files.map((f) => entry(f.name, f.data))));
    assert.equal(hk.status, 201, JSON.stringify(hk.body).slice(0, 400));
    const hkRows = await stored(hk.body.project.project_id);
    hkRows.forEach((r, i) => {
      assert.ok(Math.abs(r.latitude - SITES[i]!.lat) < 1e-5 && Math.abs(r.longitude - SITES[i]!.lng) < 1e-5, `${r.name}: ${r.latitude}, ${r.longitude}`);
    });
  });

  test('preview_upload reads a GIS file into the table create_project checks (the wizard shows it), storing nothing', async () => {
    const before = await tableCounts(s.db);
    const data = pythonGeoPackage(
      dir,
      { id: 4326, org: 'EPSG', code: 4326, def: 'GEOGCS["WGS 84"]' },
      SITES.map((x) => ({ x: x.lng, y: x.lat, props: { ...templateProps(x), owner_ref: 'X1' } })),
    );
    const res = await s.api.post('/api/v2/preview_upload/', { token: owner.token, multipart: { upload_file: { filename: 'preview.gpkg', data } } });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.deepEqual(res.body.header, ['latitude', 'longitude', 'name', 'valuation', 'floors', 'property type', 'construction', 'owner_ref']);
    assert.equal(res.body.records, 3);
    assert.deepEqual(res.body.rows[1], [SITES[1]!.lat, SITES[1]!.lng, SITES[1]!.name, SITES[1]!.valuation, 30, 'Commercial', 'steel', 'X1']);
    assert.deepEqual(res.body.unknown_columns, ['owner_ref']);
    const bad = await s.api.post('/api/v2/preview_upload/', {
      token: owner.token,
      multipart: {
        upload_file: {
          filename: 'lines.geojson',
          data: Buffer.from('{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{}}'),
        },
      },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /feature 1 is a LineString/);
    const anonymous = await s.api.post('/api/v2/preview_upload/', { multipart: { upload_file: { filename: 'preview.gpkg', data } } });
    assert.equal(anonymous.status, 401);
    assert.equal(countDiff(before, await tableCounts(s.db)), null);
  });

  test('bad files: 400s naming the file and the problem, nothing stored', async () => {
    const before = await tableCounts(s.db);
    const polygon = featureCollection(templateProps);
    (polygon.features[1] as { geometry: unknown }).geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [114, 22],
          [114.1, 22],
          [114.1, 22.1],
          [114, 22],
        ],
      ],
    };
    const cases: [string, Buffer, RegExp][] = [
      ['polygon.geojson', Buffer.from(JSON.stringify(polygon)), /'polygon\.geojson' must hold points only .*feature 2 \('Central Office'\) is a Polygon/],
      ['broken.geojson', Buffer.from('{"type": "FeatureCollection", "features": ['), /'broken\.geojson' could not be read as GeoJSON/],
      ['geometry.geojson', Buffer.from('{"type": "Point", "coordinates": [114, 22]}'), /is not a GeoJSON FeatureCollection or Feature \(its type is 'Point'\)/],
      [
        'noname.geojson',
        Buffer.from(JSON.stringify(featureCollection((x) => ({ ...templateProps(x), name: x.floors === 30 ? '' : x.name })))),
        /Feature 2: name is empty/,
      ],
      [
        'badvalue.geojson',
        Buffer.from(JSON.stringify(featureCollection((x) => ({ ...templateProps(x), floors: x.floors === 2 ? 'two' : x.floors })))),
        /Feature 3: floors 'two' is not a number|Feature 3: floors/,
      ],
      ['sites.gpkg', Buffer.from('not a database at all, just text'.repeat(10)), /'sites\.gpkg' is not a GeoPackage/],
      ['sites.shp', Buffer.alloc(200), /is one part of a Shapefile; zip the \.shp together with its \.dbf/],
      ['empty.zip', zip([entry('readme.txt', 'hello')]), /'empty\.zip' is a zip archive without a Shapefile/],
      ['nodbf.zip', zip([entry('a.shp', Buffer.alloc(100))]), /holds a\.shp without its \.dbf/],
      ['sites.kml', Buffer.from('<kml/>'), /is not a CSV, XLSX, XLS, GeoJSON, GeoPackage or zipped Shapefile file/],
    ];
    for (const [name, data, message] of cases) {
      const res = await upload(name, data);
      assert.equal(res.status, 400, `${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.match(res.body.detail, message, name);
      assert.equal(res.body.errors?.[0]?.field, 'upload_file', name);
    }
    // a Shapefile of polygons, by the independent writer
    const polys = await shpwrite.zip<'nodebuffer'>(
      { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Estate' }, geometry: polygon.features[1]!.geometry as never }] } as never,
      { outputType: 'nodebuffer', compression: 'DEFLATE' },
    );
    const res = await upload('estates.zip', Buffer.from(polys));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.detail, /must hold points only .*feature 1 \('Estate'\) is a Polygon/);
    assert.equal(countDiff(before, await tableCounts(s.db)), null);
  });
});
