import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import JSZip from 'jszip';
import { formatMillions, METHODOLOGY_VERSION, PERILS_NOT_MODELLED, PERILS_NOT_MODELLED_SHARE } from '@crp/contracts';
import { newUser, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const pngDir = join(repoRoot, 'test-output', 'reports', process.env.TEST_DB ?? 'pglite');
const HAZARDS = ['River Flood', 'Typhoon', 'Storm Surge', 'Extreme Heat', 'Wildfire', 'Drought'];

/** The text of a PDF, page by page (poppler's pdftotext; npm test installs poppler-utils). */
function pdfPages(file: string): string[] {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .split('\f')
    .filter((p) => p.trim() !== '');
}

const norm = (s: string) => s.replace(/\s+/g, ' ');
const SECTIONS = ['asset_level_risk_map', 'climate_variable_intensity', 'climate_heatmap', 'portfolio_losses', 'rcp_year_loss_bars', 'asset_table'];

describe('slide report: PDF and PPTX made by a job, with the dashboard figures', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId = 0;
  let work = '';
  const setTier = (all: boolean) =>
    s.db
      .updateTable('companies')
      .set({
        tier: all ? 'enterprise' : 'free',
        tier_permissions: JSON.stringify(Object.fromEntries(SECTIONS.map((k) => [k, all || k === 'climate_heatmap']))),
      })
      .execute();
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await registerAndLogin(s.api);
    work = mkdtempSync(join(tmpdir(), 'crp-report-'));
    await setTier(true);
    const data = [
      { name: 'Kwai Chung terminal', latitude: 22.35, longitude: 114.125, property_type: 'Industrial', valuation: 8e7, revenue: 2.5e7 },
      { name: 'Central office', latitude: 22.282, longitude: 114.158, property_type: 'Commercial', valuation: 1.2e8, revenue: 9e6 },
      { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
      { name: 'Shanghai plant', latitude: 31.23, longitude: 121.47, property_type: 'Industrial', valuation: 6e7, revenue: 4e7 },
    ];
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Report me', data, portfolio_variables: HAZARDS } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(async () => {
    await s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('generate_pdf_report answers links to a landscape PDF and a PPTX with every slide and the dashboard figures', async () => {
    const res = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'ssp' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'done');
    assert.equal(res.body.variant, 'With Content');
    assert.match(res.body.url, /^\/api\/v2\/reports\/[A-Za-z0-9_-]{20,}\/Report_me_climate_risk_report\.pdf$/);
    const dash = await s.api.post('/api/v2/dashboard/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'ssp' } });
    assert.equal(dash.status, 200);
    const d = dash.body;

    // The PDF: no token header needed (the link is the secret); landscape 16:9 pages.
    const pdfRes = await fetch(s.url + res.body.url);
    assert.equal(pdfRes.status, 200);
    assert.equal(pdfRes.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await pdfRes.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const pdfFile = join(work, 'report.pdf');
    writeFileSync(pdfFile, pdf);
    const info = execFileSync('pdfinfo', [pdfFile], { encoding: 'utf8' });
    assert.match(info, /Page size:\s+959\.\d+ x 540 pts/);
    const pages = pdfPages(pdfFile);
    assert.equal(pages.length, res.body.slides);
    assert.equal(
      pages.length,
      7 + HAZARDS.length + 3,
      'title, overview, score, KPIs, 20-year expected loss, heat map, top assets, one per hazard, adaptation, perils not modelled, methodology',
    );
    const all = norm(pages.join('\n'));
    for (const title of [
      'PHYSICAL CLIMATE RISK REPORT',
      'Portfolio overview',
      'Climate score',
      'Key figures',
      '20-year expected loss vs residual',
      'Perils not modelled',
      'Hazard heat map',
      'Top assets at risk',
      'Adaptation recommendations',
      'Methodology and data sources',
      ...HAZARDS,
    ]) {
      assert.ok(all.includes(title), `the PDF has '${title}'`);
    }
    // Key figures as the dashboard computes them, with the scenario, year and methodology version.
    const card = d.climate_risk_card_data;
    assert.ok(
      norm(pages[3]!).includes(formatMillions(card.climate_value_at_risk)),
      `20-year expected loss ${formatMillions(card.climate_value_at_risk)} on the key-figures page`,
    );
    assert.ok(norm(pages[3]!).includes(formatMillions(card.residual_climate_value_at_risk)));
    assert.ok(norm(pages[3]!).includes(formatMillions(card.total_asset_value)));
    assert.ok(norm(pages[2]!).includes(`${d.overall.overall_risk.toFixed(1)} / 100`), 'the climate score, out of 100');
    assert.ok(!norm(pages[2]!).includes(`${d.overall.overall_risk.toFixed(1)} %`), 'never as a percentage');
    assert.ok(all.includes(`${d.filters.scenario_label}, ${d.filters.year}`), 'scenario and year');
    assert.ok(all.includes(`methodology ${METHODOLOGY_VERSION}`));
    assert.ok(all.includes('ETOPO5'), 'data sources are listed');
    // Issue 35 item 5: the 20-year sum of expected losses is never called CVaR (a tail measure to a finance reader).
    assert.match(norm(pages[3]!), /20-year expected loss/);
    assert.doesNotMatch(all, /CVaR|value at risk/i, 'no "CVaR" anywhere in the report');
    // Issue 35 item 4: the perils not modelled, with the published share of losses they carry and its sources.
    const perils = norm(pages.find((p) => p.includes('Perils not modelled') && p.includes('Verisk'))!);
    for (const p of PERILS_NOT_MODELLED) assert.ok(perils.includes(p.name), `the perils page names '${p.name}'`);
    assert.ok(perils.includes(norm(PERILS_NOT_MODELLED_SHARE)), 'the published share, as the contracts state it');
    assert.match(perils, /two thirds \(USD 98 bn of 152 bn\).*Verisk, Global Modeled Catastrophe Losses 2025.*Swiss Re Institute, sigma 1\/2024/);
    assert.match(norm(pages[3]!), /Not modelled: severe convective storm/, 'and a line on the key-figures page');
    // Charts are drawn (vector paths from the SVG), not only text: a chart page has far more drawing operators than a text page.
    // Rendered pages go to test-output for a person to look at.
    mkdirSync(pngDir, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '72', pdfFile, join(pngDir, 'slide')]);
    assert.equal(readdirSync(pngDir).filter((f) => f.startsWith('slide')).length, pages.length);

    // The PPTX: the same slides, native charts.
    const pptxRes = await fetch(s.url + res.body.pptx_url);
    assert.equal(pptxRes.status, 200);
    assert.match(pptxRes.headers.get('content-type') ?? '', /presentationml/);
    const zip = await JSZip.loadAsync(Buffer.from(await pptxRes.arrayBuffer()));
    const slideFiles = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f));
    assert.equal(slideFiles.length, pages.length, 'as many slides as PDF pages');
    const xml = (n: number) => zip.file(`ppt/slides/slide${n}.xml`)!.async('string');
    assert.match(await xml(1), /Report me/);
    assert.match(await xml(4), new RegExp(formatMillions(card.climate_value_at_risk).replace('.', '\\.')));
    const charts = Object.keys(zip.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f));
    assert.ok(charts.length >= 4 + HAZARDS.length - 1, `native charts in the deck (${charts.length})`);
    assert.match(await xml(pages.length), /Methodology and data sources/);
    assert.match(await xml(pages.length - 1), /Perils not modelled[\s\S]*Severe convective storm/);
  });

  test('Without Content is a variant with smaller or equal losses; the links need no token but a wrong one is 404', async () => {
    const res = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, json: { project_id: projectId, with_content: false } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.variant, 'Without Content');
    const file = join(work, 'without.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(s.url + res.body.url)).arrayBuffer()));
    assert.match(norm(pdfPages(file)[0]!), /Without Content/);
    const bad = await fetch(`${s.url}/api/v2/reports/${'x'.repeat(43)}/a.pdf`);
    assert.equal(bad.status, 404);
    const badName = await fetch(`${s.url}${res.body.url.replace(/\.pdf$/, '.exe')}`);
    assert.equal(badName.status, 400);

    // A tier without portfolio losses gets the upgrade text in the report too, not the figures.
    await setTier(false);
    try {
      const free = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId) } });
      assert.equal(free.body.status, 'done');
      const freeFile = join(work, 'free.pdf');
      writeFileSync(freeFile, Buffer.from(await (await fetch(s.url + free.body.url)).arrayBuffer()));
      const pages = pdfPages(freeFile);
      assert.match(norm(pages[3]!), /Please upgrade tier to see content/);
      assert.doesNotMatch(norm(pages[3]!), /20-year expected loss/);
      assert.ok(
        pages.some((p) => p.includes('Perils not modelled')),
        'the perils not modelled are stated in every tier',
      );
      assert.match(norm(pages.find((p) => p.includes('Hazard heat map'))!), /Kwai Chung terminal/, 'an allowed section is still shown');
    } finally {
      await setTier(true);
    }
  });

  test('the report shows the scenario and year asked for (not the saved defaults); a year the analysis lacks is a 400 naming year', async () => {
    const res = await s.api.post('/api/v2/generate_pdf_report/', {
      token: owner.token,
      form: { project_id: String(projectId), analysis_type: 'ssp', scenario: '85', year: '2030' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'done');
    const dash = await s.api.post('/api/v2/dashboard/', {
      token: owner.token,
      form: { project_id: String(projectId), analysis_type: 'ssp', scenario: '85', year: '2030' },
    });
    assert.equal(dash.status, 200);
    assert.equal(dash.body.filters.year, 2030);
    const file = join(work, 'ssp585-2030.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(s.url + res.body.url)).arrayBuffer()));
    const pages = pdfPages(file);
    assert.ok(norm(pages[0]!).includes(`Scenario ${dash.body.filters.scenario_label}, 2030`), norm(pages[0]!));
    assert.match(dash.body.filters.scenario_label, /8\.5/);
    assert.ok(norm(pages[3]!).includes(formatMillions(dash.body.climate_risk_card_data.climate_value_at_risk)), "the key figures are that dashboard's");
    for (const [form, field] of [
      [{ analysis_type: 'ssp', year: '2031' }, 'year'],
      [{ analysis_type: 'rcp', year: '2100' }, 'year'],
      [{ scenario: '60' }, 'scenario'],
    ] as const) {
      const bad = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId), ...form } });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.errors[0].field, field);
    }
  });

  test('a portfolio in more countries than the overview table holds lists every country on a Countries slide', async () => {
    const places: [string, number, number][] = [
      ['Tokyo', 35.68, 139.69],
      ['Seoul', 37.57, 126.98],
      ['Bangkok', 13.75, 100.5],
      ['Hanoi', 21.03, 105.85],
      ['Manila', 14.6, 120.98],
      ['Jakarta', -6.2, 106.85],
      ['Kuala Lumpur', 3.14, 101.69],
      ['Singapore', 1.29, 103.85],
      ['Delhi', 28.61, 77.21],
      ['Dhaka', 23.81, 90.41],
      ['Karachi', 24.86, 67.0],
      ['Colombo', 6.93, 79.85],
      ['Taipei', 25.03, 121.56],
      ['Sydney', -33.87, 151.21],
      ['Auckland', -36.85, 174.76],
    ];
    const data = places.map(([name, latitude, longitude]) => ({ name: `${name} office`, latitude, longitude, property_type: 'Office', valuation: 1e7 }));
    const created = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Many countries', data, portfolio_variables: ['River Flood'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.project.project_id as number;
    await waitForAnalysis(s, owner.token, id);
    const dash = await s.api.post('/api/v2/dashboard/', { token: owner.token, form: { project_id: String(id) } });
    const countries = (dash.body.country_wise_loss_data as { country_code: string }[]).map((c) => c.country_code);
    assert.equal(countries.length, places.length, JSON.stringify(countries));
    const res = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(id) } });
    assert.equal(res.body.status, 'done', JSON.stringify(res.body));
    const file = join(work, 'countries.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(s.url + res.body.url)).arrayBuffer()));
    const pages = pdfPages(file);
    assert.match(norm(pages[1]!), /4 more \(next slide\) 4/, 'the overview sums the countries it has no room for');
    const list = norm(pages[2]!);
    assert.match(list, /Countries All 15 countries/);
    for (const c of countries) assert.match(list, new RegExp(`\\b${c}\\b`), `${c} on the Countries slide`);
  });

  test('errors: field named, another company 404, a reader may make the report', async () => {
    const noId = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: {} });
    assert.equal(noId.status, 400);
    assert.match(JSON.stringify(noId.body), /project_id/);
    const badType = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'xyz' } });
    assert.equal(badType.status, 400);
    assert.match(JSON.stringify(badType.body), /analysis_type/);
    assert.equal((await s.api.post('/api/v2/generate_pdf_report/', { form: { project_id: String(projectId) } })).status, 401);
    const stranger = await registerAndLogin(s.api);
    assert.equal((await s.api.post('/api/v2/generate_pdf_report/', { token: stranger.token, form: { project_id: String(projectId) } })).status, 404);

    const j = newUser({ company_code: owner.company_code });
    const reg = await s.api.post('/api/user/register/', { json: j });
    await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
    const reader = await s.api.post('/api/user/rest_login/', { form: { username: j.username, password: j.password, company_code: owner.company_code } });
    await s.api.post('/api/v2/share_project/', {
      token: owner.token,
      form: { project_id: String(projectId), share_with: JSON.stringify([reg.body.user.id]), permission: 'read' },
    });
    const asReader = await s.api.post('/api/v2/generate_pdf_report/', { token: reader.body.token, form: { project_id: String(projectId) } });
    assert.equal(asReader.status, 200, JSON.stringify(asReader.body));
    assert.equal(asReader.body.status, 'done');
  });
});

test('poppler is installed for the report checks', () => {
  assert.ok(existsSync('/usr/bin/pdftotext'), 'npm test installs poppler-utils');
});
