import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GeoQueryError, indexMembers, listIndices, reverseGeocode, searchCompanies } from '../src/index.js';

test('company search: Tencent is 0700.HK in the HSI, placed at its listing city and flagged approximate', () => {
  const r = searchCompanies('Tencent');
  assert.equal(r[0]!.ticker, '0700.HK');
  assert.equal(r[0]!.index, 'HSI');
  assert.ok(r[0]!.indices.includes('HSI'));
  assert.equal(r[0]!.approximate, true);
  assert.equal(r[0]!.location_basis, 'listing exchange city');
  assert.equal(reverseGeocode(r[0]!.latitude, r[0]!.longitude).country_code, 'HK');
  assert.equal(searchCompanies('tencnet')[0]!.ticker, '0700.HK'); // typo
  assert.equal(searchCompanies('700')[0]!.ticker, '0700.HK'); // code
  assert.equal(searchCompanies('0700.hk')[0]!.ticker, '0700.HK');
});

test('company search: Apple is AAPL in the S&P 500 at its headquarters city (Cupertino)', () => {
  const a = searchCompanies('Apple')[0]!;
  assert.equal(a.ticker, 'AAPL');
  assert.ok(a.indices.includes('S&P 500'));
  assert.equal(a.approximate, false);
  assert.equal(a.location_basis, 'headquarters city');
  assert.equal(a.address_data[0]!.address, 'Cupertino, California');
  const rg = reverseGeocode(a.latitude, a.longitude);
  assert.equal(rg.country_code, 'US');
  assert.equal(rg.region, 'California');
  assert.equal(searchCompanies('AAPL')[0]!.ticker, 'AAPL');
});

test('company search: names need more than 3 characters, tickers may be shorter; limit and index filter', () => {
  assert.deepEqual(
    searchCompanies('app').filter((h) => h.company_name.toLowerCase().startsWith('app') && !h.ticker.startsWith('APP')),
    [],
  );
  assert.equal(searchCompanies('V')[0]!.ticker, 'V');
  assert.throws(
    () => searchCompanies('  '),
    (e: unknown) => e instanceof GeoQueryError && e.code === 'query_too_short',
  );
  assert.ok(searchCompanies('bank').length > 5);
  assert.equal(searchCompanies('bank', { limit: 3 }).length, 3);
  const hk = searchCompanies('bank', { index: 'hsi' });
  assert.ok(hk.length >= 1 && hk.every((h) => h.index === 'HSI' && h.indices.includes('HSI')));
  assert.throws(
    () => searchCompanies('bank', { index: 'NOPE 42' }),
    (e: unknown) => e instanceof GeoQueryError && e.code === 'unknown_index',
  );
});

test('indices: HSI is listed first as the default, with every staged index', () => {
  const l = listIndices();
  assert.equal(l[0]!.index_name, 'HSI');
  assert.equal(l[0]!.default, true);
  assert.equal(l.filter((x) => x.default).length, 1);
  const names = l.map((x) => x.index_name);
  for (const n of ['S&P 500', 'FTSE 100', 'DAX', 'EURO STOXX 50', 'CAC 40', 'CSI 300', 'STI', 'ASX 200']) assert.ok(names.includes(n), n);
  assert.equal(l.find((x) => x.index_name === 'HSI')!.members, 85);
  assert.equal(indexMembers('HSI').length, 85);
  assert.equal(indexMembers('s&p 500').length, 503);
  assert.throws(() => indexMembers('Nikkei 225'), GeoQueryError);
});

test('every company location comes from the data and is approximate unless it is a headquarters city', () => {
  const bases = new Set(['headquarters city', 'headquarters state, largest city', 'headquarters country capital', 'listing exchange city']);
  let n = 0;
  for (const ix of listIndices()) {
    for (const h of indexMembers(ix.index_name)) {
      n++;
      assert.ok(bases.has(h.location_basis), `${h.ticker}: ${h.location_basis}`);
      assert.equal(h.approximate, h.location_basis !== 'headquarters city', h.ticker);
      assert.ok(Number.isFinite(h.latitude) && Math.abs(h.latitude) <= 90 && Number.isFinite(h.longitude), h.ticker);
      assert.ok(h.address_data[0]!.address.length > 0);
      if (ix.index_name === 'HSI') assert.equal(h.location_basis, 'listing exchange city');
      if (ix.index_name === 'CSI 300') assert.equal(reverseGeocode(h.latitude, h.longitude).country_code, 'CN');
    }
  }
  assert.ok(n > 1500);
  const sp = indexMembers('S&P 500');
  assert.ok(sp.filter((h) => !h.approximate).length >= 480, 'most S&P 500 HQ cities geocode');
});

test('each index names its public source (a repository or package a user can look up), not a path on our disk (issue 37 point 5)', () => {
  for (const ix of listIndices()) {
    assert.doesNotMatch(ix.source, /shared\/data|\/work\/|\.\.\/|\.gz\b/, `${ix.index_name}: ${ix.source}`);
    assert.match(ix.source, /GitHub|PyPI|datahub\.io/, `${ix.index_name}: ${ix.source}`);
  }
});
