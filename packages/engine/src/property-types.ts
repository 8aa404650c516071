/**
 * The product's property types (spec 001 §9: "about 37 ... Apartments, Commercial, Education, Government, Healthcare,
 * Home, Industrial, Manufacture, Parking, Residential, School, and road, railway, energy, water and wastewater types")
 * mapped to the JRC occupancy classes (Huizinga et al. 2017) and the Hazus occupancy classes (FEMA Hazus 5.1
 * Inventory Technical Manual, Table 3-2 occupancy classification). Could move to @crp/contracts.
 */
import type { JrcOccupancy, HazusOccupancy } from './vulnerability/flood.js';
import type { MetabolicRateW } from './vulnerability/heat.js';
import { FIRM_WATER_OUTAGE_REVENUE_LOSS } from './vulnerability/drought.js';

export type ProductionKind = 'none' | 'solar' | 'wind' | 'hydro' | 'thermal' | 'crops';

export interface PropertyTypeInfo {
  key: string;
  label: string;
  /** JRC depth-damage occupancy (energy/water/telecom plants use "industrial", linear transport uses transport/roads). */
  jrc: JrcOccupancy;
  hazus: HazusOccupancy;
  production: ProductionKind;
  /**
   * Metabolic rate of the work (W), the ILO (2019) sector classes: services 200 W, industry 300 W, agriculture and
   * construction 400 W (Kjellstrom et al. 2018).
   */
  metabolicRateW: MetabolicRateW;
  /** Share of the work done in cooled space (0-1): 1 for offices and other service buildings taken as air-conditioned. */
  cooledShare: number;
  /**
   * Share of revenue lost in a year of drought at the curve's full value (engine.md §1.4b): 1 for plants whose output is
   * the water-dependent capacity (thermal and hydro power, water supply, crops), FIRM_WATER_OUTAGE_REVENUE_LOSS (0.08) for
   * water-intensive firms (food & chemicals, mining & metals, oil & gas), 0 for the others.
   */
  waterDependence: number;
  /**
   * Cost to the business of a unit of revenue lost to drought (engine.md §1.4b): 1 for the plants (their lost capacity
   * is lost revenue, as the WRI curve is calibrated), the sector's value added per unit of gross output for a
   * water-intensive firm (the inputs of unsold output are not bought), 0 where waterDependence is 0.
   */
  droughtCostShare: number;
  /**
   * Labour cost as a share of revenue (gross output), the money of a lost work hour (engine.md §1.4a): the labour income
   * share of value added (ILO_LABOUR_INCOME_SHARE) × the value added per unit of gross output of the type's sector
   * (VALUE_ADDED_SHARE_BY_SECTOR).
   */
  labourCostShare: number;
}

/**
 * Labour income share of GDP (value added), world, 2017: 51.4 % (ILO Department of Statistics, "The global labour income
 * share and distribution", 2019, ILOSTAT: "in 2017, the share of GDP earned by labour was 51.4%"; includes the labour
 * income of the self-employed). APPROXIMATION: one world value for every sector and country (ILO 2024 regional values run
 * from 33 % in the Arab States to 54.7 % in the Americas).
 */
export const ILO_LABOUR_INCOME_SHARE = 0.514;

/**
 * Value added per unit of gross output (1 − the intermediate-input coefficient) by sector: National Bureau of Statistics
 * of China, China Statistical Yearbook 2008, Table 2-28 "Direct input coefficient of input-output table (2005)", row
 * "Intermediate input" (e.g. other manufacturing 0.7072730, transport, postal and telecommunication 0.5530772).
 * APPROXIMATION: one economy's 2005 table for every country; manufacturing is the largest of its manufacturing columns
 * (other manufacturing 0.293; food 0.285, textiles 0.230, chemicals 0.223, metal products 0.212, machinery 0.207), so the
 * labour cost is not understated (US BEA manufacturing 2002-2006: 0.35-0.31).
 */
export const VALUE_ADDED_SHARE_BY_SECTOR = {
  agriculture: 1 - 0.4135449,
  mining: 1 - 0.5339587,
  food: 1 - 0.7154474,
  manufacturing: 1 - 0.707273,
  utilities: 1 - 0.650236,
  construction: 1 - 0.7443001,
  transport: 1 - 0.5530772,
  trade_hotels: 1 - 0.5075785,
  business: 1 - 0.4560822,
  other_services: 1 - 0.5305512,
} as const;
export type Sector = keyof typeof VALUE_ADDED_SHARE_BY_SECTOR;

