import { coastFillColour, satelliteStyle, streetStyle, type BasemapStyle } from '../../lib/basemapStyle';

/** Map views of the map module: the offline satellite (shaded relief) and a dark street style (spec 001 §4 "Map view"). */
export type MapView = 'satellite' | 'street';

/**
 * The street style of features/location in dark colours: the results map's street view, where 3D is offered. A
 * configured MapLibre style URL is drawn as it is (its colours are the operator's choice).
 */
export function darkStreetStyle(): BasemapStyle {
  const s = streetStyle();
  if (typeof s === 'string') return s;
  const colours: Record<string, Record<string, unknown>> = {
    water: { 'background-color': '#1b2b3a' },
    land: { 'fill-color': '#2b2f36', 'fill-outline-color': '#3c424b' },
    lakes: { 'fill-color': '#1b2b3a' },
    coast: { 'fill-color': coastFillColour('#2b2f36', '#1b2b3a') },
    rivers: { 'line-color': '#2f5a78' },
    borders: { 'line-color': '#8a8fa0' },
    'osm-landuse': { 'fill-color': '#2f353d' },
    'osm-landcover': { 'fill-color': '#2f353d' },
    'osm-water': { 'fill-color': '#1b2b3a' },
    'osm-road-casing': { 'line-color': '#23272d' },
    'osm-transportation-casing': { 'line-color': '#23272d' },
    'osm-roads': { 'line-color': '#4a515c' },
    'osm-transportation': { 'line-color': '#4a515c' },
    'osm-buildings': { 'fill-color': '#3a4049', 'fill-outline-color': '#4a515c' },
    'osm-building': { 'fill-color': '#3a4049', 'fill-outline-color': '#4a515c' },
    'osm-road-labels': { 'text-color': '#c9ced6', 'text-halo-color': '#1b1f24' },
    'osm-transportation-labels': { 'text-color': '#c9ced6', 'text-halo-color': '#1b1f24' },
    'osm-place-labels': { 'text-color': '#e8ebef', 'text-halo-color': '#1b1f24' },
    'osm-place-labels-omt': { 'text-color': '#e8ebef', 'text-halo-color': '#1b1f24' },
  };
  return { ...s, layers: s.layers.map((l) => (colours[l.id] ? ({ ...l, paint: { ...(l as { paint?: object }).paint, ...colours[l.id] } } as typeof l) : l)) };
}

export function mapViewStyle(view: MapView, dark = false): BasemapStyle {
  if (view === 'satellite') return satelliteStyle();
  return dark ? darkStreetStyle() : streetStyle();
}

/** Optional DEM tiles (Terrarium or Mapbox RGB raster-dem) for 3D terrain; none ships offline. */
export const TERRAIN_TILES_URL = (import.meta.env.VITE_TERRAIN_TILES_URL as string | undefined)?.trim() || null;
