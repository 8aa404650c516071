/**
 * Map module (spec 001 §2.6, §2.7, §3.8-3.12, §7 "Map module", §9 "Map module"): constants, legends and call shapes
 * shared by the server (tiles, generation) and the web pages (/create-map, /map).
 */
import { z } from 'zod';
import { PROJECT_NAME_MAX_LENGTH, text } from './common.js';

/** The three hazards of the map module, in the order the Create Map dialog preselects them (spec 001 §4). */
export const MAP_VARIABLES = ['Rainfall Flood', 'Storm Surge', 'Wildfire'] as const;
export type MapVariable = (typeof MAP_VARIABLES)[number];
/** Keys of the dataset lookup and the map response. */
export const MAP_VARIABLE_KEYS = { 'Rainfall Flood': 'rainfall_flood', 'Storm Surge': 'storm_surge', Wildfire: 'wildfire' } as const;
export type MapHazardKey = (typeof MAP_VARIABLE_KEYS)[MapVariable];
/** Tile layer of each hazard (spec 001 §7: storm_surge_rp, rainfall_flood, wildfire). */
export const MAP_TILE_LAYERS = { rainfall_flood: 'rainfall_flood', storm_surge: 'storm_surge_rp', wildfire: 'wildfire' } as const;
export type MapTileLayer = (typeof MAP_TILE_LAYERS)[MapHazardKey];

/** Bounding-box distance options, km (spec 001 §2.6, §5); wildfire allows only 5. */
export const MAP_DISTANCES_KM = [1, 3, 5] as const;
export const WILDFIRE_DISTANCE_KM = 5;
/** Bounding box half-side per km of the distance option, m (spec 001 §9). */
export const MAP_BBOX_HALF_SIDE_M_PER_KM = 500;
/** Results view bounds: 460 m times the distance around the coordinates (spec 001 §9). */
export const MAP_RESULTS_BOUNDS_M_PER_KM = 460;
export const MAP_INITIAL_CENTER: [number, number] = [114.18, 22.28];
export const MAP_INITIAL_ZOOM = 5.5;
export const MAP_LOCATION_ZOOM = 12;
export const MAP_RESULTS_INITIAL_ZOOM = 15;
export const MAP_ZOOM_ITERATIONS = 6;
export const MAP_TILE_SIZE = 256;
export const MAP_TILE_MIN_ZOOM = 0;
export const MAP_TILE_MAX_ZOOM = 22;
export const MAP_TILE_OPACITY = 0.8;
export const MAP_TILE_TIMEOUT_MS = 5000;
export const MAP_EXPORT_PX = 1850;
export const MAP_CONTAINER_HEIGHT_PX = 800;
export const MAP_NAME_MIN_CHARS = 3;
export const ADDRESS_SEARCH_MIN_CHARS = 2;
export const ADDRESS_SEARCH_MAX_RESULTS = 5;
export const ADDRESS_SEARCH_PLACEHOLDER = 'Search address, city, or place';
export const NO_DATASETS_MESSAGE = 'No datasets available';
/** Default scenario and year of downloadMap (spec 001 §7). */
export const MAP_DOWNLOAD_SCENARIO = '85';
export const MAP_DOWNLOAD_YEAR = 2050;

/** Return periods offered as datasets of the flood-type hazards, years (a subset of the hazard layers' curve). */
export const MAP_RETURN_PERIODS = [10, 25, 50, 100, 250, 500, 1000] as const;
/** Wildfire datasets: baseline 2020, SSP5-8.5 2030 and 2050 (the popup's value_00_2020, value_85_2030, value_85_2050). */
export const WILDFIRE_SCENARIO_YEARS = ['00_2020', '85_2030', '85_2050'] as const;
export type WildfireScenarioYear = (typeof WILDFIRE_SCENARIO_YEARS)[number];
export const WILDFIRE_SCENARIO_YEAR_LABELS: Record<WildfireScenarioYear, string> = {
  '00_2020': 'Baseline 2020',
  '85_2030': 'SSP 8.5 2030',
  '85_2050': 'SSP 8.5 2050',
};
export const returnPeriodKey = (rp: number) => `${rp}yr`;
export const returnPeriodLabel = (rp: number) => `${rp}-year return period`;

