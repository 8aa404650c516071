import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TCFD_NOTE_MAX } from '@crp/contracts';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** The TCFD report's own text lives on the server per portfolio (issue 23 item 6, migration 0019). */
describe('TCFD narrative', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let reader: { token: string; userId: number };
  let writer: { token: string; userId: number };
  let projectId = 0;
  const path = () => `/api/v2/tcfd_narrative/${projectId}/`;

  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api, { first_name: 'Olive', last_name: 'Owner' });
    const member = async (first: string) => {
      const u = newUser({ company_code: owner.company_code, first_name: first, last_name: 'Member' });
      const reg = await s.api.post('/api/user/register/', { json: u });
      await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
      const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: owner.company_code } });
      assert.equal(login.status, 201, JSON.stringify(login.body));
      return { token: login.body.token as string, userId: reg.body.user.id as number };
    };
    reader = await member('Rita');
    writer = await member('Walt');
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Disclosed', data: [{ name: 'HQ', latitude: 22.28, longitude: 114.16 }], portfolio_variables: ['Extreme Heat'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    for (const [u, permission] of [
      [reader, 'read'],
      [writer, 'write'],
    ] as const) {
      const sh = await s.api.post('/api/v2/share_project/', {
        token: owner.token,
        form: { project_id: String(projectId), share_with: JSON.stringify([u.userId]), permission },
      });
      assert.equal(sh.status, 201, JSON.stringify(sh.body));
    }
  });
  after(async () => s?.close());

  test('empty until written; a write keeps the fields not sent; colleagues with access read the same text', async () => {
    const empty = await s.api.get(path(), { token: owner.token });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.deepEqual(empty.body, {
      project_id: projectId,
      governance_board: '',
      governance_management: '',
      risk_integration: '',
      targets: '',
      carbon_analysis: null,
      updated_at: null,
      updated_by: null,
    });

    const put = await s.api.request('PUT', path(), {
      token: owner.token,
      json: { governance_board: 'The risk committee reviews climate risk each quarter.', carbon_analysis: 'Green Fund' },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.governance_board, 'The risk committee reviews climate risk each quarter.');
    assert.equal(put.body.carbon_analysis, 'Green Fund');
    assert.equal(put.body.updated_by, 'Olive Owner');
    assert.ok(Date.parse(put.body.updated_at) > Date.now() - 60_000);

    const second = await s.api.request('PUT', path(), { token: writer.token, json: { targets: '香港 assets: residual CVaR below 2 % by 2030.' } });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.governance_board, 'The risk committee reviews climate risk each quarter.', 'a field not sent is kept');
    assert.equal(second.body.targets, '香港 assets: residual CVaR below 2 % by 2030.');
    assert.equal(second.body.updated_by, 'Walt Member');

    const seen = await s.api.get(path(), { token: reader.token });
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body, second.body, 'the reader sees what the writer saved');

    const unlink = await s.api.request('PUT', path(), { token: owner.token, json: { carbon_analysis: null } });
    assert.equal(unlink.body.carbon_analysis, null);
  });

  test('a reader may not write; another company gets 404; bad input is a 400 naming the field', async () => {
    const denied = await s.api.request('PUT', path(), { token: reader.token, json: { targets: 'x' } });
    assert.equal(denied.status, 403);
    assert.match(denied.body.detail, /read access to 'Disclosed'.*edit the report text/);
    const stranger = await registerAndLogin(s.api);
    assert.equal((await s.api.get(path(), { token: stranger.token })).status, 404);
    assert.equal((await s.api.request('PUT', path(), { token: stranger.token, json: { targets: 'x' } })).status, 404);
    const long = await s.api.request('PUT', path(), { token: owner.token, json: { targets: 'x'.repeat(TCFD_NOTE_MAX + 1) } });
    assert.equal(long.status, 400);
    assert.match(long.body.detail, /targets is longer than 10,000 characters/);
    const wrongType = await s.api.request('PUT', path(), { token: owner.token, json: { governance_board: 5 } });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.detail, /governance_board must be text/);
    const badId = await s.api.get('/api/v2/tcfd_narrative/abc/', { token: owner.token });
    assert.equal(badId.status, 400);
    assert.match(badId.body.detail, /projectId must be a number/);
    const carbon = await s.api.post(`/api/report/create_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      json: {
        portfolio_name: 'Not physical',
        portfolio_value: 1_000_000,
        companies_data: [
          {
            company_name: 'A',
            investment_in_usd: 1000,
            market_cap_in_usd: 1e6,
            revenue_in_usd: 1e6,
            scope_1_and_2_GHG_emission: 10,
            region: 'Europe',
            sector: 'Chemicals',
          },
        ],
      },
    });
    assert.equal(carbon.status, 201, JSON.stringify(carbon.body));
    const carbonId = (await s.db.selectFrom('projects').select('id').where('name', '=', 'Not physical').executeTakeFirstOrThrow()).id;
    const notPhysical = await s.api.get(`/api/v2/tcfd_narrative/${carbonId}/`, { token: owner.token });
    assert.equal(notPhysical.status, 400);
    assert.match(notPhysical.body.detail, /^projectId: 'Not physical' is not a physical-risk portfolio/);
  });

  test('the text goes with its project', async () => {
    await s.api.request('PUT', path(), { token: owner.token, json: { targets: 'kept until the project is deleted' } });
    const del = await s.api.post(`/api/project/delete/${owner.userId}/`, { token: owner.token, json: { name: 'Disclosed' } });
    assert.ok(del.status < 300, JSON.stringify(del.body));
    const left = await s.db.selectFrom('tcfd_narratives').select('project_id').where('project_id', '=', projectId).execute();
    assert.deepEqual(left, []);
  });
});
