/**
 * The own-layer reader's task in a parse child (lib/parse-sandbox.ts; issue 32): the GeoTIFF or NetCDF file is read and
 * checked by readGeoTiffLayer (bounded decoders) or readNetcdfLayer in the child, and its decoded grid comes back as plain data. A refusal is the
 * 400 naming the field and the file that the upload answers; a layer past the company's budget is refused from the
 * size its header declares, before a pixel is decoded.
 */
import { deflateRawSync } from 'node:zlib';
import {
  decodedRaster,
  geoTiffSize,
  looksLikeNetcdf,
  OwnLayerError,
  readGeoTiffLayer,
  readNetcdfLayer,
  type ByoEntry,
  type DecodedRaster,
  type ReadLimits,
} from '@crp/hazards';
import { AppError } from '../../lib/errors.js';

/**
 * A checked layer as it is stored: its grid and statistics, and its pixels (Float32 LE, row-major, NaN = no value, in
 * the hazard's unit) deflated here in the child. The deflated form is what crosses the process boundary and the
 * database driver (PGlite turns every byte of a blob into text in the server's thread: docs/decisions.md); loading
 * inflates it off the main thread with the output capped at width × height × 4.
 */
export type StoredLayer = Omit<DecodedRaster, 'data'> & { pixels: Uint8Array };

const MiB = 1_048_576;

export interface ReadOwnLayerInput {
  entry: ByoEntry;
  limits: ReadLimits;
  /** The file's name for messages (already made safe). */
  filename: string;
  /** The company's decoded-layer budget and what its layers use (bytes); none when a stored layer is decoded. */
  budget?: { budgetBytes: number; usedBytes: number };
}

/** 413 when a layer of width × height pixels (4 bytes each decoded) would take the company past its budget. */
export function budgetError(filename: string, width: number, height: number, budget: { budgetBytes: number; usedBytes: number }): AppError | null {
  const bytes = width * height * 4;
  if (budget.usedBytes + bytes <= budget.budgetBytes) return null;
  const mb = (b: number) => `${(b / MiB).toFixed(1)} MB`;
  const msg =
    `'${filename}' takes ${mb(bytes)} decoded (${width} × ${height} pixels); your company's own layers may take ` +
    `${mb(budget.budgetBytes)} and use ${mb(budget.usedBytes)}. Delete a layer, or crop or coarsen this one.`;
  return new AppError(413, `file: ${msg}`, [{ field: 'file', message: msg }]);
}

export async function readOwnLayer(input: ReadOwnLayerInput, file: Buffer | null): Promise<StoredLayer> {
  const bytes = file ?? new Uint8Array(0);
  const netcdf = looksLikeNetcdf(bytes);
  // a GeoTIFF's size is in its header: past the budget it is refused before a pixel is decoded (a NetCDF slice is
  // checked against the budget once read, in the service)
  if (input.budget && !netcdf) {
    const size = await geoTiffSize(bytes);
    const maxPixels = input.limits.maxPixels ?? Infinity;
    const over = size && size.width * size.height <= maxPixels ? budgetError(input.filename, size.width, size.height, input.budget) : null;
    if (over) throw over;
  }
  try {
    const raster = netcdf ? readNetcdfLayer(bytes, input.entry, input.limits) : await readGeoTiffLayer(bytes, input.entry, input.limits);
    const { data, ...rest } = decodedRaster(raster);
    return { ...rest, pixels: deflateRawSync(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { level: 1 }) };
  } catch (err) {
    if (err instanceof OwnLayerError)
      throw new AppError(400, `${err.field}: '${input.filename}' was refused: ${err.message}`, [{ field: err.field, message: err.message }]);
    throw err;
  }
}
