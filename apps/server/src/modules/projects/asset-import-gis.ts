/**
 * Portfolio uploads as GIS files (issue 38 item 3): a GeoJSON FeatureCollection, a GeoPackage or a zipped Shapefile of
 * points. Each file becomes the same table a CSV becomes (a header row, then one row per feature: latitude and
 * longitude from the geometry, then the feature's attributes under their own names), so the CSV template's column
 * names, aliases, checks and messages apply unchanged (asset-import.ts); rows are named "Feature N" instead of "Row N".
 * Coordinates in another CRS (a .prj, a GeoPackage's srs, GeoJSON's old `crs` member) are turned to WGS 84 with the
 * own-layer CRS machinery (@crp/hazards crsOf/crsOfWkt). Anything but points is refused naming the features.
 */
import { crsOf, crsOfWkt, type CrsInfo } from '@crp/hazards';
import { createRequire } from 'node:module';
import * as shapefile from 'shapefile';
import initSqlJs from 'sql.js';
import { AppError } from '../../lib/errors.js';
import { unzipEntries, type UploadedFile } from './asset-import.js';

export type GisUploadKind = 'geojson' | 'gpkg' | 'shapefile';

/** The GIS kind a file name says, or null (a table upload). A bare .shp is refused here: it needs its .dbf. */
export function gisUploadKind(filename: string): GisUploadKind | null {
  const name = filename.toLowerCase();
  if (name.endsWith('.geojson') || name.endsWith('.json')) return 'geojson';
  if (name.endsWith('.gpkg')) return 'gpkg';
  if (name.endsWith('.zip')) return 'shapefile';
  if (/\.(shp|dbf|shx|prj)$/.test(name))
    throw gisError(
      filename,
      'is one part of a Shapefile; zip the .shp together with its .dbf, .shx and .prj and upload the .zip',
      'a Shapefile must be uploaded zipped',
    );
  return null;
}

/** How an asset problem names its table row for a GIS upload: table row 2 is the first feature. */
export const featureLabel = (row: number) => `Feature ${row - 1}`;

function gisError(filename: string, reason: string, short: string): AppError {
  return new AppError(400, `upload_file: '${filename.slice(0, 120)}' ${reason}.`, [{ field: 'upload_file', message: short }]);
}

/** One feature as read: its position in the file's CRS (or null), its geometry type and its attributes. */
interface GisFeature {
  type: string;
  xy: [number, number] | null;
  properties: Record<string, unknown>;
}

const MAX_LISTED = 5;

/**
 * The features as an upload table: header ['latitude', 'longitude', ...attribute names], one row per feature. Every
 * feature must be a point (a MultiPoint of one point counts); the others are listed (the first five) in a 400.
 */
function featuresToTable(filename: string, features: GisFeature[], crs: CrsInfo | null): unknown[][] {
  const bad = features.map((f, i) => ({ f, i })).filter(({ f }) => f.type !== 'Point');
  if (bad.length) {
    const list = bad.slice(0, MAX_LISTED).map(({ f, i }) => {
      const name = f.properties.name ?? f.properties.Name ?? f.properties.NAME;
      return `feature ${i + 1}${typeof name === 'string' && name ? ` ('${name.slice(0, 40)}')` : ''} is ${f.type === 'None' ? 'without geometry' : `a ${f.type}`}`;
    });
    const more = bad.length > MAX_LISTED ? ` and ${bad.length - MAX_LISTED} more` : '';
    throw new AppError(
      400,
      `upload_file: '${filename.slice(0, 120)}' must hold points only (one per asset): ${list.join('; ')}${more}. Convert the sites to points (e.g. their centroids) and upload again.`,
      [{ field: 'upload_file', message: `${list[0]}${more || bad.length > 1 ? ` (${bad.length} features are not points)` : ''}` }],
    );
  }
  const names: string[] = [];
  const seen = new Set<string>();
  for (const f of features)
    for (const k of Object.keys(f.properties))
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
  const table: unknown[][] = [['latitude', 'longitude', ...names]];
  for (const f of features) {
    let [x, y] = f.xy!;
    if (crs && Number.isFinite(x) && Number.isFinite(y)) [x, y] = crs.unproject(x, y);
    // round-off of a reprojection past 9 decimals (0.1 mm) is noise
    const round = (v: number) => (Number.isFinite(v) && crs ? Math.round(v * 1e9) / 1e9 : v);
    table.push([round(y), round(x), ...names.map((k) => cell(f.properties[k]))]);
  }
  return table;
}

