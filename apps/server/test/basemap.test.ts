import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { parseRange } from '../src/modules/maps/basemap.routes.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const directive = (csp: string | null, name: string) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find((d) => d[0] === name)
    ?.slice(1);

test('parseRange: first-last, open-ended, suffix; unsatisfiable is null; malformed and multi-range serve the whole file', () => {
  assert.deepEqual(parseRange('bytes=0-126', 1000), { start: 0, end: 126 });
  assert.deepEqual(parseRange('bytes=900-', 1000), { start: 900, end: 999 });
  assert.deepEqual(parseRange('bytes=990-5000', 1000), { start: 990, end: 999 }, 'end clipped to the file');
  assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 });
  assert.equal(parseRange('bytes=1000-', 1000), null);
  assert.equal(parseRange('bytes=5-2', 1000), null);
  assert.equal(parseRange('bytes=-0', 1000), null);
  assert.equal(parseRange('bytes=0-1,5-6', 1000), 'ignore');
  assert.equal(parseRange('items=0-1', 1000), 'ignore');
});

test('configuration: bad basemap settings stop the start with the variable named', () => {
  assert.throws(() => loadConfig({ BASEMAP_STYLE_URL: 'ftp://x/style.json' }), /BASEMAP_STYLE_URL: must be an http\(s\) URL or a path starting with \//);
  assert.throws(() => loadConfig({ BASEMAP_PMTILES: '/no/such/file.pmtiles' }), /BASEMAP_PMTILES: no file at \/no\/such\/file\.pmtiles/);
  assert.throws(() => loadConfig({ BASEMAP_PMTILES: '/etc/passwd' }), /BASEMAP_PMTILES: must be an http\(s\) URL or the path of a \.pmtiles file/);
  assert.throws(() => loadConfig({ BASEMAP_ORIGINS: 'https://a.example/path' }), /BASEMAP_ORIGINS/);
});

describe('basemap configuration and the served PMTiles archive', () => {
  let plain: TestServer;
  let local: TestServer;
  let remote: TestServer;
  let work = '';
  const archive = randomBytes(70_000);
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'crp-basemap-'));
    const file = join(work, 'osm.pmtiles');
    writeFileSync(file, archive);
    plain = await startServer();
    local = await startServer({ BASEMAP_PMTILES: file });
    remote = await startServer({ BASEMAP_STYLE_URL: 'https://tiles.example.org/styles/street.json', BASEMAP_ORIGINS: ['https://fonts.example.org'] });
  });
  after(async () => {
    await Promise.all([plain?.close(), local?.close(), remote?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('GET /api/config/ (no login) tells the web app which basemap to draw', async () => {
    assert.deepEqual((await plain.api.get('/api/config/')).body, { basemap: { style_url: null, pmtiles_url: null, labels: false } });
    assert.deepEqual((await local.api.get('/api/config/')).body, { basemap: { style_url: null, pmtiles_url: '/api/basemap/tiles.pmtiles', labels: true } });
    assert.deepEqual((await remote.api.get('/api/config/')).body, {
      basemap: { style_url: 'https://tiles.example.org/styles/street.json', pmtiles_url: null, labels: false },
    });
  });

  test('the archive is served with Range requests, byte for byte', async () => {
    const url = `${local.url}/api/basemap/tiles.pmtiles`;
    const head = await fetch(url, { headers: { range: 'bytes=0-126' } });
    assert.equal(head.status, 206);
    assert.equal(head.headers.get('content-range'), `bytes 0-126/${archive.length}`);
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    assert.deepEqual(Buffer.from(await head.arrayBuffer()), archive.subarray(0, 127));
    const mid = await fetch(url, { headers: { range: 'bytes=40000-40999' } });
    assert.equal(mid.status, 206);
    assert.deepEqual(Buffer.from(await mid.arrayBuffer()), archive.subarray(40_000, 41_000));
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), archive.subarray(archive.length - 10));
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), archive);
    const beyond = await fetch(url, { headers: { range: `bytes=${archive.length}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${archive.length}`);
    assert.match(((await beyond.json()) as { detail: string }).detail, /^range: /);
    const none = await fetch(`${plain.url}/api/basemap/tiles.pmtiles`, { headers: { range: 'bytes=0-10' } });
    assert.equal(none.status, 404, 'nothing configured: 404');
  });

  test('a remote style lets the browser fetch from its origin and the listed ones, and no others', async () => {
    const csp = (await fetch(`${remote.url}/api/health`)).headers.get('content-security-policy');
    assert.deepEqual(directive(csp, 'connect-src'), ["'self'", 'https://fonts.example.org', 'https://tiles.example.org']);
    assert.deepEqual(directive(csp, 'img-src'), ["'self'", 'data:', 'blob:', 'https://fonts.example.org', 'https://tiles.example.org']);
    assert.deepEqual(directive(csp, 'script-src'), ["'self'"]);
    const localCsp = (await fetch(`${local.url}/api/health`)).headers.get('content-security-policy');
    assert.deepEqual(directive(localCsp, 'connect-src'), ["'self'"], 'a served local file needs no other origin');
  });
});

