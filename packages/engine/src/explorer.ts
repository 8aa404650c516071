/**
 * Building-damage explorer (spec 001 §2.3, §3.4; `POST api/v2/building_damage/`): damage-ratio curves for river
 * flood, storm surge and rainfall flood per scenario 26/45/85 for a building described by basement, construction,
 * stories, occupancy and value per m2. Uses the Hazus / USACE depth-damage functions relative to the first floor
 * (vulnerability/flood.ts). Pure.
 */
import type { ReturnPeriodCurve, ScenarioCode } from '@crp/contracts';
import { DEFAULT_FIRST_FLOOR_HEIGHT_M, hazusCurves, hazusDamage, type HazusOccupancy } from './vulnerability/flood.js';
import { eadFromCurve } from './ead.js';
import { prepareAsset, type AssetInput } from './assets.js';
import { allocateChunk, computeBatch, floodDamage, HAZARD_INDEX } from './compute.js';
import { toBatch, type HazardProvider } from './portfolio.js';
import type { ScenarioYear } from './scenarios.js';

export const EXPLORER_BASEMENT = ['yes', 'no', 'unknown'] as const;
export const EXPLORER_CONSTRUCTION = ['wood', 'concrete', 'masonry', 'mobile home', 'light metal', 'steel', 'unknown'] as const;
export const EXPLORER_STORIES = ['1', '2', '3 or more', 'unknown'] as const;
export const EXPLORER_OCCUPANCY = ['residential', 'commercial', 'industrial', 'unknown'] as const;
/** Value-per-m2 bands: $0-5000 ... $45000-50000, the value is the upper bound (spec 001 §3.4). */
export const EXPLORER_VALUE_PER_SQ_M = [5000, 10000, 15000, 20000, 25000, 30000, 35000, 40000, 45000, 50000] as const;
export const EXPLORER_HAZARDS = ['river_flood', 'storm_surge', 'rainfall_flood'] as const;

export interface BuildingDamageParams {
  basement: (typeof EXPLORER_BASEMENT)[number];
  construction: (typeof EXPLORER_CONSTRUCTION)[number];
  /** A band, or a number of storeys (as a number or its digits). */
  stories: (typeof EXPLORER_STORIES)[number] | number | string;
  occupancy: (typeof EXPLORER_OCCUPANCY)[number];
  /** USD per m2 of floor area (upper bound of the chosen band). */
  per_sq_m_value: number;
  /** First-floor height above ground (m); default by basement (DEFAULT_FIRST_FLOOR_HEIGHT_M). */
  first_floor_height_m?: number;
}

/**
 * Share of the structure value that floods cannot damage, by construction. RULE after the JRC guidance (Huizinga et
 * al. 2017 §4) and OS-Climate physrisk (undamageable part 0.4 for concrete/masonry): masonry 0.2, concrete and steel
 * 0.3, wood / light metal / mobile home / unknown 0 (conservative). Applied on top of the Hazus curves.
 */
export const UNDAMAGEABLE_SHARE: Record<BuildingDamageParams['construction'], number> = {
  wood: 0,
  concrete: 0.3,
  masonry: 0.2,
  'mobile home': 0,
  'light metal': 0,
  steel: 0.3,
  unknown: 0,
};

/** Depth axis of the curves (m above ground): 0 to 6 m every 0.25 m. */
export const EXPLORER_DEPTHS_M: readonly number[] = Array.from({ length: 25 }, (_, i) => i * 0.25);

export interface ExplorerSeries {
  /** Depth above ground (m) or, when hazard curves were given, return period (years). */
  x: number[];
  /** Structure damage ratio 0-1. */
  y: number[];
  /** Damage in USD per m2 (= y x per_sq_m_value). */
  y_value: number[];
  x_unit: 'm' | 'years';
  /** Expected annual damage ratio (only with hazard curves). */
  expected_annual_damage_ratio: number | null;
}
export type BuildingDamageResult = Record<(typeof EXPLORER_HAZARDS)[number], Record<ScenarioCode, ExplorerSeries>> & {
  hazus_occupancy: string;
  first_floor_height_m: number;
  source: string;
};

/** Hazus occupancy and stories/basement chosen for the explorer inputs (unknowns take the conservative choice). */
export function explorerHazusSelection(p: BuildingDamageParams): { occ: HazusOccupancy; stories: 1 | 2 | 3; basement: boolean } {
  const n = p.stories === '3 or more' ? 3 : Number(p.stories);
  const stories = n >= 3 ? 3 : n === 2 ? 2 : 1; // unknown -> 1 storey (highest ratios)
  const basement = p.basement !== 'no'; // unknown -> with basement (higher damage at shallow depth)
  const occ: HazusOccupancy =
    p.construction === 'mobile home' ? 'RES2' : p.occupancy === 'commercial' ? 'COM4' : p.occupancy === 'industrial' ? 'IND2' : 'RES1';
  return { occ, stories, basement };
}

/**
 * Computes the explorer curves. Without `hazardCurves`, each scenario gets the depth-damage curve (x = depth): the
 * building's vulnerability does not depend on the scenario. With the site's return-period curves per hazard and
 * scenario, x = return period and y = damage at that return period, plus the expected annual damage ratio.
 */
