import {
  ASSET_FIELDS,
  ASSET_JSON_KEYS,
  assetFieldForHeader,
  constructionClassError,
  constructionClassOf,
  unknownAssetColumns,
  decodeText,
  guessCsvDelimiter,
  isBlankRow,
  isNA,
  isNaNText,
  isNullIsland,
  NULL_ISLAND_MESSAGE,
  parsePropertyType,
  looksLikeBomlessUtf16,
  parseAmount,
  PLAIN_DECIMAL,
  textBom,
  type AssetFieldKey,
} from '@crp/contracts';
import * as XLSX from '@e965/xlsx';
import { inflateRawSync } from 'node:zlib';
import { AppError } from '../../lib/errors.js';

/** An uploaded file as the multipart plugin hands it over. */
export interface UploadedFile {
  filename: string;
  data: Buffer;
}

/** The optional attributes an asset row carries beyond its name and position (stored as columns of `assets`). */
export const ASSET_ATTRIBUTE_COLUMNS = [
  'property_type',
  'revenue',
  'construction_cost',
  'area',
  'valuation',
  'stories',
  'solar_production',
  'wind_production',
  'hydro_production',
  'wheat_production',
  'rice_production',
  'maize_production',
  'fruit_production',
  'vegetable_production',
  'ownership',
  'flood_protection',
  'construction',
] as const;

export type ImportedAsset = { name: string; latitude: number; longitude: number } & Partial<
  Record<Exclude<AssetFieldKey, 'name' | 'latitude' | 'longitude'>, number | string | null>
> & { country_code?: string | null };

const MAX_ERRORS = 100;

/** The extensions an asset upload may have (spec 000 §5: csv, xlsx or xls). */
const UPLOAD_EXTENSIONS = ['csv', 'xlsx', 'xls'] as const;

/**
 * What kind of file the bytes are. The name must say csv, xlsx or xls, and the bytes must agree: an XLSX is a zip
 * holding an `xl/` workbook part, an XLS an OLE2 compound file, a CSV text (no NUL bytes) with a delimiter or one
 * column per line. A PNG renamed to .csv, a Word document renamed to .xlsx or a text file renamed to .xlsx is refused.
 */
export function sniffFileType(file: UploadedFile): { kind: 'xlsx' | 'xls' | 'csv' } | { kind: 'unsupported'; reason: string } {
  const d = file.data;
  const ext = file.filename.includes('.') ? file.filename.toLowerCase().split('.').pop()! : '';
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) {
    return { kind: 'unsupported', reason: ext ? `files ending .${ext.slice(0, 10)} are not accepted` : 'the file name has no extension' };
  }
  const isZip = d.length >= 4 && d[0] === 0x50 && d[1] === 0x4b && d[2] === 0x03 && d[3] === 0x04;
  const isOle = d.length >= 8 && d.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  if (isZip) {
    if (ext === 'csv') return { kind: 'unsupported', reason: 'it is an Excel workbook or another zip archive named .csv; upload it as .xlsx' };
    // Zip entry names are stored uncompressed: a workbook has xl/workbook.xml (a .docx has word/, a .pptx ppt/).
    if (d.includes('xl/workbook') || d.length < 512) return { kind: 'xlsx' };
    return { kind: 'unsupported', reason: 'it is a zip archive without an Excel workbook inside (a Word, PowerPoint or other zip file?)' };
  }
  if (isOle) return ext === 'csv' ? { kind: 'unsupported', reason: 'it is a binary Office file named .csv' } : { kind: 'xls' };
  const head = d.subarray(0, 8192);
  const bom = textBom(d);
  if (!bom || bom === 'utf-8') {
    if (looksLikeBomlessUtf16(head))
      return {
        kind: 'unsupported',
        reason: 'it looks like text in UTF-16 without a byte order mark; save it as "CSV UTF-8" (or as Unicode text, which has one)',
      };
    if (head.includes(0)) return { kind: 'unsupported', reason: 'it holds binary data, not text or a spreadsheet' };
  }
  if (ext !== 'csv') return { kind: 'unsupported', reason: `it is named .${ext} but holds text; save it as .csv or as an Excel workbook` };
  return { kind: 'csv' };
}

