import { z } from 'zod';
import { strictObject } from './common.js';
import { HAZARDS, yearsProblem, type HazardKey } from './hazards.js';
import type { SeverityBand } from './scores.js';

/**
 * The contract between the hazard layers (packages/hazards) and the risk engine (packages/engine):
 * which indicator each hazard reports, in which unit, and whether it comes as a return-period curve.
 * Owned by the hazard-layer work; the engine's vulnerability functions take these units.
 * Confirmed (no longer drafts) after reading the staged open data: see docs/methodology/hazards.md.
 *
 * `higherIsWorse` says in which direction the value grows more hazardous: only the aridity index
 * (drought) and the coldest-month temperature (extreme cold) are "lower is worse".
 */
export const HAZARD_INDICATORS: Record<HazardKey, { indicator: string; unit: string; curve: boolean; higherIsWorse: boolean; description: string }> = {
  river_flood: {
    indicator: 'flood_depth',
    unit: 'm',
    curve: true,
    higherIsWorse: true,
    description: 'Riverine inundation depth above ground at return periods',
  },
  rainfall_flood: {
    indicator: 'flood_depth',
    unit: 'm',
    curve: true,
    higherIsWorse: true,
    description: 'Pluvial (rainfall) ponding depth above ground at return periods',
  },
  storm_surge: {
    indicator: 'inundation_depth',
    unit: 'm',
    curve: true,
    higherIsWorse: true,
    description: 'Coastal inundation depth above ground at return periods',
  },
  typhoon: {
    indicator: 'max_sustained_wind',
    unit: 'm/s',
    curve: true,
    higherIsWorse: true,
    description: '1-minute sustained wind speed at 10 m at return periods',
  },
  wildfire: {
    indicator: 'annual_burn_probability',
    unit: '1/yr',
    curve: false,
    higherIsWorse: true,
    description: 'Annual probability that the site burns (burned-area fraction per year)',
  },
  landslide: {
    indicator: 'annual_landslide_probability',
    unit: '1/yr',
    curve: false,
    higherIsWorse: true,
    description:
      'Annual probability of at least one landslide within 1 km of the site, at the completeness of the Hong Kong GEO register (the NASA catalogue scaled by its under-reporting)',
  },
  extreme_heat: {
    indicator: 'warmest_month_tas',
    unit: '°C',
    curve: false,
    higherIsWorse: true,
    description: 'Mean 2 m air temperature of the warmest month (baseline 1991-2020) shifted by the CMIP6 TXx change',
  },
  extreme_cold: {
    indicator: 'coldest_month_tas',
    unit: '°C',
    curve: false,
    higherIsWorse: false,
    description: 'Mean 2 m air temperature of the coldest month (baseline 1991-2020) shifted by the CMIP6 regional winter-mean change (AR6 WGI Atlas)',
  },
  snowfall: { indicator: 'annual_snowfall_swe', unit: 'mm/yr', curve: false, higherIsWorse: true, description: 'Annual snowfall, water equivalent' },
  sea_level_rise: {
    indicator: 'relative_sea_level_rise',
    unit: 'm',
    curve: false,
    higherIsWorse: true,
    description: 'Relative sea-level rise since 2020 at the nearest coast (AR6 GMSL + local vertical land motion); null inland',
  },
  drought: {
    indicator: 'aridity_index',
    unit: 'P/PET',
    curve: false,
    higherIsWorse: false,
    description: 'UNEP aridity index, annual precipitation over Thornthwaite potential evapotranspiration (lower is drier)',
  },
};

/** Where a number comes from (issue 3 §2). */
/**
 * How far to trust a hazard's numbers: 'placeholder' marks screening models that stand in until real maps are loaded
 * (river and rainfall flood: no flood maps are among the open data here; load your own layers). 'own data' marks a
 * value read from a layer the user's company (or the installation's operator) uploaded: its quality is theirs.
 */
export type DataTier = (typeof DATA_TIERS)[number];
/**
 * Every data tier, most trusted built-in first; then 'published dataset' (a published flood map the installation's
 * operator registered: WRI Aqueduct Floods or the JRC global maps, read where they cover the point) and 'own data'
 * (not ranked: the user's own layer).
 */
