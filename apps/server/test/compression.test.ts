// test-db: once. scripts/test.mjs runs this file in one server suite only: what it checks does not depend on the
// database (HTTP response compression).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { negotiateEncoding } from '../src/plugins/compress.js';
import { registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/** A raw HTTP call (fetch would decode the body itself): status, headers and the bytes as sent. */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('HTTP compression of large JSON answers (HTTP_COMPRESSION=true)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId: number;
  before(async () => {
    s = await startServer({ HTTP_COMPRESSION: true }, { jobs: true });
    owner = await registerAndLogin(s.api);
    await s.db
      .updateTable('companies')
      .set({
        tier: 'enterprise',
        assets_allowed: 1000,
        tier_permissions: JSON.stringify({
          asset_level_risk_map: true,
          climate_variable_intensity: true,
          climate_heatmap: true,
          portfolio_losses: true,
          rcp_year_loss_bars: true,
          asset_table: true,
        }),
      })
      .execute();
    // 200 assets: dashboard and asset-list answers of more than 64 KiB.
    const data = Array.from({ length: 200 }, (_, i) => ({
      name: `Site ${i + 1}`,
      latitude: -49.9 + 0.5 * i,
      longitude: -170 + 1.7 * i,
      property_type: i % 2 ? 'Office' : 'Warehouse',
      valuation: 1e6 * (i + 1),
      revenue: 2e5 * (i + 1),
    }));
    const res = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Zip', data, portfolio_variables: ['Extreme Heat', 'Drought', 'Wildfire'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    projectId = res.body.project.project_id;
    await waitForAnalysis(s, owner.token, projectId);
  });
  after(() => s.close());

  test('Accept-Encoding is negotiated: br first, then gzip; q=0 refuses', () => {
    assert.equal(negotiateEncoding(undefined), null);
    assert.equal(negotiateEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(negotiateEncoding('gzip, deflate'), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0.5'), 'gzip');
    assert.equal(negotiateEncoding('gzip;q=0'), null);
    assert.equal(negotiateEncoding('identity'), null);
    assert.equal(negotiateEncoding('*'), 'br');
    assert.equal(negotiateEncoding('*;q=0.1, br;q=0'), 'gzip');
  });

  test('a dashboard answer is sent compressed when asked, and decodes to the same JSON', async () => {
    const dash = (encoding?: string) =>
      raw(`${s.url}/api/v2/dashboard/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Token ${owner.token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
        body: JSON.stringify({ project_id: projectId, analysis_type: 'ssp', scenario: '85', year: 2050 }),
      });
    const plain = await dash();
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.byteLength > 64 * 1024, `answer of ${plain.body.byteLength} bytes`);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const gz = await dash('gzip, deflate');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(Number(gz.headers['content-length']), gz.body.byteLength);
    assert.ok(gz.body.byteLength < plain.body.byteLength / 4, `gzip ${gz.body.byteLength} of ${plain.body.byteLength}`);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const br = await dash('gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    const again = await dash('br');
    assert.deepEqual(again.body, br.body, 'the same answer again (from the answer cache)');
    // fetch asks for and decodes compressed answers by itself.
    const viaFetch = await s.api.post('/api/v2/dashboard/', {
      token: owner.token,
      json: { project_id: projectId, analysis_type: 'ssp', scenario: '85', year: 2050 },
    });
    assert.deepEqual(viaFetch.body, JSON.parse(plain.body.toString('utf8')));
  });

  test('the asset list is compressed too; small answers are not', async () => {
    const list = await raw(`${s.url}/api/asset/${owner.userId}/?project_id=${projectId}`, {
      headers: { authorization: `Token ${owner.token}`, 'accept-encoding': 'gzip' },
    });
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(list.body).toString('utf8')).assets.length, 200);
    const me = await raw(`${s.url}/accounts/user/`, { headers: { authorization: `Token ${owner.token}`, 'accept-encoding': 'gzip, br' } });
    assert.equal(me.status, 200);
    assert.equal(me.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(me.body.toString('utf8')).username, owner.username);
  });
});
