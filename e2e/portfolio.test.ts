import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiGet, approveMember, hasRoute, loginUser, registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { LocationPage } from './pages/LocationPage';
import { LoginPage } from './pages/LoginPage';
import { ProjectPage } from './pages/ProjectPage';

const VIEWPORT = { width: 1440, height: 900 };

describe('portfolios in the browser: map and CSV creation, project cards, rename, share, download', { timeout: 900_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let work: string;
  const suffix = Date.now().toString(36);
  const owner = { username: `owner_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Olive', lastName: 'Owner', companyName: `Typhoon Capital ${suffix}` };
  const colleague = { username: `colleague_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Cole', lastName: 'League', companyName: owner.companyName };
  let companyCode = '';
  let ownerToken = '';
  let colleagueId = 0;
  let colleagueToken = '';
  const mapPortfolio = `Harbour sites ${suffix}`;
  const csvPortfolio = `Warehouses ${suffix}`;
  const renamed = `Kowloon warehouses ${suffix}`;

  before(async () => {
    server = await startServer();
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-files-'));
    const reg = await registerUser(server.baseUrl, owner);
    companyCode = reg.companyCode;
    ownerToken = await loginUser(server.baseUrl, owner.username, owner.password, companyCode);
    const col = await registerUser(server.baseUrl, { ...colleague, companyCode });
    colleagueId = col.id;
    await approveMember(server.baseUrl, ownerToken, colleagueId);
    colleagueToken = await loginUser(server.baseUrl, colleague.username, colleague.password, companyCode);

    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
    page = await context.newPage();
    problems = watchConsole(page);
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: owner.username, password: owner.password, companyCode });
    await login.submit();
    await page.waitForURL('**/setup');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('creates a portfolio from three map clicks, shows the progress bar and opens the dashboard', async () => {
    const location = new LocationPage(page, server.baseUrl);
    await location.open();
    await location.waitForMap();
    assert.equal(await location.nextButton().isDisabled(), true, 'Next is disabled with zero locations');
    await screenshot(page, 'portfolio-map-empty');

    // Around Hong Kong (the map opens centred on 114.18 E, 22.28 N): three points on land north of the harbour.
    const box = await location.map().boundingBox();
    assert.ok(box);
    const cx = box.width / 2;
    const cy = box.height / 2;
    for (const [dx, dy] of [
      [-30, -40],
      [0, -55],
      [35, -45],
    ] as const)
      await location.clickMap(cx + dx, cy + dy);
    assert.equal(await location.markerItems().count(), 3);
    assert.equal(await location.mapMarkers().count(), 3);
    const { names, typed } = await location.waitForNames((i) => `Site ${i + 1}`);
    if (typed > 0) console.log(`# reverse geocoding did not answer for ${typed} marker(s): names typed by the test`);
    assert.equal(names.length, 3);
    for (const n of names) assert.ok(n.length > 0 && n.length <= 23, `the list shows a name truncated to 20 characters: '${n}'`);
    const coords = await location.markerItems().first().locator('.crp-small').innerText();
    assert.match(coords, /^-?\d+\.\d{3}, -?\d+\.\d{3}$/, 'coordinates show 3 decimals');
    await screenshot(page, 'portfolio-map-named-markers');

    // Keyboard alternative: add a location by coordinates, then delete it from the list.
    await page.getByRole('spinbutton', { name: 'Latitude' }).fill('22.3');
    await page.getByRole('spinbutton', { name: 'Longitude' }).fill('114.2');
    await page.getByRole('form', { name: 'Add a location by coordinates' }).getByRole('button', { name: /Add$/ }).click();
    assert.equal(await location.markerItems().count(), 4);
    await page.getByRole('button', { name: 'Remove location 4' }).click();
    assert.equal(await location.markerItems().count(), 3);
    assert.equal(await location.mapMarkers().count(), 3, 'the removed marker leaves the map');

    // Copy coordinates.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await location
      .markerItems()
      .first()
      .getByRole('button', { name: /Copy coordinates/ })
      .click();
    await page.getByText('Latitude and Longitude copied to clipboard!').waitFor();

    await page.getByText('Satellite', { exact: true }).click();
    await page.locator('[data-testid="location-map"][data-style="satellite"]').waitFor();
    await page.waitForTimeout(1500);
    await screenshot(page, 'portfolio-map-satellite');
    await page.getByText('Street', { exact: true }).click();

    assert.equal(await location.nextButton().isEnabled(), true, 'Next is enabled once every marker has a name');

    // Leaving with unsaved markers asks first; Stay keeps them.
    await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Projects' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave this page?' });
    await leave.waitFor();
    await screenshot(page, 'portfolio-map-leave-warning');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await page.waitForURL('**/location');
    assert.equal(await location.markerItems().count(), 3, 'the markers are kept');

    await location.next();
    assert.equal(await location.nextButton().isDisabled(), true, 'step 2 needs a portfolio name');
    for (const h of ['River Flood', 'Typhoon', 'Storm Surge']) {
      const box = page.getByRole('checkbox', { name: h });
      assert.equal(await box.isChecked(), true, `${h} is always on`);
      assert.equal(await box.isDisabled(), true, `${h} is locked`);
    }
    await location.fillDetails(mapPortfolio, ['Wildfire']);
    await screenshot(page, 'portfolio-map-details');
    await location.next();
    await page.getByTestId('review-table').waitFor();
    assert.equal(await page.getByTestId('review-table').locator('tbody tr.ant-table-row').count(), 3);
    await screenshot(page, 'portfolio-map-review');

    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST');
    await location.createButton().click();
    assert.equal((await created).status(), 201);
    await location.progress().waitFor();
    await page.locator('[data-testid="analysis-progress"] .ant-progress').waitFor();
    await location.waitForSomeProgress();
    await screenshot(page, 'portfolio-map-progress', { settle: false });
    await page.waitForURL(/\/dashboard(\?|$)/, { timeout: 120_000 });
    const state = await page.evaluate(() => (history.state as { usr?: { project_name?: string; project_id?: number } } | null)?.usr);
    assert.equal(state?.project_name, mapPortfolio, 'the dashboard opens with the project name in route state');
    assert.ok(typeof state?.project_id === 'number');
  });

  it('refuses an unsupported file, then creates a portfolio from an uploaded CSV with an edit', async () => {
    const location = new LocationPage(page, server.baseUrl);
    await location.open();
    await location.openCsvTab();

    // The upload template downloads as a timestamped .xlsx with the spec's columns.
    const templateDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download template' }).click();
    const template = await templateDownload;
    assert.match(template.suggestedFilename(), /^asset_upload_template_\d{8}_\d{6}\.xlsx$/);
    const templateFile = join(work, 'template.xlsx');
    await template.saveAs(templateFile);
    const tplBook = XLSX.read(readFileSync(templateFile), { type: 'buffer' });
    const tplRows = XLSX.utils.sheet_to_json<unknown[]>(tplBook.Sheets[tplBook.SheetNames[0]!]!, { header: 1 });
    assert.ok(
      tplRows.some((r) => r.map((c) => String(c ?? '').toLowerCase()).some((c) => c.startsWith('name'))),
      'the template has a name column',
    );

    const txt = join(work, 'notes.txt');
    writeFileSync(txt, 'not a spreadsheet');
    await location.upload(txt);
    await page.getByTestId('upload-refused').waitFor();
    assert.match(await page.getByTestId('upload-refused').innerText(), /not a supported file.*\.csv, \.xlsx or \.xls/);

    const csv = join(work, 'warehouses.csv');
    writeFileSync(
      csv,
      [
        'name,lat,long,revenue,construction cost,property type,area,valuation,floors',
        'Tsuen Wan warehouse,22.371,114.112,"USD 1.2M",5000000,Industrial,12000,25000000,6',
        'Kwai Chung terminal,22.350,114.125,2500000,8000000,Industrial,30000,80000000,3',
        'Central office,22.282,114.158,9000000,NA,Commercial,4500,120000000,30',
        'Bad latitude depot,95.2,114.188,800000,2000000,Industrial,6000,15000000,2',
        'Sha Tin depot,22.383,114.188,800000,2000000,Industrial,6000,15000000,2',
      ].join('\n'),
    );
    await location.upload(csv);
    await location.optionalDialog().waitFor();
    await screenshot(page, 'portfolio-csv-optional-columns');
    await page.getByRole('checkbox', { name: 'Floors' }).uncheck();
    await page.getByRole('button', { name: 'Continue' }).click();
    await location.previewTable().waitFor();
    assert.equal(await location.previewTable().locator('tbody tr.ant-table-row').count(), 5);
    assert.equal(await location.previewTable().locator('tr.crp-row-problem').count(), 1, 'the preview flags the bad latitude');
    assert.equal(await location.previewTable().getByRole('columnheader', { name: 'Floors' }).count(), 0, 'an unchosen optional column is dropped');

    // Edit mode: Next is blocked until Save; the edit is kept.
    await page.getByRole('button', { name: 'Edit' }).click();
    assert.equal(await location.nextButton().isDisabled(), true, 'Next is blocked while editing');
    await page.getByLabel('Asset name, row 1').fill('Tsuen Wan logistics hub');
    await screenshot(page, 'portfolio-csv-edit-mode');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes saved successfully!').waitFor();
    await location.previewTable().getByText('Tsuen Wan logistics hub').waitFor();
    await screenshot(page, 'portfolio-csv-preview');

    await location.next();
    await location.fillDetails(csvPortfolio, ['Extreme Heat']);
    assert.equal(await page.getByRole('checkbox', { name: 'Extreme Cold' }).count(), 1, 'Extreme Cold is offered for ssp');
    await page.getByRole('radio', { name: /RCP/ }).check();
    assert.equal(await page.getByRole('checkbox', { name: 'Extreme Cold' }).count(), 0, 'Extreme Cold is not offered for rcp');
    await page.getByRole('radio', { name: /SSP/ }).check();
    await screenshot(page, 'portfolio-csv-details');
    await location.next();
    await page.getByTestId('review-table').getByText('Tsuen Wan logistics hub').waitFor();

    // The server refuses the bad row: its errors are listed in red; nothing is created.
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST');
    await location.createButton().click();
    assert.equal((await refused).status(), 400);
    const errors = page.getByTestId('upload-errors');
    await errors.waitFor();
    assert.match(await errors.innerText(), /Row 4: .*latitude.*95\.2/i);
    await screenshot(page, 'portfolio-csv-server-errors');
    await page.getByRole('button', { name: 'OK' }).click();
    await errors.waitFor({ state: 'hidden' });

    // Fix it in edit mode and submit again.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByLabel('Portfolio Name').waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await location.previewTable().waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Latitude, row 4').fill('22.301');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes saved successfully!').first().waitFor();
    assert.equal(await location.previewTable().locator('tr.crp-row-problem').count(), 0);
    await location.next();
    assert.equal(await page.getByLabel('Portfolio Name').inputValue(), csvPortfolio, 'the details are kept');
    await location.next();

    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST');
    await location.createButton().click();
    const res = await created;
    assert.equal(res.status(), 201);
    const sent = JSON.parse(res.request().postData() ?? '{}') as { data: { name: string; stories: string }[] };
    assert.equal(sent.data[0]?.name, 'Tsuen Wan logistics hub', 'the edited rows are sent');
    assert.equal(sent.data[0]?.stories, 'NA', 'an unchosen optional column is sent as NA');
    await location.progress().waitFor();
    await location.waitForSomeProgress();
    await screenshot(page, 'portfolio-csv-progress', { settle: false });
    await page.waitForURL(/\/dashboard(\?|$)/, { timeout: 120_000 });
  });

  it('lists both projects as cards with scores, hazards and, on the Free plan, exposure and loss locked', async () => {
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.open();
    await projects.waitForScore(mapPortfolio);
    await projects.waitForScore(csvPortfolio);
    assert.equal(await projects.cards().count(), 2);
    assert.equal((await page.getByTestId('project-owner').innerText()).trim(), owner.username);
    assert.equal((await page.getByTestId('project-count').innerText()).trim(), '2 projects');
    const card = projects.card(csvPortfolio);
    const text = await card.innerText();
    // a self-registered company is on the Free plan: no money figure on the card (issue 37 item 1; e2e/plans.test.ts shows them after an upgrade)
    assert.equal(await card.getByTestId('metric-locked').count(), 2, 'maximum exposure and RCVaR loss locked');
    assert.match(text, /Extreme Heat/);
    assert.match(text, /\b5\b/, 'asset count');
    await screenshot(page, 'portfolio-project-cards');

    await page.getByRole('button', { name: 'Advanced Filter' }).click();
    await page.getByLabel('Name', { exact: true }).fill('harbour');
    assert.equal(await projects.cards().count(), 1, 'the name filter narrows the cards');
    await screenshot(page, 'portfolio-project-filter');
    await page.getByRole('button', { name: 'Reset filters' }).first().click();
    assert.equal(await projects.cards().count(), 2);
    await page.getByRole('button', { name: 'Advanced Filter' }).click();

    await page.getByRole('tab', { name: 'Transition Risk' }).click();
    await page.getByText('No transition projects yet').waitFor();
    await page.getByRole('tab', { name: 'Maps' }).click();
    await page.getByTestId('maps-empty').waitFor();
    await screenshot(page, 'portfolio-maps-tab-empty');
    await page.getByRole('tab', { name: 'Physical Risk' }).click();
  });

  it('renames a project, and shows the server error for a name already taken', async () => {
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.card(csvPortfolio).getByRole('button', { name: 'Edit' }).click();
    const modal = projects.modal('Rename project');
    await modal.waitFor();
    await modal.getByLabel('Project name').fill(mapPortfolio);
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('rename-error').waitFor();
    assert.ok((await page.getByTestId('rename-error').innerText()).trim().length > 0, 'the server text is shown');
    await screenshot(page, 'portfolio-rename-taken');
    await modal.getByLabel('Project name').fill(renamed);
    await modal.getByRole('button', { name: 'Save' }).click();
    await projects.card(renamed).waitFor();
    assert.equal(await projects.card(csvPortfolio).count(), 0);
    await screenshot(page, 'portfolio-renamed');
  });

  it('shares a project with a colleague, who then sees it with write permission', async () => {
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.card(renamed).getByRole('button', { name: 'Share' }).click();
    const modal = projects.modal(/^Share /);
    await modal.waitFor();
    await modal.locator('.ant-select').click();
    await page.keyboard.type(colleague.username);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape').catch(() => undefined);
    await modal.getByRole('radio', { name: /Write/ }).check();
    await screenshot(page, 'portfolio-share-dialog');
    const shared = page.waitForResponse((r) => r.url().endsWith('/api/v2/share_project/'));
    await modal.getByRole('button', { name: 'Share', exact: true }).click();
    assert.equal((await shared).status(), 201);
    await projects.card(renamed).getByText('shared with 1').waitFor();
    await screenshot(page, 'portfolio-shared');

    const seen = await apiGet<{ data: { name: string; permission: string }[] }>(server.baseUrl, `/api/project/${colleagueId}/`, colleagueToken);
    assert.equal(seen.status, 200);
    const mine = seen.body.data.find((p) => p.name === renamed);
    assert.equal(mine?.permission, 'write', 'the colleague sees the shared project with write permission');
  });

  it('shows the colleague the shared card with only the actions a writer may use', async () => {
    const ctx = await browser.newContext({ viewport: VIEWPORT });
    try {
      const p2 = await ctx.newPage();
      const p2problems = watchConsole(p2);
      const login = new LoginPage(p2, server.baseUrl);
      await login.open();
      await login.fill({ username: colleague.username, password: colleague.password, companyCode });
      await login.submit();
      await p2.waitForURL('**/setup');
      const projects = new ProjectPage(p2, server.baseUrl);
      await projects.open();
      const card = projects.card(renamed);
      await card.waitFor();
      assert.match(await card.getByTestId('shared-note').innerText(), new RegExp(`${owner.username} shared with you \\(write\\)`));
      assert.equal(await card.getByRole('button', { name: 'Edit' }).count(), 1, 'a writer may rename');
      assert.equal(await card.getByRole('button', { name: 'Share' }).count(), 0, 'a writer may not re-share');
      assert.equal(await card.getByRole('button', { name: 'Delete' }).count(), 0, 'a writer may not delete');
      await screenshot(p2, 'portfolio-colleague-view');
      assert.deepEqual(
        p2problems.filter((m) => m.startsWith('pageerror')),
        [],
      );
    } finally {
      await ctx.close();
    }
  });

  it('downloads the analysis result from Download XLSX (an .xlsx file) and opens the file', async (t) => {
    if (!(await hasRoute(server.baseUrl, 'POST', '/api/v2/download_csv_report/', ownerToken))) {
      t.skip('the server has no download_csv_report yet');
      return;
    }
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.card(renamed).getByRole('button', { name: 'Download XLSX' }).click();
    const modal = projects.modal(/^Download XLSX/);
    await modal.waitFor();
    await modal.getByTestId('csv-hint').waitFor();
    assert.match(await modal.getByTestId('csv-hint').innerText(), /downloaded as an Excel workbook \(\.xlsx\)/);
    await screenshot(page, 'portfolio-download-csv-modal');
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await modal.getByRole('button', { name: 'Download' }).click();
    const file = join(work, 'result.xlsx');
    const got = await download;
    assert.match(got.suggestedFilename(), /\.xlsx$/, 'the file is what the button says (issue 37 item 7)');
    await got.saveAs(file);
    const wb = XLSX.read(readFileSync(file), { type: 'buffer' });
    const first = wb.Sheets[wb.SheetNames[0]!]!;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(first, { header: 1 });
    const header = (rows[0] ?? []).map(String);
    for (const col of ['Asset', 'Latitude', 'Longitude', 'Hazard', 'Scenario', 'Year', 'Score'])
      assert.ok(header.includes(col), `the export has a ${col} column (got ${header.join(', ')})`);
    assert.ok(rows.length > 1, 'the export has data rows');
    const assets = new Set(rows.slice(1).map((r) => String(r[header.indexOf('Asset')])));
    assert.ok(assets.has('Tsuen Wan logistics hub'), 'the edited asset name is in the export');
    await screenshot(page, 'portfolio-after-download');

    // Download Summary: the portfolio summary workbook.
    const summaryDownload = page.waitForEvent('download', { timeout: 60_000 });
    await projects.card(renamed).getByRole('button', { name: 'Download Summary' }).click();
    const summaryFile = join(work, 'summary.xlsx');
    await (await summaryDownload).saveAs(summaryFile);
    const summary = XLSX.read(readFileSync(summaryFile), { type: 'buffer' });
    assert.ok(summary.SheetNames.length > 0, `the summary opens (sheets: ${summary.SheetNames.join(', ')})`);

    // Download for GIS: the assets as a GeoPackage (an SQLite file with the GeoPackage application id).
    const gisDownload = page.waitForEvent('download', { timeout: 60_000 });
    await projects.card(renamed).getByRole('button', { name: 'Download for GIS' }).click();
    await page.getByRole('menuitem', { name: 'GeoPackage (.gpkg)' }).click();
    const gis = await gisDownload;
    assert.match(gis.suggestedFilename(), /_assets_.*\.gpkg$/);
    const gisFile = join(work, 'assets.gpkg');
    await gis.saveAs(gisFile);
    const gpkg = readFileSync(gisFile);
    assert.equal(gpkg.subarray(0, 15).toString('latin1'), 'SQLite format 3');
    assert.equal(gpkg.readUInt32BE(68), 0x47504b47, 'GeoPackage application id');
  });

  it('makes the slide report from the card: the PDF opens in a new tab after 3 seconds', async () => {
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.card(renamed).getByRole('button', { name: 'Report' }).click();
    const modal = projects.modal(/^Slide report/);
    await modal.waitFor();
    await modal.getByRole('radio', { name: 'Without Content' }).check();
    // the scenario and year are the user's choice, not fixed (issue 37 item 7)
    for (const [testId, label] of [
      ['report-scenario', 'SSP5-8.5'],
      ['report-year', '2030'],
    ] as const) {
      await modal.getByTestId(testId).click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${label}$`) }).click();
      await modal.getByTestId(testId).filter({ hasText: label }).waitFor();
    }
    await screenshot(page, 'portfolio-report-modal');
    const popup = context.waitForEvent('page');
    const asked = page.waitForRequest((r) => r.url().includes('/api/v2/generate_pdf_report/'));
    await modal.getByRole('button', { name: 'Generate' }).click();
    const form = new URLSearchParams((await asked).postData() ?? '');
    assert.deepEqual([form.get('scenario'), form.get('year')], ['85', '2030'], (await asked).postData() ?? '');
    const tab = await popup;
    const ready = modal.getByTestId('report-ready');
    await ready.waitFor({ timeout: 60_000 });
    const readyAt = Date.now();
    assert.match(await ready.innerText(), /Report ready \(\d+ slides\)/);
    await screenshot(page, 'portfolio-report-ready', { settle: false });
    const opened = await tab.waitForRequest((r) => r.url().includes('/api/v2/reports/'), { timeout: 15_000 });
    const waited = Date.now() - readyAt;
    assert.ok(waited >= 2000, `the tab opens the report about 3 s after it is ready (after ${waited} ms)`);
    assert.match(opened.url(), /\.pdf$/);
    const pdf = await page.request.get(opened.url());
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    assert.equal((await pdf.body()).subarray(0, 5).toString(), '%PDF-');
    const pptxHref = await modal.getByRole('link', { name: /Download PowerPoint/ }).getAttribute('href');
    const pptx = await page.request.get(`${server.baseUrl}${pptxHref}`);
    assert.equal(pptx.status(), 200);
    assert.equal((await pptx.body()).subarray(0, 2).toString(), 'PK', 'the .pptx is a zip package');
    await tab.close().catch(() => undefined);
    await modal.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('deletes a project after a Yes/No confirmation', async () => {
    const projects = new ProjectPage(page, server.baseUrl);
    await projects.card(mapPortfolio).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.ant-popconfirm:visible').filter({ hasText: `Delete ${mapPortfolio}?` });
    await confirm.waitFor();
    await screenshot(page, 'portfolio-delete-confirm');
    await confirm.getByRole('button', { name: 'No' }).click();
    await confirm.waitFor({ state: 'hidden' });
    assert.equal(await projects.card(mapPortfolio).count(), 1, 'No keeps the project');
    await projects.card(mapPortfolio).getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await projects.card(mapPortfolio).waitFor({ state: 'detached' });
    await page.getByTestId('project-count').filter({ hasText: '1 project' }).waitFor();
  });

  it('raised no page errors', () => {
    assert.deepEqual(
      problems.filter((m) => m.startsWith('pageerror')),
      [],
    );
  });
});
