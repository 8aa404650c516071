/**
 * Account recovery in the browser (issue 37 item 6): 2FA on shows ten recovery codes once; "Forgot password?" mails a
 * link (through the project's SMTP sink) that sets a new password; the login's 2FA step takes a recovery code; the idle
 * time-out warns first ("Stay signed in") and a session that ended sends the user to a login page that says so.
 * The server runs with SESSION_IDLE_MINUTES=2.5, so the warning opens 15 s after the last use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { bodyOf, startMailSink } from './support/mail';
import { startServer, type RunningServer } from './support/server';
import { totpGenerator } from './support/totp';
import { LoginPage } from './pages/LoginPage';
import { SetupPage } from './pages/SetupPage';

const VIEWPORT = { width: 1280, height: 900 };

describe('account recovery: password reset by e-mail, recovery codes, idle time-out', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let codes: string[] = [];
  const suffix = Date.now().toString(36);
  const user = { username: `grace_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Grace', lastName: 'Hopper', companyName: `Cobol Re ${suffix}` };
  const newPassword = 'violet harbour lamps at dusk';
  let companyCode = '';
  let nextCode: (() => Promise<string>) | null = null;

  before(async () => {
    sink = await startMailSink();
    server = await startServer({ env: { SMTP_URL: sink.url, SESSION_IDLE_MINUTES: '2.5' } });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
    problems = watchConsole(page);
    companyCode = (await registerUser(server.baseUrl, user)).companyCode;
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await sink?.stop();
  });

  it('turns on 2FA and shows ten recovery codes once, then the count on the 2FA card', async () => {
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: user.username, password: user.password, companyCode });
    await login.submit();
    await page.waitForURL('**/setup');
    const setup = new SetupPage(page);
    await setup.chooseMethod('app');
    await setup.startSetup();
    await setup.confirmOverride();
    nextCode = totpGenerator(await setup.readSecret());
    await setup.verify(await nextCode());
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    codes = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
    assert.equal(codes.length, 10);
    for (const c of codes) assert.match(c, /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download .txt' }).click();
    assert.match((await download).suggestedFilename(), /recovery-codes\.txt$/);
    await screenshot(page, 'recovery-codes-shown-once');
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.waitForURL('**/location');
    await page.goto(`${server.baseUrl}/setup`);
    await page.getByTestId('recovery-codes-left').filter({ hasText: '10 of 10' }).waitFor();
    await screenshot(page, 'setup-recovery-codes-left');
  });

  it('resets the password through the e-mailed link', async () => {
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto(`${server.baseUrl}/login`);
    await page.getByTestId('forgot-password').click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('textbox', { name: 'Username' }).fill(user.username);
    await page.getByRole('textbox', { name: 'Company code' }).fill(companyCode);
    assert.equal(await page.getByRole('textbox', { name: 'Username' }).inputValue(), user.username);
    await screenshot(page, 'forgot-password');
    await page.getByRole('button', { name: 'E-mail me a reset link' }).click();
    await page.getByTestId('reset-requested').waitFor();
    await screenshot(page, 'forgot-password-sent');

    const deadline = Date.now() + 20_000;
    let token: string | undefined;
    while (!token && Date.now() < deadline) {
      const mail = sink.messages().find((m) => m.to.includes(`${user.username}@example.com`) && m.subject === 'Reset your password');
      token = mail && /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(bodyOf(mail.raw))?.[1];
      if (!token) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(token, 'the reset e-mail arrived with a link');

    await page.goto(`${server.baseUrl}/reset-password?token=${token}`);
    await page.getByRole('textbox', { name: 'New password', exact: true }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('password1234');
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill('password1234');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('reset-errors').waitFor();
    assert.match(await page.getByTestId('reset-errors').innerText(), /common or breached/);
    await screenshot(page, 'reset-password-refused');
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/login');
    await page.getByTestId('password-changed').waitFor();
    await screenshot(page, 'login-after-reset');
  });

  it('signs in with the new password and a recovery code instead of the TOTP code', async () => {
    const login = new LoginPage(page, server.baseUrl);
    await login.fill({ username: user.username, password: newPassword, companyCode });
    await login.submit();
    await login.codeField().waitFor();
    await screenshot(page, 'login-2fa-step-recovery-hint');
    await login.enterCode(codes[0]!.toLowerCase());
    await page.waitForURL('**/location');
    await page.goto(`${server.baseUrl}/setup`);
    await page.getByTestId('recovery-codes-left').filter({ hasText: '9 of 10' }).waitFor();
  });

  it('makes new recovery codes with a current TOTP code; the old ones stop working', async () => {
    assert.ok(nextCode);
    const code = await nextCode(); // may wait for the next 30-second step: reload after it so the idle warning stays shut
    await page.reload();
    await page.getByTestId('recovery-codes-left').filter({ hasText: '9 of 10' }).waitFor();
    await page.getByRole('button', { name: 'Generate new recovery codes' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Your current recovery codes will stop working' });
    await dialog.getByRole('textbox', { name: 'Code from your authenticator app' }).fill(codes[1]!);
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await dialog.getByRole('alert').waitFor();
    await screenshot(page, 'recovery-codes-regenerate-refused', { settle: false });
    await dialog.getByRole('textbox', { name: 'Code from your authenticator app' }).fill(code);
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const fresh = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
    assert.equal(fresh.length, 10);
    assert.ok(fresh.every((c) => !codes.includes(c)));
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.getByTestId('recovery-codes-left').filter({ hasText: '10 of 10' }).waitFor();
  });

  it('warns before the idle time-out, stays signed in, and says so when a session ended', async () => {
    const warning = page.getByRole('dialog').filter({ hasText: 'Are you still there?' });
    await warning.waitFor({ timeout: 60_000 });
    await screenshot(page, 'idle-warning', { settle: false });
    await page.getByTestId('stay-signed-in').click();
    await warning.waitFor({ state: 'hidden' });
    assert.ok(await page.evaluate(() => localStorage.getItem('token')), 'still signed in');

    // The session ends on the server (signed out everywhere from another device): the next call is a 401.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const out = await fetch(`${server.baseUrl}/api/user/rest_logout_all/`, { method: 'POST', headers: { authorization: `Token ${token}` } });
    assert.equal(out.status, 201);
    await page.goto(`${server.baseUrl}/project`);
    await page.waitForURL('**/login');
    await page.getByTestId('session-ended').waitFor();
    assert.equal((await page.getByTestId('session-ended').innerText()).trim(), 'Your session ended. Please log in again.');
    await screenshot(page, 'login-session-ended');
    assert.deepEqual(
      problems.filter((m) => m.startsWith('pageerror')),
      [],
    );
  });
});
