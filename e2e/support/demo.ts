import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LoginPage } from '../pages/LoginPage';
import { apiGet, loginUser } from './api';
import { launchBrowser, watchConsole, watchCsp } from './browser';
import { startServer, type RunningServer } from './server';

export const VIEWPORT = { width: 1440, height: 900 };
export const DEMO = { username: 'demo', password: 'ClimateDemo!2026', companyCode: 'DEMO0-HK001' };
export const DEMO_PROJECT = 'Demo: Asia-Pacific and global sites';

export interface DemoSession {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors seen so far. */
  problems: string[];
  /** Content-Security-Policy violations seen so far (every page of the context). */
  csp: string[];
  token: string;
  projectId: number;
}

/**
 * A server with the demo seed, its demo portfolio analysed, and a browser page signed in as the demo user.
 * The seed analyses the demo portfolio in the background: this waits until it is done. `env`: more server settings.
 */
export async function startDemoSession(contextOptions: Parameters<Browser['newContext']>[0] = {}, env: Record<string, string> = {}): Promise<DemoSession> {
  const server = await startServer({ env: { SEED_DEMO: 'true', ...env } });
  let browser: Browser | undefined;
  try {
    const token = await loginUser(server.baseUrl, DEMO.username, DEMO.password, DEMO.companyCode);
    const list = await apiGet<{ project_id: number; name: string }[]>(server.baseUrl, '/api/project/all_projects/?list_for=physical_risk', token);
    const demo = list.body.find((p) => p.name === DEMO_PROJECT);
    assert.ok(demo, `the demo project exists: ${JSON.stringify(list.body)}`);
    const deadline = Date.now() + 180_000;
    for (;;) {
      const s = await apiGet<{ status: string; message: string | null }>(server.baseUrl, `/api/v2/projects/${demo.project_id}/status/`, token);
      if (s.body.status === 'done') break;
      assert.notEqual(s.body.status, 'failed', `demo analysis failed: ${s.body.message}`);
      assert.ok(Date.now() < deadline, 'the demo analysis finishes within 3 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }

    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORT, ...contextOptions });
    const csp = await watchCsp(context);
    const page = await context.newPage();
    const problems = watchConsole(page);
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill(DEMO);
    await login.submit();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    return { server, browser, context, page, problems, csp, token, projectId: demo.project_id };
  } catch (err) {
    // The caller gets no session to close: a browser left open would keep the test process running after the failure.
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nserver output:\n${server.output().slice(-4000)}`, { cause: err });
  }
}