export const DATA_TIERS = [
  'observed/modelled from real data',
  'model on real inputs',
  'published parameters only',
  'placeholder',
  'published dataset',
  'own data',
] as const;
/** The tier of a value read from an own (uploaded) hazard layer. */
export const OWN_DATA_TIER = 'own data' satisfies DataTier;
/** The tier of a value read from a published flood map registered installation-wide (issue 34 item 2). */
export const PUBLISHED_DATA_TIER = 'published dataset' satisfies DataTier;

/** A return-period curve: intensities[i] is the intensity exceeded on average once every returnPeriodsYears[i] years. */
export interface ReturnPeriodCurve {
  returnPeriodsYears: number[];
  intensities: number[];
}

/** One hazard's answer for one point, scenario and year (issue 3 §4). `value` null means no data here (never a fake zero). */
export interface HazardPointValue {
  hazard: HazardKey;
  indicator: string;
  value: number | null;
  unit: string;
  /** Severity of the hazard's intensity at the point, 0-100 (issue 38: named for what it is). */
  intensity_score: number;
  /** Alias of intensity_score (its name before issue 38), kept for existing callers. */
  score: number;
  band: SeverityBand;
  return_periods: ReturnPeriodCurve | null;
  resolution_km: number;
  tier: DataTier;
  source: string;
  /** Sea-level rise only: IPCC AR6 likely (17-83 %) range of the value (m), with the local gauge trend's uncertainty. */
  likely_range?: { low: number; high: number } | null;
}

/** Return periods (years) of every built-in curve hazard. */
export const HAZARD_RETURN_PERIODS_YEARS = [2, 5, 10, 25, 50, 100, 250, 500, 1000] as const;

/** Years the hazard layers answer for (inclusive); values between the AR6 decades are interpolated. */
export const HAZARD_YEAR_MIN = 2020;
export const HAZARD_YEAR_MAX = 2100;

/**
 * Query of `GET api/v2/hazard/point/` (issue 3 §4). Numbers arrive as strings in a query string, so they are coerced.
 * Errors name the field (the server maps zod issues to `{ field, message }`).
 */
export const HazardPointQuery = z
  .object({
    latitude: z.coerce
      .number({ error: 'latitude must be a number' })
      .min(-90, 'latitude must be between -90 and 90')
      .max(90, 'latitude must be between -90 and 90'),
    longitude: z.coerce
      .number({ error: 'longitude must be a number' })
      .min(-180, 'longitude must be between -180 and 180')
      .max(180, 'longitude must be between -180 and 180'),
    analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
    scenario: z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }).default('85'),
    year: z.coerce
      .number({ error: 'year must be a number' })
      .int('year must be an integer')
      .min(HAZARD_YEAR_MIN, `year must be between ${HAZARD_YEAR_MIN} and ${HAZARD_YEAR_MAX}`)
      .max(HAZARD_YEAR_MAX, `year must be between ${HAZARD_YEAR_MIN} and ${HAZARD_YEAR_MAX}`)
      .default(2050)
      .describe('A year of the analysis type, as the results API takes them: RCP 2020, 2030, 2050; SSP 2020 (baseline) and 2025-2100 every 5 years.'),
  })
  .superRefine((q, ctx) => {
    // only the years each analysis type has (issue 38): RCP 2100 is a 400 naming `year`, as in the results API
    // (a year out of range or not whole has its issue already)
    if (!Number.isInteger(q.year) || q.year < HAZARD_YEAR_MIN || q.year > HAZARD_YEAR_MAX || (q.analysis_type !== 'rcp' && q.analysis_type !== 'ssp')) return;
    const problem = yearsProblem(q.analysis_type, [q.year], 'year');
    if (problem) ctx.addIssue({ code: 'custom', path: ['year'], message: problem });
  });
export type HazardPointQuery = z.infer<typeof HazardPointQuery>;

