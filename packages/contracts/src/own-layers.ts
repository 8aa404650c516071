import { z } from 'zod';
import { HAZARD_KEYS, type HazardKey } from './hazards.js';
import { HAZARD_INDICATORS, HAZARD_YEAR_MAX, HAZARD_YEAR_MIN } from './hazard-values.js';

/**
 * Own hazard layers (issue 23 item 3): GeoTIFFs a company administrator uploads for one hazard, scenario, year and
 * return period. Values are checked against these units and ranges when the layer enters (upload), so a bad layer is
 * refused at once and never reaches an analysis.
 */

/**
 * Units an own layer may be given in, per hazard, as [scale, offset] to the hazard's own unit (HAZARD_INDICATORS):
 * value in the hazard's unit = raw × scale + offset.
 */
export const OWN_LAYER_UNITS: Record<HazardKey, Record<string, readonly [number, number]>> = {
  river_flood: { m: [1, 0], cm: [0.01, 0], mm: [0.001, 0], ft: [0.3048, 0] },
  rainfall_flood: { m: [1, 0], cm: [0.01, 0], mm: [0.001, 0], ft: [0.3048, 0] },
  storm_surge: { m: [1, 0], cm: [0.01, 0], mm: [0.001, 0], ft: [0.3048, 0] },
  typhoon: { 'm/s': [1, 0], 'km/h': [1 / 3.6, 0], kn: [0.514444, 0], mph: [0.44704, 0] },
  wildfire: { '1/yr': [1, 0], '%/yr': [0.01, 0] },
  landslide: { '1/yr': [1, 0], '%/yr': [0.01, 0] },
  extreme_heat: { '°C': [1, 0], K: [1, -273.15] },
  extreme_cold: { '°C': [1, 0], K: [1, -273.15] },
  snowfall: { 'mm/yr': [1, 0], 'cm/yr': [10, 0], 'm/yr': [1000, 0] },
  sea_level_rise: { m: [1, 0], cm: [0.01, 0], mm: [0.001, 0] },
  drought: { 'P/PET': [1, 0] },
};

/**
 * Physically plausible values per hazard, in the hazard's unit; a pixel outside is refused (a wrong unit or a
 * corrupted file, not a hazard). Bounds: flood and surge depths 0-50 m above ground; sustained wind 0-120 m/s (the
 * strongest measured 1-minute wind, Hurricane Patricia 2015, is 96 m/s); probabilities 0-1 per year; warmest-month
 * mean −60..50 °C and coldest-month mean −75..35 °C (the recorded monthly extremes lie inside); snowfall 0-10,000 mm/yr
 * water equivalent (Mount Baker's 1998-99 record, 29 m of snow, is about 3,000 mm); relative sea-level rise −2..10 m;
 * aridity index 0-50.
 */
export const OWN_LAYER_RANGES: Record<HazardKey, readonly [number, number]> = {
  river_flood: [0, 50],
  rainfall_flood: [0, 50],
  storm_surge: [0, 50],
  typhoon: [0, 120],
  wildfire: [0, 1],
  landslide: [0, 1],
  extreme_heat: [-60, 50],
  extreme_cold: [-75, 35],
  snowfall: [0, 10_000],
  sea_level_rise: [-2, 10],
  drought: [0, 50],
};

/** Limits of one upload (also in config: OWN_LAYER_MAX_BYTES, OWN_LAYER_MAX_PIXELS, OWN_LAYERS_PER_COMPANY). */
export const OWN_LAYER_DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const OWN_LAYER_DEFAULT_MAX_PIXELS = 4096 * 4096;
export const OWN_LAYERS_DEFAULT_PER_COMPANY = 50;

/** Whether the hazard is read as a return-period curve (an own layer for it needs a return period). */
export const ownLayerNeedsReturnPeriod = (h: HazardKey): boolean => HAZARD_INDICATORS[h].curve;

const yearField = z
  .union([
    z.literal('any'),
    z.literal(''),
    z.coerce
      .number({ error: `year must be a whole number from ${HAZARD_YEAR_MIN} to ${HAZARD_YEAR_MAX}, or any` })
      .int(`year must be a whole number from ${HAZARD_YEAR_MIN} to ${HAZARD_YEAR_MAX}, or any`)
      .min(HAZARD_YEAR_MIN, `year must be a whole number from ${HAZARD_YEAR_MIN} to ${HAZARD_YEAR_MAX}, or any`)
      .max(HAZARD_YEAR_MAX, `year must be a whole number from ${HAZARD_YEAR_MIN} to ${HAZARD_YEAR_MAX}, or any`),
  ])
  .transform((v) => (v === 'any' || v === '' ? null : v));

