/**
 * A minimal GeoPackage 1.4 writer (OGC 12-128r19) for point features in EPSG:4326: an SQLite database (sql.js, WASM)
 * with gpkg_spatial_ref_sys, gpkg_contents, gpkg_geometry_columns and one feature table whose `geom` column holds
 * GeoPackage binary geometries (header "GP", version 0, flags, srs_id, envelope, then a little-endian WKB Point).
 * QGIS, GDAL/OGR and ArcGIS open the file as a point layer.
 */
import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';

export type GpkgColumnType = 'TEXT' | 'REAL' | 'INTEGER';
export interface GpkgColumn {
  name: string;
  type: GpkgColumnType;
}
export interface GpkgPointFeature {
  longitude: number;
  latitude: number;
  properties: Record<string, string | number | null>;
}

const require = createRequire(import.meta.url);
let sqlJs: ReturnType<typeof initSqlJs> | undefined;
const SQL = () => (sqlJs ??= initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) }));

/** 'GPKG' as the SQLite application_id, and 10400 (GeoPackage 1.4.0) as user_version (spec 1.1.1.1.1). */
const APPLICATION_ID = 0x47504b47;
const USER_VERSION = 10400;

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],' +
  'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

/**
 * GeoPackage binary of a point (spec 2.1.3): magic "GP", version 0, flags (bit 0: little-endian; bits 1-3: envelope
 * 1 = [minx, maxx, miny, maxy]), srs_id, the envelope, then WKB (byte order 1, type 1 = Point, x = lng, y = lat).
 */
export function gpkgPoint(lng: number, lat: number, srsId = 4326): Uint8Array {
  const b = Buffer.alloc(8 + 32 + 21);
  b.write('GP', 0, 'latin1');
  b[2] = 0;
  b[3] = 0b0000_0011; // envelope type 1, little-endian
  b.writeInt32LE(srsId, 4);
  b.writeDoubleLE(lng, 8);
  b.writeDoubleLE(lng, 16);
  b.writeDoubleLE(lat, 24);
  b.writeDoubleLE(lat, 32);
  b[40] = 1;
  b.writeUInt32LE(1, 41);
  b.writeDoubleLE(lng, 45);
  b.writeDoubleLE(lat, 53);
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

const ident = (s: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) throw new Error(`not a safe SQL identifier: ${s}`);
  return `"${s}"`;
};

/** The bytes of a GeoPackage with one point layer `table` holding the features (columns in the given order). */
export async function writeGeoPackage(table: string, description: string, columns: GpkgColumn[], features: GpkgPointFeature[]): Promise<Buffer> {
  const db = new (await SQL()).Database();
  try {
    db.run(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${USER_VERSION};`);
    db.run(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name), CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name), CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));`);
    const srs = db.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
    srs.run(['Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system']);
    srs.run(['Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system']);
    srs.run(['WGS 84 geodetic', 4326, 'EPSG', 4326, WGS84_WKT, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid']);
    srs.free();
    const cols = columns.map((c) => `${ident(c.name)} ${c.type}`).join(', ');
    db.run(`CREATE TABLE ${ident(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom POINT${cols ? ', ' + cols : ''})`);
    const xs = features.map((f) => f.longitude),
      ys = features.map((f) => f.latitude);
    const bbox = features.length ? [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] : [null, null, null, null];
    db.run(
      'INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [table, 'features', table, description, ...bbox, 4326],
    );
    db.run('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, ?, ?)', [table, 'geom', 'POINT', 4326, 0, 0]);
    const ins = db.prepare(
      `INSERT INTO ${ident(table)} (geom${columns.map((c) => ', ' + ident(c.name)).join('')}) VALUES (?${columns.map(() => ', ?').join('')})`,
    );
    db.run('BEGIN');
    for (const f of features) ins.run([gpkgPoint(f.longitude, f.latitude), ...columns.map((c) => f.properties[c.name] ?? null)]);
    db.run('COMMIT');
    ins.free();
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}