/** The formats an upload's refusal names. */
export interface UploadFormats {
  names: string;
  extensions: string;
}
const TABLE_FORMATS: UploadFormats = { names: 'CSV, XLSX or XLS', extensions: '.csv, .xlsx or .xls' };
/** An asset upload may also be a GIS file (asset-import-gis.ts). */
export const ASSET_UPLOAD_FORMATS: UploadFormats = {
  names: 'CSV, XLSX, XLS, GeoJSON, GeoPackage or zipped Shapefile',
  extensions: '.csv, .xlsx, .xls, .geojson, .gpkg or .zip (Shapefile)',
};

/**
 * Reads a CSV, XLSX or XLS upload into a table of cell values (first sheet). Refuses other files and files with
 * more than `maxRows` data rows, with the reason in the message.
 */
export function readUploadTable(file: UploadedFile, maxRows: number, formats: UploadFormats = TABLE_FORMATS): unknown[][] {
  const sniffed = sniffFileType(file);
  if (sniffed.kind === 'unsupported') {
    throw new AppError(
      400,
      `upload_file: '${file.filename.slice(0, 120)}' is not a ${formats.names} file (${sniffed.reason}). Upload a ${formats.extensions} file.`,
      [{ field: 'upload_file', message: `unsupported file type: ${sniffed.reason}` }],
    );
  }
  const kind = sniffed.kind;
  if (kind === 'xlsx') checkZipSizes(file, maxRows);
  let wb: XLSX.WorkBook;
  try {
    if (kind === 'csv') {
      const { text } = decodeText(file.data);
      wb = XLSX.read(text, { type: 'string', raw: true, dense: true, sheetRows: maxRows + 3 });
    } else {
      wb = XLSX.read(file.data, { type: 'buffer', dense: true, cellDates: false, cellFormula: false, cellHTML: false, sheetRows: maxRows + 3 });
    }
  } catch (err) {
    throw new AppError(
      400,
      `upload_file: '${file.filename.slice(0, 120)}' could not be read as ${kind.toUpperCase()} (${err instanceof Error ? err.message.slice(0, 120) : 'unknown error'}).`,
      [{ field: 'upload_file', message: 'unreadable file' }],
    );
  }
  const sheetName = wb.SheetNames[0];
  const sheet = sheetName ? wb.Sheets[sheetName] : undefined;
  if (!sheet)
    throw new AppError(400, `upload_file: '${file.filename.slice(0, 120)}' has no sheet with data.`, [{ field: 'upload_file', message: 'empty file' }]);
  const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  refuseNulCells(file, table);
  return table;
}

/** CSV text above this many characters is read by parseCsvRows (streaming-friendly, bounded memory) instead of SheetJS. */
export const LARGE_CSV_CHARS = 2 * 1_048_576;

/**
 * readUploadTable for create_project: a large CSV (over LARGE_CSV_CHARS) is split into rows by parseCsvRows in slices
 * with a turn of the event loop between them, instead of SheetJS building a workbook of cell objects (about 10x the
 * file's size in memory and one long block of the event loop at a million rows); `onRows` gets the table as it grows
 * (to check and let go of its rows meanwhile). Other files go to readUploadTable.
 */
