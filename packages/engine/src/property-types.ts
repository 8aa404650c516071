/**
 * The product's property types (spec 001 §9: "about 37 ... Apartments, Commercial, Education, Government, Healthcare,
 * Home, Industrial, Manufacture, Parking, Residential, School, and road, railway, energy, water and wastewater types")
 * mapped to the JRC occupancy classes (Huizinga et al. 2017) and the Hazus occupancy classes (FEMA Hazus 5.1
 * Inventory Technical Manual, Table 3-2 occupancy classification). Could move to @crp/contracts.
 */
import type { JrcOccupancy, HazusOccupancy } from './vulnerability/flood.js';
import type { MetabolicRateW } from './vulnerability/heat.js';

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
  /** Dependence of operations on water (0-1): 1 for the water-intensive sectors (engine.md §1.4b), else 0. */
  waterDependence: number;
}

/** How a type works in the heat and how it depends on water (engine.md §1.4a, §1.4b). */
type Work = 'cooled-services' | 'services' | 'industry' | 'heavy' | 'home';
const WORK: Record<Work, { metabolicRateW: MetabolicRateW; cooledShare: number }> = {
  'cooled-services': { metabolicRateW: 200, cooledShare: 1 },
  services: { metabolicRateW: 200, cooledShare: 0 },
  industry: { metabolicRateW: 300, cooledShare: 0 },
  heavy: { metabolicRateW: 400, cooledShare: 0 },
  home: { metabolicRateW: 200, cooledShare: 0 },
};
const T = (
  key: string,
  label: string,
  jrc: JrcOccupancy,
  hazus: HazusOccupancy,
  production: ProductionKind,
  work: Work,
  waterIntensive = false,
): PropertyTypeInfo => ({ key, label, jrc, hazus, production, ...WORK[work], waterDependence: waterIntensive ? 1 : 0 });

export const PROPERTY_TYPES = [
  T('apartments', 'Apartments', 'residential', 'RES3', 'none', 'home'),
  T('residential', 'Residential', 'residential', 'RES1', 'none', 'home'),
  T('home', 'Home', 'residential', 'RES1', 'none', 'home'),
  T('mobile_home', 'Mobile Home', 'residential', 'RES2', 'none', 'home'),
  T('hotel', 'Hotel', 'commercial', 'RES4', 'none', 'cooled-services'),
  T('commercial', 'Commercial', 'commercial', 'COM4', 'none', 'cooled-services'),
  T('office', 'Office', 'commercial', 'COM4', 'none', 'cooled-services'),
  T('retail', 'Retail', 'commercial', 'COM1', 'none', 'cooled-services'),
  T('shopping_mall', 'Shopping Mall', 'commercial', 'COM1', 'none', 'cooled-services'),
  T('warehouse', 'Warehouse', 'commercial', 'COM2', 'none', 'services'),
  T('data_centre', 'Data Centre', 'commercial', 'COM4', 'none', 'cooled-services'),
  T('healthcare', 'Healthcare', 'commercial', 'COM6', 'none', 'cooled-services'),
  T('entertainment', 'Entertainment & Recreation', 'commercial', 'COM8', 'none', 'services'),
  T('parking', 'Parking', 'commercial', 'COM10', 'none', 'services'),
  T('education', 'Education', 'commercial', 'EDU1', 'none', 'services'),
  T('school', 'School', 'commercial', 'EDU1', 'none', 'services'),
  T('university', 'University', 'commercial', 'EDU2', 'none', 'cooled-services'),
  T('government', 'Government', 'commercial', 'GOV1', 'none', 'cooled-services'),
  T('religious', 'Religious', 'commercial', 'REL1', 'none', 'services'),
  T('industrial', 'Industrial', 'industrial', 'IND2', 'none', 'industry'),
  T('manufacture', 'Manufacture', 'industrial', 'IND1', 'none', 'industry'),
  T('food_chemicals', 'Food & Chemicals', 'industrial', 'IND3', 'none', 'industry', true),
  T('mining_metals', 'Mining & Metals', 'industrial', 'IND4', 'none', 'industry', true),
  T('agriculture', 'Agriculture', 'agriculture', 'AGR1', 'crops', 'heavy', true),
  T('roads', 'Roads', 'roads', 'GOV1', 'none', 'heavy'),
  T('railway', 'Railway', 'transport', 'GOV1', 'none', 'services'),
  T('airport', 'Airport', 'transport', 'COM4', 'none', 'services'),
  T('port', 'Port', 'transport', 'COM2', 'none', 'services'),
  T('energy_solar', 'Energy - Solar', 'industrial', 'IND2', 'solar', 'industry'),
  T('energy_wind', 'Energy - Wind', 'industrial', 'IND2', 'wind', 'industry'),
  T('energy_hydro', 'Energy - Hydro', 'industrial', 'IND2', 'hydro', 'industry', true),
  T('energy_thermal', 'Energy - Thermal Power', 'industrial', 'IND2', 'thermal', 'industry', true),
  T('energy_grid', 'Energy - Transmission & Distribution', 'industrial', 'IND2', 'none', 'industry'),
  T('oil_gas', 'Oil & Gas', 'industrial', 'IND3', 'none', 'industry', true),
  T('water', 'Water Supply', 'industrial', 'IND2', 'none', 'industry', true),
  T('wastewater', 'Wastewater', 'industrial', 'IND2', 'none', 'industry'),
  T('telecommunication', 'Telecommunication', 'industrial', 'COM4', 'none', 'industry'),
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
