/**
 * The eleven hazard models, one file each: what layers each reads, its sources and its sampling maths. loadHazardLayers
 * (sampler.ts) makes them over the loaded layers and runs them for every point.
 */
import type { HazardKey } from '@crp/contracts';
import type { HazardMeta, LayerSet } from '../types.js';
import type { HazardModel } from './common.js';
import { createTyphoon, TYPHOON_META } from './typhoon.js';
import { createStormSurge, STORM_SURGE_META } from './storm-surge.js';
import { createSeaLevelRise, SEA_LEVEL_RISE_META, type SeaLevelRiseModel } from './sea-level-rise.js';
import { createRiverFlood, RIVER_FLOOD_META } from './river-flood.js';
import { createRainfallFlood, RAINFALL_FLOOD_META } from './rainfall-flood.js';
import { createLandslide, LANDSLIDE_META } from './landslide.js';
import { createWildfire, WILDFIRE_META } from './wildfire.js';
import { createExtremeHeat, EXTREME_HEAT_META } from './extreme-heat.js';
import { createExtremeCold, EXTREME_COLD_META } from './extreme-cold.js';
import { createSnowfall, SNOWFALL_META } from './snowfall.js';
import { createDrought, DROUGHT_META } from './drought.js';

/** Which layers each hazard uses, its data tier and the resolution reported. */
export const HAZARD_META: Record<HazardKey, HazardMeta> = {
  typhoon: TYPHOON_META,
  storm_surge: STORM_SURGE_META,
  sea_level_rise: SEA_LEVEL_RISE_META,
  river_flood: RIVER_FLOOD_META,
  rainfall_flood: RAINFALL_FLOOD_META,
  landslide: LANDSLIDE_META,
  wildfire: WILDFIRE_META,
  extreme_heat: EXTREME_HEAT_META,
  extreme_cold: EXTREME_COLD_META,
  snowfall: SNOWFALL_META,
  drought: DROUGHT_META,
};

/**
 * Datasets a hazard's source text names besides its layers' own: the scenario tables its sampling applies (CMIP6
 * regional extremes, AR6 sea-level projections) and the station record behind its return-period growth (HKO rainfall).
 */
export const SCENARIO_DATASETS: Record<HazardKey, string[]> = {
  typhoon: ['cmip6_regional_extremes_ar6'],
  storm_surge: ['ipcc-ar6-gmsl-projections'],
  sea_level_rise: ['ipcc-ar6-gmsl-projections'],
  river_flood: ['cmip6_regional_extremes_ar6', 'hko-daily-rainfall'],
  rainfall_flood: ['cmip6_regional_extremes_ar6', 'hko-daily-rainfall'],
  landslide: ['cmip6_regional_extremes_ar6'],
  wildfire: ['cmip6_regional_extremes_ar6'],
  extreme_heat: ['cmip6_regional_extremes_ar6'],
  extreme_cold: ['cmip6_regional_extremes_ar6'],
  snowfall: ['cmip6_regional_extremes_ar6'],
  drought: ['cmip6_regional_extremes_ar6'],
};

/** Every model by hazard (sea-level rise with its rise and likely range, which the sampler reads too). */
export type HazardModels = Record<HazardKey, HazardModel> & { sea_level_rise: SeaLevelRiseModel };

export function createHazardModels(src: LayerSet): HazardModels {
  return {
    typhoon: createTyphoon(src),
    storm_surge: createStormSurge(src),
    sea_level_rise: createSeaLevelRise(src),
    river_flood: createRiverFlood(src),
    rainfall_flood: createRainfallFlood(src),
    landslide: createLandslide(src),
    wildfire: createWildfire(src),
    extreme_heat: createExtremeHeat(src),
    extreme_cold: createExtremeCold(src),
    snowfall: createSnowfall(src),
    drought: createDrought(src),
  };
}