/** How a type works in the heat and how it depends on water (engine.md §1.4a, §1.4b). */
type Work = 'cooled-services' | 'services' | 'industry' | 'heavy' | 'home';
const WORK: Record<Work, { metabolicRateW: MetabolicRateW; cooledShare: number }> = {
  'cooled-services': { metabolicRateW: 200, cooledShare: 1 },
  services: { metabolicRateW: 200, cooledShare: 0 },
  industry: { metabolicRateW: 300, cooledShare: 0 },
  heavy: { metabolicRateW: 400, cooledShare: 0 },
  home: { metabolicRateW: 200, cooledShare: 0 },
};
/**
 * How a type depends on water (engine.md §1.4b; water-intensive sectors of references-2 §4.3): 'plant' whose output is
 * the water-dependent capacity (the WRI curve's share inoperable is the share of revenue lost), 'firm' a water-intensive
 * business whose water supply fails in drought (World Bank 2017 revenue loss, costed at value added), 'none'.
 */
type Water = 'none' | 'plant' | 'firm';
const T = (
  key: string,
  label: string,
  jrc: JrcOccupancy,
  hazus: HazusOccupancy,
  production: ProductionKind,
  work: Work,
  sector: Sector,
  water: Water = 'none',
): PropertyTypeInfo => ({
  key,
  label,
  jrc,
  hazus,
  production,
  ...WORK[work],
  waterDependence: water === 'plant' ? 1 : water === 'firm' ? FIRM_WATER_OUTAGE_REVENUE_LOSS : 0,
  droughtCostShare: water === 'plant' ? 1 : water === 'firm' ? VALUE_ADDED_SHARE_BY_SECTOR[sector] : 0,
  labourCostShare: ILO_LABOUR_INCOME_SHARE * VALUE_ADDED_SHARE_BY_SECTOR[sector],
});

export const PROPERTY_TYPES = [
  T('apartments', 'Apartments', 'residential', 'RES3', 'none', 'home', 'business'),
  T('residential', 'Residential', 'residential', 'RES1', 'none', 'home', 'business'),
  T('home', 'Home', 'residential', 'RES1', 'none', 'home', 'business'),
  T('mobile_home', 'Mobile Home', 'residential', 'RES2', 'none', 'home', 'business'),
  T('hotel', 'Hotel', 'commercial', 'RES4', 'none', 'cooled-services', 'trade_hotels'),
  T('commercial', 'Commercial', 'commercial', 'COM4', 'none', 'cooled-services', 'business'),
  T('office', 'Office', 'commercial', 'COM4', 'none', 'cooled-services', 'business'),
  T('retail', 'Retail', 'commercial', 'COM1', 'none', 'cooled-services', 'trade_hotels'),
  T('shopping_mall', 'Shopping Mall', 'commercial', 'COM1', 'none', 'cooled-services', 'trade_hotels'),
  T('warehouse', 'Warehouse', 'commercial', 'COM2', 'none', 'services', 'transport'),
  T('data_centre', 'Data Centre', 'commercial', 'COM4', 'none', 'cooled-services', 'business'),
  T('healthcare', 'Healthcare', 'commercial', 'COM6', 'none', 'cooled-services', 'other_services'),
  T('entertainment', 'Entertainment & Recreation', 'commercial', 'COM8', 'none', 'services', 'other_services'),
  T('parking', 'Parking', 'commercial', 'COM10', 'none', 'services', 'transport'),
  T('education', 'Education', 'commercial', 'EDU1', 'none', 'services', 'other_services'),
  T('school', 'School', 'commercial', 'EDU1', 'none', 'services', 'other_services'),
  T('university', 'University', 'commercial', 'EDU2', 'none', 'cooled-services', 'other_services'),
  T('government', 'Government', 'commercial', 'GOV1', 'none', 'cooled-services', 'other_services'),
  T('religious', 'Religious', 'commercial', 'REL1', 'none', 'services', 'other_services'),
  T('industrial', 'Industrial', 'industrial', 'IND2', 'none', 'industry', 'manufacturing'),
  T('manufacture', 'Manufacture', 'industrial', 'IND1', 'none', 'industry', 'manufacturing'),
  T('food_chemicals', 'Food & Chemicals', 'industrial', 'IND3', 'none', 'industry', 'food', 'firm'),
  T('mining_metals', 'Mining & Metals', 'industrial', 'IND4', 'none', 'industry', 'mining', 'firm'),
  T('agriculture', 'Agriculture', 'agriculture', 'AGR1', 'crops', 'heavy', 'agriculture', 'plant'),
  T('roads', 'Roads', 'roads', 'GOV1', 'none', 'heavy', 'construction'),
  T('railway', 'Railway', 'transport', 'GOV1', 'none', 'services', 'transport'),
  T('airport', 'Airport', 'transport', 'COM4', 'none', 'services', 'transport'),
  T('port', 'Port', 'transport', 'COM2', 'none', 'services', 'transport'),
  T('energy_solar', 'Energy - Solar', 'industrial', 'IND2', 'solar', 'industry', 'utilities'),
  T('energy_wind', 'Energy - Wind', 'industrial', 'IND2', 'wind', 'industry', 'utilities'),
  T('energy_hydro', 'Energy - Hydro', 'industrial', 'IND2', 'hydro', 'industry', 'utilities', 'plant'),
  T('energy_thermal', 'Energy - Thermal Power', 'industrial', 'IND2', 'thermal', 'industry', 'utilities', 'plant'),
  T('energy_grid', 'Energy - Transmission & Distribution', 'industrial', 'IND2', 'none', 'industry', 'utilities'),
  T('oil_gas', 'Oil & Gas', 'industrial', 'IND3', 'none', 'industry', 'mining', 'firm'),
  T('water', 'Water Supply', 'industrial', 'IND2', 'none', 'industry', 'utilities', 'plant'),
  T('wastewater', 'Wastewater', 'industrial', 'IND2', 'none', 'industry', 'utilities'),
  T('telecommunication', 'Telecommunication', 'industrial', 'COM4', 'none', 'industry', 'transport'),
] as const satisfies readonly PropertyTypeInfo[];

