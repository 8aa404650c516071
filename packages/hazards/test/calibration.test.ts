/** Calibration targets reproduced by the committed layers (wildfire burned fractions by fuel group, Hong Kong landslide rate). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layers } from './helpers.js';
import { fuelGroupK, FUEL_GRASS, FUEL_WOODY } from '../src/models/wildfire.js';
import {
  LANDSLIDE_DAMAGE_GIVEN_HIT,
  LANDSLIDE_HK_BUILDING_DAMAGED,
  LANDSLIDE_HK_BUILDING_HITS,
  LANDSLIDE_HK_BUILDINGS,
  LANDSLIDE_HK_MEAN_N,
  LANDSLIDE_HK_YEARS,
  LANDSLIDE_SITE_HIT_FRACTION,
  landslideExpectedCount,
  landslideHitProbability,
} from '@crp/engine';

/** Baseline landscape burn rate of every 0.1° pixel (0 where not burnable), from the committed fuel and fire-climate layers. */
function landscapeRates(): { rate: Float64Array; area: (r: number) => number } {
  const l = layers();
  const fuel = l.layer('fuel')!.data,
    fc = l.layer('fire_climate')!;
  const K = fuelGroupK(l.params),
    nO = fc.entry.bands;
  const rate = new Float64Array(fuel.length);
  for (let i = 0; i < fuel.length; i++) {
    const k = K[fuel[i]!]!;
    if (k > 0) rate[i] = Math.min(1, k * fc.data[(Math.floor(i / 18000) * 720 + Math.floor((i % 3600) / 5)) * nO]! * 1e-4);
  }
  return { rate, area: (r) => 11.1195 * 11.1195 * Math.cos(((90 - (r + 0.5) * 0.1) * Math.PI) / 180) };
}

test('wildfire: each fuel group reproduces its observed burned fraction, and the global total lies between GFED4 and GFED5', () => {
  const l = layers();
  const fuel = l.layer('fuel')!.data;
  const { rate, area } = landscapeRates();
  const cal = l.params.wildfireCalibration as {
    anchors: Record<'grass' | 'woody', { south: number; north: number; west: number; east: number; burnedFraction: number }>;
  };
  for (const [g, code] of [
    ['grass', FUEL_GRASS],
    ['woody', FUEL_WOODY],
  ] as const) {
    const b = cal.anchors[g];
    let a = 0,
      s = 0;
    for (let r = Math.floor((90 - b.north) * 10); r < Math.floor((90 - b.south) * 10); r++)
      for (let c = Math.floor((b.west + 180) * 10); c < Math.floor((b.east + 180) * 10); c++) {
        if (fuel[r * 3600 + c] !== code) continue;
        a += area(r);
        s += area(r) * rate[r * 3600 + c]!;
      }
    // north Australian savanna 21 %/yr (Russell-Smith et al. 2007); Mediterranean woody 2 %/yr (1-3 %/yr)
    assert.ok(Math.abs(s / a - b.burnedFraction) / b.burnedFraction < 0.02, `${g}: ${s / a} vs ${b.burnedFraction}`);
  }
  let total = 0;
  for (let i = 0; i < rate.length; i++) total += rate[i]! * area(Math.floor(i / 3600));
  // GFED4 3.48 Mkm²/yr (Giglio et al. 2013; most small fires missed), FireCCI51 3.81 (Chuvieco et al. 2018), GFED5 7.74
  // (Chen et al. 2023; small fires and croplands included): the landscape total is a check, not a target
  assert.ok(total > 3.48e6 && total < 7.74e6, `${(total / 1e6).toFixed(2)} Mkm²`);
});

test('landslide: Hong Kong rates reproduce the GEO catalogue (9,840 incidents in 1984-2020, ≈ 266/yr)', () => {
  const l = layers();
  const p = l.layer('landslide_probability')!.data;
  let rate = 0;
  for (let lat = 22.15 + 1 / 24; lat < 22.5; lat += 1 / 12) {
    for (let lng = 113.82 + 1 / 24; lng < 114.45; lng += 1 / 12) {
      const r = Math.floor((90 - lat) * 12),
        c = Math.floor((lng + 180) * 12);
      const pr = p[r * 4320 + c]! * l.layer('landslide_probability')!.entry.scale;
      const lambda = -Math.log(1 - pr) / Math.PI; // events per km² per year
      rate += lambda * (40008 / 4320) ** 2 * Math.cos((lat * Math.PI) / 180);
    }
  }
  // the 100 km windows mix Hong Kong with Shenzhen and the sea, so only the order of magnitude is checked
  assert.ok(rate > 266 / 3 && rate < 266 * 3, `${rate.toFixed(0)} events/yr`);
});

