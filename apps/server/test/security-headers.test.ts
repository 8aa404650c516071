// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (HTTP response headers: the database holds only the test's account).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from './support/harness.js';

/** Security headers of every answer: CSP without inline or eval'd script, Permissions-Policy, HSTS only over TLS. */
const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([k, ...v]) => [k!, v]),
  );
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter((m) => !/\bsrc=/.test(m[1]!) || m[2]!.trim() !== '');

describe('security headers', () => {
  let s: TestServer;
  let proxied: TestServer;
  before(async () => {
    s = await startServer();
    proxied = await startServer({ TRUST_PROXY: true });
  });
  after(async () => {
    await s.close();
    await proxied.close();
  });

  test('the app, the API, the API docs and errors carry the CSP and the other headers', async () => {
    for (const path of ['/', '/dashboard', '/api/health', '/docs', '/docs/static/index.html', '/api/no-such-route', '/openapi.json']) {
      const res = await fetch(s.url + path);
      const csp = directives(res.headers.get('content-security-policy'));
      assert.deepEqual(csp.get('script-src'), ["'self'"], `${path}: scripts from our origin only, no inline, no eval`);
      assert.deepEqual(csp.get('default-src'), ["'self'"], path);
      assert.deepEqual(csp.get('object-src'), ["'none'"], path);
      assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], path);
      assert.deepEqual(csp.get('connect-src'), ["'self'"], path);
      assert.deepEqual(csp.get('worker-src'), ["'self'", 'blob:'], `${path}: MapLibre and pdf.js workers`);
      assert.deepEqual(csp.get('img-src'), ["'self'", 'data:', 'blob:'], path);
      assert.ok(!csp.get('style-src')?.some((v) => v === '*' || v.startsWith('http')), path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('referrer-policy'), 'same-origin', path);
      assert.match(res.headers.get('permissions-policy') ?? '', /camera=\(\).*microphone=\(\).*geolocation=\(self\)/, path);
      assert.equal(res.headers.get('strict-transport-security'), null, `${path}: no HSTS over plain HTTP`);
    }
  });

  test('HSTS only behind a TLS proxy that is trusted', async () => {
    const viaTls = await fetch(`${proxied.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(viaTls.headers.get('strict-transport-security') ?? '', /^max-age=31536000; includeSubDomains$/);
    const viaHttp = await fetch(`${proxied.url}/api/health`, { headers: { 'x-forwarded-proto': 'http' } });
    assert.equal(viaHttp.headers.get('strict-transport-security'), null);
    const untrusted = await fetch(`${s.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(untrusted.headers.get('strict-transport-security'), null, 'a forged X-Forwarded-Proto is ignored without TRUST_PROXY');
  });

  test('the pages we serve have no inline script (the CSP would block it)', async () => {
    const docs = await (await fetch(`${s.url}/docs/static/index.html`)).text();
    assert.match(docs, /swagger-initializer\.js/, 'Swagger UI starts from a served file');
    assert.deepEqual(inlineScripts(docs), []);
    const app = await (await fetch(`${s.url}/`)).text();
    assert.match(app, /<script|not built/);
    assert.deepEqual(inlineScripts(app), [], 'index.html of the web app');
  });
});
