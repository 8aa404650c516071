/** Shapes shared by the sampler and the hazard models (re-exported by sampler.ts and the package index). */
import { HAZARD_KEYS, HAZARD_RETURN_PERIODS_YEARS, type AnalysisType, type DataTier, type HazardKey, type ScenarioCode } from '@crp/contracts';
import type { LayerEntry, TypedArray } from './layer-format.js';
import type { HazardParams } from './scenario.js';
import type { DatasetInfo } from './datasets.js';

export const RPS = HAZARD_RETURN_PERIODS_YEARS;
export const N_RP = RPS.length;

export interface Manifest {
  name: string;
  formatVersion: number;
  layers: LayerEntry[];
  datasets: Record<string, DatasetInfo>;
  totalBytesGz: number;
}

export interface ScenarioYearOpts {
  analysisType: AnalysisType;
  scenario: ScenarioCode;
  year: number;
}

/** Pre-resolved scenario-year: global warming level, sea level and per-region changes. */
export interface ScenarioContext {
  key: string;
  scenario: ScenarioCode;
  year: number;
  gwlC: number;
  gmslRiseM: number;
  /** Per region: ΔTXx, ΔTNn (°C), ΔRx1day, ΔRx5day (%), vs the baseline climatology. */
  dTXx: Float32Array;
  dTNn: Float32Array;
  dRx1: Float32Array;
  dRx5: Float32Array;
  /**
   * Per region: change of the winter-mean air temperature (°C; DJF, JJA in the southern regions) vs the baseline
   * climatology, from the CMIP6 regional tas of the AR6 WGI Atlas (params.winterTas). The cold and snow models warm the
   * monthly means by this, not by ΔTNn: the coldest night warms 1.1-2x faster than the winter mean (issue 33 item 5).
   */
  dTWin: Float32Array;
  /**
   * Per region: change of total soil moisture (CMIP6 SM_total, in standard deviations of its interannual variability;
   * negative = drying) vs today's (2020) warming level; 0 outside every region (the table has no global row).
   */
  dSM: Float32Array;
  /** Typhoon intensity factor per basin index. */
  typhoonFactor: Float32Array;
}

/** Flat result of the fast path (no allocation when `out` is reused). NaN means no data. */
export interface CurveSample {
  /** [typhoon(9), storm_surge(9), river_flood(9), rainfall_flood(9)] intensities at RPS. */
  curves: Float32Array;
  /** One headline value per hazard in HAZARD_KEYS order (100-yr value for curve hazards). */
  values: Float32Array;
  /** One 0-100 score per hazard in HAZARD_KEYS order. */
  scores: Float32Array;
  /**
   * The drought model's change signal for the risk engine (not a hazard value): the AR6 region's CMIP6 total soil-moisture
   * change at the scenario-year vs 2020, in standard deviations of interannual variability (SPEI-like; negative =
   * drying). NaN when the drought model did not run.
   */
  soilMoistureChangeSigma: number;
}

export function newCurveSample(): CurveSample {
  return {
    curves: new Float32Array(4 * N_RP),
    values: new Float32Array(HAZARD_KEYS.length),
    scores: new Float32Array(HAZARD_KEYS.length),
    soilMoistureChangeSigma: Number.NaN,
  };
}

export interface CatalogEntry {
  hazard: HazardKey | 'shared';
  layer: string;
  indicator: string;
  unit: string;
  description: string;
  grid: { lon0: number; lat0: number; resDeg: number; width: number; height: number };
  resolutionKm: number;
  scenarios: string[];
  years: [number, number];
  returnPeriodsYears: number[] | null;
  tier: DataTier | null;
  sources: (DatasetInfo & { key: string })[];
  sha256: string;
  bytesGz: number | null;
  kind: 'built-in' | 'byo';
}

/** Which layers a hazard uses, its data tier, the resolution reported and the model in one line (with its sources). */
export interface HazardMeta {
  layers: string[];
  tier: DataTier;
  resolutionKm: number;
  model: string;
}

/** A loaded layer: its manifest entry and raw quantised values. */
export interface Layer {
  e: LayerEntry;
  data: TypedArray;
}

/** The loaded layers and build parameters every hazard model is made from. */
export interface LayerSet {
  readonly params: HazardParams & Record<string, unknown>;
  /** A layer every build has; throws when missing. */
  get(name: string): Layer;
  /** A layer older builds lack. */
  optional(name: string): Layer | undefined;
}
