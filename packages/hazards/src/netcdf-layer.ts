/**
 * Own hazard layers from NetCDF files (issue 38 item 4): classic and 64-bit-offset NetCDF (CDF-1, CDF-2) following the
 * CF conventions, one variable on a regular latitude/longitude grid. netcdfjs reads the header (dimensions, variables,
 * attributes); the one slice the layer needs is then read here straight from the bytes, after its size is checked
 * against the pixel limit and its end against the file's, so a header that declares more than the file holds is a
 * "truncated" refusal and never an allocation of what it declares.
 *
 * CF as read: the variable's last two dimensions are latitude and longitude (coordinate variables recognised by
 * `standard_name`, `units` degrees_north/degrees_east, `axis` Y/X or the names lat/latitude, lon/longitude), evenly
 * spaced, cell centres; latitude either way up; longitudes 0..360 are moved to −180..180 when the grid does not cross
 * the antimeridian. Any leading dimensions (time, ensemble member) are flattened and `band` picks the slice (1-based,
 * default 1). `scale_factor` and `add_offset` are applied, `_FillValue` and `missing_value` are no value. A grid with
 * a projected `grid_mapping` is refused (warp it to latitude/longitude, or export a GeoTIFF).
 */
import { NetCDFReader } from 'netcdfjs';
import { OWN_LAYER_DEFAULT_MAX_BYTES, OWN_LAYER_DEFAULT_MAX_PIXELS } from '@crp/contracts';
import { finishLayer, OwnLayerError, readPastEnd, truncated, validateByoEntry, type ByoEntry, type ByoRaster, type ReadLimits } from './byo.js';

type NcVariable = NetCDFReader['variables'][number];
interface NcAttribute {
  name: string;
  type: string;
  value: number | string | number[];
}

/** Bytes per value of each NetCDF-3 type, and how to read one (big-endian). */
const TYPES: Record<string, { bytes: number; get: (v: DataView, at: number) => number }> = {
  byte: { bytes: 1, get: (v, at) => v.getInt8(at) },
  char: { bytes: 1, get: (v, at) => v.getUint8(at) },
  short: { bytes: 2, get: (v, at) => v.getInt16(at) },
  int: { bytes: 4, get: (v, at) => v.getInt32(at) },
  float: { bytes: 4, get: (v, at) => v.getFloat32(at) },
  double: { bytes: 8, get: (v, at) => v.getFloat64(at) },
};

/** A file that starts like a NetCDF file (classic, 64-bit offset, or NetCDF-4 / HDF5). */
export function looksLikeNetcdf(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 4));
  return head.startsWith('CDF') || head === '\x89HDF';
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

