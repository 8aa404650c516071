import type { StyleSpecification } from 'maplibre-gl';

/** Offline basemap styles built from apps/web/public/basemap (see its README.md; no network at run time). */

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

export function streetStyle(): StyleSpecification {
  return {
    version: 8,
    sources: vectorSources(),
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': '#a9cfe0' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f3f1ea', 'fill-outline-color': '#c9c4b5' } },
      { id: 'lakes', type: 'fill', source: 'lakes', paint: { 'fill-color': '#a9cfe0' } },
      {
        id: 'rivers',
        type: 'line',
        source: 'rivers',
        paint: { 'line-color': '#7fb5d0', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 8, 1.6] },
      },
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
      borders: { type: 'geojson', data: asset('borders.geojson'), attribution: satelliteTilesUrl ? NE_ATTRIBUTION : `${RELIEF_ATTRIBUTION} · ${NE_ATTRIBUTION}` },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#0d2a45' } },
      { id: 'imagery', type: 'raster', source: 'imagery', paint: { 'raster-fade-duration': 0 } },
      // The relief is coarse (about 20 km per pixel): a coastline keeps the shore readable when zoomed in.
      { id: 'coast', type: 'line', source: 'land', paint: { 'line-color': 'rgba(255,255,255,0.55)', 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.4, 8, 1.2] } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': 'rgba(255,255,255,0.7)', 'line-width': 0.8, 'line-dasharray': [3, 2] } },
    ],
  };
}

export function basemapStyle(kind: BasemapKind): StyleSpecification {
  return kind === 'street' ? streetStyle() : satelliteStyle();
}
