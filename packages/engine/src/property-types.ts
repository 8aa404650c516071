/**
 * The product's property types (spec 001 §9: "about 37 ... Apartments, Commercial, Education, Government, Healthcare,
 * Home, Industrial, Manufacture, Parking, Residential, School, and road, railway, energy, water and wastewater types")
 * mapped to the JRC occupancy classes (Huizinga et al. 2017) and the Hazus occupancy classes (FEMA Hazus 5.1
 * Inventory Technical Manual, Table 3-2 occupancy classification). Could move to @crp/contracts.
 */
import type { JrcOccupancy, HazusOccupancy } from './vulnerability/flood.js';

export type ProductionKind = 'none' | 'solar' | 'wind' | 'hydro' | 'thermal' | 'crops';

export interface PropertyTypeInfo {
  key: string;
  label: string;
  /** JRC depth-damage occupancy (energy/water/telecom plants use "industrial", linear transport uses transport/roads). */
  jrc: JrcOccupancy;
  hazus: HazusOccupancy;
  production: ProductionKind;
  /** Multiplier on heat disruption (outdoor / heat-sensitive work 1.5-2, offices 0.5 with cooling). RULE. */
  heatSensitivity: number;
  /** Multiplier on drought disruption (water-dependent operations 3). RULE. */
  droughtSensitivity: number;
}

const T = (
  key: string,
  label: string,
  jrc: JrcOccupancy,
  hazus: HazusOccupancy,
  production: ProductionKind = 'none',
  heatSensitivity = 1,
  droughtSensitivity = 1,
): PropertyTypeInfo => ({ key, label, jrc, hazus, production, heatSensitivity, droughtSensitivity });

export const PROPERTY_TYPES = [
  T('apartments', 'Apartments', 'residential', 'RES3', 'none', 0.5),
  T('residential', 'Residential', 'residential', 'RES1', 'none', 0.5),
  T('home', 'Home', 'residential', 'RES1', 'none', 0.5),
  T('mobile_home', 'Mobile Home', 'residential', 'RES2', 'none', 0.5),
  T('hotel', 'Hotel', 'commercial', 'RES4', 'none', 0.8),
  T('commercial', 'Commercial', 'commercial', 'COM4', 'none', 0.5),
  T('office', 'Office', 'commercial', 'COM4', 'none', 0.5),
  T('retail', 'Retail', 'commercial', 'COM1', 'none', 0.7),
  T('shopping_mall', 'Shopping Mall', 'commercial', 'COM1', 'none', 0.7),
  T('warehouse', 'Warehouse', 'commercial', 'COM2', 'none', 1.2),
  T('data_centre', 'Data Centre', 'commercial', 'COM4', 'none', 1, 2),
  T('healthcare', 'Healthcare', 'commercial', 'COM6', 'none', 1),
  T('entertainment', 'Entertainment & Recreation', 'commercial', 'COM8', 'none', 1),
  T('parking', 'Parking', 'commercial', 'COM10', 'none', 0.5),
  T('education', 'Education', 'commercial', 'EDU1', 'none', 1),
  T('school', 'School', 'commercial', 'EDU1', 'none', 1),
  T('university', 'University', 'commercial', 'EDU2', 'none', 1),
  T('government', 'Government', 'commercial', 'GOV1', 'none', 0.5),
  T('religious', 'Religious', 'commercial', 'REL1', 'none', 0.5),
  T('industrial', 'Industrial', 'industrial', 'IND2', 'none', 1.5, 1.5),
  T('manufacture', 'Manufacture', 'industrial', 'IND1', 'none', 1.5, 2),
  T('food_chemicals', 'Food & Chemicals', 'industrial', 'IND3', 'none', 1.5, 3),
  T('mining_metals', 'Mining & Metals', 'industrial', 'IND4', 'none', 2, 3),
  T('agriculture', 'Agriculture', 'agriculture', 'AGR1', 'crops', 2, 3),
  T('roads', 'Roads', 'roads', 'GOV1', 'none', 1),
  T('railway', 'Railway', 'transport', 'GOV1', 'none', 1),
  T('airport', 'Airport', 'transport', 'COM4', 'none', 1),
  T('port', 'Port', 'transport', 'COM2', 'none', 1.5),
  T('energy_solar', 'Energy - Solar', 'industrial', 'IND2', 'solar', 1, 1),
  T('energy_wind', 'Energy - Wind', 'industrial', 'IND2', 'wind', 1, 1),
  T('energy_hydro', 'Energy - Hydro', 'industrial', 'IND2', 'hydro', 1, 3),
  T('energy_thermal', 'Energy - Thermal Power', 'industrial', 'IND2', 'thermal', 1.5, 3),
  T('energy_grid', 'Energy - Transmission & Distribution', 'industrial', 'IND2', 'none', 1),
  T('oil_gas', 'Oil & Gas', 'industrial', 'IND3', 'none', 1.5, 2),
  T('water', 'Water Supply', 'industrial', 'IND2', 'none', 1, 3),
  T('wastewater', 'Wastewater', 'industrial', 'IND2', 'none', 1, 2),
  T('telecommunication', 'Telecommunication', 'industrial', 'COM4', 'none', 1),
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
