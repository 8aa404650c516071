import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { MAP_LEGENDS } from '@crp/contracts';
import { screenshot, screenshotDir } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo';
import { ProjectPage } from './pages/ProjectPage';

const MAP_NAME = 'Kowloon rainfall map';

describe('map module in the browser: create a map, see tiles and legend, export the image', { timeout: 900_000 }, () => {
  let s: DemoSession;
  let work = '';
  const tiles: { status: number; type: string | null; url: string }[] = [];
  before(async () => {
    s = await startDemoSession({ acceptDownloads: true });
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-maps-'));
    s.page.on('response', (r) => {
      if (r.url().includes('/api/v2/map_tiles/')) tiles.push({ status: r.status(), type: r.headers()['content-type'] ?? null, url: r.url() });
    });
  });
  after(async () => {
    await s?.browser.close().catch(() => undefined);
    await s?.server.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('/create-map: address search marks the location, PROCEED opens the dialog, Submit generates the map', async () => {
    const { page } = s;
    await page.goto(`${s.server.baseUrl}/create-map`);
    await page.locator('[data-testid="create-map-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('proceed').isDisabled(), true, 'PROCEED waits for a location');
    const search = page.getByPlaceholder('Search address, city, or place');
    await search.fill('K');
    await page.waitForTimeout(600);
    assert.equal(await page.getByTestId('address-option').count(), 0, 'one character does not search');
    await search.fill('Kowloon');
    await page.getByTestId('address-option').first().waitFor();
    assert.ok((await page.getByTestId('address-option').count()) <= 5);
    await page.getByTestId('address-option').first().click();
    const table = page.getByTestId('create-map-table');
    await table.waitFor();
    const cells = await table.locator('tbody tr.ant-table-row td').allInnerTexts();
    assert.match(cells[0]!, /Kowloon/);
    assert.match(cells[1]!, /^22\.\d{5}$/, 'latitude with 5 decimals');
    assert.match(cells[2]!, /^114\.\d{5}$/, 'longitude with 5 decimals');
    await page.waitForTimeout(1200); // fly to zoom 12
    await screenshot(page, 'maps-create-location');

    await page.getByTestId('proceed').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Create Map' });
    await dialog.waitFor();
    await dialog.getByTestId('map-variable').filter({ hasText: 'Rainfall Flood' }).waitFor();
    const submit = dialog.getByTestId('create-map-submit');
    await dialog.getByLabel('Portfolio Name').fill('ab ');
    assert.equal(await submit.isDisabled(), true, 'a name of fewer than 3 characters cannot be submitted');
    await dialog.getByLabel('Portfolio Name').fill(MAP_NAME);
    assert.equal(await submit.isDisabled(), true, 'no dataset chosen yet');
    await dialog.getByTestId('map-datasets').click();
    await page.locator('.ant-select-item-option', { hasText: '100-year return period' }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'maps-create-dialog');
    assert.equal(await submit.isDisabled(), false);
    await submit.click();
    // The map's id is in its address (issue 37 item 4).
    await page.waitForURL(/\/map\/\d+$/, { timeout: 30_000 });
  });

  it('/map: tiles load from our server with the token, legend bottom right, results table, popup with HAND', async () => {
    const { page } = s;
    await page.locator('[data-testid="results-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('hazard-title').filter({ hasText: 'Rainfall Flood · 100-year return period' }).waitFor();
    await page.getByTestId('tiles-loading').waitFor({ state: 'detached', timeout: 15_000 });
    assert.ok(tiles.length > 0, 'raster tiles were requested');
    assert.ok(
      tiles.every((t) => t.status === 200 && t.type === 'image/png'),
      JSON.stringify(tiles.slice(0, 3)),
    );
    assert.ok(tiles.every((t) => t.url.includes('return_period=100yr') && t.url.includes('country_code=HK')));
    const legend = page.getByTestId('map-legend');
    assert.match(await legend.innerText(), /Flood in meters/);
    assert.equal(await legend.locator('.crp-maps-legend-row').count(), MAP_LEGENDS.rainfall_flood.classes.length);
    const box = (await legend.boundingBox())!,
      mapBox = (await page.getByTestId('results-map').boundingBox())!;
    assert.ok(box.x + box.width > mapBox.x + mapBox.width - 40 && box.y + box.height > mapBox.y + mapBox.height - 60, 'legend at the bottom right');
    assert.equal(Math.round(mapBox.height), 800);
    assert.match(await page.getByTestId('map-resolution').innerText(), /Resolution: 0\.1° grid/);
    const row = await page.getByTestId('map-results-table').locator('tbody tr.ant-table-row td').allInnerTexts();
    assert.equal(row[0], 'HK');
    assert.match(row[1]!, /^\d+\.\d{2}$/);
    assert.equal(row[2], '100-year return period');
    for (const v of row.slice(3)) assert.match(v, /^\d+\.\d{2}$/);
    await page.waitForTimeout(500);
    await screenshot(page, 'maps-results-satellite');
    // zoomed out, the 0.1° cells of the layer show over the coast (a look at the georeferencing)
    for (let i = 0; i < 6; i++) {
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.waitForTimeout(350);
    }
    await page.getByTestId('tiles-loading').waitFor({ state: 'detached', timeout: 15_000 });
    await page.waitForTimeout(800);
    await screenshot(page, 'maps-results-zoomed-out');
    for (let i = 0; i < 6; i++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForTimeout(300);
    }

    // a click shows the point values; the info button explains HAND
    await page.getByTestId('results-map').click({ position: { x: mapBox.width / 2 + 60, y: mapBox.height / 2 + 40 } });
    const popup = page.getByTestId('map-popup');
    await popup.waitFor();
    assert.match(await popup.innerText(), /HAND[\s\S]*Elevation[\s\S]*Number of days[\s\S]*Slope/);
    await popup.getByRole('button', { name: 'What is HAND?' }).click();
    await popup.getByTestId('hand-info').filter({ hasText: 'height above nearest drainage' }).waitFor();
    await screenshot(page, 'maps-results-popup');
    await page.keyboard.press('Escape');
    await page
      .locator('.maplibregl-popup-close-button')
      .click()
      .catch(() => undefined);

    // street view (dark) offers 3D
    assert.equal(await page.getByTestId('toggle-3d').count(), 0, '3D only in the street style');
    await page.getByText('Street View', { exact: true }).click();
    await page.getByTestId('toggle-3d').getByText('3D').click();
    await page.locator('[data-testid="results-map"][data-3d="true"]').waitFor();
    await page.waitForTimeout(1500);
    await screenshot(page, 'maps-results-street-3d');
    await page.getByTestId('toggle-3d').getByText('2D').click();
    await page.getByText('Satellite View', { exact: true }).click();
    await page.getByTestId('toggle-table').click();
    await page.getByTestId('map-results-table').waitFor({ state: 'detached' });
    await page.getByTestId('toggle-table').click();
    await page.getByTestId('map-results-table').waitFor();
  });

  it('Export Image saves a 1850 x 1850 PNG named from the address and time; Download gives the Excel file', async () => {
    const { page } = s;
    const dl = page.waitForEvent('download', { timeout: 40_000 });
    await page.getByTestId('export-image').click();
    const d = await dl;
    assert.match(d.suggestedFilename(), /^Kowloon.*_\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.png$/);
    const file = join(work, 'export.png');
    await d.saveAs(file);
    const png = readFileSync(file);
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.equal(png.readUInt32BE(16), 1850);
    assert.equal(png.readUInt32BE(20), 1850);
    mkdirSync(screenshotDir, { recursive: true });
    copyFileSync(file, join(screenshotDir, 'maps-exported-image.png'));
    assert.equal(Math.round((await page.getByTestId('results-map').boundingBox())!.height), 800, 'the layout is restored');

    const x = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('download-map').click();
    const xd = await x;
    const xf = join(work, 'map.xlsx');
    await xd.saveAs(xf);
    const wb = XLSX.read(readFileSync(xf));
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets['Map results']!);
    assert.deepEqual(
      rows.map((r) => [r.Scenario, r.Year]),
      [
        ['Baseline', 2020],
        ['SSP 8.5', 2050],
      ],
    );
  });

  it('the Maps tab of /project lists the map; Analyse opens /map', async () => {
    const { page } = s;
    const projects = new ProjectPage(page, s.server.baseUrl);
    await projects.open();
    await page.getByRole('tab', { name: 'Maps' }).click();
    const card = page.getByTestId('map-project-card').filter({ hasText: MAP_NAME });
    await card.waitFor();
    assert.match(await card.innerText(), /1 km x 1 km[\s\S]*Rainfall Flood/);
    await screenshot(page, 'maps-project-tab');
    await card.getByText('Analyse').click();
    await page.waitForURL(/\/map\/\d+$/);
    await page.getByTestId('hazard-title').waitFor();
    // A reload keeps the open map (its id is in the URL), and ?map=<id> opens it too.
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.reload();
    await page.getByTestId('hazard-title').filter({ hasText: 'Rainfall Flood' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.crp-page-title').first().innerText(), MAP_NAME);
    await page.goto(`${s.server.baseUrl}/map?map=${id}`);
    await page.getByTestId('hazard-title').waitFor({ timeout: 30_000 });
    await page.goto(`${s.server.baseUrl}/map/999999`);
    await page.getByText('There is no map 999999 among the maps you can open').waitFor();
    await page.goto(`${s.server.baseUrl}/map/${id}`);
    await page.getByTestId('hazard-title').waitFor({ timeout: 30_000 });
    assert.deepEqual(
      s.problems.filter((p) => !/Failed to load resource|geolocation/i.test(p)),
      [],
    );
  });

  it('logged no Content-Security-Policy violation on /create-map and /map (MapLibre worker, tiles, image export)', () => {
    assert.deepEqual(s.csp, []);
  });
});
