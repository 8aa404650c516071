import FACTORS from './emission-factors.json' with { type: 'json' };

export { CARBON_REGIONS, CARBON_SECTORS, type CarbonRegion, type CarbonSector } from '@crp/contracts';

export interface EmissionFactorTable {
  /** tCO2e per USD million of revenue, or null where no published factor exists. */
  factor(sector: string, region: string): number | null;
  /** Why a sector has no factor (or how it is proxied), from the build. */
  note(sector: string): string | null;
}

type FactorJson = { factors: Record<string, Record<string, number | null>>; sectors: Record<string, { note: string | null }> };

/** The committed factor table (emission-factors.json, built from US EPA USEEIO v1.3, OWID/World Bank and Ember data). */
export const EMISSION_FACTORS: EmissionFactorTable = {
  factor: (sector, region) => (FACTORS as FactorJson).factors[sector]?.[region] ?? null,
  note: (sector) => (FACTORS as FactorJson).sectors[sector]?.note ?? null,
};

/** Sources and intermediate values of the factor build, for the methodology page and the API. */
export const EMISSION_FACTOR_DATA = FACTORS;
