/** Unit tests of the pure ring / score computation (apps/server/src/modules/realestate/property-risk.ts) on the committed layers. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { haversineKm } from '@crp/geo';
import { loadHazardLayers } from '@crp/hazards';
import { destinationPoint, elevationM, propertyRisk, ringSamples, scenarioYearOf, scoreSites, summariseRing } from '../src/modules/realestate/property-risk.js';

const layers = loadHazardLayers();
const sy = scenarioYearOf('ssp', '85', 2050);

test('ring samples lie in the annulus, on every side, with area weights summing to 1', () => {
  const s = ringSamples(22.28, 114.16, 2, 12);
  assert.equal(s.length, 64);
  for (const p of s) {
    const d = haversineKm(22.28, 114.16, p.lat, p.lng);
    assert.ok(d >= 2 - 1e-6 && d <= 12 + 1e-6, `sample at ${d} km`);
    assert.ok(Math.abs(d - p.radiusKm) < 1e-6);
  }
  assert.ok(Math.abs(s.reduce((n, p) => n + p.weight, 0) - 1) < 1e-9);
  // Outer sub-annuli weigh more (they cover more area): weight proportional to the radius.
  assert.ok(s[63]!.weight > s[0]!.weight * 3);
  assert.ok(
    s.some((p) => p.lat > 22.28 + 0.05) && s.some((p) => p.lat < 22.28 - 0.05) && s.some((p) => p.lng > 114.16 + 0.05) && s.some((p) => p.lng < 114.16 - 0.05),
  );
  assert.throws(() => ringSamples(0, 0, 5, 5), /min_distance/);
  assert.throws(() => ringSamples(0, 0, -1, 5), /min_distance/);
});

test('destination point keeps the distance across the antimeridian', () => {
  const p = destinationPoint(0, 179.99, 10, 90);
  assert.ok(p.lng < -179.8, String(p.lng));
  assert.ok(Math.abs(haversineKm(0, 179.99, p.lat, p.lng) - 10) < 1e-6);
});

test('area-weighted mean, min and max', () => {
  assert.deepEqual(summariseRing([10, 20, 60], [0.5, 0.25, 0.25]), { mean: 25, min: 10, max: 60 });
});

test('point scores are the engine scores the dashboard uses; the ring differs from the point where the hazard varies', () => {
  // Patna, on the Ganges: the river-flood cell of the city is in the floodplain, cells within 10 km are not all. The
  // properties here are unprotected (flood_protection 1) so the ring geometry, not a standard of protection, is tested.
  // (Houston was the example until the river depth became the cell mean over the sub-grid relief, hazards.md §3.4:
  // downtown Houston's cell now reads 0.07 m at 100 years, score 0.)
  const patna = propertyRisk({ name: 'Patna', latitude: 25.59, longitude: 85.14, type: 'Residential', valuation: 1e7, flood_protection: 1 }, 1, 10, layers, sy);
  assert.ok(patna.flood_score >= 75, JSON.stringify(patna)); // measured 89 (river flood) with the layers of 28 Nov 2026
  assert.ok(patna.flood.min_value < patna.flood_score, JSON.stringify(patna.flood));
  assert.notEqual(patna.flood.mean_score, patna.flood_score);
  assert.ok(patna.flood.min_value <= patna.flood.mean_score && patna.flood.mean_score <= patna.flood.max_value);
  // Hong Kong Central: the ring reaches coastal cells with deeper surge and higher scores than the point.
  const hk = propertyRisk(
    { name: 'Central', latitude: 22.2819, longitude: 114.1585, type: 'Residential', valuation: 1e7, flood_protection: 1 },
    1,
    10,
    layers,
    sy,
  );
  assert.ok(hk.flood.max_value > hk.flood_score, JSON.stringify(hk));
  assert.notEqual(hk.flood.mean_score, hk.flood_score);
  assert.ok(hk.typhoon_score > 0 && hk.typhoon_wind_kmh! > 117, JSON.stringify(hk));
  assert.equal(hk.ring_samples, 64);
  // The point score equals the engine's score for the same asset alone (the analysis job's computeChunk).
  const alone = scoreSites(
    { name: 'Central', latitude: 22.2819, longitude: 114.1585, type: 'Residential', valuation: 1e7, flood_protection: 1 },
    [{ lat: 22.2819, lng: 114.1585 }],
    layers,
    sy,
  )[0]!;
  assert.equal(alone.flood, hk.flood_score);
  assert.equal(alone.typhoon, hk.typhoon_score);
});

test('a site with no typhoon exposure scores 0 in its point and its ring; ring bounds are echoed', () => {
  const r = propertyRisk({ name: 'Madrid', latitude: 40.42, longitude: -3.7, type: 'Commercial', valuation: 1e7 }, 0, 5, layers, sy);
  assert.equal(r.typhoon_score, 0);
  assert.deepEqual(r.typhoon, { mean_score: 0, min_value: 0, max_value: 0, min_distance: 0, max_distance: 5 });
});

test('elevation comes from the coastal ETOPO5 tiles, null far inland', () => {
  assert.equal(elevationM(layers, 22.2819, 114.1585), 3);
  assert.equal(elevationM(layers, 47.0, 100.0), null); // Mongolia
});
