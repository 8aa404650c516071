/**
 * Snowfall (docs/methodology/hazards.md §3.9): Σ over months of CMAP precipitation × the snow fraction of the NCEP
 * monthly temperature warmed by the region's CMIP6 winter-mean warming (AR6 WGI Atlas regional tas; all snow at ≤ 0 °C, all rain at ≥ 2 °C, linear between: NWS
 * Snow-17 PXTEMP guidance, Anderson 2006), precomputed at warming offsets and interpolated. Scored as the area-weighted
 * percentile among the snowy (≥ 1 mm) 2020 land cells; 0 below 1 mm.
 */
import { percentileScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { chronicInterp, hazardIndex, type HazardModel } from './common.js';
import { landPercentiles } from './percentiles.js';

export const SNOWFALL_META: HazardMeta = {
  layers: ['snowfall', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 280,
  model: 'CMAP precipitation × snow fraction of NCEP monthly temperature warmed by the CMIP6 (AR6 Atlas) winter-mean warming',
};

const H = hazardIndex('snowfall');

export function createSnowfall(src: LayerSet): HazardModel {
  // per 0.5° cell and warming offset, 0.2 mm steps
  const snow = src.get('snowfall').data as Uint16Array;
  const nO = src.params.chronicOffsetsC.length;
  const bandInterp = chronicInterp(src.params.chronicOffsetsC);
  const pct = landPercentiles(src.get('curve_number').data as Uint8Array, (k) => {
    const s = snow[k * nO]! * 0.2;
    return s >= 1 ? s : NaN;
  });
  const score = (v: number) => (v < 1 ? 0 : percentileScore(v, pct));
  return {
    sample(site, _ctx, { values, scores }) {
      const sn = bandInterp(snow, site.c05, site.dTWin, 0.2);
      values[H] = sn;
      scores[H] = score(sn);
    },
    scoreOf: score,
  };
}
