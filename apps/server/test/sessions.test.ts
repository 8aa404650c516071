import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/** Issue 21 item 5: sessions end after SESSION_IDLE_MINUTES without use, and a user can sign out everywhere. */
describe('session idle time-out and signing out everywhere', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ SESSION_IDLE_MINUTES: 30 });
  });
  after(() => s.close());

  /** Makes the session look unused for `minutes` (the server keeps the time of last use per token). */
  const idle = (token: string, minutes: number) =>
    s.db
      .updateTable('auth_tokens')
      .set({ last_used_at: new Date(Date.now() - minutes * 60_000) })
      .where('id', '=', s.db.selectFrom('auth_tokens').select('id').where('token_hash', '=', sha(token)))
      .execute();
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');

  test('a session unused for longer than SESSION_IDLE_MINUTES ends with a 401 saying why; use keeps it alive', async () => {
    const u = await registerAndLogin(s.api);
    await idle(u.token, 25);
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 200, '25 minutes idle: still signed in');
    // That call counted as use: 25 more minutes are fine again.
    await idle(u.token, 25);
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 200);

    await idle(u.token, 31);
    const gone = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(gone.status, 401);
    assert.match(gone.body.detail, /session ended after 30 minutes without activity/);
    const row = await s.db.selectFrom('auth_tokens').select('revoked_at').where('token_hash', '=', sha(u.token)).executeTakeFirstOrThrow();
    assert.ok(row.revoked_at, 'the token is revoked, not just refused');
    // Coming back later does not revive it.
    await idle(u.token, 0);
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 401);
  });

  test("the browser's own page ping does not keep an idle session alive", async () => {
    const u = await registerAndLogin(s.api);
    await idle(u.token, 29);
    const ping = await s.api.post('/user/update_last_accessed', { token: u.token, json: { path: '/dashboard' } });
    assert.equal(ping.status, 200);
    const row = await s.db.selectFrom('auth_tokens').select('last_used_at').where('token_hash', '=', sha(u.token)).executeTakeFirstOrThrow();
    assert.ok(Date.now() - new Date(row.last_used_at).getTime() > 28 * 60_000, 'the ping did not count as use');
    await idle(u.token, 31);
    assert.equal((await s.api.post('/user/update_last_accessed', { token: u.token, json: { path: '/dashboard' } })).status, 401);
  });

  test("sign out everywhere ends every session of the user, and no one else's", async () => {
    const u = await registerAndLogin(s.api);
    const second = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    const other = await registerAndLogin(s.api);
    assert.equal((await s.api.get('/accounts/user/', { token: second.body.token })).status, 200);
    const out = await s.api.post('/api/user/rest_logout_all/', { token: u.token });
    assert.equal(out.status, 201, JSON.stringify(out.body));
    assert.equal(out.body.sessions, 2);
    for (const t of [u.token, second.body.token]) assert.equal((await s.api.get('/accounts/user/', { token: t })).status, 401);
    assert.equal((await s.api.get('/accounts/user/', { token: other.token })).status, 200, "another user's session stays");
    const audit = await s.db.selectFrom('audit_log').select('action').where('user_id', '=', u.userId).execute();
    assert.ok(audit.some((a) => a.action === 'logout.everywhere'));
    assert.equal((await s.api.post('/api/user/rest_logout_all/')).status, 401);
  });
});

describe('SESSION_IDLE_MINUTES=0 turns the idle time-out off', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ SESSION_IDLE_MINUTES: 0 });
  });
  after(() => s.close());

  test('a session unused for a day still works', async () => {
    const u = await registerAndLogin(s.api);
    await s.db
      .updateTable('auth_tokens')
      .set({ last_used_at: new Date(Date.now() - 86_400_000) })
      .execute();
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 200);
  });
});

/** Issue 32 item 2: a session ends SESSION_MAX_HOURS (default 12) after its login, however much it is used. */
describe('absolute session lifetime (SESSION_MAX_HOURS)', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ SESSION_IDLE_MINUTES: 30 });
  });
  after(() => s.close());
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  /** Makes the session look signed in `hours` ago and used just now. */
  const signedInAgo = (token: string, hours: number) =>
    s.db
      .updateTable('auth_tokens')
      .set({ created_at: new Date(Date.now() - hours * 3_600_000), last_used_at: new Date() })
      .where('token_hash', '=', sha(token))
      .execute();

  test('a session in continuous use ends 12 hours after the login with a 401 saying why, and stays ended', async () => {
    assert.equal(s.config.SESSION_MAX_HOURS, 12, 'the default');
    const u = await registerAndLogin(s.api);
    await signedInAgo(u.token, 11.9);
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 200, 'just under 12 hours: still signed in');
    await signedInAgo(u.token, 12.01);
    const gone = await s.api.get('/accounts/user/', { token: u.token });
    assert.equal(gone.status, 401);
    assert.equal(gone.body.detail, 'Your session ended 12 hours after you signed in. Log in again.');
    const row = await s.db.selectFrom('auth_tokens').select('revoked_at').where('token_hash', '=', sha(u.token)).executeTakeFirstOrThrow();
    assert.ok(row.revoked_at, 'the token is revoked');
    // The background ping and the tile route's ?token= are refused the same way, and logging in again works.
    assert.equal((await s.api.post('/user/update_last_accessed', { token: u.token, json: { path: '/dashboard' } })).status, 401);
    const again = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
    assert.ok(again.body.token, JSON.stringify(again.body));
    assert.equal((await s.api.get('/accounts/user/', { token: again.body.token })).status, 200);
  });
});

describe('SESSION_MAX_HOURS takes fractions of an hour', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ SESSION_MAX_HOURS: 0.003 }); // 10.8 seconds
  });
  after(() => s.close());

  test('a session ends SESSION_MAX_HOURS after the login even when used all the time', async () => {
    const u = await registerAndLogin(s.api);
    assert.equal((await s.api.get('/accounts/user/', { token: u.token })).status, 200);
    const deadline = Date.now() + 10_800 + 3_000;
    let gone = await s.api.get('/accounts/user/', { token: u.token });
    while (gone.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      gone = await s.api.get('/accounts/user/', { token: u.token });
    }
    assert.equal(gone.status, 401);
    assert.equal(gone.body.detail, 'Your session ended 0.003 hours after you signed in. Log in again.');
  });
});
