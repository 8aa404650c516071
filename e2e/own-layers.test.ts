import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { geoTiff, webMercator } from '../apps/server/test/support/geotiff';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { apiGet, loginUser, registerUser } from './support/api';
import { startServer, type RunningServer } from './support/server';
import { DashboardPage } from './pages/DashboardPage';
import { LoginPage } from './pages/LoginPage';
import { OwnLayersCard } from './pages/OwnLayersCard';
import { SetupPage } from './pages/SetupPage';

/** A 20 km Web Mercator square around Hong Kong with 1.8 m of river flood (or `fill`). */
function floodTiff(fill: number): Buffer {
  const [x, y] = webMercator(114.17, 22.3);
  return geoTiff({ width: 20, height: 20, x0: x - 10_000, y0: y + 10_000, res: 1000, fill, geoKeys: { ProjectedCSTypeGeoKey: 3857, GTModelTypeGeoKey: 1 } });
}

describe('own hazard layers in the browser: upload form, refusal, list, delete', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let token = '';
  let projectId = 0;
  const PROJECT = 'Harbour sites';
  const u = {
    username: `own_${Date.now().toString(36)}`,
    password: 'Str0ng-Passw0rd!',
    firstName: 'Grace',
    lastName: 'Hopper',
    companyName: 'Harbour Estates',
  };

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    problems = watchConsole(page);
    const reg = await registerUser(server.baseUrl, u);
    // a portfolio with one asset inside the layer and one outside, analysed before the layer exists
    token = await loginUser(server.baseUrl, u.username, u.password, reg.companyCode);
    const created = await fetch(`${server.baseUrl}/api/v2/create_project/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${token}` },
      body: JSON.stringify({
        portfolio_name: PROJECT,
        portfolio_variables: ['River Flood', 'Extreme Heat'],
        data: [
          { name: 'Harbour warehouse', latitude: 22.3, longitude: 114.17, property_type: 'Warehouse', valuation: 5e7 },
          { name: 'Madrid office', latitude: 40.42, longitude: -3.7, property_type: 'Office', valuation: 6e7 },
        ],
      }),
    });
    assert.equal(created.status, 201);
    projectId = ((await created.json()) as { project: { project_id: number } }).project.project_id;
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: u.username, password: u.password, companyCode: reg.companyCode });
    await login.submit();
    await new SetupPage(page).waitForPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refuses an out-of-range layer with the reason, uploads a good one, lists and deletes it', async () => {
    // the card is on Settings › Data, a page of its own reached from the menu (no longer on the 2FA page)
    assert.equal(await page.getByTestId('own-layer-form').count(), 0, 'not on the 2FA setup page');
    await page.getByRole('link', { name: 'Data', exact: true }).click();
    await page.waitForURL('**/data');
    const card = new OwnLayersCard(page);
    await card.waitFor();
    assert.match(await card.card().innerText(), /No own layers yet/);

    await card.choose('hazard', 'River Flood');
    await card.choose('scenario', 'SSP2-4.5 / RCP 4.5');
    await card.choose('year', '2050');
    await card.choose('rp', '1 in 100');
    await card.fill('label', 'Harbour flood study 1-in-100');
    await card.fill('source', 'Harbour Estates engineering, 2026');
    await card.chooseFile('flood_in_mm.tif', floodTiff(1800));
    await card.submit();
    await card.error().waitFor();
    assert.match(await card.error().innerText(), /outside the plausible range of river_flood \(0 to 50 m\)/);
    await screenshot(page, 'own-layers-refused');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'own-layers-refused-1280');
    await page.setViewportSize({ width: 1440, height: 900 });

    await card.chooseFile('harbour_flood_100.tif', floodTiff(1.8));
    await card.submit();
    await card.rows().filter({ hasText: 'Harbour flood study 1-in-100' }).waitFor();
    const text = await card.rows().first().innerText();
    assert.match(text, /River Flood[\s\S]*SSP2-4.5[\s\S]*2050[\s\S]*1 in 100[\s\S]*1\.8 to 1\.8 m/);
    assert.match(text, /EPSG:3857/);
    await card.card().screenshot({ path: (await screenshot(page, 'own-layers')).replace(/\.png$/, '-card.png') });

    // the upload re-analysed the portfolio: its dashboard (SSP2-4.5, 2050) says which values are own data
    for (const end = Date.now() + 120_000; ;) {
      const st = await apiGet<{ status: string }>(server.baseUrl, `/api/v2/projects/${projectId}/status/`, token);
      if (st.body.status === 'done') break;
      assert.ok(Date.now() < end, `analysis not done: ${JSON.stringify(st.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`).getByRole('button', { name: 'Analyse' }).click();
    await new DashboardPage(page).waitForLoaded();
    const banner = page.getByTestId('own-data-hazards');
    await banner.waitFor();
    assert.match(await banner.innerText(), /River Flood: own data at 1 asset\(s\)[\s\S]*Harbour flood study 1-in-100/);
    await screenshot(page, 'own-layers-dashboard');
    await page.goto(`${server.baseUrl}/data`);
    await card.waitFor();

    await card.deleteRow('Harbour flood study 1-in-100');
    await card.rows().first().waitFor({ state: 'detached' });
    assert.match(await card.card().innerText(), /No own layers yet/);
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
    );
  });
});
