import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from './server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with "apt-get install -y chromium" (npm test does this when run as root)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const screenshotDir = join(repoRoot, 'test-output', 'screenshots');
let shot = 0;

/**
 * Saves `test-output/screenshots/NN-name.png` of the whole page. `settle: false` skips waiting for the network to
 * go idle (for short-lived states such as a progress bar fed by a stream). `fullPage: false` takes the viewport as
 * the user sees it: for an open dialog or a scrolled page (a full-page picture of a scrolled page draws the fixed
 * sidebar shifted down, and a dialog sits where the viewport was, not where the picture's eye goes).
 */
export async function screenshot(page: Page, name: string, opts: { settle?: boolean; fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  shot += 1;
  const file = join(screenshotDir, `${String(shot).padStart(2, '0')}-${name}.png`);
  if (opts.settle !== false) await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: file, fullPage: opts.fullPage !== false, animations: 'disabled' });
  return file;
}

/** Collects page errors and failed console errors so a test can assert a clean run. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  return problems;
}

/**
 * Collects Content-Security-Policy violations of every page of a context: the browser's console report ("Refused to
 * ... because it violates the following Content Security Policy directive") and the `securitypolicyviolation` event,
 * which also fires for reports the console does not show (an eval probe caught in a try). Call before opening pages.
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  context.on('console', (msg) => {
    if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(`${msg.page()?.url() ?? ''}: ${msg.text()}`);
  });
  return violations;
}
