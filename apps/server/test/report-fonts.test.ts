// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (the fonts embedded in the PDF reports).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { pickFont } from '../src/modules/reports/pdf-fonts.js';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

const pngDir = join(fileURLToPath(new URL('../../..', import.meta.url)), 'test-output', 'reports-cjk');
const norm = (s: string) => s.replace(/\s+/g, ' ');

test('pickFont: Helvetica for Western text, the embedded CJK font otherwise, "?" only for what neither has', () => {
  assert.deepEqual(pickFont('Café Zürich – €5', false), { font: 'Helvetica', text: 'Café Zürich – €5' });
  assert.deepEqual(pickFont('Central office', true), { font: 'Helvetica-Bold', text: 'Central office' });
  assert.deepEqual(pickFont('中環廣場 Tower', false), { font: 'CJK', text: '中環廣場 Tower' });
  assert.deepEqual(pickFont('東京タワー', true), { font: 'CJK-Bold', text: '東京タワー' });
  assert.deepEqual(pickFont('上海浦东 国际', false), { font: 'CJK', text: '上海浦东 国际' }, 'simplified characters are in the TC subset too');
  assert.deepEqual(pickFont('서울 타워 Seoul', false), { font: 'CJK', text: '?? ?? Seoul' }, 'Hangul is outside the TC subset (docs/decisions.md)');
});

describe('slide report PDF with Chinese and Japanese asset names', () => {
  let s: TestServer;
  let work = '';
  let token = '';
  let projectId = 0;
  before(async () => {
    s = await startServer({}, { jobs: true });
    const owner = await registerAndLogin(s.api);
    token = owner.token;
    work = mkdtempSync(join(tmpdir(), 'crp-report-cjk-'));
    await s.db.updateTable('companies').set({ tier: 'enterprise' }).execute();
    const data = [
      { name: '中環廣場 Central Plaza', latitude: 22.28, longitude: 114.174, property_type: 'Commercial', valuation: 2e8, revenue: 3e7 },
      { name: '東京タワー', latitude: 35.6586, longitude: 139.7454, property_type: 'Commercial', valuation: 1.5e8 },
      { name: '葵涌貨櫃碼頭', latitude: 22.35, longitude: 114.125, property_type: 'Industrial', valuation: 9e7 },
    ];
    const res = await s.api.post('/api/v2/create_project/', {
      token,
      json: { portfolio_name: '恒生 組合', data, portfolio_variables: ['River Flood', 'Typhoon'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, token, projectId);
  });
  after(async () => {
    await s?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('pdftotext gives the names back as typed; the CJK font is embedded as a subset', async () => {
    const res = await s.api.post('/api/v2/generate_pdf_report/', { token, json: { project_id: projectId } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const pdf = Buffer.from(await (await fetch(s.url + res.body.url)).arrayBuffer());
    const file = join(work, 'cjk.pdf');
    writeFileSync(file, pdf);
    const text = norm(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
    for (const name of ['恒生 組合', '中環廣場 Central Plaza', '東京タワー', '葵涌貨櫃碼頭']) assert.ok(text.includes(name), `the PDF prints '${name}'`);
    assert.ok(!/\?{2,}/.test(text), 'no run of "?" where a name was');
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    const cjk = fonts.split('\n').find((l) => l.includes('NotoSansHant'));
    assert.ok(cjk, `the CJK font is in the PDF:\n${fonts}`);
    assert.match(cjk, /^[A-Z]{6}\+NotoSansHant-\S+\s.*\byes\s+yes\s+yes\b/, 'embedded, subset, with a Unicode map');
    // Rendered pages go to test-output for a person to look at.
    mkdirSync(pngDir, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '60', file, join(pngDir, 'slide')]);
    assert.ok(pdf.length < 1_500_000, `a subset, not the 5.6 MB font file (${pdf.length} bytes)`);
  });
});
