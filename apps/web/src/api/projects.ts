import type {
  AnalysisType,
  CsvReportAnswer,
  DefaultFilters,
  FileLinkAnswer,
  PhysicalProject,
  ProjectNameItem,
  ProjectStatus,
  ScenarioCode,
  SharePermission,
  SlideReportAnswer,
} from '@crp/contracts';
import { ProjectListResponse } from '@crp/contracts';
import { ApiError, request, requestFile } from './http';
import { readToken } from '../lib/storage';

export type ProjectList = ReturnType<typeof ProjectListResponse.parse>;
export type ProjectMember = ProjectList['members'][number];
export type { PhysicalProject, DefaultFilters };
export type ProjectName = ProjectNameItem;
/** A map-module project; optional fields appear when the server has them. */
export type MapProjectName = ProjectName & { distance?: number | string | null; portfolio_variable?: string | null };

export async function fetchProjectList(userId: number): Promise<ProjectList> {
  return (await request<ProjectList>('GET', `/api/project/${userId}/`)).data;
}

export async function fetchAllProjects<T extends ProjectName = ProjectName>(listFor: 'physical_risk' | 'map_module'): Promise<T[]> {
  return (await request<T[]>('GET', `/api/project/all_projects/?list_for=${listFor}`)).data;
}

export async function renameProject(userId: number, oldname: string, name: string): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', `/api/project/update/${userId}/`, { form: { oldname, name } })).data;
}

export async function deleteProject(userId: number, name: string): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', `/api/project/delete/${userId}/`, { form: { name } })).data;
}

export async function shareProject(projectId: number, userIds: number[], permission: SharePermission): Promise<{ detail: string }> {
  return (
    await request<{ detail: string }>('POST', '/api/v2/share_project/', { form: { project_id: projectId, share_with: JSON.stringify(userIds), permission } })
  ).data;
}

export interface CsvReportInput {
  project_name: string;
  climate_variables: string[];
  year_list: number[];
  scenario_list: ScenarioCode[];
  analysis_type: AnalysisType;
  adjusted_gdp?: boolean;
  has_mitigation?: boolean;
}
export type CsvReportResult = CsvReportAnswer;

export async function downloadCsvReport(input: CsvReportInput): Promise<CsvReportResult> {
  return (
    await request<CsvReportResult>('POST', '/api/v2/download_csv_report/', {
      form: {
        project_name: input.project_name,
        climate_variables: JSON.stringify(input.climate_variables),
        year_list: JSON.stringify(input.year_list),
        scenario_list: JSON.stringify(input.scenario_list),
        analysis_type: input.analysis_type,
        adjusted_gdp: input.adjusted_gdp ?? false,
        has_mitigation: input.has_mitigation ?? false,
      },
    })
  ).data;
}

export async function summaryReport(projectName: string, analysisType: AnalysisType, hasMitigation = false): Promise<FileLinkAnswer> {
  return (
    await request<FileLinkAnswer>('POST', '/api/v2/summary_report/', {
      form: { project_name: projectName, analysis_type: analysisType, has_mitigation: hasMitigation },
    })
  ).data;
}

export type SlideReportResult = SlideReportAnswer;

/** The slide report (PDF and PPTX) of a project; With Content or Without Content. */
/** The slide report of a project at a scenario and year (issue 37 item 7: the user's choice, not the saved defaults). */
export async function generateSlideReport(
  projectId: number,
  v: { analysisType: AnalysisType; scenario: ScenarioCode; year: number; withContent: boolean },
): Promise<SlideReportResult> {
  return (
    await request<SlideReportResult>('POST', '/api/v2/generate_pdf_report/', {
      form: { project_id: projectId, analysis_type: v.analysisType, scenario: v.scenario, year: v.year, with_content: v.withContent },
    })
  ).data;
}

export async function fetchProjectStatus(projectId: number): Promise<ProjectStatus> {
  return (await request<ProjectStatus>('GET', `/api/v2/projects/${projectId}/status/`)).data;
}

/**
 * Follows the server-sent progress events of a project's analysis with fetch and a stream reader (EventSource cannot
 * send the Authorization header). Calls `onEvent` for every `data:` line; resolves with the last status.
 */
export async function followProjectProgress(projectId: number, onEvent: (s: ProjectStatus) => void, signal?: AbortSignal): Promise<ProjectStatus | null> {
  const token = readToken();
  const res = await fetch(`/api/v2/projects/${projectId}/progress/`, {
    headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Token ${token}` } : {}) },
    signal,
  });
  if (!res.ok || !res.body) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, body);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last: ProjectStatus | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      try {
        const parsed = JSON.parse(line.slice(5).trim()) as Partial<ProjectStatus> & { detail?: string };
        if (typeof parsed.status === 'string') {
          last = parsed as ProjectStatus;
          onEvent(last);
        } else if (parsed.detail) {
          throw new Error(parsed.detail);
        }
      } catch (err) {
        if (err instanceof SyntaxError) continue;
        throw err;
      }
    }
  }
  return last;
}

/** A project's assets with their results at the default filter, as GeoJSON or GeoPackage (docs/results-api.md). */
export async function downloadProjectGis(projectId: number, format: 'geojson' | 'gpkg'): Promise<{ blob: Blob; fileName: string }> {
  return requestFile('GET', `/api/v2/projects/${projectId}/assets_gis/?format=${format}`, { fallbackName: `assets.${format}` });
}
