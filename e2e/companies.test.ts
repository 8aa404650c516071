import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo';

describe('company search and index benchmark on /location', { timeout: 900_000 }, () => {
  let s: DemoSession;
  const suffix = Date.now().toString(36);

  before(async () => {
    s = await startDemoSession();
  });

  after(async () => {
    await s?.browser.close().catch(() => undefined);
    await s?.server.stop();
  });

  it('searches companies after 1 s with more than 3 characters, analyses the picked ones and opens /company-dashboard', async () => {
    const { page, server } = s;
    await page.goto(`${server.baseUrl}/location`);
    await page.getByRole('tab', { name: 'Companies & Index' }).click();
    const panel = page.getByTestId('company-search');
    const box = panel.getByRole('textbox', { name: 'Search companies' });

    await box.fill('HSB');
    await panel.getByText('Type more than 3 characters.').waitFor();
    assert.equal(await panel.getByTestId('company-results').count(), 0, 'three characters do not search');

    const searched = page.waitForResponse((r) => r.url().endsWith('/api/search/deepsearch/'));
    const typedAt = Date.now();
    await box.fill('HSBC');
    const res = await searched;
    assert.ok(Date.now() - typedAt >= 900, `the search waits about 1 s after typing (${Date.now() - typedAt} ms)`);
    assert.equal(res.status(), 200);
    const results = panel.getByTestId('company-results');
    await results.locator('tr.ant-table-row').first().waitFor();
    assert.match(await results.innerText(), /HSBC/);
    await results.locator('tr.ant-table-row').first().getByRole('checkbox').check();

    await box.fill('Tencent');
    await results
      .locator('tr.ant-table-row', { hasText: /Tencent/i })
      .first()
      .waitFor();
    await results
      .locator('tr.ant-table-row', { hasText: /Tencent/i })
      .first()
      .getByRole('checkbox')
      .check();
    const selected = panel.getByTestId('company-selected');
    assert.equal(await selected.locator('tr.ant-table-row').count(), 2);
    assert.match(await selected.innerText(), /HSBC/);
    assert.match(await selected.innerText(), /Tencent/i);

    // The name is required.
    await panel.getByRole('button', { name: /^Analyse 2 companies$/ }).click();
    await panel.getByText('Required Field').waitFor();
    await screenshot(page, 'location-company-search');

    await panel.getByLabel('Portfolio Name').fill(`HK champions ${suffix}`);
    await panel.getByRole('button', { name: /^Analyse 2 companies$/ }).click();
    await page.waitForURL(/\/company-dashboard(\?|$)/, { timeout: 120_000 });
    await page.getByTestId('section-company-rollup').waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('dashboard-subtitle').innerText(), /2 assets/);
    assert.match(await page.getByTestId('dashboard-subtitle').innerText(), /10 hazards/);
    // Listed companies come without values: the dashboard says why losses are zero.
    await page.getByTestId('no-values-hint').waitFor();
    await screenshot(page, 'company-dashboard-created');

    // Later, the project list's Analyse opens the company dashboard again for this portfolio.
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="HK champions ${suffix}"]`).getByRole('button', { name: 'Analyse' }).click();
    await page.waitForURL(/\/company-dashboard(\?|$)/);
    await page.getByTestId('section-company-rollup').waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('dashboard-title').innerText(), /Company Physical Risk Assessment/);
  });

  it('adds the HSI benchmark (the default index) and lands on the project list', async () => {
    const { page, server } = s;
    await page.goto(`${server.baseUrl}/location`);
    await page.getByRole('tab', { name: 'Companies & Index' }).click();
    const panel = page.getByTestId('index-benchmark');
    await panel.getByTestId('index-source').waitFor();
    assert.match(await panel.getByTestId('index-source').innerText(), /\d+ members/);
    assert.match(await panel.locator('.ant-select').innerText(), /^HSI/);
    await screenshot(page, 'location-index-benchmark');
    await panel.getByLabel('Portfolio Name').fill(`HSI benchmark ${suffix}`);
    await panel.getByRole('button', { name: 'Add Index' }).click();
    await page.waitForURL('**/project');
    await page.getByText(`HSI benchmark ${suffix}`).first().waitFor();
  });

  it('ran without page errors', () => {
    assert.deepEqual(
      s.problems.filter((p) => !/GL Driver|WebGL/.test(p)),
      [],
    );
  });
});
