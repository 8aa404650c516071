import type { StyleSpecification } from 'maplibre-gl';
import { satelliteStyle, streetStyle } from '../location/basemapStyle';

/** Map views of the map module: the offline satellite (shaded relief) and a dark street style (spec 001 §4 "Map view"). */
export type MapView = 'satellite' | 'street';

/** The street style of features/location in dark colours: the results map's street view, where 3D is offered. */
export function darkStreetStyle(): StyleSpecification {
  const s = streetStyle();
  const colours: Record<string, Record<string, unknown>> = {
    water: { 'background-color': '#1b2b3a' },
    land: { 'fill-color': '#2b2f36', 'fill-outline-color': '#3c424b' },
    lakes: { 'fill-color': '#1b2b3a' },
    rivers: { 'line-color': '#2f5a78' },
    borders: { 'line-color': '#8a8fa0' },
  };
  return { ...s, layers: s.layers.map((l) => (colours[l.id] ? ({ ...l, paint: { ...(l as { paint?: object }).paint, ...colours[l.id] } } as typeof l) : l)) };
}

export function mapViewStyle(view: MapView, dark = false): StyleSpecification {
  if (view === 'satellite') return satelliteStyle();
  return dark ? darkStreetStyle() : streetStyle();
}

/** Optional DEM tiles (Terrarium or Mapbox RGB raster-dem) for 3D terrain; none ships offline. */
export const TERRAIN_TILES_URL = (import.meta.env.VITE_TERRAIN_TILES_URL as string | undefined)?.trim() || null;