export async function readUploadTableAsync(file: UploadedFile, maxRows: number, onRows?: (table: unknown[][]) => void): Promise<unknown[][]> {
  const sniffed = sniffFileType(file);
  if (sniffed.kind !== 'csv' || file.data.length <= LARGE_CSV_CHARS) return readUploadTable(file, maxRows, ASSET_UPLOAD_FORMATS);
  const text = await decodeTextInSlices(file.data);
  // No cell can hold U+0000 when the text has none: one scan of the text instead of a look at every cell. Only then
  // may `onRows` see (and let go of) the rows as they are split: a text with a NUL is refused from its whole table.
  const hasNul = text.includes('\u0000');
  await new Promise((r) => setImmediate(r)); // the text's last slice, its joining and this scan: enough for one turn
  if (!hasNul) return parseCsvRows(text, maxRows + 3, onRows);
  const table = await parseCsvRows(text, maxRows + 3);
  refuseNulCells(file, table);
  return table;
}

/** Bytes decoded per turn of the event loop by decodeTextInSlices (about 10 ms of work). */
const DECODE_SLICE_BYTES = 4 * 1_048_576;

/**
 * decodeText for a large upload, a few MB per turn of the event loop (70 MB of UTF-8 are about 150 ms of work in one
 * piece; issue 22): the same text. UTF-8 (with or without its byte order mark) is decoded in slices by a streaming
 * decoder that refuses bad bytes; anything else (UTF-16, or bytes that are not UTF-8 and so Windows-1252) goes to
 * decodeText in one piece, as before.
 */
export async function decodeTextInSlices(d: Buffer): Promise<string> {
  const bom = textBom(d);
  if (bom === 'utf-16le' || bom === 'utf-16be') return decodeText(d).text;
  const body = bom === 'utf-8' ? d.subarray(3) : d;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const parts: string[] = [];
  try {
    for (let i = 0; i < body.length; i += DECODE_SLICE_BYTES) {
      const end = Math.min(body.length, i + DECODE_SLICE_BYTES);
      parts.push(decoder.decode(body.subarray(i, end), { stream: end < body.length }));
      await new Promise((r) => setImmediate(r));
    }
  } catch {
    return decodeText(d).text;
  }
  return parts.join('');
}

/**
 * Splits CSV text into rows of cell strings as SheetJS reads a CSV with `raw: true` (RFC 4180 quotes with doubled
 * quotes inside, CRLF or LF, the delimiter guessed from the first line among comma, semicolon, tab and bar; empty
 * cells null, a line of empty cells an empty row), at most `maxRows` rows. Every 5,000 rows it hands `onRows` the
 * rows so far and yields to the event loop. apps/server/test/upload-scale.test.ts checks it against SheetJS.
 */
export async function parseCsvRows(text: string, maxRows: number, onRows?: (rows: unknown[][]) => void): Promise<unknown[][]> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const delimiter = guessCsvDelimiter(text, start);
  const rows: unknown[][] = [];
  const n = text.length;
  while (start < n && rows.length < maxRows) {
    let row: (string | null)[] = [];
    let i = start;
    let any = false;
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 34) {
        // quoted: up to the closing quote, "" is one quote
        let out = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) {
            out += text.slice(j);
            j = n;
            break;
          }
          out += text.slice(j, q);
          if (text.charCodeAt(q + 1) === 34) {
            out += '"';
            j = q + 2;
            continue;
          }
          j = q + 1;
          break;
        }
        // anything between the closing quote and the delimiter is kept, as SheetJS does
        let k = j;
        while (k < n && text[k] !== delimiter && text[k] !== '\n' && text[k] !== '\r') k++;
        value = out + text.slice(j, k);
        i = k;
      } else {
        let k = i;
        while (k < n) {
          const c = text[k];
          if (c === delimiter || c === '\n' || c === '\r') break;
          k++;
        }
        value = text.slice(i, k);
        i = k;
      }
      if (value !== '') any = true;
      row.push(value === '' ? null : value);
      if (i < n && text[i] === delimiter) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    if (!any) row = [];
    rows.push(row);
    start = i;
    if (rows.length % 5_000 === 0) {
      onRows?.(rows);
      await new Promise((r) => setImmediate(r));
    }
  }
  return rows;
}

/**
 * A cell holding U+0000 (a CSV past its first 8 KiB, where the binary sniff looks, or an XLSX cell written as
 * `_x0000_`) cannot be stored by PostgreSQL: refused naming the cell, before anything is stored (issue 21).
 */
