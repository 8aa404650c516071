/**
 * Plans in the browser (issue 37 item 1): a company registers (Free plan), sees a locked loss panel that says what Free
 * includes and what Professional adds, presses "Request upgrade"; an operator of the installation (made one with
 * `npm run admin -- set-operator`) grants it on the setup page's card; the user then sees the losses.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { serverEntryArgs } from '../apps/server/test/support/entries';
import { apiGet, apiPost, loginUser, registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { repoRoot, startServer, type RunningServer } from './support/server';
import { LoginPage } from './pages/LoginPage';
import { RegisterPage } from './pages/RegisterPage';
import { DashboardPage } from './pages/DashboardPage';

const PROJECT = 'Harbour sites';

describe('plans: a Free company asks for an upgrade, an operator grants it, the losses appear', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const dataDir = mkdtempSync(join(tmpdir(), 'crp-e2e-plans-'));
  const suffix = Date.now().toString(36);
  const user = {
    firstName: 'Rosa',
    lastName: 'Lee',
    username: `rosa_${suffix}`,
    email: `rosa_${suffix}@example.com`,
    password: 'quiet harbour cranes at dawn',
    companyName: `Kowloon Bank ${suffix}`,
  };
  const op = { username: `op_${suffix}`, password: 'operator lamp posts at night', firstName: 'Otto', lastName: 'Op', companyName: `Installation ${suffix}` };
  let companyCode = '';
  let opCode = '';

  const asUser = async (p: Page, u: { username: string; password: string }, code: string) => {
    const login = new LoginPage(p, server.baseUrl);
    await login.open();
    await login.fill({ username: u.username, password: u.password, companyCode: code });
    await login.submit();
    await p.waitForURL((url) => !url.pathname.startsWith('/login'));
  };
  const openDashboard = async () => {
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`).getByRole('button', { name: 'Analyse' }).click();
    await new DashboardPage(page).waitForLoaded();
  };
  const atWidths = async (p: Page, name: string, target?: Locator) => {
    for (const width of [1280, 1440]) {
      await p.setViewportSize({ width, height: 900 });
      await p.waitForTimeout(300);
      // a part of the page: scrolled into view, as the user sees it (a full-page picture of a scrolled page shifts the sidebar)
      if (target) await target.scrollIntoViewIfNeeded();
      await screenshot(p, `${name}-${width}`, { fullPage: !target });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  };

  before(async () => {
    // The operator: registered, then made an operator with the admin command (PGlite: the server stopped meanwhile).
    server = await startServer({ dataDir });
    opCode = (await registerUser(server.baseUrl, op)).companyCode;
    await server.stop();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL; // the e2e server's own PGlite directory
    const admin = spawnSync(process.execPath, [...serverEntryArgs('admin'), 'set-operator', '--company', opCode, '--username', op.username], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    assert.equal(admin.status, 0, admin.stderr);
    server = await startServer({ dataDir });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    problems = watchConsole(page);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers a company; its loss panels are locked and say what Free includes and what Professional adds', async () => {
    const register = new RegisterPage(page, server.baseUrl);
    await register.open();
    await register.fill(user);
    companyCode = await register.submit();
    await asUser(page, user, companyCode);
    const token = await loginUser(server.baseUrl, user.username, user.password, companyCode);
    const data = [
      { name: 'Kwai Chung terminal', latitude: 22.35, longitude: 114.125, property_type: 'Industrial', valuation: 8e7, revenue: 2.5e7 },
      { name: 'Central office', latitude: 22.282, longitude: 114.158, property_type: 'Commercial', valuation: 1.2e8 },
    ];
    const created = await apiPost<{ project: { project_id: number } }>(server.baseUrl, '/api/v2/create_project/', token, {
      portfolio_name: PROJECT,
      data,
      portfolio_variables: ['River Flood', 'Typhoon', 'Storm Surge', 'Extreme Heat'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (const end = Date.now() + 120_000; ;) {
      const st = await apiGet<{ status: string }>(server.baseUrl, `/api/v2/projects/${created.body.project.project_id}/status/`, token);
      if (st.body.status === 'done') break;
      assert.ok(st.body.status !== 'failed' && Date.now() < end, `analysis: ${st.body.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    await page.goto(`${server.baseUrl}/project`);
    const card = page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`);
    await card.getByTestId('metric-locked').first().waitFor();
    assert.equal(await card.getByTestId('metric-locked').count(), 2, 'maximum exposure and RCVaR are locked on the card');
    await atWidths(page, 'plans-project-card-free');

    await openDashboard();
    const locked = page.getByTestId('upgrade-placeholder').first();
    await locked.scrollIntoViewIfNeeded();
    const text = await locked.innerText();
    assert.match(text, /Please upgrade tier to see content/);
    assert.match(text, /Free plan: climate and hazard scores/);
    assert.match(text, /Professional adds: losses in money/);
    assert.equal(await page.getByTestId('kpi-cvar').count(), 0, 'no CVaR figure');
    await atWidths(page, 'plans-locked-panel');
    await atWidths(page, 'plans-locked-panel-view', page.getByTestId('section-cvar'));
  });

  it('asks for an upgrade from the locked panel; every locked panel then says it is pending', async () => {
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/v2/upgrade_requests/') && r.request().method() === 'POST');
    await page.getByTestId('request-upgrade').first().click();
    assert.equal((await sent).status(), 201);
    await page.locator('.ant-message', { hasText: 'Upgrade to professional requested' }).waitFor();
    await page.getByTestId('upgrade-pending').first().waitFor();
    assert.equal(await page.getByTestId('upgrade-pending').count(), await page.getByTestId('upgrade-placeholder').count(), 'every locked panel says so');
    assert.equal(await page.getByTestId('request-upgrade').count(), 0, 'no second request button');
    await screenshot(page, 'plans-upgrade-requested', { fullPage: false });
  });

  it('an operator grants it on the setup page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const opPage = await ctx.newPage();
    const opProblems = watchConsole(opPage);
    await asUser(opPage, op, opCode);
    await opPage.goto(`${server.baseUrl}/setup#upgrade-requests`);
    const card = opPage.getByTestId('upgrade-requests-card');
    const row = card.locator('tr', { hasText: companyCode });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`${user.username}[\\s\\S]*free → professional`));
    for (const close of await opPage.locator('.ant-notification-notice-close').all()) await close.click();
    await atWidths(opPage, 'plans-operator-card', card);
    await row.getByTestId('grant-upgrade').click();
    const granted = opPage.waitForResponse((r) => r.url().includes('/grant/'));
    await opPage.locator('.ant-popconfirm').getByRole('button', { name: 'Grant' }).click();
    assert.equal((await granted).status(), 200);
    await row.getByText('granted').waitFor();
    await screenshot(opPage, 'plans-operator-granted', { fullPage: false });
    assert.deepEqual(opProblems, []);
    await ctx.close();
  });

  it('the user is told at the next login and then sees the losses', async () => {
    // notifications are delivered with the login (spec: pending_notifications)
    await page.evaluate(() => localStorage.clear());
    await asUser(page, user, companyCode);
    await page.locator('.crp-toast', { hasText: 'Upgrade granted' }).waitFor();
    await screenshot(page, 'plans-upgrade-granted-toast', { fullPage: false });
    await page.goto(`${server.baseUrl}/project`);
    const card = page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`);
    await card.waitFor();
    assert.equal(await card.getByTestId('metric-locked').count(), 0);
    assert.match(await card.innerText(), /Residual 20-year expected loss\s*\n?\s*[\d.]+\s*M/);
    await openDashboard();
    await page.getByTestId('kpi-cvar').waitFor();
    assert.match(await page.getByTestId('kpi-cvar').innerText(), /\d/);
    assert.equal(await page.getByTestId('upgrade-placeholder').count(), 0, 'nothing is locked any more');
    await screenshot(page, 'plans-after-grant');
    assert.deepEqual(problems, []);
  });
});
