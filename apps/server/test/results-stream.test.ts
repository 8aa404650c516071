import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import { ASSET_RESULT_COLUMNS, type AssetResult } from '@crp/contracts';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Issue 36 item 4: the results API streams its rows (JSON, JSON lines, CSV, GeoJSON, Parquet; gzip when asked), pages
 * them with `limit` and an opaque `cursor`, and has no row cap. The project here has 540 assets (two stored chunks, of
 * 500 and 40) x 4 hazards (typhoon brings storm surge) x 3 scenarios x 16 SSP years = 103,680 rows, more than the old
 * 100,000-row cap.
 */
const N_ASSETS = 540;
const HAZARDS = ['Typhoon', 'River Flood', 'Extreme Heat'];
const PER_ASSET = 4 * 3 * 16;
const TOTAL = N_ASSETS * PER_ASSET;

const rowKey = (r: Pick<AssetResult, 'asset_index' | 'hazard' | 'scenario' | 'year'>) => `${r.asset_index}|${r.hazard}|${r.scenario}|${r.year}`;

describe('results API: streamed rows, cursor paging, formats, gzip, Parquet (issue 36 item 4)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  /** Every row of the project, read page by page as JSON lines (the reference for the other formats). */
  const all: AssetResult[] = [];

  const post = (query: string, json: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/api/v2/asset_results/${query}`, {
      method: 'POST',
      headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(json),
    });

  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    const data = Array.from({ length: N_ASSETS }, (_, i) => ({
      name: `Site ${i}`,
      latitude: 10 + (i % 30) * 0.7,
      longitude: 100 + Math.floor(i / 30) * 0.9,
      property_type: i % 2 ? 'Office' : 'Warehouse',
      valuation: 1e7 + i * 1000,
      revenue: 1e6,
    }));
    const res = await s.api.post('/api/v2/create_project/', { token: owner.token, json: { portfolio_name: 'Stream', data, portfolio_variables: HAZARDS } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId, 120_000);
  });
  after(() => s?.close());

  test('paging through all 103,680 rows as JSON lines: every row exactly once, in order, X-Total-Rows and Link headers', async () => {
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await post(`?format=ndjson&limit=30000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { project_id: projectId });
      assert.equal(res.status, 200, await res.clone().text());
      assert.match(res.headers.get('content-type')!, /^application\/x-ndjson/);
      assert.equal(Number(res.headers.get('x-total-rows')), TOTAL);
      const lines = (await res.text()).split('\n').filter(Boolean);
      for (const l of lines) all.push(JSON.parse(l) as AssetResult);
      cursor = res.headers.get('x-next-cursor');
      if (cursor) assert.match(res.headers.get('link')!, new RegExp(`cursor=${encodeURIComponent(cursor)}.*>; rel="next"$`));
      else assert.equal(res.headers.get('link'), null);
      assert.equal(lines.length, cursor ? 30000 : TOTAL - (Math.ceil(TOTAL / 30000) - 1) * 30000);
      pages++;
    } while (cursor);
    assert.equal(pages, Math.ceil(TOTAL / 30000));
    assert.equal(all.length, TOTAL);
    const keys = new Set(all.map(rowKey));
    assert.equal(keys.size, TOTAL, 'no row twice');
    for (let i = 0; i < N_ASSETS; i++) assert.ok(keys.has(`${i}|typhoon|45|2050`), `asset ${i}`);
    assert.deepEqual(
      all.map((r) => r.asset_index),
      Array.from({ length: TOTAL }, (_, k) => Math.floor(k / PER_ASSET)),
      'asset order, each asset whole',
    );
    assert.deepEqual(Object.keys(all[0]!), ASSET_RESULT_COLUMNS);
    // across the stored chunks' boundary (500): the same figures as a small request for those assets
    const ids = [all[499 * PER_ASSET]!.asset_id, all[500 * PER_ASSET]!.asset_id];
    const few = await post('', { project_id: projectId, asset_ids: ids });
    const body = (await few.json()) as { results: AssetResult[]; rows: number; total_rows: number; next_cursor: null };
    assert.equal(body.rows, 2 * PER_ASSET);
    assert.equal(body.total_rows, 2 * PER_ASSET);
    assert.equal(body.next_cursor, null);
    assert.deepEqual(body.results, all.slice(499 * PER_ASSET, 501 * PER_ASSET));
  });

  test('JSON pages keep the earlier answer shape with next_cursor; CSV and GeoJSON pages parse; rows agree across formats', async () => {
    const from = 1000 * 7 + 13; // a page starting inside an asset
    const first = await post('?limit=7013', { project_id: projectId });
    const head = (await first.json()) as {
      next_cursor: string;
      rows: number;
      total_rows: number;
      assets: number;
      results: AssetResult[];
      methodology_version: string;
    };
    assert.equal(head.rows, from);
    assert.equal(head.assets, N_ASSETS);
    assert.equal(head.total_rows, TOTAL);
    assert.deepEqual(head.results, all.slice(0, from));
    const cursor = encodeURIComponent(head.next_cursor);

    const json = (await (await post(`?limit=500&cursor=${cursor}`, { project_id: projectId })).json()) as { results: AssetResult[]; next_cursor: string };
    assert.deepEqual(json.results, all.slice(from, from + 500));

    const csv = await (await post(`?format=csv&limit=500&cursor=${cursor}`, { project_id: projectId })).text();
    const lines = csv.split('\r\n').filter(Boolean);
    assert.equal(lines[0], ASSET_RESULT_COLUMNS.join(','));
    assert.equal(lines.length, 501);
    const cells = lines[1]!.split(',');
    assert.equal(cells[ASSET_RESULT_COLUMNS.indexOf('hazard')], all[from]!.hazard);
    assert.equal(Number(cells[ASSET_RESULT_COLUMNS.indexOf('year')]), all[from]!.year);

    const gj = (await (await post(`?format=geojson&limit=500&cursor=${cursor}`, { project_id: projectId })).json()) as {
      type: string;
      features: { geometry: { coordinates: number[] }; properties: AssetResult }[];
      next_cursor: string;
    };
    assert.equal(gj.type, 'FeatureCollection');
    assert.equal(gj.features.length, 500);
    assert.deepEqual(
      gj.features.map((f) => f.properties),
      all.slice(from, from + 500),
    );
    assert.deepEqual(gj.features[0]!.geometry.coordinates, [all[from]!.longitude, all[from]!.latitude]);
    assert.equal(gj.next_cursor, json.next_cursor);
  });

  test('gzip when Accept-Encoding allows it: the same bytes, much smaller', async () => {
    const plain = await post('?format=ndjson&limit=20000', { project_id: projectId }, { 'accept-encoding': 'identity' });
    assert.equal(plain.headers.get('content-encoding'), null);
    const text = await plain.text();
    // node's fetch decodes gzip itself: read the raw bytes through a request that keeps them
    const { request } = await import('node:http');
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request(
        `${s.url}/api/v2/asset_results/?format=ndjson&limit=20000`,
        { method: 'POST', headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ project_id: projectId }));
    });
    assert.equal(raw.headers['content-encoding'], 'gzip');
    assert.match(String(raw.headers['vary']), /accept-encoding/i);
    assert.equal(gunzipSync(raw.body).toString('utf8'), text);
    assert.ok(raw.body.byteLength < Buffer.byteLength(text) / 8, `gzip ${raw.body.byteLength} of ${Buffer.byteLength(text)} bytes`);
  });

  test('the whole project as Apache Parquet: an independent reader (hyparquet) gives the rows of the JSON answer', async () => {
    const t0 = performance.now();
    const res = await post('?format=parquet', { project_id: projectId }, { 'accept-encoding': 'gzip' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apache.parquet');
    assert.equal(res.headers.get('content-encoding'), null, 'Parquet pages are compressed already');
    const buf = await res.arrayBuffer();
    const ms = performance.now() - t0;
    const rows = (await parquetReadObjects({ file: buf })) as Record<string, unknown>[];
    assert.equal(rows.length, TOTAL);
    assert.deepEqual(Object.keys(rows[0]!), ASSET_RESULT_COLUMNS);
    for (let k = 0; k < TOTAL; k += 97) {
      const want = all[k]!;
      const got = rows[k]!;
      for (const c of ASSET_RESULT_COLUMNS) {
        const v = got[c];
        const w = want[c];
        if (typeof w === 'number' && c !== 'asset_index' && c !== 'year')
          assert.ok(Math.abs(Number(v) - w) <= Math.abs(w) * 1e-12, `row ${k} ${c}: ${v} vs ${w}`);
        else assert.equal(typeof v === 'bigint' ? Number(v) : (v ?? null), w, `row ${k} ${c}`);
      }
    }
    const json = (await (await post('', { project_id: projectId, asset_ids: [all[0]!.asset_id] })).json()) as { results: AssetResult[] };
    assert.deepEqual(
      rows.slice(0, PER_ASSET).map((r) => Number(r.expected_annual_loss_usd ?? NaN)),
      json.results.map((r) => r.expected_annual_loss_usd ?? NaN),
    );
    console.log(`parquet: ${TOTAL} rows, ${buf.byteLength} bytes, ${ms.toFixed(0)} ms`);
  });

  test('bad cursors, limits and asset ids answer 400 naming the field', async () => {
    const fields = async (res: Response) => ((await res.json()) as { errors?: { field: string }[] }).errors?.map((e) => e.field).join(',');
    let res = await post('?cursor=garbage', { project_id: projectId });
    assert.equal(res.status, 400);
    assert.equal(await fields(res), 'cursor');
    const page = (await (await post('?limit=10', { project_id: projectId })).json()) as { next_cursor: string };
    res = await post(`?cursor=${encodeURIComponent(page.next_cursor)}`, { project_id: projectId, hazards: ['typhoon'] });
    assert.equal(res.status, 400, 'a cursor of another request');
    assert.equal(await fields(res), 'cursor');
    res = await post('?limit=0', { project_id: projectId });
    assert.equal(res.status, 400);
    assert.equal(await fields(res), 'limit');
    res = await post('', { project_id: projectId, asset_ids: [999999999] });
    assert.equal(res.status, 400);
    assert.equal(await fields(res), 'asset_ids');
    res = await post('?format=parquet', { assets: [{ id: 'A', name: 'x', latitude: 22.3, longitude: 114.17 }], asset_ids: ['B'] });
    assert.equal(res.status, 400);
    assert.equal(await fields(res), 'asset_ids');
  });

  test('a concurrent request is answered while a large answer streams (no long event-loop stall)', async () => {
    const big = post('?limit=60000', { project_id: projectId });
    const latencies: number[] = [];
    const t0 = performance.now();
    let done = false;
    const reading = big.then(async (res) => {
      const reader = res.body!.getReader();
      let bytes = 0;
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
      done = true;
      return bytes;
    });
    while (!done && performance.now() - t0 < 60_000) {
      const t = performance.now();
      const h = await fetch(`${s.url}/api/health`);
      await h.arrayBuffer();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const bytes = await reading;
    latencies.sort((a, b) => a - b);
    const max = latencies.at(-1)!;
    console.log(`streamed ${bytes} bytes of JSON in ${(performance.now() - t0).toFixed(0)} ms; ${latencies.length} concurrent GETs, max ${max.toFixed(0)} ms`);
    assert.ok(latencies.length >= 3, 'the concurrent requests were answered during the stream');
  });

  test(
    'the Python client pages through the project with iter_asset_results (JSON lines, X-Next-Cursor)',
    { skip: spawnSync('python3', ['--version']).status !== 0 && 'no python3' },
    async () => {
      const code = [
        'import json, os',
        'from crp_client import Client',
        'api = Client(os.environ["CRP_BASE"], token=os.environ["CRP_TOKEN"])',
        'n, keys, first = 0, set(), None',
        'for r in api.iter_asset_results(project_id=int(os.environ["PID"]), page_size=40000):',
        '    first = first or r',
        '    n += 1',
        '    keys.add((r["asset_index"], r["hazard"], r["scenario"], r["year"]))',
        'print(json.dumps({"n": n, "unique": len(keys), "first": first}))',
      ].join('\n');
      // asynchronously: the server answering the client runs in this process
      const r = await promisify(execFile)('python3', ['-c', code], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
        timeout: 120_000,
        env: {
          ...process.env,
          PYTHONPATH: fileURLToPath(new URL('../../../clients/python', import.meta.url)),
          CRP_BASE: s.url,
          CRP_TOKEN: owner.token,
          PID: String(projectId),
        },
      });
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { n: number; unique: number; first: AssetResult };
      assert.equal(out.n, TOTAL);
      assert.equal(out.unique, TOTAL);
      assert.deepEqual(out.first, all[0]);
    },
  );
});
