import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryPopulation, gdpPerCapita, populationWithin } from '../src/index.js';

test('GDP per capita: latest World Bank year per ISO3 country; aggregates and unknown codes are null', () => {
  assert.deepEqual(gdpPerCapita('HKG')?.usd, 50696.59);
  assert.equal(gdpPerCapita('hkg')?.year, 2023);
  assert.equal(gdpPerCapita('WLD'), null, 'World Bank aggregates are dropped');
  assert.equal(gdpPerCapita(null), null);
});

test('population within a radius grows with the radius and counts no city sections (PPLX)', () => {
  const near = populationWithin(22.2819, 114.1585, 2);
  const far = populationWithin(22.2819, 114.1585, 10);
  assert.ok(near.places >= 1 && far.places > near.places, JSON.stringify({ near, far }));
  assert.ok(far.population > near.population);
  assert.equal(far.largest?.name, 'Hong Kong');
  assert.deepEqual(populationWithin(0, -30, 20), { population: 0, places: 0, largest: null, capped: false }); // mid-Atlantic
});

test('a ring never holds more people than its country: Hong Kong and Kowloon are not added past Hong Kong (issue 37 item 7)', () => {
  // GeoNames: Hong Kong 7.01 M (the whole SAR at one point) and Kowloon 2.02 M (a part of it) 5 km apart
  const hk = populationWithin(22.2819, 114.1585, 10);
  assert.equal(countryPopulation('HK'), 7_536_100, 'World Bank SP.POP.TOTL 2023');
  assert.equal(countryPopulation('hk'), 7_536_100);
  assert.equal(hk.capped, true);
  assert.equal(hk.population, 7_536_100, 'at most the whole of Hong Kong (the sum was 9.04 M)');
  // several real cities of a metropolis are kept: Manila with Makati, Pasay, Caloocan... within 10 km (Metro Manila 13 M)
  const manila = populationWithin(14.58, 120.97, 10);
  assert.equal(manila.capped, false);
  assert.ok(manila.population > 5e6 && manila.population < 14e6, String(manila.population));
  assert.equal(countryPopulation('ZZ'), null);
});