export type PropertyTypeKey = (typeof PROPERTY_TYPES)[number]['key'];
export const PROPERTY_TYPE_KEYS = PROPERTY_TYPES.map((p) => p.key) as readonly PropertyTypeKey[];

const byNorm = new Map<string, PropertyTypeInfo>();
const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
for (const p of PROPERTY_TYPES) {
  byNorm.set(norm(p.key), p);
  byNorm.set(norm(p.label), p);
}
// Common synonyms found in uploads.
const SYN: Record<string, PropertyTypeKey> = {
  house: 'home',
  housing: 'residential',
  apartment: 'apartments',
  flat: 'apartments',
  commercialbuilding: 'commercial',
  store: 'retail',
  shop: 'retail',
  mall: 'shopping_mall',
  hospital: 'healthcare',
  clinic: 'healthcare',
  factory: 'manufacture',
  manufacturing: 'manufacture',
  plant: 'manufacture',
  logistics: 'warehouse',
  datacenter: 'data_centre',
  road: 'roads',
  highway: 'roads',
  rail: 'railway',
  railways: 'railway',
  energy: 'energy_grid',
  power: 'energy_thermal',
  powerplant: 'energy_thermal',
  solar: 'energy_solar',
  wind: 'energy_wind',
  hydro: 'energy_hydro',
  water: 'water',
  watersupply: 'water',
  wastewater: 'wastewater',
  sewage: 'wastewater',
  waterandwastewater: 'water',
  farm: 'agriculture',
  church: 'religious',
  bank: 'commercial',
  hightechnology: 'industrial',
  emergencyservices: 'government',
  carpark: 'parking',
  garage: 'parking',
  telecom: 'telecommunication',
};

/** Property type info for a user-entered type (key, label or common synonym); unknown or empty -> "commercial". */
export function propertyTypeOf(type: string | null | undefined): PropertyTypeInfo {
  if (!type) return byNorm.get('commercial') as PropertyTypeInfo;
  const n = norm(type);
  return byNorm.get(n) ?? byNorm.get(norm(SYN[n] ?? '')) ?? (byNorm.get('commercial') as PropertyTypeInfo);
}
