/**
 * Storm surge (bathtub): the surge height of the return-period typhoon wind by Xu (2010), as in CLIMADA's
 * TCSurgeBathtub, its wind-setup share scaled by the shelf in front of the coast (coast.ts `shelf`; the inverse
 * barometer share is kept), plus sea-level rise, minus the site's ETOPO5 ground elevation (sub-cell coastal ramp, coast.ts; the
 * shore holding today's 10-year storm tide) and a 0.2 m/km decay inland of the Natural Earth 1:10m coastline.
 * Curve 1 of CurveSample; reads the typhoon curve (curve 0) the typhoon model wrote first.
 */
import { floodScore } from '../scoring.js';
import { N_RP, type HazardMeta, type LayerSet } from '../types.js';
import { hazardIndex, I10, I100, type HazardModel } from './common.js';

export const STORM_SURGE_META: HazardMeta = {
  layers: [
    'typhoon_rp',
    'coast_tile_index',
    'coast_elevation',
    'coast_distance',
    'coast_shelf_index',
    'coast_fine_tile_index',
    'coast_fine_distance',
    'slr_local_rate',
  ],
  tier: 'model on real inputs',
  resolutionKm: 9.3,
  model:
    'Bathtub: Xu (2010) surge from return-period wind (wind-setup share scaled by the ETOPO5 shelf relative to the US SLOSH coasts) plus sea-level rise, minus ETOPO5 elevation (sub-cell coastal ramp, shore holding the 10-yr storm tide) and 0.2 m/km decay inland of the Natural Earth 1:10m coastline',
};

const H = hazardIndex('storm_surge');

/** Xu (2010) as in CLIMADA TCSurgeBathtub: surge height 0.1023·(V − 26.8224) + 1.8288 m above 60 kn, else 0. */
export function xuSurgeM(v: number): number {
  return v > 26.8224 ? 0.1023 * (v - 26.8224) + 1.8288 : 0;
}

/** Metres of sea level per hPa of pressure deficit (hydrostatic inverse barometer, 100 / (ρ g), ρ = 1025 kg/m³, g = 9.81 m/s²). */
const IB_M_PER_HPA = 100 / (1025 * 9.81);

/**
 * Inverse-barometer share of a surge at wind v (m/s, 1-minute): the central pressure deficit of a storm of that wind by
 * Atkinson & Holliday (1977), V[kt] = 6.7·Δp^0.644 (the relation the track build uses, hazards §3.1), times 1 cm/hPa.
 * The central deficit of a storm whose maximum wind is v: at its radius of maximum wind the deficit is 63 % of it
 * (Holland 1980), inside the eye more; the central value is kept.
 */
export function inverseBarometerM(v: number): number {
  return v > 0 ? Math.pow(v / 0.514444 / 6.7, 1 / 0.644) * IB_M_PER_HPA : 0;
}

/**
 * Surge height at wind v on a coast of shelf factor `shelf` (0-1, coast.ts): the inverse-barometer share as it is and
 * the wind-setup rest of Xu's height scaled by the shelf (wind setup ∝ ∫dx/D, Bodine 1971; hazards §3.2). `line` is
 * Xu's height at v (with or without its 60-kn cut).
 */
export function shelfSurgeM(line: number, v: number, shelf: number): number {
  if (line <= 0 || shelf >= 1) return line;
  const ib = Math.min(line, inverseBarometerM(v));
  return ib + shelf * (line - ib);
}

export function createStormSurge(src: LayerSet): HazardModel {
  const tyRp = src.get('typhoon_rp').data as Uint8Array;
  return {
    sample(site, _ctx, { curves, values, scores }) {
      const c025 = site.c025;
      const tyNull = tyRp[c025 * N_RP + I100]! === 255;
      const coast = site.coast;
      if (coast) {
        const slrM = site.slrM;
        // Shoreline standard (RULE, as the 10-yr drainage design of the rainfall flood): the built shore holds today's
        // 10-year storm tide, so the effective ground is at least the baseline 10-yr surge height (no sea-level rise).
        const raw10 = tyRp[c025 * N_RP + I10]!;
        // (the Xu line without its 60-kn cut, so a 10-yr wind just below 60 kn still gives the shore its storm-tide height)
        const v10 = raw10 * 0.5;
        const shore = tyNull ? 0 : Math.max(0, shelfSurgeM(0.1023 * (v10 - 26.8224) + 1.8288, v10, coast.shelf));
        const zEff = coast.elev > shore ? coast.elev : shore;
        for (let k = 0; k < N_RP; k++) {
          const v = curves[k]!;
          if (Number.isNaN(v)) {
            curves[N_RP + k] = NaN;
            continue;
          }
          const surge = shelfSurgeM(xuSurgeM(v), v, coast.shelf);
          curves[N_RP + k] = surge > 0 ? Math.max(0, surge + slrM - zEff - 0.2 * coast.dist) : 0;
        }
      } else {
        for (let k = 0; k < N_RP; k++) curves[N_RP + k] = tyNull ? NaN : 0;
      }
      values[H] = curves[N_RP + I100]!;
      scores[H] = Number.isNaN(values[H]!) ? 0 : floodScore(values[H]!);
    },
    scoreOf: floodScore,
  };
}
