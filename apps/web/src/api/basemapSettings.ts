import type { BasemapSettingsAnswer, BasemapSettingsInput } from '@crp/contracts';
import { request } from './http';

export type { BasemapSettingsAnswer };

/** The street basemap of every map (operators only: others get 403). */
export async function fetchBasemapSettings(): Promise<BasemapSettingsAnswer> {
  return (await request<BasemapSettingsAnswer>('GET', '/api/v2/basemap_settings/')).data;
}

export async function saveBasemapSettings(input: Partial<BasemapSettingsInput>): Promise<BasemapSettingsAnswer> {
  return (await request<BasemapSettingsAnswer>('PUT', '/api/v2/basemap_settings/', { json: input })).data;
}

export async function clearBasemapSettings(): Promise<BasemapSettingsAnswer> {
  return (await request<BasemapSettingsAnswer>('DELETE', '/api/v2/basemap_settings/')).data;
}
