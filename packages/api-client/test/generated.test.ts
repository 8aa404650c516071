import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GENERATED_FILE, generateClientTypes } from '../scripts/generate.js';

test('the committed client types match docs/openapi.json (run `npm run openapi` after changing a route)', async () => {
  const fresh = await generateClientTypes();
  assert.equal(readFileSync(GENERATED_FILE, 'utf8'), fresh);
  // The result schemas are named components, so client code can name them.
  assert.match(fresh, /\n {8}AssetResult: \{/);
  assert.match(fresh, /postV2AssetResults: \{/);
});
