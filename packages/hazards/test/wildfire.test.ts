/** Wildfire: the Monthly Drought Code, the season plateau, burn rates by biome and the building exposure at the wildland-urban interface. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monthlyDroughtCode, fireSeasonMonths, fireSeasonShape, MDC_HIGH, MDC_EXTREME } from '../scripts/lib/chronic.js';
import { exposureAt, fuelGroupK, intermixEdgeFactor, FUEL_GRASS, FUEL_MOSAIC, FUEL_NONE, FUEL_WOODY } from '../src/models/wildfire.js';
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

test('fire-season factor plateaus: 1 (not 0) when every month is fire season', () => {
  assert.equal(fireSeasonShape(0), 0);
  assert.equal(fireSeasonShape(3), 0.5);
  assert.equal(fireSeasonShape(6), 1);
  assert.equal(fireSeasonShape(12), 1);
  // the committed layer: burnable semi-arid and dry sub-humid land (UNEP aridity 0.2-0.65) with a fire climate of 0 was
  // 29 % of that land with the old 4(m/12)(1 − m/12) shape; 12.4 % remains, land where no month is fire season (no
  // Bagnouls-Gaussen dry month, Monthly Drought Code below 210 with monthly mean temperatures), not the shape
  const l = layers();
  const fuel = l.layer('fuel')!.data,
    fc = l.layer('fire_climate')!,
    ai = l.layer('aridity')!;
  let all = 0,
    zero = 0;
  for (let i = 0; i < fuel.length; i++) {
    if (fuel[i] !== FUEL_WOODY && fuel[i] !== FUEL_GRASS) continue;
    const k05 = Math.floor(i / 18000) * 720 + Math.floor((i % 3600) / 5);
    const a = ai.data[k05 * ai.entry.bands]! * 0.001;
    if (a < 0.2 || a >= 0.65) continue;
    all++;
    if (fc.data[k05 * fc.entry.bands] === 0) zero++;
  }
  assert.ok(zero / all < 0.15, `${((100 * zero) / all).toFixed(1)} % of burnable semi-arid and dry sub-humid land has a fire climate of 0`);
});

/** Mean baseline landscape burn rate over the burnable 0.1° pixels of a 2° box (not the building exposure). */
function boxMean(lat: number, lng: number): number {
  const l = layers();
  const fuel = l.layer('fuel')!.data,
    fc = l.layer('fire_climate')!;
  const K = fuelGroupK(l.params);
  let s = 0,
    c = 0;
  for (let y = lat - 0.95; y < lat + 1; y += 0.1)
    for (let x = lng - 0.95; x < lng + 1; x += 0.1) {
      const i = Math.floor((90 - y) / 0.1) * 3600 + Math.floor((x + 180) / 0.1);
      const k = K[fuel[i]!]!;
      if (!(k > 0)) continue;
      s += Math.min(1, k * fc.data[(Math.floor(i / 18000) * 720 + Math.floor((i % 3600) / 5)) * fc.entry.bands]! * 1e-4);
      c++;
    }
  return c ? s / c : 0;
}

test('wildfire landscape burn rates by biome: tropical savannas 10-50 %/yr, Mediterranean 1-3 %/yr, rainforest ≈ 0', () => {
  // frequently burnt savannas 10-50 %/yr (north Australia 21 %, Russell-Smith et al. 2007)
  for (const [name, lat, lng] of [
    ['Zambia', -13, 27],
    ['N. Australia', -15, 133],
    ['Cerrado', -15, -47],
  ] as const) {
    const p = boxMean(lat, lng);
    assert.ok(p > 0.1 && p < 0.5, `${name}: ${p}`);
  }
  // Mediterranean woody fuel about 1-3 %/yr (0.5-5 % allowed per box)
  for (const [name, lat, lng] of [
    ['Portugal', 40, -8],
    ['Greece', 38.5, 22.5],
    ['S. California', 34.2, -117.8],
  ] as const) {
    const p = boxMean(lat, lng);
    assert.ok(p > 0.005 && p < 0.05, `${name}: ${p}`);
  }
  // wet all year: 0
  for (const [name, lat, lng] of [
    ['Congo', 0.5, 20],
    ['Manaus', -3.1, -60],
    ['Black Forest', 48.3, 8.2],
    ['Sweden', 62, 15],
  ] as const) {
    assert.ok(boxMean(lat, lng) < 0.002, `${name}: ${boxMean(lat, lng)}`);
  }
});