function refuseNulCells(file: UploadedFile, table: unknown[][]): void {
  for (let r = 0; r < table.length; r++) {
    const row = table[r]!;
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      if (typeof v !== 'string' || !v.includes('\u0000')) continue;
      const cell = `${XLSX.utils.encode_col(c)}${r + 1}`;
      const header =
        r > 0 && typeof table[0]?.[c] === 'string'
          ? ` (column '${String(table[0][c])
              .replace(/\u0000/g, '')
              .slice(0, 40)}')`
          : '';
      throw new AppError(
        400,
        `upload_file: cell ${cell}${header} of '${file.filename.replace(/\u0000/g, '').slice(0, 120)}' contains the NUL character (U+0000). Remove it and upload the file again.`,
        [{ field: 'upload_file', message: `cell ${cell} contains the NUL character (U+0000)` }],
      );
    }
  }
}

/** Bytes of unpacked workbook XML allowed per row of UPLOAD_MAX_ROWS (a row of 35 filled columns is under 2 KiB). */
const UNPACKED_BYTES_PER_ROW = 2048;
const UNPACKED_MIN_BYTES = 64 * 1_048_576;
/** Cap whatever UPLOAD_MAX_ROWS is (a million rows of a dozen columns is about 300 MB of sheet XML; larger books: CSV). */
const UNPACKED_MAX_BYTES = 512 * 1_048_576;
const ZIP_MAX_ENTRIES = 10_000;

/** Most bytes an .xlsx upload may unpack to: enough for UPLOAD_MAX_ROWS rows, far below a zip bomb's hundreds of MB. */
export const unpackedLimit = (maxRows: number) => Math.min(UNPACKED_MAX_BYTES, Math.max(UNPACKED_MIN_BYTES, maxRows * UNPACKED_BYTES_PER_ROW));

/**
 * Zip-bomb guard for .xlsx uploads, run before the workbook is parsed (unzipEntries keeping nothing).
 */
function checkZipSizes(file: UploadedFile, maxRows: number): void {
  unzipEntries(file, maxRows, 'An .xlsx upload', () => false);
}

/**
 * The entries of a zip upload (an .xlsx, a zipped Shapefile) whose names `keep` accepts, inflated, with a zip-bomb
 * guard: the sizes the zip's central directory declares must add up to at most `unpackedLimit`; then each entry is
 * inflated with a cap at its declared size, so a zip whose headers lie is refused as soon as it inflates past what it
 * claims (never more than the limit in all). `what` begins the size message ("An .xlsx upload may unpack to ...").
 */
