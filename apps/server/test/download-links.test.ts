import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newToken, sha256 } from '../src/lib/crypto.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

/**
 * Issue 21 item 7: generated files (exports) and slide reports are served by 24-hour bearer links: whoever holds the
 * URL can download the file, without a session, until the link expires; then 410. Answers are not cached and the URL
 * does not leave the site in a Referer header.
 */
describe('download links are 24-hour bearer links', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let projectId = 0;
  before(async () => {
    s = await startServer();
    owner = await registerAndLogin(s.api);
    const p = await s.api.post('/api/v2/create_project/', {
      token: owner.token,
      json: { portfolio_name: 'Links', data: [{ name: 'A', latitude: 22.3, longitude: 114.2 }] },
    });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    projectId = p.body.project.project_id;
  });
  after(() => s.close());

  /** A stored file (as the exports store them) and its link. */
  async function storedFile(name: string) {
    return s.app.services.files.store(owner.userId, name, 'application/octet-stream', Buffer.from(`bytes of ${name}`));
  }
  const expire = (fileId: number) =>
    s.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', fileId)
      .execute();

  test('a file link works without a session for 24 hours, is not cached, then answers 410; renewing gives a new link', async () => {
    const f = await storedFile('export.xlsx');
    const ttl = Date.parse(f.expires_at) - Date.now();
    assert.ok(ttl > 24 * 3_600_000 - 120_000 && ttl <= 24 * 3_600_000, `expires in 24 hours (${ttl} ms)`);
    const res = await fetch(s.url + f.url); // no Authorization header: the link is the credential
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'bytes of export.xlsx');
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="export\.xlsx"$/);
    // streamed from the store with its length, its checksum as ETag, and one byte range when asked
    assert.equal(res.headers.get('content-length'), String('bytes of export.xlsx'.length));
    assert.equal(res.headers.get('etag'), `"${sha256('bytes of export.xlsx')}"`);
    const part = await fetch(s.url + f.url, { headers: { range: 'bytes=9-14' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), 'bytes 9-14/20');
    assert.equal(await part.text(), 'export');
    assert.equal((await fetch(s.url + f.url, { headers: { range: 'bytes=20-' } })).status, 416);

    await expire(f.id);
    const gone = await s.api.get(f.url);
    assert.equal(gone.status, 410);
    assert.match(gone.body.detail, /expired/);

    const renewed = await s.api.post(`/api/report/get_link/${owner.userId}/`, { token: owner.token, form: { url: f.url } });
    assert.equal(renewed.status, 201, JSON.stringify(renewed.body));
    assert.equal((await fetch(s.url + renewed.body.url)).status, 200);
    assert.equal((await s.api.get(f.url)).status, 404, 'the old link stops working');
  });

  test('a slide report link expires with its files 24 hours after the report was made', async () => {
    const pdf = await storedFile('report.pdf');
    const token = newToken();
    await s.db
      .insertInto('reports')
      .values({
        token_hash: sha256(token),
        owner_id: owner.userId,
        project_id: projectId,
        status: 'done',
        with_content: true,
        pdf_file_id: pdf.id,
        slides: 1,
        finished_at: new Date(),
      })
      .execute();
    const ok = await fetch(`${s.url}/api/v2/reports/${token}/Links.pdf`);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('cache-control'), 'private, no-store');

    await expire(pdf.id);
    const gone = await s.api.get(`/api/v2/reports/${token}/Links.pdf`);
    assert.equal(gone.status, 410, JSON.stringify(gone.body));
    assert.match(gone.body.detail, /expired/);
  });
  test("a company administrator can shorten the links' lifetime (1-24 hours); existing links keep theirs", async () => {
    const before = await storedFile('before.xlsx');
    assert.deepEqual((await s.api.get('/api/company/download_link_hours/', { token: owner.token })).body, { download_link_hours: 24 });
    for (const bad of [0, 25, 1.5, 'x']) {
      const r = await s.api.post('/api/company/download_link_hours/', { token: owner.token, json: { hours: bad } });
      assert.equal(r.status, 400, `hours ${bad}`);
      assert.match(JSON.stringify(r.body), /hours/);
    }
    const set = await s.api.post('/api/company/download_link_hours/', { token: owner.token, json: { hours: 1 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { download_link_hours: 1 });
    const after1 = await storedFile('after.xlsx');
    const ttl = Date.parse(after1.expires_at) - Date.now();
    assert.ok(ttl > 3_600_000 - 120_000 && ttl <= 3_600_000, `a new link lasts 1 hour (${ttl} ms)`);
    const old = Date.parse(before.expires_at) - Date.now();
    assert.ok(old > 23 * 3_600_000, 'an existing link keeps its 24 hours');
    const renewed = await s.api.post(`/api/report/get_link/${owner.userId}/`, { token: owner.token, form: { url: before.url } });
    assert.equal(renewed.status, 201);
    assert.ok(Date.parse(renewed.body.expires_at) - Date.now() <= 3_600_000, 'a renewed link takes the new lifetime');
    await s.api.post('/api/company/download_link_hours/', { token: owner.token, json: { hours: 24 } });
  });
});
