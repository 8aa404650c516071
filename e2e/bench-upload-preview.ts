/**
 * How long the CSV wizard takes from choosing a file to showing its preview, in headless chromium, for the small
 * path (every row parsed into an editable table) and the large path (first rows and a streamed count): the figures
 * behind LARGE_UPLOAD_ROWS / LARGE_UPLOAD_BYTES (docs/decisions.md, docs/performance.md). Not a test.
 * Run: nice -n 10 npm run build -w @crp/web --silent && nice -n 10 node --import tsx e2e/bench-upload-preview.ts [rows...]
 * BENCH_SUBMIT=1: as the demo user (enterprise allowance), also submits each file and times Create Portfolio to the
 * server's 201, with the request body size and the browser's long tasks (main thread blocked) meanwhile.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LARGE_UPLOAD_BYTES, LARGE_UPLOAD_ROWS } from '@crp/contracts';
import type { Page } from 'playwright-core';
import { registerUser } from './support/api';
import { startDemoSession } from './support/demo';
import { launchBrowser } from './support/browser';
import { startServer } from './support/server';
import { LocationPage } from './pages/LocationPage';
import { LoginPage } from './pages/LoginPage';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const rowsList = sizes.length ? sizes : [2_000, 5_000, 10_000, 10_001, 100_000, 1_000_000];
const work = mkdtempSync(join(tmpdir(), 'crp-bench-upload-'));
const submit = process.env.BENCH_SUBMIT === '1';

async function signedIn() {
  if (submit) return startDemoSession();
  const server = await startServer();
  const browser = await launchBrowser();
  const user = { username: `bench_${Date.now().toString(36)}`, password: 'Str0ng-Passw0rd!', firstName: 'Ben', lastName: 'Ch', companyName: 'Bench Bank' };
  const { companyCode } = await registerUser(server.baseUrl, user);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const login = new LoginPage(page, server.baseUrl);
  await login.open();
  await login.fill({ username: user.username, password: user.password, companyCode });
  await login.submit();
  await page.waitForURL('**/setup');
  return { server, browser, page };
}

/** Create Portfolio to the 201: wall time, request body bytes, and the sum of long tasks (> 50 ms) in the page. */
async function timeSubmit(page: Page, location: LocationPage, name: string, fileBytes: number): Promise<string> {
  await location.next();
  await location.fillDetails(name, []);
  await location.next();
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number };
    w.longTasks = 0;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => (w.longTasks += e.duration))).observe({ type: 'longtask' });
  });
  const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST', { timeout: 300_000 });
  const t0 = Date.now();
  await location.createButton().click();
  const res = await created;
  const ms = Date.now() - t0;
  const body = res.request().postDataBuffer()?.length ?? fileBytes;
  const blocked = await page.evaluate(() => (window as unknown as { longTasks: number }).longTasks);
  return `; submit ${res.status()} after ${ms} ms, body ${(body / 1e6).toFixed(1)} MB, page blocked ${Math.round(blocked)} ms`;
}

const { server, browser, page } = await signedIn();
try {
  const location = new LocationPage(page, server.baseUrl);
  for (const n of rowsList) {
    // A bank's book: name, coordinates and five optional columns (about 100 bytes a row).
    const file = join(work, `book-${n}.csv`);
    const lines = ['name,lat,long,revenue,construction cost,property type,area,valuation'];
    for (let i = 1; i <= n; i++) {
      lines.push(
        `Branch ${i} of the bank,${(22.2 + (i % 500) * 0.0004).toFixed(5)},${(113.9 + Math.floor(i / 500) * 0.0025).toFixed(5)},1200000,5000000,Commercial,4500,25000000`,
      );
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const bytes = statSync(file).size;
    await location.open();
    await location.openCsvTab();
    const t0 = Date.now();
    await location.upload(file);
    // Which path the built app takes (a build with other thresholds can be measured too).
    await page.locator('[data-testid="large-upload"], .ant-modal-title:text("Optional inputs")').first().waitFor({ timeout: 300_000 });
    const large = (await location.largeUpload().count()) > 0;
    if (large !== (n > LARGE_UPLOAD_ROWS || bytes > LARGE_UPLOAD_BYTES)) console.log('(the built app has other thresholds than @crp/contracts)');
    let ms: number;
    let editMs = NaN;
    if (large) {
      await location.waitForLargeRows(n);
      ms = Date.now() - t0;
    } else {
      await location.optionalDialog().waitFor({ timeout: 300_000 });
      await page.getByRole('button', { name: 'Continue' }).click();
      await location.previewTable().waitFor();
      ms = Date.now() - t0;
      const t2 = Date.now();
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Asset name, row 1', { exact: true }).waitFor();
      editMs = Date.now() - t2;
    }
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
    if (!large) await page.getByRole('button', { name: 'Cancel' }).click();
    const submitted = submit ? await timeSubmit(page, location, `Bench ${n} ${large ? 'file' : 'json'} ${Date.now().toString(36)}`, bytes) : '';
    console.log(
      `${n.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB, ${large ? 'large' : 'small'} path: preview after ${ms} ms` +
        `${Number.isNaN(editMs) ? '' : `, Edit after ${editMs} ms`}, JS heap ${(heap / 1e6).toFixed(0)} MB${submitted}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
