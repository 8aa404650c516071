/**
 * Rebuilds small regions from the raw data and compares them with the committed layers (reproducibility).
 * Skips cleanly when the raw data (../shared/data or HAZARD_RAW_DIR) is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawDir, rawAvailable } from '../scripts/lib/io.js';
import {
  buildChronicArrays,
  buildLandslide,
  buildTyphoonArrays,
  glcCompleteness,
  landslideCalibration,
  quantise,
  hkoDurationGrowth,
  hkoRainfallStats,
  LANDSLIDE_SCALE,
  winterTasParams,
} from '../scripts/build-layers.js';
import { readRaw } from '../scripts/lib/io.js';
import { loadTerrain, slopeTan } from '../scripts/lib/terrain.js';
import { jtwcWp, type TrackSource } from '../scripts/lib/tracks.js';
import { allSources } from '../scripts/lib/tracks.js';
import { stormFootprint } from '../scripts/lib/typhoon.js';
import { CHRONIC_OFFSETS_C } from '../scripts/lib/chronic.js';
import { buildFineCoast } from '../scripts/lib/coastline.js';
import { buildShelfIndex, coastalTiles } from '../scripts/lib/shelf.js';
import { layers } from './helpers.js';
import { landMasks, restrictEval, syntheticLevels, toQuarterDegree, SYNTH_SEED } from '../scripts/build-synthetic.js';
import { LAYERS_DIR } from '../scripts/build-layers.js';

const dir = rawDir();
const skip = rawAvailable(dir) ? false : `raw data not found in ${dir}`;

function compareRegion(name: string, fresh: ArrayLike<number>, west: number, south: number, east: number, north: number) {
  const l = layers().layer(name)!;
  const { grid, bands } = l.entry;
  let n = 0;
  for (let r = Math.floor((90 - north) / grid.resDeg); r < Math.ceil((90 - south) / grid.resDeg); r++) {
    for (let c = Math.floor((west + 180) / grid.resDeg); c < Math.ceil((east + 180) / grid.resDeg); c++) {
      for (let b = 0; b < bands; b++) {
        const i = (r * grid.width + c) * bands + b;
        assert.equal(fresh[i], l.data[i], `${name} row ${r} col ${c} band ${b}`);
        n++;
      }
    }
  }
  assert.ok(n > 0);
}

test('rebuilding the chronic layers reproduces the committed ones (South China)', { skip }, () => {
  const ch = buildChronicArrays(dir, { west: 100, south: 15, east: 130, north: 50 });
  compareRegion('tas_warm', quantise('int16', ch.warmC, 0.01, 0, -32768), 105, 15, 125, 30);
  compareRegion('aridity', quantise('uint16', ch.aridity, 0.001, 0, null), 105, 15, 125, 30);
  compareRegion('snowfall', quantise('uint16', ch.snowMm, 0.2, 0, null), 100, 35, 130, 50);
  assert.equal(CHRONIC_OFFSETS_C.length, layers().layer('snowfall')!.entry.bands);
});

test('rebuilding the landslide layer reproduces the committed one (Hong Kong, Nepal, Java) and its calibration; winterTas is the Atlas table', { skip }, () => {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const g = glcCompleteness(dir);
  const ls = buildLandslide(dir, t, slopeTan(t), g.factor);
  const q = quantise('uint16', ls, LANDSLIDE_SCALE, 0, null);
  compareRegion('landslide_probability', q, 113.8, 22.1, 114.5, 22.6);
  compareRegion('landslide_probability', q, 83.5, 27.5, 85.5, 28.5);
  compareRegion('landslide_probability', q, 106.5, -7.5, 110, -6.5);
  const committed = layers().params;
  assert.deepEqual(landslideCalibration(dir, ls, g), committed.landslideCalibration);
  assert.deepEqual(winterTasParams(committed.regions.map((r) => r.abbrev)), JSON.parse(JSON.stringify(committed.winterTas)));
});

test('rebuilding the Natural Earth coastline-distance tiles of Hong Kong and Manila reproduces the committed ones', { skip }, () => {
  const tiles = [Math.floor(90 - 22.3) * 360 + Math.floor(114.17 + 180), Math.floor(90 - 14.6) * 360 + Math.floor(120.98 + 180)];
  const fc = buildFineCoast(dir, tiles);
  const idx = layers().layer('coast_fine_tile_index')!.data,
    codes = layers().layer('coast_fine_distance')!.data;
  for (const t of tiles) {
    const a = fc.tileIndex[t]!,
      b = idx[t]!;
    assert.ok(a >= 0 && b >= 0, `tile ${t} stored`);
    for (let i = 0; i < 3600; i++) assert.equal(fc.codes[a * 3600 + i], codes[b * 3600 + i], `tile ${t} cell ${i}`);
  }
});

let sources: TrackSource[] | null = null;
test('rebuilding the historical typhoon layer over the open South China Sea reproduces the committed one', { skip }, () => {
  sources = allSources(dir);
  // open ocean (no land within one 0.5° cell): the historical levels stay there (near land the synthetic set replaces them)
  const bbox = { west: 114, south: 15, east: 119, north: 19.5 }; // ≥ 3σ (144 km) of smoothing around the compared cells
  const ty = buildTyphoonArrays(dir, bbox, sources);
  compareRegion('typhoon_rp', quantise('uint8', ty.rp, 0.5, 0, 255), 116, 17, 117, 17.5);
});

test('rebuilding the synthetic-track levels over Hong Kong reproduces the committed layer (issue 35 item 1)', { skip }, () => {
  const wp = (sources ?? allSources(dir)).filter((s) => s.group === 'WP');
  const box = { west: 113.5, south: 22, east: 114.5, north: 22.5 };
  const m = landMasks(LAYERS_DIR);
  // the 0.5° centres around the compared 0.25° cells
  const r = restrictEval(m.evalIndex, box.west - 0.5, box.south - 0.5, box.east + 0.5, box.north + 0.5);
  const { levels } = syntheticLevels(wp, m.onLand, r.evalIndex, r.nEval, box);
  const committed = layers().layer('typhoon_rp')!.data as Uint8Array;
  const fresh = toQuarterDegree(levels, r.evalIndex, committed, 9);
  compareRegion('typhoon_rp', fresh, box.west, box.south, box.east, box.north);
  const p = layers().params as unknown as { typhoonSynthetic: { seed: number; sources: { group: string; syntheticYears: number; years: number }[] } };
  assert.equal(p.typhoonSynthetic.seed, SYNTH_SEED);
  for (const g of ['WP', 'NA', 'EP', 'NI', 'SH']) {
    const ss = p.typhoonSynthetic.sources.filter((s) => s.group === g);
    assert.ok(ss.reduce((a, s) => a + s.syntheticYears, 0) >= 10000, `${g}: ≥ 10,000 years`);
  }
});

test('Mangkhut (2018) modelled footprint at Waglan Island matches the HKO observation', { skip }, () => {
  const jtwc = (sources ?? []).find((s) => s.key === 'jtwc_wp') ?? jtwcWp(dir);
  // the storm whose track passes within 150 km of Hong Kong on 16 September 2018
  const t16 = Date.UTC(2018, 8, 16, 6) / 3.6e6;
  const storm = jtwc.storms.find((s) => s.fixes.some((f) => Math.abs(f.tH - t16) <= 6 && Math.hypot(f.lat - 22.2, (f.lon - 114.2) * 0.92) < 1.5))!;
  assert.ok(storm, 'Mangkhut found in the JTWC track');
  const fp = stormFootprint(storm, { west: 113, south: 21, east: 116, north: 23.5 });
  const waglan = Math.floor((90 - 22.18) / 0.25) * 1440 + Math.floor((114.3 + 180) / 0.25);
  const v = fp.get(waglan) ?? 0;
  // HKO: max 10-min mean 161 km/h at Waglan Island (≈ 48 m/s as 1-min, ÷ 0.93); hourly mean 158 km/h.
  // JTWC's best-track intensity near Hong Kong was 80 kt (41 m/s, 1-min), below what Waglan measured, and the wind field
  // cannot exceed the best-track maximum: the model underestimates this storm (docs/validation.md). We require the
  // footprint to reach at least 55 % of the observation and 65 % of the best-track maximum, and not to exceed the observation.
  const observed1min = 161 / 3.6 / 0.93;
  const fix = storm.fixes.find((f) => Math.abs(f.tH - t16) < 1)!;
  assert.ok(v >= 0.55 * observed1min && v <= observed1min, `modelled ${v.toFixed(1)} m/s vs observed ≈ ${observed1min.toFixed(1)} m/s`);
  assert.ok(v >= 0.65 * fix.vMs, `modelled ${v.toFixed(1)} vs best-track ${fix.vMs.toFixed(1)}`);
});

test('HKO daily rainfall GEV reproduces the record (1-day maximum 534 mm in 1926 lies between the 100- and 1000-year levels)', { skip }, () => {
  const h = hkoRainfallStats(dir);
  assert.ok(h.years > 120);
  assert.ok(h.rx1[5]! < h.maxObserved1 && h.rx1[8]! > h.maxObserved1 * 0.9, `100-yr ${h.rx1[5]}, 1000-yr ${h.rx1[8]}, max ${h.maxObserved1}`);
  const committed = (layers().params.hko as { rx1Mm: number[] }).rx1Mm;
  h.rx1.forEach((v, i) => assert.ok(Math.abs(v - committed[i]!) < 1e-6));
});

test('HKO D-day rainfall growth by basin response time: rebuilt as committed; the 5-day curve is riverGrowth; longer durations grow less', { skip }, () => {
  const g = hkoDurationGrowth(dir);
  const committed = layers().params as unknown as { riverGrowth: number[]; riverGrowthByDuration: { days: number[]; growth: number[][] } };
  assert.deepEqual(g.days, committed.riverGrowthByDuration.days);
  g.growth.forEach((row, i) => row.forEach((v, k) => assert.ok(Math.abs(v - committed.riverGrowthByDuration.growth[i]![k]!) < 1e-9)));
  g.growth[0]!.forEach((v, k) => assert.ok(Math.abs(v - committed.riverGrowth[k]!) < 1e-9, '5-day curve = riverGrowth'));
  // Q100/Q2: 2.47 at 5 days, 1.72 at 90 days (flatter growth of longer accumulations)
  const q100 = (row: number[]) => row[5]! / row[0]!;
  assert.ok(q100(g.growth.at(-1)!) < q100(g.growth[0]!) - 0.5, `${q100(g.growth.at(-1)!)} vs ${q100(g.growth[0]!)}`);
});

test('rebuilding the shelf wind-setup index reproduces the committed tiles (Visayas, Galveston, Miami) and the reference', { skip }, () => {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const sh = buildShelfIndex(t, coastalTiles(t));
  assert.equal(+sh.refIndexKmPerM.toFixed(4), (layers().params as unknown as { surgeShelf: { refIndexKmPerM: number } }).surgeShelf.refIndexKmPerM);
  const q = quantise('uint8', sh.index, 0.05, 0, 255);
  const idx = layers().layer('coast_tile_index')!.data,
    codes = layers().layer('coast_shelf_index')!.data;
  for (const [lat, lng] of [
    [11.15, 123.72],
    [29.27, -94.86],
    [25.77, -80.19],
  ] as const) {
    const ti = idx[Math.floor(90 - lat) * 360 + Math.floor(lng + 180)]!;
    assert.ok(ti >= 0, `tile at ${lat},${lng}`);
    for (let i = 0; i < 144; i++) assert.equal(q[ti * 144 + i], codes[ti * 144 + i], `${lat},${lng} cell ${i}`);
  }
});