test('landslide: the engine building-hit factor is recomputed from the GEO consequence counts and the committed layer', () => {
  const l = layers();
  const cal = l.params.landslideCalibration as {
    years: number;
    buildingsExposed: number;
    affectedBuildings: number;
    damagedBuildings: number;
    meanPHongKong: number;
    meanNHongKong: number;
    siteHitFractionPerLandslide: number;
  };
  // the layer's mean p and mean expected count n = -ln(1 - p) over the Hong Kong cells (the catalogue's coverage),
  // recomputed from the committed grid
  const layer = l.layer('landslide_probability')!;
  const p = layer.data;
  const r0 = Math.floor((90 - 22.5) * 12),
    r1 = Math.floor((90 - 22.15) * 12),
    c0 = Math.floor((113.82 + 180) * 12),
    c1 = Math.floor((114.45 + 180) * 12);
  let s = 0,
    sn = 0,
    n = 0;
  for (let r = r0; r <= r1; r++)
    for (let c = c0; c <= c1; c++) {
      const v = p[r * 4320 + c]! * layer.entry.scale;
      if (v > 0) {
        s += v;
        sn += landslideExpectedCount(v);
        n++;
      }
    }
  const meanP = s / n,
    meanN = sn / n;
  assert.ok(Math.abs(meanP - cal.meanPHongKong) < 1e-9, `${meanP} vs ${cal.meanPHongKong}`);
  assert.ok(Math.abs(meanN - cal.meanNHongKong) < 1e-9, `${meanN} vs ${cal.meanNHongKong}`);
  const rate = cal.affectedBuildings / cal.years / cal.buildingsExposed; // building hits per building per year
  assert.ok(Math.abs(rate / meanN - cal.siteHitFractionPerLandslide) < 1e-12);
  assert.equal(cal.years, 37);
  assert.equal(cal.buildingsExposed, 43163);
  // the engine's constants are these figures (rounded mean n)
  assert.equal(LANDSLIDE_HK_BUILDING_HITS, cal.affectedBuildings);
  assert.equal(LANDSLIDE_HK_BUILDING_DAMAGED, cal.damagedBuildings);
  assert.equal(LANDSLIDE_HK_YEARS, cal.years);
  assert.equal(LANDSLIDE_HK_BUILDINGS, cal.buildingsExposed);
  assert.ok(Math.abs(LANDSLIDE_HK_MEAN_N - meanN) < 5e-5, `engine mean n ${LANDSLIDE_HK_MEAN_N} vs layer ${meanN}`);
  assert.ok(Math.abs(LANDSLIDE_SITE_HIT_FRACTION / cal.siteHitFractionPerLandslide - 1) < 1e-3);
  assert.ok(Math.abs(LANDSLIDE_DAMAGE_GIVEN_HIT - (0.6 * cal.damagedBuildings) / cal.affectedBuildings) < 1e-12);
  // an office in Hong Kong Central or Sha Tin: expected annual damage 0.0001-0.05 % of value (commercial property rarely
  // loses more than 0.05-0.5 %/yr from all hazards together)
  for (const [lat, lng] of [
    [22.28, 114.159],
    [22.383, 114.188],
  ] as const) {
    const v = l.samplePoint(lat, lng, { analysisType: 'ssp', scenario: '45', year: 2020 }).landslide.value!;
    const ead = landslideHitProbability(v) * LANDSLIDE_DAMAGE_GIVEN_HIT;
    assert.ok(v > 0.2 && ead > 1e-6 && ead < 5e-4, `p ${v}, EAD ${ead}`);
  }
});

test('landslide: the NASA GLC completeness factor is recomputed from the two catalogues inside Hong Kong', () => {
  const l = layers();
  const g = (l.params.landslideCalibration as { glcCompleteness: { glcPointsHongKong: number; geoIncidentsSameSpan: number; factor: number } }).glcCompleteness;
  // GLC has 11 points in Hong Kong (SOURCE.md; 9 inside the GEO box south of the Shenzhen River), GEO about 230
  // incidents a year in 2007-2018 (references-2 §2.2): the GLC reports well under 1 % of the register's incidents
  assert.ok(g.glcPointsHongKong >= 8 && g.glcPointsHongKong <= 11, `${g.glcPointsHongKong} GLC points`);
  assert.ok(g.geoIncidentsSameSpan / 11.6 > 180 && g.geoIncidentsSameSpan / 11.6 < 280, `${g.geoIncidentsSameSpan} GEO incidents`);
  assert.equal(g.factor, g.geoIncidentsSameSpan / g.glcPointsHongKong);
  assert.ok(g.factor > 100 && g.factor < 500, `factor ${g.factor}`);
});

test('landslide: a site on land in a partly-sea coastal cell is treated as on land', () => {
  const l = layers();
  // Hong Kong waterfronts whose 5' cells the ETOPO5/MODIS land mask calls sea (they scored 0 before): Aberdeen, Penny's
  // Bay, Tai O
  for (const [lat, lng] of [
    [22.248, 114.155],
    [22.315, 114.043],
    [22.256, 113.862],
  ] as const) {
    const v = l.samplePoint(lat, lng, { analysisType: 'ssp', scenario: '45', year: 2020 }).landslide.value!;
    assert.ok(v > 0.05, `${lat},${lng}: ${v}`);
  }
});
