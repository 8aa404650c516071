/**
 * Own ("bring-your-own") hazard layers: one band of a GeoTIFF/COG (or a NetCDF variable: netcdf-layer.ts) registered for a hazard, indicator, scenario, year
 * and return period. Where a registered raster covers a point (a valid, non-nodata pixel), it replaces the built-in
 * value and the answer says so (tier 'own data').
 *
 * Two ways in:
 *  - a company's uploads (the server keeps the bytes in its database and builds one ByoRegistry per company:
 *    `readGeoTiffLayer` checks a file and returns the raster, or throws OwnLayerError naming the problem);
 *  - the installation's catalogue file (JSON array of ByoEntry; default packages/hazards/byo/catalog.json, overridable
 *    with HAZARD_BYO_CATALOG; `file` paths relative to the catalogue file). A bad entry is skipped with its reason
 *    (`loadCatalog` returns them), never failing the other layers.
 *
 * Coordinate reference systems: any 2-D projected or geographic CRS of the EPSG registry (crs.ts), read from the
 * GeoKeys. A raster is kept in its own grid and each query point is projected into it (proj4), which picks exactly the
 * pixel GDAL would after a nearest-neighbour warp, without resampling.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve, isAbsolute, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { fromArrayBuffer, type GeoTIFFImage } from 'geotiff';
import {
  HAZARD_KEYS,
  OWN_LAYER_DEFAULT_MAX_BYTES,
  OWN_LAYER_DEFAULT_MAX_PIXELS,
  OWN_LAYER_RANGES,
  OWN_LAYER_UNITS,
  HAZARD_INDICATORS,
  type HazardKey,
  type ScenarioCode,
} from '@crp/contracts';
import { installBoundedTiffDecoders } from './tiff-decoders.js';
import { crsOf, SUPPORTED_CRS_TEXT } from './crs.js';

// Every GeoTIFF this process reads decodes through the bounded decoders (no tile past its declared size).
installBoundedTiffDecoders();

const here = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_BYO_CATALOG = resolve(here, '../byo/catalog.json');

export function byoCatalogPath(): string {
  return process.env.HAZARD_BYO_CATALOG ? resolve(process.env.HAZARD_BYO_CATALOG) : DEFAULT_BYO_CATALOG;
}

export interface ByoEntry {
  id: string;
  hazard: HazardKey;
  /** Indicator and unit of the raster values (default: the built-in indicator and unit of the hazard). */
  indicator?: string;
  unit?: string;
  /** null/undefined = any scenario. */
  scenario?: ScenarioCode | null;
  /** null/undefined = any year; otherwise the entry of the nearest year is used. */
  year?: number | null;
  /** Return period (years) for curve hazards; null for a single value. */
  returnPeriodYears?: number | null;
  /** Catalogue entries: GeoTIFF path (absolute, or relative to the catalogue file). Uploads have none. */
  file?: string;
  label?: string;
  publisher?: string;
  license?: string;
  citation?: string;
  /** Real value = raw × scale + offset (default 1, 0). */
  scale?: number;
  offset?: number;
  /** The band read (1-based; default 1): a GeoTIFF's sample, or a NetCDF variable's slice along its leading dimension. */
  band?: number;
  /** NetCDF: the variable read (default: the only one on a latitude/longitude grid). */
  variable?: string;
}

/** A layer refused: `field` names what is wrong (the upload form's field, or `file` for the raster itself). */
export class OwnLayerError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'OwnLayerError';
  }
}

export interface ByoRaster {
  entry: ByoEntry;
  /** Grid in the file's own CRS: top-left corner (x0, y0) and positive pixel sizes, in CRS units. */
  x0: number;
  y0: number;
  resX: number;
  resY: number;
  width: number;
  height: number;
  data: Float32Array;
  nodata: number | null;
  /** (lng, lat) in degrees → (x, y) in the file's CRS; null for EPSG:4326 files. */
  project: ((lng: number, lat: number) => [number, number]) | null;
  crs: string;
  bounds: { west: number; south: number; east: number; north: number };
  resolutionKm: number;
  grid: { lon0: number; lat0: number; resDeg: number; width: number; height: number };
  sha256: string;
  validPixels: number;
  /** Smallest and largest valid value after scale and offset (the hazard's unit). */
  min: number;
  max: number;
  /** Said with the layer when its CRS's datum shift is only approximate (crs.ts). */
  crsNote?: string | null;
}

