/**
 * Storm-surge reference points (docs/validation.md, "Sea level and storm surge"): low-lying waterfront land in the most
 * surge-exposed cities gets a non-zero 100-year bathtub depth of a plausible order of magnitude; an inland high city none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layers, SSP85_2050, SSP26_2050, BASE_2020 } from './helpers.js';
import { createCoast } from '../src/models/coast.js';
import { inverseBarometerM, shelfSurgeM, xuSurgeM } from '../src/models/storm-surge.js';
import type { LayerSet } from '../src/types.js';

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
    // Manila Bay (shelf factor 0.65: the bay's 50 km disc reaches the deep South China Sea) floods its 3 m Roxas
    // Boulevard ground only beyond the 100-year storm; the 1000-year depth carries the check there (hazards §3.2).
    const d = name === 'manilaBay' ? s.return_periods!.intensities.at(-1)! : s.value!;
    assert.ok(d >= 0.1 && d <= 8, `${name}: ${name === 'manilaBay' ? '1000' : '100'}-yr depth ${d} m`);
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
  // along a line from the Manila Bay shore inland (east); the 1000-year depth (the 100-year one is 0 at both, above)
  const shore = surge(14.575, 120.982).return_periods!.intensities.at(-1)!;
  const inland = surge(14.575, 121.06).return_periods!.intensities.at(-1)!;
  assert.ok(shore > inland, `shore ${shore} > 8 km inland ${inland}`);
  const hkShore = surge(22.288, 114.212).value!;
  const hkHill = surge(22.26, 114.19).value!; // The Peak / Mount Cameron side of Hong Kong Island
  assert.ok(hkShore >= hkHill);
});

test('storm surge: sea-level rise and stronger storms raise the depth; SSP5-8.5 ≥ SSP1-2.6 in 2050', () => {
  for (const [name, [lat, lng]] of Object.entries(WATERFRONT)) {
    const lo = surge(lat, lng, SSP26_2050).value!,
      hi = surge(lat, lng, SSP85_2050).value!,
      now = surge(lat, lng).value!;
    assert.ok(hi >= lo - 1e-9, `${name}: SSP5-8.5 ${hi} ≥ SSP1-2.6 ${lo}`);
    assert.ok(hi >= now, `${name}: 2050 ${hi} ≥ 2020 ${now}`);
  }
});

test('sea-level rise score measures the rise and the exposure to it (sub-cell coastal elevation in the 10 m LECZ)', () => {
  const l = layers();
  const at = (lat: number, lng: number, year: number, scenario: '26' | '45' | '85' = '85') =>
    l.samplePoint(lat, lng, { analysisType: 'ssp', scenario, year }).sea_level_rise;
  const qb2050 = at(22.288, 114.212, 2050),
    qb2100 = at(22.288, 114.212, 2100),
    qb2020 = at(22.288, 114.212, 2020);
  // no rise yet in 2020: no score whatever the elevation; then the score follows the rise on a waterfront in the LECZ
  assert.equal(qb2020.score, 0);
  assert.ok(qb2050.value! > 0.1 && qb2050.score > 10 && qb2050.score < 40, `Quarry Bay 2050 SLR ${qb2050.value} m, score ${qb2050.score}`);
  assert.ok(qb2100.score > 60 && qb2100.score > qb2050.score, `Quarry Bay 2100 score ${qb2100.score}`);
  assert.ok(at(22.288, 114.212, 2100, '26').score < qb2100.score, 'SSP1-2.6 below SSP5-8.5');
  // the same rise on higher ground scores lower (exposure, not the rise alone)
  const hill = at(22.26, 114.15, 2100);
  if (hill.value !== null) assert.ok(hill.score < qb2100.score, `Peak side ${hill.score} vs waterfront ${qb2100.score}`);
});

test('sea-level rise: the AR6 likely (17-83 %) range is reported beside the median', () => {
  const l = layers();
  for (const [sc, year, lo, hi] of [
    ['45', 2100, 0.44, 0.76],
    ['85', 2100, 0.63, 1.01],
    ['26', 2050, 0.16, 0.25],
  ] as const) {
    // a coast without a qualifying gauge within 100 km carries GMSL plus the ICE-5G GIA rate, which has no standard
    // error: the range is Table 9.9's, less the 2020 level, around the median
    const sy = { analysisType: 'ssp', scenario: sc, year } as const;
    const s = l.samplePoint(31.23, 121.47, sy).sea_level_rise;
    const g = l.resolveScenario(sy).gmslRiseM;
    const r = s.likely_range!;
    assert.ok(r.low < s.value! && s.value! < r.high, `${sc} ${year}: ${r.low} < ${s.value} < ${r.high}`);
    // Table 9.9's likely-to-median ratios are applied to the GMSL rise since 2020
    assert.ok(Math.abs((s.value! - r.low) / g - (1 - lo / medianOf(sc, year))) < 0.02, `${sc} ${year} low`);
    assert.ok(Math.abs((r.high - s.value!) / g - (hi / medianOf(sc, year) - 1)) < 0.02, `${sc} ${year} high`);
  }
  // with a gauge, the local trend's standard error widens the range
  const hk = l.samplePoint(22.45, 114.18, { analysisType: 'ssp', scenario: '85', year: 2100 }).sea_level_rise;
  assert.ok(hk.likely_range && hk.likely_range.high - hk.likely_range.low > 0.3);
});

function medianOf(sc: '26' | '45' | '85', year: number): number {
  return ({ '26': { 2050: 0.19, 2100: 0.44 }, '45': { 2050: 0.2, 2100: 0.56 }, '85': { 2050: 0.23, 2100: 0.77 } } as const)[sc][year as 2050 | 2100];
}

test("storm surge: the built shore holds today's 10-year storm tide (no flooding at 2-10 years in 2020; sea-level rise erodes it)", () => {
  for (const [name, [lat, lng]] of Object.entries(WATERFRONT)) {
    const c = surge(lat, lng).return_periods!.intensities; // RPS 2, 5, 10, 25, …
    assert.equal(c[0], 0, `${name} 2-yr`);
    assert.equal(c[1], 0, `${name} 5-yr`);
    assert.ok(c[2]! < 0.1, `${name} 10-yr ${c[2]} (only the 2020 vs baseline intensity change)`);
  }
  // Manila: high local subsidence (PSMSL) raises the sea by ≈ 0.5 m by 2050 under SSP5-8.5: every flooding storm floods
  // deeper (the 1000-year one: the shelf-scaled 50-year storm stays below its 3 m ground)
  const m2050 = surge(14.575, 120.982, SSP85_2050).return_periods!.intensities;
  const m2020 = surge(14.575, 120.982).return_periods!.intensities;
  assert.ok(m2050[8]! > m2020[8]! + 0.3, `Manila 1000-yr ${m2020[8]} → ${m2050[8]}`);
});

test('storm surge: the wind setup scales with the shelf (narrow island shelves surge less than the US coast Xu fitted)', () => {
  const l = layers();
  const as = (n: string) => {
    const x = l.layer(n);
    return x && { e: x.entry, data: x.data };
  };
  const src = { params: l.params, get: (n: string) => as(n)!, optional: as } as unknown as LayerSet;
  const coast = createCoast(src);
  const shelf = (lat: number, lng: number) => coast.near(lat, lng)!.shelf;
  // the reference coast and shelves as wide: Xu's height unchanged
  for (const [lat, lng] of [
    [29.27, -94.86], // Galveston
    [29.95, -90.07], // New Orleans
    [31.15, 121.8], // Shanghai Pudong
  ] as const)
    assert.equal(shelf(lat, lng), 1, `${lat},${lng}`);
  // steep island shelves (hundreds of metres within a few km): Jagna (Bohol), Kingstown (St Vincent), Mahanoro (Madagascar)
  for (const [lat, lng] of [
    [9.6521, 124.3574],
    [13.1451, -61.2225],
    [-19.9072, 48.7971],
  ] as const)
    assert.ok(shelf(lat, lng) < 0.1, `${lat},${lng}: ${shelf(lat, lng)}`);
  // the inverse barometer is kept: a 60 m/s storm (≈ 85 hPa, Atkinson & Holliday 1977) raises the sea ≈ 0.85 m anyway
  assert.ok(Math.abs(inverseBarometerM(60) - 0.84) < 0.03, `IB ${inverseBarometerM(60)}`);
  const xu = xuSurgeM(60);
  assert.equal(shelfSurgeM(xu, 60, 1), xu);
  assert.ok(Math.abs(shelfSurgeM(xu, 60, 0) - inverseBarometerM(60)) < 1e-9);
  assert.ok(shelfSurgeM(xu, 60, 0.5) > shelfSurgeM(xu, 60, 0.2) && shelfSurgeM(xu, 60, 0.5) < xu);
  assert.equal(shelfSurgeM(0, 20, 0.3), 0, 'no surge below 60 kn');
});
