/**
 * Coordinate reference systems of own hazard layers (issue 38 item 4): any 2-D projected or geographic CRS of the EPSG
 * registry whose proj4 definition the `epsg-index` package carries (about 7,000; docs/decisions.md says why that
 * package), turned into proj4 conversions from and to WGS 84 longitude/latitude. This is the one place that knows
 * which CRSs are read; the upload's messages, the API description and the docs point here.
 *
 * Datum shift grids: about 300 EPSG definitions shift their datum with a grid file (`+nadgrids=`, e.g. OSTN15 for
 * OSGB36 / British National Grid) that is not shipped. For those, the datum's 3- or 7-parameter Helmert shift of
 * proj4's own datum table is used where it has one (keyed by the geographic CRS's EPSG code or name: OSGB36 gets
 * EPSG transformation 1314, about 2 m from OSTN15); otherwise the shift is left out and the layer says so (`note`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import proj4 from 'proj4';

const require = createRequire(import.meta.url);

/** ESRI and pre-EPSG codes GIS tools still write for Web Mercator (not in the EPSG registry). */
const WEB_MERCATOR_ALIASES: Record<number, number> = { 900913: 3857, 102100: 3857, 102113: 3857 };
/** proj4's datum types (lib/constants/values.js): 3- and 7-parameter Helmert shifts. */
const PJD_3PARAM = 1,
  PJD_7PARAM = 2;
/** Radians per arc second (proj4's SEC_TO_RAD). */
const SEC_TO_RAD = Math.PI / 180 / 3600;

export interface CrsInfo {
  /** `EPSG:<code>` as stored with a layer. */
  crs: string;
  name: string;
  geographic: boolean;
  /** Metres per CRS unit (projected CRSs; 1 for metres, 0.3048006 for US survey feet). */
  toMetre: number;
  /** (lng, lat) WGS 84 → (x, y) in the CRS, and back. */
  project: (lng: number, lat: number) => [number, number];
  unproject: (x: number, y: number) => [number, number];
  /** Said with the layer when the datum shift is only approximate. */
  note: string | null;
}

interface EpsgEntry {
  code: string;
  kind: string;
  name: string;
  wkt: string;
  proj4: string;
}

const cache = new Map<number, CrsInfo | null>();

/** The registry's entry of an EPSG code, or null (unknown, not a 2-D projected or geographic CRS, or no proj4 definition). */
function entryOf(code: number): EpsgEntry | null {
  if (!Number.isInteger(code) || code <= 0 || code > 999_999) return null;
  let e: EpsgEntry;
  try {
    e = JSON.parse(readFileSync(require.resolve(`epsg-index/s/${code}.json`), 'utf8')) as EpsgEntry;
  } catch {
    return null;
  }
  if ((e.kind !== 'CRS-PROJCRS' && e.kind !== 'CRS-GEOGCRS') || !e.proj4) return null;
  return e;
}

/** A definition whose grid files are not shipped, with proj4's Helmert shift of the same datum where it has one. */
function withoutGrids(e: EpsgEntry): { def: string; note: string | null } {
  const grids = /\+nadgrids=(\S+)/.exec(e.proj4)?.[1];
  // '@null' is the null grid (no shift: Web Mercator's sphere on WGS 84), not a file
  if (!grids || grids.split(',').every((g) => g.replace(/^@/, '') === 'null')) return { def: e.proj4, note: null };
  const geogCode = e.kind === 'CRS-GEOGCRS' ? e.code : /AUTHORITY\["EPSG","(\d+)"\]\],PROJECTION/.exec(e.wkt)?.[1];
  const geogName = /GEOGCS\["([^"]+)"/.exec(e.wkt)?.[1] ?? '';
  const base = e.proj4.replace(/\s*\+nadgrids=\S+/, '');
  for (const datum of [geogCode ? `EPSG_${geogCode}` : null, geogName.toLowerCase().replace(/[^a-z0-9]+/g, '_')]) {
    if (!datum) continue;
    try {
      const d = (proj4.Proj(`${base} +datum=${datum}`) as unknown as { datum?: { datum_type?: number; datum_params?: number[] } }).datum;
      const p = d?.datum_params;
      // the parameters back in +towgs84's units (proj4 holds rotations in radians and the scale as 1 + ppm × 1e-6);
      // +datum= itself would also take the table's ellipsoid in place of the definition's
      if (d?.datum_type === PJD_3PARAM && p) return { def: `${base} +towgs84=${p.slice(0, 3).join(',')}`, note: null };
      if (d?.datum_type === PJD_7PARAM && p) {
        const seven = [p[0], p[1], p[2], p[3]! / SEC_TO_RAD, p[4]! / SEC_TO_RAD, p[5]! / SEC_TO_RAD, (p[6]! - 1) * 1e6];
        return { def: `${base} +towgs84=${seven.map((v) => Number(v!.toPrecision(10))).join(',')}`, note: null };
      }
    } catch {
      /* not a datum proj4 knows */
    }
  }
  return {
    def: `${base} +nadgrids=@null`,
    note: `EPSG:${e.code} shifts its datum with a grid (${grids}) that is not available here; positions may be off by up to a few hundred metres. Reproject the layer to EPSG:4326 for a better fit.`,
  };
}

