/**
 * Street-level maps (issue 37 item 4): the offline basemap's full-resolution coastline (GSHHG) shows Victoria Harbour
 * at zoom 14 with a plain note above the offline detail; address search says what it cannot find; an operator sets a
 * street basemap (an OpenStreetMap PMTiles archive with street names) on the setup page and the maps draw it at
 * zoom 16. The operator is made with the admin command, as in plans.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Feature } from 'geojson';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { serverEntryArgs } from '../apps/server/test/support/entries';
import { registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole, watchCsp } from './support/browser';
import { pmtilesArchive, streetGrid, vectorTiles } from './support/pmtiles';
import { repoRoot, startServer, type RunningServer } from './support/server';
import { LoginPage } from './pages/LoginPage';
import { RealEstatePage } from './pages/RealEstatePage';

/** Colours of the offline street style (OFFLINE_COLOURS in apps/web/src/lib/basemapStyle.ts). */
const LAND_RGB = [0xf3, 0xf1, 0xea];
const WATER_RGB = [0xa9, 0xcf, 0xe0];
/** OSM_COLOURS.building and LABEL_COLOURS.text of the same file. */
const BUILDING_RGB = [0xd7, 0xc6, 0xb4];
const LABEL_RGB = [0x3d, 0x3d, 0x3d];
const CENTER: [number, number] = [114.18, 22.28];

/** Share of the pixels of a PNG within `tolerance` of a colour, counted in the page. */
async function colourShare(page: Page, png: Buffer, rgb: number[], tolerance = 6): Promise<number> {
  return page.evaluate(
    async ({ b64, rgb, tolerance }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = new OffscreenCanvas(img.width, img.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, img.height).data;
      let hit = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i]! - rgb[0]!) <= tolerance && Math.abs(d[i + 1]! - rgb[1]!) <= tolerance && Math.abs(d[i + 2]! - rgb[2]!) <= tolerance) hit++;
      }
      return hit / (d.length / 4);
    },
    { b64: png.toString('base64'), rgb, tolerance },
  );
}

