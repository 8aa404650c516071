import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countDiff, tableCounts } from './support/fuzz.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Issue 21 item 6: what encoding an uploaded CSV is in. Excel on Windows saves "CSV" in Windows-1252 and "Unicode
 * text" in UTF-16 with a byte order mark; other tools write UTF-8 with or without a BOM. Each is read as what it is,
 * so names keep their accents; and an amount written "NaN" is refused like other non-numbers.
 */
describe('upload encodings and NaN amounts', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
  });
  after(() => s.close());

  const NAMES = ['Zürich Büro', 'São Paulo Armazém', 'Kraków Magazyn €'];
  const csv = 'name,latitude,longitude,revenue\r\n' + NAMES.map((n, i) => `${n},${47 - i},${8 + i},1000`).join('\r\n') + '\r\n';
  let n = 0;

  async function upload(filename: string, data: Buffer) {
    return s.api.post('/api/v2/create_project/', { token: owner.token, multipart: { portfolio_name: `Encoding ${++n}`, upload_file: { filename, data } } });
  }
  async function storedNames(projectId: number) {
    return (await s.db.selectFrom('assets').select('name').where('project_id', '=', projectId).orderBy('id').execute()).map((r) => r.name);
  }

  const utf16be = (text: string) => {
    const le = Buffer.from(text, 'utf16le');
    for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
    return le;
  };
  const cases: [string, Buffer, string[]][] = [
    ['UTF-8 without a BOM', Buffer.from(csv, 'utf8'), NAMES],
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]), NAMES],
    // Windows-1252 has no Ł or ó... but has ü, ã, é and €: the third name is written with what it has.
    [
      'Windows-1252 (Excel "CSV" on Windows)',
      Buffer.from(new Uint8Array([...csv.replace('Kraków', 'Krakow')].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))))),
      [NAMES[0]!, NAMES[1]!, 'Krakow Magazyn €'],
    ],
    ['UTF-16 LE with a BOM (Excel "Unicode text")', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')]), NAMES],
    ['UTF-16 BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(csv)]), NAMES],
  ];
  for (const [what, data, names] of cases) {
    test(`a CSV in ${what} keeps its accented names`, async () => {
      const res = await upload('sites.csv', data);
      assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
      assert.deepEqual(await storedNames(res.body.project.project_id), names);
    });
  }

  test('UTF-16 without a BOM is refused with a reason (it cannot be told from binary data)', async () => {
    const before = await tableCounts(s.db);
    const res = await upload('sites.csv', Buffer.from(csv, 'utf16le'));
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /upload_file: .*UTF-16 without a byte order mark/);
    assert.equal(countDiff(before, await tableCounts(s.db)), null);
  });

  test('an amount written "NaN" is refused, in JSON data and in an upload, like other non-numbers', async () => {
    const before = await tableCounts(s.db);
    const json = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'NaN revenue', data: [{ name: 'A', latitude: 22.3, longitude: 114.2, revenue: 'NaN' }] },
    });
    assert.equal(json.status, 400, JSON.stringify(json.body));
    assert.match(json.body.detail, /Row 1: revenue 'NaN' is not a number/);
    const file = await upload('nan.csv', Buffer.from('name,latitude,longitude,valuation\r\nA,22.3,114.2,nan\r\n'));
    assert.equal(file.status, 400, JSON.stringify(file.body));
    assert.match(file.body.detail, /Row 2: valuation 'nan' is not a number/);
    const lat = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'NaN latitude', data: [{ name: 'A', latitude: 'NaN', longitude: 114.2 }] },
    });
    assert.equal(lat.status, 400);
    assert.match(lat.body.detail, /latitude 'NaN' is not a number/);
    // The asset table's edit path already refused it: the same rule everywhere.
    assert.equal(countDiff(before, await tableCounts(s.db)), null);
    // An empty cell is still "no value".
    const empty = await upload('empty.csv', Buffer.from('name,latitude,longitude,revenue\r\nA,22.3,114.2,\r\n'));
    assert.equal(empty.status, 201, JSON.stringify(empty.body));
  });
});
