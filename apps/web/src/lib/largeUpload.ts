import {
  assetFieldForHeader,
  CsvRecordCounter,
  decodeText,
  guessCsvDelimiter,
  isBlankRow,
  LARGE_UPLOAD_BYTES,
  LARGE_UPLOAD_PREVIEW_ROWS,
  LARGE_UPLOAD_ROWS,
  textBom,
  type AssetFieldKey,
} from '@crp/contracts';
import * as XLSX from '@e965/xlsx';
import { fileExtension, recordsFromTable, type AssetRow, type ParsedUpload } from './assetRows';

/**
 * A file above LARGE_UPLOAD_ROWS rows or LARGE_UPLOAD_BYTES: only its first rows are kept (read-only preview) and
 * the file itself is submitted (docs/decisions.md "Large uploads are sent as the file").
 */
export interface LargeUpload {
  preview: AssetRow[];
  columns: AssetFieldKey[];
  unknownColumns: string[];
  /** The exact number of asset rows once counted, else null. */
  rows: number | null;
  /** Rows estimated from the file size and the first rows' length, while counting. */
  estimate: number;
  /** Optional columns of the header with a value in the rows read (all rows of a parsed file, the head of a large CSV). */
  optionalPresent: AssetFieldKey[];
  /** Optional columns the user left out in the optional-columns dialog: their header cells are blanked in the file sent. */
  drop: AssetFieldKey[];
  /** A GeoJSON, GeoPackage or zipped Shapefile: read by the server (preview_upload) and sent as it is, whatever its size. */
  gis?: boolean;
}

/** The head read for the preview of a large CSV (cut at the last line break). */
const HEAD_BYTES = 512 * 1024;

export function isLargeBySize(file: File): boolean {
  return file.size > LARGE_UPLOAD_BYTES;
}

export function isLargeParsed(file: File, parsed: ParsedUpload): boolean {
  return isLargeBySize(file) || parsed.rows.length > LARGE_UPLOAD_ROWS;
}

/** A large upload from a fully parsed file (XLSX/XLS, or a CSV under the size limit with many rows). */
export function largeFromParsed(parsed: ParsedUpload): LargeUpload {
  return {
    preview: parsed.rows.slice(0, LARGE_UPLOAD_PREVIEW_ROWS),
    columns: parsed.columns,
    unknownColumns: parsed.unknownColumns,
    rows: parsed.rows.length,
    estimate: parsed.rows.length,
    optionalPresent: parsed.hasHeader ? parsed.optionalPresent : [],
    drop: [],
  };
}

/** Whether a CSV can be counted by bytes (not UTF-16). */
export async function isCountableCsv(file: File): Promise<boolean> {
  if (fileExtension(file.name) !== 'csv') return false;
  const bom = textBom(new Uint8Array(await file.slice(0, 4).arrayBuffer()));
  return bom !== 'utf-16le' && bom !== 'utf-16be';
}

/** The preview of a large CSV from its first bytes, with the row count estimated from the file size. */
export async function readLargeCsvHead(file: File): Promise<{ upload: LargeUpload; hasHeader: boolean }> {
  const whole = file.size <= HEAD_BYTES;
  let head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (!whole) head = head.subarray(0, head.lastIndexOf(0x0a) + 1);
  const { text } = decodeText(head);
  const wb = XLSX.read(text, { type: 'string', raw: true, dense: true });
  const sheet = wb.Sheets[wb.SheetNames[0] ?? ''];
  const table = sheet ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true }) : [];
  const parsed = recordsFromTable(table);
  const perRow = parsed.rows.length > 0 ? head.length / parsed.rows.length : 1;
  const estimate = Math.max(parsed.rows.length, Math.round(file.size / perRow));
  return { upload: { ...largeFromParsed(parsed), rows: whole ? parsed.rows.length : null, estimate }, hasHeader: parsed.hasHeader };
}

/** Counts the asset rows of a CSV by streaming its bytes (the header row, when there is one, is not an asset). */
export async function countCsvAssetRows(file: File, hasHeader: boolean): Promise<number> {
  const counter = new CsvRecordCounter();
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    counter.push(value);
  }
  return Math.max(0, counter.count() - (hasHeader ? 1 : 0));
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** A CSV cell's value from its text as the server's parser reads it: a leading quoted part unquoted ("" is a quote). */
function cellValue(s: string): string {
  if (!s.startsWith('"')) return s;
  let out = '';
  for (let j = 1; ;) {
    const q = s.indexOf('"', j);
    if (q < 0) return out + s.slice(j);
    out += s.slice(j, q);
    if (s[q + 1] === '"') {
      out += '"';
      j = q + 2;
      continue;
    }
    return out + s.slice(q + 1);
  }
}

/**
 * The header record of a CSV's first bytes, split as the server's parser splits it (parseCsvRows: the delimiter
 * guessed from the first line, quoted cells, blank and all-NA records before it skipped): its byte range, the byte
 * range and value of each cell. Works on the bytes (delimiters, quotes and line breaks are ASCII, never part of a
 * UTF-8 or Windows-1252 character), so the rest of the file is sent byte for byte.
 */
export function csvHeaderRecord(
  head: Uint8Array,
): { start: number; end: number; delimiter: number; cells: { from: number; to: number; value: string }[] } | null {
  const begin = textBom(head) === 'utf-8' ? 3 : 0;
  const delimiter = guessCsvDelimiter(decodeText(head.subarray(begin, begin + 4 * 65_536)).text).charCodeAt(0);
  for (let pos = begin; pos < head.length;) {
    const cells: { from: number; to: number; value: string }[] = [];
    let i = pos;
    for (;;) {
      const from = i;
      if (head[i] === QUOTE) {
        i += 1;
        for (;;) {
          const q = head.indexOf(QUOTE, i);
          if (q < 0) i = head.length;
          else if (head[q + 1] === QUOTE) {
            i = q + 2;
            continue;
          } else i = q + 1;
          break;
        }
      }
      while (i < head.length && head[i] !== delimiter && head[i] !== LF && head[i] !== CR) i++;
      cells.push({ from, to: i, value: cellValue(decodeText(head.subarray(from, i)).text) });
      if (i < head.length && head[i] === delimiter) i++;
      else break;
    }
    const end = i;
    if (!isBlankRow(cells.map((c) => c.value))) return { start: pos, end, delimiter, cells };
    if (head[i] === CR) i++;
    if (head[i] === LF) i++;
    if (i === pos) break;
    pos = i;
  }
  return null;
}

/**
 * The CSV to send when the user left optional columns out (the optional-columns dialog): the same file with the header
 * cells of those columns emptied. The server imports no column without a header, so their values arrive as NA, as
 * the dialog says; every other byte, and so every row number, stays as it was.
 */
export async function csvWithoutColumns(file: File, drop: readonly AssetFieldKey[]): Promise<File> {
  if (drop.length === 0) return file;
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const header = csvHeaderRecord(head);
  if (!header) return file;
  const parts: BlobPart[] = [file.slice(0, header.start)];
  header.cells.forEach((c, k) => {
    if (k > 0) parts.push(new Uint8Array([header.delimiter]));
    const key = assetFieldForHeader(c.value);
    if (!key || !drop.includes(key)) parts.push(head.slice(c.from, c.to));
  });
  parts.push(file.slice(header.end));
  return new File(parts, file.name, { type: file.type });
}
