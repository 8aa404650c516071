/**
 * The upload readers' tasks in a parse child (lib/parse-sandbox.ts; issue 32): an asset upload (CSV, XLSX, XLS) is
 * sniffed, checked for zip bombs, parsed and validated in the child, and its assets come back in batches as they are
 * checked (the child never holds them all); a carbon upload's table comes back whole (at most a few thousand rows).
 * The readers' refusals are the same AppErrors, with the same messages, as when they ran in the server.
 */
import { featureLabel, gisUploadKind, readGisTable } from './asset-import-gis.js';
import { isBlankRow } from '@crp/contracts';
import { readUploadTable, readUploadTableAsync, tableValidator, unknownTableColumns, type ImportedAsset } from './asset-import.js';

export interface UploadReadInput {
  filename: string;
  maxRows: number;
}

/** What an asset upload read to, besides its assets (sent in batches). */
export interface AssetUploadRead {
  errors: string[];
  records: number;
  unknownColumns: string[];
}

export async function readAssetUpload(input: UploadReadInput, file: Buffer | null, emit: (assets: ImportedAsset[]) => Promise<void>): Promise<AssetUploadRead> {
  let sending = Promise.resolve();
  const send = (assets: ImportedAsset[]) => {
    if (assets.length) sending = sending.then(() => emit(assets));
  };
  const upload = { filename: input.filename, data: file ?? Buffer.alloc(0) };
  // A GeoJSON, GeoPackage or zipped Shapefile becomes the same table a CSV does, its rows named as features.
  const gis = gisUploadKind(input.filename);
  const validator = tableValidator(5_000, send, gis ? featureLabel : undefined);
  const table = gis ? await readGisTable(upload, gis, input.maxRows) : await readUploadTableAsync(upload, input.maxRows, (rows) => validator.advance(rows));
  const read = await validator.finish(table);
  send(read.assets.splice(0));
  await sending;
  return { errors: read.errors, records: read.records, unknownColumns: read.unknownColumns };
}

/** The first `previewRows` data rows of an upload's table, its row count and unknown columns (the web wizard's preview). */
export async function previewUpload(
  input: UploadReadInput & { previewRows: number },
  file: Buffer | null,
): Promise<{ header: string[]; rows: unknown[][]; records: number; unknownColumns: string[] }> {
  const upload = { filename: input.filename, data: file ?? Buffer.alloc(0) };
  const gis = gisUploadKind(input.filename);
  const table = gis ? await readGisTable(upload, gis, input.maxRows) : await readUploadTableAsync(upload, input.maxRows);
  const first = table.findIndex((r) => !isBlankRow(r));
  if (first < 0) return { header: [], rows: [], records: 0, unknownColumns: [] };
  const body = table.slice(first + 1).filter((r) => !isBlankRow(r));
  const cell = (v: unknown) => (v === undefined ? null : typeof v === 'number' || typeof v === 'string' || v === null ? v : String(v));
  return {
    header: table[first]!.map((h) => (h === null || h === undefined ? '' : String(h))),
    rows: body.slice(0, input.previewRows).map((r) => r.map(cell)),
    records: body.length,
    unknownColumns: unknownTableColumns(table),
  };
}

export async function readTable(input: UploadReadInput, file: Buffer | null): Promise<unknown[][]> {
  return readUploadTable({ filename: input.filename, data: file ?? Buffer.alloc(0) }, input.maxRows);
}
