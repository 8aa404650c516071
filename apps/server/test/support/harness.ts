import { tierColumns } from '../../src/modules/accounts/tier.service.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type DB } from '../../src/infra/db/database.js';
import { migrateToLatest } from '../../src/infra/db/migrate.js';
import { pgliteTemplateDump, seedPgliteDataDir, templateKey } from './pglite-template.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string | number | undefined>;
  raw?: { body: string; contentType: string };
  /** multipart/form-data: string fields and files ({filename, data}). */
  multipart?: Record<string, string | { filename: string; data: Buffer | Uint8Array; type?: string }>;
  token?: string;
}

/** A small HTTP client over real sockets. */
export function client(base: string) {
  async function request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    let body: string | FormData | undefined;
    if (opts.multipart) {
      const fd = new FormData();
      for (const [k, v] of Object.entries(opts.multipart)) {
        if (typeof v === 'string') fd.set(k, v);
        else fd.set(k, new Blob([v.data], { type: v.type ?? 'application/octet-stream' }), v.filename);
      }
      body = fd;
    } else if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const f = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) if (v !== undefined) f.set(k, String(v));
      body = f.toString();
    } else if (opts.raw) {
      headers['content-type'] = opts.raw.contentType;
      body = opts.raw.body;
    }
    if (opts.token) headers.authorization = `Token ${opts.token}`;
    const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    request,
    get: <T = any>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T = any>(path: string, opts?: RequestOptions) => request<T>('POST', path, opts),
  };
}
export type Api = ReturnType<typeof client>;

export interface TestServer {
  url: string;
  api: Api;
  app: FastifyInstance;
  db: DB;
  config: Config;
  close(): Promise<void>;
}

/**
 * PostgreSQL's counterpart of the PGlite template: a database that went through every migration, made once per set of
 * migrations (its name holds the same hash as the PGlite template's) on TEST_DATABASE_URL's server, that test
 * databases are copied from (`create database ... template`) instead of each running the migrations (about 1 s a
 * database on a loaded 2-core machine). It takes no connections once made (a template must have none while it is
 * copied). Made under an advisory lock, so test files starting together make it once.
 */
async function postgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `crp_tpl_${templateKey()}`;
  const exists = async () => ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0) > 0;
  if (await exists()) return name;
  const lock = 0x637270; // "crp"
  await admin.query('select pg_advisory_lock($1)', [lock]);
  try {
    if (await exists()) return name;
    const build = `${name}_build`;
    await admin.query(`drop database if exists ${build}`);
    await admin.query(`create database ${build}`);
    const u = new URL(adminUrl);
    u.pathname = `/${build}`;
    const handle = await openDatabase({ DATABASE_URL: u.toString(), DATA_DIR: '' });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    await admin.query(`alter database ${build} rename to ${name}`);
    await admin.query(`alter database ${name} with allow_connections false`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [lock]);
  }
}

