import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { totpGenerator } from './support/totp';
import { LandingPage } from './pages/LandingPage';
import { LoginPage } from './pages/LoginPage';
import { RegisterPage, type NewUser } from './pages/RegisterPage';
import { SetupPage, OVERRIDE_WARNING } from './pages/SetupPage';
import { Shell } from './pages/Shell';

const VIEWPORT = { width: 1440, height: 900 };

describe('accounts in the browser: register, 2FA setup, login with a code', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let companyCode = '';
  let nextCode: (() => Promise<string>) | null = null;

  const suffix = Date.now().toString(36);
  const user: NewUser = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: `ada_${suffix}`,
    email: `ada.${suffix}@example.com`,
    password: 'Str0ng-Passw0rd!',
    companyName: `Harbour Logistics ${suffix}`,
  };

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORT });
    page = await context.newPage();
    problems = watchConsole(page);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  it('shows the landing page with log in, sign up and a stored demo request', async () => {
    const landing = new LandingPage(page, server.baseUrl);
    await landing.open();
    await page
      .getByText(/future perils simulated every 20 years from 2020 to 2100/i)
      .first()
      .waitFor();
    assert.equal(await page.getByRole('link', { name: 'Log In' }).first().getAttribute('href'), '/login');
    assert.equal(await page.getByRole('link', { name: 'Sign Up' }).first().getAttribute('href'), '/register');
    await screenshot(page, 'landing');
    await landing.requestDemo({ name: 'Grace Hopper', email: `grace.${suffix}@example.com`, company: 'Navy Pension Fund' });
    await page.getByTestId('demo-success').scrollIntoViewIfNeeded();
    await screenshot(page, 'landing-demo-sent');
  });

  it('shows Page Not Found with Go Back for an unknown route', async () => {
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    const back = page.getByRole('link', { name: 'Go Back' });
    assert.equal(await back.getAttribute('href'), '/');
    await screenshot(page, 'not-found');
  });

  it('registers a new company and shows its company code', async () => {
    const register = new RegisterPage(page, server.baseUrl);
    await register.open();
    await register.fill(user, 'something-else');
    await register.mismatchMessage().waitFor();
    assert.equal(await register.registerButton().isDisabled(), true, 'Register stays disabled until the passwords match');
    await screenshot(page, 'register-mismatch');
    await register.setConfirmPassword(user.password);
    await page.waitForFunction(() => !document.body.innerText.includes('Passwords do not match'));
    assert.equal(await register.registerButton().isEnabled(), true);
    companyCode = await register.submit();
    assert.match(companyCode, /\S{4,}/, 'a company code is shown');
    await screenshot(page, 'register-success');
    await register.goToLogin();
  });

  it('logs in without 2FA and lands on /setup', async () => {
    const login = new LoginPage(page, server.baseUrl);
    await login.waitForForm();
    // The register page hands the username and company code over; fill everything anyway.
    await login.fill({ username: user.username, password: user.password, companyCode });
    await screenshot(page, 'login');
    const ping = page.waitForRequest((r) => r.url().endsWith('/user/update_last_accessed') && r.method() === 'POST');
    await login.submit();
    const setup = new SetupPage(page);
    await setup.waitForPage();
    assert.equal(new URLSearchParams((await ping).postData() ?? '').get('path'), '/setup', 'the last-accessed ping reports the page');
    await screenshot(page, 'setup');

    // Pending notifications show as toasts that stay until closed; closing one marks it read.
    const toasts = page.locator('.crp-toast');
    if ((await toasts.count()) > 0) {
      const marked = page.waitForResponse((r) => r.url().endsWith('/api/user/mark_notification_read/'));
      await toasts.first().getByRole('button', { name: /close/i }).click();
      assert.ok((await marked).ok(), 'mark_notification_read succeeds');
    } else {
      console.log('# no pending notifications for a new user: toast closing not exercised');
    }
  });

  it('shows the company admin their own login in the Activity log on /setup', async () => {
    const card = page.getByTestId('activity-log');
    await card.scrollIntoViewIfNeeded();
    const row = card.locator('tr.ant-table-row', { hasText: 'Logged in' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`Ada Lovelace[\\s\\S]*${user.username}[\\s\\S]*Logged in`));
    assert.match(await card.innerText(), /Created the company/);
    // The action filter asks the server for one group only.
    const filtered = page.waitForResponse((r) => r.url().includes('/api/v2/audit_log/') && r.url().includes('action=login'));
    const select = page.getByTestId('activity-action');
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Logins$/ });
    // An option clicked while antd still animates the dropdown in is sometimes not taken: one more try, then fail.
    for (let attempt = 1; ; attempt++) {
      await select.click();
      await option.waitFor();
      await option.click();
      try {
        await select.filter({ hasText: 'Logins' }).waitFor({ timeout: attempt === 1 ? 5_000 : 30_000 });
        break;
      } catch (err) {
        if (attempt >= 2) throw err;
        await page.keyboard.press('Escape');
      }
    }
    assert.equal((await filtered).status(), 200);
    await card.locator('tr.ant-table-row', { hasText: 'Created the company' }).waitFor({ state: 'detached' });
    assert.ok((await card.locator('tr.ant-table-row').count()) >= 1);
    await card.screenshot({ path: (await screenshot(page, 'setup-activity-log')).replace(/\.png$/, '-card.png') });
  });

  it('makes a read-only API token on /setup by keyboard, shows it once with a copy button, and revokes it (issue 32)', async () => {
    const card = page.getByTestId('api-tokens-card');
    await card.scrollIntoViewIfNeeded();
    await card.getByLabel('Name').focus();
    await page.keyboard.type('QGIS on my laptop');
    await page.keyboard.press('Enter');
    const secret = page.getByTestId('api-token-secret');
    await secret.waitFor();
    const token = (await secret.locator('.crp-api-token-secret').innerText()).trim();
    assert.match(token, /^crp_pat_[A-Za-z0-9_-]{43}$/);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Copy token', 'the copy button has the focus');
    await page.keyboard.press('Enter');
    await page.getByText('Token copied').first().waitFor();
    const row = card.locator('tr.ant-table-row', { hasText: 'QGIS on my laptop' });
    await row.waitFor();
    assert.match(await row.innerText(), /crp_pat_/);
    await card.screenshot({ path: (await screenshot(page, 'setup-api-tokens')).replace(/\.png$/, '-card.png') });
    // The token reads, and refuses to write.
    const get = await fetch(`${server.baseUrl}/accounts/user/`, { headers: { authorization: `Token ${token}` } });
    assert.equal(get.status, 200);
    const post = await fetch(`${server.baseUrl}/api/user/rest_logout_all/`, { method: 'POST', headers: { authorization: `Token ${token}` } });
    assert.equal(post.status, 403);
    await secret.getByRole('button', { name: 'Done, hide it' }).click();
    await secret.waitFor({ state: 'detached' });
    assert.ok(!(await card.innerText()).includes(token), 'the secret is not shown again');
    await row.getByRole('button', { name: 'Revoke QGIS on my laptop' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await fetch(`${server.baseUrl}/accounts/user/`, { headers: { authorization: `Token ${token}` } })).status, 401);
  });

  it('sets up app 2FA with a QR code and a TOTP code, then lands on /location', async () => {
    const setup = new SetupPage(page);
    await setup.chooseMethod('app');
    await setup.startSetup();
    await setup.overrideDialog().waitFor();
    assert.ok((await setup.overrideDialog().innerText()).includes(OVERRIDE_WARNING));
    await screenshot(page, 'setup-override-warning');
    await setup.confirmOverride();
    await page.getByText('2FA code generated successfully').waitFor();
    await page.getByTestId('totp-qr').waitFor();
    const secret = await setup.readSecret();
    assert.match(secret, /^[A-Z2-7]+=*$/, 'the setup key is base32');
    await screenshot(page, 'setup-verify-dialog');

    nextCode = totpGenerator(secret);
    await setup.verify('000000'); // a wrong code (one chance in a million of being right)
    await page.getByTestId('verify-error').waitFor();
    assert.ok((await page.getByTestId('verify-error').innerText()).includes('Invalid verification code. Please try again.'));
    await screenshot(page, 'setup-verify-wrong-code');

    await setup.verify(await nextCode());
    // Turning 2FA on shows the ten recovery codes once, before moving on.
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    assert.equal(await codes.locator('li').count(), 10);
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.waitForURL('**/location');
    await page.getByText('2FA verification successful').waitFor();
    await page.getByRole('heading', { name: 'Create a portfolio' }).waitFor();
    await screenshot(page, 'location-sidebar-expanded');
  });

  it('has a 285 px sidebar that collapses to 102 px, with module entries from tier data', async () => {
    const shell = new Shell(page);
    assert.equal(await shell.sidebarWidth(), 285);
    for (const name of ['Home', 'Projects', 'Modules', 'Documents', 'Settings', 'Logout']) {
      await shell.menuItem(name).first().waitFor();
    }
    const tier = await page.evaluate(() => JSON.parse(localStorage.getItem('tier_data') ?? 'null') as { allowed_modules: string[] } | null);
    assert.ok(tier, 'tier_data is stored after login');
    const expected: Record<string, string> = { physical_risk: 'Physical Risk', transition_risk: 'Transition Risk', map: 'Map Module' };
    for (const [module, label] of Object.entries(expected)) {
      const visible = await shell.sidebar().getByRole('link', { name: label }).isVisible();
      assert.equal(visible, tier.allowed_modules.includes(module), `${label} shown only when the tier lists ${module}`);
    }
    await shell.toggleSidebar();
    assert.equal(await shell.sidebarWidth(), 102);
    await screenshot(page, 'location-sidebar-collapsed');
    await shell.toggleSidebar();
    assert.equal(await shell.sidebarWidth(), 285);

    // The Documents group opens the help centre.
    await shell.menuItem('Documents').click();
    await shell.sidebar().getByRole('link', { name: 'Faqs' }).click();
    await page.waitForURL('**/faq');
    await page.getByRole('heading', { name: 'FAQs' }).waitFor();
    // A module entry of the sidebar opens its page inside the shell.
    await shell.sidebar().getByRole('link', { name: 'Map Module' }).click();
    await page.waitForURL('**/create-map');
    await page.getByRole('heading', { name: 'Map Module' }).waitFor();
    await screenshot(page, 'map-module-from-sidebar');
  });

  it('logs out, then logs in again through the 2FA code step', async () => {
    const shell = new Shell(page);
    await shell.logout();
    await page.waitForFunction(() => localStorage.getItem('token') === null, undefined, { timeout: 5000 });

    const login = new LoginPage(page, server.baseUrl);
    await login.waitForForm();
    await login.fill({ username: user.username, password: user.password, companyCode });
    await login.submit();
    await login.codeField().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Continue' }).isVisible(), true, 'the button becomes Continue');
    await screenshot(page, 'login-2fa-step');
    assert.ok(nextCode);
    await login.enterCode(await nextCode());
    await page.waitForURL('**/location');
    assert.ok(await page.evaluate(() => localStorage.getItem('token')), 'signed in with a token');
    await screenshot(page, 'location-after-2fa-login');
    // Signed-in visitors of / go to /location.
    await page.goto(`${server.baseUrl}/`);
    await page.waitForURL('**/location');
  });

  it('sends an unauthenticated visit of /project to /login and back to /project after login', async () => {
    const fresh = await browser.newContext({ viewport: VIEWPORT });
    try {
      const p2 = await fresh.newPage();
      const p2problems = watchConsole(p2);
      // A token the server does not know: the first data call answers 401, the token is dropped.
      await p2.goto(`${server.baseUrl}/login`);
      await p2.evaluate(() => localStorage.setItem('token', 'revoked-or-unknown-token'));
      await p2.goto(`${server.baseUrl}/project`);
      await p2.waitForURL('**/login');
      await p2.waitForFunction(() => localStorage.getItem('token') === null, undefined, { timeout: 5000 });
      const login = new LoginPage(p2, server.baseUrl);
      await login.waitForForm();
      await login.fill({ username: user.username, password: 'wrong-password', companyCode });
      await login.submit();
      await login.errors().waitFor();
      assert.ok((await login.errors().innerText()).trim().length > 0, 'the server detail is shown');
      await screenshot(p2, 'login-failed');
      await login.fill({ username: user.username, password: user.password, companyCode });
      await login.submit();
      await login.codeField().waitFor();
      assert.ok(nextCode);
      await login.enterCode(await nextCode());
      await p2.waitForURL('**/project');
      await p2.getByRole('heading', { name: 'Projects' }).waitFor();
      await screenshot(p2, 'project-after-origin-login');
      assert.deepEqual(
        p2problems.filter((m) => m.startsWith('pageerror')),
        [],
      );
    } finally {
      await fresh.close();
    }
  });

  it('re-pairs 2FA only with the password and a current code, by keyboard, then turns it off the same way', async () => {
    assert.ok(nextCode);
    const setup = new SetupPage(page);
    await page.goto(`${server.baseUrl}/setup`);
    await setup.waitForPage();
    await page.getByTestId('twofa-status').filter({ hasText: 'On' }).waitFor();
    await setup.chooseMethod('app');
    await setup.startSetup();
    await setup.confirmOverride();
    await setup.confirmIdentity().waitFor();
    const newNext = totpGenerator(await setup.readSecret());
    await screenshot(page, 'setup-repair-confirm-identity');

    // Keyboard only from the first field: the new code, Tab to the password, Tab to the current code, Enter.
    const dialog = setup.verifyDialog();
    await dialog.getByLabel('Verification code of the new method').focus();
    await page.keyboard.type(await newNext());
    await page.keyboard.press('Tab');
    assert.equal(await setup.focusedId(), 'password', 'Tab goes from the new code to the password');
    await page.keyboard.type('not-my-password-at-all');
    // From the password, Tab reaches the current code (past the password's show/hide toggle, itself a keyboard stop).
    const passed = await setup.tabTo('current_code');
    assert.ok(passed.length <= 1, `at most one stop (the show/hide toggle) lies between: ${passed.join(', ')}`);
    const currentCode = await nextCode();
    await page.keyboard.type(currentCode);
    await page.keyboard.press('Enter');
    await page.getByTestId('verify-error').filter({ hasText: 'not your password' }).waitFor();
    await screenshot(page, 'setup-repair-wrong-password');

    await dialog.getByLabel('Your password').fill(user.password);
    await dialog.getByLabel('Your password').press('Enter');
    await page.waitForURL('**/location');
    await page.getByText('2FA verification successful').waitFor();

    await page.goto(`${server.baseUrl}/setup`);
    await setup.waitForPage();
    await page.getByRole('button', { name: 'Turn off 2FA' }).click();
    const off = setup.turnOffDialog();
    await off.getByLabel('Your password').waitFor();
    await off.getByLabel('Your password').focus();
    await page.keyboard.type(user.password);
    await setup.tabTo('current_code');
    await page.keyboard.type(await newNext());
    await screenshot(page, 'setup-turn-off');
    await page.keyboard.press('Enter');
    await page.getByText('Two-factor authentication is off.').waitFor();
    await page.getByTestId('twofa-status').filter({ hasText: 'Off' }).waitFor();
  });

  it('signs out everywhere from the account card: this session and a second browser session end', async () => {
    const other = await browser.newContext({ viewport: VIEWPORT });
    try {
      const p2 = await other.newPage();
      const login = new LoginPage(p2, server.baseUrl);
      await login.open();
      await login.fill({ username: user.username, password: user.password, companyCode });
      await login.submit();
      await p2.waitForFunction(() => localStorage.getItem('token') !== null, undefined, { timeout: 10_000 });

      await page.goto(`${server.baseUrl}/setup`);
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.waitForURL('**/login');
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
      // The other browser's token no longer works: its next data call answers 401 and it lands on the login page.
      await p2.goto(`${server.baseUrl}/project`);
      await p2.waitForURL('**/login');
    } finally {
      await other.close();
    }
  });

  it('raised no page errors', () => {
    assert.deepEqual(
      problems.filter((m) => m.startsWith('pageerror')),
      [],
    );
  });
});
