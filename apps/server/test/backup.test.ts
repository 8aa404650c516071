import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { REPO_ROOT, type Config } from '../src/config.js';
import { serverEntryArgs } from './support/entries.js';
import { createTestDatabase, registerAndLogin, startServer, waitForAnalysis } from './support/harness.js';

/**
 * Backup and restore through the admin command, as an operator runs it: a database with a company, a portfolio, an
 * analysed project and a stored export is backed up, restored into a fresh database, and a server started on the copy
 * must answer exactly as the original did, with ids continuing after the restored ones.
 */

function admin(env: Record<string, string | undefined>, ...args: string[]) {
  const t0 = Date.now();
  const res = spawnSync(process.execPath, [...serverEntryArgs('admin'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout + res.stderr, ms: Date.now() - t0 };
}

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
/** Server settings for a database plus a file-store folder of its own (PostgreSQL mode keeps files under DATA_DIR too). */
function settings(d: TestDb, filesDir: string): Partial<Config> {
  return d.overrides.DATABASE_URL ? { DATABASE_URL: d.overrides.DATABASE_URL, DATA_DIR: filesDir } : { DATA_DIR: d.overrides.DATA_DIR! };
}
const envOf = (o: Partial<Config>) => ({ DATA_DIR: o.DATA_DIR, DATABASE_URL: o.DATABASE_URL });

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test', connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

describe('backup and restore (admin command)', () => {
  const work = mkdtempSync(join(tmpdir(), 'crp-backup-'));
  const file = join(work, 'backup.jsonl.gz');
  let source: TestDb;
  let sourceSettings: Partial<Config>;
  let user: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  let projectList: unknown;
  let dashboard: unknown;
  let fileUrl: string;
  let fileBytes: Buffer;
  let maxProjectId: number;
  const drops: (() => Promise<void>)[] = [];

  before(async () => {
    source = await createTestDatabase();
    drops.push(() => source.drop());
    sourceSettings = settings(source, join(work, 'source-files'));
    const s = await startServer(sourceSettings, { jobs: true });
    try {
      user = await registerAndLogin(s.api);
      const data = [
        { name: 'Kowloon Warehouse', latitude: 22.31, longitude: 114.22, property_type: 'Warehouse', valuation: 4e7, revenue: 1e7 },
        { name: 'Manila Office', latitude: 14.58, longitude: 120.98, property_type: 'Office', valuation: 6e7, revenue: 2e7 },
        { name: 'Madrid Office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 5e7, revenue: 1e7 },
      ];
      const res = await s.api.post('/api/v2/create_project/', {
        token: user.token,
        json: { portfolio_name: 'Backed up', data, portfolio_variables: ['Extreme Heat', 'Drought', 'Wildfire'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      projectId = res.body.project.project_id;
      assert.equal((await waitForAnalysis(s, user.token, projectId)).status, 'done');
      projectList = (await s.api.get(`/api/project/${user.userId}/`, { token: user.token })).body;
      const dash = await s.api.post('/api/v2/dashboard/', {
        token: user.token,
        json: { project_id: projectId, analysis_type: 'ssp', scenario: '85', year: 2050 },
      });
      assert.equal(dash.status, 200);
      dashboard = dash.body;
      const exp = await s.api.post('/api/v2/summary_report/', { token: user.token, json: { project_name: 'Backed up', project_id: projectId } });
      assert.equal(exp.status, 200, JSON.stringify(exp.body));
      fileUrl = exp.body.url;
      const got = await fetch(new URL(fileUrl, s.url));
      assert.equal(got.status, 200);
      fileBytes = Buffer.from(await got.arrayBuffer());
      maxProjectId = Number(
        (
          await s.db
            .selectFrom('projects')
            .select((eb) => eb.fn.max('id').as('m'))
            .executeTakeFirstOrThrow()
        ).m,
      );
    } finally {
      await s.close();
    }
  });
  after(async () => {
    for (const d of drops) await d();
    rmSync(work, { recursive: true, force: true });
  });

  /** Restores the backup into a fresh database and checks a server on it answers as the original did. */
  async function restoreAndCheck(target: TestDb, targetSettings: Partial<Config>) {
    const restored = admin(envOf(targetSettings), 'restore', file);
    assert.equal(restored.code, 0, restored.out);
    assert.match(restored.out, /restored \d+ tables, \d+ rows and 1 stored files/);
    console.log(
      `# restore into ${target.overrides.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${restored.ms} ms (${restored.out.split('\n').find((l) => l.startsWith('restored')) ?? ''})`,
    );

    const again = admin(envOf(targetSettings), 'restore', file);
    assert.equal(again.code, 2, 'a database holding data is refused without --force');
    assert.match(again.out, /not empty .*--force/);

    const s = await startServer(targetSettings);
    try {
      const login = await s.api.post('/api/user/rest_login/', { form: { username: user.username, password: user.password, company_code: user.company_code } });
      assert.equal(login.status, 201, 'the restored user logs in with the same password and company code');
      const token = login.body.token as string;
      // The old token was backed up with its hash: it still works on the copy.
      assert.equal((await s.api.get('/accounts/user/', { token: user.token })).status, 200);
      assert.deepEqual((await s.api.get(`/api/project/${user.userId}/`, { token })).body, projectList);
      const dash = await s.api.post('/api/v2/dashboard/', { token, json: { project_id: projectId, analysis_type: 'ssp', scenario: '85', year: 2050 } });
      assert.equal(dash.status, 200);
      assert.deepEqual(dash.body, dashboard, 'the dashboard answer is identical');
      const got = await fetch(new URL(fileUrl, s.url));
      assert.equal(got.status, 200, 'the stored export is restored behind the same link');
      assert.deepEqual(Buffer.from(await got.arrayBuffer()), fileBytes);
      // Ids continue after the restored ones: no collision.
      const created = await s.api.post('/api/v2/create_project/', {
        token,
        json: { portfolio_name: 'After restore', data: [{ name: 'A', latitude: 22.3, longitude: 114.2 }] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.ok(created.body.project.project_id > maxProjectId, `new id ${created.body.project.project_id} after ${maxProjectId}`);
      const another = await registerAndLogin(s.api);
      assert.ok(another.userId > user.userId);
    } finally {
      await s.close();
    }
    // A stored file of the data about to be replaced (a row-less export by then): --force removes it.
    const storeDir = join(targetSettings.DATA_DIR!, 'files');
    const orphan = join(storeDir, `${'ab'.repeat(16)}.bin`);
    writeFileSync(orphan, 'an export of the replaced data');
    const forced = admin(envOf(targetSettings), 'restore', file, '--force');
    assert.equal(forced.code, 0, forced.out);
    assert.equal(existsSync(orphan), false, '--force leaves no file of the replaced data in the store');
    const s2 = await startServer(targetSettings);
    try {
      const login = await s2.api.post('/api/user/rest_login/', { form: { username: user.username, password: user.password, company_code: user.company_code } });
      const list = await s2.api.get(`/api/project/${user.userId}/`, { token: login.body.token });
      assert.deepEqual(list.body, projectList, '--force replaced the data: the project made after the first restore is gone');
      const got = await fetch(new URL(fileUrl, s2.url));
      assert.deepEqual(Buffer.from(await got.arrayBuffer()), fileBytes, 'the restored export is still served');
    } finally {
      await s2.close();
    }
  }

  test('backup, then restore into a fresh database of the same kind: same login, project list, dashboard and files; ids continue', async () => {
    const b = admin(envOf(sourceSettings), 'backup', file);
    assert.equal(b.code, 0, b.out);
    assert.match(b.out, /backup written to .*1 stored files/);
    console.log(
      `# backup from ${source.overrides.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: ${b.ms} ms, ${statSync(file).size} bytes (${b.out.split('\n').find((l) => l.startsWith('backup written')) ?? ''})`,
    );
    if (!source.overrides.DATABASE_URL) assert.match(b.out, /server must be stopped/);
    const target = await createTestDatabase({ empty: true });
    drops.push(() => target.drop());
    await restoreAndCheck(target, settings(target, join(work, 'target-files')));
  });

  test('a backup restores into the other backend (PGlite <-> PostgreSQL)', async (t) => {
    if (source.overrides.DATABASE_URL) {
      const dir = mkdtempSync(join(tmpdir(), 'crp-cross-'));
      drops.push(async () => rmSync(dir, { recursive: true, force: true }));
      await restoreAndCheck({ overrides: { DATA_DIR: dir }, drop: async () => undefined }, { DATA_DIR: dir });
      return;
    }
    if (!(await postgresReachable())) return t.skip('no PostgreSQL server at TEST_DATABASE_URL');
    const prev = process.env.TEST_DB;
    process.env.TEST_DB = 'postgres';
    let target: TestDb;
    try {
      target = await createTestDatabase({ empty: true });
    } finally {
      process.env.TEST_DB = prev;
    }
    drops.push(() => target.drop());
    await restoreAndCheck(target, settings(target, join(work, 'cross-files')));
  });

  test('damaged or foreign files are refused with a clear message and change nothing', async () => {
    const target = await createTestDatabase({ empty: true });
    drops.push(() => target.drop());
    const env = envOf(settings(target, join(work, 'damaged-files')));
    const whole = readFileSync(file);
    const cut = join(work, 'cut.jsonl.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const truncated = admin(env, 'restore', cut);
    assert.equal(truncated.code, 2, truncated.out);
    assert.match(truncated.out, /cannot be read|truncated|ends early/);
    const foreign = join(work, 'foreign.txt');
    writeFileSync(foreign, 'hello');
    const notOurs = admin(env, 'restore', foreign);
    assert.equal(notOurs.code, 2);
    assert.match(notOurs.out, /cannot be read|not a backup/);
    assert.match(admin(env, 'restore').out, /restore needs one FILE/);
    // Nothing was half-restored: the good backup still goes in without --force.
    const ok = admin(env, 'restore', file);
    assert.equal(ok.code, 0, ok.out);
  });
});
