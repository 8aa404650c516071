/** Raw-data readers for the layer build. Raw files stay in HAZARD_RAW_DIR; nothing here is copied into the repo. */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NetCDFReader } from 'netcdfjs';

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root (packages/hazards/scripts/lib → ../../../..). */
export const REPO_ROOT = resolve(here, '../../../..');

/** HAZARD_RAW_DIR (relative paths from where npm was started, INIT_CWD, else the repository root), default ../shared/data. */
export function rawDir(): string {
  const env = process.env.HAZARD_RAW_DIR;
  if (env) return resolve(process.env.INIT_CWD ?? REPO_ROOT, env);
  return resolve(REPO_ROOT, '../shared/data');
}

export function rawAvailable(dir = rawDir()): boolean {
  return existsSync(join(dir, 'etopo5-global-dem')) && existsSync(join(dir, 'ncep-reanalysis1-ltm'));
}

export function readRaw(dir: string, rel: string): Buffer {
  const b = readFileSync(join(dir, rel));
  return rel.endsWith('.gz') ? gunzipSync(b) : b;
}

export function readText(dir: string, rel: string): string {
  return readRaw(dir, rel).toString('utf8');
}

/** CSV with quoted fields that may hold newlines (e.g. the GEO landslide catalogue's FACAFF and CONSEC columns). */
export function readCsvRecords(dir: string, rel: string): { header: string[]; rows: string[][] } {
  const text = readText(dir, rel);
  const rows: string[][] = [];
  let row: string[] = [],
    cur = '',
    q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (q) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cur += '"';
          i++;
        } else q = false;
      } else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      row.push(cur);
      cur = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cur);
      cur = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else cur += c;
  }
  if (cur !== '' || row.length) {
    row.push(cur);
    rows.push(row);
  }
  return { header: rows[0]!, rows: rows.slice(1) };
}

/** Minimal CSV parser (quoted fields, no embedded newlines needed for our files). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else q = false;
      } else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export function readCsv(dir: string, rel: string): { header: string[]; rows: string[][] } {
  const lines = readText(dir, rel)
    .split(/\r?\n/)
    .filter((l) => l.length > 0 && !l.startsWith('#'));
  const header = parseCsvLine(lines[0]!);
  return { header, rows: lines.slice(1).map(parseCsvLine) };
}

export interface NcVar {
  data: Float64Array;
  dims: string[];
  shape: number[];
}

export function readNetcdf(dir: string, rel: string, names: string[]): Record<string, NcVar> {
  const r = new NetCDFReader(readRaw(dir, rel));
  const dimSize = new Map<number, number>();
  r.dimensions.forEach((d: { size: number }, i: number) => dimSize.set(i, d.size));
  const out: Record<string, NcVar> = {};
  for (const name of names) {
    const v = r.variables.find((x: { name: string }) => x.name === name)!;
    const raw = r.getDataVariable(name) as unknown as ArrayLike<number>;
    const data = new Float64Array(raw.length);
    for (let i = 0; i < raw.length; i++) data[i] = Number(raw[i]);
    const dims = (v.dimensions as number[]).map((i) => r.dimensions[i]!.name as string);
    out[name] = { data, dims, shape: (v.dimensions as number[]).map((i) => dimSize.get(i)!) };
  }
  return out;
}
