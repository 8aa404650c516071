/**
 * The fast paths of create_project at a million rows (issue 22, branch feat/createspeed).
 *
 * The batched asset insert of create_project (project.repository.ts insertAssets: each batch of rows sent as one array
 * per column, issue 22): every value is stored exactly as validated, over several batches, with the columns a batch
 * leaves out null, the positions in order, and adding to a portfolio continuing them. Runs on PGlite and, with
 * TEST_DB=postgres, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeText } from '@crp/contracts';
import { decodeTextInSlices, LARGE_CSV_CHARS } from '../src/modules/projects/asset-import.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** Rows over three insert batches (2,000 rows each): a text with every character an array literal escapes, numbers whose shortest form is long. */
function rows(n: number, offset = 0) {
  const names = ['Quote "A", comma', 'Brace {b} and \\ backslash', "It's 'single'", 'Semicolon; and | bar', 'Ünïcödé 東京 🏢', 'Plain'];
  const numbers = [0.1 + 0.2, 123456789.12345679, 1e15, 5e-324, 2 ** 53 + 2, 7];
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    return {
      name: `${names[i % names.length]} ${i}`,
      latitude: i % 7 === 0 ? -89.99999999999999 : ((i * 0.013) % 80) + 1e-7,
      longitude: i % 11 === 0 ? 179.99999999999997 : ((i * 0.029) % 340) - 170,
      valuation: numbers[i % numbers.length],
      property_type: i % 5 === 0 ? 'NA' : `Type "${i % 3}" {x}`,
      // Only the first batch has stories, only the second flood protection: the other batches leave the column out.
      ...(i < 2_000 ? { stories: i % 300 } : {}),
      ...(i >= 2_000 && i < 4_000 ? { flood_protection: 1 + (i % 999) } : {}),
      ...(i % 4 === 0 ? { country_code: 'fr' } : {}),
    };
  });
}

describe('asset insert (column arrays per batch)', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ UPLOAD_MAX_ROWS: 10_000 });
  });
  after(() => s.close());

  test('4,500 rows over three batches are stored exactly as sent, in order; adding continues the positions', async () => {
    const u = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ assets_allowed: 10_000 }).where('code', '=', u.company_code).execute();
    const first = rows(4_500);
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Batches', portfolio_variables: ['Wildfire'], data: first },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 500));
    const id = res.body.project.project_id as number;
    const added = rows(10, 4_500);
    const add = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Batches', mode: 'add', data: added } });
    assert.equal(add.status, 201, JSON.stringify(add.body).slice(0, 500));

    const stored = await s.db.selectFrom('assets').selectAll().where('project_id', '=', id).orderBy('position').execute();
    const sent = [...first, ...added];
    assert.equal(stored.length, sent.length);
    for (const [i, a] of stored.entries()) {
      const r = sent[i]! as Record<string, unknown>;
      const at = `row ${i}`;
      assert.equal(a.position, i, at);
      assert.equal(a.name, r.name, at);
      assert.equal(a.latitude, r.latitude, at);
      assert.equal(a.longitude, r.longitude, at);
      assert.equal(a.valuation, r.valuation, at);
      assert.equal(a.property_type, r.property_type === 'NA' ? null : r.property_type, at);
      assert.equal(a.stories, r.stories ?? null, at);
      assert.equal(a.flood_protection, r.flood_protection ?? null, at);
      assert.equal(a.revenue, null, at);
      if (r.country_code) assert.equal(a.country_code, 'FR', at);
      else assert.ok(a.country_code === null || /^[A-Z]{2}$/.test(a.country_code), at);
    }
  });
});

