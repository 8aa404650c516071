import type { OwnLayer, OwnLayerList } from '@crp/contracts';
import { readToken } from '../lib/storage';
import { ApiError, request } from './http';

export type { OwnLayer, OwnLayerList };

/** Form fields of an own-layer upload (strings as the multipart form sends them). */
export interface OwnLayerUploadInput {
  hazard: string;
  scenario: string;
  year: string;
  return_period_years: string;
  unit: string;
  /** The band (1-based; empty = 1) and, for NetCDF, the variable. */
  band: string;
  variable: string;
  label: string;
  source: string;
  file: File;
}

/** The company's own hazard layers, with the limits, units and ranges the upload checks. */
export async function fetchOwnLayers(): Promise<OwnLayerList> {
  return (await request<OwnLayerList>('GET', '/api/v2/own_layers/')).data;
}

/** Uploads a GeoTIFF or NetCDF file (multipart); a refused layer throws ApiError naming the field and the problem. */
export async function uploadOwnLayer(input: OwnLayerUploadInput): Promise<{ detail: string; layer: OwnLayer; reanalysed: number }> {
  const fd = new FormData();
  for (const k of ['hazard', 'scenario', 'year', 'return_period_years', 'unit', 'band', 'variable', 'label', 'source'] as const)
    if (input[k]) fd.set(k, input[k]);
  fd.set('file', input.file, input.file.name);
  const token = readToken();
  const res = await fetch('/api/v2/own_layers/', {
    method: 'POST',
    body: fd,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}) },
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 300) };
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data as { detail: string; layer: OwnLayer; reanalysed: number };
}

export async function deleteOwnLayer(id: number): Promise<{ detail: string; reanalysed: number }> {
  return (await request<{ detail: string; reanalysed: number }>('DELETE', `/api/v2/own_layers/${id}/`)).data;
}
