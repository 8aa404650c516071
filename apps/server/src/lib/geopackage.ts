/**
 * A minimal GeoPackage 1.2 writer (OGC 12-128r14; 1.2.1 and 1.3 ask nothing more of a point layer) for point features
 * in EPSG:4326: an SQLite database (sql.js, WASM) with gpkg_spatial_ref_sys, gpkg_contents, gpkg_geometry_columns,
 * gpkg_extensions and one feature table whose `geom` column holds GeoPackage binary geometries (header "GP", version
 * 0, flags, srs_id, envelope, then a little-endian WKB Point), with its R-tree spatial index (spec annex F.3,
 * extension gpkg_rtree_index: the virtual table rtree_<table>_geom and the six triggers that keep it current). QGIS,
 * GDAL/OGR and ArcGIS open the file as an indexed point layer.
 *
 * sql.js is built without SQLite's R*Tree module, so the index is written as SQLite itself stores one (ext/rtree:
 * the shadow tables <name>_node, _parent and _rowid, nodes of big-endian float32 boxes) and its CREATE VIRTUAL TABLE
 * entered into sqlite_schema directly; any SQLite with the module (GDAL's, Python's, the sqlite3 shell) reads and
 * updates it, and `SELECT rtreecheck(...)` checks it (apps/server/test/gis-export.test.ts). docs/decisions.md says why.
 */
import { createRequire } from 'node:module';
import initSqlJs, { type Database } from 'sql.js';

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

/**
 * 'GPKG' as the SQLite application_id, and 10200 (GeoPackage 1.2.0) as user_version (spec 1.1.1.1.1): the version
 * GDAL itself writes by default up to 3.7.0 and reads without a warning since 2.2 (1.4 draws a warning from GDAL 3.6).
 */
const APPLICATION_ID = 0x47504b47;
const USER_VERSION = 10200;

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
    // a loop, not Math.min(...xs): a spread of 100,000 arguments overflows the stack
    let bbox: (number | null)[] = [null, null, null, null];
    if (features.length) {
      bbox = [Infinity, Infinity, -Infinity, -Infinity];
      for (const f of features)
        bbox = [Math.min(bbox[0]!, f.longitude), Math.min(bbox[1]!, f.latitude), Math.max(bbox[2]!, f.longitude), Math.max(bbox[3]!, f.latitude)];
    }
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
    writeRtreeIndex(db, table, 'geom', 'fid', features);
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- R-tree spatial index (gpkg_rtree_index)

/**
 * SQLite's rtree node: at most 51 cells (RTREE_MAXCELLS) of 8 + 4 x 4 bytes for a 2-D tree, 4 bytes of header
 * (depth on the root, cell count): 1,228 bytes, what SQLite itself gives a new 2-D rtree in a 4 KiB-page database.
 */
const RTREE_MAX_CELLS = 51;
const RTREE_CELL_BYTES = 8 + 4 * 4;
const RTREE_NODE_BYTES = 4 + RTREE_CELL_BYTES * RTREE_MAX_CELLS;

