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
  assert.equal(count(['\n\n , ,\r\n;;\n']), 0, 'lines of separators and spaces are blank');
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