/**
 * The CRS of an EPSG code as a pair of conversions, or null when the registry has no usable definition for it.
 * Cached per code (one small file read per code and process).
 */
export function crsOf(rawCode: number): CrsInfo | null {
  const code = WEB_MERCATOR_ALIASES[rawCode] ?? rawCode;
  if (cache.has(code)) return cache.get(code)!;
  const e = entryOf(code);
  let info: CrsInfo | null = null;
  if (e) {
    const { def, note } = withoutGrids(e);
    try {
      const conv = proj4('EPSG:4326', def);
      const proj = proj4.Proj(def) as unknown as { to_meter?: number };
      info = {
        crs: `EPSG:${code}`,
        name: e.name,
        geographic: e.kind === 'CRS-GEOGCRS',
        toMetre: proj.to_meter ?? 1,
        project: (lng, lat) => conv.forward([lng, lat]) as [number, number],
        unproject: (x, y) => conv.inverse([x, y]) as [number, number],
        note,
      };
    } catch {
      info = null;
    }
  }
  cache.set(code, info);
  return info;
}

/** What the messages say about the CRSs read. */
export const SUPPORTED_CRS_TEXT = 'a projected or geographic CRS of the EPSG registry (e.g. EPSG:4326, 3857, 2326, 27700 or a UTM zone)';

