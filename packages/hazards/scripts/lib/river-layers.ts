/**
 * The river-flood layers (`river_hand`, `river_bankfull_depth`, `river_relief`) and their parameters, shared by the full build
 * (build-layers.ts) and the river-only rebuild (build-river-layers.ts). Model: docs/methodology/hazards.md §3.4.
 */
import { GRID_5M, type LayerEntry, type TypedArray } from '../../src/layer-format.js';
import { BANKFULL_DEPTH, BANKFULL_WIDTH, MANNING_N, STAGE_DISCHARGE_EXP, WDBII_MAX_LEVEL, riverNetwork, riverStageInputs } from './rivers.js';
import { KM_PER_5MIN, type Terrain } from './terrain.js';

/** HAND is stored in 0.1 m steps up to 25.4 m (255: outside every river's 1,000-year stage). */
export const RIVER_HAND_SCALE_M = 0.1;
/** Bankfull depth in 0.05 m steps up to 12.75 m (the Amazon's drainage area gives 8.6 m). */
export const RIVER_BANKFULL_SCALE_M = 0.05;
/** Sub-grid relief in 0.5 m steps (ETOPO5 heights are whole metres) up to 127 m; larger reliefs are clipped, which
 * floods more of the cell than the true relief would (errs on the side of more loss). */
export const RIVER_RELIEF_SCALE_M = 0.5;

/** Rounds to uint8 steps of `scale` (NaN → nodata, clipped below nodata), as build-layers.ts quantise does. */
function toUint8(values: Float32Array, scale: number, nodata: number | null): Uint8Array {
  const a = new Uint8Array(values.length);
  const hi = nodata === 255 ? 254 : 255;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    a[i] = Number.isFinite(v) ? Math.min(hi, Math.max(0, Math.round(v / scale))) : (nodata ?? 0);
  }
  return a;
}

export function buildRiverLayers(dir: string, t: Terrain, riverGrowth: readonly number[]) {
  const net = riverNetwork(dir);
  const qMax = riverGrowth[riverGrowth.length - 1]! / riverGrowth[0]!;
  const s = riverStageInputs(t, net, qMax);
  const datasets = net.wdbii ? ['etopo5-global-dem', 'gshhg-wdbii-rivers', 'natural-earth'] : ['etopo5-global-dem', 'natural-earth'];
  const layers: { entry: Omit<LayerEntry, 'file' | 'sha256' | 'bytesRaw' | 'bytesGz'>; data: TypedArray }[] = [
    {
      entry: {
        name: 'river_hand',
        dtype: 'uint8',
        grid: GRID_5M,
        bands: 1,
        scale: RIVER_HAND_SCALE_M,
        offset: 0,
        nodata: 255,
        unit: 'm',
        description:
          "Height of the 5' cell above the bankfull water level of its governing river (flow-path HAND on ETOPO5 against WDBII and Natural Earth 1:50m rivers); 255 outside every river's 1,000-year stage",
        resolutionKm: 9.3,
        datasets,
      },
      data: toUint8(s.hand, RIVER_HAND_SCALE_M, 255),
    },
    {
      entry: {
        name: 'river_bankfull_depth',
        dtype: 'uint8',
        grid: GRID_5M,
        bands: 1,
        scale: RIVER_BANKFULL_SCALE_M,
        offset: 0,
        nodata: null,
        unit: 'm',
        description:
          'Bankfull depth of the governing river, 0.30·A^0.213 of its drainage area A (km², Priority-Flood on river-burned ETOPO5; Bieger et al. 2015)',
        resolutionKm: 9.3,
        datasets,
      },
      data: toUint8(s.bankfullM, RIVER_BANKFULL_SCALE_M, null),
    },
    {
      entry: {
        name: 'river_relief',
        dtype: 'uint8',
        grid: GRID_5M,
        bands: 1,
        scale: RIVER_RELIEF_SCALE_M,
        offset: 0,
        nodata: null,
        unit: 'm',
        description:
          "Sub-grid relief of the 5' cell (half the ETOPO5 height range of its 3×3 neighbourhood, an approximation): ground heights in the cell are taken as uniform over [HAND, HAND + relief] (sub-grid floodplain profile, Yamazaki et al. 2011); 0 outside every river's 1,000-year stage",
        resolutionKm: 9.3,
        datasets: ['etopo5-global-dem'],
      },
      data: toUint8(s.reliefM, RIVER_RELIEF_SCALE_M, null),
    },
  ];
  const params = {
    bankfullDepth: BANKFULL_DEPTH,
    stageDischargeExp: STAGE_DISCHARGE_EXP,
    bankfullWidth: BANKFULL_WIDTH,
    manningN: MANNING_N,
    cellWidthM: Math.round(KM_PER_5MIN * 1000),
    bankfullReturnPeriodYears: 2,
    wdbii: net.wdbii ? { ...net.wdbii, package: 'Debian gmt-gshhg-full 2.3.7-6 (GSHHG 2.3.7)', maxLevel: WDBII_MAX_LEVEL } : null,
    sources: [
      'Leopold & Maddock (1953) USGS Prof. Paper 252: at-a-station d ∝ Q^0.40',
      'Bieger et al. (2015) JAWRA 51:842: D_bf = 0.30·A^0.213 (US nationwide)',
      'Winsemius et al. (2013) HESS 17:1871: the channel holds the 2-year flood',
      'Rennó et al. (2008) RSE 112:3469: HAND',
      'Barnes, Lehman & Mulla (2014) C&G 62:117: Priority-Flood',
      'Bieger et al. (2015) JAWRA 51:842: W_bf = 2.70·A^0.352 (US nationwide)',
      'CaMa-Flood defaults (Yamazaki et al. 2011): Manning n 0.03 channel, 0.10 floodplain',
      'Yamazaki, Kanae, Kim & Oki (2011) WRR 47:W04501: sub-grid floodplain profile (flooded share and depth from the ground heights within the cell)',
    ],
  };
  return { layers, params };
}
