import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, safeCell } from '../src/index.js';

// Issue 32 item 4: formula triggers are neutralised at the start of a cell and after `;`, `,` or a tab inside it,
// where Excel in a German, French, Dutch or Spanish locale (list separator `;`) splits an unquoted CSV field.

test('safeCell: a formula trigger at the start of the cell gets an apostrophe', () => {
  assert.equal(safeCell('=1+1'), "'=1+1");
  assert.equal(safeCell('+cmd|/C calc'), "'+cmd|/C calc");
  assert.equal(safeCell('-2+3'), "'-2+3");
  assert.equal(safeCell('@SUM(A1:A2)'), "'@SUM(A1:A2)");
  assert.equal(safeCell('\t=1'), "'\t'=1");
  assert.equal(safeCell('\rtext'), "'\rtext");
  assert.equal(safeCell('  =1+1'), "  '=1+1", 'after leading spaces too');
});

test('safeCell: and after ; , or a tab inside the cell', () => {
  assert.equal(safeCell('Safe;=1+1'), "Safe;'=1+1");
  assert.equal(safeCell('a,=HYPERLINK("http://evil.example","click")'), 'a,\'=HYPERLINK("http://evil.example","click")');
  assert.equal(safeCell('x\t@SUM(A1)'), "x\t'@SUM(A1)");
  assert.equal(safeCell('a; +1+2; b,-3-4'), "a; '+1+2; b,'-3-4");
  assert.equal(safeCell('line\n=1'), "line\n'=1");
  assert.equal(safeCell('=HYPERLINK("x","y")'), '\'=HYPERLINK("x","y")');
});

test('safeCell: numbers stay numbers; ordinary texts stay as they are; a text that looks like a negative number is escaped', () => {
  assert.equal(safeCell(-12.5), -12.5);
  assert.equal(safeCell(0), 0);
  assert.equal(safeCell('-12.5'), "'-12.5");
  assert.equal(safeCell('Kowloon Bay; Hong Kong'), 'Kowloon Bay; Hong Kong');
  assert.equal(safeCell('Lat 22.3, Lng 114.2'), 'Lat 22.3, Lng 114.2');
  assert.equal(safeCell('a-b=c'), 'a-b=c');
  assert.equal(safeCell('e-mail: x@y.example'), 'e-mail: x@y.example');
  assert.equal(safeCell(''), '');
  assert.equal(safeCell(null), null);
  assert.equal(safeCell(true), true);
});

test('csvField: quotes what a spreadsheet could split, and escapes formulas', () => {
  assert.equal(csvField('Safe;=1+1'), `"Safe;'=1+1"`);
  assert.equal(csvField('a,=HYPERLINK("u")'), `"a,'=HYPERLINK(""u"")"`);
  assert.equal(csvField('x\t@SUM(A1)'), `"x\t'@SUM(A1)"`);
  assert.equal(csvField(-12.5), '-12.5');
  assert.equal(csvField('-12.5'), "'-12.5");
  assert.equal(csvField(null), '');
  assert.equal(csvField(undefined), '');
  assert.equal(csvField('plain'), 'plain');
});