/** One legend class: [min, max] with the side that includes the edge; null max means open-ended. */
export interface LegendClass {
  label: string;
  min: number;
  max: number | null;
  color: string;
}
export interface MapLegend {
  layer: MapTileLayer;
  title: string;
  unit: string;
  /** 'upper': a class is (min, max] (e.g. '>2' leaves 2 in '1.5-2'); 'lower': [min, max). Zero is never coloured. */
  inclusive: 'upper' | 'lower';
  classes: LegendClass[];
}

/** Legends of spec 001 §9 (class edges exact; colours ours: light to dark blue for water, yellow to dark red for fire). */
export const MAP_LEGENDS: Record<MapHazardKey, MapLegend> = {
  rainfall_flood: {
    layer: 'rainfall_flood',
    title: 'Flood in meters',
    unit: 'm',
    inclusive: 'upper',
    classes: [
      { label: '0-0.25', min: 0, max: 0.25, color: '#c6dbef' },
      { label: '0.25-0.5', min: 0.25, max: 0.5, color: '#9ecae1' },
      { label: '0.5-0.75', min: 0.5, max: 0.75, color: '#6baed6' },
      { label: '0.75-1', min: 0.75, max: 1, color: '#4292c6' },
      { label: '1-1.5', min: 1, max: 1.5, color: '#2171b5' },
      { label: '1.5-2', min: 1.5, max: 2, color: '#08519c' },
      { label: '>2', min: 2, max: null, color: '#08306b' },
    ],
  },
  storm_surge: {
    layer: 'storm_surge_rp',
    title: 'Storm surge (m)',
    unit: 'm',
    inclusive: 'lower',
    classes: [
      { label: '0-0.25', min: 0, max: 0.25, color: '#ccece6' },
      { label: '0.25-0.5', min: 0.25, max: 0.5, color: '#99d8c9' },
      { label: '0.5-0.75', min: 0.5, max: 0.75, color: '#66c2a4' },
      { label: '0.75-1', min: 0.75, max: 1, color: '#2ca25f' },
      { label: '1-1.5', min: 1, max: 1.5, color: '#006d2c' },
      { label: '>=1.5', min: 1.5, max: null, color: '#00441b' },
    ],
  },
  wildfire: {
    layer: 'wildfire',
    title: 'Wildfire annual probability (%)',
    unit: '%',
    inclusive: 'lower',
    classes: [
      { label: '<15', min: 0, max: 15, color: '#ffffb2' },
      { label: '15-<30', min: 15, max: 30, color: '#fed976' },
      { label: '30-<45', min: 30, max: 45, color: '#feb24c' },
      { label: '45-<60', min: 45, max: 60, color: '#fd8d3c' },
      { label: '60-<75', min: 60, max: 75, color: '#f03b20' },
      { label: '>=75', min: 75, max: null, color: '#bd0026' },
    ],
  },
};

/**
 * Legend class of a value: 1-based index into `legend.classes`, or 0 for "not coloured" (no data, NaN, or exactly
 * zero: no flood, no surge, no burnable fuel).
 */
export function legendClassIndex(legend: MapLegend, v: number): number {
  if (!(v > 0)) return 0;
  const cs = legend.classes;
  for (let i = 0; i < cs.length; i++) {
    const max = cs[i]!.max;
    if (max === null) return i + 1;
    if (legend.inclusive === 'upper' ? v <= max : v < max) return i + 1;
  }
  return cs.length;
}

// ---------------------------------------------------------------- calls

