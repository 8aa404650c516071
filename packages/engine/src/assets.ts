/**
 * Asset attributes as the product stores them (spec 001 §3.3, §3.6) and their normalisation for the engine.
 * Every field may be missing or NA: money defaults to 0, ownership to 100 %, type to "commercial", mitigation to none.
 * (These types could move to @crp/contracts.)
 */
import { constructionClassOf, HAZARD_KEYS, type ConstructionClass, type HazardKey } from '@crp/contracts';
import { jrcContinentOf, tcRegionOf, type JrcContinent, type TcRegion } from './geo.js';
import { propertyTypeOf, type PropertyTypeInfo } from './property-types.js';
import { buildingFloodDamage, FLOOD_MIN_DEPTH_M, jrcCurve } from './vulnerability/flood.js';
import { defaultFloodProtection, type FloodProtection } from './vulnerability/protection.js';
import { piecewiseLinear } from './interp.js';
import { hazusWindBuildingType, hazusWindCurve, vHalfForRegion, WIND_TURBINE_CURVE, type HazusWindBuildingType } from './vulnerability/wind.js';
import { wildfireDestructionGivenExposure } from './vulnerability/other.js';
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
  /**
   * Construction class (CONSTRUCTION_CLASSES or a synonym): selects the Hazus hurricane wind curve of the building
   * type (engine.md §1.3a). Empty or not a class: unknown, the regional Emanuel curve.
   */
  construction?: string | null;
  /** Asset mitigation level 0-3 or none/low/medium/high. */
  mitigation_risk?: Num;
  /**
   * Standard of flood protection of the site (years): river, rainfall and coastal floods more frequent than this cause
   * no damage. Empty = the default of the place (vulnerability/protection.ts).
   */
  flood_protection?: Num;
  /** Ground elevation above mean sea level (m), if known (used by sea-level rise). */
  elevation_m?: Num;
  /** Annual production, GWh. */
  solar_production?: Num;
  wind_production?: Num;
  hydro_production?: Num;
  /** Annual production, kg. */
  wheat_production?: Num;
  rice_production?: Num;
  maize_production?: Num;
  fruit_production?: Num;
  vegetable_production?: Num;
}

/** Per-hazard adaptation measures chosen by the user (added to the asset's mitigation level, strongest wins). */
export type HazardMeasures = Partial<Record<HazardKey, AdaptationMeasure>>;

export interface PreparedAsset {
  latDeg: number;
  lonDeg: number;
  continent: JrcContinent;
  tcRegion: TcRegion;
  property: PropertyTypeInfo;
  /** Damageable building value: construction cost if given, else valuation. */
  buildingValue: number;
  /**
   * The building's value as the user reported it: the valuation if given, else the construction cost. The denominator
   * of every percentage and the Total Asset Value (metrics reportedValue), never the damage (issue 37 item 2).
   */
  reportedValue: number;
  /** True when the user gave no valuation but a construction cost: reportedValue is the construction cost. */
  valuedAtCost: boolean;
  contentValue: number;
  inventoryValue: number;
  revenue: number;
  /** Ownership fraction 0-1. */
  ownership: number;
  plinthHeightM: number;
  /** Smallest depth above ground (m) that damages the building: max(plinth, FLOOD_MIN_DEPTH_M). */
  floodOnsetM: number;
  /** Storeys above ground (NaN unknown) and basement, as the flood vulnerability uses them. */
  floors: number;
  basement: boolean;
  /** Standards of flood protection (years) and where they come from. */
  protection: FloodProtection;
  /** Exceedance probabilities below which each curve hazard does damage (1/standard; Infinity = none), CURVE_HAZARDS order. */
  protectionCutP: Float64Array;
  elevationM: number;
  mitigationLevel: 0 | 1 | 2 | 3;
  /** The JRC curve of the occupancy and continent (depth above the first floor). */
  floodCurve: PiecewiseLinear;
  /**
   * Building damage ratio by water depth above ground (buildingFloodDamage: plinth, minimum depth, undamageable share,
   * storeys reached), tabulated every 0.01 m up to FLOOD_TABLE_MAX_DEPTH_M above the plinth (flat beyond).
   */
  floodTable: UniformTable;
  vHalfMs: number;
  /** Probability that a wildfire exposure destroys the building, by occupancy (vulnerability/other.ts). */
  wildfireDestruction: number;
  /** Construction class given with the asset, or null (unknown). */
  construction: ConstructionClass | null;
  /** Hazus hurricane specific building type of the construction class, storeys and occupancy, or null. */
  windBuildingType: HazusWindBuildingType | null;
  /**
   * Tabulated wind vulnerability replacing Emanuel over the 1-minute wind: wind turbines (Rose et al. 2012), or the
   * Hazus curve of windBuildingType; null = the regional Emanuel curve.
   */
  windTable: UniformTable | null;
  /** Resolved measure per hazard, in HAZARD_KEYS order. */
  measures: ResolvedMeasure[];
  energyGwh: number;
  cropsKg: number;
}

