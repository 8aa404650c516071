import { test } from 'node:test';
import assert from 'node:assert/strict';
import { severityBand, climateScoreLevel } from '@crp/contracts';
import {
  cvarWindow,
  cvarFromSeries,
  interpolateSeries,
  keyFindings,
  technicalPremium,
  INSURABLE_HAZARDS,
  acuteScore,
  chronicScore,
  hazardScore,
  gdpGrowthFactor,
  hazardScoreFast,
  SCENARIO_YEARS,
  seriesIndices,
  resolveMeasure,
  defaultMeasure,
  applyDamage,
  applyIntensity,
  mitigationLevelOf,
} from '../src/index.js';

const close = (a: number, b: number, tol = 1e-9, msg = '') => assert.ok(Math.abs(a - b) <= tol, `${msg} ${a} vs ${b}`);

test('scenario grid: baseline + 9 RCP + 48 SSP scenario-years', () => {
  assert.equal(SCENARIO_YEARS.length, 58);
  assert.equal(SCENARIO_YEARS[0]!.key, 'baseline_2020');
  assert.deepEqual(seriesIndices('rcp', '85').years, [2020, 2030, 2050]);
  assert.equal(seriesIndices('ssp', '26').years[0], 2020);
  assert.equal(seriesIndices('ssp', '26').indices[0], 0);
  assert.equal(seriesIndices('ssp', '26').years.length, 17);
});

test('CVaR window: year-9..year+10, 2100: year-19..year; linear interpolation, flat extrapolation', () => {
  assert.deepEqual(cvarWindow(2050), { from: 2041, to: 2060 });
  assert.deepEqual(cvarWindow(2100), { from: 2081, to: 2100 });
  close(interpolateSeries([2020, 2030], [10, 20], 2025), 15);
  close(interpolateSeries([2020, 2030], [10, 20], 2040), 20);
  close(interpolateSeries([2020, 2030], [Number.NaN, 20], 2020), 20);
  // constant loss 100/yr -> 20 years = 2000
  close(cvarFromSeries([2020, 2050], [100, 100], 2030), 2000);
  // linear 2020:0 -> 2040:200 (10/yr): window 2021..2040 sums 10+20+..+200 = 2100
  close(cvarFromSeries([2020, 2040], [0, 200], 2030), 2100);
  close(cvarFromSeries([2020, 2050], [100, 100], 2030, 500), 500);
  // years before 2020 use 2020
  close(cvarFromSeries([2020, 2030], [100, 100], 2020), 2000);
});

test('key findings: value of transition policies and increases', () => {
  const cv = (s: string, y: number) => (s === '85' ? 100 + (y - 2020) : 100 + (y - 2020) / 2);
  const k = keyFindings(cv, 'ssp', '85', 2050);
  close(k.cvar_85, 130);
  close(k.cvar_26, 115);
  close(k.value_of_transition_policies, 15);
  // baseline = the 2020 climate over the window = cvarAt(scenario, 2010) = 90
  close(k.increased_by_2030!, (100 * 20) / 90);
  close(k.increased_by_2050!, (100 * 40) / 90);
  close(k.increased_by_2100!, (100 * 90) / 90);
  assert.equal(keyFindings(cv, 'rcp', '85', 2050).increased_by_2100, null);
});

test('scores: physrisk breakpoints on the product bands, monotone; contracts bands', () => {
  assert.equal(acuteScore(0), 0);
  assert.ok(Number.isNaN(acuteScore(Number.NaN)));
  close(acuteScore(1e-4), 20);
  close(acuteScore(2e-3), 40);
  close(acuteScore(1e-2), 60);
  close(acuteScore(5e-2), 80);
  close(acuteScore(0.25), 100);
  close(chronicScore(1e-2), 40);
  close(chronicScore(0.1), 80);
  let p = 0;
  for (let e = -9; e <= 0; e += 0.01) {
    const s = hazardScore(10 ** e, 0);
    assert.ok(s >= p && s <= 100);
    p = s;
  }
  assert.equal(severityBand(Math.round(acuteScore(0))), 'No Risk');
  assert.equal(climateScoreLevel(acuteScore(5e-5)), 'low');
  assert.equal(climateScoreLevel(acuteScore(1e-2)), 'high');
});

test('technical premium: 1.3 x insurable EAL / (1 - 0.25); chronic heat, drought and sea-level rise are not insurable', () => {
  close(technicalPremium(1000), (1.3 * 1000) / 0.75);
  close(technicalPremium(1000, 0, 0), 1000);
  assert.equal(technicalPremium(Number.NaN), 0);
  assert.deepEqual([...INSURABLE_HAZARDS].sort(), [
    'extreme_cold',
    'landslide',
    'rainfall_flood',
    'river_flood',
    'snowfall',
    'storm_surge',
    'typhoon',
    'wildfire',
  ]);
});

test('GDP growth factor: 1 at 2020/baseline, increasing, SSP5 > SSP1 by 2100', () => {
  assert.equal(gdpGrowthFactor(null, 2050), 1);
  assert.equal(gdpGrowthFactor('85', 2020), 1);
  close(gdpGrowthFactor('45', 2050), 2.2, 1e-9);
  close(gdpGrowthFactor('85', 2100), 8.3, 1e-9);
  assert.ok(gdpGrowthFactor('85', 2100) > gdpGrowthFactor('26', 2100));
});

test('adaptation measures never raise damage', () => {
  assert.equal(mitigationLevelOf('High'), 3);
  assert.equal(mitigationLevelOf(null), 0);
  assert.equal(mitigationLevelOf('2'), 2);
  assert.equal(mitigationLevelOf(9), 3);
  const bad = resolveMeasure({ intensityScale: 2, intensityReduction: -1, damageScale: 3, damageShift: 0.5 });
  assert.equal(bad.active, false);
  for (const h of ['river_flood', 'typhoon', 'wildfire', 'drought'] as const)
    for (const lvl of [1, 2, 3] as const) {
      const m = resolveMeasure(defaultMeasure(h, lvl));
      for (let x = 0; x < 5; x += 0.1) {
        assert.ok(applyIntensity(m, x) <= x);
        assert.ok(applyDamage(m, Math.min(1, x / 5)) <= Math.min(1, x / 5));
      }
    }
});

test('score lookup table agrees with the exact score (rounded), 255 for no data', () => {
  for (let e = -9; e <= 0.5; e += 0.003) {
    const r = 10 ** e;
    for (const bi of [0, r / 3, r * 2]) {
      const exact = Math.round(hazardScore(r, bi));
      const fast = hazardScoreFast(r, bi);
      assert.ok(Math.abs(exact - fast) <= 1, `${r} ${bi}: ${exact} vs ${fast}`);
    }
  }
  assert.equal(hazardScoreFast(0, 0), 0);
  assert.equal(hazardScoreFast(Number.NaN, 0), 255);
  assert.equal(hazardScoreFast(1e-12, 0), 1);
});
