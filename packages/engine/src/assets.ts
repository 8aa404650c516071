/**
 * Asset attributes as the product stores them (spec 001 §3.3, §3.6) and their normalisation for the engine.
 * Every field may be missing or NA: money defaults to 0, ownership to 100 %, type to "commercial", mitigation to none.
 * (These types could move to @crp/contracts.)
 */
import { HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { jrcContinentOf, tcRegionOf, type JrcContinent, type TcRegion } from './geo.js';
import { propertyTypeOf, type PropertyTypeInfo } from './property-types.js';
import { jrcCurve } from './vulnerability/flood.js';
import { vHalfForRegion, WIND_TURBINE_CURVE } from './vulnerability/wind.js';
import { uniformTable, type PiecewiseLinear, type UniformTable } from './interp.js';
import { combineMeasures, defaultMeasure, mitigationLevelOf, resolveMeasure, type AdaptationMeasure, type ResolvedMeasure } from './adaptation.js';

type Num = number | string | null | undefined;

export interface AssetInput {
  id?: string | number;
  name?: string;
  latitude?: Num;
  longitude?: Num;
  /** ISO 3166 alpha-2 or alpha-3. */
  country_code?: string | null;
  /** Property type (PROPERTY_TYPES key or label, or a common synonym). */
  type?: string | null;
  valuation?: Num;
  construction_cost?: Num;
  content_value?: Num;
  yearly_inventory_value?: Num;
  revenue?: Num;
  /** Ownership in percent (0-100). */
  ownership?: Num;
  floors?: Num;
  /** First-floor (plinth) height above ground, metres. */
  plinth_height?: Num;
  basement?: boolean | string | null;
  /** Asset mitigation level 0-3 or none/low/medium/high. */
  mitigation_risk?: Num;
  /** Ground elevation above mean sea level (m), if known (used by sea-level rise). */
  elevation_m?: Num;
  /** Annual production, GWh. */
  solar_production?: Num; wind_production?: Num; hydro_production?: Num;
  /** Annual production, kg. */
  wheat_production?: Num; rice_production?: Num; maize_production?: Num; fruit_production?: Num; vegetable_production?: Num;
}

/** Per-hazard adaptation measures chosen by the user (added to the asset's mitigation level, strongest wins). */
export type HazardMeasures = Partial<Record<HazardKey, AdaptationMeasure>>;

export interface PreparedAsset {
  latDeg: number; lonDeg: number;
  continent: JrcContinent; tcRegion: TcRegion;
  property: PropertyTypeInfo;
  /** Damageable building value: construction cost if given, else valuation. */
  buildingValue: number;
  contentValue: number; inventoryValue: number; revenue: number;
  /** Ownership fraction 0-1. */
  ownership: number;
  plinthHeightM: number;
  elevationM: number;
  mitigationLevel: 0 | 1 | 2 | 3;
  floodCurve: PiecewiseLinear;
  /** floodCurve tabulated every 0.01 m (exact: JRC breakpoints are multiples of 0.01 m). */
  floodTable: UniformTable;
  vHalfMs: number;
  /** Tabulated wind vulnerability replacing Emanuel (wind turbines: Rose et al. 2012), or null. */
  windTable: UniformTable | null;
  /** Resolved measure per hazard, in HAZARD_KEYS order. */
  measures: ResolvedMeasure[];
  energyGwh: number; cropsKg: number;
}

/** Hazus default first-floor height (slab-on-grade, 1 ft), used with the JRC North America curves. */
export const NA_DEFAULT_FIRST_FLOOR_M = 0.305;

const tables = new Map<string, UniformTable>();
const TURBINE_TABLE = uniformTable(WIND_TURBINE_CURVE, 5);
function floodTableOf(occ: PropertyTypeInfo['jrc'], continent: JrcContinent): UniformTable {
  const k = `${occ}/${continent}`;
  let t = tables.get(k);
  if (!t) { t = uniformTable(jrcCurve(occ, continent), 0.01); tables.set(k, t); }
  return t;
}

// Resolved default measures per mitigation level, shared (immutable) by every asset without user measures.
const DEFAULT_RESOLVED = ([0, 1, 2, 3] as const).map((lvl) => HAZARD_KEYS.map((h) => resolveMeasure(defaultMeasure(h, lvl))));
function resolvedMeasures(level: 0 | 1 | 2 | 3, measures: HazardMeasures): ResolvedMeasure[] {
  const defaults = DEFAULT_RESOLVED[level] as ResolvedMeasure[];
  let any = false;
  for (const k in measures) if (measures[k as HazardKey]) { any = true; break; }
  if (!any) return defaults;
  return HAZARD_KEYS.map((h, i) => combineMeasures(defaults[i] as ResolvedMeasure, resolveMeasure(measures[h])));
}

/** Parse a number; NA, empty, non-finite -> NaN. */
export function num(v: Num): number {
  if (v === null || v === undefined || v === '') return Number.NaN;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[,\s$]/g, ''));
  return Number.isFinite(n) ? n : Number.NaN;
}
const pos = (v: Num) => { const n = num(v); return n > 0 ? n : 0; };

export function prepareAsset(a: AssetInput, measures: HazardMeasures = {}): PreparedAsset {
  const lat = num(a.latitude); const lon = num(a.longitude);
  const property = propertyTypeOf(a.type);
  const continent = jrcContinentOf(lat, lon, a.country_code);
  const tcRegion = tcRegionOf(lat, lon, a.country_code);
  const own = num(a.ownership);
  const mitigationLevel = mitigationLevelOf(a.mitigation_risk);
  const cc = pos(a.construction_cost);
  return {
    latDeg: lat, lonDeg: lon, continent, tcRegion, property,
    buildingValue: cc > 0 ? cc : pos(a.valuation),
    contentValue: pos(a.content_value), inventoryValue: pos(a.yearly_inventory_value), revenue: pos(a.revenue),
    ownership: Number.isFinite(own) ? Math.min(1, Math.max(0, own / 100)) : 1,
    // JRC's North American curves are relative to the first floor (they derive from USACE/FEMA curves): without a
    // plinth height we use the Hazus default first-floor height 1 ft (0.305 m) there; elsewhere 0 (curves vs ground).
    plinthHeightM: Number.isFinite(num(a.plinth_height)) ? pos(a.plinth_height) : continent === 'north_america' ? NA_DEFAULT_FIRST_FLOOR_M : 0,
    elevationM: num(a.elevation_m),
    mitigationLevel,
    floodCurve: jrcCurve(property.jrc, continent),
    floodTable: floodTableOf(property.jrc, continent),
    vHalfMs: vHalfForRegion(tcRegion),
    windTable: property.production === 'wind' ? TURBINE_TABLE : null,
    measures: resolvedMeasures(mitigationLevel, measures),
    energyGwh: pos(a.solar_production) + pos(a.wind_production) + pos(a.hydro_production),
    cropsKg: pos(a.wheat_production) + pos(a.rice_production) + pos(a.maize_production) + pos(a.fruit_production) + pos(a.vegetable_production),
  };
}
