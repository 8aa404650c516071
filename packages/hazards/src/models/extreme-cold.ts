/**
 * Extreme cold (docs/methodology/hazards.md §3.8): coldest-month mean 2 m air temperature of NCEP/NCAR Reanalysis 1,
 * 1991-2020 (Kalnay et al. 1996), plus the winter-mean warming of the AR6 region at the warming level (CMIP6 regional
 * tas of the AR6 WGI Atlas, pattern-scaled; not ΔTNn, which warms 1.1-2x faster than the winter mean: issue 33 item 5). Scored on the Köppen-Geiger thresholds (Peel, Finlayson & McMahon 2007; scoring.ts coldScore).
 */
import { coldScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { hazardIndex, type HazardModel } from './common.js';

export const EXTREME_COLD_META: HazardMeta = {
  layers: ['tas_cold', 'ar6_region'],
  tier: 'observed/modelled from real data',
  resolutionKm: 210,
  model: 'NCEP coldest-month mean + CMIP6 (AR6 Atlas) regional winter-mean warming at the GWL',
};

const H = hazardIndex('extreme_cold');

export function createExtremeCold(src: LayerSet): HazardModel {
  // coldest-month mean, 0.01 °C
  const tasCold = src.get('tas_cold').data as Int16Array;
  return {
    sample(site, _ctx, { values, scores }) {
      const cold = tasCold[site.c05]! * 0.01 + site.dTWin;
      values[H] = cold;
      scores[H] = coldScore(cold);
    },
    scoreOf: coldScore,
  };
}
