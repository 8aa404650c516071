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
  // Public on purpose: sign-up and sign-in, the landing page's demo form, health, the change log, and file and report links (the link itself is the secret).
  const publicRoutes = new Set(['/api/user/register/', '/api/user/rest_login/', '/api/demo_request/', '/api/health', '/api/changelog/', '/api/config/', '/api/basemap/tiles.pmtiles', '/api/v2/files/{token}/{filename}', '/api/v2/reports/{token}/{filename}']);
  for (const [path, ops] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (publicRoutes.has(path)) continue;
      assert.ok(op.security?.length, `${method.toUpperCase()} ${path} must declare TokenAuth security or be listed as public`);
    }
  }
});