export interface ByoHit {
  entry: ByoEntry;
  value: number;
  resolutionKm: number;
}

export function validateByoEntry(e: ByoEntry): void {
  if (!e || typeof e.id !== 'string' || !e.id) throw new OwnLayerError('id', 'An own layer needs an id');
  if (!HAZARD_KEYS.includes(e.hazard)) throw new OwnLayerError('hazard', `Own layer ${e.id}: unknown hazard ${String(e.hazard)}`);
  if (e.scenario != null && !['26', '45', '85'].includes(e.scenario)) throw new OwnLayerError('scenario', `Own layer ${e.id}: scenario must be 26, 45 or 85`);
  if (e.year != null && !(Number.isInteger(e.year) && e.year >= 1950 && e.year <= 2150)) throw new OwnLayerError('year', `Own layer ${e.id}: bad year`);
  if (e.returnPeriodYears != null && !(e.returnPeriodYears > 0)) throw new OwnLayerError('return_period_years', `Own layer ${e.id}: bad return period`);
  if (e.band != null && !(Number.isInteger(e.band) && e.band >= 1)) throw new OwnLayerError('band', `Own layer ${e.id}: band must be a whole number from 1`);
}

export interface ReadLimits {
  maxBytes?: number;
  maxPixels?: number;
}

/**
 * Reads and checks one GeoTIFF for an own layer: readable, single band, a supported CRS, north-up, inside the world,
 * within the size limits, at least one valid pixel, every valid pixel within the hazard's plausible range
 * (OWN_LAYER_RANGES) after the unit conversion. Throws OwnLayerError naming the problem (the first, in that order).
 */
export async function readGeoTiffLayer(bytes: Uint8Array, entry: ByoEntry, limits: ReadLimits = {}): Promise<ByoRaster> {
  validateByoEntry(entry);
  const maxBytes = limits.maxBytes ?? OWN_LAYER_DEFAULT_MAX_BYTES,
    maxPixels = limits.maxPixels ?? OWN_LAYER_DEFAULT_MAX_PIXELS;
  checkFileBytes(bytes, maxBytes);
  const img = await openImage(bytes);
  const { width, height, band } = checkPixels(img, maxPixels, entry.band ?? 1);
  checkNotTruncated(img, bytes.byteLength);
  const geo = (img.getGeoKeys() ?? {}) as GeoKeys;
  const crs = readCrs(geo);
  const grid = readNorthUpGrid(img, geo);
  const file = await fileScaleOffset(img, band - 1);
  let raw: ArrayLike<number>;
  try {
    raw = ((await img.readRasters({ samples: [band - 1] })) as unknown as ArrayLike<number>[])[0]!;
  } catch (err) {
    if (readPastEnd(err)) throw truncated(bytes.byteLength, null);
    throw new OwnLayerError('file', `The raster's pixels cannot be read (${short(err)}).`);
  }
  const ndRaw = img.getGDALNoData();
  const nodata = ndRaw === null || ndRaw === undefined || !Number.isFinite(Number(ndRaw)) ? null : Number(ndRaw);
  return finishLayer(bytes, entry, { width, height, ...grid, crs, raw, nodata: nodata === null ? [] : [nodata], file });
}

/** A grid read from a file (GeoTIFF or NetCDF): size, top-left corner and pixel sizes in its CRS, raw values, row-major from the north. */
export interface RawGrid {
  width: number;
  height: number;
  x0: number;
  y0: number;
  resX: number;
  resY: number;
  crs: CrsRead;
  raw: ArrayLike<number>;
  /** Raw values that mean "no value" (GDAL_NODATA; CF _FillValue and missing_value). */
  nodata: number[];
  /** The file's own scale and offset (GDAL metadata; CF scale_factor and add_offset). */
  file: { scale: number; offset: number; declared: boolean };
}