const SEVERITY_BAND_NAMES = ['No Risk', 'Low', 'Medium', 'Medium-High', 'High', 'Very High'] as const;

/** One hazard in the answer of `GET api/v2/hazard/point/` (the OpenAPI form of HazardPointValue). */
export const HazardPointValueSchema = z.object({
  hazard: z.string(),
  indicator: z.string(),
  value: z.number().nullable().describe('null where there is no data (never a fake zero)'),
  unit: z.string(),
  intensity_score: z
    .number()
    .describe("Severity of the hazard's intensity at the point, 0-100 (not a loss: a results row's loss_score rates the asset's expected loss)."),
  score: z.number().describe('Alias of intensity_score (its name before issue 38), kept for existing callers.'),
  band: z.enum(SEVERITY_BAND_NAMES),
  return_periods: z.object({ returnPeriodsYears: z.array(z.number()), intensities: z.array(z.number()) }).nullable(),
  resolution_km: z.number(),
  tier: z.enum(DATA_TIERS),
  source: z.string(),
  likely_range: z
    .object({ low: z.number(), high: z.number() })
    .nullable()
    .optional()
    .describe('sea_level_rise only: IPCC AR6 likely (17-83 %) range of the rise (m), including the local tide-gauge trend uncertainty'),
});

/** `GET api/v2/hazard/point/`. */
export const HazardPointAnswer = z.object({
  latitude: z.number(),
  longitude: z.number(),
  analysis_type: z.enum(['rcp', 'ssp']),
  scenario: z.enum(['26', '45', '85']),
  scenario_label: z.string(),
  year: z.number().int(),
  warming_level_c: z.number().describe('global warming level above 1850-1900 (°C) of this scenario and year'),
  hazards: z.record(z.string(), HazardPointValueSchema),
});

/** One entry of `GET api/v2/hazard/catalog/`: a built-in or bring-your-own layer and its provenance. */
export const HazardCatalogEntry = z.object({
  hazard: z.string(),
  layer: z.string(),
  indicator: z.string(),
  unit: z.string(),
  description: z.string(),
  grid: z.object({ lon0: z.number(), lat0: z.number(), resDeg: z.number(), width: z.number().int(), height: z.number().int() }),
  resolutionKm: z.number(),
  scenarios: z.array(z.string()),
  years: z.tuple([z.number(), z.number()]),
  returnPeriodsYears: z.array(z.number()).nullable(),
  tier: z.enum(DATA_TIERS).nullable(),
  sources: z.array(z.object({ key: z.string(), name: z.string(), publisher: z.string(), license: z.string(), citation: z.string(), origin: z.string() })),
  sha256: z.string(),
  bytesGz: z.number().nullable(),
  kind: z.enum(['built-in', 'byo']),
});

/** Radius of the historical-track search around a point or an asset (`radius_km`): the default and the largest allowed, km. */
export const TYPHOON_TRACK_RADIUS_DEFAULT_KM = 200;
export const TYPHOON_TRACK_RADIUS_MAX_KM = 500;

const SaffirSimpsonSchema = z.number().int().min(-1).max(5).nullable().describe('Saffir-Simpson category: -1 depression, 0 tropical storm, 1-5');
/** `POST api/hazard/typhoon_track/{userId}/`: historical tracks near a location or an asset. */
export const TyphoonTrackAnswer = z.object({
  latitude: z.number(),
  longitude: z.number(),
  radius_km: z.number(),
  since_year: z.number().int().nullable(),
  asset: z.object({ id: z.number().int(), name: z.string(), project_id: z.number().int() }).optional(),
  count: z.number().int(),
  total: z.number().int().describe('storms within the radius before the limit'),
  has_data: z.boolean(),
  coverage: z.array(z.object({ basin: z.string(), from: z.number().int(), to: z.number().int() })),
  storms: z.array(
    z.object({
      id: z.string(),
      name: z.string().nullable(),
      season: z.number().int(),
      year: z.number().int(),
      basin: z.string(),
      agency: z.string(),
      dataset: z.string(),
      closest_km: z.number(),
      closest_time: z.string(),
      closest_point: z.object({ latitude: z.number(), longitude: z.number() }),
      wind_at_closest_ms: z.number().nullable(),
      category_at_closest: SaffirSimpsonSchema,
      max_wind_ms: z.number().nullable(),
      category: SaffirSimpsonSchema,
      track: z.array(
        z.object({ time: z.string(), latitude: z.number(), longitude: z.number(), wind_ms: z.number().nullable(), category: SaffirSimpsonSchema }),
      ),
    }),
  ),
  wind: z.string(),
  sources: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      publisher: z.string(),
      license: z.string(),
      citation: z.string(),
      basins: z.array(z.string()),
      agencies: z.array(z.string()),
      seasons: z.object({ from: z.number().int(), to: z.number().int() }),
    }),
  ),
});
export type TyphoonTrackAnswer = z.infer<typeof TyphoonTrackAnswer>;
/** One storm of a TyphoonTrackAnswer, and one point of its track. */
export type NearbyStorm = TyphoonTrackAnswer['storms'][number];
export type TrackPoint = NearbyStorm['track'][number];

