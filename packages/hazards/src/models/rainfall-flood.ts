/**
 * Rainfall (pluvial) flood (screening; docs/methodology/hazards.md §3.5): T-year daily rain P_T = r_T·P_wet·(1 + ΔRx1day),
 * P_wet the CMAP mean daily rate of the wettest month, r_T the Hong Kong Observatory ratio of the GEV T-year daily rain
 * to that rate, ΔRx1day the CMIP6 change of the AR6 region. Runoff by the SCS curve-number method (USDA-NRCS 1986,
 * TR-55) with CN from the MODIS IGBP class at 0.1°; ponding depth_T = max(0, Q(P_T) − Q(P_10))/1000 m: drainage sized
 * for today's 10-year storm (FHWA HEC-22). Curve 3 of CurveSample; no data (NaN) at sea.
 */
import { floodScore } from '../scoring.js';
import { N_RP, RPS, type HazardMeta, type LayerSet } from '../types.js';
import { hazardIndex, I100, type HazardModel } from './common.js';

export const RAINFALL_FLOOD_META: HazardMeta = {
  layers: ['precip_wet_month', 'curve_number', 'ar6_region'],
  tier: 'placeholder',
  resolutionKm: 11,
  model: 'SCS-CN runoff of T-year daily rain (CMAP × HKO ratio, CMIP6 Rx1day) in excess of a 10-yr drainage design storm',
};

const H = hazardIndex('rainfall_flood');

/** SCS runoff Q = (P − 0.2S)²/(P + 0.8S), S = 25400/CN − 254 mm; 0 below the initial abstraction 0.2S. */
const scsRunoffMm = (pMm: number, cn: number) => {
  const s = 25400 / cn - 254;
  const ia = 0.2 * s;
  return pMm > ia ? ((pMm - ia) * (pMm - ia)) / (pMm + 0.8 * s) : 0;
};

/** The largest curve number within 2 cells of a 0.1° cell without one (a coastal point on a water pixel); 0 if none. */
function neighbourCn(cn: Uint8Array, c: number): number {
  const W = 3600,
    r = Math.floor(c / W),
    col = c % W;
  let best = 0;
  for (let d = 1; d <= 2 && best === 0; d++) {
    for (let dr = -d; dr <= d; dr++)
      for (let dc = -d; dc <= d; dc++) {
        const rr = r + dr;
        if (rr < 0 || rr >= 1800) continue;
        const v = cn[rr * W + ((col + dc + W) % W)]!;
        if (v > best) best = v;
      }
  }
  return best;
}

export function createRainfallFlood(src: LayerSet): HazardModel {
  // wettest-month mean daily rain, 0.01 mm/day
  const wet = src.get('precip_wet_month').data as Uint16Array;
  // SCS curve number per 0.1° cell (0: water)
  const cnL = src.get('curve_number').data as Uint8Array;
  const rainRatio = Float64Array.from(src.params.rainfallRatio as number[]);
  const i10 = RPS.indexOf(10);
  return {
    sample(site, _ctx, { curves, values, scores }) {
      let cn = cnL[site.c01]!;
      if (cn === 0) cn = neighbourCn(cnL, site.c01);
      const wetMmDay = wet[site.c05]! * 0.01;
      if (cn === 0) {
        for (let k = 0; k < N_RP; k++) curves[3 * N_RP + k] = NaN;
        values[H] = NaN;
        scores[H] = 0;
      } else {
        const mul = wetMmDay * (1 + site.dRx1 / 100);
        const qDesign = scsRunoffMm(rainRatio[i10]! * wetMmDay, cn); // drainage sized for today's 10-yr storm
        for (let k = 0; k < N_RP; k++) curves[3 * N_RP + k] = Math.max(0, scsRunoffMm(rainRatio[k]! * mul, cn) - qDesign) / 1000;
        values[H] = curves[3 * N_RP + I100]!;
        scores[H] = floodScore(values[H]!);
      }
    },
    scoreOf: floodScore,
  };
}