test('wildfire building exposure: a savanna town is not its savanna pixel, the wildland-urban interface is not 0, a city centre far from fuel is 0', () => {
  const l = layers();
  const e = (lat: number, lng: number) => l.samplePoint(lat, lng, BASE_2020).wildfire.value!;
  // tropical savanna towns: a grass fire reaches 40 m into the town (Cohen 2000), far below the landscape rate
  for (const [name, lat, lng] of [
    ['Lusaka', -15.42, 28.28],
    ['Katherine', -14.47, 132.26],
    ['Bossangoa', 6.51, 17.44],
  ] as const) {
    assert.ok(e(lat, lng) < boxMean(lat, lng) / 20, `${name}: exposure ${e(lat, lng)} vs landscape ${boxMean(lat, lng)}`);
  }
  // documented wildland-urban interface burns (hundreds to thousands of homes destroyed): exposure > 0
  for (const [name, lat, lng] of [
    ['Paradise, California (Camp Fire 2018)', 39.76, -121.62],
    ['Santa Rosa, California (Tubbs Fire 2017)', 38.47, -122.74],
    ['Altadena, California (Eaton Fire 2025)', 34.19, -118.13],
    ['Duffy, Canberra (2003)', -35.335, 149.03],
  ] as const) {
    assert.ok(e(lat, lng) > 1e-4 && e(lat, lng) < 0.05, `${name}: ${e(lat, lng)}`);
  }
  // built-up pixels with no burnable neighbour stay 0
  for (const [name, lat, lng] of [
    ['Sydney CBD', -33.87, 151.21],
    ['Los Angeles downtown', 34.05, -118.25],
    ['Paris', 48.86, 2.35],
    ['Cairo', 30.05, 31.24],
  ] as const) {
    assert.equal(l.layer('fuel')!.data[Math.floor((90 - lat) / 0.1) * 3600 + Math.floor((lng + 180) / 0.1)], FUEL_NONE, `${name} is not burnable`);
    assert.equal(e(lat, lng), 0, name);
  }
});

test('exposureAt: neighbours by their reach, mosaic by its natural share, nothing far from fuel', () => {
  const fuel = new Uint8Array(3600 * 3);
  const rate = () => 0.1;
  const i = 3600 + 100; // middle row, at the equator-like latitude 0
  assert.equal(exposureAt(i, 0, 0, fuel, rate), 0);
  fuel[i - 3600] = FUEL_WOODY; // one woody neighbour to the north: 0.35 km / 11.12 km of the pixel within the decay
  assert.ok(Math.abs(exposureAt(i, 0, 0, fuel, rate) - 0.1 * (0.35 / 11.1195)) < 1e-12);
  fuel[i + 1] = FUEL_GRASS; // a grass neighbour to the east adds 0.02 km / 11.12 km
  assert.ok(Math.abs(exposureAt(i, 0, 0, fuel, rate) - 0.1 * (0.35 / 11.1195 + 0.02 / 11.1195)) < 1e-12);
  fuel[i] = FUEL_MOSAIC; // a mosaic adds half the mean intermix exposure of its burnable neighbours
  const mosaic = 0.5 * ((intermixEdgeFactor(FUEL_WOODY) + intermixEdgeFactor(FUEL_GRASS)) / 2) * 0.1;
  assert.ok(Math.abs(exposureAt(i, 0, 0, fuel, rate) - 0.1 * (0.35 / 11.1195 + 0.02 / 11.1195) - mosaic) < 1e-12);
  fuel[i] = FUEL_WOODY; // on a woody pixel: 0.7 / (2 · 2.4) of its own rate
  assert.ok(Math.abs(exposureAt(i, 0, 0, fuel, rate) - 0.1 * (0.7 / 4.8)) < 1e-12);
});
