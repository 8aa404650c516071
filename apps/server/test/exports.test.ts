import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { PERILS_NOT_MODELLED_SHARE } from '@crp/contracts';
import { newUser, onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

describe('exports: CSV report and summary as xlsx behind expiring links', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    const data = [
      { name: '=HYPERLINK("http://evil.example","click")', latitude: 22.3, longitude: 114.17, property_type: 'Office', valuation: 1e8, revenue: 2e7 },
      { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
      { name: 'Madrid office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 },
    ];
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Export me', data, portfolio_variables: ['Extreme Heat', 'Drought'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await waitForAnalysis(s, owner.token, res.body.project.project_id);
  });
  after(() => s.close());

  test('download_csv_report returns rows and an xlsx with one row per asset x hazard x scenario x year; formulas are escaped', async () => {
    const res = await s.api.post('/api/v2/download_csv_report/', {
      token: owner.token,
      form: {
        project_name: 'Export me',
        climate_variables: JSON.stringify(['Typhoon', 'Extreme Heat']),
        year_list: JSON.stringify([2030, 2050]),
        scenario_list: JSON.stringify(['26', '85']),
        analysis_type: 'ssp',
        adjusted_gdp: 'false',
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    assert.equal(res.body.rows, 3 * 2 * 2 * 2);
    assert.equal(res.body.error, null);
    const first = res.body.success.find((r: { Hazard: string; Asset: string }) => r.Hazard === 'Typhoon' && r.Asset.startsWith('='));
    assert.ok(first.Intensity > 0 && first.Unit === 'm/s');
    assert.ok(first.Score >= 0 && first.Score <= 100);
    const file = await fetch(s.url + res.body.url);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-disposition') ?? '', /Export_me_analysis_\d{8}T\d{6}\.xlsx/);
    const wb = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: 'buffer' });
    assert.deepEqual(wb.SheetNames, ['Analysis', 'About']);
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Analysis!);
    assert.equal(rows.length, 24);
    for (const col of [
      'Asset',
      'Hazard',
      'Scenario',
      'Year',
      'Intensity',
      'Unit',
      'Score',
      'Band',
      'Expected annual loss (USD)',
      '20-year expected loss (USD)',
      'Residual 20-year expected loss (USD)',
      '20-year expected loss (%)',
    ])
      assert.ok(col in rows[0]!, `column ${col}`);
    assert.ok(!Object.keys(rows[0]!).some((k) => /CVaR/i.test(k)), 'no column calls the 20-year sum of expected losses CVaR (issue 35)');
    const evil = rows.find((r) => String(r.Asset).includes('HYPERLINK'))!;
    assert.ok(String(evil.Asset).startsWith("'="), 'formula cell escaped');
    const cells = Object.values(wb.Sheets.Analysis!).filter((c): c is XLSX.CellObject => !!c && typeof c === 'object' && 't' in c);
    assert.ok(
      cells.every((c) => !c.f),
      'no formula cells',
    );
    const about = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.About!, { header: 1 });
    assert.ok(about.some((r) => r[0] === 'Methodology version'));
    assert.ok(
      about.some((r) => r[0] === 'Not modelled' && String(r[1]).includes(PERILS_NOT_MODELLED_SHARE)),
      'the perils not modelled',
    );
    assert.ok(!about.flat().some((v) => /CVaR/.test(String(v))), 'the definitions say 20-year expected loss');
  });

  test('summary_report gives a workbook with portfolio, hazard and asset sheets', async () => {
    const res = await s.api.post('/api/v2/summary_report/', {
      token: owner.token,
      form: { project_name: 'Export me', analysis_type: 'rcp', has_mitigation: 'true' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const file = await fetch(s.url + res.body.url);
    const wb = XLSX.read(Buffer.from(await file.arrayBuffer()), { type: 'buffer' });
    assert.equal(wb.SheetNames[0], 'Portfolio');
    assert.equal(wb.SheetNames.length, 4);
    const portfolio = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Portfolio!);
    assert.equal(portfolio.length, 3 * 3, 'three RCP scenarios x three years');
    assert.ok(portfolio.every((r) => Number(r['Total asset value (USD)']) === 1.9e8));
  });

  test('errors: unknown project 404, bad years 400 with error, another company 404, a reader may download', async () => {
    const none = await s.api.post('/api/v2/download_csv_report/', { token: owner.token, form: { project_name: 'Nope' } });
    assert.equal(none.status, 404);
    const badYear = await s.api.post('/api/v2/download_csv_report/', {
      token: owner.token,
      form: { project_name: 'Export me', analysis_type: 'rcp', year_list: '[2100]' },
    });
    assert.equal(badYear.status, 400);
    assert.match(badYear.body.error, /2100/);
    const badHazard = await s.api.post('/api/v2/download_csv_report/', {
      token: owner.token,
      form: { project_name: 'Export me', climate_variables: '["Meteor"]' },
    });
    assert.equal(badHazard.status, 400);
    assert.match(badHazard.body.detail, /climate_variables/);
    const stranger = await onPaidPlan(s, await registerAndLogin(s.api));
    assert.equal((await s.api.post('/api/v2/summary_report/', { token: stranger.token, form: { project_name: 'Export me' } })).status, 404);

    const j = newUser({ company_code: owner.company_code });
    const reg = await s.api.post('/api/user/register/', { json: j });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
    const reader = await s.api.post('/api/user/rest_login/', { form: { username: j.username, password: j.password, company_code: owner.company_code } });
    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: list.body.data[0].project_id, share_with: JSON.stringify([reg.body.user.id]), permission: 'read' },
    });
    const ok = await s.api.post('/api/v2/summary_report/', { token: reader.body.token, form: { project_name: 'Export me' } });
    assert.equal(ok.status, 200);
  });

  test('get_link renews a link: the new one works, the old one stops; others cannot renew it', async () => {
    const res = await s.api.post('/api/v2/summary_report/', { token: owner.token, form: { project_name: 'Export me' } });
    const renewed = await s.api.post(`/api/report/get_link/${owner.userId}/`, { token: owner.token, form: { url: res.body.url } });
    assert.equal(renewed.status, 201, JSON.stringify(renewed.body));
    assert.notEqual(renewed.body.url, res.body.url);
    assert.equal((await fetch(s.url + renewed.body.url)).status, 200);
    assert.equal((await fetch(s.url + res.body.url)).status, 404);
    const stranger = await onPaidPlan(s, await registerAndLogin(s.api));
    assert.equal((await s.api.post(`/api/report/get_link/${stranger.userId}/`, { token: stranger.token, form: { url: renewed.body.url } })).status, 404);
    assert.equal((await s.api.post(`/api/report/get_link/${owner.userId}/`, { token: owner.token, form: {} })).status, 400);
  });

  test('file links: unknown 404, malformed 400, expired 410', async () => {
    assert.equal((await fetch(`${s.url}/api/v2/files/${'A'.repeat(43)}/x.xlsx`)).status, 404);
    assert.equal((await fetch(`${s.url}/api/v2/files/..%2F..%2Fetc/passwd`)).status, 400);
    const res = await s.api.post('/api/v2/summary_report/', { token: owner.token, form: { project_name: 'Export me' } });
    await s.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const gone = await fetch(s.url + res.body.url);
    assert.equal(gone.status, 410);
    assert.equal((await s.app.services.files.sweep()) > 0, true);
  });
});
