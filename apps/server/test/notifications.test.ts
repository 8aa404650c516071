import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RELEASES } from '@crp/contracts';
import { announceReleases } from '../src/modules/help/release.service.js';
import { newUser, registerAndLogin, startServer, type TestServer } from './support/harness.js';

describe('notifications, releases and the last-accessed ping', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test('pending notifications come with login and disappear once marked read', async () => {
    const u = await registerAndLogin(s.api);
    const welcome = u.login.pending_notifications.find((n: { title: string }) => n.title === 'Welcome');
    assert.ok(welcome);
    assert.ok(['success', 'warning', 'error', 'info'].includes(welcome.notification_type));
    const res = await s.api.post('/api/user/mark_notification_read/', { token: u.token, form: { notification_id: welcome.id } });
    assert.equal(res.status, 200);
    const list = await s.api.get('/api/user/notifications/', { token: u.token });
    assert.equal(
      list.body.some((n: { id: number }) => n.id === welcome.id),
      false,
    );
  });

  test('"New member waiting for approval" is read once the request is decided, and does not come back at login', async () => {
    const admin = await registerAndLogin(s.api);
    const joins = [];
    for (const decision of ['approve', 'reject'] as const) {
      const j = newUser({ company_code: admin.company_code });
      const reg = await s.api.post('/api/user/register/', { json: j });
      assert.equal(reg.status, 201);
      joins.push({ id: reg.body.user.id as number, decision });
    }
    const waiting = async (token: string) =>
      ((await s.api.get('/api/user/notifications/', { token })).body as { title: string }[]).filter((n) => n.title === 'New member waiting for approval');
    assert.equal((await waiting(admin.token)).length, 2);
    for (const j of joins) {
      const r = await s.api.post(`/api/company/members/${j.id}/${j.decision}/`, { token: admin.token });
      assert.equal(r.status, 200);
    }
    assert.equal((await waiting(admin.token)).length, 0);
    const again = await s.api.post('/api/user/rest_login/', { form: { username: admin.username, password: admin.password, company_code: admin.company_code } });
    assert.equal(
      again.body.pending_notifications.some((n: { title: string }) => n.title === 'New member waiting for approval'),
      false,
    );
  });

  test("another user's notification is a 404 and a bad id a 400 naming notification_id", async () => {
    const a = await registerAndLogin(s.api);
    const b = await registerAndLogin(s.api);
    const id = a.login.pending_notifications[0].id;
    const foreign = await s.api.post('/api/user/mark_notification_read/', { token: b.token, form: { notification_id: id } });
    assert.equal(foreign.status, 404);
    const bad = await s.api.post('/api/user/mark_notification_read/', { token: b.token, form: { notification_id: 'x' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'notification_id');
    const stillThere = await s.api.get('/api/user/notifications/', { token: a.token });
    assert.ok(stillThere.body.some((n: { id: number }) => n.id === id));
  });

  test('a new release notifies every user once, linking to the change log', async () => {
    await announceReleases(s.db, s.app.services.notifications); // as at start-up: everything so far is announced
    const a = await registerAndLogin(s.api);
    const b = await registerAndLogin(s.api);
    const latest = RELEASES[RELEASES.length - 1]!;
    await s.db.deleteFrom('releases_announced').where('version', '=', latest.version).execute();
    assert.deepEqual(await announceReleases(s.db, s.app.services.notifications), [latest.version]);
    assert.deepEqual(await announceReleases(s.db, s.app.services.notifications), []);
    for (const u of [a, b]) {
      const list = await s.api.get('/api/user/notifications/', { token: u.token });
      const n = list.body.filter((x: { title: string }) => x.title.startsWith(`Release ${latest.version}`));
      assert.equal(n.length, 1);
      assert.equal(n[0].link, '/changelog');
    }
  });

  test('update_last_accessed records the path per user; bad paths are 400', async () => {
    const u = await registerAndLogin(s.api);
    const res = await s.api.post('/user/update_last_accessed', { token: u.token, form: { path: '/project' } });
    assert.equal(res.status, 200);
    const me = await s.api.get('/accounts/user/', { token: u.token });
    assert.ok(me.body.last_accessed_at);
    const visits = await s.db.selectFrom('page_visits').selectAll().where('user_id', '=', u.userId).execute();
    assert.deepEqual(
      visits.map((v) => v.path),
      ['/project'],
    );
    const bad = await s.api.post('/user/update_last_accessed', { token: u.token, form: { path: 'no-slash' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'path');
    const anon = await s.api.post('/user/update_last_accessed', { form: { path: '/x' } });
    assert.equal(anon.status, 401);
  });
});

describe('public endpoints', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test('demo requests are stored, validated and rate limited', async () => {
    const ok = await s.api.post('/api/demo_request/', {
      json: { name: 'Risk Officer', email: 'ro@bank.example', company: 'Bank', message: 'Portfolio of 800 branches' },
    });
    assert.equal(ok.status, 201);
    const row = await s.db.selectFrom('demo_requests').selectAll().executeTakeFirstOrThrow();
    assert.equal(row.company, 'Bank');
    const bad = await s.api.post('/api/demo_request/', { json: { name: 'x', email: 'nope', company: 'y' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'email');
    for (let i = 0; i < 4; i++) await s.api.post('/api/demo_request/', { json: { name: 'n', email: 'a@b.example', company: 'c' } });
    const limited = await s.api.post('/api/demo_request/', { json: { name: 'n', email: 'a@b.example', company: 'c' } });
    assert.equal(limited.status, 429);
  });

  test('health, change log, OpenAPI document and UI answer; unknown API paths are JSON 404s; app routes get the SPA', async () => {
    const health = await s.api.get('/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.database, process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');
    const log = await s.api.get('/api/changelog/');
    assert.equal(log.body[0].version, RELEASES[RELEASES.length - 1]!.version);
    const doc = await s.api.get('/openapi.json');
    assert.equal(doc.status, 200);
    assert.ok(doc.body.paths['/api/user/rest_login/']);
    const ui = await s.api.get('/docs');
    assert.equal(ui.status, 200);
    const missing = await s.api.get('/api/does-not-exist/');
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /No route/);
    const root = await s.api.get('/');
    assert.equal(root.status, 200);
    assert.match(root.headers.get('content-type') ?? '', /text\/html/);
    const page = await s.api.get('/project');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  });
});
