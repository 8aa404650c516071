/** Wildfire: built-up pixels, the Monthly Drought Code and the fire-prone climates that rain all year. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monthlyDroughtCode, fireSeasonMonths, MDC_HIGH, MDC_EXTREME } from '../scripts/lib/chronic.js';
import { layers, BASE_2020 } from './helpers.js';

test('Monthly Drought Code (Girardin & Wotton 2009) reproduces a hand calculation', () => {
  // one thawed month (July, 20 °C, no rain) after frozen months: DC₀ = 15, Em = 31·(0.36·20 + 6.4) = 421.6,
  // DC_end = 15 + 421.6/2 = 225.8, MDC = (15 + 225.8)/2 = 120.4
  const T = [-5, -5, -5, -5, -5, -5, 20, -5, -5, -5, -5, -5],
    P = new Array(12).fill(0);
  assert.ok(Math.abs(monthlyDroughtCode(T, P, 50)[6]! - 120.4) < 1e-9);
  // 100 mm of rain in that month: Q = 3.937·83 / (800·e^(−15/400)), DC_mr = 120.4 − 400·ln(1 + Q), floored at 0
  const q = (3.937 * 83) / (800 * Math.exp(-15 / 400));
  const end = Math.max(0, 15 + 105.4 - 400 * Math.log(1 + q)) + 105.4;
  P[6] = 100;
  assert.ok(Math.abs(monthlyDroughtCode(T, P, 50)[6]! - (15 + end) / 2) < 1e-9);
  // southern hemisphere: the day-length factors are shifted by six months (January takes July's 6.4)
  const Ts = [20, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5, -5];
  assert.ok(Math.abs(monthlyDroughtCode(Ts, new Array(12).fill(0), -50)[0]! - 120.4) < 1e-9);
  // the fire-season count: a Bagnouls-Gaussen dry month counts 1; otherwise 0 at the high class, 1 at extreme
  assert.equal(MDC_HIGH, 210);
  assert.equal(MDC_EXTREME, 360);
  assert.equal(fireSeasonMonths(new Array(12).fill(25), new Array(12).fill(10), 0), 12);
  assert.equal(fireSeasonMonths(new Array(12).fill(5), new Array(12).fill(200), 50), 0);
});

/** Mean burn probability over the burnable 0.1° pixels of a 2° box. */
function boxMean(lat: number, lng: number): number {
  const l = layers();
  const fuel = l.layer('fuel')!.data;
  let s = 0,
    c = 0;
  for (let y = lat - 0.95; y < lat + 1; y += 0.1)
    for (let x = lng - 0.95; x < lng + 1; x += 0.1) {
      if (!fuel[Math.floor((90 - y) / 0.1) * 3600 + Math.floor((x + 180) / 0.1)]) continue;
      s += l.samplePoint(y, x, BASE_2020).wildfire.value!;
      c++;
    }
  return c ? s / c : 0;
}

test('wildfire: fire-prone climates that rain all year or have a short dry spell are no longer 0, and stay below savannas', () => {
  const savanna = boxMean(-13, 27);
  for (const [name, lat, lng] of [
    ['Canberra/ACT', -35.4, 148.9],
    ['E Victoria', -37.5, 147.5],
    ['Siberian boreal', 60, 100],
    ['Yakutian boreal', 62, 130],
  ] as const) {
    const p = boxMean(lat, lng);
    assert.ok(p > 0.001 && p < savanna / 2, `${name}: ${p} (savanna ${savanna})`);
  }
  // wet all year with no fuel dryness: still 0
  for (const [name, lat, lng] of [
    ['Congo', 0.5, 20],
    ['Manaus', -3.1, -60],
    ['Black Forest', 48.3, 8.2],
    ['Sweden', 62, 15],
  ] as const) {
    assert.ok(boxMean(lat, lng) < 0.002, `${name}: ${boxMean(lat, lng)}`);
  }
});

test("wildfire: built-up pixels (IGBP 13) take built-up land's own rate (0 in FireCCI51), not the vegetation rate around them", () => {
  const l = layers();
  const fuel = l.layer('fuel')!.data;
  // city pixels inside burning landscapes: Hong Kong, Sydney CBD, downtown Los Angeles, Canberra centre
  for (const [name, lat, lng] of [
    ['Hong Kong', 22.3, 114.17],
    ['Sydney CBD', -33.87, 151.21],
    ['Los Angeles downtown', 34.05, -118.25],
  ] as const) {
    assert.equal(fuel[Math.floor((90 - lat) / 0.1) * 3600 + Math.floor((lng + 180) / 0.1)], 0, `${name} is a built-up pixel`);
    assert.equal(l.samplePoint(lat, lng, BASE_2020).wildfire.value, 0, name);
  }
  // while the same 0.5° fire climate burns on the vegetated pixels next to Los Angeles (chaparral of the Santa Monica Mountains)
  assert.ok(l.samplePoint(34.1, -118.75, BASE_2020).wildfire.value! > 0.005);
});