describe('the street basemap set by an operator in the app (issue 37 item 4)', () => {
  let s: TestServer;
  let work = '';
  let file = '';
  let op: Awaited<ReturnType<typeof registerAndLogin>>;
  let member: Awaited<ReturnType<typeof registerAndLogin>>;
  // A PMTiles v3 header and some bytes: the server checks the magic, the browser test reads real tiles.
  const archive = Buffer.concat([Buffer.from('PMTiles'), Buffer.from([3]), randomBytes(2000)]);
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'crp-basemap-set-'));
    file = join(work, 'region.pmtiles');
    writeFileSync(file, archive);
    writeFileSync(join(work, 'not-an-archive.pmtiles'), 'hello');
    s = await startServer({ BASEMAP_STYLE_URL: 'https://env.example.org/style.json' });
    op = await registerAndLogin(s.api);
    member = await registerAndLogin(s.api);
    await s.db.updateTable('users').set({ is_operator: true }).where('id', '=', op.userId).execute();
  });
  after(async () => {
    await s?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('only operators read or change it (403 for a company administrator)', async () => {
    assert.equal((await s.api.get('/api/v2/basemap_settings/', { token: member.token })).status, 403);
    assert.equal((await s.api.request('PUT', '/api/v2/basemap_settings/', { token: member.token, json: { pmtiles: file } })).status, 403);
    assert.equal((await s.api.request('DELETE', '/api/v2/basemap_settings/', { token: member.token })).status, 403);
    assert.equal((await s.api.get('/api/v2/basemap_settings/')).status, 401);
  });

  test('the environment is the default; bad input is a 400 naming the field', async () => {
    const r = await s.api.get('/api/v2/basemap_settings/', { token: op.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.source, 'environment');
    assert.equal(r.body.settings, null);
    assert.equal(r.body.basemap.style_url, 'https://env.example.org/style.json');
    for (const [json, field, message] of [
      [{ pmtiles: join(work, 'missing.pmtiles') }, 'pmtiles', /no file at/],
      [{ pmtiles: join(work, 'not-an-archive.pmtiles') }, 'pmtiles', /not a PMTiles version 3 archive/],
      [{ pmtiles: '/etc/passwd' }, 'pmtiles', /http\(s\) URL or the path of a \.pmtiles file/],
      [{ style_url: 'ftp://x/style.json' }, 'style_url', /http\(s\) URL or a path/],
      [{}, 'style_url', /style_url or pmtiles/],
    ] as const) {
      const bad = await s.api.request('PUT', '/api/v2/basemap_settings/', { token: op.token, json });
      assert.equal(bad.status, 400, JSON.stringify(json));
      assert.match(JSON.stringify(bad.body), new RegExp(field));
      assert.match(JSON.stringify(bad.body), message);
    }
  });

  test('a local archive set in the app replaces the environment: /api/config/, the served file and the CSP follow; removing it restores the default', async () => {
    const set = await s.api.request('PUT', '/api/v2/basemap_settings/', { token: op.token, json: { pmtiles: file, labels: true } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.source, 'settings');
    assert.equal(set.body.settings.updated_by, op.username);
    assert.deepEqual((await s.api.get('/api/config/')).body, { basemap: { style_url: null, pmtiles_url: '/api/basemap/tiles.pmtiles', labels: true } });
    const head = await fetch(`${s.url}/api/basemap/tiles.pmtiles`, { headers: { range: 'bytes=0-126' } });
    assert.equal(head.status, 206);
    assert.deepEqual(Buffer.from(await head.arrayBuffer()), archive.subarray(0, 127));

    const remote = await s.api.request('PUT', '/api/v2/basemap_settings/', {
      token: op.token,
      json: { pmtiles: 'https://tiles.example.net/asia.pmtiles', labels: false },
    });
    assert.equal(remote.status, 200);
    assert.deepEqual((await s.api.get('/api/config/')).body.basemap, { style_url: null, pmtiles_url: 'https://tiles.example.net/asia.pmtiles', labels: false });
    const csp = (await fetch(`${s.url}/api/health`)).headers.get('content-security-policy');
    assert.ok(directive(csp, 'connect-src')?.includes('https://tiles.example.net'), csp ?? '');
    assert.equal((await fetch(`${s.url}/api/basemap/tiles.pmtiles`)).status, 404, 'a remote archive is not served here');

    const cleared = await s.api.request('DELETE', '/api/v2/basemap_settings/', { token: op.token });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.source, 'environment');
    assert.deepEqual((await s.api.get('/api/config/')).body.basemap, { style_url: 'https://env.example.org/style.json', pmtiles_url: null, labels: false });
  });
});
