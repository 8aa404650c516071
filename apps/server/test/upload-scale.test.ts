import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { loadConfig } from '../src/config.js';
import { LARGE_CSV_CHARS, parseCsvRows } from '../src/modules/projects/asset-import.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Issue 22 item 2 and issue 23: uploads up to a million rows (limits raised; a large CSV is split into rows by our own
 * parser in slices instead of a SheetJS workbook), row errors still named with nothing stored, and columns that name
 * no asset field reported as a warning in the answer (not refused).
 */

const sheetjs = (text: string) => {
  const wb = XLSX.read(text, { type: 'string', raw: true, dense: true });
  return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]!]!, { header: 1, raw: true, defval: null, blankrows: true });
};
/** Rows as the importer sees them: trailing nulls and undefined cells are the same NA. */
const norm = (rows: unknown[][]) =>
  rows.map((r) => {
    const x = r.map((c) => (c === undefined ? null : c));
    while (x.length && x[x.length - 1] === null) x.pop();
    return x;
  });

describe('large uploads and unknown columns', { timeout: 300_000 }, () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let n = 0;
  const upload = (filename: string, text: string) =>
    s.api.post('/api/v2/create_project/', {
      token: owner.token,
      multipart: { portfolio_name: `Upload ${++n}`, upload_file: { filename, data: Buffer.from(text, 'utf8') } },
    });

  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ tier: 'enterprise', assets_allowed: 1_000_000 }).execute();
  });
  after(async () => {
    await s?.close();
  });

  test('the limits allow a million rows', () => {
    const config = loadConfig({});
    assert.equal(config.UPLOAD_MAX_ROWS, 1_000_000);
    assert.ok(config.UPLOAD_LIMIT_BYTES >= 200 * 1_048_576, 'a million rows of a dozen columns fit in the byte limit');
  });

  test('the large-CSV parser reads what SheetJS reads', async () => {
    const samples = [
      'name,lat,long\n"A, b",1.5,2\n,,\n"q""x",  3 ,4\r\nlast,5,6',
      'name;lat;long\nA;1,5;2\nB;3;4\n',
      'name\tlat\tlong\nA\t1\t2\n\nB\t\t3',
      '\ufeffname,lat,long,property type\n"Multi\nline",1,2,Office\nC,3,4,\n',
      'name|lat|long\nA|1|2',
    ];
    for (const text of samples) assert.deepEqual(norm(await parseCsvRows(text, 100)), norm(sheetjs(text.replace(/^\ufeff/, ''))), JSON.stringify(text));
    assert.equal((await parseCsvRows('a,b\n1,2\n3,4\n5,6', 2)).length, 2, 'stops at the row limit');
  });

  test('a misspelt column is named in a warning and the upload is stored', async () => {
    const csv = 'name,lat,long,proprty type,valuation,colour\nTower,22.28,114.16,Office,1000000,red\nDepot,22.3,114.2,Warehouse,2000000,blue\n';
    const res = await upload('book.csv', csv);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.project.assets, 2);
    assert.ok(Array.isArray(res.body.warnings), JSON.stringify(res.body));
    assert.match(res.body.warnings[0], /2 columns 'proprty type', 'colour' are not known asset columns and were not imported/);
    const stored = await s.db
      .selectFrom('assets')
      .select(['name', 'property_type', 'valuation'])
      .where('project_id', '=', res.body.project.project_id)
      .orderBy('position')
      .execute();
    assert.deepEqual(
      stored.map((a) => [a.name, a.property_type, a.valuation]),
      [
        ['Tower', null, 1_000_000],
        ['Depot', null, 2_000_000],
      ],
    );
  });

  test('known columns only: no warning; a JSON list with an unknown field is warned about', async () => {
    const ok = await upload('clean.csv', 'name,lat,long,property type\nA,22.28,114.16,Office\n');
    assert.equal(ok.status, 201);
    assert.equal(ok.body.warnings, undefined);
    const json = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: `Json ${++n}`, data: [{ name: 'A', latitude: 22.28, longitude: 114.16, 'property type': 'Office' }] },
    });
    assert.equal(json.status, 201, JSON.stringify(json.body));
    assert.match(json.body.warnings[0], /The field 'property type' is not a known asset field/);
  });

  test('a large CSV (over the SheetJS threshold) is imported; a bad row in it is named and nothing is stored', async () => {
    const rows = 60_000;
    const lines = ['name,lat,long,property type,valuation,revenue,construction cost,area,floors,ownership,notes'];
    for (let i = 0; i < rows; i++)
      lines.push(
        `"Site ${i + 1}, Block ${i % 7}",${(-40 + (i % 800) / 10).toFixed(4)},${(-170 + (i % 3400) / 10).toFixed(4)},Office,${1e6 + i},${1e5 + i},${5e5 + i},${100 + (i % 50)},${1 + (i % 20)},100,"note ""${i}"""`,
      );
    const text = lines.join('\n');
    assert.ok(text.length > LARGE_CSV_CHARS, `${text.length} characters`);
    const site = `"Site 50000, Block ${49_999 % 7}",`;
    const at = text.indexOf(`\n${site}`) + 1 + site.length;
    const bad = `${text.slice(0, at)}95.5${text.slice(text.indexOf(',', at))}`;
    const projectsBefore = await s.db.selectFrom('projects').select('id').execute();
    const refused = await upload('big-bad.csv', bad);
    assert.equal(refused.status, 400, JSON.stringify(refused.body).slice(0, 300));
    assert.ok(
      refused.body.error.some((e: string) => /^Row 50001: latitude 95.5 is outside -90..90/.test(e)),
      JSON.stringify(refused.body.error).slice(0, 300),
    );
    assert.equal((await s.db.selectFrom('projects').select('id').execute()).length, projectsBefore.length, 'nothing stored on refusal');

    const res = await upload('big.csv', text);
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.project.assets, rows);
    assert.match(res.body.warnings[0], /'notes' is not a known asset column/);
    const last = await s.db
      .selectFrom('assets')
      .select(['name', 'latitude', 'stories', 'area'])
      .where('project_id', '=', res.body.project.project_id)
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    assert.deepEqual(last, {
      name: `Site ${rows}, Block ${(rows - 1) % 7}`,
      latitude: Number((-40 + ((rows - 1) % 800) / 10).toFixed(4)),
      stories: 1 + ((rows - 1) % 20),
      area: 100 + ((rows - 1) % 50),
    });
  });
});
