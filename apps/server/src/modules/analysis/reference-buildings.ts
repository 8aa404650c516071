/**
 * Reference buildings for the plausibility benchmark (issue 20 item 7; docs/validation.md "Losses of reference
 * buildings"): well-known places, one building each, run through the real analysis (the engine over the committed
 * hazard layers, as the analysis job does). The test (apps/server/test/plausibility.test.ts) holds each building's
 * expected annual loss inside the published ranges cited here, and `npm run validate -w @crp/server` prints the table
 * that docs/validation.md shows.
 *
 * Ranges (fractions of the exposed value per year):
 * - PROPERTY_EAL: what commercial property loses to natural hazards in a year: 0.05-0.5 % typically, rarely more
 *   (the range insurers price property cover against; technical premiums 0.05-0.3 % of value, issue 20); for the most
 *   exposed sites (Philippine and Florida coasts) up to physrisk's "high" band, 1-5 % (below).
 * - physrisk's acute score breakpoints (GenericScoreBasedRiskMeasures, OS-Climate physrisk): AAL as a fraction of
 *   value, very low < 0.01 %, low 0.01-0.2 %, medium 0.2-1 %, high 1-5 %, very high >= 5 %. A defended high-income
 *   city centre office should sit in "low" for each flood pathway.
 */
import { HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { computeChunk, HAZARD_INDEX, N_HAZARDS, portfolioSummary, prepareAssets, SCENARIO_YEARS, type AssetInput } from '@crp/engine';
import { countryOf } from '@crp/geo';
import { DEMO_ASSETS } from '../../seed.js';
import { createHazardProvider } from './hazard-provider.js';

/** The demo portfolio's assets as the engine reads them (type, floors and the country the seed stores). */
export function demoReferenceAssets() {
  return DEMO_ASSETS.map((a) => ({
    ...a,
    type: a.property_type,
    floors: 'stories' in a ? a.stories : undefined,
    country_code: countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null,
  }));
}

export interface ReferenceBuilding {
  key: string;
  asset: AssetInput;
  /** Allowed total expected annual physical loss (damage + business interruption), fraction of value per year. */
  totalRange: readonly [number, number];
  /** Upper bounds per hazard (fraction of value per year), where a published band applies. */
  hazardMax?: Partial<Record<HazardKey, number>>;
  /** Why these bounds. */
  basis: string;
}

const OFFICE = { type: 'Office', valuation: 100e6, revenue: 20e6, floors: 10 } as const;
/** physrisk acute bands (fractions of value per year). */
export const PHYSRISK_BAND = { veryLow: 0.0001, low: 0.002, medium: 0.01, high: 0.05 } as const;

export const REFERENCE_BUILDINGS: readonly ReferenceBuilding[] = [
  {
    key: 'miami-office',
    asset: { name: 'Miami 10-storey office', latitude: 25.7743, longitude: -80.1937, country_code: 'US', ...OFFICE },
    totalRange: [0.0005, 0.01],
    hazardMax: { storm_surge: PHYSRISK_BAND.low, river_flood: PHYSRISK_BAND.low, rainfall_flood: PHYSRISK_BAND.low, typhoon: PHYSRISK_BAND.medium },
    basis: 'hurricane coast: total in physrisk "low"-"medium" (0.05-1 %); wind at most "medium"; surge behind the NFIP 100-yr standard "low"',
  },
  {
    key: 'hong-kong-office',
    asset: { name: 'Hong Kong Central 10-storey office', latitude: 22.2819, longitude: 114.1585, country_code: 'HK', ...OFFICE },
    totalRange: [0.0001, 0.005],
    hazardMax: { storm_surge: PHYSRISK_BAND.low, rainfall_flood: PHYSRISK_BAND.low, landslide: PHYSRISK_BAND.low, typhoon: PHYSRISK_BAND.low },
    basis: 'typhoon city with strict building codes (WP4 damage calibration) and 1-in-50-yr drainage: total inside the 0.05-0.5 % property range',
  },
  {
    key: 'tokyo-office',
    asset: { name: 'Tokyo 10-storey office', latitude: 35.6812, longitude: 139.7671, country_code: 'JP', ...OFFICE },
    totalRange: [0, 0.005],
    hazardMax: { river_flood: PHYSRISK_BAND.low, storm_surge: PHYSRISK_BAND.low, rainfall_flood: PHYSRISK_BAND.low },
    basis: '1-in-200-yr river and surge defences: each flood pathway "low"',
  },
  {
    key: 'london-office',
    asset: { name: 'London 10-storey office', latitude: 51.5136, longitude: -0.089, country_code: 'GB', ...OFFICE },
    totalRange: [0, 0.002],
    hazardMax: { river_flood: PHYSRISK_BAND.low, storm_surge: PHYSRISK_BAND.low, rainfall_flood: PHYSRISK_BAND.low },
    basis: 'Thames Barrier (1-in-1,000-yr): total physrisk "low"',
  },
  {
    key: 'shanghai-office',
    asset: { name: 'Shanghai Pudong 30-storey office', latitude: 31.2304, longitude: 121.4737, country_code: 'CN', ...OFFICE, floors: 30 },
    totalRange: [0, 0.005],
    hazardMax: { river_flood: PHYSRISK_BAND.low, storm_surge: PHYSRISK_BAND.low },
    basis: 'Huangpu 1-in-1,000-yr floodwalls: river and surge "low"',
  },
  {
    key: 'rotterdam-port',
    asset: {
      name: 'Rotterdam 3-storey port terminal',
      latitude: 51.9496,
      longitude: 4.1453,
      country_code: 'NL',
      type: 'Port',
      valuation: 100e6,
      revenue: 20e6,
      floors: 3,
    },
    totalRange: [0, 0.002],
    hazardMax: { river_flood: PHYSRISK_BAND.low, storm_surge: PHYSRISK_BAND.low },
    basis: 'Dutch dike-ring standards (1-in-1,250 to 1-in-10,000 yr): "low"',
  },
  {
    key: 'manila-retail',
    asset: {
      name: 'Manila Bay 2-storey retail',
      latitude: 14.5794,
      longitude: 120.9722,
      country_code: 'PH',
      type: 'Retail',
      valuation: 100e6,
      revenue: 20e6,
      floors: 2,
    },
    totalRange: [0.0005, PHYSRISK_BAND.high],
    hazardMax: { storm_surge: PHYSRISK_BAND.high },
    basis: 'the most typhoon-exposed bay front, low protection (lower-middle income): at most physrisk "high" (< 5 %)',
  },
  {
    key: 'dhaka-factory',
    asset: {
      name: 'Dhaka 4-storey garment factory',
      latitude: 23.8103,
      longitude: 90.4125,
      country_code: 'BD',
      type: 'Manufacture',
      valuation: 100e6,
      revenue: 100e6,
      floors: 4,
    },
    totalRange: [0, PHYSRISK_BAND.high],
    hazardMax: { rainfall_flood: PHYSRISK_BAND.medium, river_flood: PHYSRISK_BAND.medium },
    basis: 'monsoon delta city: flood pathways at most "medium"; heat disruption is revenue, counted in the total',
  },
  {
    key: 'oslo-office',
    asset: { name: 'Oslo 9-storey office', latitude: 59.9139, longitude: 10.7522, country_code: 'NO', ...OFFICE, floors: 9 },
    totalRange: [0, 0.002],
    basis: 'snowy, cold, defended capital: total physrisk "low"',
  },
];

export interface ReferenceResult {
  key: string;
  name: string;
  /** Expected annual loss (damage + business interruption) per hazard, fraction of the exposed value; NaN = no data. */
  byHazard: Record<HazardKey, number>;
  total: number;
  /** Technical premium (engine metrics §3.6), fraction of the exposed value. */
  premium: number;
  /** 20-year window sum of expected annual loss ("CVaR" as the spec defines it), fraction of the exposed value. */
  cvar20: number;
}

/** Runs assets through the engine over the committed layers at the 2020 baseline; totals combine hazards as the product does. */
export function analyseReference(assets: readonly AssetInput[], year = 2020, scenario: '26' | '45' | '85' = '45'): ReferenceResult[] {
  const key = year === 2020 ? 'baseline_2020' : `ssp${scenario}_${year}`;
  const sys = SCENARIO_YEARS;
  const prepared = prepareAssets(assets, undefined);
  const chunk = computeChunk(prepared, assets, 0, assets.length, sys, createHazardProvider());
  const S = sys.length;
  const s = sys.findIndex((x) => x.key === key);
  return assets.map((asset, a) => {
    const A = prepared[a]!;
    const value = A.buildingValue + A.contentValue + A.inventoryValue;
    const byHazard = {} as Record<HazardKey, number>;
    for (const h of HAZARD_KEYS) {
      const c = (a * N_HAZARDS + HAZARD_INDEX[h]) * S + s;
      const ead = chunk.ead[c]!;
      const bi = chunk.disruption[c]!;
      byHazard[h] = Number.isNaN(ead) ? Number.NaN : ead + (bi * A.revenue) / value;
    }
    const one = { ...chunk, start: 0 };
    const tot = portfolioSummary([sliceChunk(one, a)], [A], { analysisType: 'ssp', scenario, year }).total;
    return {
      key: String(asset.id ?? asset.name),
      name: String(asset.name),
      byHazard,
      total: tot.eal / value,
      premium: tot.technicalPremium / value,
      cvar20: tot.cvar / value,
    };
  });
}

/** One asset's part of a chunk, as a chunk of one asset starting at 0. */
function sliceChunk(ch: ReturnType<typeof computeChunk>, a: number): ReturnType<typeof computeChunk> {
  const S = ch.scenarioYears.length;
  const cells = N_HAZARDS * S;
  const f = (x: Float32Array) => x.slice(a * cells, (a + 1) * cells);
  const u = (x: Uint8Array) => x.slice(a * cells, (a + 1) * cells);
  return {
    start: 0,
    count: 1,
    hazards: ch.hazards,
    scenarioYears: ch.scenarioYears,
    ead: f(ch.ead),
    eadResidual: f(ch.eadResidual),
    disruption: f(ch.disruption),
    disruptionResidual: f(ch.disruptionResidual),
    sd: f(ch.sd),
    maxDamage: f(ch.maxDamage),
    tail100: f(ch.tail100),
    tail250: f(ch.tail250),
    score: u(ch.score),
    scoreResidual: u(ch.scoreResidual),
    climateScore: ch.climateScore.slice(a * S, (a + 1) * S),
    climateScoreResidual: ch.climateScoreResidual.slice(a * S, (a + 1) * S),
  };
}
