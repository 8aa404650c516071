import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

describe('geocoding, company search and index portfolios', () => {
  let s: TestServer;
  let u: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer({}, { jobs: true });
    u = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test('reverse geocoding names the place, country and Hong Kong district; bad coordinates are 400', async () => {
    const hk = await s.api.get('/api/v2/geocode/reverse/?latitude=22.2819&longitude=114.1585', { token: u.token });
    assert.equal(hk.status, 200, JSON.stringify(hk.body));
    assert.equal(hk.body.country_code, 'HK');
    assert.ok(hk.body.district, 'district in Hong Kong');
    assert.ok(hk.body.label.length > 3);
    const paris = await s.api.get('/api/v2/geocode/reverse/?latitude=48.8566&longitude=2.3522', { token: u.token });
    assert.equal(paris.body.country_code, 'FR');
    const bad = await s.api.get('/api/v2/geocode/reverse/?latitude=91&longitude=0', { token: u.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'latitude');
  });

  test('forward search tolerates typos and needs 2 characters', async () => {
    const res = await s.api.get('/api/v2/geocode/search/?q=Londn', { token: u.token });
    assert.equal(res.status, 200);
    assert.ok(
      res.body.some((r: { country_code: string; name: string }) => r.country_code === 'GB' && /London/.test(r.name)),
      JSON.stringify(res.body.slice(0, 2)),
    );
    assert.ok(res.body.length <= 5);
    const short = await s.api.get('/api/v2/geocode/search/?q=L', { token: u.token });
    assert.equal(short.status, 400);
    assert.equal(short.body.errors[0].field, 'q');
  });

  test('company search finds names and tickers, grouped by index, with location basis', async () => {
    const res = await s.api.post('/api/search/deepsearch/', { token: u.token, form: { search_term: 'Tencent' } });
    assert.equal(res.status, 200);
    const hit = res.body.hits.find((h: { ticker: string }) => /0700/.test(h.ticker));
    assert.ok(hit, JSON.stringify(res.body.hits.slice(0, 3)));
    assert.ok(res.body.grouped_hits.HSI?.length >= 1);
    assert.equal(typeof hit.approximate, 'boolean');
    assert.ok(hit.location_basis);
    // Prefix, typo and ticker matching; an index filter; too-short names match tickers only.
    const search = async (body: Record<string, unknown>) => (await s.api.post('/api/search/deepsearch/', { token: u.token, json: body })).body;
    assert.match((await search({ search_term: 'Tenc' })).hits[0].company_name, /Tencent/i, 'name prefix');
    assert.match((await search({ search_term: 'Tencnet' })).hits[0].company_name, /Tencent/i, 'a typo still finds it');
    assert.ok(
      (await search({ search_term: 'holdings hsbc' })).hits.some((h: { company_name: string }) => /HSBC/.test(h.company_name)),
      'words in any order',
    );
    assert.equal((await search({ search_term: '0700' })).hits[0].ticker, '0700.HK', 'a listing code');
    assert.ok(
      (await search({ search_term: 'bank', index: 'hsi' })).hits.every(
        (h: { index: string; indices: string[] }) => h.index === 'HSI' && h.indices.includes('HSI'),
      ),
    );
    const unknownIndex = await s.api.post('/api/search/deepsearch/', { token: u.token, json: { search_term: 'bank', index: 'NOPE' } });
    assert.equal(unknownIndex.status, 400);
    assert.equal(unknownIndex.body.errors[0].field, 'index');
    // The search reads the database: a company removed from the table is no longer found.
    const loaded = await s.db
      .selectFrom('listed_companies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(loaded.n) > 1000, `companies are loaded (${loaded.n})`);
    await s.db.deleteFrom('listed_companies').where('ticker', '=', '0700.HK').execute();
    assert.ok(!(await search({ search_term: 'Tencent' })).hits.some((h: { ticker: string }) => h.ticker === '0700.HK'));
    const site = await s.api.post('/api/search/deepsearch/', { token: u.token, form: { website: 'https://example.com', parser: 'x' } });
    assert.equal(site.status, 400);
    assert.equal(site.body.errors[0].field, 'website');
  });

  test('indices list HSI as default; adding an index creates an analysed portfolio with country codes', async () => {
    await s.db.updateTable('companies').set({ assets_allowed: 1000 }).execute();
    const list = await s.api.get(`/api/asset/index/${u.userId}/`, { token: u.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.indices.find((i: { default: boolean }) => i.default).index_name, 'HSI');
    const members = await s.api.get(`/api/asset/index/${u.userId}/?index=HSI`, { token: u.token });
    assert.ok(members.body.members.length > 50);
    const res = await s.api.post(`/api/asset/index/${u.userId}/`, { token: u.token, form: { index_name: 'HSI', portfolio_name: 'HSI benchmark' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const assets = await s.db.selectFrom('assets').select(['country_code']).where('project_id', '=', res.body.project.project_id).execute();
    assert.ok(assets.length > 50);
    assert.ok(
      assets.every((a) => a.country_code !== null),
      'every member has a country',
    );
    // Spec 000 §9: a benchmark portfolio includes all ten hazards (every hazard but the SSP-only Extreme Cold).
    const project = await s.db.selectFrom('projects').select(['portfolio_variables']).where('id', '=', res.body.project.project_id).executeTakeFirstOrThrow();
    const variables = project.portfolio_variables as string[];
    assert.equal(variables.length, 10, variables.join(', '));
    assert.ok(!variables.includes('Extreme Cold') && variables.includes('Drought') && variables.includes('River Flood'));
    // Company locations chosen from the search: all ten hazards too, and the tickers are kept.
    const hit = (await s.api.post('/api/search/deepsearch/', { token: u.token, json: { search_term: 'HSBC' } })).body.hits[0];
    const company = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: {
        portfolio_name: 'HSBC sites',
        ticker: hit.ticker,
        is_benchmark: false,
        data: [{ name: hit.company_name, latitude: hit.latitude, longitude: hit.longitude, country_code: hit.country_code }],
      },
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    const cp = await s.db
      .selectFrom('projects')
      .select(['portfolio_variables', 'ticker'])
      .where('id', '=', company.body.project.project_id)
      .executeTakeFirstOrThrow();
    assert.equal((cp.portfolio_variables as string[]).length, 10);
    assert.equal(cp.ticker, hit.ticker);
    const bad = await s.api.post(`/api/asset/index/${u.userId}/`, { token: u.token, form: { index_name: 'NOPE', portfolio_name: 'x' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'index_name');
  });
});
