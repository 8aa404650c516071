import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, REPO_ROOT } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { DISK_FULL_DETAIL, isDiskFull } from '../src/lib/disk-full.js';
import { serverEntryArgs } from './support/entries.js';
import { createTestDatabase } from './support/harness.js';
import { pgliteTemplateDump } from './support/pglite-template.js';

/**
 * Disk full (issue 32): a write that fails with ENOSPC is a 507 saying so, from the one error handler, whatever
 * layer wrote: the file system (a real ENOSPC: writing to /dev/full) or the database (a real error with SQLSTATE 53100
 * disk_full raised by the database itself, PGlite or PostgreSQL, as it raises "could not extend file"). A start on a
 * full disk (PGlite's data folder on a 2 MB tmpfs, mounted in a user namespace) is one line, not a stack trace.
 */

describe('disk full: 507 with a clear message; a start on a full disk says so in one line', { timeout: 300_000 }, () => {
  let app: FastifyInstance;
  let handle: DatabaseHandle;
  let url = '';
  let drop: (() => Promise<void>) | null = null;

  before(async () => {
    const t = process.env.TEST_DB === 'postgres' ? await createTestDatabase() : null;
    drop = t?.drop ?? null;
    const config = loadConfig(
      {},
      { LOG_LEVEL: 'silent', SEED_DEMO: false, DATA_DIR: 'memory://', ARGON2_MEMORY_KIB: 8192, ARGON2_TIME_COST: 1, ...t?.overrides },
    );
    handle = await openDatabase(config, config.DATABASE_URL ? {} : { pgliteLoadDataDir: await pgliteTemplateDump() });
    await migrateToLatest(handle.db);
    app = await buildApp(config, handle);
    // Routes of this test only, each meeting a real error of its layer, answered by the app's one error handler.
    app.post('/test/file-write', async () => {
      await writeFile('/dev/full', Buffer.alloc(65_536, 1));
      return { saved: true };
    });
    app.post('/test/database-write', async () => {
      await sql`do $$ begin raise exception using errcode = 'disk_full', message = 'could not extend file "base/16384/16402": No space left on device'; end $$`.execute(
        handle.db,
      );
      return { saved: true };
    });
    app.post('/test/other-error', async () => {
      await writeFile('/dev/null/not-a-folder', 'x');
      return { saved: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  after(async () => {
    await app?.close();
    await handle?.close();
    await drop?.();
  });

  test('ENOSPC from the file system and SQLSTATE 53100 from the database answer 507 with the message; other errors stay 500', async () => {
    for (const path of ['/test/file-write', '/test/database-write']) {
      const res = await fetch(`${url}${path}`, { method: 'POST' });
      assert.equal(res.status, 507, path);
      const body = (await res.json()) as { detail: string };
      assert.equal(body.detail, DISK_FULL_DETAIL);
      assert.match(body.detail, /^The server's disk is full; nothing was saved\./);
    }
    const other = await fetch(`${url}/test/other-error`, { method: 'POST' });
    assert.equal(other.status, 500, 'ENOTDIR is not a full disk');
    assert.doesNotMatch(await other.text(), /disk is full/);
  });

  test('isDiskFull knows the real errors, also wrapped as a cause', async () => {
    const enospc = await writeFile('/dev/full', 'x').then(
      () => null,
      (err: unknown) => err,
    );
    assert.equal((enospc as NodeJS.ErrnoException).code, 'ENOSPC');
    assert.equal(isDiskFull(enospc), true);
    assert.equal(isDiskFull(new Error('export failed', { cause: enospc })), true);
    const fromDb = await sql`do $$ begin raise exception using errcode = 'disk_full', message = 'disk full here'; end $$`.execute(handle.db).then(
      () => null,
      (err: unknown) => err,
    );
    assert.equal((fromDb as { code?: string }).code, '53100', `the driver gives the SQLSTATE: ${String(fromDb)}`);
    assert.equal(isDiskFull(fromDb), true);
    assert.equal(isDiskFull(new Error('no such file')), false);
    assert.equal(isDiskFull(null), false);
  });

  test('a start with the data folder on a full disk exits with one clear line, no stack trace', async (t) => {
    if (process.env.TEST_DB === 'postgres') return t.skip('the embedded database writes its data folder; PostgreSQL writes on its own server');
    const probe = spawnSync('unshare', ['-rm', 'true']);
    if (probe.status !== 0) return t.skip(`cannot mount a small tmpfs here (unshare -rm: ${probe.stderr?.toString().trim() || probe.error?.message})`);
    const mount = mkdtempSync(join(tmpdir(), 'crp-full-'));
    try {
      const server = [process.execPath, ...serverEntryArgs('main')].map((a) => `"${a}"`).join(' ');
      const child = spawn('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=2m tmpfs "$MOUNT" && exec ${server}`], {
        cwd: REPO_ROOT,
        env: { ...process.env, MOUNT: mount, DATA_DIR: join(mount, 'data'), PORT: '0', SEED_DEMO: 'false', MAP_PRERENDER_WORLD: 'false', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      assert.equal(code, 1, `exit code; stderr:\n${err}\nstdout:\n${out}`);
      const lines = err.split('\n').filter((l) => l.trim());
      assert.equal(lines.length, 1, `one line on stderr:\n${err}`);
      assert.match(
        lines[0]!,
        /^Cannot start: the disk holding the data folder .*crp-full-.*\/data is full \(.+\)\. Free space there and start again; no data was changed\.$/,
      );
      assert.doesNotMatch(err + out, /\n\s+at |ErrnoError \{/, 'no stack trace');
    } finally {
      rmSync(mount, { recursive: true, force: true });
    }
  });
});
