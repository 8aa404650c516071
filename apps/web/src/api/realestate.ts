import type { PropertyRiskComputeResponse, PropertyRiskProject, PropertyRiskResponse } from '@crp/contracts';
import { request } from './http';

export interface PropertyRiskComputeInput {
  project_name: string;
  /** Locations: name, latitude, longitude and the optional spec 001 §3.6 fields. */
  data: Record<string, unknown>[];
  overwrite?: boolean;
  min_distance?: number;
  max_distance?: number;
}

export type PropertyRiskComputeResult = PropertyRiskComputeResponse;

/** Property risk compute (spec 001 §7): data + project_name; the computation runs as a job. */
export async function computePropertyRisk(input: PropertyRiskComputeInput): Promise<PropertyRiskComputeResult> {
  return (await request<PropertyRiskComputeResult>('POST', '/api/v2/property_risk/', { json: input })).data;
}

/** Property risk fetch (spec 001 §7) by project_name. */
export async function fetchPropertyRisk(projectName: string): Promise<PropertyRiskResponse> {
  return (await request<PropertyRiskResponse>('POST', '/api/v2/property_risk/fetch/', { form: { project_name: projectName } })).data;
}

/** The caller's property-risk projects (own and shared), newest first. */
export async function fetchPropertyRiskProjects(): Promise<PropertyRiskProject[]> {
  return (await request<PropertyRiskProject[]>('GET', '/api/v2/property_risk/projects/')).data;
}
