import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LARGE_UPLOAD_BYTES, LARGE_UPLOAD_ROWS } from '@crp/contracts';
import { screenshot } from './support/browser';
import { startDemoSession } from './support/demo';
import type { RunningServer } from './support/server';
import { LocationPage } from './pages/LocationPage';

/**
 * A CSV of `n` assets around Hong Kong (name, latitude, longitude); `bad` rows (1-based asset numbers) get latitude
 * 95.5. `pad` lengthens the names so the file passes LARGE_UPLOAD_BYTES.
 */
function assetCsv(file: string, n: number, opts: { bad?: number[]; pad?: string } = {}): number {
  const lines = ['name,latitude,longitude'];
  for (let i = 1; i <= n; i++) {
    const lat = opts.bad?.includes(i) ? '95.5' : (22.2 + (i % 500) * 0.0004).toFixed(5);
    const lon = (113.9 + Math.floor(i / 500) * 0.0025).toFixed(5);
    lines.push(`Site ${i}${opts.pad ?? ''},${lat},${lon}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return statSync(file).size;
}

/** Rows the server skips (every cell empty or NA), in the spellings a bank's export has them. */
const BLANK_ROWS = ['NA,NA,NA,NA,NA', ',,,,', ' n/a ,-,null,None,', '"","NA",--,NaN,N/A'];

/**
 * A CSV of `n` assets with the optional columns valuation and area, and one blank or all-NA row after every
 * 1,000th asset; returns the file's size and the number of those rows.
 */
function assetCsvWithBlankRows(file: string, n: number, pad: string): { size: number; blank: number } {
  const lines = ['name,latitude,longitude,valuation,area'];
  let blank = 0;
  for (let i = 1; i <= n; i++) {
    const lat = (22.2 + (i % 500) * 0.0004).toFixed(5);
    const lon = (113.9 + Math.floor(i / 500) * 0.0025).toFixed(5);
    lines.push(`Site ${i}${pad},${lat},${lon},${i * 1000},${100 + (i % 50)}`);
    if (i % 1000 === 0) lines.push(BLANK_ROWS[blank++ % BLANK_ROWS.length]!);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return { size: statSync(file).size, blank };
}

describe('large uploads in the browser: read-only preview, the file sent with upload progress, server row errors', { timeout: 1_200_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let work: string;
  let location: LocationPage;

  before(async () => {
    ({ server, browser, context, page, problems } = await startDemoSession());
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-large-'));
    location = new LocationPage(page, server.baseUrl);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows 30,000 rows as a read-only preview, uploads the file with progress and analyses it', async () => {
    const csv = join(work, 'bank-book.csv');
    const size = assetCsv(csv, 30_000);
    assert.ok(size < LARGE_UPLOAD_BYTES && 30_000 > LARGE_UPLOAD_ROWS, 'large by its rows, not its size');
    await location.open();
    await location.openCsvTab();
    const t0 = Date.now();
    await location.upload(csv);
    await location.waitForLargeRows(30_000);
    console.log(`preview of 30,000 rows (${(size / 1e6).toFixed(1)} MB) shown after ${Date.now() - t0} ms`);
    assert.match(
      await page.getByTestId('large-upload-note').innerText(),
      /Large file: the first 100 of 30,000 rows are shown; edit the file itself to change rows/,
    );
    assert.equal(await location.optionalDialog().count(), 0, 'no optional columns in the file, so no dialog');
    assert.equal(await location.previewTable().locator('tbody tr.ant-table-row').count(), 10, 'the first page of the preview');
    assert.match(await location.largeUpload().innerText(), /first 100 of 30,000 rows/, 'the pager says what is shown');
    assert.equal(await page.getByRole('button', { name: 'Edit' }).count(), 0, 'a large file is not edited in the browser');
    await screenshot(page, 'large-upload-preview');

    await location.next();
    await location.fillDetails('Bank book 30k', []);
    await location.next();
    await page.getByTestId('review-table').waitFor();

    // Upload at 512 KB/s so the bar shows bytes on their way; record every value the bar shows.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { uploadSeen: string[] }).uploadSeen = seen;
      const texts: string[] = [];
      (window as unknown as { uploadTexts: string[] }).uploadTexts = texts;
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="upload-progress"]');
        if (el) seen.push(`${el.getAttribute('data-phase')}:${el.getAttribute('data-sent')}/${el.getAttribute('data-total')}`);
        const text = document.querySelector('[data-testid="upload-progress-text"]')?.textContent;
        if (text && texts[texts.length - 1] !== text) texts.push(text);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST', { timeout: 120_000 });
    await location.createButton().click();
    await page.locator('[data-testid="upload-progress"][data-phase="uploading"]').waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="upload-progress"]')?.getAttribute('data-sent')) > 0);
    await screenshot(page, 'large-upload-progress', { settle: false, fullPage: false });
    const res = await created;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    assert.equal(res.status(), 201, await res.text());
    assert.match((await res.request().headerValue('content-type')) ?? '', /^multipart\/form-data/, 'the file is sent as multipart');
    const seen = await page.evaluate(() => (window as unknown as { uploadSeen: string[] }).uploadSeen);
    const partial = seen.filter((s) => {
      const m = /^uploading:(\d+)\/(\d+)$/.exec(s);
      return m && Number(m[1]) > 0 && Number(m[1]) < Number(m[2]);
    });
    assert.ok(partial.length > 0, `the bar showed part of the file sent: ${seen.slice(0, 20).join(', ')}`);
    assert.ok(
      seen.some((s) => s.startsWith('storing:')),
      'then "Validating and storing" while the server answers',
    );
    // A file under 1 MB is counted in KB ("41 KB of 860 KB sent"), never "0.0 MB of 0.8 MB".
    const texts = await page.evaluate(() => (window as unknown as { uploadTexts: string[] }).uploadTexts);
    const uploading = texts.filter((t) => t.startsWith('Uploading'));
    assert.ok(
      uploading.some((t) => /^Uploading: [1-9]\d* KB of/.test(t)),
      texts.join(' | '),
    );
    for (const t of uploading) {
      const m = /^Uploading: \d+ KB of (\d+) KB sent$/.exec(t);
      assert.ok(m, `${t} (all: ${texts.join(' | ')})`);
      // The total is the request body's: the file and the few hundred bytes of the multipart fields around it.
      assert.ok(Math.abs(Number(m[1]) - size / 1024) < 4, `${t} for a file of ${size} bytes`);
    }

    await location.progress().waitFor();
    assert.match(await page.getByTestId('pipeline-stages').innerText(), /30,000 rows/);
    assert.match(await page.getByTestId('pipeline-stages').innerText(), /30,000 assets/);
    await location.waitForSomeProgress();
    await screenshot(page, 'large-upload-analysis-progress', { settle: false });
    await page.waitForURL(/\/dashboard(\?|$)/, { timeout: 300_000 });
    assert.deepEqual(problems, []);
  });

  it('counts a CSV over the size threshold while showing an estimate, and shows the server error of its one bad row', async () => {
    const csv = join(work, 'bank-book-bad-row.csv');
    const size = assetCsv(csv, 90_000, { bad: [70_001], pad: ' warehouse of the bank in Kowloon' });
    assert.ok(size > LARGE_UPLOAD_BYTES, `large by its size (${size} bytes)`);
    await location.open();
    await location.openCsvTab();
    await location.upload(csv);
    await location.largeUpload().waitFor();
    await location.waitForLargeRows(90_000);
    assert.match(await page.getByTestId('large-upload-note').innerText(), /first 100 of 90,000 rows/);
    await location.next();
    await location.fillDetails('Bank book with a bad row', []);
    await location.next();
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST', { timeout: 120_000 });
    await location.createButton().click();
    assert.equal((await refused).status(), 400);
    const errors = page.getByTestId('upload-errors');
    await errors.waitFor();
    // The server numbers the rows of a file as the file does (header row 1): asset 70,001 is row 70,002.
    assert.match(await errors.innerText(), /Row 70002: .*latitude.*95\.5/i);
    assert.match(await page.getByTestId('upload-errors-rows').innerText(), /rows of your file as a spreadsheet numbers them/);
    await screenshot(page, 'large-upload-server-error', { fullPage: false });
    await page.getByRole('button', { name: 'OK' }).click();
    await errors.waitFor({ state: 'hidden' });
    assert.equal(await location.progress().count(), 0, 'nothing was created');
  });

  it('refuses a file over the asset allowance before sending it', async () => {
    const csv = join(work, 'too-many.csv');
    assetCsv(csv, 100_001);
    await location.open();
    await location.openCsvTab();
    await location.upload(csv);
    await location.waitForLargeRows(100_001);
    await location.next();
    await location.fillDetails('Too many assets', []);
    await location.next();
    let sent = false;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v2/create_project/')) sent = true;
    });
    await location.createButton().click();
    await page.getByTestId('asset-limit-message').waitFor();
    assert.match(await page.getByTestId('asset-limit-message').innerText(), /100,000|100000/);
    assert.equal(sent, false, 'the file is not uploaded');
    await screenshot(page, 'large-upload-asset-limit', { fullPage: false });
    await page.getByRole('button', { name: 'OK' }).click();
  });

  it('counts the rows the server stores (blank and all-NA rows left out) and offers the optional columns of a large CSV', async () => {
    const csv = join(work, 'bank-book-blank-rows.csv');
    const { size, blank } = assetCsvWithBlankRows(csv, 30_000, ' warehouse of the bank in Kowloon'.repeat(5));
    assert.ok(size > LARGE_UPLOAD_BYTES, `counted by streaming (${size} bytes)`);
    const problemsBefore = problems.length;
    await location.open();
    await location.openCsvTab();
    await location.upload(csv);
    // The optional-columns dialog a small file gets, from the header and the first rows.
    const dialog = location.optionalDialog();
    await dialog.waitFor();
    assert.deepEqual(await dialog.getByRole('checkbox').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked)), [true, true]);
    await dialog.getByRole('checkbox', { name: 'Valuation (USD)' }).uncheck();
    await screenshot(page, 'large-upload-optional-columns', { fullPage: false });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // 30,000 assets and `blank` rows of nothing but NA: the count is the server's.
    await location.waitForLargeRows(30_000);
    assert.ok(blank >= 30);
    assert.match(await page.getByTestId('large-upload-note').innerText(), /first 100 of 30,000 rows/);
    const heads = await location.previewTable().locator('thead th').allInnerTexts();
    assert.ok(heads.some((h) => /Area/.test(h)) && !heads.some((h) => /Valuation/.test(h)), `valuation left out of the preview: ${heads.join(', ')}`);
    await screenshot(page, 'large-upload-optional-chosen');

    await location.next();
    await location.fillDetails('Bank book with blank rows', []);
    await location.next();
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST', { timeout: 120_000 });
    await location.createButton().click();
    const res = await created;
    assert.equal(res.status(), 201, await res.text());
    const body = (await res.json()) as { project: { project_id: number; assets: number }; warnings?: string[] };
    assert.equal(body.project.assets, 30_000, 'the server stored the rows the browser counted');
    assert.equal(body.warnings, undefined, 'the emptied header cell is no unknown column');
    const stored = await page.evaluate(async (projectId) => {
      const r = await fetch(`/api/asset/${localStorage.getItem('user_id')}/?project_id=${projectId}`, {
        headers: { Authorization: `Token ${localStorage.getItem('token')}` },
      });
      const { assets } = (await r.json()) as { assets: { name: string; valuation: number | null; area: number | null }[] };
      return { n: assets.length, valued: assets.filter((a) => a.valuation !== null).length, area: assets.find((a) => a.name.startsWith('Site 7 '))?.area };
    }, body.project.project_id);
    assert.deepEqual(stored, { n: 30_000, valued: 0, area: 107 }, 'valuation left out (NA), area kept');
    assert.deepEqual(problems.slice(problemsBefore), []);
  });
});