describe('a large CSV checked while it is split', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ UPLOAD_MAX_ROWS: 10_000 });
  });
  after(() => s.close());
  /** `rows` CSV lines of a few dozen bytes, over LARGE_CSV_CHARS from about 45,000 rows. */
  const bigCsv = (rows: number, edit: (i: number, line: string) => string = (_i, l) => l) => {
    const lines = ['name,latitude,longitude,valuation'];
    for (let i = 0; i < rows; i++) lines.push(edit(i, `Site number ${i + 1} of a large book,${(i % 80) + 0.5},${(i % 170) + 0.5},${1e6 + i}`));
    return Buffer.from(lines.join('\n'));
  };
  const upload = async (token: string, name: string, data: Buffer) =>
    s.api.post('/api/v2/create_project/', { token, multipart: { portfolio_name: name, upload_file: { filename: 'book.csv', data } } });

  test('a NUL anywhere is refused naming its cell, before a bad row above it; nothing is stored', async () => {
    const u = await registerAndLogin(s.api);
    const data = bigCsv(9_000, (i, l) => (i === 10 ? l.replace(',10.5,', ',95,') : i === 8_000 ? l.replace('Site', 'Si\u0000te') : l));
    assert.ok(data.length > LARGE_CSV_CHARS / 8 && data.indexOf(0) > 8192);
    const big = Buffer.concat([data, Buffer.from('\n' + 'x,1,1,1\n'.repeat(Math.ceil(LARGE_CSV_CHARS / 8)))]);
    const before = await s.db.selectFrom('projects').select('id').execute();
    const res = await upload(u.token, 'Nul in a large book', big);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.match(res.body.detail, /upload_file: cell A8002 .*NUL/);
    assert.equal((await s.db.selectFrom('projects').select('id').execute()).length, before.length, 'nothing stored');
  });

  test('more rows than the limit is refused for the count, before the row problems; a clean book is stored', async () => {
    const u = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ assets_allowed: 10_000 }).where('code', '=', u.company_code).execute();
    const over = bigCsv(50_000, (i, l) => (i === 5 ? l.replace(',5.5,', ',-95,') : l));
    assert.ok(over.length > LARGE_CSV_CHARS);
    const res = await upload(u.token, 'Too many', over);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.deepEqual(res.body.error, ['The upload has more than 10,000 rows, the limit per upload.']);

    const clean = Buffer.concat([bigCsv(9_990), Buffer.from('\n'.repeat(LARGE_CSV_CHARS))]);
    const ok = await upload(u.token, 'Clean', clean);
    assert.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
    const stored = await s.db
      .selectFrom('assets')
      .select(['position', 'name', 'valuation'])
      .where('project_id', '=', ok.body.project.project_id)
      .orderBy('position')
      .execute();
    assert.equal(stored.length, 9_990);
    assert.deepEqual(stored.at(-1), { position: 9_989, name: 'Site number 9990 of a large book', valuation: 1e6 + 9_989 });
  });
});

describe('a large upload decoded in slices', () => {
  // A slice that ended inside a character without the streaming flag would fail to decode and fall back to decodeText of
  // the whole upload: still the same text (only slower), which is what this test holds.
  test('gives the text decodeText gives: characters across slice boundaries, a byte order mark, Windows-1252, UTF-16', async () => {
    const MB4 = 4 * 1_048_576;
    // Multi-byte characters placed so that each 4 MB slice boundary falls inside one of them.
    const utf8 = (lead: number, ch: string) => Buffer.concat([Buffer.alloc(lead, 'a'), Buffer.from(ch.repeat(8)), Buffer.alloc(MB4, 'b')]);
    const cases: [string, Buffer][] = [
      ['é over the boundary', utf8(MB4 - 1, 'é')],
      ['東 over the boundary', utf8(MB4 - 2, '東')],
      ['emoji over the boundary', utf8(MB4 - 3, '🏢')],
      ['UTF-8 with a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(MB4 - 4, '東')])],
      ['Windows-1252 after the first slice', Buffer.concat([Buffer.alloc(MB4 + 10, 'a'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a])])],
      ['a character cut off at the end', Buffer.concat([Buffer.alloc(MB4 + 10, 'a'), Buffer.from([0xe6, 0x9d])])],
      ['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,lat\n東京,35\n'.repeat(300_000), 'utf16le')])],
    ];
    for (const [what, bytes] of cases) assert.equal(await decodeTextInSlices(bytes), decodeText(bytes).text, what);
  });
});
