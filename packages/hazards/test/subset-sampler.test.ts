/**
 * curveSamplerFor (the map tiles' fast path): the slots of the hazards asked are bit for bit those of sampleCurves,
 * at every scenario the maps use, over a world grid and near coasts (where storm surge reads the coast and typhoon).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { newCurveSample, type CurveSample } from '../src/index.js';
import { N_RP } from '../src/types.js';
import { CURVE_INDEX } from '../src/models/common.js';
import { layers, PLACES } from './helpers.js';

const SCENARIOS = [
  { analysisType: 'ssp', scenario: '85', year: 2020 },
  { analysisType: 'ssp', scenario: '85', year: 2050 },
  { analysisType: 'ssp', scenario: '26', year: 2030 },
] as const;

/** Points: a 1.7° x 2.3° world grid (off the cell edges), the helpers' places and dense coastal strips. */
function points(): [number, number][] {
  const out: [number, number][] = [];
  for (let lat = -84.9; lat < 85; lat += 1.7) for (let lng = -179.7; lng < 180; lng += 2.3) out.push([lat, lng]);
  for (const p of Object.values(PLACES)) out.push([p[0], p[1]]);
  // Hong Kong, Manila Bay, Miami: every 0.01° across the shore
  for (const [lat, lng] of [
    [22.28, 114.0],
    [14.58, 120.85],
    [25.77, -80.4],
  ] as const)
    for (let d = 0; d < 0.5; d += 0.01) out.push([lat, lng + d]);
  return out;
}

function same(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

function assertSlots(full: CurveSample, part: CurveSample, key: HazardKey, where: string) {
  const h = HAZARD_KEYS.indexOf(key);
  assert.ok(same(full.values[h]!, part.values[h]!), `${key} value at ${where}: ${full.values[h]} vs ${part.values[h]}`);
  assert.ok(same(full.scores[h]!, part.scores[h]!), `${key} score at ${where}`);
  const ci = CURVE_INDEX[key];
  if (ci !== undefined)
    for (let k = 0; k < N_RP; k++) assert.ok(same(full.curves[ci * N_RP + k]!, part.curves[ci * N_RP + k]!), `${key} curve ${k} at ${where}`);
}

test('curveSamplerFor: the hazards asked equal sampleCurves exactly (the map hazards, and every hazard alone)', () => {
  const l = layers();
  const sets: HazardKey[][] = [['rainfall_flood'], ['storm_surge'], ['wildfire', 'rainfall_flood'], ...HAZARD_KEYS.map((k) => [k])];
  const pts = points();
  let nonZeroSurge = 0;
  for (const sy of SCENARIOS) {
    const ctx = l.resolveScenario(sy);
    for (const set of sets) {
      const sample = l.curveSamplerFor(set);
      const full = newCurveSample(),
        part = newCurveSample();
      for (const [lat, lng] of pts) {
        l.sampleCurves(lat, lng, ctx, full);
        sample(lat, lng, ctx, part);
        for (const key of set) assertSlots(full, part, key, `${lat},${lng} ${sy.scenario}/${sy.year}`);
        if (set[0] === 'storm_surge' && part.values[HAZARD_KEYS.indexOf('storm_surge')]! > 0) nonZeroSurge++;
      }
    }
  }
  // the comparison covered real surge, not only zeros and no data
  assert.ok(nonZeroSurge > 10, `non-zero surge points compared: ${nonZeroSurge}`);
});

test('curveSamplerFor: runs fewer models than sampleCurves (rainfall flood alone is faster)', () => {
  const l = layers();
  const ctx = l.resolveScenario(SCENARIOS[0]);
  const rain = l.curveSamplerFor(['rainfall_flood']);
  const out = newCurveSample();
  const time = (f: (lat: number, lng: number) => void) => {
    const t = performance.now();
    for (let i = 0; i < 200_000; i++) f(-60 + (i % 1200) * 0.1, -180 + ((i * 7) % 3600) * 0.1);
    return performance.now() - t;
  };
  time((a, b) => rain(a, b, ctx, out)); // warm up both paths
  time((a, b) => l.sampleCurves(a, b, ctx, out));
  const part = Math.min(
    time((a, b) => rain(a, b, ctx, out)),
    time((a, b) => rain(a, b, ctx, out)),
  );
  const full = Math.min(
    time((a, b) => l.sampleCurves(a, b, ctx, out)),
    time((a, b) => l.sampleCurves(a, b, ctx, out)),
  );
  assert.ok(part < full, `rainfall flood alone ${part.toFixed(0)} ms vs every hazard ${full.toFixed(0)} ms for 200,000 points`);
});
