import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assetLimitMessage, isAssetLimitMessage, PASSWORDS_DO_NOT_MATCH, RegisterBody, USERNAME_PATTERN } from '../src/index.js';

// Rules the server and the web app both read from here (issue 24): one definition, the same words on both sides.

test('assetLimitMessage: the 400 of a portfolio over the tier limit, recognised by isAssetLimitMessage', () => {
  assert.equal(assetLimitMessage(100), 'You are only allowed to add 100 assets for Analysis');
  assert.ok(isAssetLimitMessage(assetLimitMessage(2000)));
  assert.ok(!isAssetLimitMessage('You are only allowed to add many assets for Analysis'));
  assert.ok(!isAssetLimitMessage(`data: ${assetLimitMessage(100)}`));
});

test('RegisterBody: the username pattern and the password confirmation message the register form shows', () => {
  assert.ok(USERNAME_PATTERN.test('jane.doe+risk@acme-1'));
  assert.ok(!USERNAME_PATTERN.test('jane doe'));
  const body = {
    first_name: 'A',
    last_name: 'B',
    username: 'jane',
    email: 'jane@example.com',
    password: 'x'.repeat(12),
    confirm_password: 'y'.repeat(12),
    company_name: 'Acme',
  };
  const r = RegisterBody.safeParse(body);
  assert.ok(!r.success);
  assert.deepEqual(
    r.error.issues.map((i) => [i.path.join('.'), i.message]),
    [['confirm_password', PASSWORDS_DO_NOT_MATCH]],
  );
});
