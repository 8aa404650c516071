/** Calibration targets reproduced by the committed layers (wildfire global burned area, Hong Kong landslide rate). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layers } from './helpers.js';
import {
  LANDSLIDE_DAMAGE_GIVEN_HIT,
  LANDSLIDE_HK_BUILDING_DAMAGED,
  LANDSLIDE_HK_BUILDING_HITS,
  LANDSLIDE_HK_BUILDINGS,
  LANDSLIDE_HK_MEAN_P,
  LANDSLIDE_HK_YEARS,
  LANDSLIDE_SITE_HIT_FRACTION,
} from '@crp/engine';

test('wildfire: baseline burn probabilities add up to the FireCCI51 global burned area (3.81 Mkm²/yr, Chuvieco et al. 2018)', () => {
  const l = layers();
  const fuel = l.layer('fuel')!.data,
    fc = l.layer('fire_climate')!;
  const k = l.params.wildfireK as number,
    nO = fc.entry.bands;
  let total = 0;
  for (let r = 0; r < 1800; r++) {
    const a = 11.1195 * 11.1195 * Math.cos(((90 - (r + 0.5) * 0.1) * Math.PI) / 180);
    for (let c = 0; c < 3600; c++) {
      if (!fuel[r * 3600 + c]) continue;
      total += a * Math.min(1, k * fc.data[(Math.floor(r / 5) * 720 + Math.floor(c / 5)) * nO]! * 1e-4);
    }
  }
  assert.ok(Math.abs(total - 3.81e6) / 3.81e6 < 0.02, `${(total / 1e6).toFixed(2)} Mkm²`);
});

test('landslide: Hong Kong rates reproduce the GEO catalogue (9,840 incidents in 1984-2020, ≈ 266/yr)', () => {
  const l = layers();
  const p = l.layer('landslide_probability')!.data;
  let rate = 0;
  for (let lat = 22.15 + 1 / 24; lat < 22.5; lat += 1 / 12) {
    for (let lng = 113.82 + 1 / 24; lng < 114.45; lng += 1 / 12) {
      const r = Math.floor((90 - lat) * 12),
        c = Math.floor((lng + 180) * 12);
      const pr = p[r * 4320 + c]! * 1e-5;
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
    siteHitFraction: number;
  };
  // the layer's mean p over the Hong Kong cells (the catalogue's coverage), recomputed from the committed grid
  const p = l.layer('landslide_probability')!.data;
  const r0 = Math.floor((90 - 22.5) * 12),
    r1 = Math.floor((90 - 22.15) * 12),
    c0 = Math.floor((113.82 + 180) * 12),
    c1 = Math.floor((114.45 + 180) * 12);
  let s = 0,
    n = 0;
  for (let r = r0; r <= r1; r++)
    for (let c = c0; c <= c1; c++) {
      const v = p[r * 4320 + c]! * 1e-5;
      if (v > 0) {
        s += v;
        n++;
      }
    }
  const meanP = s / n;
  assert.ok(Math.abs(meanP - cal.meanPHongKong) < 1e-9, `${meanP} vs ${cal.meanPHongKong}`);
  const rate = cal.affectedBuildings / cal.years / cal.buildingsExposed; // building hits per building per year
  assert.ok(Math.abs(rate / meanP - cal.siteHitFraction) < 1e-12);
  assert.equal(cal.years, 37);
  assert.equal(cal.buildingsExposed, 43163);
  // the engine's constants are these figures (rounded mean p)
  assert.equal(LANDSLIDE_HK_BUILDING_HITS, cal.affectedBuildings);
  assert.equal(LANDSLIDE_HK_BUILDING_DAMAGED, cal.damagedBuildings);
  assert.equal(LANDSLIDE_HK_YEARS, cal.years);
  assert.equal(LANDSLIDE_HK_BUILDINGS, cal.buildingsExposed);
  assert.ok(Math.abs(LANDSLIDE_HK_MEAN_P - meanP) < 5e-5, `engine mean p ${LANDSLIDE_HK_MEAN_P} vs layer ${meanP}`);
  assert.ok(Math.abs(LANDSLIDE_SITE_HIT_FRACTION / cal.siteHitFraction - 1) < 1e-3);
  assert.ok(Math.abs(LANDSLIDE_DAMAGE_GIVEN_HIT - (0.6 * cal.damagedBuildings) / cal.affectedBuildings) < 1e-12);
  // an office in Hong Kong Central or Sha Tin: expected annual damage 0.0001-0.05 % of value (commercial property rarely
  // loses more than 0.05-0.5 %/yr from all hazards together)
  for (const [lat, lng] of [
    [22.28, 114.159],
    [22.383, 114.188],
  ] as const) {
    const v = l.samplePoint(lat, lng, { analysisType: 'ssp', scenario: '45', year: 2020 }).landslide.value!;
    const ead = v * LANDSLIDE_SITE_HIT_FRACTION * LANDSLIDE_DAMAGE_GIVEN_HIT;
    assert.ok(v > 0.2 && ead > 1e-6 && ead < 5e-4, `p ${v}, EAD ${ead}`);
  }
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
