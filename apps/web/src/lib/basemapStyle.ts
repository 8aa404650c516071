import { addProtocol, type LayerSpecification, type StyleSpecification } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import { basemapConfig } from './clientConfig';

/**
 * Basemap styles. By default offline, built from apps/web/public/basemap (see its README.md; no network at run time).
 * The server may configure a street-level basemap (docs/maps.md "Basemap"): a MapLibre style URL, which replaces the
 * street style, or an OpenStreetMap vector-tile archive (PMTiles), drawn over the offline layers.
 */

export type BasemapKind = 'street' | 'satellite';

export const DEFAULT_CENTER: [number, number] = [114.18, 22.28];
export const DEFAULT_ZOOM = 5.5;
const MAX_LAT = 85.0511287798066;

const NE_ATTRIBUTION = 'Natural Earth (public domain)';
const GSHHG_ATTRIBUTION = 'Coastline: GSHHG 2.3.7 (Wessel & Smith, LGPL)';
/**
 * The zoom from which the offline street style draws the full-resolution GSHHG coastline and water
 * (public/basemap/coast.pmtiles, zooms 5-10, over-zoomed above) instead of Natural Earth 1:50m.
 */
export const COAST_MIN_ZOOM = 6;
/** The highest zoom at which the offline basemap has useful detail (a harbour's shape); above it a note says so. */
export const OFFLINE_DETAIL_MAX_ZOOM = 15;
/** Colours of the offline street style (the dark style of features/maps/mapStyles.ts overrides them). */
export const OFFLINE_COLOURS = { water: '#a9cfe0', land: '#f3f1ea', landOutline: '#c9c4b5' };

/**
 * Fill colour of a GSHHG ring by its level (`l`): 1 land, 2 lake, 3 island in a lake, 4 pond on such an island.
 * Rings are separate features drawn in level order (fill-sort-key), so a lake paints over its land.
 */
export function coastFillColour(land: string, water: string): unknown {
  return ['match', ['get', 'l'], [2, 4], water, land];
}
const RELIEF_ATTRIBUTION = 'Relief: NASA Earth Observatory';

function asset(name: string): string {
  return new URL(`${import.meta.env.BASE_URL}basemap/${name}`, window.location.href).href;
}

const satelliteTilesUrl = (import.meta.env.VITE_SATELLITE_TILES_URL as string | undefined)?.trim() || null;

function vectorSources(): StyleSpecification['sources'] {
  return {
    land: { type: 'geojson', data: asset('land.geojson'), attribution: NE_ATTRIBUTION },
    lakes: { type: 'geojson', data: asset('lakes.geojson') },
    rivers: { type: 'geojson', data: asset('rivers.geojson') },
    borders: { type: 'geojson', data: asset('borders.geojson') },
    coast: { type: 'vector', url: `pmtiles://${asset('coast.pmtiles')}`, attribution: GSHHG_ATTRIBUTION },
  };
}

/** A style the map draws: a style document, or the URL of one (a configured MapLibre style). */
export type BasemapStyle = StyleSpecification | string;

let pmtilesRegistered = false;
/** MapLibre reads `pmtiles://` sources through the pmtiles package (HTTP Range requests to the archive). */
function registerPmtiles(): void {
  if (pmtilesRegistered) return;
  addProtocol('pmtiles', new Protocol().tile);
  pmtilesRegistered = true;
}

/** Colours of the OpenStreetMap layers (light street style; the dark one of features/maps/mapStyles.ts overrides them). */
export const OSM_COLOURS = { landuse: '#e6e9d8', water: '#a9cfe0', building: '#d7c6b4', buildingOutline: '#b9a58f', road: '#ffffff', roadCasing: '#c4bcae' };

/**
 * Layers of an OpenStreetMap vector-tile archive, for both common schemas: Protomaps basemap (`landuse`, `water`,
 * `roads`, `buildings`) and OpenMapTiles (`landuse`, `landcover`, `water`, `transportation`, `building`). A layer
 * whose source layer the archive lacks draws nothing. No labels: the offline app has no glyph server (a configured
 * style URL brings its own).
 */
