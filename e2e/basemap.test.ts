import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginUser, registerUser } from './support/api';
import { launchBrowser, screenshot, watchConsole, watchCsp } from './support/browser';
import { pmtilesArchive, streetGrid, vectorTiles } from './support/pmtiles';
import { repoRoot, startServer, type RunningServer } from './support/server';
import { LocationPage } from './pages/LocationPage';
import { LoginPage } from './pages/LoginPage';
import { RealEstatePage } from './pages/RealEstatePage';

const VIEWPORT = { width: 1440, height: 900 };
/** Where the maps open (DEFAULT_CENTER of the web app): Hong Kong harbour. */
const CENTER: [number, number] = [114.18, 22.28];
/** The building colour of the street style (OSM_COLOURS.building in apps/web/src/lib/basemapStyle.ts). */
const BUILDING_RGB = [0xd7, 0xc6, 0xb4];

/** Share of the pixels of a PNG within `tolerance` of a colour, counted in the page (no image library needed). */
async function colourShare(page: Page, png: Buffer, rgb: number[], tolerance = 6): Promise<number> {
  return page.evaluate(
    async ({ b64, rgb, tolerance }) => {
      // An <img> (img-src allows data:; fetch of a data: URL is connect-src, which the CSP keeps to 'self').
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

test('the built web app ships no source maps', () => {
  const dist = join(repoRoot, 'apps/web/dist');
  assert.ok(existsSync(join(dist, 'index.html')), 'build the web app first (npm run build -w @crp/web)');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dist);
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
    'no .map files',
  );
  const withComment = files.filter((f) => /\.(m?js|css)$/.test(f) && /[#@] sourceMappingURL=/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(withComment, [], 'no sourceMappingURL comment');
});

describe('maps in the browser: a configured OpenStreetMap basemap at street zoom, distinct names for map clicks', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let csp: string[];
  let work: string;
  const suffix = Date.now().toString(36);
  const user = { username: `mapper_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Mae', lastName: 'Mapper', companyName: `Street Level ${suffix}` };

  before(async () => {
    // A small OpenStreetMap-like archive made here: a street grid of buildings and roads, zoom 12-14, around the point
    // the maps open on (the map overzooms zoom 14 tiles to 16).
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-basemap-'));
    const bbox: [number, number, number, number] = [CENTER[0] - 0.05, CENTER[1] - 0.05, CENTER[0] + 0.05, CENTER[1] + 0.05];
    const file = join(work, 'hong-kong.pmtiles');
    writeFileSync(file, pmtilesArchive(vectorTiles(streetGrid(CENTER, 0.05), bbox, 12, 14), bbox, { name: 'test street grid' }));
    server = await startServer({ env: { BASEMAP_PMTILES: file } });
    const reg = await registerUser(server.baseUrl, user);
    await loginUser(server.baseUrl, user.username, user.password, reg.companyCode);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORT });
    csp = await watchCsp(context);
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

  it("the real-estate map at street zoom draws the configured archive's buildings and roads", async () => {
    const re = new RealEstatePage(page, server.baseUrl);
    await re.open();
    await re.waitForMap();
    const map = page.getByTestId('realestate-map');
    const box = await map.boundingBox();
    assert.ok(box);
    // Zoom 5.5: no street layer yet (the archive starts at zoom 12).
    assert.ok((await colourShare(page, await map.screenshot(), BUILDING_RGB)) < 0.001, 'no buildings at country zoom');
    // A click flies to zoom 16 there (REAL_ESTATE_ZOOM).
    const ranges = page.waitForResponse((r) => r.url().endsWith('/api/basemap/tiles.pmtiles') && r.status() === 206);
    await re.clickMap(box.width / 2, box.height / 2);
    await ranges;
    await page.waitForTimeout(4000); // the flight (speed 1.6) and the tiles
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const shot = await map.screenshot();
    await screenshot(page, 'basemap-street-zoom-pmtiles');
    const share = await colourShare(page, shot, BUILDING_RGB);
    assert.ok(share > 0.15, `buildings cover part of the map at street zoom (${(share * 100).toFixed(1)} % of its pixels)`);
    const roads = await colourShare(page, shot, [0xff, 0xff, 0xff], 2);
    assert.ok(roads > 0.02, `roads are drawn (${(roads * 100).toFixed(1)} % white pixels)`);
    assert.deepEqual(csp, [], 'no Content-Security-Policy violation');
  });

  it("map clicks in one district get distinct names, and the wizard's project with them is created", async () => {
    const location = new LocationPage(page, server.baseUrl);
    await location.open();
    await location.waitForMap();
    // Three sites a few metres apart in Central (the keyboard form adds a marker as a map click does) and one click.
    for (const [lat, lng] of [
      ['22.2820', '114.1580'],
      ['22.2822', '114.1583'],
      ['22.2818', '114.1577'],
    ]) {
      await page.getByRole('spinbutton', { name: 'Latitude' }).fill(lat!);
      await page.getByRole('spinbutton', { name: 'Longitude' }).fill(lng!);
      await page.getByRole('form', { name: 'Add a location by coordinates' }).getByRole('button', { name: /Add$/ }).click();
    }
    const box = await location.map().boundingBox();
    assert.ok(box);
    await location.clickMap(box.width / 2, box.height / 2);
    assert.equal(await location.markerItems().count(), 4);
    const { names: shown, typed } = await location.waitForNames((i) => `Typed ${i + 1}`);
    assert.equal(typed, 0, 'the geocoder named every marker');
    assert.match(shown[1]!, /\.\.\. 2$/, `the list keeps the number of a shortened name in view: '${shown[1]}'`);
    assert.match(shown[2]!, /\.\.\. 3$/);
    await screenshot(page, 'wizard-distinct-names');

    // The full names (the list truncates them) are in the review table.
    await location.next();
    await location.fillDetails(`Central sites ${suffix}`, []);
    await location.next();
    const rows = page.getByTestId('review-table').locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    const names = await rows.locator('td:nth-child(2)').allInnerTexts();
    assert.equal(names.length, 4);
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, 4, `four different names: ${names.join(' | ')}`);
    const base = names[0]!;
    assert.match(base, /Hong Kong$/, 'a place name');
    assert.deepEqual(names.slice(1, 3), [`${base} 2`, `${base} 3`], 'the same place numbered');

    const created = page.waitForResponse((r) => r.url().endsWith('/api/v2/create_project/') && r.request().method() === 'POST');
    await location.createButton().click();
    const res = await created;
    assert.equal(res.status(), 201, `the project is accepted: ${await res.text()}`);
    await location.progress().waitFor();
    assert.deepEqual(
      problems.filter((p) => !/Reverse geocoding failed/.test(p)),
      [],
    );
  });
});

describe('maps in the browser: a configured MapLibre style URL on another origin', { timeout: 600_000 }, () => {
  let server: RunningServer;
  let styleHost: Server;
  let browser: Browser;
  let page: Page;
  let csp: string[];
  let work: string;
  const suffix = Date.now().toString(36);
  const user = { username: `styler_${suffix}`, password: 'Str0ng-Passw0rd!', firstName: 'Sty', lastName: 'Ler', companyName: `Styled ${suffix}` };
  /** Colours no offline layer uses, so their pixels can only come from the configured style. */
  const BACKGROUND = [0x3b, 0x6e, 0x4f];
  const BUILDINGS = [0x7a, 0x3e, 0xb1];

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'crp-e2e-style-'));
    const bbox: [number, number, number, number] = [CENTER[0] - 0.05, CENTER[1] - 0.05, CENTER[0] + 0.05, CENTER[1] + 0.05];
    const archive = pmtilesArchive(vectorTiles(streetGrid(CENTER, 0.05), bbox, 12, 14), bbox);
    // A tile host of our own on another origin: the style and the archive it names (pmtiles://, Range requests).
    styleHost = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(styleHost.address() as { port: number }).port}`;
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'range, if-match');
      res.setHeader('access-control-expose-headers', 'content-range, content-length, etag');
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      if (req.url === '/style.json') {
        res.setHeader('content-type', 'application/json');
        return res.end(
          JSON.stringify({
            version: 8,
            sources: { streets: { type: 'vector', url: `pmtiles://${origin}/streets.pmtiles`, attribution: 'Test tiles' } },
            layers: [
              { id: 'bg', type: 'background', paint: { 'background-color': '#3b6e4f' } },
              { id: 'blocks', type: 'fill', source: 'streets', 'source-layer': 'buildings', paint: { 'fill-color': '#7a3eb1' } },
            ],
          }),
        );
      }
      if (req.url === '/streets.pmtiles') {
        const m = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
        const start = m ? Number(m[1]) : 0;
        const end = m && m[2] ? Math.min(Number(m[2]), archive.length - 1) : archive.length - 1;
        res.writeHead(m ? 206 : 200, {
          'content-type': 'application/octet-stream',
          'content-range': `bytes ${start}-${end}/${archive.length}`,
          'accept-ranges': 'bytes',
        });
        return res.end(archive.subarray(start, end + 1));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => styleHost.listen(0, '127.0.0.1', resolve));
    const styleUrl = `http://127.0.0.1:${(styleHost.address() as { port: number }).port}/style.json`;
    server = await startServer({ env: { BASEMAP_STYLE_URL: styleUrl } });
    const reg = await registerUser(server.baseUrl, user);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: VIEWPORT });
    csp = await watchCsp(context);
    page = await context.newPage();
    const login = new LoginPage(page, server.baseUrl);
    await login.open();
    await login.fill({ username: user.username, password: user.password, companyCode: reg.companyCode });
    await login.submit();
    await page.waitForURL('**/setup');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await new Promise((resolve) => styleHost?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the real-estate map draws the configured style, its PMTiles source included, allowed by the CSP', async () => {
    const re = new RealEstatePage(page, server.baseUrl);
    await re.open();
    await re.waitForMap();
    const map = page.getByTestId('realestate-map');
    assert.ok((await colourShare(page, await map.screenshot(), BACKGROUND)) > 0.5, "the style's background instead of the offline land and sea");
    const box = await map.boundingBox();
    assert.ok(box);
    await re.clickMap(box.width / 2, box.height / 2);
    await page.waitForTimeout(4000);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    const shot = await map.screenshot();
    await screenshot(page, 'basemap-style-url');
    const share = await colourShare(page, shot, BUILDINGS);
    assert.ok(share > 0.15, `the style's buildings at street zoom (${(share * 100).toFixed(1)} %)`);
    assert.deepEqual(csp, [], 'the style host is allowed by the CSP, nothing else was needed');
  });
});