const num = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${field} must be a number` })
    .refine(Number.isFinite, `${field} must be a number`)
    .pipe(z.number().min(min, `${field} must be between ${min} and ${max}`).max(max, `${field} must be between ${min} and ${max}`));
const jsonList = (field: string) =>
  z.preprocess(
    (v) => {
      if (Array.isArray(v)) return v;
      if (typeof v !== 'string') return v;
      const s = v.trim();
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return { __invalid: field };
        }
      }
      return s === '' ? [] : [s];
    },
    z.array(z.string({ error: `${field} items must be text` }), { error: `${field} must be a JSON list` }),
  );

export const MapVariableField = z.enum(MAP_VARIABLES, { error: `choose one of ${MAP_VARIABLES.join(', ')}` });

/** createMap form (spec 001 §3.8). */
export const CreateMapBody = z.object({
  name: text('name', PROJECT_NAME_MAX_LENGTH).refine((s) => s.length >= MAP_NAME_MIN_CHARS, `name must have at least ${MAP_NAME_MIN_CHARS} characters`),
  address: z.string().trim().max(300, 'address must be at most 300 characters').optional().default(''),
  latitude: num('latitude', -85, 85),
  longitude: num('longitude', -180, 180),
  portfolio_variables: jsonList('portfolio_variables').pipe(z.array(MapVariableField).length(1, 'portfolio_variables: choose exactly one variable')),
  distance: z.coerce
    .number({ error: 'distance must be 1, 3 or 5' })
    .refine((d) => (MAP_DISTANCES_KM as readonly number[]).includes(d), 'distance must be 1, 3 or 5'),
  duration_data: jsonList('duration_data').pipe(
    z.array(z.string()).min(1, 'duration_data: choose at least one dataset').max(20, 'duration_data: too many datasets'),
  ),
});
export type CreateMapBody = z.infer<typeof CreateMapBody>;

export const MapLocationBody = z.object({ latitude: num('latitude', -85, 85), longitude: num('longitude', -180, 180) });

export const DatasetItem = z.object({ key: z.string(), value: z.string() });
export type DatasetItem = z.infer<typeof DatasetItem>;
/** Dataset lookup response (spec 001 §3.9). */
export const DatasetLookupResponse = z.object({ rainfall_flood: z.array(DatasetItem), storm_surge: z.array(DatasetItem), wildfire: z.array(DatasetItem) });
export type DatasetLookupResponse = z.infer<typeof DatasetLookupResponse>;

const Stats = z.object({
  average: z.record(z.string(), z.number().nullable()),
  max: z.record(z.string(), z.number().nullable()),
  min: z.record(z.string(), z.number().nullable()),
});
/** Map response (spec 001 §3.10). Values are in the legend unit (m; wildfire % per year). */
export const MapResponse = z.object({
  name: z.string(),
  address: z.string(),
  country_code: z.string().nullable(),
  resolution: z.string(),
  resolution_km: z.number(),
  distance: z.number(),
  coordinates: z.object({ latitude: z.number(), longitude: z.number() }),
  subregion: z.string().nullable(),
  portfolio_variables: z.array(z.string()),
  duration_data: z.array(z.string()),
  duration_values: z.array(DatasetItem),
  gdp: z.number().nullable(),
  gdp_year: z.number().nullable(),
  population: z.number().nullable(),
  bounding_box: z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() }),
  cells: z.number().int(),
  rainfall_flood: Stats,
  storm_surge: Stats,
  wildfire: Stats,
  created_at: z.string(),
  source: z.string(),
});
export type MapResponse = z.infer<typeof MapResponse>;

/** MapValue form (spec 001 §7). */
export const MapValueBody = z.object({
  latitude: num('latitude', -85, 85),
  longitude: num('longitude', -180, 180),
  country_code: z.string().trim().max(3, 'country_code must be an ISO code').optional(),
  duration_data: z.string().trim().max(20, 'duration_data is too long').optional(),
  variable: MapVariableField,
  subregion: z.string().trim().max(100).optional(),
});
/** Point value response (spec 001 §3.11). */
export const MapValueResponse = z.object({
  hand: z.number().nullable(),
  elevation: z.number().nullable(),
  no_of_days: z.number().nullable(),
  slope: z.number().nullable(),
  flood: z.number().nullable(),
  value: z.number().nullable(),
  value_00_2020: z.number().nullable(),
  value_85_2030: z.number().nullable(),
  value_85_2050: z.number().nullable(),
  unit: z.string(),
  resolution_km: z.number(),
});
export type MapValueResponse = z.infer<typeof MapValueResponse>;

export const MapProjectItem = z.object({
  project_id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  distance: z.number(),
  portfolio_variable: z.string(),
  address: z.string(),
  permission: z.enum(['owner', 'write', 'read']),
});
export type MapProjectItem = z.infer<typeof MapProjectItem>;

/**
 * The basemap the operator configured (server env BASEMAP_STYLE_URL / BASEMAP_PMTILES, docs/maps.md "Basemap"); both
 * null: the offline Natural Earth basemap. The style URL wins when both are set.
 */
export const BasemapConfig = z.object({
  style_url: z.string().nullable().describe('A MapLibre style JSON for the street view, or null'),
  pmtiles_url: z.string().nullable().describe('An OpenStreetMap vector-tile archive (PMTiles) drawn over the offline basemap, or null'),
  labels: z
    .boolean()
    .default(false)
    .describe('Draw the street and place names of the archive (font files served by this app under /basemap/fonts/; no glyph server is needed)'),
});
export type BasemapConfig = z.infer<typeof BasemapConfig>;

/** `GET /api/config/`: what the web app needs to know of the server's configuration before it draws (no login). */
export const ClientConfigAnswer = z.object({ basemap: BasemapConfig });
export type ClientConfigAnswer = z.infer<typeof ClientConfigAnswer>;

/** Where the street basemap in force comes from: the operator's setting in the app, the server environment, or neither. */
export const BASEMAP_SOURCES = ['settings', 'environment', 'offline'] as const;

const basemapStyleUrl = z
  .string()
  .trim()
  .max(2000, 'style_url is too long')
  .refine((v) => v.startsWith('/') || /^https?:\/\/[^/\s]+/.test(v), 'style_url must be an http(s) URL or a path on this server starting with /');
const basemapPmtiles = z
  .string()
  .trim()
  .max(2000, 'pmtiles is too long')
  .refine((v) => /^https?:\/\/[^/\s]+/.test(v) || v.endsWith('.pmtiles'), 'pmtiles must be an http(s) URL or the path of a .pmtiles file on the server');

/** `PUT api/v2/basemap_settings/` (operators): the street basemap of every map of the installation. */
export const BasemapSettingsInput = z.object({
  style_url: basemapStyleUrl.nullable().optional().describe('A MapLibre style JSON (http(s) URL or a path on this server); null or absent: none'),
  pmtiles: basemapPmtiles
    .nullable()
    .optional()
    .describe(
      'An OpenStreetMap vector-tile archive: an http(s) URL or a .pmtiles file on the server (served at /api/basemap/tiles.pmtiles); null or absent: none',
    ),
  labels: z.boolean().optional().default(true).describe('Draw street and place names of the archive (glyphs served by this server)'),
});
export type BasemapSettingsInput = z.infer<typeof BasemapSettingsInput>;

/** `GET api/v2/basemap_settings/` (operators): the setting, the environment default and what is in force. */
export const BasemapSettingsAnswer = z.object({
  source: z.enum(BASEMAP_SOURCES),
  settings: z
    .object({ style_url: z.string().nullable(), pmtiles: z.string().nullable(), labels: z.boolean(), updated_at: z.string(), updated_by: z.string() })
    .nullable()
    .describe('What an operator set in the app (null: nothing; the environment applies)'),
  environment: z.object({ style_url: z.string().nullable(), pmtiles: z.string().nullable() }).describe('BASEMAP_STYLE_URL and BASEMAP_PMTILES of the server'),
  basemap: BasemapConfig.describe('What the maps draw now (as GET /api/config/ answers)'),
});
export type BasemapSettingsAnswer = z.infer<typeof BasemapSettingsAnswer>;
