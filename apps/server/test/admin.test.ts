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
});