/** An attribute as a table cell: numbers and text as they are, booleans and objects as text, dates as ISO dates. */
function cell(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A position's CRS: null for WGS 84 longitude/latitude, else the conversion; a CRS that cannot be read is a 400. */
function crsOrRefuse(filename: string, found: CrsInfo | null, what: string): CrsInfo | null {
  if (!found)
    throw gisError(
      filename,
      `has coordinates in a CRS that cannot be converted to WGS 84 (${what.slice(0, 120)}); reproject it to EPSG:4326 (WGS 84) and upload again`,
      `unknown coordinate reference system: ${what.slice(0, 80)}`,
    );
  return found.crs === 'EPSG:4326' ? null : found;
}

/** Reads a GIS upload into an upload table (see featuresToTable), at most `maxRows` + 1 features. */
export async function readGisTable(file: UploadedFile, kind: GisUploadKind, maxRows: number): Promise<unknown[][]> {
  if (kind === 'geojson') return readGeoJson(file, maxRows);
  if (kind === 'gpkg') return readGeoPackage(file, maxRows);
  return readZippedShapefile(file, maxRows);
}

// ---------------------------------------------------------------- GeoJSON

function geoJsonFeature(raw: unknown): GisFeature {
  const f = (raw && typeof raw === 'object' ? raw : {}) as { type?: unknown; geometry?: unknown; properties?: unknown };
  const g = (f.geometry && typeof f.geometry === 'object' ? f.geometry : null) as { type?: unknown; coordinates?: unknown } | null;
  const properties = (f.properties && typeof f.properties === 'object' && !Array.isArray(f.properties) ? f.properties : {}) as Record<string, unknown>;
  if (!g) return { type: 'None', xy: null, properties };
  const c = g.coordinates as unknown[];
  if (g.type === 'Point' && Array.isArray(c)) return { type: 'Point', xy: [Number(c[0]), Number(c[1])], properties };
  if (g.type === 'MultiPoint' && Array.isArray(c) && c.length === 1 && Array.isArray(c[0]))
    return { type: 'Point', xy: [Number((c[0] as unknown[])[0]), Number((c[0] as unknown[])[1])], properties };
  return { type: typeof g.type === 'string' ? g.type.slice(0, 30) : 'unknown geometry', xy: null, properties };
}

/** GeoJSON's pre-RFC 7946 `crs` member ("urn:ogc:def:crs:EPSG::3857", "EPSG:2326"; CRS84 is WGS 84). */
function geoJsonCrs(filename: string, doc: { crs?: unknown }): CrsInfo | null {
  const name = (doc.crs as { properties?: { name?: unknown } } | undefined)?.properties?.name;
  if (typeof name !== 'string' || /CRS84$/i.test(name)) return null;
  const code = /EPSG:{1,2}(?:[\d.]*:)?(\d+)$/i.exec(name)?.[1];
  return crsOrRefuse(filename, code ? crsOf(Number(code)) : null, name);
}

function readGeoJson(file: UploadedFile, maxRows: number): unknown[][] {
  let doc: { type?: unknown; features?: unknown; crs?: unknown };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(file.data).replace(/^\uFEFF/, '');
    doc = JSON.parse(text) as typeof doc;
  } catch (err) {
    throw gisError(file.filename, `could not be read as GeoJSON (${err instanceof Error ? err.message.slice(0, 120) : 'not UTF-8 JSON'})`, 'unreadable file');
  }
  const list = doc?.type === 'FeatureCollection' && Array.isArray(doc.features) ? (doc.features as unknown[]) : doc?.type === 'Feature' ? [doc] : null;
  if (!list)
    throw gisError(
      file.filename,
      `is not a GeoJSON FeatureCollection or Feature (its type is ${typeof doc?.type === 'string' ? `'${doc.type.slice(0, 30)}'` : 'missing'})`,
      'not a GeoJSON FeatureCollection',
    );
  return featuresToTable(file.filename, list.slice(0, maxRows + 1).map(geoJsonFeature), geoJsonCrs(file.filename, doc));
}

// ---------------------------------------------------------------- GeoPackage

const require = createRequire(import.meta.url);
let sqlJs: ReturnType<typeof initSqlJs> | undefined;
const SQL = () => (sqlJs ??= initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) }));