/**
 * A throw-away database for one test file: a new database on TEST_DATABASE_URL's server when TEST_DB=postgres (a copy
 * of the migrated template above), else a PGlite data directory in a temp folder holding a copy of the migrated
 * template (support/pglite-template.ts). With `empty`, a database without even the migrations (PostgreSQL: a plain
 * `create database`; PGlite: no folder, so the first open runs initdb). `drop` removes it.
 */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<{ overrides: Partial<Config>; drop(): Promise<void> }> {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
    const name = `crp_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(opts.empty ? `create database ${name}` : `create database ${name} template ${await postgresTemplate(admin, adminUrl)}`);
    } finally {
      await admin.end();
    }
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    return {
      overrides: { DATABASE_URL: u.toString() },
      async drop() {
        // Wait for closing connections to go rather than killing them (a killed connection errors in its process).
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        try {
          for (let i = 0; ; i++) {
            try {
              await a.query(i < 40 ? `drop database if exists ${name}` : `drop database if exists ${name} with (force)`);
              break;
            } catch (err) {
              if (i >= 40) throw err;
              await new Promise((r) => setTimeout(r, 250));
            }
          }
        } finally {
          await a.end();
        }
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'crp-data-'));
  if (!opts.empty) await seedPgliteDataDir(dir);
  return { overrides: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the real app listening on a random loopback port. Without a DATABASE_URL or DATA_DIR override it gets
 * a fresh database of its own (PostgreSQL when TEST_DB=postgres, else in-memory PGlite), dropped on close.
 */
export async function startServer(overrides: Partial<Config> = {}, options: { jobs?: boolean; logStream?: NodeJS.WritableStream } = {}): Promise<TestServer> {
  let drop: (() => Promise<void>) | null = null;
  if (!overrides.DATABASE_URL && !overrides.DATA_DIR && process.env.TEST_DB === 'postgres') {
    const t = await createTestDatabase();
    overrides = { ...overrides, ...t.overrides };
    drop = t.drop;
  }
  const config = loadConfig({}, { LOG_LEVEL: 'silent', SEED_DEMO: false, DATA_DIR: 'memory://', ARGON2_MEMORY_KIB: 8192, ARGON2_TIME_COST: 1, ...overrides });
  // In-memory PGlite starts from the migrated template rather than running initdb (migrateToLatest then applies nothing).
  const handle = await openDatabase(
    config,
    config.DATABASE_URL || !config.DATA_DIR.startsWith('memory://') ? {} : { pgliteLoadDataDir: await pgliteTemplateDump() },
  );
  await migrateToLatest(handle.db);
  const app = await buildApp(config, handle, options.logStream ? { logStream: options.logStream as never } : {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (options.jobs) app.services.jobs.start();
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    api: client(url),
    app,
    db: handle.db,
    config,
    async close() {
      await app.services.jobs.stop();
      await app.close();
      await handle.close();
      await drop?.();
    },
  };
}

let seq = 0;
/** Test data factory: a unique new user with a new company. */
export function newUser(overrides: Record<string, string> = {}) {
  seq += 1;
  const tag = `${process.pid}${seq}${Math.random().toString(36).slice(2, 6)}`;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    username: `user${tag}`,
    email: `user${tag}@example.com`,
    password: 'correct horse battery',
    confirm_password: 'correct horse battery',
    company_name: `Company ${tag}`,
    ...overrides,
  };
}

export async function registerAndLogin(api: Api, overrides: Record<string, string> = {}) {
  const u = newUser(overrides);
  const reg = await api.post('/api/user/register/', { json: u });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: reg.body.company_code } });
  if (login.status !== 201) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { ...u, company_code: reg.body.company_code as string, userId: reg.body.user.id as number, token: login.body.token as string, login: login.body };
}

export { startSmtpSink } from './smtp-sink.js';

/** Waits until `fn` returns a value (polling), for asynchronous effects such as mail delivery. */
export async function eventually<T>(fn: () => T | undefined | null, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls a project's status until its analysis is done or failed; returns the last status. */
export async function waitForAnalysis(
  s: { api: Api },
  token: string,
  projectId: number,
  timeoutMs = 120_000,
): Promise<{ status: string; progress: number; message: string | null }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const st = await s.api.get(`/api/v2/projects/${projectId}/status/`, { token });
    if (st.body?.status === 'done' || st.body?.status === 'failed') return st.body;
    if (Date.now() > end) throw new Error(`analysis of project ${projectId} not finished: ${JSON.stringify(st.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Versions of a project's stored chunks other than its current run (results keyed by run, migration 0020): [] when clean. */
export async function storedVersionsBesidesCurrent(db: DB, projectId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('analysis_chunks as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select('c.version')
    .distinct()
    .where('c.project_id', '=', projectId)
    .where((eb) => eb.or([eb('p.results_version', 'is', null), eb('c.version', '!=', eb.ref('p.results_version'))]))
    .execute();
  return rows.map((r) => r.version);
}

/**
 * Puts the user's company on a paid tier, so the results API, exports and project cards carry money figures: a
 * self-registered company starts on Free, which withholds them everywhere (issue 37 item 1). Answers the user.
 */
export async function onPaidPlan<U extends { company_code: string }>(s: { db: DB }, u: U, tier: 'professional' | 'enterprise' = 'enterprise'): Promise<U> {
  await s.db.updateTable('companies').set(tierColumns(tier)).where('code', '=', u.company_code).execute();
  return u;
}
