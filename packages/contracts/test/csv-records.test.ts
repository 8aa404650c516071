import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CsvRecordCounter } from '../src/text.js';

const bytes = (s: string) => new TextEncoder().encode(s);

function count(chunks: string[]): number {
  const c = new CsvRecordCounter();
  for (const ch of chunks) c.push(bytes(ch));
  return c.count();
}

test('CsvRecordCounter: counts non-blank records, with or without a final line break, CRLF too', () => {
  assert.equal(count(['name,lat,long\na,1,2\nb,3,4\n']), 3);
  assert.equal(count(['name,lat,long\r\na,1,2\r\nb,3,4']), 3, 'an unterminated last line counts');
  assert.equal(count(['']), 0);
  assert.equal(count(['\n\n , ,\r\n , \n']), 0, 'lines of delimiters and spaces are blank');
  assert.equal(count(['name,lat\n;;\n']), 2, 'a semicolon is a character in a comma-separated file');
  assert.equal(count(['name,lat,long\n\na,1,2\n,,\nb,3,4\n\n']), 3);
});

test('CsvRecordCounter: a line break inside quotes is part of the cell, also across chunks', () => {
  assert.equal(count(['name,note\n"Depot ', 'A","two\nlines"\nb,"x ""quoted"" y"\n']), 3);
  assert.equal(count(['a,"multi\r\nline\r\n', 'cell"\r\nb,2\r\n']), 2);
  // The same text split at every byte gives the same count.
  const text = 'name,lat\n"x\ny",1\n\nz,2\n';
  assert.equal(count(text.split('')), count([text]));
  assert.equal(count([text]), 3);
});

test('CsvRecordCounter: rows whose every cell is empty or NA are not assets, as the server skips them', () => {
  assert.equal(count(['name,lat,long\na,1,2\nNA,NA,NA\n n/a ,-, null\nNone,--,NaN\n"","NA",\nb,3,4\n']), 3);
  assert.equal(count(['name,lat,long\nNA,NA,x\n']), 2, 'one value makes the row an asset');
  assert.equal(count(['name;lat;long\nNA;na;\nA;1,5;2\n']), 2, 'the delimiter is guessed from the first line');
  assert.equal(count(['name\tlat\tlong\n\tNA\t\nA\t1\t2']), 2);
  assert.equal(count(['name|lat|long\nNA|NA|NA\nA|1|2\n']), 2);
  assert.equal(count(['name,lat\n"NA\n",\n"N""A",1\n']), 2, 'a quoted NA is NA; a quote inside is a character');
  assert.equal(count(['name,lat\nNAB,\nNA B,\n']), 3, 'words that only start like NA are values');
  assert.equal(count(['\ufeff"name",lat\n"a\nb",1\n']), 2, 'a byte order mark before a quoted first cell');
  assert.equal(count(['name,lat\nna']), 1, 'an unterminated last line of NA is blank');
  const text = 'name;lat;long\n"x\n;y";1;2\nNA;"";-\r\n\u00a0;NA;\nz;2;3';
  for (let at = 0; at <= text.length; at++) assert.equal(count([text.slice(0, at), text.slice(at)]), 3, `split at ${at}`);
});
