/**
 * River flood (screening; docs/methodology/hazards.md §3.4): flood depth at the return periods from the stage of the
 * governing mapped river above its bankfull level. Layers (built by scripts/lib/rivers.ts): `river_hand`, the height
 * (m) of the 5' cell above the bankfull water level of its governing river (WDBII rivers of GSHHG and Natural Earth,
 * flow-path HAND on ETOPO5; nodata beyond the 1,000-year stage), and `river_bankfull_depth`, that river's bankfull depth
 * D_bf = 0.30·A^0.213 (Bieger et al. 2015, A the drainage area in km²).
 *
 * The 2-year flood fills the channel (bankfull; Winsemius et al. 2013, as Aqueduct and JRC maps take it), and the
 * stage above bankfull follows the at-a-station hydraulic geometry d ∝ Q^0.40 (Leopold & Maddock 1953):
 * s_T = D_bf·(q_T^0.40 − 1) for q_T = (Q_T/Q_2)·(1 + ΔRx5day) > 1, with Q_T/Q_2 the D-day rainfall growth R_D,T/R_D,2 of
 * the Hong Kong Observatory GEV (Hosking 1990) for D the basin's response time (5-90 days; basinResponseDays) and
 * ΔRx5day the CMIP6 change of the AR6 region.
 *
 * Overbank: once the water leaves the channel, the floodplain carries the discharge above bankfull (compound channel,
 * Manning's wide-channel flow with the same energy slope in channel and floodplain, so the slope cancels):
 *   q_T = (1 + s/D_bf)^(1/0.40) + (n_c/n_fp)·(w(s)/W_bf)·(ȳ(s)/D_bf)^(5/3),
 * the first term the channel (at-a-station relation above), the second the floodplain: n_c = 0.03, n_fp = 0.10 (CaMa-
 * Flood defaults, Yamazaki et al. 2011), W_bf = 2.70·A^0.352 (Bieger et al. 2015), w(s) the flooded width and ȳ(s) its
 * mean depth over the sub-grid profile (w = Δx·s/R, ȳ = s/2 while s < R; w = Δx, ȳ = s − R/2 beyond; Δx the 9.26 km
 * cell). The floodplain is that of the site's 15' unit catchment (its 3×3 block of 5' cells, CaMa-Flood's global grid):
 * w·ȳ^(5/3) summed over the block's flooded strips and spread over one catchment length 3Δx (CaMa-Flood's floodplain
 * width: flooded area of the unit catchment over its channel length), or the site's own cell if that conveys more.
 * APPROXIMATIONS: the block's HAND and relief stand for the river's valley (each cell's HAND is to its own governing
 * river), and the floodplain is no wider than the block (a narrower floodplain gives a higher stage: errs on the side
 * of more loss). s_T solves this by bisection; with no floodplain term it is the in-channel D_bf·(q_T^0.40 − 1), its
 * upper bound.
 *
 * A building sits at an unknown place in the 9 km cell. Ground heights in the cell are taken as uniform over
 * [HAND, HAND + R], R the cell's sub-grid relief (`river_relief`: the slope ETOPO5 resolves around the cell times one
 * cell width, scripts/lib/rivers.ts subgridRelief; sub-grid floodplain profile as in CaMa-Flood, Yamazaki et al. 2011), and the depth is the cell mean over that profile, dry ground counted as 0:
 * (s_T − HAND)²/(2R) while the water covers part of the cell, s_T − HAND − R/2 once it covers all of it (R → 0 gives
 * max(0, s_T − HAND)). APPROXIMATION: damage of the mean depth; depth-damage curves are concave from 0, so this is at
 * or above the mean damage over the cell (errs on the side of more loss). Curve 2 of CurveSample.
 */
import { floodScore } from '../scoring.js';
import { GRID_5M } from '../layer-format.js';
import { N_RP, type HazardMeta, type LayerSet } from '../types.js';
import { hazardIndex, I100, type HazardModel } from './common.js';

export const RIVER_FLOOD_META: HazardMeta = {
  layers: ['river_hand', 'river_bankfull_depth', 'river_relief', 'ar6_region'],
  tier: 'placeholder',
  resolutionKm: 9.3,
  model:
    'Stage above bankfull of the governing WDBII/Natural Earth river (bankfull depth from drainage area, Bieger et al. 2015; d ∝ Q^0.4, Leopold & Maddock 1953) over flow-path HAND on ETOPO5, averaged over the sub-grid relief of the cell (Yamazaki et al. 2011); discharge growth from the HKO rainfall GEV over the basin response time (Hack 1957) and CMIP6 Rx5day',
};

