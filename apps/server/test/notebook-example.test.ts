// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (the documented notebook run through the Python client; the results it reads are checked on both databases
// by results-api.test.ts).
/**
 * docs/results-api.md's notebook example, run as it is written (issue 38 items 1 and 2): the Python code block under
 * "Notebook example: the Python client" is taken from the markdown and run with python3, the generated client
 * (clients/python) on PYTHONPATH as a reader without pip would have it, against a real test server (jobs on). Its
 * printed table must match the results API's own rows, summed here independently.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { AssetResult } from '@crp/contracts';
import { onPaidPlan, registerAndLogin, startServer, type TestServer } from './support/harness.js';

const DOC = new URL('../../../docs/results-api.md', import.meta.url);
const HEADING = '### Notebook example: the Python client (create a project, wait for its analysis, read results, plot)';
const CLIENT_DIR = fileURLToPath(new URL('../../../clients/python', import.meta.url));

/** The first ```python block after the heading, exactly as written. */
function notebookCode(): string {
  const md = readFileSync(DOC, 'utf8');
  const at = md.indexOf(HEADING);
  assert.ok(at >= 0, `docs/results-api.md has the section "${HEADING}"`);
  const m = /```python\n([\s\S]*?)```/.exec(md.slice(at));
  assert.ok(m, 'the section has a python code block');
  return m[1]!;
}

function run(code: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-'], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve({ code: c, stdout, stderr });
    });
    child.stdin.end(code);
  });
}

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.error || python.status !== 0 ? 'python3 is not installed here: the notebook example of docs/results-api.md was not run' : false;

describe('docs/results-api.md notebook example, run with python3 and the generated client', { skip: noPython }, () => {
  let s: TestServer;
  let cwd: string; // the notebook's working directory (its plot lands there)
  before(async () => {
    s = await startServer({}, { jobs: true });
    cwd = mkdtempSync(join(tmpdir(), 'crp-notebook-'));
  });
  after(async () => {
    await s?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  test('creates a project through the client, waits until done, reads its results and prints the per-hazard table the API rows give', async () => {
    const code = notebookCode();
    assert.match(code, /Client\(os\.environ\.get\("CRP_BASE", "http:\/\/localhost:8080"\)\)/, "the example names the server's default port");
    assert.match(code, /^from crp_client import /m, 'the example uses the generated client, not hand-rolled urllib');
    assert.doesNotMatch(code, /urllib/);
    const u = await onPaidPlan(s, await registerAndLogin(s.api));
    const env = {
      CRP_BASE: s.url,
      CRP_USERNAME: u.username,
      CRP_PASSWORD: u.password,
      CRP_COMPANY_CODE: u.company_code,
      PYTHONPATH: CLIENT_DIR,
      MPLBACKEND: 'Agg',
    };
    const out = await run(code, env, cwd);
    assert.equal(out.code, 0, `python3 failed:\n${out.stderr}\n${out.stdout}`);
    const lines = out.stdout.trim().split('\n');
    // the last line: the plot's file where matplotlib is installed, else the sentence that the table is the result
    const last = lines.pop()!;
    if (last.startsWith('plot: ')) assert.ok(existsSync(join(cwd, last.slice(6))), `${last}: the file exists`);
    else assert.equal(last, '(matplotlib is not installed: the table above is the result)');
    const first = /^project (\d+): done, 2 assets$/.exec(lines[0]!);
    assert.ok(first, out.stdout);
    assert.match(lines[1]!, /^hazard\s+scenario\s+EAL USD\s+1-in-100 USD\s+max score$/);
    const printed = lines.slice(2).map((l) => {
      const m = /^(\S+)\s+(SSP\S+)\s+([\d,]+)\s+([\d,]+)\s+(\S+)$/.exec(l);
      assert.ok(m, `a table line: ${l}`);
      return { hazard: m[1]!, scenario: m[2]!, eal: Number(m[3]!.replace(/,/g, '')), loss100: Number(m[4]!.replace(/,/g, '')), score: m[5]! };
    });
    // the same sums from the API's rows, read here with the harness
    const projectId = Number(first[1]);
    const res = await s.api.post('/api/v2/asset_results/', { token: u.token, json: { project_id: projectId, scenarios: ['45', '85'], years: [2050] } });
    assert.equal(res.status, 200);
    const rows = res.body.results as AssetResult[];
    const keys = [...new Set(rows.map((r) => `${r.hazard} ${r.scenario_label}`))].sort();
    assert.deepEqual(
      printed.map((p) => `${p.hazard} ${p.scenario}`),
      keys,
    );
    // the project's hazards (those chosen and those they bring with them), each under both scenarios
    const hazards = new Set(printed.map((p) => p.hazard));
    for (const h of ['typhoon', 'river_flood', 'extreme_heat']) assert.ok(hazards.has(h), `${h} in ${[...hazards].join(', ')}`);
    assert.equal(printed.length, hazards.size * 2, 'every hazard under SSP2-4.5 and SSP5-8.5');
    for (const p of printed) {
      const mine = rows.filter((r) => r.hazard === p.hazard && r.scenario_label === p.scenario);
      const eal = mine.reduce((a, r) => a + (r.expected_annual_loss_usd ?? 0), 0);
      const loss100 = mine.reduce((a, r) => a + (r.loss_1_in_100_usd ?? 0), 0);
      const scores = mine.map((r) => r.score).filter((x): x is number => x !== null);
      assert.equal(p.eal, Math.round(eal), `${p.hazard} ${p.scenario} EAL`);
      assert.equal(p.loss100, Math.round(loss100), `${p.hazard} ${p.scenario} 1-in-100`);
      assert.equal(p.score, scores.length ? String(Math.max(...scores)) : '-', `${p.hazard} ${p.scenario} score`);
    }
    // Hong Kong and Manila have typhoon losses
    assert.ok(printed.find((p) => p.hazard === 'typhoon' && p.scenario === 'SSP5-8.5')!.eal > 0);
  });
});
