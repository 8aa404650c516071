import { MAP_BBOX_HALF_SIDE_M_PER_KM, MAP_RESULTS_BOUNDS_M_PER_KM, MAP_RESULTS_INITIAL_ZOOM, MAP_ZOOM_ITERATIONS } from '@crp/contracts';

const M_PER_DEG_LAT = (6_371_008.8 * Math.PI) / 180;

/** Square around a point, half-side in metres: [west, south, east, north]. */
export function squareAround(lat: number, lng: number, halfSideM: number): [number, number, number, number] {
  const dLat = halfSideM / M_PER_DEG_LAT;
  const dLng = halfSideM / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180));
  return [lng - dLng, lat - dLat, lng + dLng, lat + dLat];
}

/** The analysis box of a map (half-side 500 m × distance km, spec 001 §9) as a GeoJSON polygon. */
export function bboxPolygon(lat: number, lng: number, distanceKm: number): PolygonFeature {
  const [w, s, e, n] = squareAround(lat, lng, MAP_BBOX_HALF_SIDE_M_PER_KM * distanceKm);
  return {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    },
  };
}

/**
 * Zoom at which the results bounds (460 m × distance around the point) fill the map's width: start at 15 and correct
 * the zoom by the ratio of shown to wanted width, at most 6 times, stopping within 10% (spec 001 §9).
 */
export function resultsZoom(lat: number, distanceKm: number, widthPx: number): number {
  const target = 2 * MAP_RESULTS_BOUNDS_M_PER_KM * distanceKm;
  let zoom = MAP_RESULTS_INITIAL_ZOOM;
  for (let i = 0; i < MAP_ZOOM_ITERATIONS; i++) {
    const shown = (widthPx * 40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** zoom);
    if (Math.abs(shown - target) / target <= 0.1) break;
    zoom += Math.log2(shown / target);
  }
  return Math.max(0, Math.min(22, zoom));
}

/** Minimal GeoJSON types (the project does not depend on @types/geojson). */
export interface PolygonFeature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon'; coordinates: number[][][] };
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: PolygonFeature[];
}
