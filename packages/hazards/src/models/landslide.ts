/**
 * Landslide (screening; docs/methodology/hazards.md §3.6): probability of at least one landslide within 1 km of the site
 * at the completeness of the Hong Kong GEO register, from the density of catalogued landslides redistributed by ETOPO5
 * slope: the Hong Kong GEO incident catalogue inside Hong Kong, elsewhere the NASA Global Landslide Catalog (Kirschbaum
 * et al. 2010, 2015) times its completeness factor against the GEO register (§3.6b). The future scales the expected
 * number of landslides n = -ln(1 - p) by the CMIP6 ΔRx1day of the AR6 region: p' = 1 - exp(-n (1 + ΔRx1day)).
 */
import { damageFractionScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { hazardIndex, type HazardModel } from './common.js';

export const LANDSLIDE_META: HazardMeta = {
  layers: ['landslide_probability', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 9.3,
  model: 'Catalogue density (HK GEO; NASA GLC × its completeness against GEO) redistributed by ETOPO5 slope; scaled by CMIP6 Rx1day',
};

const H = hazardIndex('landslide');

export function createLandslide(src: LayerSet): HazardModel {
  // probability per 5' cell, in steps of the layer's scale (2e-5)
  const layer = src.get('landslide_probability');
  const slide = layer.data as Uint16Array;
  const scale = layer.e.scale;
  return {
    sample(site, _ctx, { values, scores }) {
      const p0 = Math.min(1, slide[site.c5]! * scale);
      const f = 1 + site.dRx1 / 100;
      const pl = p0 >= 1 ? 1 : f === 1 ? p0 : -Math.expm1(f * Math.log1p(-p0));
      values[H] = pl;
      scores[H] = damageFractionScore(pl);
    },
    scoreOf: damageFractionScore,
  };
}
