/** Error thrown for invalid input to the geocoding and company-search functions (maps to HTTP 400). */
export class GeoQueryError extends Error {
  readonly status = 400;
  constructor(
    readonly code: 'query_too_short' | 'invalid_coordinates' | 'unknown_index' | 'invalid_option',
    message: string,
  ) {
    super(message);
    this.name = 'GeoQueryError';
  }
}

/** Validates a latitude/longitude pair; returns the longitude wrapped into [-180, 180). */
export function checkLatLng(lat: number, lng: number): number {
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw new GeoQueryError('invalid_coordinates', `latitude ${String(lat)} is outside -90..90`);
  }
  if (typeof lng !== 'number' || !Number.isFinite(lng)) {
    throw new GeoQueryError('invalid_coordinates', `longitude ${String(lng)} is not a number`);
  }
  return wrapLng(lng);
}

/** Wraps a longitude into [-180, 180). */
export function wrapLng(lng: number): number {
  if (lng >= -180 && lng < 180) return lng;
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}
