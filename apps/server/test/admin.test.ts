import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT } from '../src/config.js';
import { serverEntryArgs } from './support/entries.js';
import { createTestDatabase, registerAndLogin, startServer } from './support/harness.js';

function admin(env: Record<string, string | undefined>, ...args: string[]) {
  const res = spawnSync(process.execPath, [...serverEntryArgs('admin'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout + res.stderr };
}

describe('admin command and persistence across restarts', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  test('data survives a restart, and set-tier changes tier data, limits and modules and tells the users', async () => {
    const s1 = await startServer(database.overrides);
    const u = await registerAndLogin(s1.api);
    await s1.close();

    const env = { DATA_DIR: database.overrides.DATA_DIR, DATABASE_URL: database.overrides.DATABASE_URL, LOG_LEVEL: 'silent' };
    const bad = admin(env, 'set-tier', '--company', u.company_code, '--tier', 'platinum');
    assert.equal(bad.code, 2);
    assert.match(bad.out, /--tier must be one of/);
    const set = admin(env, 'set-tier', '--company', u.company_code, '--tier', 'professional', '--assets', '750');
    assert.equal(set.code, 0, set.out);
    const list = admin(env, 'companies');
    assert.match(list.out, new RegExp(u.company_code));
    const outbox = admin(env, 'outbox');
    assert.match(outbox.out, /Company code: /);

    const s2 = await startServer(database.overrides);
    try {
      const login = await s2.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
      assert.equal(login.status, 201, 'the user registered before the restart can still log in');
      assert.equal(login.body.tier_data.tier, 'professional');
      assert.equal(login.body.tier_data.assets_allowed, 750);
      assert.deepEqual(login.body.tier_data.allowed_modules, ['physical_risk', 'transition_risk', 'map']);
      assert.ok(login.body.pending_notifications.some((n: { title: string }) => n.title === 'Your plan changed'));
      const perms = await s2.api.get(`/api/user/permissions/${u.userId}/`, { token: login.body.token });
      assert.equal(perms.body.assets_allowed, 750);
    } finally {
      await s2.close();
    }
  });

  test('grant-tier grants the pending upgrade request: the tier asked for, the request granted, the members told', async () => {
    const s1 = await startServer(database.overrides);
    const u = await registerAndLogin(s1.api);
    const asked = await s1.api.post('/api/v2/upgrade_requests/', { token: u.token, json: { tier: 'enterprise' } });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    await s1.close();

    const env = { DATA_DIR: database.overrides.DATA_DIR, DATABASE_URL: database.overrides.DATABASE_URL, LOG_LEVEL: 'silent' };
    const pending = admin(env, 'upgrade-requests');
    assert.match(pending.out, new RegExp(u.company_code));
    const granted = admin(env, 'grant-tier', '--company', u.company_code);
    assert.equal(granted.code, 0, granted.out);
    assert.match(granted.out, new RegExp(`tier free -> enterprise; upgrade request #${asked.body.request.id} granted`));
    assert.match(admin(env, 'grant-tier', '--company', u.company_code + 'X').out, /no company with code/);

    const s2 = await startServer(database.overrides);
    try {
      const login = await s2.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: u.company_code } });
      assert.equal(login.body.tier_data.tier, 'enterprise');
      assert.equal(login.body.tier_data.tier_permissions.portfolio_losses, true);
      assert.ok(login.body.pending_notifications.some((n: { title: string }) => n.title === 'Upgrade granted'));
      const mine = await s2.api.get('/api/v2/upgrade_requests/', { token: login.body.token });
      assert.equal(mine.body.requests[0].status, 'granted');
      assert.equal(mine.body.requests[0].decided_by, 'admin-cli');
    } finally {
      await s2.close();
    }
  });
});