/** The checks and conversions every format shares: extent in the world, unit conversion, plausible range, statistics. */
export function finishLayer(bytes: Uint8Array, entry: ByoEntry, g: RawGrid): ByoRaster {
  const { width, height, x0, y0, resX, resY } = g;
  const { project, unproject, crs, geographic, toMetre, note } = g.crs;
  const bounds = extentDegrees(x0, y0, x0 + width * resX, y0 - height * resY, unproject, crs);
  const resolutionKm = geographic ? resY * 111.2 : (resY * toMetre) / 1000;
  const { unitKey, scale, offset } = unitConversion(entry);
  const { data, nodata, valid, min, max } = toHazardValues(g, entry, unitKey, scale, offset);
  return {
    entry: { ...entry, unit: unitKey },
    x0,
    y0,
    resX,
    resY,
    width,
    height,
    data,
    nodata,
    project,
    crs,
    bounds,
    resolutionKm,
    grid: { lon0: bounds.west, lat0: bounds.north, resDeg: geographic ? resY : (resY * toMetre) / 111_200, width, height },
    sha256: createHash('sha256').update(bytes).digest('hex'),
    validPixels: valid,
    min,
    max,
    crsNote: note,
  };
}

/** A raster without its projection function: what crosses a process boundary or is stored (the pixels already decoded). */
export type DecodedRaster = Omit<ByoRaster, 'project'>;

/** The raster as plain data (structured-clone safe). */
export function decodedRaster(r: ByoRaster): DecodedRaster {
  const { project: _project, ...rest } = r;
  return rest;
}

/**
 * A raster rebuilt from its decoded grid (a stored own layer, or one read in another process): the projection comes
 * back from the CRS code readGeoTiffLayer accepted; no file is parsed. Throws OwnLayerError for a CRS it does not know.
 */
export function rasterFromDecoded(d: Omit<DecodedRaster, 'grid'>): ByoRaster {
  const code = Number(/^EPSG:(\d+)$/.exec(d.crs)?.[1] ?? NaN);
  const info = code === 4326 ? null : crsOf(code);
  if (code !== 4326 && !info) throw new OwnLayerError('file', `Own layer ${d.entry.id}: unknown CRS ${d.crs}`);
  if (d.data.length !== d.width * d.height)
    throw new OwnLayerError('file', `Own layer ${d.entry.id}: ${d.data.length} pixels stored for ${d.width} × ${d.height}`);
  const resDeg = !info || info.geographic ? d.resY : (d.resY * info.toMetre) / 111_200;
  return { ...d, project: info ? info.project : null, grid: { lon0: d.bounds.west, lat0: d.bounds.north, resDeg, width: d.width, height: d.height } };
}

/** The size a GeoTIFF declares (its first image), read from its header without decoding a pixel; null when it cannot be opened. */
export async function geoTiffSize(bytes: Uint8Array): Promise<{ width: number; height: number } | null> {
  try {
    const img = await openImage(bytes);
    return { width: img.getWidth(), height: img.getHeight() };
  } catch {
    return null;
  }
}

type GeoKeys = Record<string, number | string | undefined>;
/** A file's CRS as the readers hand it on: conversions both ways (null for EPSG:4326). */
export interface CrsRead {
  project: ByoRaster['project'];
  unproject: Unproject | null;
  crs: string;
  geographic: boolean;
  toMetre: number;
  note: string | null;
}
type Unproject = (x: number, y: number) => [number, number];

/** Not empty, within the byte limit, and a TIFF header. */
function checkFileBytes(bytes: Uint8Array, maxBytes: number): void {
  if (bytes.byteLength === 0) throw new OwnLayerError('file', 'The file is empty.');
  if (bytes.byteLength > maxBytes)
    throw new OwnLayerError(
      'file',
      `The file is ${mb(bytes.byteLength)} MB; the limit is ${mb(maxBytes)} MB. Compress it (gdal_translate -co COMPRESS=DEFLATE -co PREDICTOR=2, or 3 for floating point), crop it to your sites or coarsen it.`,
    );
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (magic !== 'II' && magic !== 'MM')
    throw new OwnLayerError(
      'file',
      'The file is not a GeoTIFF or NetCDF file (it starts with neither header). Export the layer as GeoTIFF, Cloud-Optimized GeoTIFF or NetCDF.',
    );
}

async function openImage(bytes: Uint8Array): Promise<GeoTIFFImage> {
  try {
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return await (await fromArrayBuffer(ab)).getImage();
  } catch (err) {
    if (readPastEnd(err)) throw truncated(bytes.byteLength, null);
    throw new OwnLayerError('file', `The file is not a readable GeoTIFF (${short(err)}).`);
  }
}

