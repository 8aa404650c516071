import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { API_TOKENS_PER_USER } from '@crp/contracts';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

type Login = Awaited<ReturnType<typeof registerAndLogin>>;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

/** Issue 32 item 3: personal API tokens for QGIS and notebooks: read-only, revocable, shown once, stored hashed. */
describe('personal API tokens', () => {
  let s: TestServer;
  let admin: Login;
  let member: Login;
  let stranger: Login;
  before(async () => {
    s = await startServer({ SESSION_IDLE_MINUTES: 30, API_TOKEN_MAX_DAYS: 365 });
    admin = await registerAndLogin(s.api);
    stranger = await registerAndLogin(s.api);
    const u = newUser({ company_code: admin.company_code });
    const reg = await s.api.post('/api/user/register/', { json: u });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: admin.token });
    const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: admin.company_code } });
    member = { ...u, company_code: admin.company_code, userId: reg.body.user.id, token: login.body.token, login: login.body };
  });
  after(() => s.close());

  const create = (who: { token: string }, name = 'QGIS on my laptop', expires_in_days: unknown = 90) =>
    s.api.post('/api/user/api_tokens/', { token: who.token, json: { name, expires_in_days } });

  test('made once with a crp_pat_ prefix, stored as its SHA-256 only, listed without the secret', async () => {
    const res = await create(member);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const token: string = res.body.token;
    assert.match(token, /^crp_pat_[A-Za-z0-9_-]{43}$/);
    assert.equal(res.body.api_token.name, 'QGIS on my laptop');
    assert.equal(res.body.api_token.hint, token.slice(0, 12));
    assert.equal(res.body.api_token.last_used_at, null);
    const days = (Date.parse(res.body.api_token.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 89.9 && days <= 90, `expires in ${days} days`);
    const row = await s.db.selectFrom('personal_api_tokens').selectAll().where('id', '=', res.body.api_token.id).executeTakeFirstOrThrow();
    assert.equal(row.token_hash, sha(token));
    assert.ok(!JSON.stringify(row).includes(token), 'the secret is not stored');
    const list = await s.api.get('/api/user/api_tokens/', { token: member.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.max_days, 365);
    assert.ok(list.body.tokens.some((t: { id: number }) => t.id === res.body.api_token.id));
    assert.ok(!JSON.stringify(list.body).includes(token), 'the list never shows the secret');
  });

  test('works for GET (header and the tile route ?token=), records last use, and is refused for POST with a 403 saying it is read-only', async () => {
    const { token, api_token } = (await create(member, 'notebook')).body;
    const me = await s.api.get('/accounts/user/', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.username ?? me.body.user?.username, member.username);
    const tile = await fetch(`${s.url}/api/v2/xyz_tiles/storm_surge_rp/4/13/6.png?return_period=100yr&token=${token}`);
    assert.equal(tile.status, 200);
    assert.equal((await fetch(`${s.url}/accounts/user/`, { method: 'HEAD', headers: { authorization: `Token ${token}` } })).status, 200);
    const used = await s.db.selectFrom('personal_api_tokens').select('last_used_at').where('id', '=', api_token.id).executeTakeFirstOrThrow();
    assert.ok(used.last_used_at, 'last use recorded');

    for (const [path, json] of [
      ['/api/user/api_tokens/', { name: 'from a token', expires_in_days: 30 }],
      ['/api/user/rest_logout_all/', undefined],
      ['/api/v2/create_project/', { portfolio_name: 'Via token', data: [{ name: 'a', latitude: 1, longitude: 1 }] }],
      [`/api/user/api_tokens/${api_token.id}/revoke/`, undefined],
    ] as const) {
      const res = await s.api.post(path, { token, ...(json ? { json } : {}) });
      assert.equal(res.status, 403, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, /personal API token, which is read-only/);
    }
    assert.equal(await s.db.selectFrom('projects').select('id').where('name', '=', 'Via token').executeTakeFirst(), undefined, 'nothing written');
    // The results query is a POST that changes nothing: allowed, so notebooks can use it.
    const results = await s.api.post('/api/v2/asset_results/', {
      token,
      json: { assets: [{ name: 'HK', latitude: 22.3, longitude: 114.17 }], hazards: ['typhoon'], scenarios: ['45'], years: [2050] },
    });
    assert.equal(results.status, 200, JSON.stringify(results.body).slice(0, 300));
  });

  test('not a session: no idle time-out, no 12-hour cap, and using it keeps no session alive', async () => {
    const u = await registerAndLogin(s.api);
    const { token, api_token } = (await create(u, 'long QGIS session', 30)).body;
    await s.db
      .updateTable('personal_api_tokens')
      .set({ created_at: new Date(Date.now() - 20 * 86_400_000), last_used_at: new Date(Date.now() - 5 * 86_400_000) })
      .where('id', '=', api_token.id)
      .execute();
    assert.equal((await s.api.get('/accounts/user/', { token })).status, 200, '20 days old and unused for 5: still works');
    // The user's browser session, idle for 31 minutes while the token is used, ends all the same.
    await s.db
      .updateTable('auth_tokens')
      .set({ last_used_at: new Date(Date.now() - 31 * 60_000) })
      .where('token_hash', '=', sha(u.token))
      .execute();
    assert.equal((await s.api.get('/accounts/user/', { token })).status, 200);
    const session = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(session.status, 401);
    assert.match(session.body.detail, /without activity/);
    assert.equal((await s.api.get('/accounts/user/', { token })).status, 200, 'the API token is not a session and outlives it');
  });

  test('revoked by its owner: 401 at once; another user cannot revoke it; a company administrator can', async () => {
    const a = (await create(member, 'to revoke')).body;
    const byStranger = await s.api.post(`/api/user/api_tokens/${a.api_token.id}/revoke/`, { token: stranger.token });
    assert.equal(byStranger.status, 404, 'another company: as if it did not exist');
    assert.match(byStranger.body.detail, /^tokenId: /);
    const colleague = (await create(admin, "admin's own")).body;
    const byMember = await s.api.post(`/api/user/api_tokens/${colleague.api_token.id}/revoke/`, { token: member.token });
    assert.equal(byMember.status, 404, "a member cannot revoke a colleague's token");
    assert.equal((await s.api.get('/accounts/user/', { token: colleague.token })).status, 200, 'still works');

    const own = await s.api.post(`/api/user/api_tokens/${a.api_token.id}/revoke/`, { token: member.token });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const gone = await s.api.get('/accounts/user/', { token: a.token });
    assert.equal(gone.status, 401);
    assert.equal((await s.api.post(`/api/user/api_tokens/${a.api_token.id}/revoke/`, { token: member.token })).status, 404, 'already revoked');
    const list = await s.api.get('/api/user/api_tokens/', { token: member.token });
    assert.ok(!list.body.tokens.some((t: { id: number }) => t.id === a.api_token.id), 'a revoked token leaves the list');

    // The company administrator lists the company's tokens (not another company's) and revokes a member's.
    const b = (await create(member, 'admin revokes this')).body;
    const strangers = (await create(stranger, 'other company')).body;
    const company = await s.api.get('/api/company/api_tokens/', { token: admin.token });
    assert.equal(company.status, 200);
    const ids = company.body.tokens.map((t: { id: number }) => t.id);
    assert.ok(ids.includes(b.api_token.id) && ids.includes(colleague.api_token.id));
    assert.ok(!ids.includes(strangers.api_token.id), "another company's tokens are not listed");
    assert.equal(company.body.tokens.find((t: { id: number }) => t.id === b.api_token.id).user.username, member.username);
    assert.equal((await s.api.get('/api/company/api_tokens/', { token: member.token })).status, 403, 'members may not list the company');
    const byAdmin = await s.api.post(`/api/user/api_tokens/${b.api_token.id}/revoke/`, { token: admin.token });
    assert.equal(byAdmin.status, 200);
    assert.equal((await s.api.get('/accounts/user/', { token: b.token })).status, 401);
    assert.equal((await s.api.post(`/api/user/api_tokens/${strangers.api_token.id}/revoke/`, { token: admin.token })).status, 404);
    const actions = await s.db.selectFrom('audit_log').select('action').where('user_id', '=', admin.userId).execute();
    assert.ok(actions.some((r) => r.action === 'api_token.revoked'));
  });

  test('an expired token answers 401 and is listed as expired', async () => {
    const { token, api_token } = (await create(member, 'short', 30)).body;
    await s.db
      .updateTable('personal_api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', api_token.id)
      .execute();
    assert.equal((await s.api.get('/accounts/user/', { token })).status, 401);
    const listed = (await s.api.get('/api/user/api_tokens/', { token: member.token })).body.tokens.find((t: { id: number }) => t.id === api_token.id);
    assert.equal(listed.expired, true);
  });

  test('bad input is a 400 naming the field and stores nothing; at most API_TOKEN_MAX_DAYS; at most 20 live tokens per user', async () => {
    const u = await registerAndLogin(s.api);
    const count = async () => (await s.db.selectFrom('personal_api_tokens').select('id').where('user_id', '=', u.userId).execute()).length;
    for (const [name, days, field] of [
      ['x', 366, 'expires_in_days'],
      ['x', 0, 'expires_in_days'],
      ['x', 1.5, 'expires_in_days'],
      ['x', 'soon', 'expires_in_days'],
      ['   ', 30, 'name'],
      ['n'.repeat(101), 30, 'name'],
    ] as const) {
      const res = await create(u, name, days);
      assert.equal(res.status, 400, `${name.slice(0, 10)} ${days}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        JSON.stringify(res.body),
      );
    }
    assert.equal(await count(), 0);
    assert.equal((await create(u, 'a year', 365)).status, 201);
    for (let i = 1; i < API_TOKENS_PER_USER; i++) assert.equal((await create(u, `t${i}`, 30)).status, 201);
    const over = await create(u, 'one too many', 30);
    assert.equal(over.status, 409);
    assert.match(over.body.detail, /Revoke one/);
    assert.equal(await count(), API_TOKENS_PER_USER);
    assert.equal((await s.api.post('/api/user/api_tokens/abc/revoke/', { token: u.token })).status, 400);
    assert.equal((await s.api.post('/api/user/api_tokens/99999999999/revoke/', { token: u.token })).status, 400);
    assert.equal((await s.api.get('/api/user/api_tokens/')).status, 401);
  });
});
