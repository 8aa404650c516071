/**
 * Storm-surge reference points (docs/validation.md, "Sea level and storm surge"): low-lying waterfront land in the most
 * surge-exposed cities gets a non-zero 100-year bathtub depth of a plausible order of magnitude; an inland high city none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layers, SSP85_2050, SSP26_2050, BASE_2020 } from './helpers.js';

type Opts = { analysisType: 'ssp'; scenario: '26' | '45' | '85'; year: number };
const surge = (lat: number, lng: number, o: Opts = BASE_2020) => layers().samplePoint(lat, lng, o).storm_surge;

/** Waterfront reference sites [lat, lng] (low-lying land within ~1-2 km of open water). */
const WATERFRONT = {
  // Quarry Bay, Hong Kong Island: HKO tide gauge of the record Mangkhut (2018) surge, 2.35 m above astronomical tide
  hongKongQuarryBay: [22.288, 114.212],
  // Heng Fa Chuen, flooded by the sea in Hato (2017) and Mangkhut (2018)
  hongKongHengFaChuen: [22.277, 114.24],
  // Roxas Boulevard on Manila Bay (storm-surge overtopping in typhoons, e.g. Nesat 2011)
  manilaBay: [14.575, 120.982],
  // Pudong east coast (Shanghai's low seaward polders, ground 3-4 m above mean sea level)
  shanghaiPudongCoast: [31.15, 121.8],
  miami: [25.77, -80.19],
  newOrleans: [29.95, -90.07],
} as const;

test('storm surge: low-lying waterfronts of Hong Kong, Manila, Shanghai, Miami and New Orleans get a non-zero 100-yr depth', () => {
  for (const [name, [lat, lng]] of Object.entries(WATERFRONT)) {
    const s = surge(lat, lng);
    assert.ok(s.value !== null, `${name}: surge has data`);
    // order of magnitude: observed storm tides at these coasts are 1-8 m (Mangkhut 2.35 m surge at Quarry Bay, Katrina
    // 2005 up to 8.5 m on the Mississippi coast); a bathtub without seawalls can be high but not beyond that.
    assert.ok(s.value! >= 0.1 && s.value! <= 8, `${name}: 100-yr depth ${s.value} m`);
    const c = s.return_periods!.intensities;
    for (let i = 1; i < c.length; i++) assert.ok(c[i]! >= c[i - 1]!, `${name}: curve non-decreasing`);
    assert.ok(c[c.length - 1]! > c[0]!, `${name}: the 1000-yr depth exceeds the 2-yr depth`);
  }
});

test('storm surge: an inland high city and a mountain capital get none', () => {
  const mexico = surge(19.43, -99.13); // 2,240 m, 280 km from the sea
  assert.ok(mexico.value === null || mexico.value === 0, `Mexico City ${mexico.value}`);
  assert.equal(surge(39.9, 116.4).value, 0, 'Beijing: 150 km inland');
  assert.equal(surge(-16.5, -68.15).value, null, 'La Paz: no tracks, no coast');
});

test('storm surge: depth falls with distance inland from the same shore', () => {
  // along a line from the Manila Bay shore inland (east)
  const shore = surge(14.575, 120.982).value!;
  const inland = surge(14.575, 121.06).value!;
  assert.ok(shore > inland, `shore ${shore} > 8 km inland ${inland}`);
  const hkShore = surge(22.288, 114.212).value!;
  const hkHill = surge(22.26, 114.19).value!; // The Peak / Mount Cameron side of Hong Kong Island
  assert.ok(hkShore >= hkHill);
});

test('storm surge: sea-level rise and stronger storms raise the depth; SSP5-8.5 ≥ SSP1-2.6 in 2050', () => {
  for (const [name, [lat, lng]] of Object.entries(WATERFRONT)) {
    const lo = surge(lat, lng, SSP26_2050).value!, hi = surge(lat, lng, SSP85_2050).value!, now = surge(lat, lng).value!;
    assert.ok(hi >= lo - 1e-9, `${name}: SSP5-8.5 ${hi} ≥ SSP1-2.6 ${lo}`);
    assert.ok(hi >= now, `${name}: 2050 ${hi} ≥ 2020 ${now}`);
  }
});

test('sea-level rise score uses the same sub-cell coastal elevation: the waterfront is in the low-elevation coastal zone', () => {
  const s = layers().samplePoint(22.288, 114.212, SSP85_2050).sea_level_rise;
  assert.ok(s.value! > 0.1 && s.score >= 75, `Quarry Bay SLR ${s.value} m, score ${s.score}`);
});

test('storm surge: the built shore holds today\'s 10-year storm tide (no flooding at 2-10 years in 2020; sea-level rise erodes it)', () => {
  for (const [name, [lat, lng]] of Object.entries(WATERFRONT)) {
    const c = surge(lat, lng).return_periods!.intensities; // RPS 2, 5, 10, 25, …
    assert.equal(c[0], 0, `${name} 2-yr`);
    assert.equal(c[1], 0, `${name} 5-yr`);
    assert.ok(c[2]! < 0.1, `${name} 10-yr ${c[2]} (only the 2020 vs baseline intensity change)`);
  }
  // Manila: high local subsidence (PSMSL) raises the sea by ≈ 0.5 m by 2050 under SSP5-8.5: the 10-yr storm floods again
  const m2050 = surge(14.575, 120.982, SSP85_2050).return_periods!.intensities;
  const m2020 = surge(14.575, 120.982).return_periods!.intensities;
  assert.ok(m2050[4]! > m2020[4]! + 0.3, `Manila 50-yr ${m2020[4]} → ${m2050[4]}`);
});
