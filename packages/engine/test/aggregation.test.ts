/**
 * Multi-hazard aggregation and loss sanity (docs/methodology/engine.md §3.3): per asset and year the hazards combine as
 * independent, D = 1 − Π(1 − d_h), per loss type, so an asset never loses more than its value (or a year of revenue) in
 * a year, and its CVaR (20-year window sum) never exceeds window years × (value + revenue).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analysePortfolio,
  assetCvar,
  combineDamageRatios,
  cvarWindow,
  portfolioCvarSeries,
  portfolioSummary,
  gdpGrowthFactor,
  type AssetHazardInputs,
  type AssetInput,
  type HazardProvider,
} from '../src/index.js';
import { HAZARD_KEYS } from '@crp/contracts';
import { syntheticAssets, createHazardProvider } from '../bench/synthetic-provider.js';

const RPS = [2, 5, 10, 25, 50, 100, 250, 500, 1000];

test('combineDamageRatios: 1 − Π(1 − d) for independent hazards, ≤ 1, ≥ the largest, ≈ the sum when small', () => {
  assert.equal(combineDamageRatios([0.5, 0.5]), 0.75);
  assert.equal(combineDamageRatios([1, 0.3]), 1);
  assert.equal(combineDamageRatios([0.7, 0.6, 0.9, 0.8]) <= 1, true);
  assert.ok(Math.abs(combineDamageRatios([NaN, 0.2]) - 0.2) < 1e-12);
  assert.equal(combineDamageRatios([-1, 2]), 1); // clamped to [0, 1]
  const small = [0.001, 0.002, 0.0005];
  const c = combineDamageRatios(small);
  assert.ok(Math.abs(c - 0.0035) < 1e-5 && c < 0.0035 && c >= 0.002);
});

/** Every hazard at its worst: deep floods, extreme wind, certain fire and landslide, extreme chronic values. */
const extreme = (): AssetHazardInputs => ({
  river_flood: { returnPeriodsYears: RPS, intensities: RPS.map(() => 8) },
  rainfall_flood: { returnPeriodsYears: RPS, intensities: RPS.map(() => 6) },
  storm_surge: { returnPeriodsYears: RPS, intensities: RPS.map(() => 7) },
  typhoon: { returnPeriodsYears: RPS, intensities: RPS.map(() => 90) },
  wildfire: 1,
  landslide: 1,
  extreme_heat: 45,
  extreme_cold: -45,
  snowfall: 3000,
  sea_level_rise: 3,
  drought: 0.01,
});

test('an asset under every hazard at its worst: annual loss ≤ value + a year of revenue, CVaR ≤ window years × that', () => {
  const assets: AssetInput[] = [
    {
      latitude: 22.3,
      longitude: 114.2,
      type: 'Commercial',
      valuation: 10e6,
      construction_cost: 8e6,
      content_value: 1e6,
      yearly_inventory_value: 5e5,
      revenue: 3e6,
      ownership: 100,
      mitigation_risk: 0,
    },
    {
      latitude: 14.6,
      longitude: 121,
      type: 'Residential',
      valuation: 2e6,
      construction_cost: 2e6,
      content_value: 0,
      yearly_inventory_value: 0,
      revenue: 0,
      ownership: 100,
      mitigation_risk: 0,
    },
  ];
  const provider: HazardProvider = (_sy, as, start, end) => as.slice(start, end).map(() => extreme());
  const r = analysePortfolio(assets, provider);
  for (const [i, A] of r.prepared.entries()) {
    const value = A.buildingValue + A.contentValue + A.inventoryValue;
    for (const year of [2030, 2050, 2100])
      for (const gdpAdjusted of [false, true]) {
        const x = assetCvar(A, r.chunks[0]!, i, HAZARD_KEYS, 'ssp', '85', year, { gdpAdjusted });
        const rev = A.revenue * (gdpAdjusted ? gdpGrowthFactor('85', 2100) : 1);
        const { from, to } = cvarWindow(year);
        const yearsInWindow = to - from + 1;
        assert.equal(yearsInWindow, 20);
        assert.ok(x.eal <= value + rev + 1e-6, `asset ${i} ${year}: EAL ${x.eal} ≤ ${value + rev}`);
        assert.ok(x.cvar <= yearsInWindow * (value + rev) + 1e-6, `asset ${i} ${year}: CVaR ${x.cvar}`);
        assert.ok(x.maxExposure <= value + A.revenue * (gdpAdjusted ? gdpGrowthFactor('85', 2100) : 1) + 1e-6);
        if (A.revenue === 0) assert.ok(x.eal <= value + 1e-6 && x.cvar <= value + 1e-6, 'no revenue: cannot lose more than the building');
        // the sum over hazards would exceed the value: the combination is what keeps it physical
        const sum = HAZARD_KEYS.reduce((t, h) => t + assetCvar(A, r.chunks[0]!, i, [h], 'ssp', '85', year, { gdpAdjusted }).eal, 0);
        assert.ok(sum > x.eal, `sum of hazards ${sum} > combined ${x.eal}`);
      }
  }
  const s = portfolioSummary(r.chunks, r.prepared, { analysisType: 'ssp', scenario: '85', year: 2050 });
  const totalValue = r.prepared.reduce((t, A) => t + A.buildingValue + A.contentValue + A.inventoryValue, 0);
  const totalRev = r.prepared.reduce((t, A) => t + A.revenue, 0);
  assert.ok(s.total.eal <= totalValue + totalRev + 1e-6);
  assert.ok(s.total.maxExposure <= totalValue + totalRev + 1e-6);
  const ser = portfolioCvarSeries(r.chunks, r.prepared, HAZARD_KEYS, 'ssp', '85');
  for (let k = 0; k < ser.years.length; k++) assert.ok(ser.loss[k]! <= totalValue + totalRev + 1e-6, `series year ${ser.years[k]}`);
});

test('no asset of a 2,000-asset synthetic portfolio has a CVaR above window years × (value + revenue); totals agree', () => {
  const assets = syntheticAssets(2000);
  const r = analysePortfolio(assets, createHazardProvider(), { chunkSize: 500 });
  let sumAssets = 0;
  for (const ch of r.chunks)
    for (let a = 0; a < ch.count; a++) {
      const A = r.prepared[ch.start + a]!;
      const x = assetCvar(A, ch, a, HAZARD_KEYS, 'ssp', '85', 2050);
      const value = A.buildingValue + A.contentValue + A.inventoryValue;
      assert.ok(x.cvar <= 20 * (value + A.revenue) * A.ownership + 1e-6, `asset ${ch.start + a}`);
      assert.ok(x.rcvar <= x.cvar + 1e-9);
      sumAssets += x.cvar;
    }
  const s = portfolioSummary(r.chunks, r.prepared, { analysisType: 'ssp', scenario: '85', year: 2050 });
  assert.ok(Math.abs(s.total.cvar - sumAssets) <= 1e-6 * sumAssets, 'portfolio CVaR = Σ asset CVaR (same aggregation rule)');
  const ser = portfolioCvarSeries(r.chunks, r.prepared, HAZARD_KEYS, 'ssp', '85').at(2050).cvar;
  assert.ok(ser >= s.total.cvar * (1 - 1e-6), 'chart series (no per-asset cap) ≥ the capped card figure');
});
