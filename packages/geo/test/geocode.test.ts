import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countryOf, detectCountry, forwardGeocode, GeoQueryError, haversineKm, reverseGeocode } from '../src/index.js';

test('reverse: Central, Hong Kong resolves to the Central and Western district', () => {
  const r = reverseGeocode(22.2819, 114.1582);
  assert.equal(r.country_code, 'HK');
  assert.equal(r.country_code3, 'HKG');
  assert.equal(r.district, 'Central and Western');
  assert.equal(r.region, 'Central and Western');
  assert.equal(r.label, `${r.place}, Central and Western, Hong Kong`);
  assert.ok(r.distance_km !== null && r.distance_km < 2);
  // other districts: Tin Hau (Eastern), Sha Tin, Tung Chung (Islands)
  assert.equal(reverseGeocode(22.2818, 114.1925).district, 'Eastern District');
  assert.equal(reverseGeocode(22.3827, 114.1878).district, 'Sha Tin');
  assert.equal(reverseGeocode(22.2879, 113.9424).district, 'Islands');
});

test('reverse: Paris and a London point give "place, region, country"', () => {
  const r = reverseGeocode(48.8566, 2.3522);
  assert.equal(r.place, 'Paris');
  assert.equal(r.country_code, 'FR');
  assert.equal(r.country_code3, 'FRA');
  assert.equal(r.label, 'Paris, Île-de-France, France');
  assert.equal(r.country_match, 'inside');
  assert.equal(r.district, undefined);
  const l = reverseGeocode(51.5074, -0.1278);
  assert.equal(l.country_code, 'GB');
  assert.match(l.label, /, England, United Kingdom$/);
});

test('reverse: off the coast within 50 km keeps the country, further out it is ocean', () => {
  const near = reverseGeocode(38.7, -9.6); // ~20 km off Lisbon
  assert.equal(near.country_code, 'PT');
  assert.equal(near.country_match, 'near_coast');
  assert.equal(countryOf(38.7, -9.6), null);
  assert.equal(countryOf(38.7, -9.6, { nearestWithinKm: 50 })?.country_code, 'PT');
  const far = reverseGeocode(30, -40); // mid Atlantic
  assert.equal(far.country_code, null);
  assert.equal(far.country, null);
  assert.equal(far.country_match, 'none');
  assert.match(far.label, /^Ocean \(near .+\)$/);
  assert.equal(far.name, far.label);
});

