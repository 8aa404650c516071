import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Issue 32 item 4: CSV and XLSX exports neutralise a formula trigger at the start of a cell AND after `;`, `,` or a tab
 * inside it, because Excel in a German, French, Dutch or Spanish locale splits an unquoted CSV field at `;`.
 */
const HOSTILE = ['Safe;=1+1', 'a,=HYPERLINK("http://evil.example","click")', 'x\t@SUM(A1)', '-12.5'];
const ESCAPED = ["Safe;'=1+1", 'a,\'=HYPERLINK("http://evil.example","click")', "x\t'@SUM(A1)", "'-12.5"];

/** An RFC 4180 reader with a chosen separator: how Excel reads a CSV with `,` (English) or `;` (German) as list separator. */
function readCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === sep) endCell();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/** Cells a spreadsheet would run: starting with = + - @ (plain numbers such as -12.5 excepted: the exports' own numbers), tab or CR. */
const formulaCells = (rows: string[][]) => rows.flat().filter((c) => /^[=+\-@\t\r]/.test(c) && !/^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(c));

describe('formula escaping in CSV and XLSX exports (issue 32 item 4)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test('results CSV: names with a formula after ; , or a tab are escaped there, and no locale splits a formula out of them', async () => {
    const res = await fetch(`${s.url}/api/v2/asset_results/?format=csv`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        assets: HOSTILE.map((name, i) => ({ name, latitude: 22.3 + i / 100, longitude: 114.17 })),
        hazards: ['typhoon'],
        scenarios: ['45'],
        years: [2050],
      }),
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const english = readCsv(text, ',');
    const col = english[0]!.indexOf('asset_name');
    assert.deepEqual(
      english.slice(1).map((r) => r[col]),
      ESCAPED,
    );
    assert.deepEqual(formulaCells(english), [], 'read with , as separator');
    assert.deepEqual(formulaCells(readCsv(text, ';')), [], 'read with ; as separator (German, French, Dutch, Spanish Excel)');
    assert.deepEqual(formulaCells(readCsv(text, '\t')), [], 'read with tab as separator');
  });

  test('carbon CSV and XLSX: the same escaping through the one shared function; numbers stay numbers', async () => {
    const companies = HOSTILE.map((company_name, i) => ({
      company_name,
      investment_in_usd: 1_000_000 * (i + 1),
      nav_in_perc: 0,
      market_cap_in_usd: 100_000_000,
      revenue_in_usd: 50_000_000,
      scope_1_and_2_GHG_emission: 1_000,
      region: 'Europe',
      sector: 'Chemicals',
    }));
    const made = await s.api.post(`/api/report/create_carbon_analysis/${owner.userId}/`, {
      token: owner.token,
      json: { portfolio_name: 'Formula;=1+1 fund', portfolio_value: 10_000_000, companies_data: companies },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const path = `${s.url}/api/report/get_carbon_analysis/${owner.userId}/download/`;
    const download = (format: string) =>
      fetch(path, {
        method: 'POST',
        headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ portfolio_name: 'Formula;=1+1 fund', format }),
      });

    const csv = (await (await download('csv')).text()).replace(/^\uFEFF/, '');
    const rows = readCsv(csv, ',');
    const col = rows[0]!.indexOf('company_name');
    assert.deepEqual(
      rows.slice(1, 1 + HOSTILE.length).map((r) => r[col]),
      ESCAPED,
    );
    for (const sep of [',', ';', '\t']) assert.deepEqual(formulaCells(readCsv(csv, sep)), [], `CSV read with ${JSON.stringify(sep)}`);

    const wb = XLSX.read(Buffer.from(await (await download('xlsx')).arrayBuffer()), { type: 'buffer', cellFormula: true });
    const texts: string[] = [];
    for (const name of wb.SheetNames)
      for (const [addr, c] of Object.entries(wb.Sheets[name]!)) {
        if (addr.startsWith('!')) continue;
        const cell = c as XLSX.CellObject;
        assert.equal(cell.f, undefined, `${name}!${addr} is a formula`);
        if (cell.t === 's') texts.push(String(cell.v));
      }
    for (const e of ESCAPED) assert.ok(texts.includes(e), `${JSON.stringify(e)} in the workbook`);
    assert.ok(
      texts.some((t) => t.includes("Formula;'=1+1 fund")),
      'the portfolio name on the About sheet is escaped too',
    );
    const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets['Carbon']!);
    assert.equal(typeof sheet[0]!.investment_in_usd, 'number', 'numbers stay numbers');
  });
});
