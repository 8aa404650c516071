/**
 * Sea-level rise at a coastal site (within 50 km of the coast, every latitude), m since 2020 (docs/methodology/hazards.md
 * §3.3): ΔSL = [GMSL(SSP, year) − GMSL(SSP, 2020)] + r_local·(year − 2020), GMSL the IPCC AR6 central projection
 * (Fox-Kemper et al. 2021, Garner et al. 2021; scenario.ts gmslRiseSince2020M) and r_local (slr_local_rate) the PSMSL RLR
 * gauge trend minus the AR6 GMSL mean rate over the same years where a gauge qualifies, else the ICE-5G GIA rate
 * (Peltier 2004), and at least a sinking city's published subsidence rate (subsidence.ts). Scored on the freeboard left
 * above the risen sea (ground elevation minus the rise, scoring.ts slrScore).
 */
import { slrScore } from '../scoring.js';
import { linearInterp, sspOf } from '../scenario.js';
import type { HazardMeta, LayerSet, ScenarioContext } from '../types.js';
import { hazardIndex, idx05, round4, type HazardModel, type Site } from './common.js';
import { citySubsidenceMmYr } from './subsidence.js';

export const SEA_LEVEL_RISE_META: HazardMeta = {
  layers: ['coast_tile_index', 'coast_elevation', 'coast_distance', 'coast_fine_tile_index', 'coast_fine_distance', 'slr_local_rate', 'slr_local_se'],
  tier: 'observed/modelled from real data',
  resolutionKm: 9.3,
  model: 'AR6 GMSL central projection + local PSMSL residual rate, else ICE-5G GIA; published subsidence of sinking cities',
};

const H = hazardIndex('sea_level_rise');

type GmslLikely = Record<'ssp126' | 'ssp245' | 'ssp585', { years: number[]; median: number[]; low: number[]; high: number[] }>;

export interface SeaLevelRiseModel extends HazardModel {
  /** Relative rise since 2020 at the site, m (GMSL plus the local gauge rate); also inland, where it is not reported. */
  riseM(site: Site, ctx: ScenarioContext): number;
  /** Local relative sea-level rate beyond GMSL at a point, mm/yr (gauge residual, else ICE-5G GIA; sinking cities' rate). */
  localRateMmYr(lat: number, lng: number): number;
  /** AR6 likely (17-83 %) range of a point's rise `median`; null without the AR6 likely table. */
  likelyRange(lat: number, lng: number, ctx: ScenarioContext, median: number): { low: number; high: number } | null;
}

export function createSeaLevelRise(src: LayerSet): SeaLevelRiseModel {
  // r_local, 0.01 mm/yr (-32768: none, taken as 0)
  const slrRate = src.get('slr_local_rate').data as Int16Array;
  // optional (layers built before 2026-11-25 lack it): standard error of the local gauge trend, 0.01 mm/yr
  const slrSe = src.optional('slr_local_se')?.data as Int16Array | undefined;
  const gmslLikely = src.params.gmslLikely as GmslLikely | undefined;
  /** Local rate beyond GMSL, mm/yr: the gauge residual or GIA rate of the cell, at least a sinking city's published rate. */
  const localRateMmYr = (c05: number, lat: number, lng: number): number => {
    const rate = slrRate[c05]!;
    const layer = rate === -32768 ? 0 : rate * 0.01;
    const city = citySubsidenceMmYr(lat, lng);
    return city > layer ? city : layer; // (NaN outside every city: the layer's rate)
  };
  return {
    localRateMmYr: (lat, lng) => localRateMmYr(idx05(lat, lng), lat, lng),
    riseM(site, ctx) {
      return ctx.gmslRiseM + (localRateMmYr(site.c05, site.lat, site.lng) * (ctx.year - 2020)) / 1000;
    },
    sample(site, _ctx, { values, scores }) {
      const coast = site.coast;
      if (coast) {
        values[H] = site.slrM;
        scores[H] = slrScore(coast.elev - site.slrM, site.slrM);
      } else {
        values[H] = NaN;
        scores[H] = 0;
      }
    },
    scoreOf: () => 0, // a rise from an own layer, without the site's elevation: no exposure known
    /**
     * The AR6 Table 9.9 likely-to-median ratios (2050 before 2050, linear to 2100) applied to the GMSL rise since 2020,
     * combined in quadrature with ±1 standard error of the local gauge trend times the years since 2020.
     */
    likelyRange(lat, lng, ctx, median) {
      const t = gmslLikely?.[sspOf(ctx.scenario)];
      if (!t || t.years.length < 2) return null;
      const ratio = (arr: number[]) => {
        const r = arr.map((x, i) => x / t.median[i]!);
        return linearInterp(t.years, r, Math.min(t.years[t.years.length - 1]!, Math.max(t.years[0]!, ctx.year)), false);
      };
      const g = ctx.gmslRiseM;
      const seRaw = slrSe ? slrSe[idx05(lat, lng)]! : -32768;
      const localSe = seRaw === -32768 ? 0 : (seRaw * 0.01 * (ctx.year - 2020)) / 1000;
      const dLow = Math.hypot(g * (1 - ratio(t.low)), localSe),
        dHigh = Math.hypot(g * (ratio(t.high) - 1), localSe);
      return { low: round4(median - dLow), high: round4(median + dHigh) };
    },
  };
}