/** Some pixels, within the pixel limit; the band asked for is one of the file's. */
function checkPixels(img: GeoTIFFImage, maxPixels: number, band: number): { width: number; height: number; band: number } {
  const width = img.getWidth(),
    height = img.getHeight();
  if (!(width > 0 && height > 0)) throw new OwnLayerError('file', 'The raster has no pixels.');
  if (width * height > maxPixels)
    throw new OwnLayerError(
      'file',
      `The raster has ${width} × ${height} = ${(width * height).toLocaleString('en-US')} pixels; the limit is ${maxPixels.toLocaleString('en-US')}. Crop it to your sites or coarsen it.`,
    );
  const bands = img.getSamplesPerPixel();
  if (band > bands) throw new OwnLayerError('band', `The raster has ${bands} band${bands === 1 ? '' : 's'}; band must be from 1 to ${bands} (sent ${band}).`);
  return { width, height, band };
}

/**
 * A file cut short (an interrupted download or copy): a strip or tile that the directory places past the end of the
 * file. Checked before any pixel is read, so the answer says "truncated" rather than a reader's bounds error.
 */
function checkNotTruncated(img: GeoTIFFImage, fileBytes: number): void {
  const fd = img.fileDirectory as unknown as { getValue(tag: string): ArrayLike<number> | undefined };
  const offsets = fd.getValue('TileOffsets') ?? fd.getValue('StripOffsets');
  const counts = fd.getValue('TileByteCounts') ?? fd.getValue('StripByteCounts');
  if (!offsets || !counts) return;
  let end = 0;
  for (let i = 0; i < offsets.length; i++) if (Number(counts[i] ?? 0) > 0) end = Math.max(end, Number(offsets[i]) + Number(counts[i]));
  if (end > fileBytes) throw truncated(fileBytes, end);
}

/** A reader's error for a read past the end of the bytes (DataView and typed-array bounds). */
export function readPastEnd(err: unknown): boolean {
  return /outside the bounds|out of bounds|beyond the end|Offset is outside/i.test(err instanceof Error ? err.message : String(err));
}

/** The refusal of a file that ends before the data its header points to. */
export function truncated(fileBytes: number, needed: number | null): OwnLayerError {
  const at = `${fileBytes.toLocaleString('en-US')} bytes`;
  return new OwnLayerError(
    'file',
    `The file is truncated: it ends after ${at}${needed ? `, but its header points to data up to byte ${needed.toLocaleString('en-US')}` : ', before the data its header points to'}. It was probably cut short by an interrupted download or copy; copy or export it again.`,
  );
}

/**
 * The coordinate reference system from the GeoKeys: a projected or geographic CRS of the EPSG registry (crs.ts), with
 * proj4 both ways; EPSG:4326 (and a user-defined geographic CRS on the WGS 84 datum) needs no conversion.
 */
function readCrs(geo: GeoKeys): CrsRead {
  const projected = Number(geo.ProjectedCSTypeGeoKey ?? 0),
    geographic = Number(geo.GeographicTypeGeoKey ?? 0),
    model = Number(geo.GTModelTypeGeoKey ?? 0);
  const advice = '(gdalwarp -t_srs EPSG:4326 converts any)';
  if (projected || model === 1) {
    const info = projected && projected !== 32767 ? crsOf(projected) : null;
    if (!info || info.geographic) {
      throw new OwnLayerError(
        'file',
        `The raster's coordinate reference system (${projected && projected !== 32767 ? `EPSG:${projected}` : 'a user-defined projection'}) is not supported; use ${SUPPORTED_CRS_TEXT} ${advice}.`,
      );
    }
    return { project: info.project, unproject: info.unproject, crs: info.crs, geographic: false, toMetre: info.toMetre, note: info.note };
  }
  if (model === 2 || geographic) {
    const datum = Number(geo.GeogGeodeticDatumGeoKey ?? 0);
    if (!geographic || geographic === 4326 || (geographic === 32767 && datum === 6326))
      return { project: null, unproject: null, crs: 'EPSG:4326', geographic: true, toMetre: 1, note: null };
    const info = geographic !== 32767 ? crsOf(geographic) : null;
    if (!info || !info.geographic)
      throw new OwnLayerError(
        'file',
        `The raster's geographic coordinate system (${geographic !== 32767 ? `EPSG:${geographic}` : 'a user-defined one'}) is not supported; use ${SUPPORTED_CRS_TEXT} ${advice}.`,
      );
    return { project: info.project, unproject: info.unproject, crs: info.crs, geographic: true, toMetre: 1, note: info.note };
  }
  throw new OwnLayerError('file', `The raster has no coordinate reference system (no GeoKeys); save it as a GeoTIFF in ${SUPPORTED_CRS_TEXT}.`);
}

