/**
 * 2FA recovery codes (issue 37 item 6, ASVS V2.6): ten codes come with turning 2FA on, answered once; only salted hashes
 * are stored; the login's 2FA step takes one instead of a TOTP code, once; new codes need a current TOTP code (not a
 * recovery code) and retire the old ones; turning 2FA off deletes them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const totp = (uri: string, offsetSteps = 0) => (OTPAuth.URI.parse(uri) as OTPAuth.TOTP).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

describe('2FA recovery codes', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  async function withApp() {
    const u = await registerAndLogin(s.api);
    const setup = await s.api.get('/user/configure_multifactor/app', { token: u.token });
    const uri: string = setup.body.data.uri;
    const on = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: totp(uri) } });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    return { ...u, uri, codes: on.body.recovery_codes as string[], creds: { username: u.username, password: u.password, company_code: u.company_code } };
  }

  test('ten codes come with 2FA, are stored hashed, and each signs in once', async () => {
    const u = await withApp();
    assert.equal(u.codes.length, 10);
    assert.equal(new Set(u.codes).size, 10);
    for (const c of u.codes) assert.match(c, /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);

    const rows = await s.db.selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', u.userId).execute();
    assert.equal(rows.length, 10);
    const stored = JSON.stringify(rows);
    for (const c of u.codes) {
      assert.ok(!stored.includes(c) && !stored.includes(c.replace(/-/g, '')), 'no code in clear at rest');
    }
    assert.equal(new Set(rows.map((r) => r.salt)).size, 10, 'a salt per code');

    const status = await s.api.get('/user/multifactor/recovery_codes/', { token: u.token });
    assert.equal(status.body.remaining, 10);

    // Lower case with spaces instead of dashes, as someone might type it from paper.
    const typed = u.codes[0]!.toLowerCase().replace(/-/g, ' ');
    const login = await s.api.post('/api/user/rest_login/', { form: { ...u.creds, totp_code: typed } });
    assert.equal(login.status, 201, JSON.stringify(login.body));
    const replay = await s.api.post('/api/user/rest_login/', { form: { ...u.creds, totp_code: u.codes[0]! } });
    assert.equal(replay.status, 401, 'a recovery code works once');
    const left = await s.api.get('/user/multifactor/recovery_codes/', { token: login.body.token });
    assert.equal(left.body.remaining, 9);
    const audit = await s.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', u.userId)
      .where('action', '=', 'login.recovery_code_used')
      .execute();
    assert.equal(audit.length, 1);
    const wrong = await s.api.post('/api/user/rest_login/', { form: { ...u.creds, totp_code: 'AAAA-BBBB-CCCC-DDDD' } });
    assert.equal(wrong.status, 401);
  });

  test('new codes need a current TOTP code, not a recovery code, and retire the old ones', async () => {
    const u = await withApp();
    const none = await s.api.post('/user/multifactor/recovery_codes/', { token: u.token, json: {} });
    assert.equal(none.status, 400);
    assert.equal(none.body.errors[0].field, 'current_code');
    const byRecovery = await s.api.post('/user/multifactor/recovery_codes/', { token: u.token, json: { current_code: u.codes[1] } });
    assert.equal(byRecovery.status, 403, 'a recovery code cannot mint new ones');
    const wrong = await s.api.post('/user/multifactor/recovery_codes/', {
      token: u.token,
      json: { current_code: '000000' === totp(u.uri, 1) ? '111111' : '000000' },
    });
    assert.equal(wrong.status, 403);

    const fresh = await s.api.post('/user/multifactor/recovery_codes/', { token: u.token, json: { current_code: totp(u.uri, 1) } });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    const codes = fresh.body.recovery_codes as string[];
    assert.equal(codes.length, 10);
    assert.ok(codes.every((c) => !u.codes.includes(c)));

    const old = await s.api.post('/api/user/rest_login/', { form: { ...u.creds, totp_code: u.codes[2]! } });
    assert.equal(old.status, 401, 'old codes stop working');
    const ok = await s.api.post('/api/user/rest_login/', { form: { ...u.creds, totp_code: codes[0]! } });
    assert.equal(ok.status, 201);
    const status = await s.api.get('/user/multifactor/recovery_codes/', { token: ok.body.token });
    assert.equal(status.body.remaining, 9);
  });

  test('a recovery code confirms turning 2FA off (lost phone), and turning it off deletes the codes', async () => {
    const u = await withApp();
    const off = await s.api.post('/user/disable_multifactor/', { token: u.token, form: { password: u.password, current_code: u.codes[3]! } });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const rows = await s.db.selectFrom('mfa_recovery_codes').select('id').where('user_id', '=', u.userId).execute();
    assert.equal(rows.length, 0);
    const status = await s.api.get('/user/multifactor/recovery_codes/', { token: u.token });
    assert.deepEqual(status.body, { is_2fa_enabled: false, remaining: 0, created_at: null });
    const regen = await s.api.post('/user/multifactor/recovery_codes/', { token: u.token, json: { current_code: '123456' } });
    assert.equal(regen.status, 400, 'no codes without 2FA');
  });
});
