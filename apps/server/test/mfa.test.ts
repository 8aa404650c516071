import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { eventually, registerAndLogin, startServer, startSmtpSink, type TestServer } from './support/harness.js';

/** Computes a TOTP code the way an authenticator app does, `offsetSteps` 30-second steps from now. */
function totp(uri: string, offsetSteps = 0): string {
  const t = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  return t.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('two-factor authentication with an authenticator app', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test('setup, verify, then login needs the code; codes cannot be replayed', async () => {
    const u = await registerAndLogin(s.api);
    const setup = await s.api.get('/user/configure_multifactor/app', { token: u.token });
    assert.equal(setup.status, 200);
    assert.equal(setup.body.detail, '2FA code generated successfully');
    const uri: string = setup.body.data.uri;
    assert.match(uri, /^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]+/);
    assert.ok(uri.includes('issuer=Climate'));

    const wrong = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: '000000' === totp(uri) ? '111111' : '000000' } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.detail, 'Invalid verification code. Please try again.');
    const stillOff = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(stillOff.body.is_2fa_enabled, false);

    const ok = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: totp(uri) } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.detail, '2FA verification successful');

    const creds = { username: u.username, password: u.password, company_code: u.company_code };
    const step1 = await s.api.post('/api/user/rest_login/', { form: creds });
    assert.equal(step1.status, 202);
    assert.deepEqual(step1.body, { detail: '2FA_REQUIRED', method: 'app' });

    const bad = await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: 'abcdef' } });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.token, undefined);

    // The code used for setup was consumed: the next login needs the next step's code.
    const nextCode = totp(uri, 1);
    const step2 = await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: nextCode } });
    assert.equal(step2.status, 201, JSON.stringify(step2.body));
    assert.equal(step2.body.user.is_2fa_enabled, true);
    assert.equal(step2.body.user.twofa_method, 'app');

    const replay = await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: nextCode } });
    assert.equal(replay.status, 401);
  });

  test('verifying without a started setup, or with an unknown method, is a 400 naming the field', async () => {
    const u = await registerAndLogin(s.api);
    const noSetup = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: '123456' } });
    assert.equal(noSetup.status, 400);
    assert.equal(noSetup.body.errors[0].field, 'method');
    const sms = await s.api.get('/user/configure_multifactor/sms', { token: u.token });
    assert.equal(sms.status, 400);
    assert.match(sms.body.detail, /method/);
    const noCode = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: {} });
    assert.equal(noCode.status, 400);
    assert.equal(noCode.body.errors[0].field, 'code');
    const anon = await s.api.get('/user/configure_multifactor/app');
    assert.equal(anon.status, 401);
  });
});

