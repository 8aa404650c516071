// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (the generated Python client's calls and waits; the results they read are checked on both databases by
// results-api.test.ts).
/**
 * The Python client (clients/python, issue 38 item 2): generated from docs/openapi.json and up to date with it, and
 * run with python3 against a real server: tokens, JSON/CSV/GeoJSON/GeoTIFF answers, multipart uploads, errors with
 * status, field and message, and the waiting helpers on a project whose analysis stays queued (no job runner here).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENT_DIR = join(ROOT, 'clients/python');
const GENERATED = ['models.py', '_operations.py'];

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.error || python.status !== 0 ? 'python3 is not installed here: the Python client was not run' : false;

/** Runs a Python script with the client on PYTHONPATH; its last stdout line is JSON. */
function runPython(code: string, env: Record<string, string> = {}): Promise<{ status: number | null; out: unknown; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-'], { env: { ...process.env, PYTHONPATH: CLIENT_DIR, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      let out: unknown = null;
      try {
        out = JSON.parse(last);
      } catch {
        /* the assertion on status shows stdout and stderr */
      }
      resolve({ status, out, stdout, stderr });
    });
    child.stdin.end(code);
  });
}

test('the committed Python client matches a fresh generation from docs/openapi.json (run `npm run openapi`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crp-pyclient-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/generate-python-client.mjs'), '--out', dir], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    for (const f of GENERATED) {
      assert.equal(readFileSync(join(CLIENT_DIR, 'crp_client', f), 'utf8'), readFileSync(join(dir, f), 'utf8'), `clients/python/crp_client/${f} is stale`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one client method per operation of docs/openapi.json, named after its operationId', { skip: noPython }, async () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => [op.operationId, m.toUpperCase(), path]));
  const r = await runPython(`
import json, inspect
from crp_client import Client, OPERATIONS, models
out = {oid: [name, method, path, callable(getattr(Client, name, None))] for oid, (name, method, path) in OPERATIONS.items()}
print(json.dumps({"ops": out, "models": sorted(models.__all__)}))
`);
  assert.equal(r.status, 0, r.stderr);
  const { ops, models } = r.out as { ops: Record<string, [string, string, string, boolean]>; models: string[] };
  assert.equal(Object.keys(ops).length, ids.length);
  for (const [id, method, path] of ids) {
    const op = ops[id!];
    assert.ok(op, `${id} has a method`);
    assert.deepEqual(op.slice(1), [method, path, true], id);
  }
  assert.equal(ops.postV2AssetResults![0], 'post_v2_asset_results');
  for (const name of ['AssetResult', 'ResultsRequestInput', 'ErrorBody', 'ResultsResponse']) assert.ok(models.includes(name), name);
});

