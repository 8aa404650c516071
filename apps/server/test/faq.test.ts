import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAQ_CATEGORIES, FAQ_ITEMS } from '../src/modules/help/faq-content.js';
import { sanitizeFaqHtml, tsQueryOf, searchWords } from '../src/modules/help/faq.service.js';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const HOSTILE = [
  '<p onclick="steal()">Hostile <strong>answer</strong> about zzquux</p>',
  '<script>alert(1)</script><style>body{display:none}</style><iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)">js</a><a href="  java&#x09;script:alert(2)">tab</a><A HREF="JaVaScRiPt:alert(3)">case</A>',
  '<a href="//evil.example/x">protocol-relative</a><a href="https://ok.example/a">ok</a>',
  '<img src=x onerror="alert(4)"><img src="data:image/svg+xml;base64,PHN2Zz4=" alt="d"><img src="/documents/faq/severity-bands.svg" alt="bands">',
  '<svg onload="alert(5)"><circle r="1"/></svg><div style="background:url(javascript:alert(6))">styled</div>',
  '<form action="https://evil.example"><input name="p"></form><object data="x"></object><embed src="x"><!-- comment -->',
  '<p>after</p><script>unclosed(',
].join('');

function assertSafe(html: string) {
  assert.doesNotMatch(html, /<script|<style|<iframe|<svg|<form|<input|<object|<embed|<!--/i);
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no event handler attributes');
  assert.doesNotMatch(html, /javascript:|data:|vbscript:/i, 'no dangerous URL schemes');
  assert.doesNotMatch(html, /style=/i, 'no style attributes');
  assert.doesNotMatch(html, /href="\/\//, 'no protocol-relative links');
  assert.doesNotMatch(html, /alert\(/);
  assert.doesNotMatch(html, /\[\/?removed\]/);
}

describe('FAQ content (data)', () => {
  test('at least 40 questions, unique keys and titles, every keyword exists, answers survive sanitising unchanged in meaning', () => {
    assert.ok(FAQ_ITEMS.length >= 40, `${FAQ_ITEMS.length} items`);
    assert.equal(new Set(FAQ_ITEMS.map((i) => i.key)).size, FAQ_ITEMS.length);
    assert.equal(new Set(FAQ_ITEMS.map((i) => i.title)).size, FAQ_ITEMS.length);
    const names = new Set(FAQ_CATEGORIES.flatMap((c) => [c.name, ...c.children]));
    assert.equal(
      names.size,
      FAQ_CATEGORIES.reduce((n, c) => n + 1 + c.children.length, 0),
      'keyword names are unique',
    );
    for (const item of FAQ_ITEMS) {
      for (const k of item.keywords) assert.ok(names.has(k), `${item.key}: keyword ${k}`);
      const clean = sanitizeFaqHtml(item.content);
      // Our own content uses only allowed markup: sanitising removes nothing but adds rel/target to external links.
      assert.equal(clean.replace(/ target="_blank" rel="noopener noreferrer"/g, '').length >= item.content.length - 40, true, item.key);
    }
    // Every child keyword has at least one item.
    for (const c of FAQ_CATEGORIES)
      for (const child of c.children)
        assert.ok(
          FAQ_ITEMS.some((i) => i.keywords.includes(child)),
          `keyword ${child} has items`,
        );
  });

  test('search words are quoted prefix lexemes; operators cannot be injected', () => {
    assert.deepEqual(searchWords("Typh & !cvar | (x:*) o'brien"), ['typh', 'cvar', 'x', 'o', 'brien']);
    assert.equal(tsQueryOf(['typh', 'cvar'], '&'), "'typh':* & 'cvar':*");
  });
});

describe('FAQ API', () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    const seeded = await s.app.services.faq.seed();
    assert.equal(seeded.items, FAQ_ITEMS.length);
    // Idempotent: a second seed finds the content current and writes nothing.
    assert.equal((await s.app.services.faq.seed()).changed, false);
    token = (await registerAndLogin(s.api)).token;
  });
  after(async () => s?.close());

  test('seeding twice keeps one row per item and keyword', async () => {
    const items = await s.db
      .selectFrom('faq_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(items.n), FAQ_ITEMS.length);
    const kws = await s.db
      .selectFrom('faq_keywords')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(
      Number(kws.n),
      FAQ_CATEGORIES.reduce((n, c) => n + 1 + c.children.length, 0),
    );
  });

  test('a start-up seed repairs an edited built-in item (insert or update by key)', async () => {
    await s.db.updateTable('faq_items').set({ title: 'Edited by hand' }).where('key', '=', 'metric-cvar').execute();
    assert.equal((await s.app.services.faq.seed()).changed, true);
    const row = await s.db.selectFrom('faq_items').select('title').where('key', '=', 'metric-cvar').executeTakeFirstOrThrow();
    assert.equal(row.title, 'What is the 20-year expected loss?');
  });

  test('keyword list: categories in order with their children, without a token', async () => {
    const r = await s.api.get('/api/v2/faq_keywords/');
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body,
      FAQ_CATEGORIES.map((c) => ({ name: c.name, children: c.children })),
    );
  });

  test('search ranks a title match first and finds items by words only in their answers', async () => {
    const r = await s.api.get('/api/v2/faq_search/?search=' + encodeURIComponent('climate value at risk'));
    assert.equal(r.status, 200);
    assert.ok(r.body.count >= 1);
    assert.equal(r.body.results[0].key, 'metric-cvar');
    for (let i = 1; i < r.body.results.length; i++) assert.ok(r.body.results[i - 1].rank >= r.body.results[i].rank, 'ranked');
    const first = r.body.results[0];
    assert.deepEqual(Object.keys(first).sort(), ['attachments', 'content', 'id', 'key', 'keywords', 'rank', 'title']);
    assert.ok(Array.isArray(first.attachments));
    // "Kalnay" appears in no title, only in answers.
    const body = await s.api.get('/api/v2/faq_search/?search=Kalnay');
    assert.equal(body.status, 200);
    assert.ok(body.body.results.length >= 1);
    for (const hit of body.body.results) assert.doesNotMatch(hit.title, /kalnay/i);
    assert.ok(body.body.results.some((h: { key: string }) => h.key === 'data-sources'));
  });

  test('prefix matching and stemming: "typh" finds the typhoon answers, "floods" finds flood', async () => {
    const r = await s.api.get('/api/v2/faq_search/?search=typh');
    assert.equal(r.status, 200);
    assert.ok(r.body.results.some((h: { key: string }) => h.key === 'hazard-typhoon'));
    assert.match(r.body.results[0].title, /typhoon/i);
    const f = await s.api.get('/api/v2/faq_search/?search=floods');
    assert.ok(f.body.results.some((h: { key: string }) => h.key === 'hazard-river-flood'));
    const two = await s.api.get('/api/v2/faq_search/?search=' + encodeURIComponent('authenticator phone'));
    assert.equal(two.body.results[0].key, 'account-2fa-lost');
  });

  test('all words first, any word when nothing has them all; nothing for unknown words', async () => {
    const any = await s.api.get('/api/v2/faq_search/?search=' + encodeURIComponent('wildfire xyzzyplugh'));
    assert.equal(any.status, 200);
    assert.ok(any.body.results.some((h: { key: string }) => h.key === 'hazard-wildfire'));
    const none = await s.api.get('/api/v2/faq_search/?search=xyzzyplugh');
    assert.deepEqual(none.body, { count: 0, results: [] });
    // Punctuation only and tsquery operators are harmless.
    const ops = await s.api.get('/api/v2/faq_search/?search=' + encodeURIComponent("&|!():*'"));
    assert.deepEqual(ops.body, { count: 0, results: [] });
    const inj = await s.api.get('/api/v2/faq_search/?search=' + encodeURIComponent("cvar') | ('x"));
    assert.equal(inj.status, 200);
  });

  test('keyword items: a child keyword, a category (includes its children), case-insensitive; token optional', async () => {
    const child = await s.api.post('/api/v2/keyword_help_v2/', { json: { keywords: ['Two-factor authentication'] } });
    assert.equal(child.status, 200);
    const expected = FAQ_ITEMS.filter((i) => i.keywords.includes('Two-factor authentication')).map((i) => i.key);
    assert.deepEqual(
      child.body.map((i: { key: string }) => i.key),
      expected,
    );
    const cat = await s.api.post('/api/v2/keyword_help_v2/', { json: { keywords: ['hazards'] }, token });
    assert.equal(cat.status, 200);
    const hazards = FAQ_CATEGORIES.find((c) => c.name === 'Hazards')!;
    const want = FAQ_ITEMS.filter((i) => i.keywords.some((k) => k === 'Hazards' || hazards.children.includes(k)));
    assert.equal(cat.body.length, want.length);
    assert.ok(cat.body.every((i: { content: string; title: string }) => i.title && i.content.startsWith('<')));
    const img = await s.api.post('/api/v2/keyword_help_v2/', { json: { keywords: ['Scores and bands'] } });
    assert.ok(img.body.some((i: { attachments: string[] }) => i.attachments.includes('/documents/faq/climate-score-bands.svg')));
  });

  test('auth optional: no token and a valid token answer the same; an invalid token is refused', async () => {
    const anon = await s.api.get('/api/v2/faq_search/?search=cvar');
    const signed = await s.api.get('/api/v2/faq_search/?search=cvar', { token });
    assert.equal(anon.status, 200);
    assert.deepEqual(signed.body, anon.body);
    const bad = await s.api.get('/api/v2/faq_search/?search=cvar', { token: 'x'.repeat(40) });
    assert.equal(bad.status, 401);
    assert.match(bad.body.detail, /token/i);
    assert.equal((await s.api.get('/api/v2/faq_keywords/', { token })).status, 200);
  });

  test('bad input: 400 naming the field', async () => {
    const missing = await s.api.get('/api/v2/faq_search/');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors[0].field, 'search');
    const empty = await s.api.get('/api/v2/faq_search/?search=%20%20');
    assert.equal(empty.status, 400);
    assert.match(empty.body.detail, /search/);
    const long = await s.api.get('/api/v2/faq_search/?search=' + 'a'.repeat(201));
    assert.equal(long.status, 400);
    assert.equal(long.body.errors[0].field, 'search');
    for (const body of [{}, { keywords: [] }, { keywords: 'Floods' }, { keywords: [''] }, { keywords: [3] }, { keywords: Array(21).fill('Floods') }]) {
      const r = await s.api.post('/api/v2/keyword_help_v2/', { json: body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.errors[0].field, /^keywords/, JSON.stringify(r.body));
      assert.match(r.body.detail, /keywords/);
    }
    const unknown = await s.api.post('/api/v2/keyword_help_v2/', { json: { keywords: ['No such keyword'] } });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /No such keyword/);
  });

  test('hostile HTML is stripped on write and on read', async () => {
    await s.app.services.faq.upsertItem(
      {
        key: 'test-hostile',
        title: 'Hostile zzquux item',
        content: HOSTILE,
        keywords: ['API access'],
        attachments: ['javascript:alert(1)', '/documents/faq/severity-bands.svg', 'data:image/png;base64,AA', 'https://img.example/a.png'],
      },
      999,
      'test',
    );
    const stored = await s.db.selectFrom('faq_items').select(['content', 'content_text']).where('key', '=', 'test-hostile').executeTakeFirstOrThrow();
    assertSafe(stored.content);
    assert.doesNotMatch(stored.content_text, /alert|display:none/);
    // A row written around the service (e.g. by hand in SQL) is still sanitised when answered.
    await s.db
      .updateTable('faq_items')
      .set({ content: HOSTILE + '<p>zzquux</p>' })
      .where('key', '=', 'test-hostile')
      .execute();
    const r = await s.api.get('/api/v2/faq_search/?search=zzquux');
    assert.equal(r.status, 200);
    const hit = r.body.results.find((h: { key: string }) => h.key === 'test-hostile');
    assert.ok(hit);
    assertSafe(hit.content);
    assert.match(hit.content, /<strong>answer<\/strong>/, 'allowed markup kept');
    assert.match(hit.content, /<a href="https:\/\/ok.example\/a" target="_blank" rel="noopener noreferrer">ok<\/a>/);
    assert.match(hit.content, /<img src="\/documents\/faq\/severity-bands.svg" alt="bands">/);
    assert.deepEqual(hit.attachments, ['/documents/faq/severity-bands.svg', 'https://img.example/a.png']);
    // Re-seeding keeps items of other sources.
    await s.app.services.faq.seed();
    assert.ok(await s.db.selectFrom('faq_items').select('id').where('key', '=', 'test-hostile').executeTakeFirst());
  });
});
