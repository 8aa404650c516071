import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { tableCounts, countDiff } from './support/fuzz.js';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Issue 21 item 1: a NUL character (U+0000) in any string the server stores or queries used to reach PostgreSQL, which
 * refuses it in text and jsonb (`invalid byte sequence for encoding "UTF8": 0x00`), and the request answered 500. Now
 * it is a 400 naming the field, wherever the string comes from (JSON, form, multipart, query, path, upload cells),
 * and nothing is stored.
 */
describe('NUL characters (U+0000) in input: 400 naming the field, nothing stored', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
  });
  after(() => s.close());

  /** The answer is a 400 whose errors name `field` and whose detail says what is wrong; the data tables did not move. */
  async function refused(send: () => Promise<{ status: number; body: any }>, field: string) {
    const before = await tableCounts(s.db);
    const res = await send();
    assert.equal(res.status, 400, `${field}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    assert.ok(
      res.body.errors?.some((e: { field: string }) => e.field === field),
      `${field} named in ${JSON.stringify(res.body)}`,
    );
    assert.match(res.body.detail, new RegExp(`${field.replace(/\./g, '\\.')}.*NUL`));
    assert.equal(countDiff(before, await tableCounts(s.db)), null, 'nothing stored');
  }

  test('routes without a token: login (JSON and form), register, demo request', async () => {
    await refused(
      () => s.api.post('/api/user/rest_login/', { json: { username: 'a\u0000b', password: 'whatever password', company_code: owner.company_code } }),
      'username',
    );
    await refused(
      () => s.api.post('/api/user/rest_login/', { form: { username: owner.username, password: 'x', company_code: `${owner.company_code}\u0000` } }),
      'company_code',
    );
    await refused(
      () => s.api.post('/api/user/rest_login/', { json: { username: owner.username, password: 'pass\u0000word', company_code: owner.company_code } }),
      'password',
    );
    await refused(() => s.api.post('/api/user/register/', { json: newUser({ first_name: 'Ada\u0000' }) }), 'first_name');
    await refused(() => s.api.post('/api/user/register/', { json: newUser({ company_name: '\u0000' }) }), 'company_name');
    await refused(
      () => s.api.post('/api/demo_request/', { json: { name: 'Grace', email: 'grace@example.com', company: 'Navy', message: 'hello\u0000world' } }),
      'message',
    );
  });

  test('signed-in routes: nested JSON, query strings, path parameters and multipart fields', async () => {
    const data = [
      { name: 'Office', latitude: 22.3, longitude: 114.2 },
      { name: 'Ware\u0000house', latitude: 22.4, longitude: 114.1 },
    ];
    await refused(
      () => s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Nul test', data, portfolio_variables: ['Extreme Heat'] } }),
      'data.1.name',
    );
    await refused(
      () =>
        s.api.post('/api/v2/create_project/', {
          token: owner.token,
          json: { portfolio_name: 'Nul test', data: data.slice(0, 1), portfolio_variables: ['Extreme\u0000 Heat'] },
        }),
      'portfolio_variables.0',
    );
    await refused(() => s.api.get('/api/v2/audit_log/?action=login%00', { token: owner.token }), 'action');
    await refused(() => s.api.get(`/api/user/permissions/${owner.userId}%00/`, { token: owner.token }), 'userId');
    await refused(() => s.api.post('/user/update_last_accessed', { token: owner.token, json: { path: '/project\u0000' } }), 'path');
    const csv = Buffer.from('name,latitude,longitude\r\nA,22.3,114.2\r\n');
    await refused(
      () =>
        s.api.post('/api/v2/create_project/', {
          token: owner.token,
          multipart: { portfolio_name: 'Nul\u0000 upload', upload_file: { filename: 'a.csv', data: csv } },
        }),
      'portfolio_name',
    );
    // A key holding NUL is refused too (jsonb refuses it as well).
    await refused(() => s.api.post('/api/demo_request/', { json: { name: 'Grace', email: 'grace@example.com', company: 'Navy', ['x\u0000']: 1 } }), 'x\u0000');
  });

  test('upload cells: a NUL in a CSV or XLSX cell is refused naming the cell', async () => {
    // Past the first 8 KiB (where a NUL byte marks the file as binary) a NUL reaches the cells.
    const rows = Array.from({ length: 600 }, (_, i) => `Site ${i},${(i % 80) + 0.5},${(i % 170) + 0.5}`);
    rows[500] = 'Bad\u0000site,22.3,114.2';
    const csv = Buffer.from(`name,latitude,longitude\r\n${rows.join('\r\n')}\r\n`);
    assert.ok(csv.indexOf(0) > 8192, 'the NUL is past the binary sniff');
    const before = await tableCounts(s.db);
    const c = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      multipart: { portfolio_name: 'Nul csv', upload_file: { filename: 'sites.csv', data: csv } },
    });
    assert.equal(c.status, 400, JSON.stringify(c.body).slice(0, 300));
    assert.match(c.body.detail, /upload_file: cell A502 .*NUL/);
    assert.equal(c.body.errors[0].field, 'upload_file');

    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['name', 'latitude', 'longitude', 'property_type'],
        ['A', 22.3, 114.2, 'Off\u0000ice'],
      ]),
      'Assets',
    );
    const x = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      multipart: { portfolio_name: 'Nul xlsx', upload_file: { filename: 'sites.xlsx', data: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer } },
    });
    assert.equal(x.status, 400, JSON.stringify(x.body).slice(0, 300));
    assert.match(x.body.detail, /upload_file: cell D2 .*NUL/);
    assert.equal(countDiff(before, await tableCounts(s.db)), null, 'nothing stored');
  });

  test('the same requests without the NUL still work (the guard refuses only NUL)', async () => {
    const ok = await s.api.post('/api/demo_request/', {
      json: { name: 'Grace', email: 'grace@example.com', company: 'Navy', message: 'hello world \u00e9\u{1F600}' },
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const p = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Nul test ok', data: [{ name: 'Office', latitude: 22.3, longitude: 114.2 }], portfolio_variables: ['Extreme Heat'] },
    });
    assert.equal(p.status, 201, JSON.stringify(p.body));
  });
});
