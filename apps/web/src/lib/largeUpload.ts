import { CsvRecordCounter, decodeText, LARGE_UPLOAD_BYTES, LARGE_UPLOAD_PREVIEW_ROWS, LARGE_UPLOAD_ROWS, textBom, type AssetFieldKey } from '@crp/contracts';
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