describe('the Python client against a server', { skip: noPython }, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer(); // no job runner: a created project's analysis stays queued
  });
  after(() => s?.close());

  test('login, a personal API token, results as JSON, CSV and GeoJSON, a COG, multipart upload and errors naming the field', async () => {
    const u = await registerAndLogin(s.api);
    const request = {
      assets: [{ id: 'HK-1', name: 'HK office', latitude: 22.3, longitude: 114.17, property_type: 'Office', valuation: 1e8, revenue: 2e7 }],
      hazards: ['typhoon', 'river_flood'],
      scenarios: ['85'],
      years: [2050],
    };
    const r = await runPython(
      `
import json, os
from crp_client import ApiError, Client

out = {}
api = Client(os.environ["CRP_BASE"])
out["login_user"] = api.login(os.environ["U"], os.environ["P"], os.environ["C"])["user"]["username"]
out["session_read_only"] = api.read_only
made = api.post_user_api_tokens({"name": "python test", "expires_in_days": 30})
pat = Client(os.environ["CRP_BASE"], token=made["token"])
out["pat_prefix"], out["pat_read_only"] = made["token"][:8], pat.read_only
request = json.loads(os.environ["REQUEST"])
out["rows"] = pat.post_v2_asset_results(request)["results"]
out["rows_kw"] = pat.asset_results(**request)["results"]
options = {k: v for k, v in request.items() if k != "assets"}
out["rows_csv_body"] = pat.asset_results("id,name,lat,long,property type,valuation,revenue\\nHK-1,HK office,22.3,114.17,Office,100000000,20000000\\n", **options)["results"]
a = request["assets"][0]
fc = {"type": "FeatureCollection", "features": [{"type": "Feature", "id": a["id"], "geometry": {"type": "Point", "coordinates": [a["longitude"], a["latitude"]]},
      "properties": {k: v for k, v in a.items() if k not in ("id", "latitude", "longitude")}}]}
out["rows_geojson_body"] = pat.asset_results(fc, **options)["results"]
csv_text = pat.asset_results(request, format="csv")
out["csv"] = [type(csv_text).__name__, csv_text.splitlines()[0], len(csv_text.splitlines())]
gj = pat.asset_results(request, format="geojson")
out["geojson"] = [gj["type"], len(gj["features"]), gj["features"][0]["properties"]["asset_id"]]
cog = pat.get_v2_hazard_layers_by_hazard_cog("river_flood", bbox="113,22,115,23", scenario="45", year=2050)
out["cog"] = [type(cog).__name__, cog[:4].hex(), pat.last_headers.get("x-cell-size-deg")]
def error(call):
    try:
        call()
    except ApiError as e:
        return {"status": e.status, "field": e.field, "message": e.message, "detail": e.detail, "text": str(e)}
out["misspelt"] = error(lambda: pat.asset_results(assets=request["assets"], hazard=["typhoon"]))
out["bad_asset"] = error(lambda: pat.asset_results(assets=[{"name": "Null island", "latitude": 0, "longitude": 0}]))
out["pat_write"] = error(lambda: pat.create_project("Refused", request["assets"], ["Typhoon"]))
out["bad_token"] = error(lambda: Client(os.environ["CRP_BASE"], token="crp_pat_" + "x" * 43).get_v2_hazard_catalog())
csv_file = "name,lat,long,property type,valuation\\nTower,22.28,114.16,Office,50000000\\nDepot,22.32,114.22,Warehouse,1000000\\n"
made = api.post_v2_create_project({"portfolio_name": "From a CSV file"}, files={"upload_file": ("assets.csv", csv_file.encode())})
out["multipart"] = [made["project"]["project_id"], api.project_status(made["project"]["project_id"])["assets"]]
print(json.dumps(out))
`,
      { CRP_BASE: s.url, U: u.username, P: u.password, C: u.company_code, REQUEST: JSON.stringify(request) },
    );
    assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
    const out = r.out as Record<string, unknown>;
    assert.equal(out.login_user, u.username);
    assert.equal(out.session_read_only, false);
    assert.deepEqual([out.pat_prefix, out.pat_read_only], ['crp_pat_', true]);
    // the client's rows are the API's rows, as the harness reads them
    const direct = await s.api.post('/api/v2/asset_results/', { token: u.token, json: request });
    assert.equal(direct.status, 200);
    assert.deepEqual(out.rows, direct.body.results);
    assert.deepEqual(out.rows_kw, direct.body.results);
    assert.deepEqual(out.rows_csv_body, direct.body.results, 'the same asset as a CSV body (options in the query string)');
    assert.deepEqual(out.rows_geojson_body, direct.body.results, 'the same asset as a GeoJSON FeatureCollection body');
    assert.equal((out.rows as { asset_id: string }[])[0]!.asset_id, 'HK-1');
    assert.deepEqual(out.csv, ['str', Object.keys(direct.body.results[0]).join(','), 1 + direct.body.results.length]);
    assert.deepEqual(out.geojson, ['FeatureCollection', direct.body.results.length, 'HK-1']);
    const [cogType, magic, cellSize] = out.cog as [string, string, string];
    assert.deepEqual([cogType, magic], ['bytes', '49492a00'], 'a little-endian TIFF as bytes');
    assert.ok(Number(cellSize) > 0, `X-Cell-Size-Deg read from last_headers: ${cellSize}`);
    const misspelt = out.misspelt as Record<string, string | number>;
    assert.equal(misspelt.status, 400);
    assert.equal(misspelt.field, 'hazard');
    assert.match(String(misspelt.message), /unknown key 'hazard' \(did you mean 'hazards'\?\)/);
    assert.match(String(misspelt.text), /^POST \/api\/v2\/asset_results\/: 400 /);
    const badAsset = out.bad_asset as Record<string, string | number>;
    assert.equal(badAsset.status, 400);
    assert.match(String(badAsset.field), /^assets\.0/);
    assert.equal((out.pat_write as { status: number }).status, 403);
    assert.match(String((out.pat_write as { message: string }).message), /personal API token, which is read-only/);
    assert.equal((out.bad_token as { status: number }).status, 401);
    const [projectId, assets] = out.multipart as [number, number];
    assert.equal(assets, 2, 'the CSV went up as a multipart file part');
    const stored = await s.db.selectFrom('assets').select('name').where('project_id', '=', projectId).orderBy('position').execute();
    assert.deepEqual(
      stored.map((a) => a.name),
      ['Tower', 'Depot'],
    );
  });

  test('while the analysis is queued: asset_results waits Retry-After seconds and asks again, wait_for_project times out; a failed analysis raises at once', async () => {
    const u = await registerAndLogin(s.api);
    const created = await s.api.post('/api/v2/create_project/', {
      token: u.token,
      json: { portfolio_name: 'Queued', data: [{ name: 'HK office', latitude: 22.3, longitude: 114.17 }], portfolio_variables: ['Typhoon'] },
    });
    assert.equal(created.status, 201);
    const projectId = created.body.project.project_id as number;
    const env = { CRP_BASE: s.url, CRP_TOKEN: u.token, PID: String(projectId) };
    const queued = await runPython(
      `
import json, os, time
from crp_client import ApiError, Client
api = Client.from_env()
pid = int(os.environ["PID"])
out = {}
sleeps = []
real_sleep = time.sleep
time.sleep = lambda s: (sleeps.append(s), real_sleep(s))[1]
t = time.monotonic()
try:
    api.asset_results(project_id=pid, years=[2050], timeout=7)
except ApiError as e:
    out["results"] = [e.status, e.retry_after, round(time.monotonic() - t, 1)]
out["sleeps_results"] = sleeps[:]
del sleeps[:]
try:
    api.wait_for_project(pid, timeout=3, poll_seconds=1)
except TimeoutError as e:
    out["wait"] = str(e)
out["sleeps_wait"] = sleeps[:]
print(json.dumps(out))
`,
      env,
    );
    assert.equal(queued.status, 0, `${queued.stderr}\n${queued.stdout}`);
    const q = queued.out as { results: [number, number, number]; sleeps_results: number[]; wait: string; sleeps_wait: number[] };
    assert.deepEqual(q.results.slice(0, 2), [409, 5], 'the 409 is raised with its Retry-After once waiting longer would pass the timeout');
    assert.ok(q.results[2] >= 5, `it waited the 5 s the server asked for (${q.results[2]} s)`);
    assert.deepEqual(q.sleeps_results, [5], 'one wait of Retry-After seconds, then the second 409 is raised (7 s timeout)');
    assert.match(q.wait, new RegExp(`project ${projectId}: still queued after 3 s`));
    assert.ok(q.sleeps_wait.length >= 2 && q.sleeps_wait.every((x) => x === 1), `polled every second: ${q.sleeps_wait.join(', ')}`);

    await s.db.updateTable('projects').set({ status: 'failed', status_message: 'test failure' }).where('id', '=', projectId).execute();
    const failed = await runPython(
      `
import json, os, time
from crp_client import ApiError, Client, ProjectFailed
api = Client.from_env()
pid = int(os.environ["PID"])
out = {}
t = time.monotonic()
try:
    api.asset_results(project_id=pid, years=[2050])
except ApiError as e:
    out["results"] = [e.status, e.retry_after, e.detail, time.monotonic() - t < 3]
try:
    api.wait_for_project(pid)
except ProjectFailed as e:
    out["wait"] = [str(e), e.status["status"]]
print(json.dumps(out))
`,
      env,
    );
    assert.equal(failed.status, 0, `${failed.stderr}\n${failed.stdout}`);
    const f = failed.out as { results: [number, number | null, string, boolean]; wait: [string, string] };
    assert.equal(f.results[0], 409);
    assert.equal(f.results[1], null, 'no Retry-After: waiting does not help');
    assert.match(f.results[2], /failed: test failure/);
    assert.equal(f.results[3], true, 'raised at once, without waiting');
    assert.deepEqual(f.wait, [`project ${projectId}: analysis failed: test failure`, 'failed']);
  });
});