function osmLayers(): LayerSpecification[] {
  const width = (base: number): unknown => ['interpolate', ['exponential', 1.6], ['zoom'], 10, base * 0.3, 14, base * 1.5, 18, base * 10];
  const line = (id: string, sourceLayer: string, colour: string, base: number): LayerSpecification =>
    ({
      id,
      type: 'line',
      source: 'osm',
      'source-layer': sourceLayer,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': colour, 'line-width': width(base) },
    }) as LayerSpecification;
  const fill = (id: string, sourceLayer: string, colour: string, outline?: string, minzoom = 0): LayerSpecification =>
    ({
      id,
      type: 'fill',
      source: 'osm',
      'source-layer': sourceLayer,
      minzoom,
      paint: { 'fill-color': colour, ...(outline ? { 'fill-outline-color': outline } : {}) },
    }) as LayerSpecification;
  return [
    fill('osm-landuse', 'landuse', OSM_COLOURS.landuse),
    fill('osm-landcover', 'landcover', OSM_COLOURS.landuse),
    fill('osm-water', 'water', OSM_COLOURS.water),
    line('osm-road-casing', 'roads', OSM_COLOURS.roadCasing, 1.4),
    line('osm-transportation-casing', 'transportation', OSM_COLOURS.roadCasing, 1.4),
    line('osm-roads', 'roads', OSM_COLOURS.road, 1),
    line('osm-transportation', 'transportation', OSM_COLOURS.road, 1),
    fill('osm-buildings', 'buildings', OSM_COLOURS.building, OSM_COLOURS.buildingOutline, 13),
    fill('osm-building', 'building', OSM_COLOURS.building, OSM_COLOURS.buildingOutline, 13),
  ];
}

/** The font of the labels: Liberation Sans (SIL OFL 1.1), served by this app from public/basemap/fonts/. */
export const LABEL_FONT = 'Liberation Sans Regular';
const LABEL_FONT_BOLD = 'Liberation Sans Bold';

/**
 * MapLibre draws label glyphs itself from these font files (the style's `font-faces`), so no glyph server and no
 * internet are needed; characters the files lack (Chinese, for one) are drawn with the browser's own fonts.
 */
function fontFaces(): Record<string, { url: string }[]> {
  return { [LABEL_FONT]: [{ url: asset('fonts/LiberationSans-Regular.ttf') }], [LABEL_FONT_BOLD]: [{ url: asset('fonts/LiberationSans-Bold.ttf') }] };
}

/** Colours of the labels (the dark style overrides them). */
export const LABEL_COLOURS = { text: '#3d3d3d', halo: '#ffffff', place: '#222222' };

/**
 * Street and place names of an OpenStreetMap archive, both schemas: Protomaps (`roads`, `places`, `water` with
 * `name`, `name:en`) and OpenMapTiles (`transportation_name`, `place`, `water_name`). English where the archive has it.
 */
function labelLayers(): LayerSpecification[] {
  const name: unknown = ['coalesce', ['get', 'name:en'], ['get', 'name_en'], ['get', 'name']];
  const road = (id: string, sourceLayer: string): LayerSpecification =>
    ({
      id,
      type: 'symbol',
      source: 'osm',
      'source-layer': sourceLayer,
      minzoom: 13,
      layout: {
        'symbol-placement': 'line',
        'text-field': name,
        'text-font': [LABEL_FONT],
        'text-size': ['interpolate', ['linear'], ['zoom'], 13, 10, 18, 14],
        'text-max-angle': 30,
      },
      paint: { 'text-color': LABEL_COLOURS.text, 'text-halo-color': LABEL_COLOURS.halo, 'text-halo-width': 1.5 },
    }) as LayerSpecification;
  const place = (id: string, sourceLayer: string): LayerSpecification =>
    ({
      id,
      type: 'symbol',
      source: 'osm',
      'source-layer': sourceLayer,
      layout: {
        'text-field': name,
        'text-font': [LABEL_FONT_BOLD],
        'text-size': ['interpolate', ['linear'], ['zoom'], 8, 11, 16, 16],
        'text-max-width': 8,
        'text-padding': 4,
      },
      paint: { 'text-color': LABEL_COLOURS.place, 'text-halo-color': LABEL_COLOURS.halo, 'text-halo-width': 2 },
    }) as LayerSpecification;
  return [
    road('osm-road-labels', 'roads'),
    road('osm-transportation-labels', 'transportation_name'),
    place('osm-place-labels', 'places'),
    place('osm-place-labels-omt', 'place'),
  ];
}

/** The absolute URL of a configured path or URL (MapLibre and the PMTiles reader need absolute URLs). */
const absolute = (u: string) => new URL(u, window.location.href).href;

