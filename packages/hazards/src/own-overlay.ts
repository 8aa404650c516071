/**
 * Own layers (bring-your-own GeoTIFFs: the installation's and a company's) over the built-in sample: where an own
 * raster covers the point, its value (or its return-period curve) replaces the built-in one and is scored by the
 * hazard's own scoring (docs/methodology/hazards.md §5).
 */
import { HAZARD_KEYS, OWN_DATA_TIER, severityBand, type DataTier, type HazardKey, type HazardPointValue, type ScenarioCode } from '@crp/contracts';
import type { ByoHit } from './byo.js';
import { N_RP, RPS, type CurveSample, type ScenarioContext } from './types.js';
import { CURVE_INDEX, round4, type HazardModel } from './models/common.js';

/**
 * Intensity at return period T from user-supplied (RP, intensity) pairs: linear in ln(RP) between them, flat above the
 * largest, and linear in ln(RP) down to 0 at 1 year below the smallest.
 */
export function interpLogRp(rps: number[], vals: number[], T: number): number {
  const n = rps.length;
  if (n === 0) return NaN;
  if (T >= rps[n - 1]!) return vals[n - 1]!;
  if (T <= rps[0]!) return rps[0]! <= 1 ? vals[0]! : Math.max(0, (vals[0]! * Math.log(Math.max(1, T))) / Math.log(rps[0]!));
  let i = 0;
  while (T > rps[i + 1]!) i++;
  const t = (Math.log(T) - Math.log(rps[i]!)) / (Math.log(rps[i + 1]!) - Math.log(rps[i]!));
  return vals[i]! + t * (vals[i + 1]! - vals[i]!);
}

/** A hazard's hits split into return-period entries (sorted by RP) and the plain value, if any. */
function splitByo(hs: ByoHit[]): { rpYears: number[]; rpValues: number[]; plain: number | undefined } {
  const rp = hs.filter((h) => h.entry.returnPeriodYears != null).sort((a, b) => a.entry.returnPeriodYears! - b.entry.returnPeriodYears!);
  return {
    rpYears: rp.map((h) => h.entry.returnPeriodYears!),
    rpValues: rp.map((h) => h.value),
    plain: hs.find((h) => h.entry.returnPeriodYears == null)?.value,
  };
}

/** What the overlay reads: a ByoRegistry (own layers) or PublishedDatasets (published maps). */
export interface HitSource {
  readonly size: number;
  lookup(lat: number, lng: number, scenario: ScenarioCode, year: number): ByoHit[];
}

/** How a point answer marks a value from the overlay: own data (default) or a published dataset. */
export interface OverlayMark {
  tier: DataTier;
  /** Source text before the layers' names, e.g. 'own data'. */
  prefix: string;
}

export interface OwnOverlay {
  /** Own rasters in the fast path: values, scores and (for return-period entries) the curves at RPS; returns the hazards' bit mask. */
  overCurves(reg: HitSource, lat: number, lng: number, ctx: ScenarioContext, out: CurveSample): number;
  /** Own rasters over a point's answer (samplePoint): value, curve, score, tier and source of each hazard hit. */
  overPoint(out: Record<HazardKey, HazardPointValue>, hits: ByoHit[], mark?: OverlayMark): void;
}

export function createOwnOverlay(models: Record<HazardKey, HazardModel>): OwnOverlay {
  return {
    overCurves(reg, lat, lng, ctx, out) {
      const hits = reg.lookup(lat, lng, ctx.scenario, ctx.year);
      if (hits.length === 0) return 0;
      let mask = 0;
      for (const key of new Set(hits.map((h) => h.entry.hazard))) {
        const hs = hits.filter((h) => h.entry.hazard === key);
        const h = HAZARD_KEYS.indexOf(key);
        const { rpYears, rpValues, plain } = splitByo(hs);
        const ci = CURVE_INDEX[key];
        if (ci !== undefined && rpYears.length > 0) {
          for (let k = 0; k < N_RP; k++) out.curves[ci * N_RP + k] = interpLogRp(rpYears, rpValues, RPS[k]!);
        }
        const v = plain ?? (rpYears.length > 0 ? interpLogRp(rpYears, rpValues, 100) : NaN);
        out.values[h] = v;
        out.scores[h] = models[key].scoreOf(v);
        mask |= 1 << h;
      }
      return mask;
    },
    overPoint(out, hits, mark = { tier: OWN_DATA_TIER, prefix: 'own data' }) {
      const byHazard = new Map<HazardKey, ByoHit[]>();
      for (const h of hits) (byHazard.get(h.entry.hazard) ?? byHazard.set(h.entry.hazard, []).get(h.entry.hazard)!).push(h);
      for (const [key, hs] of byHazard) {
        const cur = out[key];
        const { rpYears, rpValues, plain } = splitByo(hs);
        let curve = cur.return_periods;
        if (rpYears.length > 0) curve = { returnPeriodsYears: rpYears, intensities: rpValues.map(round4) };
        const value = plain ?? interpLogRp(rpYears, rpValues, 100);
        const score = models[key].scoreOf(value);
        // named by label (or id) only: never a server path
        const names = [...new Set(hs.map((h) => h.entry.label ?? h.entry.id))].join('; ');
        out[key] = {
          ...cur,
          value: round4(value),
          unit: cur.unit,
          indicator: hs[0]!.entry.indicator ?? cur.indicator,
          return_periods: curve,
          intensity_score: score,
          score,
          band: severityBand(score),
          resolution_km: hs[0]!.resolutionKm,
          tier: mark.tier,
          source: `${mark.prefix}: ${names}; replaces built-in layer at this point`,
        };
      }
    },
  };
}
