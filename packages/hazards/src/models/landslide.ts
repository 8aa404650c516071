/**
 * Landslide (screening; docs/methodology/hazards.md §3.6): probability of at least one reported landslide within 1 km
 * of the site, from the density of catalogued landslides (NASA Global Landslide Catalog, Kirschbaum et al. 2010, 2015;
 * the Hong Kong GEO incident catalogue inside Hong Kong) redistributed by ETOPO5 slope, scaled by the CMIP6 ΔRx1day of
 * the AR6 region.
 */
import { damageFractionScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { hazardIndex, type HazardModel } from './common.js';

export const LANDSLIDE_META: HazardMeta = {
  layers: ['landslide_probability', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 9.3,
  model: 'Catalogue density (NASA GLC, HK GEO) redistributed by ETOPO5 slope; scaled by CMIP6 Rx1day',
};

const H = hazardIndex('landslide');

export function createLandslide(src: LayerSet): HazardModel {
  // probability per 5' cell, 1e-5 steps
  const slide = src.get('landslide_probability').data as Uint16Array;
  return {
    sample(site, _ctx, { values, scores }) {
      const pl = Math.min(1, slide[site.c5]! * 1e-5 * (1 + site.dRx1 / 100));
      values[H] = pl;
      scores[H] = damageFractionScore(pl);
    },
    scoreOf: damageFractionScore,
  };
}
