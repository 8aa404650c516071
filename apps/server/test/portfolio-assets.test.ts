import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PortfolioAssetsResponse, StoredAsset } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

describe('portfolio and asset calls', () => {
  let s: TestServer;
  let u: Awaited<ReturnType<typeof registerAndLogin>>;
  before(async () => {
    s = await startServer();
    u = await registerAndLogin(s.api);
  });
  after(() => s.close());

  test('nonbuilding creates a portfolio; portfolio and asset lists show it; deleting assets re-queues the analysis', async () => {
    const value = JSON.stringify([
      { name: 'Pier', latitude: 22.29, longitude: 114.17 },
      { name: 'Depot', latitude: 22.35, longitude: 114.11 },
      { name: 'Yard', latitude: 22.4, longitude: 114.2 },
    ]);
    const created = await s.api.post(`/api/asset/nonbuilding/${u.userId}/`, {
      token: u.token,
      form: { value, portfolio_name: 'Harbour', variables: JSON.stringify(['Sea Level Rise']) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const list = await s.api.get(`/api/portfolio/${u.userId}/`, { token: u.token });
    assert.equal(list.status, 200);
    assert.equal(list.body[0].portfolio_name, 'Harbour');
    assert.equal(list.body[0].assets, 3);
    assert.ok(list.body[0].portfolio_variables.includes('Sea Level Rise'));
    const assets = await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Harbour`, { token: u.token });
    assert.equal(assets.status, 200);
    assert.deepEqual(
      assets.body.assets.map((a: { name: string }) => a.name),
      ['Pier', 'Depot', 'Yard'],
    );
    assert.equal(assets.body.assets[0].country_code, 'HK');
    // The project list and the status count the assets (kept per project version: a delete must show at once).
    const projectList = async () =>
      (await s.api.get(`/api/project/${u.userId}/`, { token: u.token })).body.data.find((p: { name: string }) => p.name === 'Harbour');
    const statusOf = async () => (await s.api.get(`/api/v2/projects/${assets.body.project_id}/status/`, { token: u.token })).body;
    assert.equal((await projectList()).assets, 3);
    assert.equal((await statusOf()).assets, 3);
    const del = await s.api.post(`/api/asset/delete/${u.userId}/`, {
      token: u.token,
      form: { portfolio_name: 'Harbour', asset_ids: JSON.stringify([assets.body.assets[1].id]) },
    });
    assert.equal(del.status, 201, JSON.stringify(del.body));
    assert.equal(del.body.deleted, 1);
    const after = await s.api.get(`/api/asset/${u.userId}/?project_id=${assets.body.project_id}`, { token: u.token });
    assert.equal(after.body.assets.length, 2);
    assert.equal(after.body.version, 2);
    assert.equal((await projectList()).assets, 2);
    assert.equal((await statusOf()).assets, 2);
  });

  test('errors: other ids, foreign assets, emptying a portfolio, missing project', async () => {
    const mine = await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Harbour`, { token: u.token });
    const ids = mine.body.assets.map((a: { id: number }) => a.id);
    assert.equal(
      (await s.api.post(`/api/asset/delete/${u.userId}/`, { token: u.token, form: { portfolio_name: 'Harbour', asset_ids: JSON.stringify(ids) } })).status,
      400,
    );
    assert.equal(
      (await s.api.post(`/api/asset/delete/${u.userId}/`, { token: u.token, form: { portfolio_name: 'Harbour', asset_ids: '[999999]' } })).status,
      400,
    );
    assert.equal((await s.api.post(`/api/asset/delete/${u.userId}/`, { token: u.token, form: { portfolio_name: 'Harbour', asset_ids: 'x' } })).status, 400);
    assert.equal((await s.api.get(`/api/asset/${u.userId}/`, { token: u.token })).status, 400);
    assert.equal((await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Nope`, { token: u.token })).status, 404);
    const other = await registerAndLogin(s.api);
    assert.equal((await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Harbour`, { token: other.token })).status, 404);
    assert.equal((await s.api.get(`/api/asset/${other.userId}/?project_id=${mine.body.project_id}`, { token: other.token })).status, 404);
    const bulk = await s.api.post('/api/v2/modify-bulk-asset/', {
      token: u.token,
      json: { project_id: mine.body.project_id, assets: [{ id: ids[0], valuation: 1e6 }] },
    });
    assert.equal(bulk.status, 200);
    assert.equal(bulk.body.changed, 1);
  });

  test('the asset list is sent as documented and follows every change (it is kept per project version)', async () => {
    const first = await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Harbour`, { token: u.token });
    const again = await s.api.get(`/api/asset/${u.userId}/?portfolio_name=Harbour`, { token: u.token });
    assert.deepEqual(again.body, first.body);
    // Exactly the documented fields: no database column beyond StoredAsset.
    const strict = PortfolioAssetsResponse.extend({ assets: StoredAsset.strict().array() }).strict().safeParse(first.body);
    assert.ok(strict.success, JSON.stringify(strict.error?.issues.slice(0, 3)));
    const edited = first.body.assets[0];
    const bulk = await s.api.post('/api/v2/modify-bulk-asset/', {
      token: u.token,
      json: { project_id: first.body.project_id, assets: [{ id: edited.id, valuation: 4.2e6 }] },
    });
    assert.equal(bulk.status, 200);
    const after = await s.api.get(`/api/asset/${u.userId}/?project_id=${first.body.project_id}`, { token: u.token });
    assert.equal(after.body.version, first.body.version + 1);
    assert.equal(after.body.assets.find((a: { id: number }) => a.id === edited.id).valuation, 4.2e6);
  });
});
