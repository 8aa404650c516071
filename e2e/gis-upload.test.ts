import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { screenshot } from './support/browser';
import { startDemoSession } from './support/demo';
import type { RunningServer } from './support/server';
import { LocationPage } from './pages/LocationPage';

/**
 * Issue 38 item 3 in the browser: the portfolio wizard takes a GeoJSON of points (the server reads it for the preview,
 * then the file is sent as it is), and a file with polygons is refused naming them.
 */
const SITES = [
  { name: 'Kowloon Depot', lng: 114.1722, lat: 22.3193, valuation: 12_500_000, floors: 8 },
  { name: 'Central Office', lng: 114.1588, lat: 22.2819, valuation: 48_000_000, floors: 30 },
  { name: 'Tsuen Wan Store', lng: 114.1133, lat: 22.3707, valuation: 3_200_000, floors: 2 },
];

describe('GIS portfolio upload in the wizard', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let work: string;
  let location: LocationPage;

  before(async () => {
    ({ server, browser, page } = await startDemoSession());
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-gis-'));
    location = new LocationPage(page, server.baseUrl);
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('previews the points of a GeoJSON, creates the portfolio from the file, and refuses polygons by name', async () => {
    const file = join(work, 'hk_sites.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: SITES.map((s) => ({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [s.lng, s.lat] },
          properties: { name: s.name, valuation: s.valuation, floors: s.floors },
        })),
      }),
    );
    await location.open();
    await location.openCsvTab();
    await location.upload(file);
    await location.waitForLargeRows(3);
    assert.match(await page.getByTestId('large-upload-note').innerText(), /GIS file: 3 points are shown, latitude and longitude from their geometry/);
    const table = await location.largeUpload().innerText();
    for (const s of SITES) assert.ok(table.includes(s.name) && table.includes(String(s.lat)), `${s.name} in the preview`);
    await screenshot(page, 'gis-upload-preview');

    await location.next();
    await location.fillDetails('GIS sites', []);
    await location.next();
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST', { timeout: 120_000 });
    await location.createButton().click();
    const res = await created;
    assert.equal(res.status(), 201, await res.text());
    assert.match((await res.request().headerValue('content-type')) ?? '', /^multipart\/form-data/, 'the GeoJSON itself is sent');
    assert.equal(((await res.json()) as { project: { assets: number } }).project.assets, 3);

    await location.open();
    await location.openCsvTab();
    const polygons = join(work, 'estates.geojson');
    writeFileSync(
      polygons,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { name: 'Estate A' },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [114, 22.3],
                  [114.1, 22.3],
                  [114.1, 22.4],
                  [114, 22.3],
                ],
              ],
            },
          },
        ],
      }),
    );
    await location.upload(polygons);
    await page.getByTestId('upload-refused').waitFor();
    assert.match(await page.getByTestId('upload-refused').innerText(), /must hold points only .*feature 1 \('Estate A'\) is a Polygon/);
  });
});
