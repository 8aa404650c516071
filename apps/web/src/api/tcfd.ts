import type { TcfdNarrative, TcfdNarrativeBody } from '@crp/contracts';
import { request } from './http';

export type { TcfdNarrative, TcfdNarrativeBody };

/** The organisation's text of a portfolio's TCFD report (GET/PUT api/v2/tcfd_narrative/{projectId}/). */
export async function fetchTcfdNarrative(projectId: number, signal?: AbortSignal): Promise<TcfdNarrative> {
  return (await request<TcfdNarrative>('GET', `/api/v2/tcfd_narrative/${projectId}/`, { signal })).data;
}

export async function saveTcfdNarrative(projectId: number, body: TcfdNarrativeBody): Promise<TcfdNarrative> {
  return (await request<TcfdNarrative>('PUT', `/api/v2/tcfd_narrative/${projectId}/`, { json: body })).data;
}