describe('changing or turning off 2FA needs the password and a current code (issue 21 item 2)', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  const mails = (email: string, subject: string) =>
    s.db.selectFrom('outbox_emails').selectAll().where('to_address', '=', email).where('subject', '=', subject).orderBy('id').execute();
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
  const NOTICE = 'Two-factor authentication changed on your account';

  async function withApp2fa() {
    const u = await registerAndLogin(s.api);
    const setup = await s.api.get('/user/configure_multifactor/app', { token: u.token });
    const uri: string = setup.body.data.uri;
    const on = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: totp(uri) } });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    return { ...u, uri };
  }

  test('with app 2FA on, a session token alone cannot pair a new device; with the password and a current code it can, and the user is told by e-mail', async () => {
    const u = await withApp2fa();
    const secretBefore = (await s.db.selectFrom('users').select('totp_secret').where('id', '=', u.userId).executeTakeFirstOrThrow()).totp_secret;
    assert.equal((await mails(u.email, NOTICE)).length, 1, 'turning 2FA on is announced');

    // The attack of the issue: GET then POST with a code of the attacker's own new device, nothing else.
    const start = await s.api.get('/user/configure_multifactor/app', { token: u.token });
    assert.equal(start.status, 200);
    const newUri: string = start.body.data.uri;
    const tokenOnly = await s.api.post('/user/configure_multifactor/app/', { token: u.token, form: { code: totp(newUri) } });
    assert.equal(tokenOnly.status, 400, JSON.stringify(tokenOnly.body));
    assert.deepEqual(tokenOnly.body.errors.map((e: { field: string }) => e.field).sort(), ['current_code', 'password']);
    // E-mail too: a token alone cannot switch the factor to e-mail codes.
    await s.api.get('/user/configure_multifactor/email', { token: u.token });
    const setupMail = (await mails(u.email, 'Your verification code')).at(-1)!;
    const toEmail = await s.api.post('/user/configure_multifactor/email/', { token: u.token, form: { code: codeIn(setupMail.text_body)! } });
    assert.equal(toEmail.status, 400);

    const wrongPassword = await s.api.post('/user/configure_multifactor/app/', {
      token: u.token,
      form: { code: totp(newUri), password: 'not the password at all', current_code: totp(u.uri, 1) },
    });
    assert.equal(wrongPassword.status, 403);
    assert.equal(wrongPassword.body.errors[0].field, 'password');
    const wrongCode = await s.api.post('/user/configure_multifactor/app/', {
      token: u.token,
      form: { code: totp(newUri), password: u.password, current_code: totp(newUri) === '123456' ? '654321' : '123456' },
    });
    assert.equal(wrongCode.status, 403);
    assert.equal(wrongCode.body.errors[0].field, 'current_code');

    const after = await s.db.selectFrom('users').select(['totp_secret', 'twofa_method']).where('id', '=', u.userId).executeTakeFirstOrThrow();
    assert.equal(after.totp_secret, secretBefore, 'the old device stays in force');
    assert.equal(after.twofa_method, 'app');
    assert.equal((await mails(u.email, NOTICE)).length, 1, 'nothing changed, nothing announced');

    const ok = await s.api.post('/user/configure_multifactor/app/', {
      token: u.token,
      form: { code: totp(newUri), password: u.password, current_code: totp(u.uri, 1) },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const notices = await mails(u.email, NOTICE);
    assert.equal(notices.length, 2);
    assert.match(notices[1]!.text_body, /changed from authenticator app to authenticator app/);
    const audit = await s.db.selectFrom('audit_log').select('action').where('user_id', '=', u.userId).execute();
    assert.ok(audit.some((a) => a.action === '2fa.changed'));
    assert.equal(audit.filter((a) => a.action === '2fa.confirm_failed').length, 2);

    // The new device logs in; the old one no longer does.
    const creds = { username: u.username, password: u.password, company_code: u.company_code };
    assert.equal((await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: totp(u.uri, 1) } })).status, 401);
    const login = await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: totp(newUri, 1) } });
    assert.equal(login.status, 201, JSON.stringify(login.body));
  });

  test('turning 2FA off needs the password and a current code; an e-mail user gets the current code by e-mail', async () => {
    const u = await registerAndLogin(s.api);
    const off = await s.api.post('/user/disable_multifactor/', { token: u.token, form: { password: u.password, current_code: '123456' } });
    assert.equal(off.status, 400, '2FA is not on');
    assert.equal((await s.api.post('/user/multifactor/current_code/', { token: u.token })).status, 400);

    await s.api.get('/user/configure_multifactor/email', { token: u.token });
    const setupCode = codeIn((await mails(u.email, 'Your verification code')).at(-1)!.text_body)!;
    assert.equal((await s.api.post('/user/configure_multifactor/email/', { token: u.token, form: { code: setupCode } })).status, 200);

    const missing = await s.api.post('/user/disable_multifactor/', { token: u.token, form: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.errors.map((e: { field: string }) => e.field).sort(), ['current_code', 'password']);

    const sent = await s.api.post('/user/multifactor/current_code/', { token: u.token });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.match(sent.body.sent_to, /^\w{2}\*+@example\.com$/);
    const current = codeIn((await mails(u.email, 'Your code to confirm a two-factor change')).at(-1)!.text_body)!;

    const wrong = await s.api.post('/user/disable_multifactor/', { token: u.token, form: { password: 'wrong password here', current_code: current } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.errors[0].field, 'password');
    assert.equal((await s.db.selectFrom('users').select('twofa_method').where('id', '=', u.userId).executeTakeFirstOrThrow()).twofa_method, 'email');

    const done = await s.api.post('/user/disable_multifactor/', { token: u.token, form: { password: u.password, current_code: current } });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.is_2fa_enabled, false);
    const again = await s.api.post('/user/disable_multifactor/', { token: u.token, form: { password: u.password, current_code: current } });
    assert.equal(again.status, 400, 'already off');

    const notices = await mails(u.email, NOTICE);
    assert.equal(notices.length, 2);
    assert.match(notices[1]!.text_body, /turned off/);
    const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.equal(login.status, 201, 'no second step any more');
    const audit = await s.db.selectFrom('audit_log').select('action').where('user_id', '=', u.userId).execute();
    assert.ok(audit.some((a) => a.action === '2fa.disabled'));
  });
});

describe('two-factor authentication by e-mail through a real SMTP server', () => {
  let s: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  before(async () => {
    sink = await startSmtpSink();
    s = await startServer({ SMTP_URL: sink.url });
  });
  after(async () => {
    await s.close();
    await sink.stop();
  });

  const codeIn = (raw: string) =>
    /\b(\d{6})\b/.exec(
      raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n'),
    )?.[1];

  test('welcome mail, setup code, and a login code all arrive by SMTP', async () => {
    const u = await registerAndLogin(s.api);
    const welcome = await eventually(() => sink.messages().find((m) => m.to.includes(u.email) && m.subject.includes('company code')));
    assert.ok(welcome.raw.includes(u.company_code));

    const setup = await s.api.get('/user/configure_multifactor/email', { token: u.token });
    assert.equal(setup.status, 200);
    assert.match(setup.body.data.sent_to, /^\w{2}\*+@example\.com$/);
    const setupMail = await eventually(() => sink.messages().find((m) => m.to.includes(u.email) && m.subject === 'Your verification code'));
    const code = codeIn(setupMail.raw);
    assert.ok(code, 'six-digit code in the setup e-mail');

    const ok = await s.api.post('/user/configure_multifactor/email/', { token: u.token, form: { code: code! } });
    assert.equal(ok.status, 200);
    const again = await s.api.post('/user/configure_multifactor/email/', { token: u.token, form: { code: code! } });
    assert.equal(again.status, 400, 'a setup code works once');

    const creds = { username: u.username, password: u.password, company_code: u.company_code };
    const step1 = await s.api.post('/api/user/rest_login/', { form: creds });
    assert.equal(step1.status, 202);
    assert.equal(step1.body.method, 'email');
    const loginMail = await eventually(() => sink.messages().find((m) => m.to.includes(u.email) && m.subject === 'Your login code'));
    const loginCode = codeIn(loginMail.raw)!;
    const step2 = await s.api.post('/api/user/rest_login/', { form: { ...creds, totp_code: loginCode } });
    assert.equal(step2.status, 201);
    assert.equal(step2.body.user.twofa_method, 'email');
    const sent = await s.db.selectFrom('outbox_emails').selectAll().where('to_address', '=', u.email).execute();
    assert.ok(sent.every((m) => m.transport === 'smtp' && m.status === 'sent'));
    assert.ok(
      sent.every((m) => !m.text_body.includes(loginCode)),
      'codes sent by SMTP are not kept in the database',
    );
  });
});
