import { climateScoreLevel, type ClimateScoreLevel, type PhysicalProject } from '@crp/contracts';

export type ProjectSort = 'date-desc' | 'date-asc' | 'name-asc' | 'name-desc' | 'score-desc' | 'score-asc';
export type ScoreBand = ClimateScoreLevel | 'pending';

export interface ProjectFilters {
  search: string;
  from: string | null;
  to: string | null;
  bands: ScoreBand[];
  hazards: string[];
  sharedWithMe: boolean;
  sort: ProjectSort;
}

export const EMPTY_FILTERS: ProjectFilters = { search: '', from: null, to: null, bands: [], hazards: [], sharedWithMe: false, sort: 'date-desc' };

export function scoreBandOf(p: Pick<PhysicalProject, 'overall'>): ScoreBand {
  return p.overall === null ? 'pending' : climateScoreLevel(p.overall);
}

/** How many filters differ from the defaults (sort excluded), for the Advanced Filter badge. */
export function activeFilterCount(f: ProjectFilters): number {
  return (f.search.trim() ? 1 : 0) + (f.from || f.to ? 1 : 0) + (f.bands.length ? 1 : 0) + (f.hazards.length ? 1 : 0) + (f.sharedWithMe ? 1 : 0);
}

/** Client-side filter and sort of the project cards (the list answer holds every project). */
export function applyProjectFilters(projects: readonly PhysicalProject[], f: ProjectFilters): PhysicalProject[] {
  const q = f.search.trim().toLowerCase();
  const out = projects.filter((p) => {
    if (q && !p.name.toLowerCase().includes(q)) return false;
    if (f.from && p.date < f.from) return false;
    if (f.to && p.date > f.to) return false;
    if (f.bands.length && !f.bands.includes(scoreBandOf(p))) return false;
    if (f.hazards.length && !f.hazards.every((h) => p.variables.includes(h))) return false;
    if (f.sharedWithMe && p.permission === 'owner') return false;
    return true;
  });
  const byDate = (a: PhysicalProject, b: PhysicalProject) => (a.created_at || a.date).localeCompare(b.created_at || b.date);
  const score = (p: PhysicalProject) => p.overall ?? -1;
  const cmp: Record<ProjectSort, (a: PhysicalProject, b: PhysicalProject) => number> = {
    'date-desc': (a, b) => byDate(b, a),
    'date-asc': byDate,
    'name-asc': (a, b) => a.name.localeCompare(b.name),
    'name-desc': (a, b) => b.name.localeCompare(a.name),
    'score-desc': (a, b) => score(b) - score(a),
    'score-asc': (a, b) => score(a) - score(b),
  };
  return out.sort(cmp[f.sort]);
}

/** What the caller's permission allows on a card (the server enforces it anyway). */
export function cardAbilities(permission: PhysicalProject['permission']) {
  return { download: true, rename: permission === 'owner' || permission === 'write', share: permission === 'owner', delete: permission === 'owner' };
}

/** The route state /dashboard opens with from a card's Analyse (spec 000 §2). */
export function analyseState(p: PhysicalProject) {
  return {
    project_name: p.name,
    variables: p.variables,
    property_type: p.property_type,
    project_id: p.project_id,
    // The caller's own saved defaults (Save as default), else the project's.
    scenario: p.dashboard_filters.scenario,
    rcp: p.dashboard_filters.analysis_type,
    year: p.dashboard_filters.year,
  };
}