const H = hazardIndex('river_flood');

/** Cell-mean depth (m) of a stage `s` above the bankfull water level over ground uniform in [h, h + r]. */
export function cellMeanDepth(s: number, h: number, r: number): number {
  const a = s - h;
  if (a <= 0) return 0;
  return a < r ? (a * a) / (2 * r) : a - r / 2;
}

/**
 * The 15' unit catchment of a site (its 3×3 block of 5' cells; CaMa-Flood's global grid, Yamazaki et al. 2011) and
 * its floodplain conveyance. `load(c5)` reads the HAND and relief of the block's cells (HAND NaN beyond every river's
 * 1,000-year stage: never flooded); `conveyance(s)` is Σ w_j·ȳ_j^(5/3)/Δx at stage s above bankfull, the larger of the
 * site's own cell (flooded share and mean flooded depth over its sub-grid profile) and the unit catchment's, whose
 * flooded area spread over one catchment length (3Δx) is the floodplain width, as CaMa-Flood takes the floodplain width
 * as the flooded area of the unit catchment over its channel length.
 */
function unitCatchment(hand: Uint8Array, rel: Uint8Array, nodata: number | null, handScale: number, relScale: number) {
  const bh = new Float64Array(9);
  const br = new Float64Array(9);
  const W5 = GRID_5M.width,
    H5 = GRID_5M.height;
  return {
    load(c5: number): void {
      const row = Math.floor(c5 / W5),
        col = c5 % W5;
      for (let dr = -1, j = 0; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++, j++) {
          const rr = row + dr;
          const c = rr < 0 || rr >= H5 ? -1 : rr * W5 + ((col + dc + W5) % W5);
          const v = c < 0 ? nodata : hand[c]!;
          bh[j] = v === nodata || v === null ? NaN : v * handScale;
          br[j] = c < 0 ? 0 : rel[c]! * relScale;
        }
    },
    conveyance(s: number): number {
      let block = 0,
        own = 0;
      for (let j = 0; j < 9; j++) {
        const a = s - bh[j]!;
        if (!(a > 0)) continue;
        const r = br[j]!;
        const y = r > a ? a / 2 : a - r / 2;
        const c = (r > a ? a / r : 1) * y * Math.cbrt(y * y); // f·ȳ^(5/3)
        block += c;
        if (j === 4) own = c;
      }
      block /= 3;
      return block > own ? block : own;
    },
  };
}

/** Hack's law (Hack 1957, USGS Prof. Paper 294-B): main-stream length L = 1.4·A^0.6 in miles and square miles. */
const HACK = { coefMi: 1.4, exp: 0.6 } as const;
const KM_PER_MI = 1.609344;
/** Moody & Troutman (2002) global bankfull depth-discharge fit D = 0.27·Q^0.39 (m, m³/s; references-2 §6.2). */
const MOODY_TROUTMAN_DEPTH = { coef: 0.27, exp: 0.39 } as const;

/**
 * Response time (days) of the basin behind a river of bankfull depth `d` (m): the drainage area from the Bieger et al.
 * (2015) depth relation the layer was built with (A = (D_bf/0.30)^(1/0.213)), the main-stream length from Hack's law,
 * and the bankfull velocity Q_bf/(W_bf·D_bf) (W_bf Bieger et al. 2015, Q_bf from Moody & Troutman 2002): t = L / v.
 * APPROXIMATION: travel at the bankfull velocity along the whole main stream (≈ 1.3-1.4 m/s at every size: the
 * downstream hydraulic geometry's near-constant velocity, Leopold & Maddock 1953).
 */
export function basinResponseDays(d: number, rs: { bankfullDepth: { coef: number; exp: number }; bankfullWidth: { coef: number; exp: number } }): number {
  const areaKm2 = Math.pow(d / rs.bankfullDepth.coef, 1 / rs.bankfullDepth.exp);
  const lengthKm = KM_PER_MI * HACK.coefMi * Math.pow(areaKm2 / (KM_PER_MI * KM_PER_MI), HACK.exp);
  const qbf = Math.pow(d / MOODY_TROUTMAN_DEPTH.coef, 1 / MOODY_TROUTMAN_DEPTH.exp);
  const wbf = rs.bankfullWidth.coef * Math.pow(areaKm2, rs.bankfullWidth.exp);
  const v = qbf / (wbf * d);
  return (lengthKm * 1000) / v / 86400;
}