export function unzipEntries(file: UploadedFile, maxRows: number, what: string, keep: (name: string) => boolean): Map<string, Buffer> {
  const d = file.data;
  const limit = unpackedLimit(maxRows);
  const mb = (n: number) => `${Math.ceil(n / 1_048_576).toLocaleString('en-US')} MB`;
  const name = file.filename.slice(0, 120);
  const kind = what.includes('xlsx') ? 'XLSX' : 'a zip archive';
  const refuse = (reason: string): never => {
    throw new AppError(
      400,
      `upload_file: '${name}' ${reason}. ${what} may unpack to at most ${mb(limit)} uncompressed (enough for ${maxRows.toLocaleString('en-US')} rows).`,
      [{ field: 'upload_file', message: `too large uncompressed: ${reason}` }],
    );
  };
  const broken = (): never => {
    throw new AppError(400, `upload_file: '${name}' could not be read as ${kind} (the zip directory is damaged).`, [
      { field: 'upload_file', message: 'unreadable file' },
    ]);
  };
  // End of central directory: the last 0x06054b50 signature within the final 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = d.length - 22; i >= Math.max(0, d.length - 65_557); i--) {
    if (d.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) broken();
  const count = d.readUInt16LE(eocd + 10);
  let p = d.readUInt32LE(eocd + 16);
  if (count > ZIP_MAX_ENTRIES) refuse(`holds ${count.toLocaleString('en-US')} files`);
  const entries: { name: string; method: number; compressed: number; size: number; local: number }[] = [];
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > d.length || d.readUInt32LE(p) !== 0x02014b50) broken();
    const nameLength = d.readUInt16LE(p + 28);
    const e = {
      name: d.toString('utf8', p + 46, Math.min(d.length, p + 46 + nameLength)),
      method: d.readUInt16LE(p + 10),
      compressed: d.readUInt32LE(p + 20),
      size: d.readUInt32LE(p + 24),
      local: d.readUInt32LE(p + 42),
    };
    // ZIP64 sizes (0xFFFFFFFF) are not read here: such an entry may use what is left of the limit.
    declared += e.size === 0xffffffff ? 0 : e.size;
    if (declared > limit) refuse(`would unpack to more than ${mb(declared)}`);
    entries.push(e);
    p += 46 + nameLength + d.readUInt16LE(p + 30) + d.readUInt16LE(p + 32);
  }
  let inflated = 0;
  const kept = new Map<string, Buffer>();
  for (const e of entries) {
    if (e.local + 30 > d.length || d.readUInt32LE(e.local) !== 0x04034b50) broken();
    const start = e.local + 30 + d.readUInt16LE(e.local + 26) + d.readUInt16LE(e.local + 28);
    const raw = d.subarray(start, start + (e.compressed === 0xffffffff ? d.length : e.compressed));
    if (e.method === 0) {
      inflated += e.compressed;
      if (keep(e.name)) kept.set(e.name, raw);
      continue;
    }
    const cap = Math.max(1, Math.min(e.size === 0xffffffff ? limit : e.size, limit - inflated));
    try {
      const out = inflateRawSync(raw, { maxOutputLength: cap });
      inflated += out.length;
      if (keep(e.name)) kept.set(e.name, out);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
        refuse('unpacks to more than its zip headers declare (a zip bomb?)');
      broken();
    }
  }
  return kept;
}

/**
 * Turns a table into records keyed by asset field. With a header row (at least name, latitude and longitude
 * recognised) columns are matched by name in any order; otherwise the spec's column order is assumed.
 * Each record carries its spreadsheet row number for error messages.
 */
export function recordsFromTable(table: unknown[][]): { row: number; values: Record<string, unknown> }[] {
  const reader = tableRecordReader(table);
  const out: { row: number; values: Record<string, unknown> }[] = [];
  if (reader) for (let i = reader.first; i < table.length; i++) reader.read(i, out);
  return out;
}

/** The first data row of a table and a reader appending the record of table row `i` (blank rows skipped), or null. */
function tableRecordReader(table: unknown[][]) {
  const firstIndex = table.findIndex((r) => !isBlankRow(r));
  if (firstIndex < 0) return null;
  const first = table[firstIndex]!;
  const mapped = first.map(assetFieldForHeader);
  const hasHeader = ['name', 'latitude', 'longitude'].every((k) => mapped.includes(k as AssetFieldKey));
  const columns: (AssetFieldKey | undefined)[] = hasHeader ? mapped : ASSET_FIELDS.map((f) => f.key);
  const read = (i: number, out: { row: number; values: Record<string, unknown> }[]) => {
    const r = table[i]!;
    if (isBlankRow(r)) return;
    const values: Record<string, unknown> = {};
    columns.forEach((key, c) => {
      if (key && values[key] === undefined) values[key] = r[c];
    });
    out.push({ row: i + 1, values });
  };
  return { first: hasHeader ? firstIndex + 1 : firstIndex, read };
}

/** The asset fields after name and location, in the order the validator fills them. */
const ATTRIBUTE_FIELDS = ASSET_FIELDS.filter((f) => f.key !== 'name' && f.key !== 'latitude' && f.key !== 'longitude');