/** Hazus default first-floor height (slab-on-grade, 1 ft), used with the JRC North America curves. */
export const NA_DEFAULT_FIRST_FLOOR_M = 0.305;

/** Depth above the first floor (m) up to which the building flood table is tabulated; deeper water is held flat. */
export const FLOOD_TABLE_MAX_DEPTH_M = 30;
const tables = new Map<string, UniformTable>();
const TURBINE_TABLE = uniformTable(WIND_TURBINE_CURVE, 5);
const hazusWindTables = new Map<HazusWindBuildingType, UniformTable>();
/** The Hazus curve of a building type tabulated every 0.25 m/s of 1-minute wind (the points lie 1.82 m/s apart). */
function hazusWindTable(sbt: HazusWindBuildingType): UniformTable {
  let t = hazusWindTables.get(sbt);
  if (!t) hazusWindTables.set(sbt, (t = uniformTable(hazusWindCurve(sbt), 0.25)));
  return t;
}
function floodTableOf(occ: PropertyTypeInfo['jrc'], continent: JrcContinent, plinthM: number, floors: number, basement: boolean): UniformTable {
  const f = floors > 1 ? Math.floor(floors) : 1;
  const k = `${occ}/${continent}/${plinthM}/${f}/${basement ? 1 : 0}`;
  let t = tables.get(k);
  if (!t) {
    const curve = jrcCurve(occ, continent);
    const n = Math.round((plinthM + FLOOD_TABLE_MAX_DEPTH_M) / 0.01) + 1;
    const x: number[] = new Array(n);
    const y: number[] = new Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i * 0.01;
      y[i] = buildingFloodDamage(curve, occ, i * 0.01, { floors: f, basement, plinthM });
    }
    t = uniformTable(piecewiseLinear(x, y, `building flood damage ${k}`), 0.01);
    tables.set(k, t);
  }
  return t;
}

/** Basement flag from true/false, yes/no, 1/0 (anything else: no basement known). */
export function basementOf(v: AssetInput['basement']): boolean {
  if (v === true) return true;
  if (v === null || v === undefined || v === false) return false;
  return /^(true|yes|y|1)$/i.test(String(v).trim());
}

// Resolved default measures per mitigation level, shared (immutable) by every asset without user measures.
const DEFAULT_RESOLVED = ([0, 1, 2, 3] as const).map((lvl) => HAZARD_KEYS.map((h) => resolveMeasure(defaultMeasure(h, lvl))));
function resolvedMeasures(level: 0 | 1 | 2 | 3, measures: HazardMeasures): ResolvedMeasure[] {
  const defaults = DEFAULT_RESOLVED[level] as ResolvedMeasure[];
  let any = false;
  for (const k in measures)
    if (measures[k as HazardKey]) {
      any = true;
      break;
    }
  if (!any) return defaults;
  return HAZARD_KEYS.map((h, i) => combineMeasures(defaults[i] as ResolvedMeasure, resolveMeasure(measures[h])));
}

