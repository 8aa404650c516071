/**
 * Drought (docs/methodology/hazards.md §3.10): UNEP (1992) aridity index AI = P/PET, annual CMAP precipitation over
 * Thornthwaite (1948) PET from NCEP temperatures warmed by the region's CMIP6 ΔTXx (precipitation held at the
 * baseline), precomputed at warming offsets and interpolated. Scored on the UNEP aridity classes (scoring.ts). Also hands
 * the engine the AR6 region's CMIP6 total soil-moisture change (σ, SPEI-like) at the scenario-year: the engine keys
 * drought disruption to that change, not to the absolute aridity.
 */
import { aridityScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { chronicInterp, hazardIndex, type HazardModel } from './common.js';

export const DROUGHT_META: HazardMeta = {
  layers: ['aridity', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 280,
  model: 'UNEP aridity index P/PET (Thornthwaite) with temperatures warmed by CMIP6 ΔTXx',
};

const H = hazardIndex('drought');

export function createDrought(src: LayerSet): HazardModel {
  // aridity index per 0.5° cell and warming offset, 0.001 steps
  const arid = src.get('aridity').data as Uint16Array;
  const bandInterp = chronicInterp(src.params.chronicOffsetsC);
  return {
    sample(site, _ctx, out) {
      const { values, scores } = out;
      const ai = bandInterp(arid, site.c05, site.dTXx, 0.001);
      values[H] = ai;
      scores[H] = aridityScore(ai);
      // the engine keys drought disruption to this change, not to the aridity (engine.md §1.4)
      out.soilMoistureChangeSigma = site.dSM;
    },
    scoreOf: aridityScore,
  };
}
