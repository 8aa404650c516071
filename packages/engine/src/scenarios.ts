/**
 * The scenario-year grid (issue 4 §4; spec 001 §9): 2020 baseline; RCP 2.6/4.5/8.5 x 2020, 2030, 2050;
 * SSP1-2.6/2-4.5/5-8.5 x 2025-2100 every 5 years. 58 scenario-years in all.
 */
import { BASELINE_YEAR, SCENARIOS, YEARS, type AnalysisType, type ScenarioCode } from '@crp/contracts';

export interface ScenarioYear {
  analysisType: AnalysisType | 'baseline';
  scenario: ScenarioCode | null;
  year: number;
  /** Stable key, e.g. "baseline_2020", "rcp85_2030", "ssp26_2100". */
  key: string;
}

export function scenarioYearKey(analysisType: AnalysisType | 'baseline', scenario: ScenarioCode | null, year: number): string {
  return analysisType === 'baseline' ? `baseline_${year}` : `${analysisType}${scenario}_${year}`;
}

export const SCENARIO_YEARS: readonly ScenarioYear[] = (() => {
  const out: ScenarioYear[] = [{ analysisType: 'baseline', scenario: null, year: BASELINE_YEAR, key: scenarioYearKey('baseline', null, BASELINE_YEAR) }];
  for (const at of ['rcp', 'ssp'] as const)
    for (const s of SCENARIOS) for (const y of YEARS[at]) out.push({ analysisType: at, scenario: s, year: y, key: scenarioYearKey(at, s, y) });
  return out;
})();

export const SCENARIO_YEAR_INDEX: ReadonlyMap<string, number> = new Map(SCENARIO_YEARS.map((s, i) => [s.key, i]));

/**
 * Indices into SCENARIO_YEARS of the time series of one analysis type and scenario, starting with the 2020 point:
 * RCP has its own 2020; SSP starts at the 2020 baseline, then 2025..2100.
 */
export function seriesIndices(analysisType: AnalysisType, scenario: ScenarioCode): { years: number[]; indices: number[] } {
  const years: number[] = [];
  const indices: number[] = [];
  if (!YEARS[analysisType].includes(BASELINE_YEAR)) {
    years.push(BASELINE_YEAR);
    indices.push(0);
  }
  for (const y of YEARS[analysisType]) {
    years.push(y);
    indices.push(SCENARIO_YEAR_INDEX.get(scenarioYearKey(analysisType, scenario, y)) as number);
  }
  return { years, indices };
}

/** Scenario code -> SSP used for socio-economics (common RCP-SSP pairing: 2.6-SSP1, 4.5-SSP2, 8.5-SSP5). */
export const SCENARIO_SSP: Record<ScenarioCode, 'SSP1' | 'SSP2' | 'SSP5'> = { '26': 'SSP1', '45': 'SSP2', '85': 'SSP5' };

/**
 * World GDP (PPP) relative to 2020 under each SSP, at 2050 and 2100: approximations of the OECD Env-Growth projections
 * of the SSP database (Dellink et al. 2017, Global Environmental Change 42:200; IIASA SSP Database v2) [verify:
 * values read from the published world totals, rounded]. Interpolated log-linearly between 2020, 2050 and 2100.
 */
export const GDP_FACTOR_POINTS: Record<'SSP1' | 'SSP2' | 'SSP5', { y2050: number; y2100: number }> = {
  SSP1: { y2050: 2.5, y2100: 4.8 },
  SSP2: { y2050: 2.2, y2100: 4.5 },
  SSP5: { y2050: 3.0, y2100: 8.3 },
};

/** GDP(year)/GDP(2020) for a scenario code; baseline or year <= 2020 -> 1. Used for GDP-adjusted operational loss. */
export function gdpGrowthFactor(scenario: ScenarioCode | null, year: number): number {
  if (!scenario || year <= BASELINE_YEAR) return 1;
  const p = GDP_FACTOR_POINTS[SCENARIO_SSP[scenario]];
  const y = Math.min(year, 2100);
  if (y <= 2050) return Math.exp((Math.log(p.y2050) * (y - 2020)) / 30);
  return Math.exp(Math.log(p.y2050) + (Math.log(p.y2100 / p.y2050) * (y - 2050)) / 50);
}
