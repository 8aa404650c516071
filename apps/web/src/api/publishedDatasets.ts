import type { PublishedDataset, PublishedDatasetList } from '@crp/contracts';
import { request } from './http';

export type { PublishedDataset, PublishedDatasetList };

/** The installation's published flood datasets (operators only: others get 403). */
export async function fetchPublishedDatasets(): Promise<PublishedDatasetList> {
  return (await request<PublishedDatasetList>('GET', '/api/v2/published_datasets/')).data;
}

/** Registers a server-side directory of Aqueduct/JRC maps; a refusal throws ApiError listing each refused file. */
export async function registerPublishedDataset(input: { directory: string; name?: string }) {
  return (
    await request<{ detail: string; dataset: PublishedDataset; reanalysed: number; replaced: boolean }>('POST', '/api/v2/published_datasets/', {
      json: input.name ? input : { directory: input.directory },
    })
  ).data;
}

export async function removePublishedDataset(name: string): Promise<{ detail: string; reanalysed: number }> {
  return (await request<{ detail: string; reanalysed: number }>('DELETE', `/api/v2/published_datasets/${encodeURIComponent(name)}/`)).data;
}