/**
 * Discharge growth Q_T/Q_2 of a basin (hazards §3.4): the growth of the D-day rainfall at HKO for D the basin's
 * response time (the critical storm duration of the rational method; the flatter growth of large basins, Blöschl &
 * Sivapalan 1997, WRR 33:2967), clamped to the tabulated durations (5-90 days) and interpolated in ln D. Writes `out`.
 */
function basinGrowth(table: { days: number[]; growth: number[][] }) {
  const lnDays = table.days.map(Math.log);
  return (d: number, rs: Parameters<typeof basinResponseDays>[1], out: Float64Array): void => {
    const n = lnDays.length;
    const x = Math.log(basinResponseDays(d, rs));
    let i = 0;
    while (i < n - 2 && x > lnDays[i + 1]!) i++;
    const w = n === 1 ? 0 : Math.min(1, Math.max(0, (x - lnDays[i]!) / (lnDays[i + 1]! - lnDays[i]!)));
    const a = table.growth[i]!,
      b = table.growth[n === 1 ? 0 : i + 1]!;
    const g2 = a[0]! * (1 - w) + b[0]! * w;
    for (let k = 0; k < out.length; k++) out[k] = (a[k]! * (1 - w) + b[k]! * w) / g2;
  };
}

export function createRiverFlood(src: LayerSet): HazardModel {
  const handL = src.get('river_hand');
  const dbfL = src.get('river_bankfull_depth');
  const hand = handL.data as Uint8Array;
  const dbf = dbfL.data as Uint8Array;
  const relL = src.get('river_relief');
  const rel = relL.data as Uint8Array;
  const relScale = relL.e.scale;
  const handNodata = handL.e.nodata;
  const handScale = handL.e.scale;
  const dbfScale = dbfL.e.scale;
  const growth = src.params.riverGrowth as number[];
  const byDuration = src.params.riverGrowthByDuration as { days: number[]; growth: number[][] } | undefined;
  // Q_T/Q_2 from the growth curve of the basin's response time (R_D,T/R_D,2); the 5-day curve (riverGrowth) for layers
  // built before the duration curves
  const growthOf = basinGrowth(byDuration ?? { days: [5], growth: [growth] });
  const q = new Float64Array(N_RP);
  const rs = src.params.riverStage as {
    stageDischargeExp: number;
    bankfullDepth: { coef: number; exp: number };
    bankfullWidth: { coef: number; exp: number };
    manningN: { channel: number; floodplain: number };
    cellWidthM: number;
  };
  const f = rs.stageDischargeExp;
  // W_bf from D_bf through the drainage area of both Bieger et al. (2015) relations
  const wExp = rs.bankfullWidth.exp / rs.bankfullDepth.exp;
  const nRatio = rs.manningN.channel / rs.manningN.floodplain;
  const wbf = (d: number) => rs.bankfullWidth.coef * Math.pow(d / rs.bankfullDepth.coef, wExp);
  const uc = unitCatchment(hand, rel, handNodata, handScale, relScale);
  /**
   * Stage above bankfull (m) at discharge ratio q > 1: bisection on the compound-channel relation above, from `lo` (a
   * stage known to be below: the previous, more frequent return period's) to 0.1 mm.
   */
  const overbankStage = (q: number, d: number, w: number, lo: number): number => {
    let hi = d * (Math.pow(q, f) - 1);
    const k = (nRatio * rs.cellWidthM) / (w * Math.pow(d, 5 / 3));
    while (hi - lo > 1e-4) {
      const s = (lo + hi) / 2;
      const g = Math.pow(1 + s / d, 1 / f) + k * uc.conveyance(s);
      if (g > q) hi = s;
      else lo = s;
    }
    return (lo + hi) / 2;
  };
  return {
    sample(site, _ctx, { curves, values, scores }) {
      const raw = hand[site.c5]!;
      const h = raw * handScale;
      const d = dbf[site.c5]! * dbfScale;
      const r = rel[site.c5]! * relScale;
      const m = 1 + site.dRx5 / 100;
      if (raw !== handNodata && d > 0) {
        uc.load(site.c5);
        growthOf(d, rs, q);
      }
      let s = 0;
      for (let k = 0; k < N_RP; k++) {
        const qk = q[k]! * m;
        // q grows with the return period, so each stage starts from the last
        s = raw === handNodata || qk <= 1 || d <= 0 ? 0 : overbankStage(qk, d, wbf(d), s);
        curves[2 * N_RP + k] = cellMeanDepth(s, h, r);
      }
      values[H] = curves[2 * N_RP + I100]!;
      scores[H] = floodScore(values[H]!);
    },
    scoreOf: floodScore,
  };
}