/**
 * The street basemap: a configured MapLibre style URL as it is; else the offline Natural Earth layers, with the
 * configured OpenStreetMap archive's streets, buildings and water over them.
 */
export function streetStyle(): BasemapStyle {
  const cfg = basemapConfig();
  if (cfg.style_url) {
    registerPmtiles(); // a configured style may use pmtiles:// sources too
    return absolute(cfg.style_url);
  }
  const base = offlineStreetStyle();
  if (!cfg.pmtiles_url) return base;
  registerPmtiles();
  return {
    ...base,
    sources: { ...base.sources, osm: { type: 'vector', url: `pmtiles://${absolute(cfg.pmtiles_url)}`, attribution: '© OpenStreetMap contributors' } },
    // Over land, lakes and rivers, under the borders; names on top.
    layers: [...base.layers.slice(0, -1), ...osmLayers(), ...base.layers.slice(-1), ...(cfg.labels ? labelLayers() : [])],
    ...(cfg.labels ? { 'font-faces': fontFaces() } : {}),
  } as StyleSpecification;
}

/**
 * The offline street style: Natural Earth 1:50m land and lakes below zoom COAST_MIN_ZOOM, the GSHHG full-resolution
 * coastline and water (about 100 m) from there on, Natural Earth rivers and borders on top.
 */
export function offlineStreetStyle(): StyleSpecification {
  registerPmtiles(); // the coastline archive is read with HTTP Range requests
  return {
    version: 8,
    sources: vectorSources(),
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': OFFLINE_COLOURS.water } },
      {
        id: 'land',
        type: 'fill',
        source: 'land',
        maxzoom: COAST_MIN_ZOOM,
        paint: { 'fill-color': OFFLINE_COLOURS.land, 'fill-outline-color': OFFLINE_COLOURS.landOutline },
      },
      { id: 'lakes', type: 'fill', source: 'lakes', maxzoom: COAST_MIN_ZOOM, paint: { 'fill-color': OFFLINE_COLOURS.water } },
      {
        id: 'coast',
        type: 'fill',
        source: 'coast',
        'source-layer': 'coast',
        minzoom: COAST_MIN_ZOOM,
        layout: { 'fill-sort-key': ['get', 'l'] },
        paint: { 'fill-color': coastFillColour(OFFLINE_COLOURS.land, OFFLINE_COLOURS.water) as string, 'fill-antialias': true },
      },
      { id: 'rivers', type: 'line', source: 'rivers', paint: { 'line-color': '#7fb5d0', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 8, 1.6] } },
      {
        id: 'borders',
        type: 'line',
        source: 'borders',
        paint: { 'line-color': '#8c7f99', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 8, 1.4], 'line-dasharray': [3, 2] },
      },
    ],
  };
}

export function satelliteStyle(): StyleSpecification {
  const base: StyleSpecification['sources'] = satelliteTilesUrl
    ? { imagery: { type: 'raster', tiles: [satelliteTilesUrl], tileSize: 256, attribution: 'Imagery: configured tile service' } }
    : {
        imagery: {
          type: 'image',
          url: asset('relief.jpg'),
          coordinates: [
            [-180, MAX_LAT],
            [180, MAX_LAT],
            [180, -MAX_LAT],
            [-180, -MAX_LAT],
          ],
        },
      };
  return {
    version: 8,
    sources: {
      ...base,
      land: { type: 'geojson', data: asset('land.geojson') },
      borders: {
        type: 'geojson',
        data: asset('borders.geojson'),
        attribution: satelliteTilesUrl ? NE_ATTRIBUTION : `${RELIEF_ATTRIBUTION} · ${NE_ATTRIBUTION}`,
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#0d2a45' } },
      { id: 'imagery', type: 'raster', source: 'imagery', paint: { 'raster-fade-duration': 0 } },
      // The relief is coarse (about 20 km per pixel): a coastline keeps the shore readable when zoomed in.
      {
        id: 'coast',
        type: 'line',
        source: 'land',
        paint: { 'line-color': 'rgba(255,255,255,0.55)', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.4, 8, 1.2] },
      },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': 'rgba(255,255,255,0.7)', 'line-width': 0.8, 'line-dasharray': [3, 2] } },
    ],
  };
}

export function basemapStyle(kind: BasemapKind): BasemapStyle {
  return kind === 'street' ? streetStyle() : satelliteStyle();
}
