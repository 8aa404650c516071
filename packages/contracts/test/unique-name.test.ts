import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uniqueName } from '../src/geo.js';

test('uniqueName: the base when free, else numbered from 2, case-insensitive like the server', () => {
  const base = 'Central, Central and Western, Hong Kong';
  assert.equal(uniqueName(base, []), base);
  assert.equal(uniqueName(base, ['Wan Chai, Hong Kong']), base);
  assert.equal(uniqueName(base, [base]), `${base} 2`);
  assert.equal(uniqueName(base, [base.toUpperCase(), `${base} 2 `]), `${base} 3`, 'trimmed and case-insensitive');
  assert.equal(uniqueName(base, [base, `${base} 3`]), `${base} 2`, 'the first free number');
  // Ten clicks in one district: ten different names.
  const names: string[] = [];
  for (let i = 0; i < 10; i++) names.push(uniqueName(base, names));
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, 10);
  assert.equal(names[9], `${base} 10`);
});

test('uniqueName: the number always fits within the length limit', () => {
  const long = 'x'.repeat(150);
  assert.equal(uniqueName(long, []), long);
  const second = uniqueName(long, [long]);
  assert.equal(second.length, 150);
  assert.ok(second.endsWith(' 2'));
  assert.notEqual(second, long);
});
