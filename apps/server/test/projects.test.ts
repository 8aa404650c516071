import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const HEADER = [
  'name',
  'lat',
  'long',
  'revenue',
  'construction cost',
  'property type',
  'area',
  'valuation',
  'floors',
  'solar',
  'wind',
  'hydro',
  'wheat',
  'rice',
  'maize',
  'fruit',
  'veg',
  'ownership',
  'flood protection',
  'construction',
];
const ROWS = [
  ['Central Tower', 22.2819, 114.1585, '12,500,000', '85M', 'Office', 42000, 310000000, 38, 'NA', '', '', '', '', '', '', '', 100],
  ['Kwun Tong Warehouse', 22.3104, 114.2252, 3000000, 'NA', 'Warehouse', '', '', 4, '', '', '', '', '', '', '', '', '60%'],
  ['Shenzhen Plant', 22.5431, 114.0579, 0, 20000000, 'Manufacture', 15000, 'NA', 2, '', '', '', '', '', '', '', '', 51],
];

function sheetFile(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Assets');
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}
const csvOf = (rows: unknown[][]) =>
  rows.map((r) => r.map((c) => (typeof c === 'string' && /[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : String(c))).join(',')).join('\r\n');

describe('portfolio creation', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({}, { jobs: true });
  });
  after(() => s.close());

  test('JSON locations create a project with the default hazards, queue its analysis, and the analysis finishes with stored results', async () => {
    const u = await registerAndLogin(s.api);
    const data = [
      { name: 'Hong Kong office', latitude: 22.28, longitude: 114.16, revenue: 'NA', property_type: 'Office', valuation: 5e7 },
      { name: 'Manila branch', latitude: 14.6, longitude: 120.98, revenue: 1e6, property_type: 'NA' },
    ];
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      form: {
        portfolio_name: 'Asia branches',
        portfolio_variables: JSON.stringify(['Wildfire']),
        data: JSON.stringify(data),
        base_unit: 'meter',
        base_currency: 'USD',
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.project.assets, 2);
    const p = await s.db.selectFrom('projects').selectAll().where('id', '=', res.body.project.project_id).executeTakeFirstOrThrow();
    assert.deepEqual(p.portfolio_variables, ['River Flood', 'Typhoon', 'Storm Surge', 'Wildfire']);
    const assets = await s.db.selectFrom('assets').selectAll().where('project_id', '=', p.id).orderBy('position').execute();
    assert.equal(assets[0]!.revenue, null, 'NA stays NA, not 0');
    assert.equal(assets[1]!.revenue, 1e6);
    const done = await waitForAnalysis(s, u.token, p.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    const results = await s.db.selectFrom('analysis_results').select(['chunk_start', 'chunk_count']).where('project_id', '=', p.id).execute();
    assert.deepEqual(results, [{ chunk_start: 0, chunk_count: 2 }]);
  });

  test('CSV, XLSX and XLS uploads give the same assets; headers may be in any order', async () => {
    const u = await registerAndLogin(s.api);
    const files = [
      { filename: 'assets.csv', data: Buffer.from(csvOf([HEADER, ...ROWS])) },
      { filename: 'assets.xlsx', data: sheetFile([HEADER, ...ROWS], 'xlsx') },
      { filename: 'assets.xls', data: sheetFile([HEADER, ...ROWS], 'biff8') },
      // Columns shuffled, with units in the headers.
      {
        filename: 'shuffled.csv',
        data: Buffer.from(
          csvOf([['Longitude', 'Latitude', 'Asset name', 'Ownership (%)', 'Revenue (USD)'], ...ROWS.map((r) => [r[2], r[1], r[0], r[17], r[3]])]),
        ),
      },
    ];
    for (const [i, file] of files.entries()) {
      const res = await s.api.post('/api/v2/create_project/', { token: u.token, multipart: { portfolio_name: `Upload ${i}`, upload_file: file } });
      assert.equal(res.status, 201, `${file.filename}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.project.assets, 3);
      const assets = await s.db.selectFrom('assets').selectAll().where('project_id', '=', res.body.project.project_id).orderBy('position').execute();
      assert.deepEqual(
        assets.map((a) => a.name),
        ['Central Tower', 'Kwun Tong Warehouse', 'Shenzhen Plant'],
      );
      assert.equal(assets[0]!.revenue, 12_500_000);
      assert.equal(assets[1]!.ownership, 60);
      assert.equal(assets[2]!.revenue, 0, '0 stays 0');
      if (i < 3) {
        assert.equal(assets[0]!.construction_cost, 85_000_000);
        assert.equal(assets[1]!.construction_cost, null);
        assert.equal(assets[0]!.stories, 38);
        assert.equal(assets[0]!.property_type, 'Office');
      }
    }
  });

  test('row errors are all listed, name the row, and nothing is saved', async () => {
    const u = await registerAndLogin(s.api);
    const bad = [
      HEADER,
      ['Good', 22.3, 114.1],
      ['Too far north', 95.2, 114.1],
      ['', 22.3, 114.2],
      ['Bad long', 22.3, 'east'],
      ['Good', 22.4, 114.3],
      ['Negative', 22.3, 114.1, -5],
      ['Owner', 22.3, 114.1, '', '', '', '', '', '', '', '', '', '', '', '', '', '', 140],
      ['Nowhere', 0, 0],
      ['Fractional floors', 22.3, 114.1, '', '', '', '', '', 2.5],
      ['Words', 22.3, 114.1, 'lots of money'],
    ];
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      multipart: { portfolio_name: 'Broken', upload_file: { filename: 'bad.csv', data: Buffer.from(csvOf(bad)) } },
    });
    assert.equal(res.status, 400);
    const e: string[] = res.body.error;
    const expect = [
      'Row 3: latitude 95.2 is outside -90..90',
      'Row 4: name is empty',
      "Row 5: longitude 'east' is not a number",
      "Row 6: name 'Good' is already used in row 2",
      'Row 7: revenue must not be negative',
      'Row 8: ownership 140 is outside 0..100',
      'Row 9: latitude and longitude are both 0',
      'Row 10: floors 2.5 must be a whole number',
      "Row 11: revenue 'lots of money' is not a number",
    ];
    for (const x of expect)
      assert.ok(
        e.some((m) => m.startsWith(x)),
        `missing "${x}" in ${JSON.stringify(e)}`,
      );
    assert.equal(res.body.errors[0].field, 'upload_file');
    const left = await s.db.selectFrom('projects').select('id').where('owner_id', '=', u.userId).execute();
    assert.equal(left.length, 0, 'a failed upload leaves no project');
  });

  test('unsupported, empty and unreadable files are refused with the reason', async () => {
    const u = await registerAndLogin(s.api);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const cases = [
      { file: { filename: 'photo.png', data: png }, expect: /not a CSV, XLSX, XLS, GeoJSON, GeoPackage or zipped Shapefile file/ },
      { file: { filename: 'renamed.csv', data: png }, expect: /not a CSV, XLSX, XLS, GeoJSON, GeoPackage or zipped Shapefile file/ },
      { file: { filename: 'empty.csv', data: Buffer.from('') }, expect: /no asset rows/ },
      // The name must say csv, xlsx or xls (or a GIS format), and the bytes must agree with it.
      {
        file: { filename: 'assets.txt', data: Buffer.from('name,latitude,longitude\nA,22.3,114.2\n') },
        expect: /not a CSV, XLSX, XLS, GeoJSON, GeoPackage or zipped Shapefile file \(files ending \.txt are not accepted\)/,
      },
      {
        file: { filename: 'assets.json', data: Buffer.from('name,latitude,longitude\nA,22.3,114.2\n') },
        expect: /'assets\.json' could not be read as GeoJSON/,
      },
      { file: { filename: 'assets', data: Buffer.from('name,latitude,longitude\nA,22.3,114.2\n') }, expect: /no extension/ },
      { file: { filename: 'text.xlsx', data: Buffer.from('name,latitude,longitude\nA,22.3,114.2\n') }, expect: /named \.xlsx but holds text/ },
      {
        file: {
          filename: 'letter.xlsx',
          data: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml'), Buffer.alloc(2000, 1)]),
        },
        expect: /zip archive without an Excel workbook/,
      },
      {
        file: { filename: 'broken.xlsx', data: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]) },
        expect: /could not be read|no asset rows/,
      },
    ];
    for (const c of cases) {
      const res = await s.api.post('/api/v2/create_project/', { token: u.token, multipart: { portfolio_name: 'X', upload_file: c.file } });
      assert.equal(res.status, 400, `${c.file.filename}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, c.expect);
    }
    const none = await s.api.post('/api/v2/create_project/', { token: u.token, form: { portfolio_name: 'Nothing' } });
    assert.equal(none.status, 400);
    assert.match(none.body.detail, /data or upload_file is required/);
  });

  test('bad portfolio fields name the field', async () => {
    const u = await registerAndLogin(s.api);
    const data = JSON.stringify([{ name: 'A', latitude: 1, longitude: 2 }]);
    const cases: [Record<string, string>, string][] = [
      [{ data }, 'portfolio_name'],
      [{ portfolio_name: 'P', data, portfolio_variables: '["Volcano"]' }, 'portfolio_variables'],
      [{ portfolio_name: 'P', data, portfolio_variables: 'not json' }, 'portfolio_variables'],
      [{ portfolio_name: 'P', data, base_currency: 'EUR' }, 'base_currency'],
      [{ portfolio_name: 'P', data: '{"a":1}' }, 'data'],
      [{ portfolio_name: 'P', data, mode: 'merge' }, 'mode'],
      [{ portfolio_name: 'P', data, non_building_variables: '{"energy":["coal"]}' }, 'non_building_variables'],
    ];
    for (const [form, field] of cases) {
      const res = await s.api.post('/api/v2/create_project/', { token: u.token, form });
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.detail.includes(field), `${field} named in "${res.body.detail}"`);
    }
    const anon = await s.api.post('/api/v2/create_project/', { form: { portfolio_name: 'P', data } });
    assert.equal(anon.status, 401);
  });

  test('the asset limit of the tier is enforced on the server with the spec message, also when adding', async () => {
    const u = await registerAndLogin(s.api); // free tier: 100 assets
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `A${i}`, latitude: 10 + i / 100, longitude: 100 }));
    const res = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Too many', data: many } });
    assert.equal(res.status, 400);
    assert.equal(res.body.detail, 'You are only allowed to add 100 assets for Analysis');
    assert.equal(res.body.assets_allowed, 100);
    const ok = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Fits', data: many.slice(0, 100) } });
    assert.equal(ok.status, 201);
    const more = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Fits', mode: 'add', data: [{ name: 'Extra', latitude: 1, longitude: 1 }] },
    });
    assert.equal(more.status, 400);
    assert.equal(more.body.detail, 'You are only allowed to add 100 assets for Analysis');
    const count = await s.db
      .selectFrom('assets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', ok.body.project.project_id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 100);
  });

  test('names are unique per owner; add and overwrite change an existing portfolio', async () => {
    const u = await registerAndLogin(s.api);
    const one = [{ name: 'A', latitude: 22.3, longitude: 114.2 }];
    assert.equal(
      (
        await s.api.post('/api/v2/create_project/', {
          token: u.token,
          json: { portfolio_name: 'Mine', data: one, portfolio_variables: ['Drought'], analysis_type: 'rcp' },
        })
      ).status,
      201,
    );
    const dup = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'mine', data: one } });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.errors[0].field, 'portfolio_name');
    const add = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Mine', mode: 'add', data: [{ name: 'B', latitude: 22.4, longitude: 114.1 }] },
    });
    assert.equal(add.status, 201);
    assert.equal(add.body.project.assets, 2);
    const kept = await s.db
      .selectFrom('projects')
      .select(['portfolio_variables', 'default_filters'])
      .where('id', '=', add.body.project.project_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(kept.portfolio_variables, ['River Flood', 'Typhoon', 'Storm Surge', 'Drought'], 'adding keeps the hazards');
    assert.equal((kept.default_filters as { analysis_type: string }).analysis_type, 'rcp');
    const over = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Mine', mode: 'overwrite', data: [{ name: 'C', latitude: 1.3, longitude: 103.8 }] },
    });
    assert.equal(over.status, 201);
    const names = await s.db.selectFrom('assets').select('name').where('project_id', '=', over.body.project.project_id).execute();
    assert.deepEqual(
      names.map((n) => n.name),
      ['C'],
    );
    const missing = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Nope', mode: 'add', data: one } });
    assert.equal(missing.status, 400);
  });

  test('progress streams as server-sent events until the analysis is done; other companies get 404', async () => {
    const u = await registerAndLogin(s.api);
    const data = Array.from({ length: 50 }, (_, i) => ({ name: `S${i}`, latitude: -30 + i, longitude: 150 - i }));
    const res = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Streamed', data } });
    const id = res.body.project.project_id;
    const stream = await fetch(`${s.url}/api/v2/projects/${id}/progress/`, { headers: { authorization: `Token ${u.token}` } });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await stream.text();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
    assert.ok(events.length >= 1);
    assert.equal(events.at(-1).status, 'done');
    assert.equal(events.at(-1).progress, 1);
    const other = await registerAndLogin(s.api);
    assert.equal((await s.api.get(`/api/v2/projects/${id}/status/`, { token: other.token })).status, 404);
    assert.equal((await fetch(`${s.url}/api/v2/projects/${id}/progress/`, { headers: { authorization: `Token ${other.token}` } })).status, 404);
  });

  test('a portfolio above 2,000 assets is analysed on worker threads and stored in chunks of 500', async () => {
    const u = await registerAndLogin(s.api);
    await s.db.updateTable('companies').set({ assets_allowed: 5000 }).where('code', '=', u.company_code).execute();
    const data = Array.from({ length: 2100 }, (_, i) => ({ name: `W${i}`, latitude: -50 + (i % 100), longitude: -175 + ((i * 13) % 350), valuation: 1e6 }));
    const res = await s.api.post('/api/v2/create_project/', { token: u.token, json: { portfolio_name: 'Threads', data } });
    assert.equal(res.status, 201);
    const done = await waitForAnalysis(s, u.token, res.body.project.project_id, 180_000);
    assert.equal(done.status, 'done', JSON.stringify(done));
    const chunks = await s.db
      .selectFrom('analysis_results')
      .select(['chunk_start', 'chunk_count'])
      .where('project_id', '=', res.body.project.project_id)
      .orderBy('chunk_start')
      .execute();
    assert.deepEqual(
      chunks.map((c) => c.chunk_start),
      [0, 500, 1000, 1500, 2000],
    );
    assert.equal(chunks.at(-1)!.chunk_count, 100);
  });

  test('the upload template is a real .xlsx in the spec column order with an example row and instructions', async () => {
    const u = await registerAndLogin(s.api);
    const res = await fetch(`${s.url}/api/v2/download_upload_csv_template/?unit=meter&currency=USD`, { headers: { authorization: `Token ${u.token}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', /asset_upload_template_\d{8}T\d{6}\.xlsx/);
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: 'buffer' });
    assert.deepEqual(wb.SheetNames, ['Assets', 'Instructions']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Assets!, { header: 1 });
    assert.deepEqual(
      (rows[0] as string[]).map((h) => h.replace(/ \(.*\)$/, '')),
      HEADER,
    );
    assert.equal(rows.length, 2);
    const bad = await s.api.get('/api/v2/download_upload_csv_template/?currency=EUR', { token: u.token });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /currency/);
    // The template itself uploads cleanly.
    const up = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      multipart: { portfolio_name: 'From template', upload_file: { filename: 't.xlsx', data: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) } },
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
  });
});
