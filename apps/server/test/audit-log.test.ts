import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** The company activity log: administrators read their own company's audit rows, newest first, filtered and paged. */
describe('activity log (GET /api/v2/audit_log/)', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  let memberToken: string;
  let other: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    admin = await registerAndLogin(s.api, { first_name: 'Grace', last_name: 'Hopper' });
    // A colleague joins with the company code and is approved: a plain member.
    const m = newUser({ company_code: admin.company_code });
    const reg = await s.api.post('/api/user/register/', { json: m });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const memberId = reg.body.user.id;
    assert.equal((await s.api.post(`/api/company/members/${memberId}/approve/`, { token: admin.token })).status, 200);
    const ml = await s.api.post('/api/user/rest_login/', { form: { username: m.username, password: m.password, company_code: admin.company_code } });
    assert.equal(ml.status, 201);
    memberToken = ml.body.token;
    // Another company, whose actions must never show.
    other = await registerAndLogin(s.api);
    await s.api.post('/api/user/rest_login/', { form: { username: other.username, password: 'not the password', company_code: other.company_code } });
    await s.api.post('/api/v2/create_project/', {
      token: other.token,
      json: { portfolio_name: 'Theirs', data: [{ name: 'A', latitude: 22.3, longitude: 114.2 }] },
    });
    await s.api.post('/api/user/rest_login/', { form: { username: admin.username, password: 'wrong password', company_code: admin.company_code } });
  });
  after(() => s.close());

  const log = (query: string, token = admin.token) => s.api.get(`/api/v2/audit_log/${query}`, { token });

  test("an admin reads their company's rows, newest first, with user names and readable actions; never another company's", async () => {
    const res = await log('');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rows = res.body.results as {
      id: number;
      time: string;
      action: string;
      action_label: string;
      user: { username: string; name: string } | null;
      client: string | null;
      detail: Record<string, unknown>;
    }[];
    assert.equal(res.body.total, rows.length);
    const actions = rows.map((r) => r.action);
    for (const a of ['company.created', 'login.succeeded', 'user.join_requested', 'member.approved', 'login.failed'])
      assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
    assert.ok(!actions.includes('project.created'), "the other company's project is not shown");
    const times = rows.map((r) => Date.parse(r.time));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal(rows[0]!.action, 'login.failed', 'the latest action comes first');
    const login = rows.find((r) => r.action === 'login.succeeded' && r.user?.username === admin.username)!;
    assert.equal(login.user!.name, 'Grace Hopper');
    assert.equal(login.action_label, 'Logged in');
    assert.equal(login.client, '127.0.0.1');
    const approved = rows.find((r) => r.action === 'member.approved')!;
    assert.equal(approved.action_label, 'Approved a member');
    assert.equal(typeof approved.detail.member_id, 'number');
    // The other company's admin sees their own rows only.
    const theirs = await log('', other.token);
    assert.ok(theirs.body.results.every((r: { user: { username: string } | null }) => r.user?.username === other.username));
    assert.ok(theirs.body.results.some((r: { action: string }) => r.action === 'project.created'));
  });

  test('filters: an action code, a group, dates; pages with a total', async () => {
    const all = (await log('')).body.total as number;
    const logins = await log('?action=login');
    assert.ok(logins.body.results.length >= 3);
    assert.ok(logins.body.results.every((r: { action: string }) => r.action.startsWith('login.')));
    const failed = await log('?action=login.failed');
    assert.deepEqual(
      failed.body.results.map((r: { action: string }) => r.action),
      ['login.failed'],
    );
    const page1 = await log('?page=1&page_size=2');
    const page2 = await log('?page=2&page_size=2');
    assert.equal(page1.body.total, all);
    assert.equal(page1.body.results.length, 2);
    assert.notDeepEqual(page1.body.results[0].id, page2.body.results[0].id);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await log(`?from=${today}&to=${today}`)).body.total, all);
    assert.equal((await log('?from=2000-01-01&to=2000-01-31')).body.total, 0);
    assert.equal((await log(`?from=${new Date(Date.now() + 3_600_000).toISOString()}`)).body.total, 0);
  });

  test('bad query values are a 400 naming the field', async () => {
    for (const [q, field] of [
      ['?page=0', 'page'],
      ['?page_size=1000', 'page_size'],
      ['?action=DROP%20TABLE', 'action'],
      ['?from=yesterday', 'from'],
      ['?from=2026-02-10&to=2026-02-01', 'to'],
    ] as const) {
      const r = await log(q);
      assert.equal(r.status, 400, q);
      assert.match(r.body.detail, new RegExp(`^${field}`), `${q}: ${r.body.detail}`);
    }
  });

  test('a plain member gets 403, no token 401', async () => {
    const member = await log('', memberToken);
    assert.equal(member.status, 403);
    assert.match(member.body.detail, /administrator/);
    assert.equal((await s.api.get('/api/v2/audit_log/')).status, 401);
  });
});
