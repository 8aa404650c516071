import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

type Login = Awaited<ReturnType<typeof registerAndLogin>>;
interface Who {
  token: string;
  userId: number;
  username: string;
}

async function colleague(s: TestServer, admin: Login): Promise<Who> {
  const u = newUser({ company_code: admin.company_code });
  const reg = await s.api.post('/api/user/register/', { json: u });
  await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: admin.token });
  const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: admin.company_code } });
  return { token: login.body.token, userId: reg.body.user.id, username: u.username };
}

/* Same hand-worked portfolio as packages/engine/test/carbon.test.ts, A and C reported; B (Chinese coal) projected with the committed factor. */
const COMPANIES = [
  {
    company_name: 'A',
    investment_in_usd: 2_000_000,
    nav_in_perc: 0,
    market_cap_in_usd: 100_000_000,
    revenue_in_usd: 50_000_000,
    scope_1_and_2_GHG_emission: 10_000,
    region: 'Europe',
    sector: 'Chemicals',
  },
  {
    company_name: 'B',
    investment_in_usd: 3_000_000,
    nav_in_perc: 0,
    market_cap_in_usd: 30_000_000,
    revenue_in_usd: 20_000_000,
    scope_1_and_2_GHG_emission: 0,
    region: 'China',
    sector: 'Coal',
  },
  {
    company_name: 'C',
    investment_in_usd: 5_000_000,
    nav_in_perc: 0,
    market_cap_in_usd: 250_000_000,
    revenue_in_usd: 100_000_000,
    scope_1_and_2_GHG_emission: 2_000,
    region: 'Japan',
    sector: 'Software & IT Services',
  },
];
const close = (a: number, b: number, eps = 1e-6) => assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `expected ${b}, got ${a}`);

