/**
 * Step 1 of a dashboard answer: the filters. What the caller sent, completed by their saved defaults (else the
 * project's), checked, and resolved into what every later step reads: analysis type, scenario, year, hazards,
 * scenario-year keys, loss options.
 */
import { BASELINE_YEAR, hazardByLabel, YEARS, type AnalysisType, type DashboardBody, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { scenarioYearKey, type LossOptions } from '@crp/engine';
import type { ProjectRow } from '../../infra/db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { hazardKeysOf } from './dashboard-cache.js';

/** The filters of one dashboard query, resolved. */
export interface ResolvedFilters {
  at: AnalysisType;
  sc: ScenarioCode;
  year: number;
  /** The project's hazards, and those of the query (one when `variable` names a hazard). */
  projectHazards: HazardKey[];
  hazards: HazardKey[];
  /** Scenario-year key of the query's year, and of its baseline (2020 of the scenario for rcp, else the baseline). */
  syKey: string;
  baseKey: string;
  opt: LossOptions;
  withContent: boolean;
  mitigation: boolean;
}

type FilterBody = Pick<DashboardBody, 'analysis_type' | 'scenario' | 'year' | 'variable' | 'with_content' | 'adjusted_gdp' | 'mitigation'>;
type SavedFilters = { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };

/**
 * The query's filters: those not sent are the caller's saved defaults (`saved`, update_default_filter without a
 * project), else the project's. 400 for a year the analysis type does not have or a variable that is not a hazard.
 */
export function resolveFilters(project: Pick<ProjectRow, 'default_filters' | 'portfolio_variables'>, saved: unknown, body: FilterBody): ResolvedFilters {
  const filters = (saved ?? project.default_filters) as SavedFilters;
  const at: AnalysisType = body.analysis_type ?? filters.analysis_type;
  const sc: ScenarioCode = (body.scenario as ScenarioCode | undefined) ?? filters.scenario;
  let year = body.year ?? (at === filters.analysis_type ? filters.year : 2050);
  if (at === 'rcp' && year > 2050) year = 2050; // spec 001 §4: rcp with 2100 is forced to 2050
  const validYears = at === 'rcp' ? YEARS.rcp : [BASELINE_YEAR, ...YEARS.ssp];
  if (!validYears.includes(year)) throw badRequest(`year: ${year} is not a ${at.toUpperCase()} year; choose from ${validYears.join(', ')}.`, 'year');

  const projectHazards = hazardKeysOf(project.portfolio_variables as string[]);
  let hazards = projectHazards;
  if (body.variable !== 'Total') {
    const h = hazardByLabel(body.variable)?.key;
    if (!h)
      throw badRequest(
        `variable: '${body.variable}' is not a hazard; send Total or one of ${(project.portfolio_variables as string[]).join(', ')}.`,
        'variable',
      );
    hazards = [h];
  }
  return {
    at,
    sc,
    year,
    projectHazards,
    hazards,
    syKey: syKeyOf(at, sc, year),
    baseKey: at === 'rcp' ? scenarioYearKey('rcp', sc, BASELINE_YEAR) : scenarioYearKey('baseline', null, BASELINE_YEAR),
    opt: { withContent: body.with_content, gdpAdjusted: body.adjusted_gdp },
    withContent: body.with_content ?? true,
    mitigation: body.mitigation,
  };
}

/** Stored scenario-year key of an analysis type, scenario and year (SSP 2020 is the baseline). */
export const syKeyOf = (at: AnalysisType, sc: ScenarioCode, year: number) =>
  at === 'ssp' && year === BASELINE_YEAR ? scenarioYearKey('baseline', null, year) : scenarioYearKey(at, sc, year);

/** Key of the page endpoints' selection: the analysis and the filters that choose the assets and their losses. */
export function selectionKeyOf(
  resultsKey: string,
  f: ResolvedFilters,
  body: Pick<DashboardBody, 'mitigation' | 'with_content' | 'adjusted_gdp' | 'property_type' | 'count'>,
): string {
  return JSON.stringify([
    resultsKey,
    f.at,
    f.sc,
    f.year,
    f.hazards,
    body.mitigation,
    body.with_content,
    body.adjusted_gdp,
    body.property_type.toLowerCase(),
    body.count,
  ]);
}
