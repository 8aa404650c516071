/**
 * Hazards, scenarios and years offered by the product.
 * Spec 000 §9 (default and optional hazards), spec 001 §9 and issue 4 §4 (scenario/year grid).
 */

export const HAZARDS = [
  { key: 'river_flood', label: 'River Flood', kind: 'acute', isDefault: true },
  { key: 'typhoon', label: 'Typhoon', kind: 'acute', isDefault: true },
  { key: 'storm_surge', label: 'Storm Surge', kind: 'acute', isDefault: true },
  { key: 'wildfire', label: 'Wildfire', kind: 'acute', isDefault: false },
  { key: 'landslide', label: 'Landslide', kind: 'acute', isDefault: false },
  { key: 'rainfall_flood', label: 'Rainfall Flood', kind: 'acute', isDefault: false },
  { key: 'extreme_cold', label: 'Extreme Cold', kind: 'chronic', isDefault: false },
  { key: 'extreme_heat', label: 'Extreme Heat', kind: 'chronic', isDefault: false },
  { key: 'snowfall', label: 'Snowfall', kind: 'acute', isDefault: false },
  { key: 'sea_level_rise', label: 'Sea Level Rise', kind: 'chronic', isDefault: false },
  { key: 'drought', label: 'Drought', kind: 'chronic', isDefault: false },
] as const;

export type HazardKey = (typeof HAZARDS)[number]['key'];
export type HazardLabel = (typeof HAZARDS)[number]['label'];

export const HAZARD_KEYS = HAZARDS.map((h) => h.key) as readonly HazardKey[];
export const DEFAULT_HAZARD_LABELS = HAZARDS.filter((h) => h.isDefault).map((h) => h.label);
export const OPTIONAL_HAZARD_LABELS = HAZARDS.filter((h) => !h.isDefault).map((h) => h.label);

export function hazardByLabel(label: string) {
  return HAZARDS.find((h) => h.label === label);
}
export function hazardByKey(key: string) {
  return HAZARDS.find((h) => h.key === key);
}

export const ANALYSIS_TYPES = ['rcp', 'ssp'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** Scenario codes as the spec sends them: 26, 45, 85 (RCP2.6/SSP1-2.6, RCP4.5/SSP2-4.5, RCP8.5/SSP5-8.5). */
export const SCENARIOS = ['26', '45', '85'] as const;
export type ScenarioCode = (typeof SCENARIOS)[number];

export const SCENARIO_LABELS: Record<AnalysisType, Record<ScenarioCode, string>> = {
  rcp: { '26': 'RCP 2.6', '45': 'RCP 4.5', '85': 'RCP 8.5' },
  ssp: { '26': 'SSP1-2.6', '45': 'SSP2-4.5', '85': 'SSP5-8.5' },
};

/** Baseline year for every comparison. */
export const BASELINE_YEAR = 2020;

/** Years offered per analysis type (issue 4 §4): RCP 2020/2030/2050; SSP 2025-2100 every 5 years. */
export const YEARS: Record<AnalysisType, readonly number[]> = { rcp: [2020, 2030, 2050], ssp: Array.from({ length: 16 }, (_, i) => 2025 + i * 5) };

/**
 * Years an analysis of each type answers for, with the 2020 baseline: RCP 2020, 2030, 2050; SSP 2020 (the baseline)
 * and 2025-2100 every 5 years. The one list the results API, the GIS export and the point API check years against.
 */
export function analysisYears(at: AnalysisType): number[] {
  return [BASELINE_YEAR, ...YEARS[at]].filter((v, i, a) => a.indexOf(v) === i);
}

/** The sentence for years an analysis type does not have (null when every year is one of its years). */
export function yearsProblem(at: AnalysisType, years: readonly number[], field: string): string | null {
  const allowed = analysisYears(at);
  const bad = years.filter((y) => !allowed.includes(y));
  if (!bad.length) return null;
  return `${field}: ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} not ${at.toUpperCase()} year(s); choose from ${allowed.join(', ')}.`;
}
