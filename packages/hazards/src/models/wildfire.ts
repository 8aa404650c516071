/**
 * Wildfire (screening; docs/methodology/hazards.md §3.7): annual burn probability p = min(1, k·fuel·F(ΔT)): fuel 1 for
 * the burnable MODIS IGBP classes at 0.1° (built-up land 0, as FireCCI51), F the 0.5° fire-season shape (Bagnouls-Gaussen
 * dry months and the Monthly Drought Code) times the Thornthwaite PET ratio at the region's CMIP6 ΔTXx, k calibrated to
 * the FireCCI51 global burned area (Chuvieco et al. 2018). Scored on 0.7·p (the damage of a burn).
 */
import { damageFractionScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { chronicInterp, hazardIndex, type HazardModel } from './common.js';

export const WILDFIRE_META: HazardMeta = {
  layers: ['fuel', 'fire_climate', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 11,
  model:
    'MODIS fuel (built-up land 0, as FireCCI51) × fire-season shape (Bagnouls-Gaussen dry months and Monthly Drought Code) × Thornthwaite PET ratio, calibrated to the FireCCI51 global burned area',
};

const H = hazardIndex('wildfire');
const score = (p: number) => damageFractionScore(0.7 * p);

export function createWildfire(src: LayerSet): HazardModel {
  const fireC = src.get('fire_climate').data as Uint16Array;
  const fuelL = src.get('fuel').data as Uint8Array;
  const wildfireK = src.params.wildfireK as number;
  const bandInterp = chronicInterp(src.params.chronicOffsetsC);
  return {
    sample(site, _ctx, { values, scores }) {
      const pf = fuelL[site.c01] ? Math.min(1, wildfireK * bandInterp(fireC, site.c05, site.dTXx, 1e-4)) : 0;
      values[H] = pf;
      scores[H] = score(pf);
    },
    scoreOf: score,
  };
}
