/**
 * Deterministic synthetic hazard provider for benchmarks and tests (NOT hazard data): each asset gets curves and
 * scalars derived from a hash of its coordinates, scaled by scenario and year. Exports createHazardProvider for the
 * worker runner.
 */
import { HAZARD_RETURN_PERIODS_YEARS } from '@crp/contracts';
import type { AssetInput, HazardBatch, HazardProvider, ScenarioYear } from '../src/index.js';

const RPS = Float64Array.from(HAZARD_RETURN_PERIODS_YEARS);
const N = RPS.length;
// relative growth of intensity with RP (shape shared by all assets)
const SHAPE = Float64Array.from(HAZARD_RETURN_PERIODS_YEARS, (rp) => Math.log(rp) / Math.log(1000));

function hash01(x: number, salt: number): number {
  let h = Math.imul((x * 1e4) | 0, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

function scenarioFactor(sy: ScenarioYear): number {
  if (sy.analysisType === 'baseline') return 1;
  const s = sy.scenario === '26' ? 0.3 : sy.scenario === '45' ? 0.6 : 1;
  return 1 + s * 0.25 * ((sy.year - 2020) / 80);
}

/**
 * The engine consumes a batch before asking for the next one, so the provider reuses its buffers (a real provider
 * sampling raster layers can do the same).
 */
export function createHazardProvider(): HazardProvider {
  let cap = 0;
  let buf: Float64Array[] = [];
  return (sy: ScenarioYear, assets: readonly AssetInput[], start: number, end: number): HazardBatch => {
    const n = end - start;
    const f = scenarioFactor(sy);
    if (n > cap) {
      cap = n;
      buf = Array.from({ length: 11 }, (_, i) => new Float64Array(i < 4 ? n * N : n));
    }
    const [river, rain, surge, wind, wildfire, landslide, heat, cold, snow, slr, drought] = buf.map((b, i) => b.subarray(0, i < 4 ? n * N : n)) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    for (let j = 0; j < n; j++) {
      const a = assets[start + j] as AssetInput;
      const key = Number(a.latitude ?? 0) * 1000 + Number(a.longitude ?? 0);
      const r1 = hash01(key, 1);
      const r2 = hash01(key, 2);
      const r3 = hash01(key, 3);
      const r4 = hash01(key, 4);
      const rd = r1 < 0.6 ? 0 : (r1 - 0.6) * 10; // 40 % of sites floodable, up to 4 m at 1000 y
      const pd = r2 * 1.5;
      const sd = r3 < 0.8 ? 0 : (r3 - 0.8) * 20;
      const vmax = 20 + r4 * 60;
      for (let k = 0; k < N; k++) {
        const s = SHAPE[k] as number;
        const o = j * N + k;
        river[o] = Math.max(0, rd * (1.3 * s - 0.3)) * f;
        rain[o] = Math.max(0, pd * (s - 0.2)) * f;
        surge[o] = Math.max(0, sd * (1.2 * s - 0.2)) * f;
        wind[o] = vmax * (0.5 + 0.5 * s) * Math.sqrt(f);
      }
      wildfire[j] = 0.002 * r2 * f;
      landslide[j] = 0.01 * r3 * f;
      heat[j] = 18 + 16 * r1 + 2 * (f - 1) * 8;
      cold[j] = -25 + 30 * r4 + (f - 1) * 8;
      snow[j] = (600 * r3) / f;
      slr[j] = 0.1 * (f - 1) * 8;
      drought[j] = 0.1 + r2 / f;
    }
    return {
      count: n,
      curves: {
        river_flood: { returnPeriodsYears: RPS, intensities: river },
        rainfall_flood: { returnPeriodsYears: RPS, intensities: rain },
        storm_surge: { returnPeriodsYears: RPS, intensities: surge },
        typhoon: { returnPeriodsYears: RPS, intensities: wind },
      },
      scalars: { wildfire, landslide, extreme_heat: heat, extreme_cold: cold, snowfall: snow, sea_level_rise: slr, drought },
    };
  };
}

/** n pseudo-random assets between +-60 deg latitude (the peer's benchmark convention). */
export function syntheticAssets(n: number, seed = 7): AssetInput[] {
  const types = ['residential', 'commercial', 'industrial', 'apartments', 'office', 'warehouse', 'agriculture', 'energy_solar', 'roads', 'school'];
  const out: AssetInput[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const u = hash01(i + seed * 1e6, 11);
    const v = hash01(i + seed * 1e6, 12);
    const w = hash01(i + seed * 1e6, 13);
    out[i] = {
      id: i,
      name: `asset ${i}`,
      latitude: -60 + 120 * u,
      longitude: -180 + 360 * v,
      type: types[i % types.length] as string,
      valuation: 1e6 + 9e6 * w,
      construction_cost: 8e5 + 5e6 * w,
      content_value: 2e5 * w,
      yearly_inventory_value: 1e5 * u,
      revenue: 5e5 + 2e6 * v,
      ownership: 100 - (i % 4) * 10,
      floors: 1 + (i % 5),
      mitigation_risk: i % 4,
      solar_production: types[i % types.length] === 'energy_solar' ? 12 : null,
    };
  }
  return out;
}