/**
 * The position in a GeoPackage binary geometry (OGC 12-128 §2.1.3): "GP", version, flags (bit 0 byte order, bits 1-3
 * envelope kind, bit 4 empty), srs_id, the envelope, then WKB (ISO or EWKB flags; Point, or a MultiPoint of one).
 */
export function gpkgGeometryPoint(blob: Uint8Array): { type: string; xy: [number, number] | null } {
  const b = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (b.length < 8 || b[0] !== 0x47 || b[1] !== 0x50) return { type: 'unreadable geometry', xy: null };
  const flags = b[3]!;
  const envelope = [0, 32, 48, 48, 64][(flags >> 1) & 7] ?? 0;
  if (flags & 0x10) return { type: 'None', xy: null };
  return wkbPoint(b, 8 + envelope);
}

const WKB_TYPES = ['Geometry', 'Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection'];

function wkbPoint(b: Buffer, at: number): { type: string; xy: [number, number] | null } {
  if (at + 5 > b.length) return { type: 'unreadable geometry', xy: null };
  const le = b[at] === 1;
  const raw = le ? b.readUInt32LE(at + 1) : b.readUInt32BE(at + 1);
  const base = (raw & 0x0fffffff) % 1000; // EWKB flags in the high bits, ISO Z/M/ZM as +1000/+2000/+3000
  const type = WKB_TYPES[base] ?? `geometry type ${base}`;
  if (base === 1 && at + 21 <= b.length) {
    const x = le ? b.readDoubleLE(at + 5) : b.readDoubleBE(at + 5);
    const y = le ? b.readDoubleLE(at + 13) : b.readDoubleBE(at + 13);
    return Number.isNaN(x) && Number.isNaN(y) ? { type: 'None', xy: null } : { type: 'Point', xy: [x, y] };
  }
  if (base === 4 && at + 9 <= b.length) {
    const n = le ? b.readUInt32LE(at + 5) : b.readUInt32BE(at + 5);
    if (n === 1) return wkbPoint(b, at + 9);
    return { type: `MultiPoint of ${n} points`, xy: null };
  }
  return { type, xy: null };
}

