import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loginUser, registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { LoginPage } from './pages/LoginPage';
import { RealEstatePage } from './pages/RealEstatePage';

const VIEWPORT = { width: 1440, height: 900 };
const CSV = [
  'name,lat,long,revenue,construction cost,property type,area,valuation,floors',
  'Houston Depot,29.76,-95.37,,,Warehouse,,25000000,2',
  'Madrid Flat,40.42,-3.7,,,Residential,,900000,6',
  'Kwun Tong Office,22.3104,114.2252,,,Office,,310000000,38',
].join('\n');

describe('real estate in the browser: map and CSV selection, property-risk project, dashboard', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let work: string;
  const suffix = Date.now().toString(36);
  const user = { username: `estate_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Reese', lastName: 'Estate', companyName: `Harbour Homes ${suffix}` };

  before(async () => {
    server = await startServer();
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-re-'));
    const reg = await registerUser(server.baseUrl, user);
    await loginUser(server.baseUrl, user.username, user.password, reg.companyCode);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORT });
    page = await context.newPage();
    problems = watchConsole(page);
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: user.username, password: user.password, companyCode: reg.companyCode });
    await login.submit();
    await page.waitForURL('**/setup');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('selects assets on the map and from a CSV, creates the project and opens the dashboard', async () => {
    const re = new RealEstatePage(page, server.baseUrl);
    await re.open({ assets: [{ name: 'Saved Tower', latitude: 22.2819, longitude: 114.1585, property_type: 'Office' }] });
    await page.getByTestId('my-assets').getByText('Saved Tower').waitFor();
    await re.waitForMap();

    // Asset tab: a map click adds a point and zooms to 16; a second click near it adds another.
    await re.clickMap(440, 230); // Hong Kong: the map opens centred on 114.18 E, 22.28 N
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="property-marker"]').length === 1);
    await page.waitForTimeout(2500); // fly-to zoom 16
    await re.clickMap(480, 260);
    await re.waitForNames();
    assert.equal(await re.selectedRows().count(), 2);
    assert.equal(await page.getByTestId('property-marker').count(), 2);
    await page.getByTestId('my-assets').getByRole('button', { name: 'Add', exact: true }).click();
    assert.equal(await re.selectedRows().count(), 3);
    await screenshot(page, 'realestate-asset-tab');

    // CSV tab: load, optional-input confirmation, Add one, Add All, Clear All.
    await re.tab('Multiple Asset CSV');
    const file = join(work, 'properties.csv');
    writeFileSync(file, CSV);
    await re.loadCsv(file);
    const dialog = page.getByTestId('optional-columns-dialog');
    await dialog.getByText('Optional inputs').waitFor();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await re.allAssets().getByText('All Assets (3)').waitFor();
    await re.allAssets().getByRole('button', { name: 'Add Houston Depot' }).click();
    await re.selectedAssets().getByText('Selected Assets (4)').waitFor();
    await re.allAssets().getByRole('button', { name: 'Add All' }).click();
    await re.selectedAssets().getByText('Selected Assets (6)').waitFor();
    await screenshot(page, 'realestate-csv-tab');
    await re.selectedAssets().getByRole('button', { name: 'Clear All' }).click();
    await re.selectedAssets().getByText('Selected Assets (0)').waitFor();
    await re.allAssets().getByRole('button', { name: 'Add All' }).click();
    await re.selectedAssets().getByText('Selected Assets (3)').waitFor();

    // How-to guide.
    await page.getByRole('button', { name: 'How to' }).click();
    await page.getByTestId('howto-modal').getByText('Pick properties on the map').waitFor();
    await page.getByTestId('howto-modal').getByRole('button', { name: 'Got it' }).click();

    // Create Project: Submit is disabled without a name; then the job runs and the dashboard opens.
    await page.getByTestId('open-create-project').click();
    const modal = page.getByTestId('create-project-modal');
    assert.equal(await modal.getByRole('button', { name: 'Submit' }).isDisabled(), true);
    await modal.getByLabel('Project Name').fill(`Properties ${suffix}`);
    await screenshot(page, 'realestate-create-project');
    await modal.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/realestate-dashboard', { timeout: 60_000 });
    const analysis = page.getByTestId('property-risk-analysis');
    await analysis.waitFor();
    await page.getByTestId('summary-tiles').getByText('Properties').waitFor();
    // the tiles' figures are whole at 1280 and 1440 px (issue 37 item 7: the GDP tile's '1045.60 B USD' overflowed)
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      const cut = await page
        .getByTestId('summary-tiles')
        .locator('.ant-statistic-content, .crp-re-tile-note')
        .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.textContent} ${e.scrollWidth}>${e.clientWidth}`));
      assert.deepEqual(cut, [], `no tile figure cut at ${width} px`);
    }
    assert.equal(await page.getByTestId('flood-table').locator('tbody tr.ant-table-row').count(), 3);
    assert.equal(await page.getByTestId('typhoon-table').locator('tbody tr.ant-table-row').count(), 3);
    for (const t of ['0-20 m', '>150 m', '>2 m', '0-0.25 m']) await page.getByTestId('flood-table').getByText(t, { exact: true }).first().waitFor();
    for (const t of ['>193 km/h', '117-193 km/h', '<61 km/h']) await page.getByTestId('wind-legend').getByText(t, { exact: true }).waitFor();
    await page.getByTestId('property-heatmap').locator('canvas').first().waitFor();
    await page.getByText('Measures farther than 20 m from the building have no effect.').waitFor();
    const distances = page.getByLabel('Distances of measures (m)');
    for (const d of ['5', '8', '30']) {
      await distances.fill(d);
      await distances.press('Enter');
    }
    await page.getByTestId('flood-mitigation-level').getByText('Flood Risk Reduction Level: Median').waitFor();
    await distances.fill('9');
    await distances.press('Enter');
    await page.getByTestId('flood-mitigation-level').getByText('Flood Risk Reduction Level: High').waitFor();
    await page.waitForTimeout(1500); // map tiles and markers
    await screenshot(page, 'realestate-dashboard');

    // Reloading keeps the state; the rows come from the fetch call by project name.
    await page.reload();
    await page.getByTestId('property-risk-analysis').waitFor();

    // The project is listed on /realestate and opens the Property Risk Analysis page (/property-risk) by name.
    await page.goto(`${server.baseUrl}/realestate`);
    const listed = page.getByTestId('property-projects');
    await listed.getByText(`Properties ${suffix}`).waitFor();
    await screenshot(page, 'realestate-project-list');
    await listed.getByRole('link', { name: 'Open' }).click();
    await page.waitForURL('**/property-risk');
    await page.getByTestId('property-risk-analysis').waitFor();
    assert.equal(await page.getByTestId('flood-table').locator('tbody tr.ant-table-row').count(), 3);
    await page.getByTestId('property-risk-map').getByText('Typhoon', { exact: true }).click();
    await page.waitForTimeout(1000);
    await screenshot(page, 'property-risk-page');

    // /property-risk without state asks for a project.
    await page.goto(`${server.baseUrl}/property-risk?direct=1`); // a new URL: the same URL would reload and keep the state
    await page.getByText('Open a property-risk project to see its analysis.').waitFor();
    assert.deepEqual(
      problems.filter((p) => !/Reverse geocoding failed/.test(p)),
      [],
    );
  });
});
