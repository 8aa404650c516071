/** Calibration targets reproduced by the committed layers (wildfire global burned area, Hong Kong landslide rate). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layers } from './helpers.js';

test('wildfire: baseline burn probabilities add up to the FireCCI51 global burned area (3.81 Mkm²/yr, Chuvieco et al. 2018)', () => {
  const l = layers();
  const fuel = l.layer('fuel')!.data, fc = l.layer('fire_climate')!;
  const k = l.params.wildfireK as number, nO = fc.entry.bands;
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
      const r = Math.floor((90 - lat) * 12), c = Math.floor((lng + 180) * 12);
      const pr = p[r * 4320 + c]! * 1e-5;
      const lambda = -Math.log(1 - pr) / Math.PI; // events per km² per year
      rate += lambda * (40008 / 4320) ** 2 * Math.cos((lat * Math.PI) / 180);
    }
  }
  // the 100 km windows mix Hong Kong with Shenzhen and the sea, so only the order of magnitude is checked
  assert.ok(rate > 266 / 3 && rate < 266 * 3, `${rate.toFixed(0)} events/yr`);
});