async function readGeoPackage(file: UploadedFile, maxRows: number): Promise<unknown[][]> {
  const d = file.data;
  if (d.length < 100 || d.subarray(0, 16).toString('latin1') !== 'SQLite format 3\u0000')
    throw gisError(file.filename, 'is not a GeoPackage (not an SQLite database)', 'not a GeoPackage');
  const db = new (await SQL()).Database(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
  try {
    const rows = (sql: string, params: (string | number)[] = []) => {
      const st = db.prepare(sql);
      st.bind(params);
      const out: Record<string, unknown>[] = [];
      while (st.step()) out.push(st.getAsObject() as Record<string, unknown>);
      st.free();
      return out;
    };
    let layers: Record<string, unknown>[];
    try {
      layers = rows(
        `SELECT c.table_name AS t, g.column_name AS g, g.geometry_type_name AS type, g.srs_id AS srs FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name WHERE c.data_type = 'features' ORDER BY c.table_name`,
      );
    } catch (err) {
      throw gisError(
        file.filename,
        `is not a GeoPackage with feature layers (${err instanceof Error ? err.message.slice(0, 80) : 'no gpkg_contents'})`,
        'not a GeoPackage',
      );
    }
    const points = layers.filter((l) => /POINT/i.test(String(l.type)));
    const layer = layers.length === 1 ? layers[0]! : points.length === 1 ? points[0]! : null;
    if (!layer)
      throw gisError(
        file.filename,
        layers.length === 0
          ? 'holds no feature layer'
          : `holds ${points.length || layers.length} ${points.length ? 'point ' : ''}layers (${(points.length ? points : layers)
              .slice(0, 5)
              .map((l) => String(l.t))
              .join(', ')}); upload a GeoPackage with one point layer`,
        layers.length === 0 ? 'no feature layer' : 'several layers',
      );
    const table = String(layer.t);
    const geomColumn = String(layer.g);
    const srs = rows('SELECT organization AS org, organization_coordsys_id AS code, definition AS def FROM gpkg_spatial_ref_sys WHERE srs_id = ?', [
      Number(layer.srs),
    ])[0];
    let crs: CrsInfo | null = null;
    if (srs && Number(layer.srs) > 0) {
      const epsg = String(srs.org).toUpperCase() === 'EPSG' ? crsOf(Number(srs.code)) : null;
      crs = crsOrRefuse(file.filename, epsg ?? crsOfWkt(String(srs.def ?? '')), `${String(srs.org)}:${String(srs.code)}`);
    }
    const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const info = rows(`PRAGMA table_info(${q(table)})`);
    const attrs = info.filter((c) => String(c.name) !== geomColumn && !(Number(c.pk) === 1 && /INT/i.test(String(c.type)))).map((c) => String(c.name));
    const st = db.prepare(`SELECT ${[geomColumn, ...attrs].map(q).join(', ')} FROM ${q(table)} LIMIT ${maxRows + 1}`);
    const features: GisFeature[] = [];
    while (st.step()) {
      const v = st.get();
      const g = v[0] instanceof Uint8Array ? gpkgGeometryPoint(v[0]) : { type: 'None', xy: null };
      const properties: Record<string, unknown> = {};
      attrs.forEach((a, i) => (properties[a] = v[i + 1] instanceof Uint8Array ? null : v[i + 1]));
      features.push({ ...g, properties });
    }
    st.free();
    return featuresToTable(file.filename, features, crs);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw gisError(
      file.filename,
      `could not be read as a GeoPackage (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`,
      'unreadable file',
    );
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- zipped Shapefile

/** The .dbf's text encoding: its .cpg when there is one, else UTF-8 when the bytes are UTF-8, else Windows-1252. */
function dbfEncoding(dbf: Uint8Array, cpg: Uint8Array | undefined): string {
  const stated = cpg ? Buffer.from(cpg).toString('latin1').trim().toLowerCase() : '';
  if (stated) {
    const e = /^(\d+)$/.test(stated) ? `windows-${stated}` : stated;
    try {
      new TextDecoder(e);
      return e;
    } catch {
      /* an unknown .cpg: guess as without one */
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(dbf);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

async function readZippedShapefile(file: UploadedFile, maxRows: number): Promise<unknown[][]> {
  const wanted = (n: string) => !/(^|\/)(__MACOSX\/|\.)/.test(n) && /\.(shp|dbf|prj|cpg)$/i.test(n);
  const entries = unzipEntries(file, maxRows, 'A zipped Shapefile', wanted);
  const shps = [...entries.keys()].filter((n) => /\.shp$/i.test(n));
  if (shps.length !== 1)
    throw gisError(
      file.filename,
      shps.length === 0
        ? 'is a zip archive without a Shapefile (.shp) inside'
        : `holds ${shps.length} Shapefiles (${shps.slice(0, 5).join(', ')}); upload a zip with one Shapefile`,
      shps.length === 0 ? 'no .shp in the zip' : 'several Shapefiles in the zip',
    );
  const base = shps[0]!.slice(0, -4);
  const part = (ext: string) => [...entries.entries()].find(([n]) => n.slice(0, -4) === base && n.slice(-4).toLowerCase() === ext)?.[1];
  const dbf = part('.dbf');
  if (!dbf)
    throw gisError(file.filename, `holds ${shps[0]} without its .dbf (the attribute table with the asset names)`, 'the .dbf of the Shapefile is missing');
  const prj = part('.prj');
  const wkt = prj ? Buffer.from(prj).toString('utf8').trim() : '';
  const crs = wkt ? crsOrRefuse(file.filename, crsOfWkt(wkt), wkt) : null;
  const features: GisFeature[] = [];
  try {
    const source = await shapefile.open(toArrayBuffer(part('.shp')!), toArrayBuffer(dbf), { encoding: dbfEncoding(dbf, part('.cpg')) });
    while (features.length <= maxRows) {
      const r = await source.read();
      if (r.done) break;
      const g = r.value.geometry as { type: string; coordinates?: unknown } | null;
      const c = g?.coordinates as number[] | number[][] | undefined;
      const one = g?.type === 'MultiPoint' && Array.isArray(c) && c.length === 1 ? (c[0] as number[]) : null;
      features.push({
        type: !g ? 'None' : one ? 'Point' : g.type,
        xy: g?.type === 'Point' ? [(c as number[])[0]!, (c as number[])[1]!] : one ? [one[0]!, one[1]!] : null,
        properties: (r.value.properties ?? {}) as Record<string, unknown>,
      });
    }
  } catch (err) {
    throw gisError(
      file.filename,
      `could not be read as a Shapefile (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'})`,
      'unreadable file',
    );
  }
  return featuresToTable(file.filename, features, crs);
}

const toArrayBuffer = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
