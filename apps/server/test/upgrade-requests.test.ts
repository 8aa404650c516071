import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { formatMillions } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 37 item 1: a Free company sees no money figure anywhere (project card, results API in JSON, CSV and GeoJSON,
 * GIS export, CSV report and summary workbooks, slide report), asks for an upgrade, the administrators and operators
 * are told (notification and e-mail), an operator grants it and the requester then gets the figures.
 */
/** A money column: a loss, 20-year expected loss or exposure, not a score (scores are in the Free plan). */
const MONEY = /^(?!.*score)(?=.*(loss|cvar|max_exposure|maximum exposure))/i;
const DATA = [
  { name: 'Kwai Chung terminal', latitude: 22.35, longitude: 114.125, property_type: 'Industrial', valuation: 8e7, revenue: 2.5e7 },
  { name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
];
const HAZARDS = ['River Flood', 'Typhoon', 'Extreme Heat'];

describe('plans: what a Free company sees, and the upgrade request', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let op: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId = 0;
  let work = '';
  let freePdfText = '';
  before(async () => {
    s = await startServer({}, { jobs: true });
    work = mkdtempSync(join(tmpdir(), 'crp-plans-'));
    owner = await registerAndLogin(s.api);
    op = await registerAndLogin(s.api);
    await s.db.updateTable('users').set({ is_operator: true }).where('id', '=', op.userId).execute();
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Free look', data: DATA, portfolio_variables: HAZARDS },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(async () => {
    await s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const moneyCells = (row: Record<string, unknown>) => Object.entries(row).filter(([k, v]) => MONEY.test(k) && v !== null && v !== undefined && v !== '');
  const workbook = async (url: string) => XLSX.read(Buffer.from(await (await fetch(s.url + url)).arrayBuffer()), { type: 'buffer' });

  test('a Free company gets no money figure from the card, the results API, the GIS export, the workbooks or the slide report', async () => {
    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    const card = list.body.data.find((p: { project_id: number }) => p.project_id === projectId);
    assert.equal(card.loss, null, 'no RCVaR on the card');
    assert.equal(card.value, null, 'no maximum exposure on the card');
    assert.ok(card.overall !== null, 'the score stays');

    const json = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: projectId, years: [2050], scenarios: ['45'] } });
    assert.equal(json.status, 200, JSON.stringify(json.body).slice(0, 300));
    assert.match(json.body.money_withheld, /Free plan/);
    assert.ok(json.body.results.length > 0);
    for (const r of json.body.results) assert.deepEqual(moneyCells(r), [], `${r.asset_name} ${r.hazard}`);
    assert.ok(
      json.body.results.some((r: { score: number | null }) => r.score !== null),
      'scores are included',
    );
    for (const r of json.body.results as { score: number | null; loss_score: number | null }[])
      assert.equal(r.loss_score, r.score, 'loss_score is a score: kept');

    const posted = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { assets: DATA, years: [2050], scenarios: ['45'] } });
    for (const r of posted.body.results) assert.deepEqual(moneyCells(r), []);

    const csv = await fetch(`${s.url}/api/v2/asset_results/?format=csv`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, years: [2050], scenarios: ['45'] }),
    });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('x-money-withheld'), 'portfolio_losses');
    const [head, ...lines] = (await csv.text()).trim().split('\r\n');
    const cols = head!.split(',');
    for (const line of lines) {
      const cells = line.split(',');
      for (const [i, c] of cols.entries()) if (MONEY.test(c)) assert.equal(cells[cells.length - cols.length + i], '', `${c} empty`);
    }

    const gis = await s.api.get(`/api/v2/projects/${projectId}/assets_gis/`, { token: owner.token });
    assert.equal(gis.status, 200);
    const fc = typeof gis.body === 'string' ? JSON.parse(gis.body) : gis.body;
    for (const f of fc.features) assert.deepEqual(moneyCells(f.properties), []);
    assert.ok(
      fc.features.every((f: { properties: { exposed_value_usd: number } }) => f.properties.exposed_value_usd > 0),
      'the values the user gave stay',
    );

    const report = await s.api.post('/api/v2/download_csv_report/', { token: owner.token, form: { project_name: 'Free look', analysis_type: 'ssp' } });
    assert.equal(report.status, 200);
    for (const r of report.body.success) assert.deepEqual(moneyCells(r), []);
    const wb = await workbook(report.body.url);
    for (const r of XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets.Analysis!)) assert.deepEqual(moneyCells(r), []);
    assert.ok(XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.About!, { header: 1 }).some((r) => r[0] === 'Plan'));

    const summary = await s.api.post('/api/v2/summary_report/', { token: owner.token, form: { project_name: 'Free look', analysis_type: 'ssp' } });
    const sw = await workbook(summary.body.url);
    for (const name of sw.SheetNames.filter((n) => n !== 'About'))
      for (const r of XLSX.utils.sheet_to_json<Record<string, unknown>>(sw.Sheets[name]!)) assert.deepEqual(moneyCells(r), [], name);

    const pdf = await s.api.post('/api/v2/generate_pdf_report/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'ssp' } });
    assert.equal(pdf.body.status, 'done');
    const file = join(work, 'free.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(s.url + pdf.body.url)).arrayBuffer()));
    freePdfText = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    assert.match(freePdfText, /Please upgrade tier to see content/);
  });

  test('an upgrade request reaches the administrators and operators; one at a time; clear 4xx', async () => {
    const bad = await s.api.post('/api/v2/upgrade_requests/', { token: owner.token, json: { tier: 'free' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /already on the free plan; ask for professional or enterprise/);
    const unknown = await s.api.post('/api/v2/upgrade_requests/', { token: owner.token, json: { tier: 'platinum' } });
    assert.equal(unknown.status, 400);

    const res = await s.api.post('/api/v2/upgrade_requests/', { token: owner.token, json: { message: 'We need the losses for our TCFD report.' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.request.tier, 'professional');
    assert.equal(res.body.request.status, 'pending');
    const again = await s.api.post('/api/v2/upgrade_requests/', { token: owner.token, json: { tier: 'enterprise' } });
    assert.equal(again.status, 409);
    assert.match(again.body.detail, /already asked for the professional plan on \d{4}-\d\d-\d\d .*One request at a time/);

    const opLogin = await s.api.post('/api/user/rest_login/', { form: { username: op.username, password: op.password, company_code: op.company_code } });
    const told = opLogin.body.pending_notifications.find((n: { title: string }) => n.title === 'Upgrade requested');
    assert.ok(told, JSON.stringify(opLogin.body.pending_notifications));
    assert.match(
      told.message,
      new RegExp(`${owner.username} of .*\\(company code ${owner.company_code}\\) asks to upgrade from the free plan to professional`),
    );
    assert.equal(told.link, '/setup#upgrade-requests');
    const mails = await s.db
      .selectFrom('outbox_emails')
      .selectAll()
      .where('to_address', '=', op.email.toLowerCase())
      .where('subject', 'like', 'Upgrade requested%')
      .execute();
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.text_body, new RegExp(`npm run admin -- grant-tier --company ${owner.company_code} --tier professional`));

    const mine = await s.api.get('/api/v2/upgrade_requests/', { token: owner.token });
    assert.deepEqual(
      mine.body.requests.map((r: { id: number }) => r.id),
      [res.body.request.id],
    );
    const strangerView = await s.api.get('/api/v2/upgrade_requests/', { token: (await registerAndLogin(s.api)).token });
    assert.deepEqual(strangerView.body.requests, [], "another company does not see this company's request");
    const opView = await s.api.get('/api/v2/upgrade_requests/', { token: op.token });
    assert.ok(opView.body.requests.some((r: { id: number; company_code: string }) => r.id === res.body.request.id && r.company_code === owner.company_code));

    const notOp = await s.api.post(`/api/v2/upgrade_requests/${res.body.request.id}/grant/`, { token: owner.token });
    assert.equal(notOp.status, 403);
    const missing = await s.api.post('/api/v2/upgrade_requests/2147483000/grant/', { token: op.token });
    assert.equal(missing.status, 404);
  });

  test('an operator grants it; the requester is told and then gets the money figures', async () => {
    const id = (await s.api.get('/api/v2/upgrade_requests/', { token: owner.token })).body.requests[0].id;
    const granted = await s.api.post(`/api/v2/upgrade_requests/${id}/grant/`, { token: op.token });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.request.status, 'granted');
    assert.equal(granted.body.request.decided_by, op.username);
    assert.equal((await s.api.post(`/api/v2/upgrade_requests/${id}/grant/`, { token: op.token })).status, 409);
    const unread = await s.db.selectFrom('notifications').select('id').where('ref', '=', `upgrade:${id}`).where('read_at', 'is', null).execute();
    assert.deepEqual(unread, [], "the operators' and administrators' notices are settled");

    const me = await s.api.post('/api/user/rest_login/', { form: { username: owner.username, password: owner.password, company_code: owner.company_code } });
    assert.equal(me.body.tier_data.tier, 'professional');
    assert.equal(me.body.tier_data.tier_permissions.portfolio_losses, true);
    assert.ok(me.body.pending_notifications.some((n: { title: string }) => n.title === 'Upgrade granted'));

    const list = await s.api.get(`/api/project/${owner.userId}/`, { token: owner.token });
    const card = list.body.data.find((p: { project_id: number }) => p.project_id === projectId);
    assert.ok(card.loss > 0 && card.value > 0, JSON.stringify(card));
    const json = await s.api.post('/api/v2/asset_results/', { token: owner.token, json: { project_id: projectId, years: [2050], scenarios: ['45'] } });
    assert.equal(json.body.money_withheld, null);
    assert.ok(json.body.results.some((r: { cvar_usd: number | null }) => (r.cvar_usd ?? 0) > 0));
    // the figures the Free report must not have shown
    const dash = await s.api.post('/api/v2/dashboard/', { token: owner.token, form: { project_id: String(projectId), analysis_type: 'ssp' } });
    const c = dash.body.climate_risk_card_data;
    for (const v of [c.climate_value_at_risk, c.residual_climate_value_at_risk, c.max_exposure])
      assert.ok(v > 0 && !freePdfText.includes(formatMillions(v)), `${formatMillions(v)} is not in the Free report`);
  });
});
