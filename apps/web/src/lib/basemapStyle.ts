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
    // Over land, lakes and rivers, under the borders.
    layers: [...base.layers.slice(0, -1), ...osmLayers(), ...base.layers.slice(-1)],
  };
}

/** The offline street style (Natural Earth only). */
export function offlineStreetStyle(): StyleSpecification {
  return {
    version: 8,
    sources: vectorSources(),
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': '#a9cfe0' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f3f1ea', 'fill-outline-color': '#c9c4b5' } },
      { id: 'lakes', type: 'fill', source: 'lakes', paint: { 'fill-color': '#a9cfe0' } },
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
