import type { NearbyStorm, TrackPoint, TyphoonTrackAnswer } from '@crp/contracts';
import { request } from './http';

/** The answer as the server's schema defines it (`@crp/contracts` TyphoonTrackAnswer). */
export type TyphoonTrackResponse = TyphoonTrackAnswer;
export type { NearbyStorm, TrackPoint };

export type TyphoonTrackInput = { latitude: number; longitude: number } | { project_id: number; asset_id: number };

/** `POST api/hazard/typhoon_track/{userId}/` (201): historical tropical-cyclone tracks within radius_km of a point or asset. */
export async function fetchTyphoonTracks(
  userId: number,
  input: TyphoonTrackInput & { radius_km?: number; since_year?: number; limit?: number },
  signal?: AbortSignal,
): Promise<TyphoonTrackResponse> {
  return (await request<TyphoonTrackResponse>('POST', `/api/hazard/typhoon_track/${userId}/`, { json: input, signal })).data;
}
