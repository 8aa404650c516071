import {
  ASSET_FIELDS,
  constructionClassError,
  constructionClassOf,
  assetFieldForHeader,
  decodeText,
  isBlankRow,
  isNA,
  NA,
  OPTIONAL_ASSET_FIELDS,
  parseAmount,
  unknownAssetColumns,
  type AssetFieldKey,
} from '@crp/contracts';
import * as XLSX from '@e965/xlsx';

/** One asset row of the preview, keyed by asset field, values as the user sees them. */
export type AssetRow = { key: string; row: number } & Partial<Record<AssetFieldKey, string>>;

export const ACCEPTED_EXTENSIONS = ['csv', 'xlsx', 'xls'] as const;

export function fileExtension(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i + 1).toLowerCase();
}

export function isAcceptedFile(name: string): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

/** GIS files of points the portfolio wizard also takes (read by the server: preview_upload, then create_project). */
export const GIS_EXTENSIONS = ['geojson', 'json', 'gpkg', 'zip'] as const;

export function isGisFile(name: string): boolean {
  return (GIS_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

export interface ParsedUpload {
  rows: AssetRow[];
  /** Fields found in the file (by header, or all in the spec's column order without a header). */
  columns: AssetFieldKey[];
  /** Optional columns present in the file with at least one value: the confirmation dialog offers these. */
  optionalPresent: AssetFieldKey[];
  hasHeader: boolean;
  /** Header cells that name no asset field: their values are not imported (issue 23: the wizard warns). */
  unknownColumns: string[];
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  return String(v).trim();
}

/**
 * Reads a CSV/XLSX/XLS file the way the server does (first sheet; a header row naming at least name, latitude and
 * longitude in any order, else the spec's column order) into preview rows.
 */
export async function parseAssetFile(file: File): Promise<ParsedUpload> {
  const ext = fileExtension(file.name);
  let wb: XLSX.WorkBook;
  if (ext === 'csv') {
    // Decoded as the server does (BOM, UTF-8, else Windows-1252): the preview shows the names that will be stored.
    const { text } = decodeText(new Uint8Array(await file.arrayBuffer()));
    wb = XLSX.read(text, { type: 'string', raw: true, dense: true });
  } else {
    wb = XLSX.read(new Uint8Array(await file.arrayBuffer()), { type: 'array', dense: true, cellDates: false, cellFormula: false, cellHTML: false });
  }
  const sheetName = wb.SheetNames[0];
  const sheet = sheetName ? wb.Sheets[sheetName] : undefined;
  if (!sheet) throw new Error(`'${file.name}' has no sheet with data.`);
  const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  return recordsFromTable(table);
}

export function recordsFromTable(table: unknown[][]): ParsedUpload {
  const firstIndex = table.findIndex((r) => !isBlankRow(r));
  if (firstIndex < 0) return { rows: [], columns: [], optionalPresent: [], hasHeader: false, unknownColumns: [] };
  const mapped = table[firstIndex]!.map(assetFieldForHeader);
  const hasHeader = (['name', 'latitude', 'longitude'] as const).every((k) => mapped.includes(k));
  const columns: (AssetFieldKey | undefined)[] = hasHeader ? mapped : ASSET_FIELDS.map((f) => f.key);
  const rows: AssetRow[] = [];
  for (let i = hasHeader ? firstIndex + 1 : firstIndex; i < table.length; i++) {
    const r = table[i]!;
    if (isBlankRow(r)) continue;
    const row: AssetRow = { key: `r${i + 1}`, row: i + 1 };
    columns.forEach((k, c) => {
      if (k && row[k] === undefined) row[k] = cellText(r[c]);
    });
    rows.push(row);
  }
  const present = [...new Set(columns.filter((k): k is AssetFieldKey => !!k))];
  const optionalPresent = present.filter((k) => (OPTIONAL_ASSET_FIELDS as readonly string[]).includes(k) && rows.some((r) => !isNA(r[k])));
  return { rows, columns: present, optionalPresent, hasHeader, unknownColumns: hasHeader ? unknownAssetColumns(table[firstIndex]!) : [] };
}

/** Problems of one row as the server will report them (name and location are mandatory; numbers must parse). */
export function rowProblems(row: AssetRow): string[] {
  const out: string[] = [];
  if (isNA(row.name)) out.push('name is missing');
  for (const [key, lo, hi] of [
    ['latitude', -90, 90],
    ['longitude', -180, 180],
  ] as const) {
    const p = parseAmount(row[key]);
    if ('error' in p) out.push(`${key} ${p.error}`);
    else if (p.value === null) out.push(`${key} is missing`);
    else if (p.value < lo || p.value > hi) out.push(`${key} ${p.value} is outside ${lo}..${hi}`);
  }
  for (const f of ASSET_FIELDS) {
    if (f.kind === 'text' || f.kind === 'latitude' || f.kind === 'longitude') continue;
    if (f.kind === 'construction') {
      if (constructionClassOf(row[f.key]) === undefined) out.push(constructionClassError(f.label.toLowerCase(), row[f.key]));
      continue;
    }
    const p = parseAmount(row[f.key]);
    if ('error' in p) out.push(`${f.label.toLowerCase()} ${p.error}`);
  }
  return out;
}

/** Unchosen optional columns become NA (spec 000 §5). */
export function applyOptionalChoice(rows: AssetRow[], keep: readonly AssetFieldKey[]): AssetRow[] {
  const drop = OPTIONAL_ASSET_FIELDS.filter((k) => !keep.includes(k));
  return rows.map((r) => {
    const next = { ...r };
    for (const k of drop) if (next[k] !== undefined) next[k] = NA;
    return next;
  });
}

/** The JSON `data` list of create_project: every field, empty values as the NA sentinel. */
export function rowsToSubmission(rows: AssetRow[]): Record<string, string>[] {
  return rows.map((r) => {
    const out: Record<string, string> = {};
    for (const f of ASSET_FIELDS) {
      const v = r[f.key];
      out[f.key] = v === undefined || isNA(v) ? NA : v;
    }
    return out;
  });
}
