/**
 * The upload readers' tasks in a parse child (lib/parse-sandbox.ts; issue 32): an asset upload (CSV, XLSX, XLS) is
 * sniffed, checked for zip bombs, parsed and validated in the child, and its assets come back in batches as they are
 * checked (the child never holds them all); a carbon upload's table comes back whole (at most a few thousand rows).
 * The readers' refusals are the same AppErrors, with the same messages, as when they ran in the server.
 */
import { featureLabel, gisUploadKind, readGisTable } from './asset-import-gis.js';
import { readUploadTable, readUploadTableAsync, tableValidator, type ImportedAsset } from './asset-import.js';

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

export async function readTable(input: UploadReadInput, file: Buffer | null): Promise<unknown[][]> {
  return readUploadTable({ filename: input.filename, data: file ?? Buffer.alloc(0) }, input.maxRows);
}