type Box = [minX: number, maxX: number, minY: number, maxY: number];
interface RtreeCell {
  id: number;
  box: Box;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The float32 at or below v (a box's minimum), as SQLite's rtreeValueDown keeps a box around its doubles. */
function float32Down(v: number): number {
  f32[0] = v;
  if (f32[0]! <= v) return f32[0]!;
  if (f32[0] === 0) return -Math.pow(2, -149);
  const bits = u32[0]!;
  u32[0] = f32[0]! > 0 ? bits - 1 : bits + 1;
  return f32[0]!;
}
/** The float32 at or above v (a box's maximum). */
function float32Up(v: number): number {
  return -float32Down(-v);
}

function nodeBlob(cells: RtreeCell[], depth: number | null): Uint8Array {
  const b = Buffer.alloc(RTREE_NODE_BYTES);
  b.writeUInt16BE(depth ?? 0, 0);
  b.writeUInt16BE(cells.length, 2);
  cells.forEach((c, k) => {
    const at = 4 + k * RTREE_CELL_BYTES;
    b.writeBigInt64BE(BigInt(c.id), at);
    c.box.forEach((v, j) => b.writeFloatBE(v, at + 8 + 4 * j));
  });
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

const unionBox = (cells: RtreeCell[]): Box => [
  Math.min(...cells.map((c) => c.box[0])),
  Math.max(...cells.map((c) => c.box[1])),
  Math.min(...cells.map((c) => c.box[2])),
  Math.max(...cells.map((c) => c.box[3])),
];

/** Cells packed into nodes Sort-Tile-Recursive (Leutenegger et al. 1997): strips by x, then runs of y within each. */
function strPack(cells: RtreeCell[]): RtreeCell[][] {
  const centre = (c: RtreeCell, axis: 0 | 2) => (c.box[axis]! + c.box[axis + 1]!) / 2;
  const nodes = Math.ceil(cells.length / RTREE_MAX_CELLS);
  const perStrip = Math.ceil(Math.sqrt(nodes)) * RTREE_MAX_CELLS;
  const byX = [...cells].sort((p, q) => centre(p, 0) - centre(q, 0));
  const out: RtreeCell[][] = [];
  for (let s = 0; s < byX.length; s += perStrip) {
    const strip = byX.slice(s, s + perStrip).sort((p, q) => centre(p, 2) - centre(q, 2));
    for (let k = 0; k < strip.length; k += RTREE_MAX_CELLS) out.push(strip.slice(k, k + RTREE_MAX_CELLS));
  }
  return out;
}

/**
 * The R-tree index of a point layer, bulk-loaded: leaves of fids with float32 boxes (rounded outwards), internal
 * levels over them up to a root, node 1 (as SQLite requires) holding the tree's depth. Then the six GeoPackage
 * triggers (1.2 annex F.3; GDAL registers the ST_ functions they call) and the gpkg_extensions row.
 */
function writeRtreeIndex(db: Database, table: string, column: string, idColumn: string, features: GpkgPointFeature[]): void {
  const name = `rtree_${table}_${column}`;
  const t = ident(table),
    c = ident(column),
    i = ident(idColumn),
    r = ident(name);
  // fids are 1..n in insertion order (AUTOINCREMENT on a new table)
  let level: RtreeCell[] = features.map((f, k) => ({
    id: k + 1,
    box: [float32Down(f.longitude), float32Up(f.longitude), float32Down(f.latitude), float32Up(f.latitude)],
  }));
  const nodes: { no: number; cells: RtreeCell[]; parent: number | null }[] = [];
  const byNo = new Map<number, (typeof nodes)[number]>();
  const rowids: [number, number][] = [];
  let nextNo = 2;
  let depth = 0;
  let groups = strPack(level);
  // leaves and internal levels below the root: nodes 2, 3, ...; each level's boxes feed the next
  while (groups.length > 1) {
    const made = groups.map((cells) => ({ no: nextNo++, cells, parent: null as number | null }));
    if (depth === 0) for (const n of made) for (const cell of n.cells) rowids.push([cell.id, n.no]);
    else for (const n of made) for (const cell of n.cells) byNo.get(cell.id)!.parent = n.no;
    nodes.push(...made);
    for (const n of made) byNo.set(n.no, n);
    level = made.map((n) => ({ id: n.no, box: unionBox(n.cells) }));
    groups = strPack(level);
    depth++;
  }
  const rootCells = groups[0] ?? [];
  if (depth === 0) for (const cell of rootCells) rowids.push([cell.id, 1]);
  else for (const cell of rootCells) byNo.get(cell.id)!.parent = 1;

  db.run(`CREATE TABLE ${ident(name + '_node')}(nodeno INTEGER PRIMARY KEY,data);
    CREATE TABLE ${ident(name + '_rowid')}(rowid INTEGER PRIMARY KEY,nodeno);
    CREATE TABLE ${ident(name + '_parent')}(nodeno INTEGER PRIMARY KEY,parentnode);`);
  db.run('BEGIN');
  const insNode = db.prepare(`INSERT INTO ${ident(name + '_node')} VALUES (?, ?)`);
  insNode.run([1, nodeBlob(rootCells, depth)]);
  for (const n of nodes) insNode.run([n.no, nodeBlob(n.cells, null)]);
  insNode.free();
  const insParent = db.prepare(`INSERT INTO ${ident(name + '_parent')} VALUES (?, ?)`);
  for (const n of nodes) insParent.run([n.no, n.parent!]);
  insParent.free();
  const insRowid = db.prepare(`INSERT INTO ${ident(name + '_rowid')} VALUES (?, ?)`);
  for (const [id, no] of rowids) insRowid.run([id, no]);
  insRowid.free();
  db.run('COMMIT');

  const box = (g: string) => `${g}.${i}, ST_MinX(${g}.${c}), ST_MaxX(${g}.${c}), ST_MinY(${g}.${c}), ST_MaxY(${g}.${c})`;
  db.run(`
    CREATE TRIGGER ${ident(name + '_insert')} AFTER INSERT ON ${t} WHEN (new.${c} NOT NULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN INSERT OR REPLACE INTO ${r} VALUES (${box('NEW')}); END;
    CREATE TRIGGER ${ident(name + '_update1')} AFTER UPDATE OF ${c} ON ${t} WHEN OLD.${i} = NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN INSERT OR REPLACE INTO ${r} VALUES (${box('NEW')}); END;
    CREATE TRIGGER ${ident(name + '_update2')} AFTER UPDATE OF ${c} ON ${t} WHEN OLD.${i} = NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; END;
    CREATE TRIGGER ${ident(name + '_update3')} AFTER UPDATE ON ${t} WHEN OLD.${i} != NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; INSERT OR REPLACE INTO ${r} VALUES (${box('NEW')}); END;
    CREATE TRIGGER ${ident(name + '_update4')} AFTER UPDATE ON ${t} WHEN OLD.${i} != NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${r} WHERE id IN (OLD.${i}, NEW.${i}); END;
    CREATE TRIGGER ${ident(name + '_delete')} AFTER DELETE ON ${t} WHEN old.${c} NOT NULL
    BEGIN DELETE FROM ${r} WHERE id = OLD.${i}; END;`);
  db.run(`CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
    INSERT INTO gpkg_extensions VALUES ('${table}', '${column}', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only');`);
  // The virtual table itself, as SQLite's CREATE VIRTUAL TABLE records it (rootpage 0): written into the schema
  // because this SQLite has no rtree module to run the statement; the shadow tables above hold its data.
  db.run('PRAGMA writable_schema = ON');
  db.run("INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('table', ?, ?, 0, ?)", [
    name,
    name,
    `CREATE VIRTUAL TABLE ${r} USING rtree(id, minx, maxx, miny, maxy)`,
  ]);
  db.run('PRAGMA writable_schema = OFF');
}