/**
 * An asset with every field of ATTRIBUTE_FIELDS, in that order, still null: one object shape for every row (a million
 * objects grown key by key cost V8 several shape changes each; issue 22). The validator then sets each field.
 */
function newAssetRecord(name: string, latitude: number | null, longitude: number | null): Record<string, unknown> {
  return {
    name,
    latitude,
    longitude,
    revenue: null,
    construction_cost: null,
    property_type: null,
    area: null,
    valuation: null,
    stories: null,
    solar_production: null,
    wind_production: null,
    hydro_production: null,
    wheat_production: null,
    rice_production: null,
    maize_production: null,
    fruit_production: null,
    vegetable_production: null,
    ownership: null,
    flood_protection: null,
    construction: null,
  };
}
if (
  Object.keys(newAssetRecord('', 0, 0))
    .slice(3)
    .join() !== ATTRIBUTE_FIELDS.map((f) => f.key).join()
)
  throw new Error('newAssetRecord must list the fields of ASSET_FIELDS after name, latitude and longitude, in their order');

/**
 * Validates asset records. Returns the assets, or every problem as "Row N: ..." sentences (at most 100 listed).
 * `rowLabel` names rows: spreadsheet rows for files, 1-based list positions for JSON data.
 */
export function validateAssets(records: { row: number; values: Record<string, unknown> }[]): { assets: ImportedAsset[]; errors: string[] } {
  const v = assetValidator();
  for (const r of records) v.check(r);
  return { assets: v.assets, errors: v.errors };
}

/**
 * validateAssets for large uploads: the same checks in slices of `slice` rows with a turn of the event loop between
 * them (other users' requests are answered while a million rows are checked); `onProgress` gets the rows checked.
 */
export async function validateAssetsInSlices(
  records: { row: number; values: Record<string, unknown> }[],
  onProgress?: (checked: number) => void,
  slice = 5_000,
): Promise<{ assets: ImportedAsset[]; errors: string[] }> {
  const v = assetValidator();
  for (let i = 0; i < records.length; i += slice) {
    const end = Math.min(records.length, i + slice);
    for (let j = i; j < end; j++) v.check(records[j]!);
    onProgress?.(end);
    if (end < records.length) await new Promise((r) => setImmediate(r));
  }
  return { assets: v.assets, errors: v.errors };
}

/**
 * recordsFromTable and validateAssets in one pass over an upload's table, made and checked as the rows come:
 * `advance(table)` checks the rows parsed so far (call it while the table grows: readUploadTableAsync's onRows),
 * `finish(table)` the rest, `slice` rows per turn of the event loop. Each data row is let go once checked (the table is
 * emptied as it is read, its header row kept), so a million rows are never held as table, records and assets at once
 * (less memory, shorter garbage-collection pauses; issue 22). Answers what validateAssets(recordsFromTable(table))
 * answers, how many records there were, and unknownTableColumns(table). With `onAssets`, the checked assets are handed
 * over in batches of at least `slice` as they come (and not kept); `finish` answers the rest.
 */
export function tableValidator(slice = 5_000, onAssets?: (assets: ImportedAsset[]) => void, label: RowLabel = rowLabel) {
  const v = assetValidator(label);
  const out: { row: number; values: Record<string, unknown> }[] = [];
  let reader: ReturnType<typeof tableRecordReader> = null;
  let next = 0;
  let records = 0;
  let unknownColumns: string[] = [];
  const checkUpTo = (table: unknown[][], end: number) => {
    if (!reader) {
      reader = tableRecordReader(table);
      if (!reader) return;
      unknownColumns = unknownTableColumns(table);
      next = reader.first;
    }
    for (let j = next; j < end; j++) {
      reader.read(j, out);
      table[j] = READ;
    }
    next = Math.max(next, end);
    for (const r of out) v.check(r);
    records += out.length;
    out.length = 0;
    if (onAssets && v.assets.length >= slice) onAssets(v.assets.splice(0));
  };
  return {
    advance(table: unknown[][]): void {
      checkUpTo(table, table.length);
    },
    async finish(table: unknown[][]): Promise<{ assets: ImportedAsset[]; errors: string[]; records: number; unknownColumns: string[] }> {
      for (let end = Math.min(table.length, next + slice); ; end = Math.min(table.length, end + slice)) {
        checkUpTo(table, end);
        if (end >= table.length) break;
        await new Promise((r) => setImmediate(r));
      }
      return { assets: v.assets, errors: v.errors, records, unknownColumns };
    },
  };
}