/** A WKT's own EPSG code: the AUTHORITY (WKT 1) or ID (WKT 2) that closes the outermost CRS, if any. */
function wktAuthorityCode(wkt: string): number | null {
  const m = /(?:AUTHORITY\[\s*"EPSG"\s*,\s*"?|ID\[\s*"EPSG"\s*,\s*"?)(\d+)"?\s*\]\s*\]\s*$/i.exec(wkt.trim());
  return m ? Number(m[1]) : null;
}

/** A CRS name reduced to its letters and digits, ESRI's spellings of WGS 84 made EPSG's. */
const normaliseCrsName = (s: string) =>
  s
    .toLowerCase()
    .replace(/^gcs_/, '')
    .replace(/wgs[_ ]?1984/g, 'wgs84')
    .replace(/[^a-z0-9]/g, '');

let nameIndex: Map<string, number[]> | null = null;
/** EPSG names (whole, and the part after " / ") → codes, from the registry's one-file index (8 MB, read once per process). */
function crsNameIndex(): Map<string, number[]> {
  if (nameIndex) return nameIndex;
  const all = JSON.parse(readFileSync(require.resolve('epsg-index/all.json'), 'utf8')) as Record<string, EpsgEntry>;
  const m = new Map<string, number[]>();
  const add = (k: string, code: number) => {
    if (!k) return;
    const list = m.get(k) ?? [];
    if (!list.includes(code)) list.push(code);
    m.set(k, list);
  };
  for (const e of Object.values(all)) {
    if ((e.kind !== 'CRS-PROJCRS' && e.kind !== 'CRS-GEOGCRS') || !e.proj4) continue;
    add(normaliseCrsName(e.name), Number(e.code));
    const slash = e.name.indexOf(' / ');
    if (slash > 0) add(normaliseCrsName(e.name.slice(slash + 3)), Number(e.code));
  }
  return (nameIndex = m);
}

/** The numbers a WKT's projection parameters hold, by lower-case parameter name. */
function wktParameters(wkt: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of wkt.matchAll(/PARAMETER\[\s*"([^"]+)"\s*,\s*(-?[\d.eE+-]+)/g)) out.set(m[1]!.toLowerCase(), Number(m[2]));
  return out;
}

/** Whether the EPSG entry's proj4 definition has the false easting/northing and central meridian the WKT states. */
function parametersAgree(wkt: string, code: number): boolean {
  const e = entryOf(code);
  if (!e) return false;
  const p = wktParameters(wkt);
  const checks: [string, string][] = [
    ['false_easting', 'x_0'],
    ['false_northing', 'y_0'],
    ['central_meridian', 'lon_0'],
  ];
  for (const [wktName, projName] of checks) {
    const want = p.get(wktName);
    if (want === undefined) continue;
    // a parameter the definition leaves implicit (+proj=utm +zone=50) is not compared
    const stated = new RegExp(`\\+${projName}=(-?[\\d.eE+-]+)`).exec(e.proj4)?.[1];
    if (stated === undefined) continue;
    const got = Number(stated);
    if (Math.abs(got - want) > 1e-3 * Math.max(1, Math.abs(want))) return false;
  }
  return true;
}

/**
 * The CRS a WKT names (a Shapefile's .prj, a GeoPackage's gpkg_spatial_ref_sys definition, GeoJSON's old `crs`
 * member): its EPSG AUTHORITY when it has one; else an EPSG CRS whose name is the WKT's (ESRI spells
 * "WGS_1984_UTM_Zone_50N", "British_National_Grid", "Hong_Kong_1980_Grid") and whose false easting, false northing and
 * central meridian agree; else, when its datum is WGS 84 or it states TOWGS84, proj4's reading of the WKT itself.
 * Null otherwise (a datum of unknown shift: positions could be hundreds of metres off).
 */
export function crsOfWkt(wkt: string): CrsInfo | null {
  const code = wktAuthorityCode(wkt);
  if (code !== null) return crsOf(code);
  const name = /^\s*(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS|GEODCRS)\[\s*"([^"]+)"/i.exec(wkt)?.[1];
  if (!name) return null;
  const n = normaliseCrsName(name);
  if (/^(wgs84|wgs84geodetic)$/.test(n) && /^\s*GEOG/i.test(wkt)) return crsOf(4326);
  if (/^wgs84(webmercator(auxiliarysphere)?|pseudomercator)$/.test(n)) return crsOf(3857);
  const index = crsNameIndex();
  let candidates = index.get(n) ?? [];
  if (candidates.length === 0) {
    const prefixed = [...index.entries()].filter(([k]) => k.startsWith(n) && k.length - n.length <= 8).flatMap(([, c]) => c);
    candidates = [...new Set(prefixed)];
  }
  const agreeing = candidates.filter((c) => parametersAgree(wkt, c));
  if (agreeing.length >= 1 && new Set(agreeing.map((c) => entryOf(c)?.proj4)).size === 1) return crsOf(agreeing[0]!);
  if (!/TOWGS84|D_WGS_1984|DATUM\[\s*"WGS_1984"|DATUM\[\s*"World Geodetic System 1984"/i.test(wkt)) return null;
  try {
    const conv = proj4('EPSG:4326', wkt);
    const proj = proj4.Proj(wkt) as unknown as { to_meter?: number; projName?: string };
    return {
      crs: name,
      name,
      geographic: proj.projName === 'longlat',
      toMetre: proj.to_meter ?? 1,
      project: (lng, lat) => conv.forward([lng, lat]) as [number, number],
      unproject: (x, y) => conv.inverse([x, y]) as [number, number],
      note: null,
    };
  } catch {
    return null;
  }
}
