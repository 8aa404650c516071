// Shared by the converters of the staged OS-Climate physrisk curve tables (convert-curves.mjs, convert-hazus-wind.mjs):
// where the staged folder is, and a reader of its CSV files (quoted cells may hold commas; quotes are dropped).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The staged folder: the first command-line argument, else ../shared/data/physrisk_vulnerability_curves. */
export const srcDir = process.argv[2] ?? join(here, '../../../../shared/data/physrisk_vulnerability_curves');

/** The cells of one CSV line. */
export function parseCsvLine(line) {
  const cells = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      q = !q;
      continue;
    }
    if (c === ',' && !q) {
      cells.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  cells.push(cur);
  return cells;
}

/** The rows of a CSV text (empty lines skipped). */
export function parseCsv(text) {
  return text
    .split(/\r?\n/)
    .filter((line) => line)
    .map(parseCsvLine);
}

/** The text of a staged file (gunzipped when its name ends in .gz). */
export function readStaged(name) {
  const raw = readFileSync(join(srcDir, name));
  return name.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}
