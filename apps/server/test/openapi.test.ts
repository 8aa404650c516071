import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { generateOpenApi, OPENAPI_FILE } from '../src/dev/openapi.js';

test('the committed docs/openapi.json matches the route schemas (run `npm run openapi` after changing a route)', async () => {
  const fresh = await generateOpenApi();
  assert.ok(existsSync(OPENAPI_FILE), 'docs/openapi.json is missing: run npm run openapi');
  assert.equal(readFileSync(OPENAPI_FILE, 'utf8'), fresh);
  const doc = JSON.parse(fresh);
  // Every route that is not public declares the token security scheme.
  // Public on purpose: sign-up, sign-in and the password reset (its token is the secret), the landing page's demo form, health, the change log, and file and report links (the link itself is the secret).
  const publicRoutes = new Set([
    '/api/user/register/',
    '/api/user/rest_login/',
    '/api/user/password_reset/request/',
    '/api/user/password_reset/confirm/',
    '/api/demo_request/',
    '/api/health',
    '/api/changelog/',
    '/api/config/',
    '/api/basemap/tiles.pmtiles',
    '/api/v2/files/{token}/{filename}',
    '/api/v2/reports/{token}/{filename}',
  ]);
  for (const [path, ops] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (publicRoutes.has(path)) continue;
      assert.ok(op.security?.length, `${method.toUpperCase()} ${path} must declare TokenAuth security or be listed as public`);
    }
  }
});

test('every operation has an operationId derived from its method and path: present, unique and stable', async () => {
  const { operationIdOf } = await import('../src/plugins/openapi.js');
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const seen = new Map<string, string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has no operationId`);
      assert.match(op.operationId, /^[a-z]+[A-Za-z0-9]*$/, `${where}: operationId ${op.operationId} is not a camelCase identifier`);
      assert.equal(op.operationId, operationIdOf(method, path), `${where}: operationId is not the one derived from the route`);
      assert.ok(!seen.has(op.operationId), `${where} and ${seen.get(op.operationId)} share the operationId ${op.operationId}`);
      seen.set(op.operationId, where);
    }
  }
  // Stable names clients already call (renaming one breaks generated clients: add a route instead).
  assert.equal(operationIdOf('post', '/api/v2/download_csv_report/'), 'postV2DownloadCsvReport');
  assert.equal(operationIdOf('GET', '/api/v2/map_tiles/{layer}/{x}/{y}/{z}'), 'getV2MapTilesByLayerByXByYByZ');
  assert.equal(operationIdOf('GET', '/api/v2/map_tiles/:layer/:x/:y/:z'), 'getV2MapTilesByLayerByXByYByZ', 'Fastify and OpenAPI path forms agree');
});
