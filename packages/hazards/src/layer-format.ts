/**
 * Binary layer format shared by the build script and the loader.
 * A layer is a raw little-endian typed array (band-interleaved per cell: value(cell, band) = data[cell * bands + band]),
 * gzip-compressed on disk. Real value = raw * scale + offset; raw === nodata means "no data".
 * Global regular grids are north-up: row 0 starts at lat0 (north edge), column 0 at lon0 (west edge, -180).
 */
import { createHash } from 'node:crypto';

export type DType = 'uint8' | 'uint16' | 'int16' | 'int32' | 'float32';
export type TypedArray = Uint8Array | Uint16Array | Int16Array | Int32Array | Float32Array;

export interface GridSpec {
  /** West edge of column 0, degrees. */
  lon0: number;
  /** North edge of row 0, degrees. */
  lat0: number;
  /** Cell size, degrees. */
  resDeg: number;
  width: number;
  height: number;
}

export interface LayerEntry {
  name: string;
  file: string;
  dtype: DType;
  grid: GridSpec;
  bands: number;
  bandLabels?: (string | number)[];
  scale: number;
  offset: number;
  nodata: number | null;
  unit: string;
  description: string;
  /** Approximate resolution of the information in the layer (the coarsest input), km. */
  resolutionKm: number;
  /** Sources (keys into manifest.datasets). */
  datasets: string[];
  /** SHA-256 of the uncompressed raw bytes. */
  sha256: string;
  bytesRaw: number;
  bytesGz?: number;
}

export function makeArray(dtype: DType, n: number): TypedArray {
  switch (dtype) {
    case 'uint8':
      return new Uint8Array(n);
    case 'uint16':
      return new Uint16Array(n);
    case 'int16':
      return new Int16Array(n);
    case 'int32':
      return new Int32Array(n);
    case 'float32':
      return new Float32Array(n);
  }
}

export function fromBytes(dtype: DType, buf: Uint8Array): TypedArray {
  // copy into an aligned buffer
  const ab = new ArrayBuffer(buf.byteLength);
  new Uint8Array(ab).set(buf);
  switch (dtype) {
    case 'uint8':
      return new Uint8Array(ab);
    case 'uint16':
      return new Uint16Array(ab);
    case 'int16':
      return new Int16Array(ab);
    case 'int32':
      return new Int32Array(ab);
    case 'float32':
      return new Float32Array(ab);
  }
}

export function toBytes(a: TypedArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Index of the cell containing (lat, lng), or -1 outside the grid. Longitudes wrap. */
export function cellIndex(g: GridSpec, lat: number, lng: number): number {
  const row = Math.floor((g.lat0 - lat) / g.resDeg);
  if (row < 0 || row >= g.height) {
    if (lat === g.lat0 - g.height * g.resDeg) return (g.height - 1) * g.width + colOf(g, lng);
    return -1;
  }
  return row * g.width + colOf(g, lng);
}

export function colOf(g: GridSpec, lng: number): number {
  let col = Math.floor((lng - g.lon0) / g.resDeg) % g.width;
  if (col < 0) col += g.width;
  return col;
}

/** Standard grids. */
export const GRID_025: GridSpec = { lon0: -180, lat0: 90, resDeg: 0.25, width: 1440, height: 720 };
export const GRID_05: GridSpec = { lon0: -180, lat0: 90, resDeg: 0.5, width: 720, height: 360 };
export const GRID_01: GridSpec = { lon0: -180, lat0: 90, resDeg: 0.1, width: 3600, height: 1800 };
/** ETOPO5 resolution, 5 arc-minutes. Only stored as 1° tiles where needed. */
export const GRID_5M: GridSpec = { lon0: -180, lat0: 90, resDeg: 1 / 12, width: 4320, height: 2160 };
/** 1° tile index for sparse 5' layers (12 x 12 cells per tile). */
export const GRID_1: GridSpec = { lon0: -180, lat0: 90, resDeg: 1, width: 360, height: 180 };
export const TILE_CELLS = 12;
/** 1 arc-minute grid; only stored as 1° tiles of 60 x 60 cells near the coast (coast_fine_distance). */
export const GRID_1M: GridSpec = { lon0: -180, lat0: 90, resDeg: 1 / 60, width: 21600, height: 10800 };
export const FINE_TILE_CELLS = 60;
