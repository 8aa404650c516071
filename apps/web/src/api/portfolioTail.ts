import type { AnalysisType, PortfolioTailResponse, ScenarioCode } from '@crp/contracts';
import { request, requestFile } from './http';

export type { PortfolioTailResponse };

const query = (q: { analysis_type: AnalysisType; scenario: ScenarioCode; year: number }) =>
  `analysis_type=${q.analysis_type}&scenario=${q.scenario}&year=${q.year}`;

/** `GET /api/v2/projects/{id}/portfolio_tail/`: the cyclone-wind portfolio tail from events at a scenario-year. */
export async function fetchPortfolioTail(
  projectId: number,
  q: { analysis_type: AnalysisType; scenario: ScenarioCode; year: number },
  signal?: AbortSignal,
): Promise<PortfolioTailResponse> {
  return (await request<PortfolioTailResponse>('GET', `/api/v2/projects/${projectId}/portfolio_tail/?${query(q)}`, { signal })).data;
}

/** The event loss table (CSV) of the same scenario-year. */
export function downloadEventLosses(projectId: number, q: { analysis_type: AnalysisType; scenario: ScenarioCode; year: number }) {
  return requestFile('GET', `/api/v2/projects/${projectId}/portfolio_tail/event_losses.csv?${query(q)}`, { fallbackName: 'event_losses.csv' });
}
