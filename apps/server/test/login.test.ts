import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

describe('login, tokens and permissions', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: 3, LOGIN_MAX_FAILURES_PER_CLIENT: 40 });
  });
  after(() => s.close());

  test('login answers 201 with token, user, tier data, detail and pending notifications', async () => {
    const u = await registerAndLogin(s.api);
    const body = u.login;
    assert.match(body.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(body.user.id, u.userId);
    assert.equal(body.user.is_2fa_enabled, false);
    assert.deepEqual(body.tier_data.allowed_modules, ['physical_risk', 'map']);
    assert.equal(body.tier_data.tier, 'free');
    assert.equal(body.tier_data.tier_permissions.portfolio_losses, false);
    assert.equal(typeof body.detail, 'string');
    assert.ok(body.pending_notifications.some((n: { title: string }) => n.title === 'Welcome'));
    // Tokens are stored hashed, never in clear.
    const rows = await s.db.selectFrom('auth_tokens').select('token_hash').execute();
    assert.ok(rows.every((r) => r.token_hash !== body.token));
  });

  test('the token authorises accounts/user until logout revokes it', async () => {
    const u = await registerAndLogin(s.api);
    const me = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, u.username);
    assert.equal(me.body.company_code, u.company_code);
    assert.equal(me.body.tier_data.assets_allowed, 100);
    const out = await s.api.post('/api/user/rest_logout/', { token: u.token });
    assert.equal(out.status, 201);
    const after = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(after.status, 401);
    assert.ok(after.body.detail);
  });

  test('missing or forged tokens are 401', async () => {
    assert.equal((await s.api.get('/accounts/user/')).status, 401);
    assert.equal((await s.api.get('/accounts/user/', { token: 'x'.repeat(43) })).status, 401);
    const weird = await s.api.request('GET', '/accounts/user/', { raw: undefined });
    assert.equal(weird.status, 401);
  });

  test('wrong password, unknown user and wrong company code are the same 401', async () => {
    const u = await registerAndLogin(s.api);
    const tries = [
      { username: u.username, password: 'wrong password', company_code: u.company_code },
      { username: 'nobody-here', password: u.password, company_code: u.company_code },
      { username: u.username, password: u.password, company_code: 'AAAAA-AAAAA' },
    ];
    for (const form of tries) {
      const res = await s.api.post('/api/user/rest_login/', { form });
      assert.equal(res.status, 401);
      assert.equal(res.body.detail, 'Unable to log in with the provided credentials.');
      assert.equal(res.body.token, undefined);
    }
  });

  test('missing login fields are 400 naming each field', async () => {
    const res = await s.api.post('/api/user/rest_login/', { form: { username: 'someone' } });
    assert.equal(res.status, 400);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    assert.deepEqual(fields, ['company_code', 'password']);
  });

  test('repeated failures for one username give 429 even with the right password, then other users still log in', async () => {
    const u = await registerAndLogin(s.api);
    for (let i = 0; i < 3; i++) {
      const r = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: `bad${i}`, company_code: u.company_code } });
      assert.equal(r.status, 401);
    }
    const blocked = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.equal(blocked.status, 429);
    assert.match(blocked.body.detail, /Too many failed login attempts/);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    const other = await registerAndLogin(s.api);
    assert.ok(other.token);
  });

  test('a successful login clears the failures before it: two failures, a login, two failures again do not lock (limit 3)', async () => {
    const u = await registerAndLogin(s.api);
    const attempt = (password: string) => s.api.post('/api/user/rest_login/', { form: { username: u.username, password, company_code: u.company_code } });
    for (const round of [1, 2]) {
      for (let i = 0; i < 2; i++) assert.equal((await attempt(`bad${round}${i}`)).status, 401);
      assert.equal((await attempt(u.password)).status, 201, `round ${round}: the right password still logs in after two failures`);
    }
    // without the reset these would be failures 5 and 6: the account is not locked, so each is a 401, not a 429
    assert.equal((await attempt('bad-final')).status, 401);
    assert.equal((await attempt(u.password)).status, 201);
  });

  test('the per-user lock is keyed on company code + username: failures with a made-up company code lock out nobody real (issue 21 item 3)', async () => {
    const name = `same${process.pid}${Date.now().toString(36)}`;
    const a = await registerAndLogin(s.api, { username: name });
    const b = await registerAndLogin(s.api, { username: name });
    assert.notEqual(a.company_code, b.company_code);
    // LOGIN_MAX_FAILURES_PER_USER is 3 here: three failures with a code nobody has lock only that code + name.
    for (let i = 0; i < 3; i++) {
      const r = await s.api.post('/api/user/rest_login/', { form: { username: name.toUpperCase(), password: `guess ${i}`, company_code: 'ZZZZZ-ZZZZZ' } });
      assert.equal(r.status, 401);
    }
    const fake = await s.api.post('/api/user/rest_login/', { form: { username: name, password: 'guess 4', company_code: 'zzzzz zzzzz' } });
    assert.equal(fake.status, 429, 'the made-up pair is locked (the code is normalised)');
    for (const u of [a, b]) {
      const ok = await s.api.post('/api/user/rest_login/', { form: { username: name, password: u.password, company_code: u.company_code } });
      assert.equal(ok.status, 201, `${u.company_code}: ${JSON.stringify(ok.body)}`);
    }
    // Failures against company A's user lock that user only; the same name in company B still logs in.
    for (let i = 0; i < 3; i++) {
      await s.api.post('/api/user/rest_login/', { form: { username: name, password: `bad ${i}`, company_code: a.company_code } });
    }
    const lockedA = await s.api.post('/api/user/rest_login/', { form: { username: name, password: a.password, company_code: a.company_code } });
    assert.equal(lockedA.status, 429);
    const stillB = await s.api.post('/api/user/rest_login/', { form: { username: name, password: b.password, company_code: b.company_code } });
    assert.equal(stillB.status, 201);
  });

  test('permissions: self and company admin may read; another company gets 404; a colleague 403', async () => {
    const admin = await registerAndLogin(s.api);
    const self = await s.api.get(`/api/user/permissions/${admin.userId}/`, { token: admin.token });
    assert.equal(self.status, 200);
    assert.equal(self.body.assets_allowed, 100);
    assert.equal(self.body.data_edit_permissions.can_edit_valuation, true);
    assert.equal(self.body.is_company_admin, true);

    const other = await registerAndLogin(s.api);
    const foreign = await s.api.get(`/api/user/permissions/${admin.userId}/`, { token: other.token });
    assert.equal(foreign.status, 404);

    const j = newUser({ company_code: admin.company_code });
    const reg = await s.api.post('/api/user/register/', { json: j });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: admin.token });
    const colleague = await s.api.post('/api/user/rest_login/', { form: { username: j.username, password: j.password, company_code: admin.company_code } });
    const peek = await s.api.get(`/api/user/permissions/${admin.userId}/`, { token: colleague.body.token });
    assert.equal(peek.status, 403);
    const byAdmin = await s.api.get(`/api/user/permissions/${reg.body.user.id}/`, { token: admin.token });
    assert.equal(byAdmin.status, 200);

    const bad = await s.api.get('/api/user/permissions/abc/', { token: admin.token });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /userId/);
  });
});

describe('login throttle per client', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: 100, LOGIN_MAX_FAILURES_PER_CLIENT: 4 });
  });
  after(() => s.close());

  test('the per-client limit still holds across usernames and company codes', async () => {
    const u = await registerAndLogin(s.api);
    for (let i = 0; i < 4; i++) {
      const r = await s.api.post('/api/user/rest_login/', { form: { username: `someone${i}`, password: 'guess', company_code: `CODE${i}` } });
      assert.equal(r.status, 401);
    }
    const blocked = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
  });
});