/** The header of a NetCDF file and the bytes behind it, with the CF look-ups the reader needs. */
class NcFile {
  readonly view: DataView;
  constructor(
    readonly nc: NetCDFReader,
    readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  dimSize(id: number): number {
    const rec = this.nc.recordDimension;
    return id === rec?.id ? (rec.length ?? 0) : (this.nc.dimensions[id]?.size ?? 0);
  }

  dimName(id: number): string {
    return this.nc.dimensions[id]?.name ?? '?';
  }

  attr(v: NcVariable, name: string): NcAttribute['value'] | undefined {
    return (v.attributes as unknown as NcAttribute[]).find((a) => a.name === name)?.value;
  }

  numbers(v: NcVariable, name: string): number[] {
    const a = this.attr(v, name);
    return a === undefined || typeof a === 'string' ? [] : (Array.isArray(a) ? a : [a]).map(Number).filter(Number.isFinite);
  }

  /** The coordinate variable of a dimension (1-D, same name), if any. */
  coordOf(dimId: number): NcVariable | undefined {
    return this.nc.variables.find((v) => v.dimensions.length === 1 && v.dimensions[0] === dimId && v.name === this.dimName(dimId));
  }

  isAxis(v: NcVariable | undefined, axis: 'lat' | 'lon'): boolean {
    if (!v) return false;
    const std = String(this.attr(v, 'standard_name') ?? '').toLowerCase();
    const units = String(this.attr(v, 'units') ?? '').toLowerCase();
    const ax = String(this.attr(v, 'axis') ?? '').toUpperCase();
    const name = v.name.toLowerCase();
    return axis === 'lat'
      ? std === 'latitude' || /^degrees?_?n(orth)?$/.test(units) || (ax === 'Y' && units.startsWith('degree')) || name === 'lat' || name === 'latitude'
      : std === 'longitude' || /^degrees?_?e(ast)?$/.test(units) || (ax === 'X' && units.startsWith('degree')) || name === 'lon' || name === 'longitude';
  }

  /** Variables on a latitude/longitude grid (their last two dimensions). */
  gridded(): NcVariable[] {
    return this.nc.variables.filter((v) => {
      const n = v.dimensions.length;
      return n >= 2 && this.isAxis(this.coordOf(v.dimensions[n - 2]!), 'lat') && this.isAxis(this.coordOf(v.dimensions[n - 1]!), 'lon');
    });
  }

  /** `count` values of a type from `at`, checked against the end of the file. */
  read(type: NcTypeInfo, at: number, count: number): Float64Array {
    if (at + count * type.bytes > this.bytes.byteLength) throw truncated(this.bytes.byteLength, at + count * type.bytes);
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = type.get(this.view, at + i * type.bytes);
    return out;
  }

  /** A coordinate variable's values, with its own scale_factor and add_offset. */
  axis(dimId: number, what: string): number[] {
    const c = this.coordOf(dimId)!;
    const t = TYPES[c.type];
    if (!t || c.record) throw new OwnLayerError('file', `The ${what} coordinate "${c.name}" cannot be read.`);
    const sf = this.numbers(c, 'scale_factor')[0] ?? 1,
      ao = this.numbers(c, 'add_offset')[0] ?? 0;
    return Array.from(this.read(t, c.offset, this.dimSize(dimId)), (x) => x * sf + ao);
  }
}

type NcTypeInfo = (typeof TYPES)[string];

function openNetcdf(bytes: Uint8Array, maxBytes: number): NcFile {
  if (bytes.byteLength === 0) throw new OwnLayerError('file', 'The file is empty.');
  if (bytes.byteLength > maxBytes)
    throw new OwnLayerError(
      'file',
      `The file is ${mb(bytes.byteLength)} MB; the limit is ${mb(maxBytes)} MB. Crop it to your sites (ncks -d lat,..., -d lon,...) or keep only the variable and time step you need (ncks -v).`,
    );
  const head = String.fromCharCode(...bytes.subarray(0, 4));
  if (head === '\x89HDF')
    throw new OwnLayerError(
      'file',
      'The file is NetCDF-4 (HDF5), which is not read; convert it to the classic format (`nccopy -k classic in.nc out.nc`) or export the variable as a GeoTIFF.',
    );
  if (head === 'CDF\x05') throw new OwnLayerError('file', 'The file is NetCDF 64-bit data (CDF-5), which is not read; convert it with `nccopy -k classic`.');
  try {
    return new NcFile(new NetCDFReader(bytes), bytes);
  } catch (err) {
    if (readPastEnd(err)) throw truncated(bytes.byteLength, null);
    throw new OwnLayerError('file', `The file is not a readable NetCDF file (${(err instanceof Error ? err.message : String(err)).slice(0, 200)}).`);
  }
}

/** The variable asked for (or the only gridded one), checked to be on a latitude/longitude grid. */
function chooseVariable(f: NcFile, wanted: string | undefined): NcVariable {
  const gridded = f.gridded();
  const names = gridded.map((v) => v.name).join(', ');
  if (!wanted) {
    if (gridded.length === 0)
      throw new OwnLayerError(
        'file',
        'The file has no variable on a latitude/longitude grid (CF: the last two dimensions latitude and longitude, with coordinate variables). Warp it to latitude/longitude or export a GeoTIFF.',
      );
    if (gridded.length > 1)
      throw new OwnLayerError('variable', `The file has ${gridded.length} gridded variables (${names}); say which one to read (variable).`);
    return gridded[0]!;
  }
  const found = f.nc.variables.find((x) => x.name === wanted);
  if (!found)
    throw new OwnLayerError(
      'variable',
      `The file has no variable "${wanted.slice(0, 60)}"; ${gridded.length ? `its gridded variables are ${names}` : 'it has no variable on a latitude/longitude grid'}.`,
    );
  if (gridded.includes(found)) return found;
  throw new OwnLayerError(
    'variable',
    f.attr(found, 'grid_mapping') !== undefined
      ? `The variable "${found.name}" is on a projected grid (grid_mapping); warp it to latitude/longitude (e.g. cdo remapbil or gdalwarp -t_srs EPSG:4326) or export it as a GeoTIFF.`
      : `The variable "${found.name}" is not on a latitude/longitude grid (its last two dimensions must be latitude and longitude with CF coordinate variables)${gridded.length ? `; the gridded variables are ${names}` : ''}.`,
  );
}

/** Where the band's slice starts, after the pixel limit and the band are checked. */
function sliceOf(f: NcFile, v: NcVariable, band: number, maxPixels: number): { width: number; height: number; start: number; type: NcTypeInfo } {
  const type = TYPES[v.type];
  if (!type || v.type === 'char') throw new OwnLayerError('variable', `The variable "${v.name}" holds ${v.type} values, not numbers.`);
  const n = v.dimensions.length;
  const height = f.dimSize(v.dimensions[n - 2]!),
    width = f.dimSize(v.dimensions[n - 1]!);
  if (!(width > 0 && height > 0)) throw new OwnLayerError('file', `The variable "${v.name}" has no pixels.`);
  if (width * height > maxPixels)
    throw new OwnLayerError(
      'file',
      `The variable "${v.name}" has ${width} × ${height} = ${(width * height).toLocaleString('en-US')} pixels; the limit is ${maxPixels.toLocaleString('en-US')}. Crop it to your sites or coarsen it.`,
    );
  // the slices along the leading dimensions (time, member...), flattened; band picks one
  const leadingDims = v.dimensions.slice(0, n - 2);
  const slices = leadingDims.map((d) => f.dimSize(d)).reduce((a, b) => a * b, 1);
  if (band > slices || slices === 0) {
    const along = leadingDims.map((d) => `${f.dimName(d)} (${f.dimSize(d)})`).join(' × ');
    throw new OwnLayerError(
      'band',
      `The variable "${v.name}" has ${slices} slice${slices === 1 ? '' : 's'}${along ? ` along ${along}` : ''}; band must be from 1 to ${slices} (sent ${band}).`,
    );
  }
  if (v.record && leadingDims.length > 1)
    throw new OwnLayerError(
      'variable',
      `The variable "${v.name}" is a record variable with more than one leading dimension, which is not read; extract one slice (ncks).`,
    );
  // a record variable stores one slab per record, recordStep apart; the others are contiguous
  const sliceBytes = width * height * type.bytes;
  const start = v.record ? v.offset + (band - 1) * (f.nc.recordDimension?.recordStep ?? 0) : v.offset + (band - 1) * sliceBytes;
  return { width, height, start, type };
}

/** Evenly spaced coordinates: the step (signed); refused otherwise. */
function step(xs: number[], what: string): number {
  if (xs.length < 2) throw new OwnLayerError('file', `The ${what} has a single value; the cell size cannot be known.`);
  const d = (xs[xs.length - 1]! - xs[0]!) / (xs.length - 1);
  if (!(Math.abs(d) > 0) || xs.some((x, i) => i > 0 && Math.abs(x - xs[i - 1]! - d) > Math.abs(d) * 1e-3))
    throw new OwnLayerError('file', `The ${what} is not evenly spaced; regrid the variable to a regular latitude/longitude grid.`);
  return d;
}

/** Longitudes in −180..180 (0..360 grids that do not cross the antimeridian moved). */
function westEast(lon: number[]): number[] {
  if (!(lon.some((x) => x > 180) && lon.every((x) => x >= 0))) return lon;
  const moved = lon.map((x) => (x > 180 ? x - 360 : x));
  if (moved.every((x, i) => i === 0 || x > moved[i - 1]!)) return moved;
  throw new OwnLayerError('file', 'The longitudes run 0..360 across the antimeridian; roll them to −180..180 first (cdo sellonlatbox,-180,180,-90,90).');
}

/** Reads and checks one NetCDF variable as an own layer (the same checks as a GeoTIFF once the grid is known). */
export function readNetcdfLayer(bytes: Uint8Array, entry: ByoEntry, limits: ReadLimits = {}): ByoRaster {
  validateByoEntry(entry);
  const f = openNetcdf(bytes, limits.maxBytes ?? OWN_LAYER_DEFAULT_MAX_BYTES);
  const v = chooseVariable(f, entry.variable);
  const { width, height, start, type } = sliceOf(f, v, entry.band ?? 1, limits.maxPixels ?? OWN_LAYER_DEFAULT_MAX_PIXELS);
  const slice = f.read(type, start, width * height);
  const n = v.dimensions.length;
  const lat = f.axis(v.dimensions[n - 2]!, 'latitude');
  const lon = westEast(f.axis(v.dimensions[n - 1]!, 'longitude'));
  const dLon = step(lon, 'longitude'),
    dLat = step(lat, 'latitude');
  if (dLon < 0) throw new OwnLayerError('file', 'The longitudes run east to west; flip them (cdo invertlon) first.');
  const resX = dLon,
    resY = Math.abs(dLat);
  // rows from the north (CF latitude may run south to north)
  const raw = dLat < 0 ? slice : new Float64Array(width * height);
  if (dLat > 0) for (let r = 0; r < height; r++) raw.set(slice.subarray((height - 1 - r) * width, (height - r) * width), r * width);
  const scale = f.numbers(v, 'scale_factor')[0] ?? 1,
    offset = f.numbers(v, 'add_offset')[0] ?? 0;
  if (scale === 0) throw new OwnLayerError('file', `The variable "${v.name}" has a scale_factor of 0.`);
  return finishLayer(bytes, entry, {
    width,
    height,
    x0: lon[0]! - resX / 2,
    y0: Math.max(lat[0]!, lat[lat.length - 1]!) + resY / 2,
    resX,
    resY,
    crs: { project: null, unproject: null, crs: 'EPSG:4326', geographic: true, toMetre: 1, note: null },
    raw,
    nodata: [...f.numbers(v, '_FillValue'), ...f.numbers(v, 'missing_value')],
    file: { scale, offset, declared: scale !== 1 || offset !== 0 },
  });
}