/** tableValidator over a whole table, `slice` rows per turn of the event loop. */
export async function validateTableInSlices(table: unknown[][], slice = 5_000) {
  return tableValidator(slice).finish(table);
}
const READ: unknown[] = [];

type AddProblem = (row: number, msg: string) => void;

/**
 * A row's latitude or longitude, or null after adding its problem. Module-level functions taking the row rather than
 * closures made per row (a million rows, issue 22).
 */
function coordinate(add: AddProblem, row: number, values: Record<string, unknown>, key: 'latitude' | 'longitude', limit: number): number | null {
  const v = values[key];
  // A plain decimal is neither NaN text nor NA, and has nothing to trim: straight to the range check.
  if (typeof v === 'string' && PLAIN_DECIMAL.test(v)) return coordinateInRange(add, row, key, Number(v), v, limit);
  if (isNaNText(v)) {
    add(row, `${key} '${String(v).trim()}' is not a number`);
    return null;
  }
  if (isNA(v)) {
    add(row, `${key} is empty (location is mandatory)`);
    return null;
  }
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (typeof v === 'string' && String(v).trim() === '') {
    add(row, `${key} '${String(v).slice(0, 30)}' is not a number`);
    return null;
  }
  return coordinateInRange(add, row, key, n, v, limit);
}

function coordinateInRange(add: AddProblem, row: number, key: 'latitude' | 'longitude', n: number, v: unknown, limit: number): number | null {
  if (!Number.isFinite(n)) {
    add(row, `${key} '${String(v).slice(0, 30)}' is not a number`);
    return null;
  }
  if (n < -limit || n > limit) {
    add(row, `${key} ${n} is outside -${limit}..${limit}`);
    return null;
  }
  return n;
}

/** The row checks of validateAssets, one record at a time (names must be unique across all the records checked). */
/**
 * A name cell trimmed with its runs of white space made one space. A cell of megabytes (a hostile CSV line; issue 32)
 * is cut first: when its first 1,000 characters already make more than 200 (the limit), so does the whole.
 */
function assetName(raw: string): string {
  const norm = (t: string) => t.trim().replace(/\s+/g, ' ');
  if (raw.length > 1_000) {
    const head = norm(raw.slice(0, 1_000));
    if (head.length > 200) return head;
  }
  return norm(raw);
}

/** How a problem names the record it is about: "Row 12" (a spreadsheet row, a list position), "Feature 11" (GIS). */
export type RowLabel = (row: number) => string;
const rowLabel: RowLabel = (row) => `Row ${row}`;

