/**
 * The dashboard's cyclone-event portfolio tail card (issue 35 item 2) on the demo portfolio: the occurrence
 * 1-in-100 from events shown beside the sum of the assets' own 1-in-100 losses (the upper bound), and the event loss
 * table downloads. Screenshots at 1280 and 1440 px.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { screenshotDir } from './support/browser';
import { DEMO_PROJECT as PROJECT, startDemoSession } from './support/demo';
import type { RunningServer } from './support/server';
import { DashboardPage } from './pages/DashboardPage';

/** "9.79 M USD (0.40 %) / 17.86 M USD" → 9.79e6 (the first money figure). */
function firstUsd(text: string): number {
  const m = /([\d.,]+)\s*(K|M|B)?\s*USD/.exec(text);
  assert.ok(m, text);
  return Number(m[1]!.replace(/,/g, '')) * ({ K: 1e3, M: 1e6, B: 1e9 }[m[2] as 'K' | 'M' | 'B'] ?? 1);
}

describe('dashboard: portfolio 1-in-100 / 1-in-250 from cyclone events', { timeout: 1_200_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ({ server, browser, page } = await startDemoSession());
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  it('shows the events-based occurrence and aggregate losses below the sum of the assets, and the event loss table downloads', async () => {
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`).getByRole('button', { name: 'Analyse' }).click();
    await new DashboardPage(page).waitForLoaded();
    const card = page.getByTestId('portfolio-tail-card');
    await card.scrollIntoViewIfNeeded();
    // the first call regenerates the events at the demo's assets (about a minute of CPU over its basins)
    await page.getByTestId('portfolio-tail-occurrence').waitFor({ timeout: 900_000 });
    const occ = firstUsd(await page.getByTestId('portfolio-tail-occurrence').innerText());
    const sum = firstUsd(await page.getByTestId('portfolio-tail-sum').innerText());
    assert.ok(occ > 0 && occ < sum, `occurrence ${occ} < sum of assets ${sum}`);
    assert.match(await card.innerText(), /upper bound/);
    assert.match(await page.getByTestId('tail-losses').innerText(), /sum of assets \(upper bound\)/);
    mkdirSync(screenshotDir, { recursive: true });
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: join(screenshotDir, `dashboard-portfolio-tail-${width}.png`), animations: 'disabled' });
    }
    const download = page.waitForEvent('download');
    await page.getByTestId('portfolio-tail-csv').click();
    const file = await download;
    assert.match(file.suggestedFilename(), /event_losses.*\.csv$/);
  });
});
