import { request } from './http';

export interface TrackPoint { time: string; latitude: number; longitude: number; wind_ms: number | null; category: number | null }
export interface NearbyStorm {
  id: string; name: string | null; season: number; year: number; basin: string; agency: string; dataset: string;
  closest_km: number; closest_time: string; closest_point: { latitude: number; longitude: number };
  wind_at_closest_ms: number | null; category_at_closest: number | null; max_wind_ms: number | null; category: number | null;
  track: TrackPoint[];
}
export interface TyphoonTrackResponse {
  latitude: number; longitude: number; radius_km: number; since_year: number | null;
  count: number; total: number; has_data: boolean;
  coverage: { basin: string; from: number; to: number }[];
  storms: NearbyStorm[];
  wind: string;
  sources: { key: string; name: string; publisher: string; license: string; citation: string; basins: string[]; seasons: { from: number; to: number } }[];
}

export type TyphoonTrackInput = { latitude: number; longitude: number } | { project_id: number; asset_id: number };

/** `POST api/hazard/typhoon_track/{userId}/` (201): historical tropical-cyclone tracks within radius_km of a point or asset. */
export async function fetchTyphoonTracks(userId: number, input: TyphoonTrackInput & { radius_km?: number; since_year?: number; limit?: number }, signal?: AbortSignal): Promise<TyphoonTrackResponse> {
  return (await request<TyphoonTrackResponse>('POST', `/api/hazard/typhoon_track/${userId}/`, { json: input, signal })).data;
}