describe('carbon module calls', () => {
  let s: TestServer;
  let owner: Login;
  let writer: Who;
  let reader: Who;
  let stranger: Login;
  const create = (token: string, userId: number, body: Record<string, unknown>) =>
    s.api.post(`/api/report/create_carbon_analysis/${userId}/`, { token, json: body });

  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
    writer = await colleague(s, owner);
    reader = await colleague(s, owner);
    stranger = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test('create from companies_data (201), then project fetch gives the PCAF/TCFD outputs with B projected', async () => {
    const res = await create(owner.token, owner.userId, { portfolio_name: 'Green Fund', portfolio_value: 10_000_000, companies_data: COMPANIES });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.created, true);
    assert.equal(res.body.project.project_name, 'Green Fund');
    assert.equal(res.body.project.companies, 3);

    const factors = await s.api.get('/api/report/carbon_factors/', { token: owner.token });
    assert.equal(factors.status, 200);
    assert.equal(factors.body.sectors.length, 29);
    assert.equal(factors.body.regions.length, 12);
    const coalChina = factors.body.factors['Coal']['China'] as number;
    assert.ok(coalChina > 0);
    assert.ok(factors.body.sources.some((x: { id: string }) => x.id === 'epa-useeio-v1.3'));

    const out = await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, form: { portfolio_name: 'green fund' } });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const [a, b, c] = out.body.table_data;
    assert.deepEqual(
      Object.keys(out.body.portfolio)
        .filter((k) => k.endsWith('portfolio'))
        .sort(),
      ['projected_scope_1_and_2_portfolio', 'total_carbon_emission_portfolio', 'weighted_average_carbon_intensity_portfolio'],
    );
    assert.equal(a.emission_source, 'reported');
    close(a.total_carbon_emission, 200);
    close(a.carbon_footprint, 100);
    close(a.carbon_intensity, 200);
    close(a.weighted_average_carbon_intensity, 40);
    close(a.nav_in_perc, 20);
    // B: 0 means "not reported": projected = revenue 20 $M x factor.
    assert.equal(b.emission_source, 'projected');
    const eB = 20 * coalChina;
    close(b.projected_scope_1_and_2_GHG_emission, eB);
    close(b.total_carbon_emission, 0.1 * eB);
    close(b.carbon_intensity, eB / 20);
    close(c.total_carbon_emission, 40);
    const p = out.body.portfolio;
    close(p.total_carbon_emission_portfolio, 200 + 0.1 * eB + 40);
    close(p.carbon_footprint, (200 + 0.1 * eB + 40) / 10);
    close(p.carbon_intensity, (200 + 0.1 * eB + 40) / 5);
    close(p.weighted_average_carbon_intensity_portfolio, 40 + 0.3 * (eB / 20) + 10);
    close(p.projected_scope_1_and_2_portfolio, 12_000 + eB);
    assert.equal(p.projected_companies, 1);
    assert.deepEqual(out.body.by_sector.map((g: { key: string }) => g.key).sort(), ['Chemicals', 'Coal', 'Software & IT Services']);
    assert.equal(out.body.units.carbon_footprint, 'tCO2e per USD million invested');
  });

  test('project data fetch returns the inputs as entered, NAV% computed, unreported scope as null', async () => {
    const res = await s.api.post(`/api/report/get_carbon_analysis_data/${owner.userId}/`, { token: owner.token, json: { portfolio_name: 'Green Fund' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.portfolio_value, 10_000_000);
    assert.equal(res.body.companies_data.length, 3);
    assert.equal(res.body.companies_data[1].scope_1_and_2_GHG_emission, null);
    close(res.body.companies_data[2].nav_in_perc, 50);
    assert.equal(res.body.companies_data[0].sector, 'Chemicals');
  });

  test('the project list shows name and created date; a duplicate name is refused unless overwrite is on', async () => {
    const list = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`, { token: owner.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 1);
    assert.equal(list.body.data[0].project_name, 'Green Fund');
    assert.match(list.body.data[0].created_at, /^\d{4}-\d{2}-\d{2}T/);

    const dup = await create(owner.token, owner.userId, { portfolio_name: 'GREEN FUND', portfolio_value: 10_000_000, companies_data: COMPANIES });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.errors[0].field, 'portfolio_name');
    assert.match(dup.body.detail, /already have a carbon project named 'Green Fund'/);
    const over = await create(owner.token, owner.userId, {
      portfolio_name: 'Green Fund',
      portfolio_value: 10_000_000,
      companies_data: COMPANIES.slice(0, 2),
      overwrite: true,
    });
    assert.equal(over.status, 201, JSON.stringify(over.body));
    assert.equal(over.body.created, false);
    assert.equal(over.body.project.companies, 2);
    const again = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`, { token: owner.token });
    assert.equal(again.body.count, 1);
  });

  test('validation errors name the row and the column, and nothing is saved', async () => {
    const bad = [COMPANIES[0], { ...COMPANIES[1], market_cap_in_usd: 0 }, { ...COMPANIES[2], region: 'Atlantis', sector: 'Alchemy', revenue_in_usd: 'lots' }];
    const res = await create(owner.token, owner.userId, { portfolio_name: 'Broken', portfolio_value: 10_000_000, companies_data: bad });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.detail, /^4 problems in the company rows\. Row 2, market_cap_in_usd: must be greater than 0/);
    assert.deepEqual(
      res.body.errors.map((e: { field: string }) => e.field),
      ['companies_data[1].market_cap_in_usd', 'companies_data[2].revenue_in_usd', 'companies_data[2].region', 'companies_data[2].sector'],
    );
    assert.ok(res.body.error.some((m: string) => m.startsWith("Row 3, region: 'Atlantis' is not a region")));
    assert.ok(res.body.error.some((m: string) => m.startsWith("Row 3, revenue_in_usd: 'lots' is not a number")));

    const more = await create(owner.token, owner.userId, { portfolio_name: 'Broken', portfolio_value: 1_000_000, companies_data: COMPANIES });
    assert.equal(more.status, 400);
    assert.equal(more.body.errors[0].field, 'portfolio_value');
    assert.match(more.body.detail, /investments add up to USD 10,000,000/);

    const over100 = await create(owner.token, owner.userId, {
      portfolio_name: 'Broken',
      portfolio_value: 1e12,
      companies_data: [{ ...COMPANIES[0], investment_in_usd: 2e8 }],
    });
    assert.equal(over100.status, 400);
    assert.match(over100.body.detail, /Row 1, investment_in_usd: .*more than the market capitalisation/);

    const noValue = await create(owner.token, owner.userId, { portfolio_name: 'Broken', companies_data: COMPANIES });
    assert.equal(noValue.status, 400);
    assert.equal(noValue.body.errors[0].field, 'portfolio_value');
    const noName = await create(owner.token, owner.userId, { portfolio_name: '  ', portfolio_value: 1e7, companies_data: COMPANIES });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.errors[0].field, 'portfolio_name');
    const noRows = await create(owner.token, owner.userId, { portfolio_name: 'Broken', portfolio_value: 1e7 });
    assert.equal(noRows.status, 400);
    assert.equal(noRows.body.errors[0].field, 'companies_data');
    const notList = await create(owner.token, owner.userId, { portfolio_name: 'Broken', portfolio_value: 1e7, companies_data: '{"a":1' });
    assert.equal(notList.status, 400);
    assert.match(notList.body.detail, /companies_data must be a JSON list/);

    const list = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`, { token: owner.token });
    assert.deepEqual(
      list.body.data.map((p: { project_name: string }) => p.project_name),
      ['Green Fund'],
    );
  });

  test('CSV upload: the template round-trips, an empty scope 1+2 becomes 0 then projected, and CSV errors give the spreadsheet row', async () => {
    const tpl = await s.api.get('/api/report/carbon_template/', { token: owner.token });
    assert.equal(tpl.status, 200);
    assert.match(tpl.headers.get('content-type') ?? '', /text\/csv/);
    assert.match(tpl.headers.get('content-disposition') ?? '', /carbon_template_\d{8}T\d{6}\.csv/);
    const csv = String(tpl.body).replace(/^\uFEFF/, '');
    assert.ok(csv.startsWith('company_name,investment_in_usd,nav_in_perc,market_cap_in_usd,revenue_in_usd,scope_1_and_2_GHG_emission,region,sector'));
    const up = await s.api.post(`/api/report/create_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      multipart: {
        portfolio_name: 'From CSV',
        portfolio_value: '10000000',
        uploaded_file: { filename: 'carbon.csv', data: Buffer.from(csv), type: 'text/csv' },
      },
    });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.project.companies, 2);
    const out = await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, json: { portfolio_name: 'From CSV' } });
    assert.deepEqual(
      out.body.table_data.map((r: { emission_source: string }) => r.emission_source),
      ['reported', 'projected'],
    );
    assert.ok(out.body.table_data[1].projected_scope_1_and_2_GHG_emission > 0);

    const badCsv =
      'company_name,investment_in_usd,market_cap_in_usd,revenue_in_usd,scope_1_and_2_GHG_emission,region,sector\nOK Co,100,1000,1000,,Europe,Insurance\nBad Co,100,abc,1000,5,Europe,Insurance\n';
    const bad = await s.api.post(`/api/report/create_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      multipart: { portfolio_name: 'Bad CSV', portfolio_value: '1000', uploaded_file: { filename: 'bad.csv', data: Buffer.from(badCsv), type: 'text/csv' } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, "Row 3, market_cap_in_usd: 'abc' is not a number.");
    assert.equal(bad.body.errors[0].field, 'uploaded_file.row3.market_cap_in_usd');
  });

  test('modify re-computes; a bad modify keeps the saved rows', async () => {
    const before = await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, json: { portfolio_name: 'Green Fund' } });
    const rows = [{ ...COMPANIES[0], scope_1_and_2_GHG_emission: 20_000 }];
    const res = await s.api.post(`/api/report/modify_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      form: { portfolio_name: 'Green Fund', portfolio_value: '4000000', companies_data: JSON.stringify(rows) },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, json: { portfolio_name: 'Green Fund' } });
    assert.notDeepEqual(after.body.portfolio, before.body.portfolio);
    close(after.body.portfolio.total_carbon_emission_portfolio, 400); // 0.02 x 20,000
    close(after.body.portfolio.carbon_footprint, 100); // 400 / 4 $M
    close(after.body.table_data[0].nav_in_perc, 50);
    const bad = await s.api.post(`/api/report/modify_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      json: { portfolio_name: 'Green Fund', portfolio_value: 4_000_000, companies_data: [{ ...rows[0], sector: '' }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, 'Row 1, sector: is required.');
    const kept = await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, json: { portfolio_name: 'Green Fund' } });
    close(kept.body.portfolio.total_carbon_emission_portfolio, 400);
    const missing = await s.api.post(`/api/report/modify_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      json: { portfolio_name: 'Nope', portfolio_value: 1, companies_data: rows },
    });
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /portfolio_name: no project named 'Nope'/);
  });

  test('download: rows as JSON, CSV and XLSX, with the portfolio total row', async () => {
    const path = `/api/report/get_carbon_analysis/${owner.userId}/download/`;
    const json = await s.api.post(path, { token: owner.token, json: { portfolio_name: 'Green Fund' } });
    assert.equal(json.status, 200, JSON.stringify(json.body));
    assert.equal(json.body.rows.length, 2);
    assert.equal(json.body.rows[1].company_name, 'Portfolio total');
    assert.equal(json.body.rows[0].total_carbon_emission, 400);
    assert.ok(json.body.columns.includes('weighted_average_carbon_intensity'));
    // PCAF data-quality score per holding (2 reported, 4 projected) and investment-weighted on the total row.
    assert.ok(json.body.columns.includes('pcaf_data_quality_score'));
    assert.equal(json.body.rows[0].emission_source, 'reported');
    assert.equal(json.body.rows[0].pcaf_data_quality_score, 2);
    assert.equal(json.body.rows[1].pcaf_data_quality_score, 2);
    const csv = await s.api.post(path, { token: owner.token, json: { portfolio_name: 'Green Fund', format: 'csv' } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-disposition') ?? '', /Green_Fund_carbon_\d{8}T\d{6}\.csv/);
    const lines = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    assert.equal(lines.length, 3);
    assert.ok(lines[0]!.startsWith('company_name,region,sector,investment_in_usd'));
    const res = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ portfolio_name: 'Green Fund', format: 'xlsx' }),
    });
    assert.equal(res.status, 200);
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: 'buffer' });
    assert.deepEqual(wb.SheetNames, ['Carbon', 'About']);
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets['Carbon']!);
    assert.equal(sheet[0]!.company_name, 'A');
    assert.equal(sheet[0]!.pcaf_data_quality_score, 2);
    assert.ok(lines[0]!.includes(',pcaf_data_quality_score,'), 'the CSV has the column');
    const about = XLSX.utils.sheet_to_json<string[]>(wb.Sheets['About']!, { header: 1 });
    assert.ok(
      about.some((r) => r[0] === 'PCAF data-quality score'),
      'the About sheet explains the score',
    );
    const bad = await s.api.post(path, { token: owner.token, json: { portfolio_name: 'Green Fund', format: 'pdf' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /format must be json, csv or xlsx/);
  });

  test('permissions: sharing like physical projects; another company and another user id get 404; no token 401', async () => {
    const list = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`, { token: owner.token });
    const id = list.body.data.find((p: { project_name: string }) => p.project_name === 'Green Fund').project_id;
    const name = { portfolio_name: 'Green Fund' };

    for (const path of ['get_carbon_analysis', 'get_carbon_analysis_data', 'delete_carbon_analysis', 'get_carbon_analysis/{id}/download']) {
      const p = path.includes('{id}') ? `/api/report/${path.replace('{id}', String(stranger.userId))}/` : `/api/report/${path}/${stranger.userId}/`;
      const res = await s.api.post(p, { token: stranger.token, json: name });
      assert.equal(res.status, 404, `${path}: ${JSON.stringify(res.body)}`);
    }
    const strangerList = await s.api.get(`/api/report/get_carbon_project_list/${stranger.userId}/`, { token: stranger.token });
    assert.equal(strangerList.body.count, 0);
    const otherId = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`, { token: stranger.token });
    assert.equal(otherId.status, 404);
    const noToken = await s.api.get(`/api/report/get_carbon_project_list/${owner.userId}/`);
    assert.equal(noToken.status, 401);

    // Colleagues see nothing until it is shared.
    const hidden = await s.api.post(`/api/report/get_carbon_analysis/${reader.userId}/`, { token: reader.token, json: name });
    assert.equal(hidden.status, 404);
    assert.equal(
      (
        await s.api.post('/api/v2/share_project/', {
          token: owner.token,
          form: { project_id: id, share_with: JSON.stringify([reader.userId]), permission: 'read' },
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await s.api.post('/api/v2/share_project/', {
          token: owner.token,
          form: { project_id: id, share_with: JSON.stringify([writer.userId]), permission: 'write' },
        })
      ).status,
      201,
    );

    const readerList = await s.api.get(`/api/report/get_carbon_project_list/${reader.userId}/`, { token: reader.token });
    assert.equal(readerList.body.data[0].permission, 'read');
    assert.equal((await s.api.post(`/api/report/get_carbon_analysis/${reader.userId}/`, { token: reader.token, json: name })).status, 200);
    const readerEdit = await s.api.post(`/api/report/modify_carbon_analysis/${reader.userId}/`, {
      token: reader.token,
      json: { ...name, portfolio_value: 4e6, companies_data: COMPANIES.slice(0, 1) },
    });
    assert.equal(readerEdit.status, 403);
    const writerEdit = await s.api.post(`/api/report/modify_carbon_analysis/${writer.userId}/`, {
      token: writer.token,
      json: { ...name, portfolio_value: 4e6, companies_data: COMPANIES.slice(0, 1) },
    });
    assert.equal(writerEdit.status, 200, JSON.stringify(writerEdit.body));
    const writerDelete = await s.api.post(`/api/report/delete_carbon_analysis/${writer.userId}/`, { token: writer.token, json: name });
    assert.equal(writerDelete.status, 403);

    const del = await s.api.post(`/api/report/delete_carbon_analysis/${owner.userId}/`, { token: owner.token, json: name });
    assert.equal(del.status, 201, JSON.stringify(del.body));
    assert.equal((await s.api.post(`/api/report/get_carbon_analysis/${owner.userId}/`, { token: owner.token, json: name })).status, 404);
    assert.equal((await s.api.get(`/api/report/get_carbon_project_list/${reader.userId}/`, { token: reader.token })).body.count, 0);
    const again = await s.api.post(`/api/report/delete_carbon_analysis/${owner.userId}/`, { token: owner.token, json: name });
    assert.equal(again.status, 404);
  });
});
