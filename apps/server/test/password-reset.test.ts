/**
 * "Forgot password?" (issue 37 item 6, ASVS V2.5): the e-mailed link works once, for 30 minutes, and only the newest
 * one; the request's answer is the same whether or not the account exists; the new password follows the registration
 * rules; every session of the user ends; requests are throttled like logins. Mail goes through a real SMTP sink.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, registerAndLogin, startServer, startSmtpSink, type TestServer } from './support/harness.js';

/** The body of a raw message, quoted-printable decoded (long lines such as the link are soft-wrapped). */
function bodyOf(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
const tokenIn = (raw: string) => /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(bodyOf(raw))?.[1];

describe('password reset by e-mail', () => {
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

  const resetMails = (email: string) => sink.messages().filter((m) => m.to.includes(email) && m.subject === 'Reset your password');
  async function requestLink(body: Record<string, string>, email: string): Promise<string> {
    const before = resetMails(email).length;
    const r = await s.api.post('/api/user/password_reset/request/', { json: body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const mail = await eventually(() => resetMails(email)[before]);
    const token = tokenIn(mail.raw);
    assert.ok(token, 'a reset link with a 32-byte token in the e-mail');
    return token!;
  }

  test('the link sets a new password once, ends every session, and is audited', async () => {
    const u = await registerAndLogin(s.api);
    const second = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    const token = await requestLink({ username: u.username, company_code: u.company_code }, u.email);

    const stored = await s.db.selectFrom('password_reset_tokens').selectAll().where('user_id', '=', u.userId).execute();
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.token_hash, token, 'only a hash is stored');
    const minutes = (new Date(stored[0]!.expires_at).getTime() - new Date(stored[0]!.created_at).getTime()) / 60_000;
    assert.ok(Math.abs(minutes - 30) < 0.1, `expires after 30 minutes (${minutes})`);

    const newPassword = 'quiet lagoon under copper skies';
    const ok = await s.api.post('/api/user/password_reset/confirm/', { json: { token, password: newPassword, confirm_password: newPassword } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));

    for (const t of [u.token, second.body.token as string]) assert.equal((await s.api.get('/accounts/user/', { token: t })).status, 401, 'every session ended');
    const oldLogin = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.equal(oldLogin.status, 401);
    const newLogin = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: newPassword, company_code: u.company_code } });
    assert.equal(newLogin.status, 201);

    const again = await s.api.post('/api/user/password_reset/confirm/', {
      json: { token, password: 'another fine sentence of words', confirm_password: 'another fine sentence of words' },
    });
    assert.equal(again.status, 400, 'the link works once');
    assert.equal(again.body.errors[0].field, 'token');

    const audit = await s.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('user_id', '=', u.userId)
      .where('action', 'like', 'password.%')
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['password.reset_requested', 'password.reset'],
    );
    assert.equal((audit[1]!.detail as { sessions_ended: number }).sessions_ended, 2);
    await eventually(() => sink.messages().find((m) => m.to.includes(u.email) && m.subject === 'Your password was changed'));
  });

  test('an expired link and an older link are refused', async () => {
    const u = await registerAndLogin(s.api);
    const first = await requestLink({ email: u.email }, u.email);
    const second = await requestLink({ email: u.email }, u.email);
    const pw = 'amber kettle over frozen hills';
    const old = await s.api.post('/api/user/password_reset/confirm/', { json: { token: first, password: pw, confirm_password: pw } });
    assert.equal(old.status, 400, 'a newer request retires the older link');

    await s.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', u.userId)
      .execute();
    const expired = await s.api.post('/api/user/password_reset/confirm/', { json: { token: second, password: pw, confirm_password: pw } });
    assert.equal(expired.status, 400, 'an expired link is refused');
    assert.match(expired.body.detail, /expired/);
    const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.equal(login.status, 201, 'the password did not change');
  });

  test('a weak or mismatched new password is refused naming the field, and the link stays usable', async () => {
    const u = await registerAndLogin(s.api);
    const token = await requestLink({ username: u.username, company_code: u.company_code }, u.email);
    for (const [password, field] of [
      ['password1234', 'password'],
      ['aaaaaaaaaaaaaaaa', 'password'],
      [`${u.username}-and-more`, 'password'],
      ['short', 'password'],
    ] as const) {
      const r = await s.api.post('/api/user/password_reset/confirm/', { json: { token, password, confirm_password: password } });
      assert.equal(r.status, 400, password);
      assert.equal(r.body.errors[0].field, field, JSON.stringify(r.body));
    }
    const mismatch = await s.api.post('/api/user/password_reset/confirm/', {
      json: { token, password: 'orchard lanterns at midnight', confirm_password: 'orchard lanterns at noon' },
    });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.errors[0].field, 'confirm_password');
    const ok = await s.api.post('/api/user/password_reset/confirm/', {
      json: { token, password: 'orchard lanterns at midnight', confirm_password: 'orchard lanterns at midnight' },
    });
    assert.equal(ok.status, 200);
  });

  test('the answer is the same for an unknown account, and nothing is sent', async () => {
    const u = await registerAndLogin(s.api);
    const known = await s.api.post('/api/user/password_reset/request/', { json: { username: u.username, company_code: u.company_code } });
    const unknownUser = await s.api.post('/api/user/password_reset/request/', { json: { username: 'nobody-here', company_code: u.company_code } });
    const unknownCompany = await s.api.post('/api/user/password_reset/request/', { json: { username: u.username, company_code: 'ZZZZZ-ZZZZZ' } });
    const unknownMail = await s.api.post('/api/user/password_reset/request/', { json: { email: 'no-such-person@example.com' } });
    for (const r of [unknownUser, unknownCompany, unknownMail]) {
      assert.equal(r.status, known.status);
      assert.deepEqual(r.body, known.body);
    }
    await eventually(() => resetMails(u.email)[0]);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(sink.messages().filter((m) => m.to.includes('no-such-person@example.com')).length, 0);
  });

  test('a request without an account name is a 400 naming the field', async () => {
    const none = await s.api.post('/api/user/password_reset/request/', { json: {} });
    assert.equal(none.status, 400);
    assert.equal(none.body.errors[0].field, 'email');
    const noCode = await s.api.post('/api/user/password_reset/request/', { json: { username: 'someone' } });
    assert.equal(noCode.status, 400);
    assert.equal(noCode.body.errors[0].field, 'company_code');
  });

  test('requests for one account are throttled like logins', async () => {
    const u = await registerAndLogin(s.api);
    const body = { username: u.username, company_code: u.company_code };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await s.api.post('/api/user/password_reset/request/', { json: body })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    const other = await s.api.post('/api/user/password_reset/request/', { json: { username: `${u.username}x`, company_code: u.company_code } });
    assert.equal(other.status, 200, 'another account is not locked by it');
  });
});
