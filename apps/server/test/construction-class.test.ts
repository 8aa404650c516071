/**
 * Construction class of an asset (issue 33 item 6): the optional `construction` column of CSV/XLSX uploads and JSON
 * locations is stored (migration 0025), a value that is not a class is refused naming the row and the column, and the
 * stored class reaches the analysis: the typhoon loss of a wood building differs from the same building of unknown
 * construction (Hazus curve instead of the regional Emanuel curve), the other hazards do not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import type { AssetResult } from '@crp/contracts';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const csvOf = (rows: unknown[][]) => rows.map((r) => r.map(String).join(',')).join('\r\n');

describe('construction class: uploads, storage and the wind loss of the analysis', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({}, { jobs: true });
  });
  after(() => s.close());

  test('CSV and XLSX columns are stored as the class (synonyms and case normalised, empty = unknown); a bad value is a 400 naming row and column', async () => {
    const u = await onPaidPlan(s, await registerAndLogin(s.api));
    const header = ['name', 'lat', 'long', 'property type', 'floors', 'Construction Type'];
    const rows = [
      ['Tower', 22.28, 114.16, 'Office', 30, 'Reinforced concrete'],
      ['House', 22.3, 114.2, 'Residential', 2, 'Timber'],
      ['Shed', 22.31, 114.21, 'Warehouse', 1, ''],
      ['Depot', 22.32, 114.22, 'Warehouse', 1, 'STEEL'],
    ];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([header, ...rows]), 'Assets');
    const files = [
      { filename: 'c.csv', data: Buffer.from(csvOf([header, ...rows])) },
      { filename: 'c.xlsx', data: XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer },
    ];
    for (const [i, file] of files.entries()) {
      const res = await s.api.post('/api/v2/create_project/', { token: u.token, multipart: { portfolio_name: `Construction ${i}`, upload_file: file } });
      assert.equal(res.status, 201, `${file.filename}: ${JSON.stringify(res.body)}`);
      const assets = await s.db.selectFrom('assets').selectAll().where('project_id', '=', res.body.project.project_id).orderBy('position').execute();
      assert.deepEqual(
        assets.map((a) => a.construction),
        ['concrete', 'wood', null, 'steel'],
        file.filename,
      );
    }
    const bad = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      multipart: {
        portfolio_name: 'Bad construction',
        upload_file: { filename: 'bad.csv', data: Buffer.from(csvOf([header, rows[0]!, ['Hut', 22.33, 114.23, 'Residential', 1, 'adobe']])) },
      },
    });
    assert.equal(bad.status, 400);
    assert.ok(
      (bad.body.error as string[]).some((e) => e === "Row 3: construction 'adobe' is not a construction class (concrete, steel, masonry, wood, manufactured)"),
      JSON.stringify(bad.body),
    );
    // JSON locations carry it too, and the database refuses anything else
    const json = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'JSON construction', data: [{ name: 'Hall', latitude: 22.3, longitude: 114.2, construction: 'masonry' }] },
    });
    assert.equal(json.status, 201, JSON.stringify(json.body));
    const hall = await s.db
      .selectFrom('assets')
      .select(['id', 'construction'])
      .where('project_id', '=', json.body.project.project_id)
      .executeTakeFirstOrThrow();
    assert.equal(hall.construction, 'masonry');
    // the database's CHECK refuses what the type would: a value past the types, as a raw write could send it
    await assert.rejects(
      s.db
        .updateTable('assets')
        .set({ construction: 'adobe' as never })
        .where('id', '=', hall.id)
        .execute(),
    );
  });

  test("the analysis uses the stored class: a wood house's typhoon loss is not the unknown house's, its flood loss is", async () => {
    const u = await onPaidPlan(s, await registerAndLogin(s.api));
    const house = { latitude: 14.58, longitude: 120.98, property_type: 'Residential', valuation: 1e6, floors: 2 };
    const res = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: {
        portfolio_name: 'Manila houses',
        portfolio_variables: ['Typhoon', 'River Flood'],
        data: [
          { name: 'Unknown', ...house },
          { name: 'Wood', ...house, construction: 'wood' },
          { name: 'Concrete', ...house, construction: 'concrete' },
        ],
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const projectId = res.body.project.project_id;
    const done = await waitForAnalysis(s, u.token, projectId);
    assert.equal(done.status, 'done', JSON.stringify(done));
    const out = await s.api.post('/api/v2/asset_results/', {
      token: u.token,
      json: { project_id: projectId, hazards: ['typhoon', 'river_flood'], scenarios: ['85'], years: [2050] },
    });
    assert.equal(out.status, 200, JSON.stringify(out.body).slice(0, 400));
    const rows = out.body.results as AssetResult[];
    const get = (name: string, h: string) => rows.find((r) => r.asset_name === name && r.hazard === h)!;
    const [unknown, wood, concrete] = ['Unknown', 'Wood', 'Concrete'].map((n) => get(n, 'typhoon').expected_annual_loss_usd!);
    assert.ok(unknown! > 0 && wood! > 0 && concrete! > 0, `${unknown} ${wood} ${concrete}`);
    // Hazus WSF2 (wood single-family, 2 storeys) far above CERBL (concrete residential low-rise) at the same wind
    assert.ok(wood! > 2 * concrete!, `wood ${wood} vs concrete ${concrete}`);
    assert.notEqual(unknown, wood);
    assert.equal(get('Wood', 'river_flood').expected_annual_loss_usd, get('Unknown', 'river_flood').expected_annual_loss_usd);
    // the same figures as the results API computes for the same assets posted now
    const posted = await s.api.post('/api/v2/asset_results/', {
      token: u.token,
      json: { assets: [{ name: 'Wood', ...house, construction: 'wood' }], hazards: ['typhoon'], scenarios: ['85'], years: [2050] },
    });
    assert.equal(posted.status, 200);
    assert.equal((posted.body.results as AssetResult[])[0]!.expected_annual_loss_usd, wood);
  });
});