export function buildingDamageCurves(
  p: BuildingDamageParams,
  hazardCurves?: Partial<Record<(typeof EXPLORER_HAZARDS)[number], Partial<Record<ScenarioCode, ReturnPeriodCurve>>>>,
): BuildingDamageResult {
  const sel = explorerHazusSelection(p);
  const curves = hazusCurves(sel.occ, sel.stories, sel.basement);
  const ffh =
    Number.isFinite(p.first_floor_height_m) && (p.first_floor_height_m as number) >= 0
      ? (p.first_floor_height_m as number)
      : sel.basement
        ? DEFAULT_FIRST_FLOOR_HEIGHT_M.basement
        : DEFAULT_FIRST_FLOOR_HEIGHT_M.noBasement;
  const keep = 1 - (UNDAMAGEABLE_SHARE[p.construction] ?? 0);
  const value = Number.isFinite(p.per_sq_m_value) && p.per_sq_m_value > 0 ? p.per_sq_m_value : 0;
  const damageAt = (depthM: number) => keep * hazusDamage(curves.structure, depthM, ffh);
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const out: Record<string, Record<string, ExplorerSeries>> = {};
  for (const hz of EXPLORER_HAZARDS) {
    out[hz] = {};
    for (const sc of ['26', '45', '85'] as const) {
      const hc = hazardCurves?.[hz]?.[sc];
      if (hc && hc.returnPeriodsYears.length) {
        const order = hc.returnPeriodsYears.map((_, i) => i).sort((a, b) => (hc.returnPeriodsYears[a] as number) - (hc.returnPeriodsYears[b] as number));
        let run = 0;
        const x: number[] = [];
        const y: number[] = [];
        for (const i of order) {
          run = Math.max(run, hc.intensities[i] ?? 0);
          x.push(hc.returnPeriodsYears[i] as number);
          y.push(round(damageAt(run)));
        }
        const ead = eadFromCurve(hc.returnPeriodsYears, hc.intensities, damageAt).mean;
        out[hz][sc] = { x, y, y_value: y.map((v) => round(v * value)), x_unit: 'years', expected_annual_damage_ratio: Number.isNaN(ead) ? null : round(ead) };
      } else {
        const y = EXPLORER_DEPTHS_M.map((d) => round(damageAt(d)));
        out[hz][sc] = { x: [...EXPLORER_DEPTHS_M], y, y_value: y.map((v) => round(v * value)), x_unit: 'm', expected_annual_damage_ratio: null };
      }
    }
  }
  return {
    ...(out as Record<(typeof EXPLORER_HAZARDS)[number], Record<ScenarioCode, ExplorerSeries>>),
    hazus_occupancy: curves.key,
    first_floor_height_m: ffh,
    source: curves.structure.source,
  };
}

/**
 * The explorer for one asset (issue 37 item 3): the damage of the building the analysis models (its own flood table:
 * JRC curve by region and occupancy, storeys, basement, plinth; assets.ts) at each return period of the site's curves,
 * and the expected annual damage ratio the analysis computes for it (ResultChunk.ead: after the standard of flood
 * protection, before adaptation), so the explorer and the dashboard show one number. `input` is the asset as the
 * analysis reads it, with the explorer's choices applied; `provider` the analysis's hazard provider.
 */
export function assetDamageCurves(
  input: AssetInput,
  scenarioYears: Record<ScenarioCode, ScenarioYear>,
  provider: HazardProvider,
  perSqMValue: number,
): Record<(typeof EXPLORER_HAZARDS)[number], Record<ScenarioCode, ExplorerSeries>> {
  const A = prepareAsset(input);
  const value = Number.isFinite(perSqMValue) && perSqMValue > 0 ? perSqMValue : 0;
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const out = Object.fromEntries(EXPLORER_HAZARDS.map((hz) => [hz, {}])) as Record<(typeof EXPLORER_HAZARDS)[number], Record<ScenarioCode, ExplorerSeries>>;
  for (const sc of ['26', '45', '85'] as const) {
    const sy = scenarioYears[sc];
    const batch = toBatch(provider(sy, [input], 0, 1));
    const chunk = allocateChunk(0, 1, [sy]);
    computeBatch([A], 0, batch, 0, chunk);
    for (const hz of EXPLORER_HAZARDS) {
      const curve = batch.curves[hz];
      const x: number[] = [];
      const y: number[] = [];
      if (curve) {
        // the running maximum of the depths, as the analysis reads a curve (compute.ts curveCell)
        let run = 0;
        for (let k = 0; k < curve.returnPeriodsYears.length; k++) {
          const d = curve.intensities[k] as number;
          if (d > run) run = d;
          x.push(curve.returnPeriodsYears[k] as number);
          y.push(round(floodDamage(A, run)));
        }
      }
      const ead = chunk.ead[HAZARD_INDEX[hz]] as number;
      out[hz][sc] = { x, y, y_value: y.map((v) => round(v * value)), x_unit: 'years', expected_annual_damage_ratio: Number.isNaN(ead) ? null : round(ead) };
    }
  }
  return out;
}