/** Longest label and source note of an own layer, characters (the upload form's inputs). */
export const OWN_LAYER_LABEL_MAX_LENGTH = 120;
export const OWN_LAYER_SOURCE_MAX_LENGTH = 300;

/** The form fields of `POST /api/v2/own_layers/` (besides the `file` part). */
export const OwnLayerUploadFields = z.object({
  hazard: z.enum(HAZARD_KEYS as [HazardKey, ...HazardKey[]], { error: `hazard must be one of ${HAZARD_KEYS.join(', ')}` }),
  scenario: z
    .enum(['26', '45', '85', 'any'], { error: 'scenario must be 26, 45, 85 or any' })
    .default('any')
    .transform((v) => (v === 'any' ? null : v)),
  year: yearField.default(null as never),
  return_period_years: z
    .union([
      z.literal(''),
      z.coerce
        .number({ error: 'return_period_years must be a whole number of years from 1 to 10000' })
        .int('return_period_years must be a whole number of years from 1 to 10000')
        .min(1, 'return_period_years must be a whole number of years from 1 to 10000')
        .max(10_000, 'return_period_years must be a whole number of years from 1 to 10000'),
    ])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  unit: z.string().trim().max(20).optional().describe("unit of the raster's values; default the hazard's unit (see OWN_LAYER_UNITS)"),
  band: z
    .union([
      z.literal(''),
      z.coerce
        .number({ error: 'band must be a whole number from 1' })
        .int('band must be a whole number from 1')
        .min(1, 'band must be a whole number from 1')
        .max(100_000, 'band must be at most 100000'),
    ])
    .optional()
    .transform((v) => (v === '' || v === undefined ? 1 : v))
    .describe("the band read (1-based, default 1): a GeoTIFF's band, or the slice of a NetCDF variable along its leading dimension (e.g. time)"),
  variable: z
    .string()
    .trim()
    .max(100, 'variable must be at most 100 characters')
    .optional()
    .describe('NetCDF: the variable read (default: the only one on a latitude/longitude grid)'),
  label: z.string().trim().max(OWN_LAYER_LABEL_MAX_LENGTH, `label must be at most ${OWN_LAYER_LABEL_MAX_LENGTH} characters`).optional(),
  source: z
    .string()
    .trim()
    .max(OWN_LAYER_SOURCE_MAX_LENGTH, `source must be at most ${OWN_LAYER_SOURCE_MAX_LENGTH} characters`)
    .optional()
    .describe('publisher, licence or citation of the data'),
});
export type OwnLayerUploadFields = z.infer<typeof OwnLayerUploadFields>;

/** One own hazard layer as the API shows it (never a server path). */
export const OwnLayer = z.object({
  id: z.number().int(),
  hazard: z.enum(HAZARD_KEYS as [HazardKey, ...HazardKey[]]),
  scenario: z.enum(['26', '45', '85']).nullable().describe('null = every scenario'),
  year: z.number().int().nullable().describe('null = every year; otherwise the layer of the nearest year is used'),
  return_period_years: z.number().int().nullable(),
  unit: z.string().describe('unit the file was uploaded in'),
  label: z.string(),
  source: z.string(),
  filename: z.string().describe('the uploaded file name (as sent by the browser)'),
  bytes: z.number().int().describe('size of the uploaded file'),
  decoded_bytes: z.number().int().describe("memory the layer takes decoded (4 bytes per pixel); counts against the company's budget"),
  crs: z.string().describe('the coordinate reference system of the file, e.g. EPSG:32650'),
  width: z.number().int(),
  height: z.number().int(),
  bounds: z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() }).describe('extent in degrees (EPSG:4326)'),
  resolution_km: z.number(),
  valid_pixels: z.number().int(),
  value_min: z.number().describe("smallest valid value, in the hazard's unit"),
  value_max: z.number().describe("largest valid value, in the hazard's unit"),
  sha256: z.string(),
  uploaded_by: z.string().nullable(),
  created_at: z.string(),
});
export type OwnLayer = z.infer<typeof OwnLayer>;

export const OwnLayerList = z.object({
  layers: z.array(OwnLayer),
  limits: z.object({
    max_bytes: z.number().int(),
    max_pixels: z.number().int(),
    max_layers: z.number().int(),
    company_budget_bytes: z.number().int().describe("most memory the company's own layers may take decoded (OWN_LAYER_COMPANY_MB)"),
    company_used_bytes: z.number().int().describe("memory the company's own layers take decoded now"),
  }),
  units: z.record(z.string(), z.array(z.string())).describe("units accepted per hazard (the first is the hazard's own)"),
  ranges: z.record(z.string(), z.tuple([z.number(), z.number()])).describe("plausible values per hazard, in the hazard's unit"),
});
export type OwnLayerList = z.infer<typeof OwnLayerList>;
