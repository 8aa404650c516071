/**
 * River flood (screening; docs/methodology/hazards.md §3.4): flood depth at the return periods from a HAND proxy on
 * the 5' grid (height above the nearest Natural Earth 1:50m river cell, ETOPO5). The T-year stage above the channel is
 * h_T = 5 m·(g_T − g_2)/(1 − g_2)·(1 + ΔRx5day): 5 m the HAND limit of the flood-prone floodplain class (Rennó et al.
 * 2008; Nobre et al. 2011) taken as the 100-year stage, g_T the 5-day rainfall growth curve of a GEV fitted by
 * L-moments (Hosking 1990) to the Hong Kong Observatory annual 5-day maxima, and CMIP6 ΔRx5day of the AR6 region.
 * depth_T = max(0, h_T − HAND). Curve 2 of CurveSample.
 */
import { floodScore } from '../scoring.js';
import { N_RP, type HazardMeta, type LayerSet } from '../types.js';
import { hazardIndex, I100, type HazardModel } from './common.js';

export const RIVER_FLOOD_META: HazardMeta = {
  layers: ['river_hand', 'ar6_region'],
  tier: 'placeholder',
  resolutionKm: 9.3,
  model: 'HAND proxy (ETOPO5 vs Natural Earth rivers) against a 5 m 100-yr floodplain stage scaled by the HKO 5-day rainfall growth curve and CMIP6 Rx5day',
};

const H = hazardIndex('river_flood');

export function createRiverFlood(src: LayerSet): HazardModel {
  // HAND, m (255: no river within reach: depth 0)
  const hand = src.get('river_hand').data as Uint8Array;
  const growth = src.params.riverGrowth as number[];
  const g2 = growth[0]!;
  const stageFrac = Float64Array.from(growth.map((g) => Math.max(0, (g - g2) / (1 - g2))));
  const floodplainM = src.params.floodplainHandM as number;
  return {
    sample(site, _ctx, { curves, values, scores }) {
      const h = hand[site.c5]!;
      const stageMul = floodplainM * (1 + site.dRx5 / 100);
      for (let k = 0; k < N_RP; k++) curves[2 * N_RP + k] = h === 255 ? 0 : Math.max(0, stageFrac[k]! * stageMul - h);
      values[H] = curves[2 * N_RP + I100]!;
      scores[H] = floodScore(values[H]!);
    },
    scoreOf: floodScore,
  };
}
