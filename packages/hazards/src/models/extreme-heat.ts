/**
 * Extreme heat (docs/methodology/hazards.md §3.8): warmest-month mean 2 m air temperature of NCEP/NCAR Reanalysis 1,
 * 1991-2020 (Kalnay et al. 1996), plus the CMIP6 ΔTXx of the AR6 region at the warming level. Scored as the
 * area-weighted percentile of the value among the 2020 land cells (60°S-90°N).
 */
import { percentileScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { hazardIndex, type HazardModel } from './common.js';
import { landPercentiles } from './percentiles.js';

export const EXTREME_HEAT_META: HazardMeta = {
  layers: ['tas_warm', 'ar6_region'],
  tier: 'observed/modelled from real data',
  resolutionKm: 210,
  model: 'NCEP warmest-month mean + CMIP6 ΔTXx at the GWL',
};

const H = hazardIndex('extreme_heat');

export function createExtremeHeat(src: LayerSet): HazardModel {
  // warmest-month mean, 0.01 °C
  const tasWarm = src.get('tas_warm').data as Int16Array;
  const pct = landPercentiles(src.get('curve_number').data as Uint8Array, (k) => tasWarm[k]! * 0.01);
  const score = (v: number) => percentileScore(v, pct);
  return {
    sample(site, _ctx, { values, scores }) {
      const warm = tasWarm[site.c05]! * 0.01 + site.dTXx;
      values[H] = warm;
      scores[H] = score(warm);
    },
    scoreOf: score,
  };
}
