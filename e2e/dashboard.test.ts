import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { PERILS_NOT_MODELLED, PERILS_NOT_MODELLED_SHARE } from '@crp/contracts';
import { screenshotDir } from './support/browser';
import { DEMO_PROJECT as PROJECT, startDemoSession } from './support/demo';
import type { RunningServer } from './support/server';
import { DashboardPage } from './pages/DashboardPage';
const SECTIONS = ['climate-score', 'cvar', 'donuts', 'severity', 'losses', 'heatmap', 'location-map', 'risk-map', 'key-findings', 'asset-table'];

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(screenshotDir, `dashboard-${name}.png`), fullPage: true, animations: 'disabled' });
}

async function shootSection(page: Page, id: string, name = id): Promise<void> {
  const el = page.getByTestId(`section-${id}`);
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(400); // charts animate in; maps draw on the next frame
  await el.screenshot({ path: join(screenshotDir, `dashboard-section-${name}.png`), animations: 'disabled' });
}

/** Whitespace folded, as innerText breaks lines where the layout wraps. */
const norm = (t: string) => t.replace(/\s+/g, ' ').trim();

describe('physical-risk dashboard in the browser: filters, views, asset edit and asset analysis', { timeout: 900_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let csp: string[];
  let dash: DashboardPage;

  before(async () => {
    ({ server, browser, page, problems, csp } = await startDemoSession());
    dash = new DashboardPage(page);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  it('sends /dashboard without navigation state to /location', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.waitForURL('**/location');
  });

  it('opens the demo dashboard from its project card and renders every section with data', async () => {
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`).getByRole('button', { name: 'Analyse' }).click();
    await dash.waitForLoaded();
    await assert.doesNotReject(page.getByRole('heading', { name: 'Physical Climate Risk Assessment' }).waitFor());
    const sub = await dash.subtitle().innerText();
    assert.match(sub, /18 assets/);
    assert.match(sub, /\d+ hazards/);
    assert.match(sub, /20\d\d/);
    // a score out of 100, never a percentage (issue 20)
    assert.match(await page.getByTestId('climate-score').innerText(), /\d+\.\d \/ 100/);
    assert.doesNotMatch(await page.getByTestId('climate-score').innerText(), /%/);
    // The 20-year sum of expected losses says what it is, and is never called CVaR (issue 35 item 5); the tail losses
    // sit beside it; river and rainfall flood are flagged as placeholders
    assert.match(await page.getByTestId('kpi-cvar').innerText(), /^20-year expected loss/);
    assert.match(await page.getByTestId('kpi-rcvar').innerText(), /^Residual 20-year expected loss/);
    assert.doesNotMatch(await page.getByTestId('dashboard').innerText(), /CVaR/);
    // The perils not modelled and the share of losses they carry, as the contracts state it (issue 35 item 4)
    const notModelled = norm(await page.getByTestId('not-modelled').innerText());
    for (const p of PERILS_NOT_MODELLED) assert.ok(notModelled.includes(p.name.toLowerCase()), `the dashboard names '${p.name}'`);
    assert.ok(notModelled.includes(norm(PERILS_NOT_MODELLED_SHARE)), notModelled);
    assert.match(await page.getByTestId('tail-losses').innerText(), /1-in-100 \/ 1-in-250-year loss[\s\S]*USD \/ [\s\S]*USD/);
    assert.match(await page.getByTestId('placeholder-hazards').innerText(), /placeholder data/);
    for (const k of ['kpi-max-exposure', 'kpi-cvar', 'kpi-rcvar', 'kpi-avoided']) assert.match(await page.getByTestId(k).innerText(), /(M|B) USD/);
    // KPI figures whole at 1280 and 1440 px (issue 37 item 7: '835.96 M US' was cut at 1280 and overflowed at 1440)
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      const cut = await page
        .locator('.crp-dash-kpi-value')
        .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.textContent} ${e.scrollWidth}>${e.clientWidth}`));
      assert.deepEqual(cut, [], `no KPI value cut at ${width} px`);
    }
    assert.equal(await page.getByTestId('upgrade-placeholder').count(), 0, 'the enterprise tier sees every section');
    assert.equal(await page.getByTestId('heatmap').getAttribute('data-rows'), '18');
    assert.equal((await page.getByTestId('heatmap').boundingBox())?.height, 900);
    assert.equal(await page.getByTestId('heatmap').getAttribute('data-scroll'), 'true', 'more than 10 rows scroll');
    assert.equal(await page.locator('[data-testid="section-risk-map"] [data-points]').getAttribute('data-points'), '18');
    await page.locator('[data-testid="section-risk-map"] .crp-dash-map[data-loaded="true"]').waitFor();
    assert.equal(await dash.table().locator('tr.ant-table-row').count(), 18);

    // A KPI info modal opens and closes.
    await page.getByRole('button', { name: 'About Maximum Exposure' }).click();
    await page.getByTestId('info-modal').waitFor();
    // Close once the opening animation is over (on a loaded machine a click during it was seen to leave the modal open).
    await page.locator('.ant-modal:not(.ant-zoom-appear):not(.ant-zoom-enter)').waitFor();
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('info-modal').waitFor({ state: 'hidden' });

    // The Climate Risk Index image marks where this selection's score sits on the bands.
    const score = Number((await page.getByTestId('climate-score').innerText()).match(/(\d+\.\d) \/ 100/)![1]);
    await dash.section('climate-score').getByRole('button', { name: 'Climate Risk Index' }).click();
    const image = page.getByTestId('climate-risk-index-image');
    await image.waitFor();
    assert.match((await image.locator('[data-testid="climate-risk-index-marker"]').textContent()) ?? '', new RegExp(`This selection: ${score.toFixed(1)}`));
    assert.match((await image.textContent()) ?? '', /Low risk.*Medium risk.*High risk/);
    await page.getByRole('dialog', { name: 'Climate Risk Index' }).screenshot({ path: join(screenshotDir, 'dashboard-climate-risk-index.png') });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await image.waitFor({ state: 'hidden' });

    await shoot(page, 'full');
    // Section shots: the sticky filter bar would cover the top of each one.
    await page.addStyleTag({ content: '.crp-dash-filters { position: static !important; }' });
    await page.getByTestId('advanced-filters').screenshot({ path: join(screenshotDir, 'dashboard-section-filters.png') });
    for (const id of SECTIONS) await shootSection(page, id);
    for (const tab of ['Detailed', 'Overall', 'Inventory']) {
      await dash.section('losses').getByRole('tab', { name: tab }).click();
      await shootSection(page, 'losses', `losses-${tab.toLowerCase()}`);
    }
  });

  it('switches rcp and ssp: the scenario and year lists follow, and rcp with 2100 becomes 2050', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await dash.setAnalysis('SSP');
    await dash.selectOption('filter-year', '2100');
    await dash.apply();
    assert.match(await dash.subtitle().innerText(), /SSP\d-\d\.\d · 2100/);

    await dash.setAnalysis('RCP');
    assert.deepEqual(await dash.optionsOf('filter-scenario'), ['RCP 2.6', 'RCP 4.5', 'RCP 8.5']);
    await dash.apply();
    const sub = await dash.subtitle().innerText();
    assert.match(sub, /RCP \d\.\d · /);
    assert.match(sub, /2050/, 'rcp with 2100 is forced to 2050 on apply');
    assert.deepEqual(await dash.optionsOf('filter-year'), ['2020', '2030', '2050']);
    await shoot(page, 'rcp');

    await dash.setAnalysis('SSP');
    await dash.selectOption('filter-year', '2050');
    await dash.selectOption('filter-scenario', 'SSP5-8.5');
    await dash.apply();
    assert.match(await dash.subtitle().innerText(), /SSP5-8\.5 · 2050/);

    // Save as default stores the filter for the user: the dashboard opens with it next time (the project's is SSP2-4.5).
    const saved = page.waitForResponse((r) => r.url().includes('/api/project/update_default_filter/') && r.status() === 200);
    await page.getByTestId('filter-save-default').click();
    const res = await saved;
    assert.equal(res.request().postData()?.includes('project_id'), false, 'saved for the user, not the project');
    await page.goto(`${server.baseUrl}/project`);
    await page.locator(`[data-testid="project-card"][data-project="${PROJECT}"]`).getByRole('button', { name: 'Analyse' }).click();
    await dash.waitForLoaded();
    assert.match(await dash.subtitle().innerText(), /SSP5-8\.5 · 2050/, 'the saved defaults open the dashboard');
  });

  it('switches adaptation off and on, and the financial view to percentages', async () => {
    const req = page.waitForRequest((r) => r.url().includes('/api/v2/dashboard/') && (r.postData() ?? '').includes('"mitigation":false'));
    await dash.adaptationSwitch().click();
    await req;
    await dash.waitForLoaded();
    assert.equal(await dash.adaptationSwitch().getAttribute('aria-checked'), 'false');
    await shoot(page, 'adaptation-off');
    await dash.adaptationSwitch().click();
    await dash.waitForLoaded();

    await dash.setUnit('Percentage');
    assert.match(await page.getByTestId('kpi-cvar').locator('.crp-dash-kpi-value').innerText(), /%$/);
    await shoot(page, 'percentage');
    await dash.setUnit('Financial');
    assert.match(await page.getByTestId('kpi-cvar').locator('.crp-dash-kpi-value').innerText(), /USD$/);

    const content = page.waitForRequest((r) => r.url().includes('/api/v2/dashboard/') && (r.postData() ?? '').includes('"with_content":false'));
    await page.getByTestId('toggle-content').getByText('Remove Content', { exact: true }).click();
    await content;
    await dash.waitForLoaded();
    await page.getByTestId('toggle-content').getByText('Add Content', { exact: true }).click();
    await dash.waitForLoaded();
  });

  it('draws the heat map 120 px tall for a single asset (property type Hotel), without scrolling', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await dash.selectOption('filter-property-type', 'Hotel');
    await dash.apply();
    assert.match(await dash.subtitle().innerText(), /1 assets .* · Hotel/);
    const heat = page.getByTestId('heatmap');
    assert.equal(await heat.getAttribute('data-rows'), '1');
    assert.equal(await heat.getAttribute('data-scroll'), 'false');
    assert.equal((await heat.boundingBox())?.height, 120);
    await shootSection(page, 'heatmap', 'heatmap-single-asset');
    await page.evaluate(() => window.scrollTo(0, 0));
    await dash.selectOption('filter-property-type', 'All');
    await dash.apply();
    assert.match(await dash.subtitle().innerText(), /18 assets/);
  });

  it('keeps the filters in the URL: a reload or a shared link restores the view (issue 23 item 6)', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await dash.setAnalysis('SSP');
    await dash.selectOption('filter-scenario', 'SSP1-2.6');
    await dash.selectOption('filter-year', '2030');
    await dash.apply();
    await dash.setUnit('Percentage');
    await dash.waitForLoaded();
    const url = new URL(page.url());
    assert.deepEqual(
      ['type', 'scenario', 'year', 'unit'].map((k) => url.searchParams.get(k)),
      ['ssp', '26', '2030', 'percentage'],
    );
    assert.ok(url.searchParams.get('project_id'), 'the link names the project');

    await page.reload();
    await dash.waitForLoaded();
    assert.match(await dash.subtitle().innerText(), /SSP1-2\.6 · 2030/, 'a reload restores the filters');
    assert.match(await page.getByTestId('kpi-cvar').locator('.crp-dash-kpi-value').innerText(), /%$/, 'and the unit');

    // The link opened in a new tab (no navigation state, as when shared) shows the same view.
    const other = await page.context().newPage();
    try {
      await other.goto(url.toString());
      const view = new DashboardPage(other);
      await view.waitForLoaded();
      assert.match(await view.subtitle().innerText(), /SSP1-2\.6 · 2030/);
      assert.match(await view.subtitle().innerText(), /18 assets/);
    } finally {
      await other.close();
    }

    await dash.setUnit('Financial');
    await dash.selectOption('filter-year', '2050');
    await dash.selectOption('filter-scenario', 'SSP5-8.5');
    await dash.apply();
    assert.match(await dash.subtitle().innerText(), /SSP5-8\.5 · 2050/);
    assert.equal(new URL(page.url()).searchParams.get('year'), '2050');
  });

  it('sorts, searches and pages the asset table and the heat map on the server (issue 22 item 3)', async () => {
    type Row = { name: string; overall_loss: number | null };
    const names = () =>
      dash
        .table()
        .locator('tr.ant-table-row')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-name')));
    const header = dash
      .table()
      .locator('th')
      .filter({ hasText: /^Residual 20-year expected loss$/ });
    await header.scrollIntoViewIfNeeded();
    const asc = page.waitForResponse(
      (r) => r.url().includes('/api/v2/dashboard/assets/') && (r.request().postData() ?? '').includes('"sort":"overall_loss","order":"asc"'),
    );
    await header.click();
    await asc;
    const desc = page.waitForResponse(
      (r) => r.url().includes('/api/v2/dashboard/assets/') && (r.request().postData() ?? '').includes('"sort":"overall_loss","order":"desc"'),
    );
    await header.click();
    const body = (await (await desc).json()) as { total: number; rows: Row[] };
    await dash.waitForLoaded();
    const losses = body.rows.map((r) => r.overall_loss ?? -Infinity);
    assert.deepEqual(
      losses,
      [...losses].sort((a, b) => b - a),
      'the server sorts by residual 20-year expected loss, largest first',
    );
    assert.equal(body.total, 18);
    assert.deepEqual(
      await names(),
      body.rows.map((r) => r.name),
      "the table shows the server's order",
    );

    const word = body.rows[0]!.name.split(/\s+/)[0]!;
    const searched = page.waitForResponse(
      (r) => r.url().includes('/api/v2/dashboard/assets/') && (r.request().postData() ?? '').includes(`"search":"${word.toLowerCase()}"`),
    );
    await dash.section('asset-table').getByLabel('Search assets').fill(word.toLowerCase());
    const found = (await (await searched).json()) as { total: number; rows: Row[] };
    await dash.waitForLoaded();
    assert.ok(found.total >= 1 && found.total < 18, `searching ${word} narrows the rows (${found.total})`);
    assert.deepEqual(
      await names(),
      found.rows.map((r) => r.name),
    );
    await shootSection(page, 'asset-table', 'asset-table-sorted-searched');
    await dash.section('asset-table').getByLabel('Search assets').fill('');
    await header.click(); // back to upload order
    await dash.waitForLoaded();

    const heat = page.waitForResponse(
      (r) => r.url().includes('/api/v2/dashboard/heatmap/') && (r.request().postData() ?? '').includes('"sort":"climate_score","order":"desc"'),
    );
    await dash.selectOption('heatmap-sort', 'Climate score, highest first');
    const heatBody = (await (await heat).json()) as { names: string[]; total: number };
    await dash.waitForLoaded();
    assert.equal(heatBody.total, 18);
    assert.equal(await page.getByTestId('heatmap').getAttribute('data-rows'), '18');
  });

  it('shows the detail-by-year presentation from POST dashboard/detail', async () => {
    const first = page.waitForResponse((r) => r.url().includes('/api/v2/dashboard/detail/') && r.status() === 200);
    await page.getByTestId('presentation').getByText('Detail by year', { exact: true }).click();
    await first;
    await page.locator('[data-testid="detail-by-year"][data-loading="false"]').waitFor();
    for (const id of ['risk-map', 'severity', 'heatmap', 'financial-view', 'losses', 'asset-table']) await page.getByTestId(`section-${id}`).waitFor();
    const again = page.waitForResponse((r) => r.url().includes('/api/v2/dashboard/detail/') && (r.request().postData() ?? '').includes('"year":2030'));
    await dash.selectOption('detail-year', '2030');
    assert.equal((await again).status(), 200);
    await page.locator('[data-testid="detail-by-year"][data-loading="false"]').waitFor();
    await page.getByTestId('detail-key-findings').click();
    await page.getByTestId('section-key-findings').waitFor();
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('section-key-findings').waitFor({ state: 'hidden' });
    await shoot(page, 'detail-by-year');
    await page.getByTestId('presentation').getByText('Overview', { exact: true }).click();
    await page.getByTestId('section-climate-score').waitFor();
  });

  it('edits an asset: required cells are checked, then Save All saves, re-analyses and refreshes', async () => {
    await dash.section('asset-table').getByRole('button', { name: 'About Mitigation levels' }).click();
    await page.getByTestId('info-modal').filter({ hasText: 'River Flood' }).waitFor();
    await page.waitForTimeout(500); // the modal fades in
    await page.screenshot({ path: join(screenshotDir, 'dashboard-mitigation-info.png') });
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('info-modal').filter({ hasText: 'River Flood' }).waitFor({ state: 'hidden' });
    // The Flood Risk Reduction Level guidance turns measures and their distances into the level to enter.
    await dash.section('asset-table').getByRole('button', { name: 'About Flood Risk Reduction Level' }).click();
    const guide = page.getByTestId('info-modal').filter({ has: page.getByTestId('flood-mitigation') });
    await guide.waitFor();
    const distances = guide.getByRole('combobox', { name: 'Distances of measures (m)' });
    for (const d of ['5', '8', '30']) {
      await distances.fill(d);
      await distances.press('Enter');
    }
    assert.match(await guide.getByTestId('flood-mitigation-level').innerText(), /Flood Risk Reduction Level: Median[\s\S]*2 of 3 measure\(s\) are within 20 m/);
    await page.screenshot({ path: join(screenshotDir, 'dashboard-flood-risk-reduction.png') });
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: 'Close' }).click();
    await guide.waitFor({ state: 'hidden' });
    await page.getByTestId('edit-all').click();
    const row = dash.row('Oslo Office');
    // A required cell left empty abandons the save.
    await row.getByLabel('Name of Oslo Office').fill('');
    let sent = false;
    const onReq = (r: { url: () => string }) => {
      if (r.url().includes('/api/v2/update_assets/')) sent = true;
    };
    page.on('request', onReq);
    await page.getByTestId('save-all').click();
    await row.getByText('Please Input Name!').waitFor();
    await shootSection(page, 'asset-table', 'asset-table-validation');
    assert.equal(sent, false, 'nothing is sent when validation fails');
    page.off('request', onReq);
    await row.getByLabel('Name of Oslo Office').fill('Oslo Office');

    const valuation = row.getByLabel('Valuation of Oslo Office');
    await valuation.fill('123000000');
    // the construction class (typhoon wind by the Hazus curve of the class) is picked from its list
    await row.getByLabel('Construction of Oslo Office').click();
    await page.locator('.ant-select-dropdown:visible').getByText('Concrete', { exact: true }).click();
    const saved = page.waitForResponse((r) => r.url().includes('/api/v2/update_assets/'));
    await page.getByTestId('save-all').click();
    const res = await saved;
    assert.equal(res.status(), 200, await res.text());
    const sentRows = (res.request().postDataJSON() as { assets: Record<string, unknown>[] }).assets.filter((a) => Object.keys(a).length > 1);
    assert.deepEqual(
      sentRows.map(({ valuation: v, construction }) => ({ v, construction })),
      [{ v: 123000000, construction: 'concrete' }],
    );
    const body = (await res.json()) as { changed: number; version: number };
    assert.equal(body.changed, 1);
    assert.equal(body.version, 2);
    await page.getByTestId('edit-all').waitFor();
    await dash.waitForLoaded();
    await row.locator('td', { hasText: '123.00 M USD' }).waitFor({ timeout: 60_000 });
    await row.locator('td', { hasText: /^Concrete$/ }).waitFor();
    // Editing scrolled the table sideways: back to the first columns, where Valuation is.
    await dash
      .table()
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => el.scrollTo({ left: 0 }));
    await shootSection(page, 'asset-table', 'asset-table-saved');
  });

  it('opens the Asset Analysis modal: risk, comparison and the building-damage explorer', async () => {
    await dash.openAsset('Central HQ Tower');
    assert.match(await page.getByTestId('asset-risk-title').innerText(), /Central HQ Tower: \d+ hazards · SSP · SSP.* · 2050/);
    await page.getByTestId('asset-year-loss').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(screenshotDir, 'dashboard-asset-risk.png') });

    // Historical typhoon tracks within 200 km of the Hong Kong asset: a map and a table of real storms
    const tracks = page.getByTestId('typhoon-tracks');
    await tracks.scrollIntoViewIfNeeded();
    const firstRow = tracks.locator('[data-testid="typhoon-track-table"] tbody tr.ant-table-row').first();
    await firstRow.waitFor({ timeout: 30_000 });
    assert.match(await firstRow.innerText(), /(19|20)\d\d[\s\S]*(TD|TS|Cat \d)[\s\S]*\d+ km/);
    assert.match(await tracks.innerText(), /\d+ storms within 200 km in the records \(western North Pacific 1949-20\d\d\)/);
    assert.match(await tracks.locator('.ant-card-head').innerText(), /^Historical typhoon tracks$/);
    await tracks.locator('[data-testid="typhoon-track-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    await firstRow.click(); // highlights that storm's track
    assert.match((await firstRow.getAttribute('class')) ?? '', /ant-table-row-selected/);
    await page.waitForTimeout(600);
    await tracks.screenshot({ path: join(screenshotDir, 'dashboard-asset-typhoon-tracks.png'), animations: 'disabled' });

    await page.getByRole('tab', { name: 'Comparison' }).click();
    await page.getByTestId('asset-comparison').waitFor();
    assert.match(await page.getByTestId('asset-comparison').innerText(), /SSP1-2\.6[\s\S]*SSP5-8\.5[\s\S]*2100/);
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(screenshotDir, 'dashboard-asset-comparison.png') });

    await page.getByRole('tab', { name: 'Building damage' }).click();
    await page.getByTestId('damage-storm_surge').waitFor();
    // the explorer opens on this building (issue 37 item 3): the tower's 45 storeys and its occupancy, not "Unknown"
    await page.getByTestId('explorer-stories').filter({ hasText: /^45$/ }).waitFor();
    await page
      .getByTestId('explorer-occupancy')
      .filter({ hasText: /^Commercial$/ })
      .waitFor();
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v2/building_damage/')) seen.push(r.postData() ?? '');
    });
    // A selector change must re-request at once. One miss has been seen once (cause not found); it is reported and a
    // second selector change must then re-request, so the behaviour is still asserted.
    const changeAndWait = async (label: string, value: string) => {
      const sent = page.waitForRequest((r) => r.url().includes('/api/v2/building_damage/') && (r.postData() ?? '').includes(`construction=${value}`), {
        timeout: 10_000,
      });
      await dash.selectOption('explorer-construction', label);
      return sent;
    };
    let req = await changeAndWait('Concrete', 'concrete').catch(async (err: Error) => {
      console.warn(`building-damage explorer: no request after choosing Concrete (${err.message}); requests seen: ${JSON.stringify(seen)}`);
      await page.screenshot({ path: join(screenshotDir, 'dashboard-asset-damage-missed.png') });
      return null;
    });
    req ??= await changeAndWait('Steel', 'steel');
    const res = await req.response();
    assert.equal(res?.status(), 200, server.output().slice(-2000));
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(screenshotDir, 'dashboard-asset-damage.png') });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('asset-modal').waitFor({ state: 'detached' });

    // A multi-storey office with a construction class (Oslo Office, 9 storeys, made Concrete in the asset table above):
    // the explorer opens with its storeys, occupancy and construction chosen (issue 37 item 3, done-when)
    await dash.openAsset('Oslo Office');
    await page.getByRole('tab', { name: 'Building damage' }).click();
    await page.getByTestId('damage-river_flood').waitFor();
    for (const [key, text] of [
      ['stories', '9'],
      ['occupancy', 'Commercial'],
      ['construction', 'Concrete'],
    ] as const)
      await page
        .getByTestId(`explorer-${key}`)
        .filter({ hasText: new RegExp(`^${text}$`) })
        .waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(screenshotDir, 'dashboard-asset-damage-oslo.png') });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('asset-modal').waitFor({ state: 'detached' });
  });

  it('says "no data" in the historical typhoon tracks of an asset outside every cyclone basin (Rotterdam)', async () => {
    await dash.openAsset('Rotterdam Port Terminal');
    const nodata = page.getByTestId('typhoon-track-nodata');
    await nodata.waitFor({ timeout: 30_000 });
    assert.match(await nodata.innerText(), /No data: the best-track records held here do not cover the ocean basin of Rotterdam Port Terminal/);
    assert.equal(await page.getByTestId('typhoon-track-table').count(), 0);
    // A European asset: the asset analysis says what its losses leave out (issue 35 item 4)
    assert.match(await page.getByTestId('asset-not-modelled').innerText(), /Not modelled: severe convective storm[\s\S]*extratropical windstorm[\s\S]*Verisk/);
    await page.getByTestId('typhoon-tracks').screenshot({ path: join(screenshotDir, 'dashboard-asset-typhoon-tracks-nodata.png'), animations: 'disabled' });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('asset-modal').waitFor({ state: 'detached' });
  });

  it('names Atlantic storms hurricanes and says where their records end (Miami Beach Hotel; issue 37 item 7)', async () => {
    await dash.openAsset('Miami Beach Hotel');
    const tracks = page.getByTestId('typhoon-tracks');
    await tracks.locator('[data-testid="typhoon-track-table"] tbody tr.ant-table-row').first().waitFor({ timeout: 30_000 });
    assert.match(await tracks.locator('.ant-card-head').innerText(), /^Historical hurricane tracks$/);
    const text = await tracks.innerText();
    assert.match(text, /in the records \(North Atlantic 1970-2016\)/);
    assert.match(await page.getByTestId('typhoon-track-ends').innerText(), /The records held here end in 2016: later storms are not shown\./);
    assert.doesNotMatch(text, /typhoon/i);
    await tracks.scrollIntoViewIfNeeded();
    await tracks.screenshot({ path: join(screenshotDir, 'dashboard-asset-hurricane-tracks.png'), animations: 'disabled' });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('asset-modal').waitFor({ state: 'detached' });
  });

  it('opens /company-dashboard with the same sections and a per-company roll-up', async () => {
    await page.evaluate((name) => {
      window.history.pushState({ usr: { project_name: name }, key: 'e2e', idx: 1 }, '', '/company-dashboard');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    }, PROJECT);
    await page.waitForURL(/\/company-dashboard(\?|$)/);
    await page.locator('[data-testid="dashboard"][data-loading="false"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('section-company-rollup').waitFor();
    assert.match(await page.getByTestId('dashboard-title').innerText(), /Company Physical Risk Assessment/);
    await shootSection(page, 'company-rollup');
  });

  it('ran without page errors', () => {
    assert.deepEqual(
      problems.filter((p) => !/GL Driver|WebGL/.test(p)),
      [],
    );
  });

  it('logged no Content-Security-Policy violation (login, project list, dashboard, asset analysis)', () => {
    assert.deepEqual(csp, []);
  });
});
