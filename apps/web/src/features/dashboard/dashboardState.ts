import { SCENARIOS, YEARS, type AnalysisType, type ScenarioCode } from '@crp/contracts';

/** What /dashboard reads from the navigation state (spec 001 §2.1). */
export interface DashboardEntry {
  project_name: string | null;
  project_id: number | null;
  variables: string[];
  property_type: string[];
  analysis_type: AnalysisType | null;
  scenario: ScenarioCode | null;
  year: number | null;
}

/** The Advanced Filters as applied (the query key of the dashboard). */
export interface AppliedFilters {
  analysis_type: AnalysisType;
  scenario: ScenarioCode;
  year: number;
  variable: string;
  property_type: string;
  count: 'All' | number;
}

/** The analysis options of the page (switches), also part of the query. */
export interface AnalysisOptions {
  mitigation: boolean;
  with_content: boolean;
  adjusted_gdp: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Reads the navigation state: a plain project name, `{project: 'name'}`, `{project: {name, project_id}}` or the
 * full `{project_name, variables, property_type, project_id, scenario, rcp, year}`. Null when no project is named.
 */
export function parseEntryState(state: unknown): DashboardEntry | null {
  if (typeof state === 'string') return state.trim() ? { ...EMPTY, project_name: state.trim() } : null;
  if (!isObj(state)) return null;
  let name = str(state.project_name);
  let id = num(state.project_id);
  const p = state.project;
  if (typeof p === 'string' && p.trim()) name ??= p.trim();
  if (isObj(p)) {
    name ??= str(p.name) ?? str(p.project_name);
    id ??= num(p.project_id) ?? num(p.id);
  }
  if (!name && id === null) return null;
  // `rcp` carries the analysis type in the card's state; accept a scenario code there too.
  const rcp = str(state.rcp) ?? str(state.analysis_type);
  const analysis_type: AnalysisType | null = rcp === 'rcp' || rcp === 'ssp' ? rcp : null;
  const scRaw = str(String(state.scenario ?? '')) ?? (rcp && (SCENARIOS as readonly string[]).includes(rcp) ? rcp : null);
  const scenario = scRaw && (SCENARIOS as readonly string[]).includes(scRaw) ? (scRaw as ScenarioCode) : null;
  return {
    project_name: name,
    project_id: id,
    variables: strList(state.variables),
    property_type: strList(state.property_type),
    analysis_type,
    scenario,
    year: num(state.year),
  };
}

const EMPTY: DashboardEntry = { project_name: null, project_id: null, variables: [], property_type: [], analysis_type: null, scenario: null, year: null };

/** Years offered in the Advanced Filters: rcp 2020/2030/2050, ssp 2025-2100 every 5 (spec 001 §9). */
export function yearsFor(at: AnalysisType): readonly number[] {
  return YEARS[at];
}

/** On apply: rcp with a year past 2050 becomes 2050; a year not offered snaps to the nearest one offered. */
export function normaliseYear(at: AnalysisType, year: number): number {
  if (at === 'rcp' && year > 2050) return 2050;
  const ys = yearsFor(at);
  if (ys.includes(year)) return year;
  return ys.reduce((best, y) => (Math.abs(y - year) < Math.abs(best - year) ? y : best), ys[0]!);
}

/** Filters on entry: the state's (the card's saved defaults), else the spec's dashboard defaults (ssp, 8.5, 2050). */
export function initialFilters(e: DashboardEntry): AppliedFilters {
  const analysis_type = e.analysis_type ?? 'ssp';
  const year = normaliseYear(analysis_type, e.year ?? 2050);
  return { analysis_type, scenario: e.scenario ?? '85', year, variable: 'Total', property_type: 'All', count: 'All' };
}

export const WITH_CONTENT_KEY = 'dashboard_with_content';

/*
 * Dashboard filters in the URL (issue 23 item 6): the project, the Advanced Filters, the switches and the unit are
 * search parameters, so a view can be bookmarked and shared and a reload restores it. Values that are not valid fall
 * back to the defaults (a shared link never breaks the page).
 */
const bool = (v: string | null): boolean | null => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : null);

/** The project named by the URL (`project_id`, `project`), when the page was opened from a link rather than a card. */
export function entryFromSearch(p: URLSearchParams): DashboardEntry | null {
  const id = num(p.get('project_id'));
  const name = str(p.get('project'));
  if (id === null && !name) return null;
  return { ...EMPTY, project_id: id !== null && Number.isInteger(id) && id > 0 ? id : null, project_name: name };
}

/** The Advanced Filters of the URL over `fallback` (type, scenario, year, hazard, property_type, count). */
export function filtersFromSearch(p: URLSearchParams, fallback: AppliedFilters): AppliedFilters {
  const t = p.get('type');
  const analysis_type: AnalysisType = t === 'rcp' || t === 'ssp' ? t : fallback.analysis_type;
  const sc = p.get('scenario');
  const scenario = sc && (SCENARIOS as readonly string[]).includes(sc) ? (sc as ScenarioCode) : fallback.scenario;
  const y = num(p.get('year'));
  const year = normaliseYear(analysis_type, y !== null && Number.isInteger(y) ? y : fallback.year);
  const c = p.get('count');
  const cn = num(c);
  const count: 'All' | number = c === 'All' ? 'All' : cn !== null && Number.isInteger(cn) && cn > 0 ? cn : fallback.count;
  return {
    analysis_type,
    scenario,
    year,
    variable: str(p.get('hazard')) ?? fallback.variable,
    property_type: str(p.get('property_type')) ?? fallback.property_type,
    count,
  };
}

/** The switches of the URL over `fallback` (adaptation, content, gdp as 1/0). */
export function optionsFromSearch(p: URLSearchParams, fallback: AnalysisOptions): AnalysisOptions {
  return {
    mitigation: bool(p.get('adaptation')) ?? fallback.mitigation,
    with_content: bool(p.get('content')) ?? fallback.with_content,
    adjusted_gdp: bool(p.get('gdp')) ?? fallback.adjusted_gdp,
  };
}

/** The URL search parameters of a dashboard view (the other parameters of the URL are kept). */
export function searchOf(entry: DashboardEntry, f: AppliedFilters, o: AnalysisOptions, unit: string, base?: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(base);
  const set = (k: string, v: string | null) => (v === null ? p.delete(k) : p.set(k, v));
  set('project_id', entry.project_id !== null ? String(entry.project_id) : null);
  set('project', entry.project_name);
  set('type', f.analysis_type);
  set('scenario', f.scenario);
  set('year', String(f.year));
  set('hazard', f.variable === 'Total' ? null : f.variable);
  set('property_type', f.property_type === 'All' ? null : f.property_type);
  set('count', f.count === 'All' ? null : String(f.count));
  set('adaptation', o.mitigation ? '1' : '0');
  set('content', o.with_content ? '1' : '0');
  set('gdp', o.adjusted_gdp ? '1' : '0');
  set('unit', unit === 'dollar' ? null : unit);
  return p;
}
