/**
 * Wildfire (screening; docs/methodology/hazards.md §3.7). Two quantities:
 * - the **landscape burn rate** of a vegetated 0.1° pixel, p = min(1, k_g·F(ΔT)): F the 0.5° fire climate (fire-season
 *   months by Bagnouls-Gaussen and the Monthly Drought Code, a season factor that plateaus at 6 months, the fuel limit
 *   min(1, P/1000 mm), the Thornthwaite PET ratio at the region's CMIP6 ΔTXx), k_g calibrated per fuel group (woody:
 *   IGBP 1-7; grass-fuelled: IGBP 8-10) against observed burned fractions (params.wildfireCalibration);
 * - the **building exposure** the hazard answers, the annual probability of an edge-equivalent wildfire exposure of a
 *   building at the point: a town is not its landscape pixel. Buildings stand on built-up land, which does not burn as
 *   wildland (FireCCI51 maps it as non-burnable); they are exposed from the vegetation within ember range, with the
 *   destruction probability falling linearly from the bushland edge to about 0 by 700 m inside it (Chen & McAneney 2004,
 *   GRL 31:L12212). On a vegetated pixel (the building among or beside the vegetation: intermix, or a town too small to
 *   dominate the 11 km pixel) the exposure is p × intermixEdgeFactor (the decay averaged over the 2.4 km interface band;
 *   grass fires reach 40 m, Cohen 2000, woody ones 700 m); on a built-up, cropland, mosaic or other pixel it is Σ over
 *   the four burnable neighbours of p(neighbour) × the share of the pixel within the decay,
 *   plus, on a cropland/natural-vegetation mosaic, its own natural share; far from fuel it is 0.
 * Scored on the damage of a house, WILDFIRE_SCORE_DESTRUCTION × exposure.
 */
import { damageFractionScore } from '../scoring.js';
import type { HazardMeta, LayerSet } from '../types.js';
import { chronicInterp, hazardIndex, type HazardModel } from './common.js';

export const WILDFIRE_META: HazardMeta = {
  layers: ['fuel', 'fire_climate', 'ar6_region'],
  tier: 'model on real inputs',
  resolutionKm: 11,
  model:
    'Building exposure at the wildland-urban interface: neighbouring vegetation burn rate (MODIS fuel group × fire-season climate × PET ratio, calibrated per fuel group to observed burned fractions) × the Chen & McAneney (2004) edge decay',
};

/** Fuel codes of the `fuel` layer (0.1°, from the MODIS IGBP class). */
export const FUEL_NONE = 0;
/** Forests and shrublands (IGBP 1-7), and savannas and grasslands outside the tropics: litter-, shrub- and crown-fuelled regimes. */
export const FUEL_WOODY = 1;
/**
 * Savannas, woody savannas and grasslands (IGBP 8-10) inside the tropics (23.44°S-23.44°N): the frequent, low-intensity
 * grass-fuelled fire regimes of the tropical savanna pyromes (Archibald et al. 2013, PNAS 110:6442). APPROXIMATION: the
 * tropics stand in for the pyrome map, which is not staged (MODIS calls both the Miombo and California's oak-conifer
 * foothills "woody savanna").
 */
export const FUEL_GRASS = 2;
/** Cropland/natural-vegetation mosaic (IGBP 14): not a burnable class, but holds natural vegetation of its own. */
export const FUEL_MOSAIC = 3;

/**
 * Reach of a woody-fuel fire into built-up land: house destruction falls linearly from the bushland edge to about 0 by
 * 700 m inside it, the reach of firebrands (Chen & McAneney 2004, GRL 31:L12212), km.
 */
export const EDGE_DECAY_WOODY_KM = 0.7;
/**
 * Reach of a grass fire: flames and radiant heat do not ignite a wall beyond about 40 m (Cohen 2000, J. For. 98(3):15, the
 * home ignition zone), and grass fuel burns out in under a minute without the long-range firebrands of bark and crowns,
 * so the linear decay is taken to end at 40 m (APPROXIMATION: no measured decay curve for grass fires), km.
 */
export const EDGE_DECAY_GRASS_KM = 0.04;
/** Interface WUI: housing within 2.4 km (1.5 mi) of a large heavily vegetated area (Radeloff et al. 2005, Ecol. Appl. 15:799), km. */
export const WUI_INTERFACE_KM = 2.4;
/** Reach (km) by fuel code. */
const REACH_KM = [0, EDGE_DECAY_WOODY_KM, EDGE_DECAY_GRASS_KM, 0];
/**
 * Edge factor of a building on a vegetated pixel: the mean of the linear decay max(0, 1 − d/reach) over buildings spread
 * evenly 0-2.4 km from the vegetation (the interface band) = reach / (2·2.4): 0.146 for woody fuel, 0.0083 for grass.
 * APPROXIMATION: the building's distance to the wildland inside an 11 km pixel is unknown. Check (woody): × 0.6
 * destruction at the edge (Chen & McAneney) gives 0.088 of buildings destroyed when the vegetation around them burns,
 * against 9.4 % of the buildings inside US fire perimeters 2000-2005 that burned (3,604 of 38,440; Alexandre et al.
 * 2015, IJWF 24:138).
 */
