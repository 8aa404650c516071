/**
 * Adaptation measures, CLIMADA-style (Aznar-Siguan & Bresch 2019; climada/entity/measures/base.py):
 *  - intensity change  I' = max(a I - b, 0) with a <= 1, b >= 0 (e.g. flood-proofing lowers the depth that reaches
 *    the damageable part: b = protected height in m);
 *  - damage change     MDD' = max(c MDD + e, 0) with c <= 1, e <= 0 (e.g. hurricane shutters);
 *  - frequency cut-off events more frequent than 1/protectionRp cause no damage (standard of protection).
 * Parameters are clamped so a measure can never raise a loss (docs/methodology/engine.md §3.2).
 */
import type { HazardKey } from '@crp/contracts';

export interface AdaptationMeasure {
  /** a in I' = max(a I - b, 0); default 1. Values above 1 are clamped to 1. */
  intensityScale?: number;
  /** b in I' = max(a I - b, 0), in the hazard's unit; default 0; negative values are clamped to 0. */
  intensityReduction?: number;
  /** c in MDD' = max(c MDD + e, 0); default 1; clamped to [0, 1]. */
  damageScale?: number;
  /** e in MDD' = max(c MDD + e, 0); default 0; positive values are clamped to 0. */
  damageShift?: number;
  /** Standard of protection (years): events with return period below it cause no damage. */
  protectionRpYears?: number;
}

export const MITIGATION_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type MitigationLevel = (typeof MITIGATION_LEVELS)[number];

/** Accepts 0-3, 'none'/'low'/'medium'/'high' (any case) or null (= none). */
export function mitigationLevelOf(v: unknown): 0 | 1 | 2 | 3 {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.max(0, Math.min(3, Math.round(v))) as 0 | 1 | 2 | 3;
  if (typeof v === 'string') {
    const i = MITIGATION_LEVELS.indexOf(v.trim().toLowerCase() as MitigationLevel);
    if (i >= 0) return i as 0 | 1 | 2 | 3;
    const n = Number(v);
    if (Number.isFinite(n)) return mitigationLevelOf(n);
  }
  return 0;
}

/**
 * Default measure per hazard for mitigation levels 1-3 (low, medium, high). Sources:
 *  - floods: dry flood-proofing / barriers protect up to ~0.9 m (3 ft) (FEMA P-936, 2013, Floodproofing Non-Residential
 *    Buildings; FEMA P-312, 2014): low 0.3 m, medium 0.6 m + 10-yr standard of protection, high 0.9 m + 25-yr.
 *  - typhoon: shutters, roof-to-wall connections (IBHS FORTIFIED); RULE damage scale 0.85 / 0.7 / 0.55.
 *  - wildfire: defensible space and ember-resistant vents; RULE damage scale 0.8 / 0.6 / 0.45.
 *  - heat: cooling / shifted work hours; RULE disruption scale 0.8 / 0.6 / 0.4.
 *  - other hazards: RULE damage scale 0.9 / 0.8 / 0.7.
 * The scales are conservative RULES (no open source gives a single number); they are product parameters.
 */
export function defaultMeasure(hazard: HazardKey, level: 0 | 1 | 2 | 3): AdaptationMeasure | null {
  if (level === 0) return null;
  const i = level - 1;
  switch (hazard) {
    case 'river_flood':
    case 'rainfall_flood':
    case 'storm_surge':
      return { intensityReduction: [0.3, 0.6, 0.9][i] as number, ...(level >= 2 ? { protectionRpYears: level === 2 ? 10 : 25 } : {}) };
    case 'typhoon':
      return { damageScale: [0.85, 0.7, 0.55][i] as number };
    case 'wildfire':
      return { damageScale: [0.8, 0.6, 0.45][i] as number };
    case 'extreme_heat':
      return { damageScale: [0.8, 0.6, 0.4][i] as number };
    default:
      return { damageScale: [0.9, 0.8, 0.7][i] as number };
  }
}

/** Normalised, clamped measure parameters (never raise a loss). */
export interface ResolvedMeasure {
  a: number;
  b: number;
  c: number;
  e: number;
  cutoffP: number;
  active: boolean;
}

export const NO_MEASURE: ResolvedMeasure = { a: 1, b: 0, c: 1, e: 0, cutoffP: Infinity, active: false };

export function resolveMeasure(m: AdaptationMeasure | null | undefined): ResolvedMeasure {
  if (!m) return NO_MEASURE;
  const fin = (v: number | undefined, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  const a = Math.min(1, Math.max(0, fin(m.intensityScale, 1)));
  const b = Math.max(0, fin(m.intensityReduction, 0));
  const c = Math.min(1, Math.max(0, fin(m.damageScale, 1)));
  const e = Math.min(0, fin(m.damageShift, 0));
  const rp = fin(m.protectionRpYears, 0);
  const cutoffP = rp > 1 ? 1 / rp : Infinity;
  return { a, b, c, e, cutoffP, active: a !== 1 || b !== 0 || c !== 1 || e !== 0 || cutoffP !== Infinity };
}

/** Combine two measures (e.g. the asset's mitigation level and a user measure): the stronger of each parameter. */
export function combineMeasures(x: ResolvedMeasure, y: ResolvedMeasure): ResolvedMeasure {
  const r = {
    a: Math.min(x.a, y.a),
    b: Math.max(x.b, y.b),
    c: Math.min(x.c, y.c),
    e: Math.min(x.e, y.e),
    cutoffP: Math.min(x.cutoffP, y.cutoffP),
    active: x.active || y.active,
  };
  return r;
}

export const applyIntensity = (m: ResolvedMeasure, intensity: number): number => {
  const v = m.a * intensity - m.b;
  return v > 0 ? v : 0;
};
export const applyDamage = (m: ResolvedMeasure, damage: number): number => {
  const v = m.c * damage + m.e;
  return v > 0 ? (v < damage ? v : damage) : 0;
};
