/**
 * Typhoon (tropical cyclone wind): wind speed at the return periods per 0.25° cell, from the Holland (2008/2010) wind
 * field: near land over at least 10,000 years of synthetic tracks per basin (every staged best track perturbed after
 * CLIMADA's tc_tracks_synth, scripts/build-synthetic.ts), over open ocean over the historical best tracks with a GPD
 * tail (scripts/build-layers.ts); scaled by the Knutson et al. (2020) change of mean intensity per basin at the
 * scenario's warming level (the Jewson 2021 scaling, scenario.ts knutsonFactor). Curve 0 of CurveSample.
 */
import { typhoonScore } from '../scoring.js';
import { N_RP, type HazardMeta, type LayerSet } from '../types.js';
import { hazardIndex, I100, type HazardModel } from './common.js';

export const TYPHOON_META: HazardMeta = {
  layers: ['typhoon_rp', 'typhoon_basin'],
  tier: 'observed/modelled from real data',
  resolutionKm: 28,
  model:
    'Holland (2008/2010) wind field over ≥ 10,000 years of synthetic tracks per basin near land (best tracks perturbed after CLIMADA tc_tracks_synth; historical tracks with a GPD tail over open ocean); Knutson et al. (2020) intensity change via Jewson (2021)',
};

const H = hazardIndex('typhoon');

export function createTyphoon(src: LayerSet): HazardModel {
  // wind at the return periods per 0.25° cell in 0.5 m/s steps; 255 = no data (no track)
  const tyRp = src.get('typhoon_rp').data as Uint8Array;
  const tyBasin = src.get('typhoon_basin').data as Uint8Array;
  return {
    sample(site, ctx, { curves, values, scores }) {
      const c025 = site.c025;
      const raw100 = tyRp[c025 * N_RP + I100]!;
      const tyNull = raw100 === 255;
      const tf = ctx.typhoonFactor[tyBasin[c025]!] ?? 1;
      for (let k = 0; k < N_RP; k++) curves[k] = tyNull ? NaN : tyRp[c025 * N_RP + k]! * 0.5 * tf;
      values[H] = curves[I100]!;
      scores[H] = tyNull ? 0 : typhoonScore(curves[I100]!);
    },
    scoreOf: typhoonScore,
  };
}
