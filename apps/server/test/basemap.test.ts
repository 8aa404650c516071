import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { parseRange } from '../src/modules/maps/basemap.routes.js';
import { startServer, type TestServer } from './support/harness.js';

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
    assert.deepEqual((await plain.api.get('/api/config/')).body, { basemap: { style_url: null, pmtiles_url: null } });
    assert.deepEqual((await local.api.get('/api/config/')).body, { basemap: { style_url: null, pmtiles_url: '/api/basemap/tiles.pmtiles' } });
    assert.deepEqual((await remote.api.get('/api/config/')).body, {
      basemap: { style_url: 'https://tiles.example.org/styles/street.json', pmtiles_url: null },
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