/** The grid: north-up only; top-left corner and positive pixel sizes in CRS units (PixelIsPoint tie points moved). */
function readNorthUpGrid(img: GeoTIFFImage, geo: GeoKeys): { x0: number; y0: number; resX: number; resY: number } {
  const fd = img.fileDirectory as unknown as { getValue(tag: string): unknown };
  const transform = fd.getValue('ModelTransformation') as number[] | undefined;
  if (transform && (Math.abs(transform[1] ?? 0) > 1e-12 || Math.abs(transform[4] ?? 0) > 1e-12)) {
    throw new OwnLayerError('file', 'The raster is rotated or sheared; warp it to a north-up grid first (gdalwarp).');
  }
  let origin: number[], res: number[];
  try {
    origin = img.getOrigin();
    res = img.getResolution();
  } catch (err) {
    throw new OwnLayerError('file', `The raster has no georeferencing (tie point and pixel size): ${short(err)}.`);
  }
  const resX = Math.abs(res[0]!),
    resY = Math.abs(res[1]!);
  if (!(resX > 0 && resY > 0) || !Number.isFinite(origin[0]!) || !Number.isFinite(origin[1]!))
    throw new OwnLayerError('file', 'The raster has no valid pixel size or origin.');
  let x0 = origin[0]!,
    y0 = origin[1]!;
  if (Number(geo.GTRasterTypeGeoKey) === 2) {
    x0 -= resX / 2;
    y0 += resY / 2;
  } // PixelIsPoint: the tie point is a pixel centre
  return { x0, y0, resX, resY };
}

/** Extent in degrees (corners and edge midpoints, enough for north-up grids of the supported CRSs); inside the world. */
function extentDegrees(x0: number, y0: number, x1: number, y1: number, unproject: Unproject | null, crs: string): ByoRaster['bounds'] {
  if (!unproject) {
    if (x0 < -180.0001 || x1 > 180.0001 || y1 < -90.0001 || y0 > 90.0001) {
      throw new OwnLayerError(
        'file',
        `The raster's extent (${fmt(x0)}..${fmt(x1)} E, ${fmt(y1)}..${fmt(y0)} N) is outside the world (longitude −180..180, latitude −90..90); is it really in ${crs}?`,
      );
    }
    return { west: x0, south: y1, east: x1, north: y0 };
  }
  const pts: [number, number][] = [];
  for (const fx of [0, 0.5, 1]) for (const fy of [0, 0.5, 1]) pts.push(unproject(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)));
  const lngs = pts.map((p) => p[0]),
    lats = pts.map((p) => p[1]);
  if (
    pts.some((p) => !Number.isFinite(p[0]) || !Number.isFinite(p[1])) ||
    Math.min(...lats) < -90.0001 ||
    Math.max(...lats) > 90.0001 ||
    Math.min(...lngs) < -180.0001 ||
    Math.max(...lngs) > 180.0001
  ) {
    throw new OwnLayerError(
      'file',
      `The raster's extent (${fmt(x0)}..${fmt(x1)}, ${fmt(y1)}..${fmt(y0)} in ${crs}) is outside the world; is it really in ${crs}?`,
    );
  }
  return { west: Math.min(...lngs), south: Math.min(...lats), east: Math.max(...lngs), north: Math.max(...lats) };
}

/** The entry's unit (default: the hazard's) and the scale and offset to the hazard's unit. */
function unitConversion(entry: ByoEntry): { unitKey: string; scale: number; offset: number } {
  const unitKey = entry.unit ?? HAZARD_INDICATORS[entry.hazard].unit;
  const unit = OWN_LAYER_UNITS[entry.hazard][unitKey];
  if (!unit && entry.scale === undefined) {
    throw new OwnLayerError('unit', `unit "${unitKey}" is not accepted for ${entry.hazard}; use ${Object.keys(OWN_LAYER_UNITS[entry.hazard]).join(', ')}.`);
  }
  return { unitKey, scale: (entry.scale ?? 1) * (unit?.[0] ?? 1), offset: (entry.offset ?? 0) * (unit?.[0] ?? 1) + (unit?.[1] ?? 0) };
}

