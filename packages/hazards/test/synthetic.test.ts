/**
 * Synthetic tropical-cyclone tracks (issue 35 item 1): the random walk and the landfall decay of scripts/lib/synthetic.ts
 * against the published algorithm's parameters, and the empirical return levels of build-synthetic.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLandDecay, autocorrelatedUniform, category, LANDFALL_DECAY_V, MAX_SHIFT_INI_DEG, perturbStorm, Rng } from '../scripts/lib/synthetic.js';
import { empiricalReturnLevels } from '../scripts/build-synthetic.js';
import { NB } from '../scripts/lib/typhoon.js';
import { KT, type Fix, type Storm } from '../scripts/lib/tracks.js';

function lag1(x: Float64Array): number {
  const n = x.length;
  let m = 0;
  for (const v of x) m += v / n;
  let num = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    den += (x[i]! - m) ** 2;
    if (i > 0) num += (x[i]! - m) * (x[i - 1]! - m);
  }
  return num / den;
}

test('the autocorrelated series are uniform on [0, 1] with the requested hourly lag-1 autocorrelation', () => {
  for (const ac of [0.5, 0.85]) {
    // the first value is a standard normal scaled like the others (CLIMADA's start); the series from the second on
    const x = autocorrelatedUniform(40001, ac, new Rng(7)).subarray(1);
    let mean = 0,
      lo = 0;
    for (const v of x) {
      assert.ok(v >= 0 && v <= 1);
      mean += v / x.length;
      if (v < 0.25) lo++;
    }
    assert.ok(Math.abs(mean - 0.5) < 0.02, `mean ${mean}`);
    assert.ok(Math.abs(lo / x.length - 0.25) < 0.02, `P(u < 0.25) ${lo / x.length}`);
    assert.ok(Math.abs(lag1(x) - ac) < 0.03, `lag-1 ${lag1(x)} vs ${ac}`);
  }
});

const line = (n: number, v: number, lon0 = 140, dLon = -1): Storm => ({
  id: 'T',
  fixes: Array.from({ length: n }, (_, i): Fix => ({ tH: 6 * i, lat: 15 + 0.3 * i, lon: lon0 + dLon * i, vMs: v, pHpa: 950, rmwKm: NaN })),
});

test('a synthetic member: genesis shifted by at most 0.75°, seeded, spreading along the track, 70° cut', () => {
  const st = line(30, 40);
  const sea = () => false;
  const a = perturbStorm(st, new Rng(1), sea),
    b = perturbStorm(st, new Rng(1), sea),
    c = perturbStorm(st, new Rng(2), sea);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  let maxLast = 0;
  const rng = new Rng(3);
  for (let k = 0; k < 200; k++) {
    const m = perturbStorm(st, rng, sea);
    assert.ok(Math.abs(m.fixes[0]!.lat - 15) <= MAX_SHIFT_INI_DEG + 1e-9 && Math.abs(m.fixes[0]!.lon - 140) <= MAX_SHIFT_INI_DEG + 1e-9);
    assert.equal(m.fixes.length, 30);
    assert.ok(
      m.fixes.every((f) => f.vMs === 40),
      'no land: intensity as recorded',
    );
    maxLast = Math.max(maxLast, Math.hypot(m.fixes[29]!.lat - st.fixes[29]!.lat, m.fixes[29]!.lon - st.fixes[29]!.lon));
  }
  assert.ok(maxLast > 2, `members spread beyond the initial shift by the track's end (${maxLast.toFixed(1)}°)`);
  const north: Storm = { id: 'N', fixes: Array.from({ length: 40 }, (_, i) => ({ tH: 6 * i, lat: 50 + 2 * i, lon: 0, vMs: 30, pHpa: NaN, rmwKm: NaN })) };
  const cut = perturbStorm(north, new Rng(4), sea);
  assert.ok(cut.fixes.length < 40 && Math.abs(cut.fixes[cut.fixes.length - 1]!.lat) > 70);
});

test('landfall decay: exp(−A·x) from the landfall wind by category, then re-intensification at sea', () => {
  // west of 130°E is land; the track moves west 1° (≈ 105 km at 17°N) per 6 h
  const onLand = (_lat: number, lon: number) => lon < 130;
  const st = line(16, 50, 135);
  st.fixes.slice(12).forEach((f) => (f.lon = 130.5 + (f.tH - 72) / 6)); // back to sea after six land fixes
  const fx = st.fixes.map((f) => ({ ...f }));
  applyLandDecay(fx, new Rng(5), onLand);
  assert.equal(category(50), 3); // 97 kt
  const A = LANDFALL_DECAY_V[3]!;
  const seaLand = fx.findIndex((f) => onLand(f.lat, f.lon));
  assert.equal(seaLand, 6);
  assert.ok(fx.slice(0, 6).every((f) => f.vMs === 50));
  let x = 0;
  for (let k = seaLand; k < 12; k++) {
    const d = (p: Fix, q: Fix) =>
      6371.0088 *
      2 *
      Math.asin(
        Math.sqrt(
          Math.sin(((q.lat - p.lat) * Math.PI) / 360) ** 2 +
            Math.cos((p.lat * Math.PI) / 180) * Math.cos((q.lat * Math.PI) / 180) * Math.sin(((q.lon - p.lon) * Math.PI) / 360) ** 2,
        ),
      );
    x += k === seaLand ? d(fx[k - 1]!, fx[k]!) / 2 : d(fx[k - 1]!, fx[k]!);
    assert.ok(Math.abs(fx[k]!.vMs - 50 * Math.exp(-A * x)) < 1e-9, `fix ${k}`);
    assert.ok(Number.isNaN(fx[k]!.pHpa), 'pressure re-derived from the decayed wind');
  }
  // back at sea: 6 + |5·N| kt above the last land wind, and the later fixes keep the recorded shape
  const bump = (fx[12]!.vMs - fx[11]!.vMs) / KT;
  assert.ok(bump >= 6 && bump < 40, `re-intensification ${bump} kt`);
  assert.ok(Math.abs(fx[13]!.vMs - fx[12]!.vMs) < 1e-9);
  // a single land fix is not decayed
  const one = line(6, 50, 131).fixes.map((f) => ({ ...f }));
  applyLandDecay(one, new Rng(6), (_la, lo) => lo < 129.5 && lo > 128.5);
  assert.ok(one.every((f) => f.vMs === 50));
});

test('empirical return levels: the wind exceeded at rate 1/T; 0 where storms are rarer than 1/T', () => {
  const h = new Float32Array(NB);
  h[0] = 0.09; // 17.5-18.5 m/s
  h[20] = 0.009; // 37.5-38.5
  h[40] = 0.001; // 57.5-58.5
  const [v20, v200, v1000, v2000] = empiricalReturnLevels(h, [20, 200, 1000, 2000]);
  // rate of ≥ 17.5 m/s 0.1, of ≥ 18.5 m/s 0.01: the 20-year wind log-linearly between, 17.5 + ln 2 / ln 10
  assert.ok(Math.abs(v20! - (17.5 + Math.LN2 / Math.LN10)) < 1e-3, `${v20}`);
  assert.ok(Math.abs(v200! - (37.5 + Math.LN2 / Math.LN10)) < 1e-3, `${v200}`);
  assert.ok(v1000! > 57.5 && v1000! <= 58.5, `${v1000}`);
  assert.ok(v2000! > v1000!);
  assert.deepEqual(empiricalReturnLevels(h, [5]), [0]);
});