function assetValidator(label: RowLabel = rowLabel) {
  const errors: string[] = [];
  const assets: ImportedAsset[] = [];
  const seen = new Map<string, number>();
  const add = (row: number, msg: string) => {
    if (errors.length < MAX_ERRORS) errors.push(`${label(row)}: ${msg}`);
    else if (errors.length === MAX_ERRORS) errors.push('More errors not listed: fix these first.');
  };
  const check = ({ row, values }: { row: number; values: Record<string, unknown> }) => {
    const before = errors.length;
    const rawName = values.name;
    const name = isNA(rawName) ? '' : assetName(String(rawName));
    const lower = name.toLowerCase();
    if (!name) add(row, 'name is empty (asset name is mandatory)');
    else if (name.length > 200) add(row, 'name is longer than 200 characters');
    else if (seen.has(lower)) add(row, `name '${name.slice(0, 40)}' is already used in ${label(seen.get(lower)!).toLowerCase()}`);
    else seen.set(lower, row);

    const latitude = coordinate(add, row, values, 'latitude', 90);
    const longitude = coordinate(add, row, values, 'longitude', 180);
    if (isNullIsland(latitude, longitude)) add(row, NULL_ISLAND_MESSAGE);

    const asset = newAssetRecord(name, latitude, longitude);
    for (const f of ATTRIBUTE_FIELDS) {
      const v = values[f.key];
      // An absent cell is "no value" for every field (what isNA and parseAmount answer for it): the field stays null.
      if (v === undefined || v === null) continue;
      if (f.key === 'property_type') {
        const t = parsePropertyType(v, f.header);
        if ('error' in t) add(row, t.error);
        else asset.property_type = t.value;
        continue;
      }
      if (f.key === 'construction') {
        const c = constructionClassOf(v);
        if (c === undefined) add(row, constructionClassError(f.header, v));
        asset.construction = c ?? null;
        continue;
      }
      const parsed = parseAmount(v);
      if ('error' in parsed) {
        add(row, `${f.header} ${parsed.error}`);
        continue;
      }
      const n = parsed.value;
      if (n !== null) {
        if (n < 0) add(row, `${f.header} must not be negative (${n})`);
        else if (f.kind === 'percent' && n > 100) add(row, `${f.header} ${n} is outside 0..100 %`);
        else if (f.kind === 'integer' && (!Number.isInteger(n) || n > 300)) add(row, `${f.header} ${n} must be a whole number from 0 to 300`);
        else if ('range' in f && (n < f.range[0] || n > f.range[1]))
          add(row, `${f.header} ${n} is outside ${f.range[0]}..${f.range[1]}${f.unit ? ` ${f.unit}` : ''}`);
      }
      asset[f.key] = n;
    }
    const cc = values.country_code;
    if (!isNA(cc)) {
      const s = String(cc).trim().toUpperCase();
      if (!/^[A-Z]{2,3}$/.test(s)) add(row, `country_code '${String(cc).slice(0, 10)}' is not an ISO 3166 code`);
      asset.country_code = s;
    }
    if (errors.length === before) assets.push(asset as ImportedAsset);
  };
  return { check, assets, errors };
}

/** Header-row columns of a table that name no asset field (none when the table has no header row). */
export function unknownTableColumns(table: unknown[][]): string[] {
  const first = table.find((r) => !isBlankRow(r));
  if (!first) return [];
  const mapped = first.map(assetFieldForHeader);
  const hasHeader = ['name', 'latitude', 'longitude'].every((k) => mapped.includes(k as AssetFieldKey));
  return hasHeader ? unknownAssetColumns(first) : [];
}

const JSON_KEYS = new Set<string>([...ASSET_FIELDS.map((f) => f.key as string), ...ASSET_JSON_KEYS]);

/** Keys of a JSON `data` list that the server does not read, each once, in order of first appearance. */
export function unknownJsonKeys(list: unknown[]): string[] {
  const out = new Set<string>();
  for (const item of list) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    for (const k of Object.keys(item)) if (!JSON_KEYS.has(k)) out.add(k);
    if (out.size > 50) break;
  }
  return [...out];
}

/** Records from the JSON `data` field: a list of locations (spec 000 §3), numbered from 1. */
export function recordsFromJson(list: unknown[]): { row: number; values: Record<string, unknown> }[] {
  return list.map((item, i) => {
    const o = (item && typeof item === 'object' && !Array.isArray(item) ? item : {}) as Record<string, unknown>;
    const values: Record<string, unknown> = { ...o };
    // Accept the CSV spellings too (lat/long, floors).
    values.latitude ??= o.lat;
    values.longitude ??= o.long ?? o.lng ?? o.lon;
    values.stories ??= o.floors;
    return { row: i + 1, values };
  });
}
