import type { DatasetLookupResponse, FileLinkAnswer, ForwardGeocodeHit, MapProjectItem, MapResponse, MapValueResponse, MapVariable } from '@crp/contracts';
import { request } from './http';

/** Map module calls (spec 001 §7 "Map module"); paths in docs/openapi.json. */
export async function fetchDatasets(latitude: number, longitude: number, signal?: AbortSignal): Promise<DatasetLookupResponse> {
  return (await request<DatasetLookupResponse>('POST', '/api/v2/map_datasets/', { form: { latitude, longitude }, signal })).data;
}

export interface CreateMapInput {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  variable: MapVariable;
  distance: number;
  duration_data: string[];
}
export async function createMap(i: CreateMapInput): Promise<{ detail: string; name: string; project_id: number }> {
  const form = {
    name: i.name.trim(),
    address: i.address,
    latitude: i.latitude,
    longitude: i.longitude,
    portfolio_variables: JSON.stringify([i.variable]),
    distance: i.distance,
    duration_data: JSON.stringify(i.duration_data),
  };
  return (await request<{ detail: string; name: string; project_id: number }>('POST', '/api/v2/create_map_project/', { form })).data;
}

export async function generateMap(name: string): Promise<MapResponse> {
  return (await request<MapResponse>('POST', '/api/v2/generate_map/', { form: { name } })).data;
}

export async function fetchMapValue(q: {
  latitude: number;
  longitude: number;
  country_code?: string | null;
  duration_data: string;
  variable: MapVariable;
  subregion?: string | null;
}): Promise<MapValueResponse> {
  const form = {
    latitude: q.latitude,
    longitude: q.longitude,
    country_code: q.country_code ?? undefined,
    duration_data: q.duration_data,
    variable: q.variable,
    subregion: q.subregion ?? undefined,
  };
  return (await request<MapValueResponse>('POST', '/api/v2/map_value/', { form })).data;
}

export async function downloadMap(projectName: string): Promise<FileLinkAnswer> {
  return (await request<FileLinkAnswer>('POST', '/api/v2/download_map/', { form: { project_name: projectName } })).data;
}

export async function fetchMapProjects(): Promise<MapProjectItem[]> {
  return (await request<MapProjectItem[]>('GET', '/api/v2/map_projects/')).data;
}

/** A place of the forward geocoder (`@crp/contracts` ForwardGeocodeHit). */
export type PlaceHit = ForwardGeocodeHit;
export async function searchPlaces(q: string, signal?: AbortSignal): Promise<PlaceHit[]> {
  const p = new URLSearchParams({ q, limit: '5' });
  return (await request<PlaceHit[]>('GET', `/api/v2/geocode/search/?${p}`, { signal })).data;
}

/** Country detection (spec 001 §5): the country a query names, or null. */
export async function detectCountry(q: string): Promise<{ country_code: string; name: string; latitude: number; longitude: number } | null> {
  const p = new URLSearchParams({ q });
  return (await request<{ country: { country_code: string; name: string; latitude: number; longitude: number } | null }>('GET', `/api/v2/map_country/?${p}`))
    .data.country;
}
