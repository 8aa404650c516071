/**
 * The portfolio cyclone event set (src/events/cyclone-events.ts, issue 35 item 2): the synthetic members regenerated at
 * a point give the same exceedance rates as the committed typhoon_rp layer built from them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HAZARD_RETURN_PERIODS_YEARS } from '@crp/contracts';
import { eventWindsAt, loadEventSet } from '../src/events/cyclone-events.js';
import { Rng } from '../src/events/synthetic-tracks.js';
import { cellIndex, GRID_025 } from '../src/layer-format.js';
import { DEFAULT_LAYERS_DIR, loadHazardLayers } from '../src/sampler.js';

test('skipping normals leaves the generator where drawing them would', () => {
  for (const n of [1, 2, 3, 7, 10]) {
    const a = new Rng(99),
      b = new Rng(99);
    a.normal(); // an odd start: a spare is pending
    b.normal();
    for (let i = 0; i < n; i++) a.normal();
    b.skipNormals(n);
    assert.equal(a.normal(), b.normal(), `after ${n}`);
    assert.equal(a.uniform(), b.uniform());
  }
});

test('the events at a 0.5° cell centre give the layer its return levels (Odisha coast, Bay of Bengal)', () => {
  const set = loadEventSet(DEFAULT_LAYERS_DIR);
  const [lat, lon] = [19.75, 85.75]; // a 0.5° centre on the coast south of Puri
  const t0 = Date.now();
  const w = eventWindsAt(set, [{ lat, lon }]);
  const seconds = (Date.now() - t0) / 1000;
  const byWind = w.events.map((e) => ({ v: e.windMs[0]!, r: e.rate })).sort((a, b) => b.v - a.v);
  const levels = HAZARD_RETURN_PERIODS_YEARS.map((T) => {
    let cum = 0;
    for (const x of byWind) if ((cum += x.r) >= 1 / T) return x.v;
    return 0;
  });
  // the 0.25° cells around the centre hold the bilinear mix of this centre (weight 9/16) and its neighbours, in 0.5 m/s steps
  const rp = loadHazardLayers().layer('typhoon_rp')!.data as Uint8Array;
  const around = [
    [lat + 0.125, lon - 0.125],
    [lat + 0.125, lon + 0.125],
    [lat - 0.125, lon - 0.125],
    [lat - 0.125, lon + 0.125],
  ].map(([a, b]) => cellIndex(GRID_025, a!, b!));
  console.log(`events ${w.events.length} in ${seconds.toFixed(1)} s; levels ${levels.map((v) => v.toFixed(1)).join(' ')}`);
  HAZARD_RETURN_PERIODS_YEARS.forEach((T, k) => {
    if (T < 10 || T > 500) return; // the 2- and 5-year winds are near the 17.5 m/s floor, the 1,000-year one rests on ten events
    const layer = around.map((c) => rp[c * HAZARD_RETURN_PERIODS_YEARS.length + k]! * 0.5);
    const lo = Math.min(...layer) - 2,
      hi = Math.max(...layer) + 2;
    assert.ok(levels[k]! >= lo && levels[k]! <= hi, `${T}-year wind ${levels[k]!.toFixed(1)} m/s, layer ${layer.join(', ')}`);
  });
});
