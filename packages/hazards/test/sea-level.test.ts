/**
 * Relative sea-level rise everywhere (docs/validation.md, "Relative sea level: vertical land motion"): the local rate
 * beyond GMSL is the PSMSL gauge residual where a gauge qualifies, else the ICE-5G GIA rate of the nearby PSMSL stations
 * (Peltier 2004), and at least the published subsidence rate of a sinking city; reported at every latitude.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawDir, rawAvailable } from '../scripts/lib/io.js';
import { buildSlrLayers, giaRateAt, readGiaRates, SLR_GIA_RULES } from '../scripts/build-layers.js';
import { CITY_SUBSIDENCE, citySubsidenceMmYr } from '../src/models/subsidence.js';
import { layers, SSP85_2050 } from './helpers.js';

const slr = (lat: number, lng: number) => layers().samplePoint(lat, lng, SSP85_2050).sea_level_rise;
const gmsl2050 = () => layers().resolveScenario(SSP85_2050).gmslRiseM;
/** The local rate (mm/yr) implied by a point's rise: (rise − GMSL) / 30 years. */
const impliedRate = (lat: number, lng: number) => ((slr(lat, lng).value! - gmsl2050()) / 30) * 1000;

test('sinking delta cities: the published subsidence rate is added to GMSL (Ho Chi Minh City 16.2, Jakarta ≥ 10, New Orleans 8 mm/yr)', () => {
  // Tay et al. (2022) Nat. Sustain. 5:1049: Ho Chi Minh City median InSAR subsidence 16.2 mm/yr (2014-2020)
  const hcmc = slr(10.77, 106.7);
  assert.ok(hcmc.value !== null);
  assert.ok(Math.abs(impliedRate(10.77, 106.7) - 16.2) < 0.1, `HCMC ${impliedRate(10.77, 106.7)} mm/yr`);
  assert.ok(hcmc.value! > gmsl2050() + 0.45, `HCMC 2050 rise ${hcmc.value} m vs GMSL ${gmsl2050()}`);
  // Abidin et al. (2008) GPS Solutions 12:23: 1-10 cm/yr across Jakarta 1997-2005 (the lower bound is taken)
  assert.ok(impliedRate(-6.13, 106.83) >= 10 - 0.1 && impliedRate(-6.13, 106.83) <= 100, `Jakarta ${impliedRate(-6.13, 106.83)}`);
  // Dixon et al. (2006) Nature 441:587: most of New Orleans about 8 mm/yr (2002-2005)
  assert.ok(Math.abs(impliedRate(29.95, -90.07) - 8) < 0.1, `New Orleans ${impliedRate(29.95, -90.07)}`);
  // outside every city radius the published rates do not apply
  assert.ok(Number.isNaN(citySubsidenceMmYr(10.77, 107.5)), '90 km east of HCMC');
  for (const c of CITY_SUBSIDENCE) assert.ok(c.rateMmYr > 0 && c.radiusKm > 0 && c.source.length > 40, c.name);
});

test('high latitudes: a value, not null, and post-glacial uplift lowers relative sea-level rise below GMSL', () => {
  // Rankin Inlet, Hudson Bay (62.8°N, no qualifying gauge): ICE-5G GIA of the stations within 500 km (Churchill -11.9 mm/yr)
  const rankin = slr(62.81, -92.09);
  assert.ok(rankin.value !== null, 'Rankin Inlet reported');
  assert.ok(rankin.value! < gmsl2050(), `Rankin ${rankin.value} vs GMSL ${gmsl2050()}`);
  assert.ok(impliedRate(62.81, -92.09) < -5 && impliedRate(62.81, -92.09) > -13, `Rankin ${impliedRate(62.81, -92.09)} mm/yr`);
  // Oulu, Gulf of Bothnia (65.0°N): PSMSL gauge; apparent land uplift about 8-9 mm/yr (Ekman 1996)
  const oulu = slr(65.01, 25.47);
  assert.ok(oulu.value !== null && oulu.value < gmsl2050(), `Oulu ${oulu.value}`);
  assert.ok(impliedRate(65.01, 25.47) < -5 && impliedRate(65.01, 25.47) > -11, `Oulu ${impliedRate(65.01, 25.47)} mm/yr`);
  // Stockholm (59.3°N): PSMSL gauge, uplift about 4-5 mm/yr relative to the sea
  assert.ok(slr(59.33, 18.07).value! < gmsl2050(), 'Stockholm below GMSL');
  // Tromsø (69.7°N) and Nuuk (64.2°N): reported (was null north of 61°)
  assert.ok(slr(69.65, 18.96).value !== null && slr(64.18, -51.72).value !== null);
  // the storm surge stays null there (no tropical-cyclone tracks that far north)
  assert.equal(layers().samplePoint(62.81, -92.09, SSP85_2050).storm_surge.value, null);
});

const dir = rawDir();
const skip = rawAvailable(dir) ? false : `raw data not found in ${dir}`;

test('the GIA fallback reproduces the ICE-5G rates of the PSMSL file where no gauge qualifies', { skip }, () => {
  const st = readGiaRates(dir);
  assert.ok(st.length > 2000, `${st.length} stations`);
  const churchill = st.find((s) => s.id === '447')!;
  assert.equal(churchill.rate, -11.92);
  assert.ok(Math.abs(churchill.lon - -94.183) < 0.01);
  // at a station the inverse-distance weights give (nearly) its own rate
  assert.ok(Math.abs(giaRateAt(st, churchill.lat, churchill.lon) - -11.92) < 0.3);
  assert.ok(Number.isNaN(giaRateAt(st, -60, -120)), `no station within ${SLR_GIA_RULES.radiusKm} km of the Southern Ocean point`);
  // the committed layer at Rankin Inlet's 0.5° cell (no gauge within 100 km) is the GIA value of its cell centre
  const l = layers().layer('slr_local_rate')!;
  const r = Math.floor((90 - 62.81) / 0.5),
    c = Math.floor((-92.09 + 180) / 0.5);
  const stored = (l.data[r * 720 + c] as number) * 0.01;
  const fresh = giaRateAt(st, 90 - (r + 0.5) * 0.5, -180 + (c + 0.5) * 0.5);
  assert.ok(Math.abs(stored - fresh) < 0.006, `${stored} vs ${fresh}`);
});

test('rebuilding the sea-level layers (npm run build:slr-layers) reproduces the committed ones byte for byte', { skip }, () => {
  const { layers: built } = buildSlrLayers(dir);
  for (const [entry, data] of built) {
    const committed = layers().layer(entry.name)!;
    assert.equal(committed.entry.description, entry.description, entry.name);
    assert.equal(data.length, committed.data.length, entry.name);
    let diff = 0;
    for (let i = 0; i < data.length; i++) if (data[i] !== committed.data[i]) diff++;
    assert.equal(diff, 0, `${entry.name}: ${diff} cells differ`);
  }
});
