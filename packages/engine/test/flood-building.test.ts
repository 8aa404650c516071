/**
 * Building flood vulnerability of the portfolio grid (docs/methodology/engine.md §1.1, §1.7): undamageable share,
 * minimum depth, storeys reached, basement, dry bins and the standard of protection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analysePortfolio,
  buildingFloodDamage,
  evalPiecewise,
  defaultFloodProtection,
  eadFromCurve,
  floodExposedShare,
  HAZARD_INDEX,
  jrcCurve,
  prepareAsset,
  SCENARIO_YEARS,
  type AssetInput,
} from '../src/index.js';

const close = (a: number, b: number, tol: number, msg = '') => assert.ok(Math.abs(a - b) <= tol, `${msg} ${a} vs ${b}`);
const jc = jrcCurve('commercial', 'asia');
const J1 = evalPiecewise(jc, 1); // JRC Asia commercial at 1 m (0.538)

test('JRC x (1 - 0.4): a single-storey commercial building at 1 m takes 60 % of the JRC damage', () => {
  close(buildingFloodDamage(jc, 'commercial', 1, { floors: 1, basement: false, plinthM: 0 }), J1 * 0.6, 1e-9);
  // transport, roads and agriculture curves are used as published
  const tc = jrcCurve('transport', 'asia');
  close(buildingFloodDamage(tc, 'transport', 1, { floors: 1, basement: false, plinthM: 0 }), tc.y[tc.x.indexOf(1)] ?? NaN, 1e-9);
});

test('no damage below 0.05 m of water or at the first floor', () => {
  assert.equal(buildingFloodDamage(jc, 'commercial', 0.04, { floors: 1, basement: false, plinthM: 0 }), 0);
  assert.ok(buildingFloodDamage(jc, 'commercial', 0.05, { floors: 1, basement: false, plinthM: 0 }) > 0);
  assert.equal(buildingFloodDamage(jc, 'commercial', 0.5, { floors: 1, basement: false, plinthM: 0.5 }), 0);
  close(buildingFloodDamage(jc, 'commercial', 1.5, { floors: 1, basement: false, plinthM: 0.5 }), J1 * 0.6, 1e-9);
});

test('a multi-storey building loses the storeys the water reaches (and its basement)', () => {
  // 10 storeys of 3.9 m: 1 m of water reaches the ground floor only
  close(floodExposedShare(1, 10, false, 3.9), 0.1, 1e-12);
  close(floodExposedShare(1, 10, true, 3.9), 2 / 11, 1e-12);
  close(floodExposedShare(5, 10, false, 3.9), 0.2, 1e-12);
  assert.equal(floodExposedShare(1, Number.NaN, false, 3.9), 1); // floors unknown: whole building
  assert.equal(floodExposedShare(50, 10, true, 3.9), 1);
  close(buildingFloodDamage(jc, 'commercial', 1, { floors: 10, basement: false, plinthM: 0 }), J1 * 0.6 * 0.1, 1e-9);
  // more water never does less damage
  let prev = 0;
  for (let d = 0; d <= 40; d += 0.01) {
    const v = buildingFloodDamage(jc, 'commercial', d, { floors: 12, basement: true, plinthM: 0.3 });
    assert.ok(v >= prev - 1e-12, `non-monotone at ${d}`);
    prev = v;
  }
});

test('the portfolio grid applies storeys and basement from the asset (floors, basement)', () => {
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const depth = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5, 1.8, 2.0];
  const run = (a: AssetInput) =>
    analysePortfolio([a], (_s, as, s, e) => as.slice(s, e).map(() => ({ river_flood: { returnPeriodsYears: rps, intensities: depth } })), {
      scenarioYears: [SCENARIO_YEARS[0]!],
    }).chunks[0]!.ead[HAZARD_INDEX.river_flood]!;
  const one = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1 });
  const ten = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1, floors: 10 });
  const tenB = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1, floors: 10, basement: 'yes' });
  close(ten, one / 10, 1e-6);
  close(tenB, (one * 2) / 11, 1e-6);
  const ref = eadFromCurve(rps, depth, (d) => buildingFloodDamage(jc, 'commercial', d, { floors: 1, basement: false, plinthM: 0 })).mean;
  close(one, ref, 1e-6);
});

test('a bin dry at its frequent end counts as physrisk counts it: the mean of its edge damages', () => {
  const rps = [2, 10, 100];
  const dry = eadFromCurve(rps, [0, 1, 2], (d) => (d > 0 ? d / 4 : 0)).mean;
  // bins: 2-10: (0.5 - 0.1)(0 + 0.25)/2; 10-100: (0.1 - 0.01)(0.25 + 0.5)/2; tail 0.01 x 0.5 (issue 34)
  close(dry, 0.4 * 0.125 + 0.09 * 0.375 + 0.005, 1e-12);
});

test('standard of protection: events more frequent than the standard do no damage', () => {
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const depth = [0.5, 0.8, 1.0, 1.3, 1.5, 1.8, 2.2, 2.5, 2.8];
  const run = (a: AssetInput) =>
    analysePortfolio(
      [a],
      (_s, as, s, e) =>
        as
          .slice(s, e)
          .map(() => ({ river_flood: { returnPeriodsYears: rps, intensities: depth }, storm_surge: { returnPeriodsYears: rps, intensities: depth } })),
      { scenarioYears: [SCENARIO_YEARS[0]!] },
    ).chunks[0]!;
  const v = (d: number) => buildingFloodDamage(jc, 'commercial', d, { floors: 1, basement: false, plinthM: 0 });
  const none = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1 });
  const own100 = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 100 });
  close(none.ead[HAZARD_INDEX.river_flood]!, eadFromCurve(rps, depth, v).mean, 1e-6);
  close(own100.ead[HAZARD_INDEX.river_flood]!, eadFromCurve(rps, depth, v, { protectionRpYears: 100 }).mean, 1e-6);
  assert.ok(own100.ead[HAZARD_INDEX.river_flood]! < none.ead[HAZARD_INDEX.river_flood]! / 5);
  // the Netherlands' dike-ring standards: 1,250 years river, 4,000 years coast, beyond the curve's 1,000 years: only the
  // excess of rarer events over the design level passes (ead.ts beyondStandard), far below the old constant tail
  const je = jrcCurve('commercial', 'europe');
  const ve = (d: number) => buildingFloodDamage(je, 'commercial', d, { floors: 1, basement: false, plinthM: 0 });
  const nl = run({ latitude: 51.95, longitude: 4.14, country_code: 'NL', type: 'Office' });
  close(nl.ead[HAZARD_INDEX.storm_surge]!, eadFromCurve(rps, depth, ve, { protectionRpYears: 4000 }).mean, 1e-7);
  close(nl.ead[HAZARD_INDEX.river_flood]!, eadFromCurve(rps, depth, ve, { protectionRpYears: 1250 }).mean, 1e-7);
  assert.ok(nl.ead[HAZARD_INDEX.river_flood]! > 0 && nl.ead[HAZARD_INDEX.river_flood]! < ((1 / 1250) * ve(2.8)) / 3);
});

test('default protection: place standards, then the income group of the country', () => {
  assert.equal(defaultFloodProtection(51.92, 4.48, 'NL').coastal, 4000);
  assert.equal(defaultFloodProtection(51.5, -0.1, 'GB').coastal, 1000);
  assert.equal(defaultFloodProtection(31.23, 121.47, 'CN').river, 1000);
  assert.equal(defaultFloodProtection(22.28, 114.16, 'HK').rainfall, 50);
  assert.equal(defaultFloodProtection(22.54, 114.06, 'CN').rainfall, 10); // Shenzhen: upper-middle income, not HK's drainage standard
  assert.equal(defaultFloodProtection(25.77, -80.19, 'US').coastal, 100);
  assert.equal(defaultFloodProtection(23.81, 90.41, 'BD').river, 10);
  assert.equal(defaultFloodProtection(13.51, 2.11, 'NER').river, 2); // Niger: low income
  assert.equal(defaultFloodProtection(0, 0, null).river, 10);
  // the asset's own value wins everywhere
  assert.deepEqual(
    [...prepareAsset({ latitude: 51.92, longitude: 4.48, country_code: 'NL', flood_protection: 20 }).protectionCutP].map((x) => x),
    [1 / 20, Infinity, 1 / 20, 1 / 20],
  );
});

test('tail events: the 1-in-100 and 1-in-250-year damage, after the standard of protection', () => {
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const depth = [0.5, 0.8, 1.0, 1.3, 1.5, 1.8, 2.2, 2.5, 2.8];
  const v = (d: number) => buildingFloodDamage(jc, 'commercial', d, { floors: 1, basement: false, plinthM: 0 });
  const run = (a: AssetInput, extra: Record<string, unknown> = {}) =>
    analysePortfolio([a], (_s, as, s, e) => as.slice(s, e).map(() => ({ river_flood: { returnPeriodsYears: rps, intensities: depth }, ...extra })), {
      scenarioYears: [SCENARIO_YEARS[0]!],
    }).chunks[0]!;
  const none = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1 });
  close(none.tail100[HAZARD_INDEX.river_flood]!, v(1.8), 1e-6);
  close(none.tail250[HAZARD_INDEX.river_flood]!, v(2.2), 1e-6);
  const p200 = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 200 });
  assert.equal(p200.tail100[HAZARD_INDEX.river_flood], 0);
  close(p200.tail250[HAZARD_INDEX.river_flood]!, v(2.2), 1e-6);
  // occurrence hazards: the damage of an event once its annual probability reaches 1/RP
  const fire = run({ latitude: 22.3, longitude: 114.2, type: 'Office', flood_protection: 1 }, { wildfire: 0.005 });
  assert.equal(fire.tail100[HAZARD_INDEX.wildfire], 0);
  close(fire.tail250[HAZARD_INDEX.wildfire]!, 0.3, 1e-6); // an office's destruction given exposure (vulnerability/other.ts)
});