describe('street-level maps: harbour coastline offline, address search, a street basemap set by an operator', { timeout: 900_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let csp: string[];
  let work = '';
  let archive = '';
  const suffix = Date.now().toString(36);
  const op = { username: `streetop_${suffix}`, password: 'harbour lights at night', firstName: 'Olga', lastName: 'Op', companyName: `Harbour ${suffix}` };
  let opCode = '';

  const atWidths = async (name: string, target?: Locator) => {
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(800);
      if (target) await target.scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForTimeout(500);
  };

  before(async () => {
    // A street archive around the harbour: the street grid of support/pmtiles.ts with street names, and a place name.
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-street-'));
    const layers = streetGrid(CENTER, 0.03);
    layers.roads!.features.forEach((f: Feature, i) => (f.properties = { ...f.properties, name: `Harbour Road ${i + 1}` }));
    layers.places = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'Test Harbour Town', kind: 'locality' }, geometry: { type: 'Point', coordinates: CENTER } }],
    };
    const bbox: [number, number, number, number] = [CENTER[0] - 0.03, CENTER[1] - 0.03, CENTER[0] + 0.03, CENTER[1] + 0.03];
    archive = join(work, 'harbour.pmtiles');
    writeFileSync(archive, pmtilesArchive(vectorTiles(layers, bbox, 12, 14), bbox, { name: 'test harbour streets' }));

    const dataDir = join(work, 'data');
    server = await startServer({ dataDir });
    opCode = (await registerUser(server.baseUrl, op)).companyCode;
    await server.stop();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const admin = spawnSync(process.execPath, [...serverEntryArgs('admin'), 'set-operator', '--company', opCode, '--username', op.username], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    assert.equal(admin.status, 0, admin.stderr);
    server = await startServer({ dataDir });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    csp = await watchCsp(context);
    page = await context.newPage();
    problems = watchConsole(page);
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: op.username, password: op.password, companyCode: opCode });
    await login.submit();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const map = () => page.getByTestId('create-map-map');
  const zoomTo = async (target: number) => {
    await map().locator('canvas').focus();
    for (let i = 0; i < 8; i++) {
      const z = Number((await map().getAttribute('data-zoom')) ?? '0');
      if (z >= target - 0.01) return z;
      await page.keyboard.press('Equal'); // MapLibre's keyboard zoom-in (+1)
      await page.waitForFunction(
        ([el, before]) => Number((el as HTMLElement).dataset.zoom ?? '0') > (before as number) + 0.5,
        [await map().elementHandle(), z] as const,
        { timeout: 10_000 },
      );
    }
    return Number(await map().getAttribute('data-zoom'));
  };
  const search = async (text: string) => {
    const box = page.getByRole('combobox', { name: 'Search address' });
    await box.fill('');
    await box.fill(text);
  };

  it('offline: Victoria Harbour at zoom 14 shows land and water from the full-resolution coastline', async () => {
    await page.goto(`${server.baseUrl}/create-map`);
    await page.locator('[data-testid="create-map-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    const coastRanges: Response[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/basemap/coast.pmtiles')) coastRanges.push(r);
    });
    await search('Tsim Sha Tsui');
    await page.getByTestId('address-option').first().click();
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('[data-testid="create-map-map"]')?.dataset.zoom ?? '0') >= 11.9, undefined, {
      timeout: 15_000,
    });
    const z = await zoomTo(14);
    assert.ok(z >= 13.99 && z < 15, `zoom ${z}`);
    await page.waitForTimeout(2500);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const shot = await map().screenshot();
    const land = await colourShare(page, shot, LAND_RGB);
    const water = await colourShare(page, shot, WATER_RGB);
    assert.ok(land > 0.1 && water > 0.1, `both land (${(land * 100).toFixed(1)} %) and water (${(water * 100).toFixed(1)} %) in view at the harbour`);
    assert.ok(coastRanges.length > 0 && coastRanges.every((r) => r.status() === 206 || r.status() === 200), 'the coastline archive was read by range');
    assert.equal(await page.getByTestId('street-detail-note').isVisible(), false, 'no note at zoom 14: the offline detail reaches it');
    await atWidths('street-harbour-zoom14', map());
    // Above the offline detail (zoom 16) a plain note says street detail needs a street basemap.
    await zoomTo(16);
    await page.getByTestId('street-detail-note').waitFor();
    assert.match(await page.getByTestId('street-detail-note').innerText(), /Street detail needs a street basemap/);
    await atWidths('street-offline-note-zoom16', map());
  });

  it('address search: a street address shows the place it names and says streets are not known; an unknown one says why', async () => {
    await page.goto(`${server.baseUrl}/create-map`);
    await page.locator('[data-testid="create-map-map"][data-loaded="true"]').waitFor({ timeout: 30_000 });
    await search('88 Queensway, Admiralty, Hong Kong');
    const note = page.getByTestId('address-search-note');
    await note.waitFor();
    assert.match(await note.innerText(), /Street addresses are not in the offline gazetteer/);
    assert.ok((await page.getByTestId('address-option').count()) > 0, 'the place of the address is offered');
    assert.match(await page.getByTestId('address-option').first().innerText(), /Admiralty/);
    await atWidths('street-address-search-place', page.locator('.crp-maps-toolbar'));
    await search('17 Zzyzxq Road');
    await page.getByText('Street addresses need a street-level geocoder').waitFor();
    assert.equal(await page.locator('[data-testid="address-option"]:visible').count(), 0, 'no place offered');
    await atWidths('street-address-search-none', page.locator('.crp-maps-toolbar'));
    await search('Kwun Tong');
    await page.getByTestId('address-option').first().waitFor();
    await note.waitFor({ state: 'detached' });
  });

  it('an operator sets a street basemap on the setup page; the maps draw its streets, buildings and names at zoom 16', async () => {
    await page.goto(`${server.baseUrl}/setup`);
    const card = page.getByTestId('street-basemap-card');
    await card.waitFor();
    assert.match(await card.getByTestId('basemap-source').innerText(), /offline basemap only/);
    await card.getByLabel('PMTiles archive').fill(join(work, 'missing.pmtiles'));
    await card.getByTestId('basemap-save').click();
    await page
      .getByTestId('basemap-refusal')
      .getByText(/no file at/)
      .waitFor();
    await card.getByLabel('PMTiles archive').fill(archive);
    await card.getByTestId('basemap-save').click();
    await card.getByTestId('basemap-source').filter({ hasText: 'set here' }).waitFor();
    await atWidths('street-basemap-setup-card', card);

    const re = new RealEstatePage(page, server.baseUrl);
    const font = page.waitForResponse((r) => r.url().endsWith('/basemap/fonts/LiberationSans-Regular.ttf') && r.status() === 200, { timeout: 60_000 });
    await re.open();
    await re.waitForMap();
    const el = page.getByTestId('realestate-map');
    const box = await el.boundingBox();
    assert.ok(box);
    const ranges = page.waitForResponse((r) => r.url().endsWith('/api/basemap/tiles.pmtiles') && r.status() === 206);
    await re.clickMap(box.width / 2, box.height / 2); // flies to zoom 16
    await ranges;
    await font;
    await page.waitForTimeout(4000);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const shot = await el.screenshot();
    const buildings = await colourShare(page, shot, BUILDING_RGB);
    assert.ok(buildings > 0.1, `buildings drawn at zoom 16 (${(buildings * 100).toFixed(1)} %)`);
    const labels = await colourShare(page, shot, LABEL_RGB, 30);
    assert.ok(labels > 0.0005, `street names drawn (${(labels * 100).toFixed(3)} % label-coloured pixels)`);
    assert.equal(await page.getByTestId('street-detail-note').first().isVisible(), false, 'no note: a street basemap is configured');
    await atWidths('street-basemap-realestate-zoom16', el);
    assert.deepEqual(csp, [], 'no Content-Security-Policy violation');
    assert.deepEqual(
      problems.filter((p) => !/Failed to load resource|geolocation/i.test(p)),
      [],
    );
  });
});