/** Points of one batch hazard-curve request (`POST /api/v2/hazard/curves/`). */
export const HAZARD_CURVES_MAX_POINTS = 1000;
/** The hazards with a return-period curve (the default of the batch call). */
export const CURVE_HAZARD_KEYS = ['river_flood', 'typhoon', 'storm_surge', 'rainfall_flood'] as const;
const ALL_HAZARD_KEYS = HAZARDS.map((h) => h.key) as unknown as [HazardKey, ...HazardKey[]];

/** `POST /api/v2/hazard/curves/`: many points, one scenario and year (issue 38 item 1). */
export const HazardCurvesRequest = strictObject({
  points: z
    .array(
      strictObject({
        id: z
          .union([z.string().max(200, 'id: at most 200 characters'), z.number()])
          .optional()
          .describe('Your own id of the point, answered as sent.'),
        latitude: z
          .number({ error: 'latitude must be a number' })
          .min(-90, 'latitude must be between -90 and 90')
          .max(90, 'latitude must be between -90 and 90'),
        longitude: z
          .number({ error: 'longitude must be a number' })
          .min(-180, 'longitude must be between -180 and 180')
          .max(180, 'longitude must be between -180 and 180'),
      }),
      { error: 'points must be a list of {latitude, longitude}' },
    )
    .min(1, 'points needs at least one point')
    .max(HAZARD_CURVES_MAX_POINTS, `points: at most ${HAZARD_CURVES_MAX_POINTS} points per request`),
  hazards: z
    .array(z.enum(ALL_HAZARD_KEYS, { error: (i) => `hazards: '${String(i.input)}' is not a hazard key (${ALL_HAZARD_KEYS.join(', ')})` }))
    .min(1, 'hazards needs at least one hazard')
    .optional()
    .describe(`Hazard keys; default the hazards with a return-period curve (${CURVE_HAZARD_KEYS.join(', ')}). Others answer return_periods null.`),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  scenario: z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }).default('85'),
  year: z
    .number({ error: 'year must be a number' })
    .int('year must be an integer')
    .default(2050)
    .describe('A year of the analysis type, as the point API takes them: RCP 2020, 2030, 2050; SSP 2020 (baseline) and 2025-2100 every 5 years.'),
}).meta({ id: 'HazardCurvesRequest' });
export type HazardCurvesRequest = z.infer<typeof HazardCurvesRequest>;

/** The answer: per point, the point API's value of each hazard asked for (curve, unit, tier, ...). */
export const HazardCurvesAnswer = z
  .object({
    analysis_type: z.enum(['rcp', 'ssp']),
    scenario: z.enum(['26', '45', '85']),
    scenario_label: z.string(),
    year: z.number().int(),
    points: z.array(
      z.object({
        id: z.union([z.string(), z.number()]).nullable(),
        latitude: z.number(),
        longitude: z.number(),
        hazards: z.record(z.string(), HazardPointValueSchema),
      }),
    ),
  })
  .meta({ id: 'HazardCurvesAnswer' });
