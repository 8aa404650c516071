import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CsvRecordCounter, isBlankRow } from '@crp/contracts';
import { parseCsvRows } from '../src/modules/projects/asset-import.js';

/**
 * The web wizard counts the rows of a large CSV with CsvRecordCounter without parsing it; the count it shows and
 * checks against the asset allowance must be the server's: the rows parseCsvRows reads (the parser of every CSV the
 * browser counts, above 2 MiB) that are not blank or all-NA.
 */
const serverRows = async (text: string) => (await parseCsvRows(text, 1_000_000)).filter((r) => !isBlankRow(r)).length;

function browserRows(text: string, chunk: number): number {
  const bytes = new TextEncoder().encode(text);
  const c = new CsvRecordCounter();
  for (let at = 0; at < bytes.length; at += chunk) c.push(bytes.subarray(at, at + chunk));
  return c.count();
}

/** A small deterministic generator (mulberry32) so a failure is reproducible. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  'a',
  'Site 1',
  'NA',
  'na',
  ' n/a ',
  'null',
  'None',
  '-',
  '--',
  'NaN',
  '',
  ' ',
  '\t',
  '"',
  '""',
  '"NA"',
  '"x,y"',
  '"a\nb"',
  '"N""A"',
  ',',
  ';',
  '|',
  '\n',
  '\r\n',
  '\r',
  '1.5',
  'é',
  '\u00a0',
  'nab',
];

test('the browser counts the rows of a CSV the server imports: blank and all-NA rows are skipped by both', async () => {
  const samples = [
    'name,lat,long\na,1,2\nNA,NA,NA\n , ,\n"","NA",-\nb,3,4\n',
    'name;lat;long\nA;1,5;2\n;;\nNA;n/a;\n',
    'name\tlat\tlong\nA\t1\t2\n\t\t\nB\t\t3',
    '\ufeffname,lat,long,property type\n"Multi\nline",1,2,Office\nC,3,4,\nNA,,,\n',
    'name|lat|long\nA|1|2\nNA|NA|NA',
    'name,lat\n;;\n||\n',
  ];
  for (const text of samples) for (const chunk of [1, 3, 1 << 16]) assert.equal(browserRows(text, chunk), await serverRows(text), JSON.stringify(text));
  const next = random(22);
  for (let n = 0; n < 3000; n++) {
    let text = '';
    const len = 1 + Math.floor(next() * 30);
    for (let i = 0; i < len; i++) text += TOKENS[Math.floor(next() * TOKENS.length)];
    const chunk = 1 + Math.floor(next() * 8);
    assert.equal(browserRows(text, chunk), await serverRows(text), `sample ${n}: ${JSON.stringify(text)} in chunks of ${chunk} bytes`);
  }
});
