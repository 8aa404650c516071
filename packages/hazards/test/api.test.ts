import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hazardPoint, parseHazardPointQuery, HazardQueryError } from '../src/index.js';
import { layers } from './helpers.js';

const fieldsOf = (q: Record<string, string>) => {
  try {
    parseHazardPointQuery(q);
    return [];
  } catch (e) {
    assert.ok(e instanceof HazardQueryError);
    assert.equal(e.status, 400);
    return e.errors.map((x) => x.field);
  }
};

test('point query errors name the field', () => {
  const ok = { latitude: '22.3', longitude: '114.17', analysis_type: 'ssp', scenario: '85', year: '2050' };
  assert.deepEqual(fieldsOf(ok), []);
  assert.deepEqual(fieldsOf({ ...ok, latitude: '91' }), ['latitude']);
  assert.deepEqual(fieldsOf({ ...ok, longitude: 'abc' }), ['longitude']);
  assert.deepEqual(fieldsOf({ ...ok, analysis_type: 'xyz' }), ['analysis_type']);
  assert.deepEqual(fieldsOf({ ...ok, scenario: '60' }), ['scenario']);
  assert.deepEqual(fieldsOf({ ...ok, year: '2101' }), ['year']);
  assert.deepEqual(fieldsOf({ ...ok, year: '2050.5' }), ['year']);
  assert.deepEqual(fieldsOf({ ...ok, latitude: '-100', scenario: 'x' }).sort(), ['latitude', 'scenario']);
  // only the years each analysis type has (issue 38): RCP 2020/2030/2050, SSP 2020 and 2025-2100 every 5 years
  assert.deepEqual(fieldsOf({ ...ok, analysis_type: 'rcp', year: '2100' }), ['year']);
  assert.deepEqual(fieldsOf({ ...ok, analysis_type: 'rcp', year: '2025' }), ['year']);
  assert.deepEqual(fieldsOf({ ...ok, year: '2031' }), ['year']);
  for (const year of ['2020', '2030', '2050']) assert.deepEqual(fieldsOf({ ...ok, analysis_type: 'rcp', year }), [], `RCP ${year}`);
  for (const year of ['2020', '2025', '2060', '2100']) assert.deepEqual(fieldsOf({ ...ok, year }), [], `SSP ${year}`);
});

test('hazardPoint answers all eleven hazards with the warming level', async () => {
  const r = await hazardPoint({ latitude: '22.3', longitude: '114.17', analysis_type: 'rcp', scenario: '45', year: '2030' }, layers());
  assert.equal(Object.keys(r.hazards).length, 11);
  assert.equal(r.scenario_label, 'RCP 4.5');
  assert.ok(r.warming_level_c > 1.2 && r.warming_level_c < 2);
  await assert.rejects(() => hazardPoint({ latitude: '0', longitude: '200' }, layers()), HazardQueryError);
});