export const intermixEdgeFactor = (fuelCode: number): number => (REACH_KM[fuelCode] ?? 0) / (2 * WUI_INTERFACE_KM);
/**
 * Natural-vegetation share of a cropland/natural-vegetation mosaic pixel: no component above 60 % (IGBP legend, Friedl
 * et al. 2010), so 40-60 %; the middle, 0.5 (APPROXIMATION).
 */
export const MOSAIC_NATURAL_SHARE = 0.5;
/** Kilometres per 0.1° of latitude (mean Earth radius 6,371 km). */
const KM_PER_01DEG = 11.1195;
/**
 * Damage of a house per exposure for the score: destruction about 60 % at the bushland edge (Chen & McAneney 2004); the
 * engine applies the asset's own destruction probability (engine vulnerability/other.ts).
 */
export const WILDFIRE_SCORE_DESTRUCTION = 0.6;

const H = hazardIndex('wildfire');
const score = (exposure: number) => damageFractionScore(WILDFIRE_SCORE_DESTRUCTION * exposure);

/** Burn-rate coefficient k of each fuel code (0 for the non-burnable codes). */
export function fuelGroupK(params: Record<string, unknown>): Float64Array {
  const cal = params.wildfireCalibration as { kWoody: number; kGrass: number };
  const k = new Float64Array(4);
  k[FUEL_WOODY] = cal.kWoody;
  k[FUEL_GRASS] = cal.kGrass;
  return k;
}

/** Landscape burn rate of 0.1° pixel i as if its fuel code were g, at a regional ΔTXx (°C). */
export type BurnRate = (i: number, dTXx: number, g: number) => number;

export function createWildfire(src: LayerSet): HazardModel {
  const fireC = src.get('fire_climate').data as Uint16Array;
  const fuelL = src.get('fuel').data as Uint8Array;
  const K = fuelGroupK(src.params);
  const bandInterp = chronicInterp(src.params.chronicOffsetsC);
  /** Landscape burn rate of the 0.1° pixel i with fuel code g (0 where not burnable), at the site's regional ΔTXx. */
  const burnRate: BurnRate = (i, dTXx, g) => {
    const k = K[g]!;
    if (!(k > 0)) return 0;
    const c05 = Math.floor(i / 3600 / 5) * 720 + Math.floor((i % 3600) / 5);
    return Math.min(1, k * bandInterp(fireC, c05, dTXx, 1e-4));
  };
  return {
    sample(site, _ctx, { values, scores }) {
      const e = exposureAt(site.c01, site.lat, site.dTXx, fuelL, burnRate);
      values[H] = e;
      scores[H] = score(e);
    },
    scoreOf: score,
  };
}

/**
 * Edge-equivalent exposure of a building in 0.1° pixel i (row-major 3600 × 1800): on a vegetated pixel its burn rate ×
 * intermixEdgeFactor; elsewhere each burnable N/S/E/W neighbour adds its burn rate × the mean of the linear decay over
 * the pixel across that side, (reach/2) / the pixel's extent across the side (the corner neighbours reach ≈ 0.1 % of the
 * pixel and are left out), and a mosaic adds its natural share × the mean intermix exposure of its burnable neighbours
 * (or of woody fuel in its own climate when none is burnable).
 */
export function exposureAt(i: number, latDeg: number, dTXx: number, fuel: Uint8Array, burnRate: BurnRate): number {
  const own = fuel[i]!;
  if (own === FUEL_WOODY || own === FUEL_GRASS) return Math.min(1, intermixEdgeFactor(own) * burnRate(i, dTXx, own));
  const row = Math.floor(i / 3600),
    col = i % 3600;
  const nsKm = KM_PER_01DEG,
    ewKm = KM_PER_01DEG * Math.max(1e-3, Math.cos((latDeg * Math.PI) / 180));
  let e = 0,
    nb = 0,
    intermix = 0;
  const add = (j: number, extentKm: number) => {
    const g = fuel[j]!;
    if (g !== FUEL_WOODY && g !== FUEL_GRASS) return;
    const p = burnRate(j, dTXx, g);
    e += Math.min(1, REACH_KM[g]! / 2 / extentKm) * p;
    intermix += intermixEdgeFactor(g) * p;
    nb++;
  };
  if (row > 0) add(i - 3600, nsKm);
  if (row < 1799) add(i + 3600, nsKm);
  add(row * 3600 + ((col + 3599) % 3600), ewKm);
  add(row * 3600 + ((col + 1) % 3600), ewKm);
  if (own === FUEL_MOSAIC) e += MOSAIC_NATURAL_SHARE * (nb > 0 ? intermix / nb : intermixEdgeFactor(FUEL_WOODY) * burnRate(i, dTXx, FUEL_WOODY));
  return Math.min(1, e);
}
