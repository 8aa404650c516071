import type { CarbonAnalysisResponse, CarbonCompanyRow, CarbonDataResponse, CarbonProject, CarbonProjectListResponse } from '@crp/contracts';
import { readToken } from '../lib/storage';
import { ApiError, request, requestFile } from './http';

export type { CarbonAnalysisResponse, CarbonCompanyRow, CarbonDataResponse, CarbonProject, CarbonProjectListResponse };

/** Calls of the carbon module (spec 000 §7 "Transition projects", 001 §7 "Carbon"). */
export interface CarbonSaveInput {
  portfolio_name: string;
  portfolio_value: number;
  companies_data: CarbonCompanyRow[];
  overwrite?: boolean;
}

export async function createCarbonAnalysis(userId: number, input: CarbonSaveInput): Promise<{ detail: string; project: CarbonProject; created: boolean }> {
  return (await request<{ detail: string; project: CarbonProject; created: boolean }>('POST', `/api/report/create_carbon_analysis/${userId}/`, { json: input }))
    .data;
}

/** Create from a CSV file (multipart: portfolio_name, portfolio_value, uploaded_file, overwrite). */
export async function uploadCarbonCsv(
  userId: number,
  input: { portfolio_name: string; portfolio_value: number; file: File; overwrite?: boolean },
): Promise<{ detail: string; project: CarbonProject; created: boolean }> {
  const fd = new FormData();
  fd.set('portfolio_name', input.portfolio_name);
  fd.set('portfolio_value', String(input.portfolio_value));
  fd.set('overwrite', input.overwrite ? 'true' : 'false');
  fd.set('uploaded_file', input.file, input.file.name);
  const token = readToken();
  const res = await fetch(`/api/report/create_carbon_analysis/${userId}/`, {
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
  return data as { detail: string; project: CarbonProject; created: boolean };
}

export async function modifyCarbonAnalysis(userId: number, input: CarbonSaveInput): Promise<{ detail: string; project: CarbonProject }> {
  return (await request<{ detail: string; project: CarbonProject }>('POST', `/api/report/modify_carbon_analysis/${userId}/`, { json: input })).data;
}

export async function fetchCarbonProjects(userId: number): Promise<CarbonProjectListResponse> {
  return (await request<CarbonProjectListResponse>('GET', `/api/report/get_carbon_project_list/${userId}/`)).data;
}

export async function fetchCarbonAnalysis(userId: number, portfolioName: string): Promise<CarbonAnalysisResponse> {
  return (await request<CarbonAnalysisResponse>('POST', `/api/report/get_carbon_analysis/${userId}/`, { json: { portfolio_name: portfolioName } })).data;
}

export async function fetchCarbonData(userId: number, portfolioName: string): Promise<CarbonDataResponse> {
  return (await request<CarbonDataResponse>('POST', `/api/report/get_carbon_analysis_data/${userId}/`, { json: { portfolio_name: portfolioName } })).data;
}

export async function deleteCarbonAnalysis(userId: number, portfolioName: string): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', `/api/report/delete_carbon_analysis/${userId}/`, { json: { portfolio_name: portfolioName } })).data;
}

/** Download as a file: csv or xlsx (the server names it). */
export function downloadCarbonFile(userId: number, portfolioName: string, format: 'csv' | 'xlsx'): Promise<{ blob: Blob; fileName: string }> {
  return requestFile('POST', `/api/report/get_carbon_analysis/${userId}/download/`, {
    json: { portfolio_name: portfolioName, format },
    fallbackName: `carbon.${format}`,
  });
}

export function fetchCarbonTemplate(): Promise<{ blob: Blob; fileName: string }> {
  return requestFile('GET', '/api/report/carbon_template/', { fallbackName: 'carbon_template.csv' });
}
