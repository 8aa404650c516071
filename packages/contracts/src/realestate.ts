/**
 * Real-estate property risk (spec 001 §2.5, §3.6, §3.7, §7 "Real estate and property risk", §9 legends).
 * Distances are kilometres; scores 0-100 (the engine's hazard severity score, as on the dashboard).
 */
import { z } from 'zod';
import { PROJECT_NAME_MAX_LENGTH, text } from './common.js';
import { ProjectStatus } from './projects.js';

/** Default ring around a property, km: see docs/methodology.md "Real estate / property risk". */
export const PROPERTY_RING_DEFAULTS_KM = { min_distance: 1, max_distance: 10 } as const;
/** Largest max_distance accepted, km. */
export const PROPERTY_RING_MAX_KM = 50;

const jsonList = (field: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const s = v.trim();
      if (s === '') return undefined;
      try {
        return JSON.parse(s);
      } catch {
        return { __invalidJson: field };
      }
    },
    z
      .array(z.unknown(), { error: `${field} must be a JSON list of locations` })
      .min(1, `${field} must list at least one location`)
      .max(10_000, `${field} has too many locations`),
  );

const distance = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number of km` })
    .min(0, `${field} must be 0 to ${PROPERTY_RING_MAX_KM} km`)
    .max(PROPERTY_RING_MAX_KM, `${field} must be 0 to ${PROPERTY_RING_MAX_KM} km`);

/** Compute call: `data` (JSON list of locations, spec 001 §3.6 fields plus optional min_distance / max_distance) and `project_name`. */
export const PropertyRiskComputeBody = z.object({
  project_name: text('project_name', PROJECT_NAME_MAX_LENGTH),
  data: jsonList('data'),
  /** Replace an existing property-risk project of the same name (the Create Project dialog's overwrite toggle). */
  overwrite: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => v === true || v === 'true'),
  /** Ring used for locations that do not give their own (km). */
  min_distance: distance('min_distance').optional(),
  max_distance: distance('max_distance').optional(),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
  scenario: z.coerce
    .string()
    .pipe(z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }))
    .optional(),
  year: z.coerce
    .number({ error: 'year must be a number' })
    .int('year must be a whole year')
    .min(2020, 'year must be 2020 to 2100')
    .max(2100, 'year must be 2020 to 2100')
    .optional(),
});
export type PropertyRiskComputeBody = z.infer<typeof PropertyRiskComputeBody>;

export const PropertyRiskFetchQuery = z.object({ project_name: text('project_name', PROJECT_NAME_MAX_LENGTH) });

/** Mean, min and max score in the ring min_distance..max_distance (km) around a property (spec 001 §3.7). */
export const RingScore = z.object({ mean_score: z.number(), min_value: z.number(), max_value: z.number(), min_distance: z.number(), max_distance: z.number() });
export type RingScore = z.infer<typeof RingScore>;

/** One property-risk row (spec 001 §3.7) plus the intensities behind the legends. */
export const PropertyRiskRow = z.object({
  name: z.string(),
  flood_score: z.number(),
  typhoon_score: z.number(),
  /** Estimated GDP of the population within max_distance: population_value x country GDP per capita (US$). */
  gdp_value: z.number().nullable(),
  /** Population of the GeoNames places within max_distance. */
  population_value: z.number(),
  flood: RingScore,
  typhoon: RingScore,
  lat: z.number(),
  lon: z.number(),
  property_type: z.string().nullable(),
  country_code: z.string().nullable(),
  gdp_per_capita_usd: z.number().nullable(),
  gdp_year: z.number().int().nullable(),
  population_places: z.number().int(),
  /** Which flood hazard gives flood_score (river_flood, rainfall_flood or storm_surge). */
  flood_driver: z.string(),
  /** 100-year flood depth at the property (largest of river, rainfall and coastal), m. */
  flood_depth_m: z.number().nullable(),
  /** 100-year 1-minute sustained wind at the property, km/h. */
  typhoon_wind_kmh: z.number().nullable(),
  /** Ground elevation (ETOPO5 cell), m. */
  elevation_m: z.number().nullable(),
  /** Ring samples used (points). */
  ring_samples: z.number().int(),
});
export type PropertyRiskRow = z.infer<typeof PropertyRiskRow>;

export const PropertyRiskScenario = z.object({ analysis_type: z.enum(['rcp', 'ssp']), scenario: z.enum(['26', '45', '85']), year: z.number().int() });

export const PropertyRiskResponse = z.object({
  project_name: z.string(),
  project_id: z.number().int(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  progress: z.number(),
  message: z.string().nullable(),
  scenario: PropertyRiskScenario,
  /** Rows in the order of the request; empty until the job is done. */
  data: z.array(PropertyRiskRow),
  summary: z.object({
    properties: z.number().int(),
    mean_flood_score: z.number().nullable(),
    mean_typhoon_score: z.number().nullable(),
    total_population: z.number(),
    total_gdp_value: z.number(),
  }),
});
export type PropertyRiskResponse = z.infer<typeof PropertyRiskResponse>;

/** A property-risk project in the caller's list. */
export const PropertyRiskProject = z.object({
  project_id: z.number().int(),
  name: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  properties: z.number().int(),
  /** Creation date, YYYY-MM-DD. */
  date: z.string(),
  /** false when the project was shared with the caller. */
  own: z.boolean(),
});
export type PropertyRiskProject = z.infer<typeof PropertyRiskProject>;

export const PropertyRiskComputeResponse = z.object({ detail: z.string(), project: ProjectStatus, job_id: z.number().int() });
export type PropertyRiskComputeResponse = z.infer<typeof PropertyRiskComputeResponse>;

/** Flood legend: elevation bands, m (spec 001 §9). */
export const ELEVATION_BANDS_M = ['0-20', '21-40', '41-80', '81-150', '>150'] as const;
/** Flood legend: depth bands, m (spec 001 §9), deepest first. */
export const FLOOD_DEPTH_BANDS_M = ['>2', '1-2', '0.5-1', '0.25-0.5', '0-0.25'] as const;
/** Typhoon wind bands, km/h (spec 001 §9), strongest first. */
export const TYPHOON_WIND_BANDS_KMH = ['>193', '117-193', '88-117', '61-88', '<61'] as const;

export function elevationBand(m: number): (typeof ELEVATION_BANDS_M)[number] {
  return m <= 20 ? '0-20' : m <= 40 ? '21-40' : m <= 80 ? '41-80' : m <= 150 ? '81-150' : '>150';
}
export function floodDepthBand(m: number): (typeof FLOOD_DEPTH_BANDS_M)[number] {
  return m > 2 ? '>2' : m > 1 ? '1-2' : m > 0.5 ? '0.5-1' : m > 0.25 ? '0.25-0.5' : '0-0.25';
}
export function typhoonWindBand(kmh: number): (typeof TYPHOON_WIND_BANDS_KMH)[number] {
  return kmh > 193 ? '>193' : kmh > 117 ? '117-193' : kmh > 88 ? '88-117' : kmh >= 61 ? '61-88' : '<61';
}

/**
 * Flood mitigation guidance (spec 001 §9): measures farther than 20 m from the building have no effect; the level
 * counts the measures in the distance bands <=10, 10-15 and 15-20 m. Counts chosen here (docs/methodology.md):
 * High = at least 3 measures within 10 m; Median = at least 2 within 15 m; Low = at least 1 within 20 m; else None.
 */
export const FLOOD_MITIGATION_MAX_M = 20;
export const FLOOD_MITIGATION_LEVELS = [
  { level: 'High', minCount: 3, withinM: 10 },
  { level: 'Median', minCount: 2, withinM: 15 },
  { level: 'Low', minCount: 1, withinM: 20 },
] as const;
export type FloodMitigationLevel = 'High' | 'Median' | 'Low' | 'None';
export function floodMitigationLevel(distancesM: readonly number[]): FloodMitigationLevel {
  const effective = distancesM.filter((d) => Number.isFinite(d) && d >= 0 && d <= FLOOD_MITIGATION_MAX_M);
  for (const l of FLOOD_MITIGATION_LEVELS) if (effective.filter((d) => d <= l.withinM).length >= l.minCount) return l.level;
  return 'None';
}