/** The pixels in the hazard's unit (NaN for nodata); throws when any is outside the plausible range or none is valid. */
function toHazardValues(g: RawGrid, entry: ByoEntry, unitKey: string, scale: number, offset: number) {
  const { width, height, raw, file } = g;
  const nodata = g.nodata.length ? g.nodata[0]! : null;
  const nodataF = g.nodata.map((v) => Math.fround(v));
  const data = new Float32Array(width * height);
  const [lo, hi] = OWN_LAYER_RANGES[entry.hazard];
  let valid = 0,
    min = Infinity,
    max = -Infinity,
    bad = 0,
    firstBad: { v: number; col: number; row: number } | null = null;
  for (let i = 0; i < data.length; i++) {
    const r = raw[i]!;
    // the nodata value compared as float32, as GDAL writes it into float rasters
    if (!Number.isFinite(r) || (nodataF.length && (g.nodata.includes(r) || nodataF.includes(Math.fround(r))))) {
      data[i] = NaN;
      continue;
    }
    const v = (r * file.scale + file.offset) * scale + offset;
    if (v < lo || v > hi) {
      bad++;
      firstBad ??= { v, col: i % width, row: Math.floor(i / width) };
      data[i] = NaN;
      continue;
    }
    data[i] = v;
    valid++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (bad > 0) {
    const u = HAZARD_INDICATORS[entry.hazard].unit;
    throw new OwnLayerError(
      'file',
      `${bad.toLocaleString('en-US')} pixel(s) are outside the plausible range of ${entry.hazard} (${lo} to ${hi} ${u}), e.g. ${fmt(firstBad!.v)} ${u} at column ${firstBad!.col}, row ${firstBad!.row}. Check the unit (sent as ${unitKey})${file.declared ? `, the file's scale (${file.scale}) and offset (${file.offset})` : ''} and the nodata value${nodata === null ? ' (the file declares none)' : ` (${nodata})`}.`,
    );
  }
  if (valid === 0) throw new OwnLayerError('file', `Every pixel is nodata${nodata === null ? '' : ` (${nodata})`} or not a number: the layer has no values.`);
  return { data, nodata, valid, min, max };
}

/**
 * The band's scale and offset as GDAL writes them (GDAL_METADATA tag 42112, `<Item name="SCALE" sample="0"
 * role="scale">`; `gdal_translate -a_scale/-a_offset`, `gdal_edit.py`): real value = stored value × scale + offset,
 * applied before the unit conversion, as GDAL's readers (`-unscale`, rasterio's `scales`/`offsets`) do. 1 and 0 when the
 * file declares none; a value that is not a finite number (or a zero scale) is refused.
 */
async function fileScaleOffset(img: GeoTIFFImage, sample: number): Promise<{ scale: number; offset: number; declared: boolean }> {
  let meta: Record<string, unknown> | null;
  try {
    meta = (await img.getGDALMetadata(sample)) as Record<string, unknown> | null;
  } catch (err) {
    throw new OwnLayerError('file', `The raster's GDAL metadata cannot be read (${short(err)}).`);
  }
  const read = (name: 'SCALE' | 'OFFSET', dflt: number): number => {
    const text = meta?.[name];
    if (text === undefined || text === null || String(text).trim() === '') return dflt;
    const v = Number(String(text).trim());
    if (!Number.isFinite(v) || (name === 'SCALE' && v === 0))
      throw new OwnLayerError('file', `The raster's ${name.toLowerCase()} for band ${sample + 1} ("${String(text).slice(0, 30)}") is not a usable number.`);
    return v;
  };
  const scale = read('SCALE', 1),
    offset = read('OFFSET', 0);
  return { scale, offset, declared: scale !== 1 || offset !== 0 };
}

export class ByoRegistry {
  private rasters: ByoRaster[] = [];

  get size(): number {
    return this.rasters.length;
  }

  entries(): ByoRaster[] {
    return [...this.rasters];
  }

  memoryBytes(): number {
    return this.rasters.reduce((a, r) => a + r.data.byteLength, 0);
  }

  clear(): void {
    this.rasters = [];
  }

  /** Adds (or replaces by id) a raster read with readGeoTiffLayer. */
  add(raster: ByoRaster): void {
    this.rasters = this.rasters.filter((r) => r.entry.id !== raster.entry.id);
    this.rasters.push(raster);
  }

  /** Reads a catalogue entry's file and adds it; throws (OwnLayerError or a file error) when it cannot. */
  async register(entry: ByoEntry, baseDir = process.cwd()): Promise<void> {
    validateByoEntry(entry);
    if (typeof entry.file !== 'string' || !entry.file) throw new OwnLayerError('file', `Own layer ${entry.id}: file is required`);
    const path = isAbsolute(entry.file) ? entry.file : resolve(baseDir, entry.file);
    const buf = readFileSync(path);
    // No server path leaves this module: answers name the layer by its label or file name only.
    this.add(await readGeoTiffLayer(buf, { ...entry, file: basename(path) }, { maxBytes: Number.MAX_SAFE_INTEGER, maxPixels: Number.MAX_SAFE_INTEGER }));
  }

  /**
   * Loads every entry of a catalogue file. A bad entry (unreadable, refused) is skipped and reported in `skipped`
   * with its reason; the other entries load.
   */
  async loadCatalog(path = byoCatalogPath()): Promise<{ loaded: number; skipped: { id: string; reason: string }[] }> {
    const skipped: { id: string; reason: string }[] = [];
    if (!existsSync(path)) return { loaded: 0, skipped };
    let list: ByoEntry[];
    try {
      list = JSON.parse(readFileSync(path, 'utf8')) as ByoEntry[];
      if (!Array.isArray(list)) throw new Error('not a JSON array');
    } catch (err) {
      return { loaded: 0, skipped: [{ id: '(catalogue)', reason: `the own-layer catalogue ${basename(path)} is not a JSON array of entries: ${short(err)}` }] };
    }
    let loaded = 0;
    for (const e of list) {
      try {
        await this.register(e, dirname(path));
        loaded++;
      } catch (err) {
        skipped.push({ id: String(e?.id ?? '?'), reason: short(err).replaceAll(dirname(path), '<catalogue folder>') });
      }
    }
    return { loaded, skipped };
  }

  /** Matching values at a point: per (hazard, return period), the scenario-compatible entry of the nearest year. */
  lookup(lat: number, lng: number, scenario: ScenarioCode, year: number): ByoHit[] {
    const best = new Map<string, { r: ByoRaster; v: number; dy: number }>();
    for (const r of this.rasters) {
      const e = r.entry;
      if (e.scenario != null && e.scenario !== scenario) continue;
      if (lat < r.bounds.south || lat > r.bounds.north || lng < r.bounds.west || lng > r.bounds.east) continue;
      const [x, y] = r.project ? r.project(lng, lat) : [lng, lat];
      const col = Math.floor((x - r.x0) / r.resX),
        row = Math.floor((r.y0 - y) / r.resY);
      if (!(col >= 0 && row >= 0 && col < r.width && row < r.height)) continue; // also NaN (a point the projection cannot map)
      const v = r.data[row * r.width + col]!;
      if (v !== v) continue; // nodata
      const key = `${e.hazard}|${e.returnPeriodYears ?? ''}`;
      const dy = e.year == null ? 0.5 : Math.abs(e.year - year);
      const cur = best.get(key);
      if (!cur || dy < cur.dy) best.set(key, { r, v, dy });
    }
    return [...best.values()].map(({ r, v }) => ({ entry: r.entry, value: v, resolutionKm: r.resolutionKm }));
  }
}

/** Add (or replace by id) an entry in a BYO catalogue file, creating it if needed. Returns the catalogue path. */
export function addToByoCatalog(entry: ByoEntry, path = byoCatalogPath()): string {
  validateByoEntry(entry);
  if (typeof entry.file !== 'string' || !entry.file) throw new OwnLayerError('file', `Own layer ${entry.id}: file is required`);
  const list: ByoEntry[] = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ByoEntry[]) : [];
  const next = list.filter((e) => e.id !== entry.id);
  next.push(entry);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(next, null, 2) + '\n');
  return path;
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const fmt = (v: number) => String(Math.round(v * 1000) / 1000);
const short = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);