test('reverse: the antimeridian and wrapped longitudes', () => {
  assert.equal(reverseGeocode(-16.8, 179.9).country_code, 'FJ');
  assert.equal(reverseGeocode(-16.85, -179.95).country_code, 'FJ');
  assert.equal(reverseGeocode(66.0, -172.0).country_code, 'RU'); // Chukotka coast, west of 180°
  const w = reverseGeocode(22.2819, 114.1582 + 360);
  assert.equal(w.district, 'Central and Western');
  const mid = reverseGeocode(0, 180);
  assert.equal(mid.country_code, null);
  assert.match(mid.label, /^Ocean \(near /);
});

test('reverse: the poles', () => {
  const n = reverseGeocode(90, 0);
  assert.equal(n.country_code, null);
  assert.match(n.label, /^Ocean \(near /);
  const s = reverseGeocode(-90, 0);
  assert.equal(s.country_code, 'AQ');
  assert.equal(s.country, 'Antarctica');
  assert.equal(reverseGeocode(-89.99, 123).country_code, 'AQ');
});

test('reverse: invalid coordinates throw a typed error', () => {
  assert.throws(
    () => reverseGeocode(95.2, 0),
    (e: unknown) => e instanceof GeoQueryError && e.code === 'invalid_coordinates' && /95\.2/.test(e.message),
  );
  assert.throws(() => reverseGeocode(Number.NaN, 0), GeoQueryError);
  assert.throws(() => countryOf(0, Number.POSITIVE_INFINITY), GeoQueryError);
});

test('countryOf: both sides of borders and coasts', () => {
  const cases: [number, number, string | null][] = [
    [48.5734, 7.7521, 'FR'],
    [48.5727, 7.815, 'DE'], // Strasbourg / Kehl across the Rhine
    [46.2044, 6.1432, 'CH'],
    [46.1934, 6.2342, 'FR'], // Geneva / Annemasse
    [31.7619, -106.485, 'US'],
    [31.69, -106.42, 'MX'], // El Paso / Ciudad Juárez
    [42.3314, -83.0458, 'US'],
    [42.3149, -83.0364, 'CA'], // Detroit / Windsor
    [22.543, 114.058, 'CN'],
    [22.5, 114.13, 'HK'],
    [22.19, 113.54, 'MO'], // Shenzhen / Sheung Shui / Macau
    [43.7, 7.27, 'FR'],
    [43.6, 7.3, null], // Nice / 10 km out to sea
    [1.29, 103.85, 'SG'],
    [0, 0, null],
  ];
  for (const [lat, lng, cc] of cases) assert.equal(countryOf(lat, lng)?.country_code ?? null, cc, `${lat},${lng}`);
  assert.deepEqual(countryOf(48.8566, 2.3522), { country_code: 'FR', country_code3: 'FRA', country: 'France' });
});

test('forward: typo-tolerant "Londn" finds London, GB first', () => {
  const r = forwardGeocode('Londn');
  assert.ok(r.length >= 1 && r.length <= 5);
  assert.equal(r[0]!.name, 'London');
  assert.equal(r[0]!.country_code, 'GB');
  assert.equal(r[0]!.match, 'fuzzy');
  assert.ok(haversineKm(r[0]!.lat, r[0]!.lng, 51.5074, -0.1278) < 5);
  assert.equal(forwardGeocode('Manchster')[0]!.label, 'Manchester, England, United Kingdom');
});

test('forward: exact and prefix, ranked by population, with "place, country" narrowing', () => {
  const p = forwardGeocode('Paris');
  assert.equal(p[0]!.country_code, 'FR');
  assert.equal(p[0]!.type, 'place');
  assert.ok(p[0]!.score >= p[1]!.score);
  assert.equal(forwardGeocode('Paris, Texas')[0]!.label, 'Paris, Texas, United States');
  assert.equal(forwardGeocode('Springfield, Illinois')[0]!.label, 'Springfield, Illinois, United States');
  assert.equal(forwardGeocode('Bangkok Thailand')[0]!.country_code, 'TH');
  const pre = forwardGeocode('Frankf');
  assert.equal(pre[0]!.name, 'Frankfurt am Main');
  assert.equal(pre[0]!.match, 'prefix');
  assert.equal(forwardGeocode('São Paulo')[0]!.name, 'São Paulo');
  assert.equal(forwardGeocode('sao paulo')[0]!.name, 'São Paulo');
});

test('forward: a country name is geocoded as the country', () => {
  const v = forwardGeocode('Vietnam');
  assert.equal(v[0]!.type, 'country');
  assert.equal(v[0]!.country_code, 'VN');
  assert.equal(v[0]!.approximate, true);
  assert.equal(forwardGeocode('Viet Nam')[0]!.country_code, 'VN');
  assert.equal(forwardGeocode('UK')[0]!.country_code, 'GB');
  assert.equal(detectCountry("Côte d'Ivoire")?.country_code, 'CI');
  assert.equal(detectCountry('Holland')?.country_code, 'NL');
  assert.equal(detectCountry('Atlantis'), null);
});

test('forward: Hong Kong districts and neighbourhoods, type filter, limit', () => {
  const d = forwardGeocode('Central and Western', { types: ['district'] });
  assert.equal(d[0]!.type, 'district');
  assert.equal(d[0]!.country_code, 'HK');
  const t = forwardGeocode('Tsim Sha Tsui');
  assert.equal(t[0]!.country_code, 'HK');
  assert.ok(forwardGeocode('san', { limit: 3 }).length <= 3);
  assert.ok(forwardGeocode('Georgia', { types: ['region'] }).every((x) => x.type === 'region'));
  assert.equal(forwardGeocode('Georgia')[0]!.type, 'country');
});

test('forward: fewer than 2 characters is a typed error', () => {
  for (const q of ['', ' ', 'a', ' b ', '!']) {
    assert.throws(
      () => forwardGeocode(q),
      (e: unknown) => e instanceof GeoQueryError && e.code === 'query_too_short' && e.status === 400,
    );
  }
  assert.throws(() => forwardGeocode('Paris', { types: ['planet' as never] }), GeoQueryError);
});
