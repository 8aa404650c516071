import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gdpPerCapita, populationWithin } from '../src/index.js';

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
  assert.deepEqual(populationWithin(0, -30, 20), { population: 0, places: 0, largest: null }); // mid-Atlantic
});
