import type { UpgradeRequest, UpgradeRequestBody, UpgradeRequestList } from '@crp/contracts';
import { request } from './http';

export type { UpgradeRequest };

/** An operator: every pending request and the last decided; anyone else: their company's, newest first. */
export async function fetchUpgradeRequests(): Promise<UpgradeRequestList> {
  return (await request<UpgradeRequestList>('GET', '/api/v2/upgrade_requests/')).data;
}

/** Asks for a higher tier (409 while the company has a pending request). */
export async function requestUpgrade(body: UpgradeRequestBody): Promise<{ detail: string; request: UpgradeRequest }> {
  return (await request<{ detail: string; request: UpgradeRequest }>('POST', '/api/v2/upgrade_requests/', { json: body })).data;
}

/** An operator grants a pending request. */
export async function grantUpgradeRequest(id: number): Promise<{ detail: string; request: UpgradeRequest }> {
  return (await request<{ detail: string; request: UpgradeRequest }>('POST', `/api/v2/upgrade_requests/${id}/grant/`)).data;
}
