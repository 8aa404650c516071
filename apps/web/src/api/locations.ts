import type { CreateProjectBody, CreateProjectResponse, PreviewUploadResponse, ReverseGeocodeAnswer } from '@crp/contracts';
import { request, requestFile, uploadForm, type UploadProgress } from './http';

export type ReverseGeocodeResult = ReverseGeocodeAnswer;

export async function reverseGeocode(latitude: number, longitude: number, signal?: AbortSignal): Promise<ReverseGeocodeResult> {
  const q = new URLSearchParams({ latitude: latitude.toFixed(6), longitude: longitude.toFixed(6) });
  return (await request<ReverseGeocodeResult>('GET', `/api/v2/geocode/reverse/?${q}`, { signal })).data;
}

export type CreatePortfolioInput = Pick<CreateProjectBody, 'portfolio_name' | 'mode'> & {
  /** Omitted when adding to or overwriting a portfolio: its hazards stay as they are. */
  portfolio_variables?: string[];
  data: Record<string, unknown>[];
  non_building_variables?: { energy: string[]; agriculture: string[] };
  /** Company locations (spec 000 §7): the tickers of the chosen companies, comma-separated. */
  ticker?: string;
  is_benchmark?: boolean;
};

export type CreatePortfolioResult = CreateProjectResponse;

export async function createPortfolio(input: CreatePortfolioInput): Promise<CreatePortfolioResult> {
  return (await request<CreatePortfolioResult>('POST', '/api/v2/create_project/', { json: { base_unit: 'meter', base_currency: 'USD', ...input } })).data;
}

/** A large upload (docs/decisions.md): the file itself as multipart `upload_file`, the other fields as the JSON path sends them. */
export type CreatePortfolioFileInput = Pick<CreateProjectBody, 'portfolio_name'> & { portfolio_variables: string[]; file: File };

export async function createPortfolioFromFile(input: CreatePortfolioFileInput, onProgress: (p: UploadProgress) => void): Promise<CreatePortfolioResult> {
  const form = new FormData();
  form.append('portfolio_name', input.portfolio_name);
  form.append('portfolio_variables', JSON.stringify(input.portfolio_variables));
  form.append('base_unit', 'meter');
  form.append('base_currency', 'USD');
  form.append('upload_file', input.file, input.file.name);
  return (await uploadForm<CreatePortfolioResult>('/api/v2/create_project/', form, onProgress)).data;
}

/** A GIS upload read by the server into the table create_project will check: header, first rows, row count. */
export async function previewUpload(file: File): Promise<PreviewUploadResponse> {
  const form = new FormData();
  form.append('upload_file', file, file.name);
  return (await uploadForm<PreviewUploadResponse>('/api/v2/preview_upload/', form, () => undefined)).data;
}

/** The upload template as a blob (token header required, so not a plain link). */
export async function fetchUploadTemplate(): Promise<Blob> {
  return (await requestFile('GET', '/api/v2/download_upload_csv_template/?unit=meter&currency=USD', { fallbackName: 'asset_upload_template.xlsx' })).blob;
}

export async function updateDefaultFilter(projectId: number, data: { year: number; scenario: string; analysis_type: string }): Promise<void> {
  await request('POST', '/api/project/update_default_filter/', { form: { data: JSON.stringify(data), project_id: projectId } });
}