/** Parse a number; NA, empty, non-finite -> NaN. */
export function num(v: Num): number {
  if (v === null || v === undefined || v === '') return Number.NaN;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[,\s$]/g, ''));
  return Number.isFinite(n) ? n : Number.NaN;
}
const pos = (v: Num) => {
  const n = num(v);
  return n > 0 ? n : 0;
};

export function prepareAsset(a: AssetInput, measures: HazardMeasures = {}): PreparedAsset {
  const lat = num(a.latitude);
  const lon = num(a.longitude);
  const property = propertyTypeOf(a.type);
  const continent = jrcContinentOf(lat, lon, a.country_code);
  const tcRegion = tcRegionOf(lat, lon, a.country_code);
  const own = num(a.ownership);
  const mitigationLevel = mitigationLevelOf(a.mitigation_risk);
  const cc = pos(a.construction_cost);
  const val = pos(a.valuation);
  // JRC's North American curves are relative to the first floor (they derive from USACE/FEMA curves): without a
  // plinth height we use the Hazus default first-floor height 1 ft (0.305 m) there; elsewhere 0 (curves vs ground).
  const plinthHeightM = Number.isFinite(num(a.plinth_height))
    ? Math.round(pos(a.plinth_height) * 100) / 100
    : continent === 'north_america'
      ? NA_DEFAULT_FIRST_FLOOR_M
      : 0;
  const floors = num(a.floors);
  const basement = basementOf(a.basement);
  const dflt = defaultFloodProtection(lat, lon, a.country_code);
  const ownSop = num(a.flood_protection);
  const protection: FloodProtection = ownSop >= 1 ? { river: ownSop, coastal: ownSop, rainfall: ownSop, source: 'asset' } : dflt;
  const cut = (rp: number) => (rp > 1 ? 1 / rp : Infinity);
  const construction = constructionClassOf(a.construction) ?? null;
  // Hazus building curves for buildings only: not wind turbines (their fragility), roads or railways (no building)
  const building = property.production !== 'wind' && property.jrc !== 'roads' && property.jrc !== 'transport';
  const windBuildingType = construction && building ? hazusWindBuildingType(construction, floors, property.hazus) : null;
  return {
    latDeg: lat,
    lonDeg: lon,
    continent,
    tcRegion,
    property,
    buildingValue: cc > 0 ? cc : val,
    reportedValue: val > 0 ? val : cc,
    valuedAtCost: !(val > 0) && cc > 0,
    contentValue: pos(a.content_value),
    inventoryValue: pos(a.yearly_inventory_value),
    revenue: pos(a.revenue),
    ownership: Number.isFinite(own) ? Math.min(1, Math.max(0, own / 100)) : 1,
    plinthHeightM,
    floodOnsetM: Math.max(plinthHeightM, FLOOD_MIN_DEPTH_M),
    floors,
    basement,
    protection,
    // CURVE_HAZARDS order: river_flood, typhoon, storm_surge, rainfall_flood
    protectionCutP: Float64Array.of(cut(protection.river), Infinity, cut(protection.coastal), cut(protection.rainfall)),
    elevationM: num(a.elevation_m),
    mitigationLevel,
    floodCurve: jrcCurve(property.jrc, continent),
    floodTable: floodTableOf(property.jrc, continent, plinthHeightM, floors, basement),
    vHalfMs: vHalfForRegion(tcRegion),
    wildfireDestruction: wildfireDestructionGivenExposure(property.hazus),
    construction,
    windBuildingType,
    windTable: property.production === 'wind' ? TURBINE_TABLE : windBuildingType ? hazusWindTable(windBuildingType) : null,
    measures: resolvedMeasures(mitigationLevel, measures),
    energyGwh: pos(a.solar_production) + pos(a.wind_production) + pos(a.hydro_production),
    cropsKg: pos(a.wheat_production) + pos(a.rice_production) + pos(a.maize_production) + pos(a.fruit_production) + pos(a.vegetable_production),
  };
}
