/**
 * Per-asset result rows from a stored (or just computed) analysis: the one place that turns the engine's compact
 * chunks into asset x hazard x scenario x year figures. The results API answers these rows as they are; the
 * spreadsheet export (export.service.ts) renames their columns; the GIS exports take one scenario-year per asset.
 */
import {
  BASELINE_YEAR,
  HAZARDS,
  OWN_DATA_TIER,
  PUBLISHED_DATA_TIER,
  SCENARIO_LABELS,
  severityBand,
  type AnalysisType,
  type AssetResult,
  type HazardKey,
  type ScenarioCode,
} from '@crp/contracts';
import { assetCvar, cellMoney, scenarioYearKey } from '@crp/engine';
import { HAZARD_META } from '@crp/hazards';
import type { AssetRow } from '../../infra/db/schema.js';
import { unitOf, type ProjectResults, type ResultsAssetRow } from './results-reader.js';

const round = (v: number, digits = 2) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null);
const LABEL = Object.fromEntries(HAZARDS.map((h) => [h.key, h.label])) as Record<HazardKey, string>;

export interface ResultSelection {
  analysisType: AnalysisType;
  hazards: readonly HazardKey[];
  scenarios: readonly ScenarioCode[];
  years: readonly number[];
  /** Scores after mitigation (the residual score). */
  withMitigation: boolean;
  gdpAdjusted: boolean;
}

/** The scenario-year key of a year: the 2020 baseline of an SSP analysis is the shared baseline run. */
export function syKeyOf(at: AnalysisType, sc: ScenarioCode, year: number): string {
  return year === BASELINE_YEAR && at === 'ssp' ? scenarioYearKey('baseline', null, year) : scenarioYearKey(at, sc, year);
}

/** Which own hazard layer (issue 23 item 3) gave a cell its value: OwnLayerService.markerFor, or one for posted assets. */
export interface OwnLayerMarker {
  layerAt(lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number): string | null;
  /** The published flood map set (issue 34 item 2) that gave the cell its value, or null (own data comes first). */
  publishedAt?(lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number): string | null;
}

/** The (scenario, year) pairs the marks of a selection ask the published maps for (the baseline as SSP2-4.5). */
export function cellsOf(at: AnalysisType, scenarios: readonly ScenarioCode[], years: readonly number[]) {
  return scenarios.flatMap((sc) => years.map((year) => ({ scenario: (year === BASELINE_YEAR && at === 'ssp' ? '45' : sc) as ScenarioCode, year })));
}

/** Where an asset's value of a hazard at a scenario-year comes from: its own layer, a published map, or the model (tier). */
function sourceOf(
  asset: { latitude: number | string; longitude: number | string },
  h: HazardKey,
  at: AnalysisType,
  sc: ScenarioCode,
  year: number,
  own?: OwnLayerMarker | null,
): { ownLayer: string | null; published: string | null; tier: string } {
  const cellSc = year === BASELINE_YEAR && at === 'ssp' ? null : sc;
  const ownLayer = own?.layerAt(Number(asset.latitude), Number(asset.longitude), h, cellSc, year) ?? null;
  const published = ownLayer ? null : (own?.publishedAt?.(Number(asset.latitude), Number(asset.longitude), h, cellSc, year) ?? null);
  return { ownLayer, published, tier: ownLayer ? OWN_DATA_TIER : published ? PUBLISHED_DATA_TIER : HAZARD_META[h].tier };
}

/** Rows in asset, hazard, scenario, year order (the whole selection; the results API streams assetRows per asset). */
export function* assetResultRows(
  results: ProjectResults<AssetRow | ResultsAssetRow>,
  sel: ResultSelection,
  own?: OwnLayerMarker | null,
): Generator<AssetResult> {
  for (let i = 0; i < results.assets.length; i++) yield* assetRows(results, i, sel, own);
}

/**
 * The rows of asset i of `results` in hazard, scenario, year order, from the `skip`-th; `indexBase` is the position
 * of results.assets[0] in the project (a window of one stored chunk: results-stream.ts).
 */
export function* assetRows(
  results: ProjectResults<AssetRow | ResultsAssetRow>,
  i: number,
  sel: ResultSelection,
  own?: OwnLayerMarker | null,
  indexBase = 0,
  skip = 0,
): Generator<AssetResult> {
  const at = sel.analysisType;
  const opt = { gdpAdjusted: sel.gdpAdjusted, withContent: true };
  const asset = results.assets[i]!;
  const { chunk, a } = results.locate(i);
  const prepared = results.prepared[i]!;
  let n = 0;
  for (const h of sel.hazards) {
    for (const sc of sel.scenarios) {
      for (const year of sel.years) {
        if (n++ < skip) continue;
        const key = syKeyOf(at, sc, year);
        const money = cellMoney(prepared, chunk, a, h, results.syIndex(key), opt);
        const cv = assetCvar(prepared, chunk, a, [h], at, sc, year, opt);
        const score = results.score(i, h, key, sel.withMitigation);
        const { ownLayer, published, tier } = sourceOf(asset, h, at, sc, year, own);
        yield {
          asset_index: indexBase + i,
          asset_id: asset.id,
          asset_name: asset.name,
          latitude: asset.latitude,
          longitude: asset.longitude,
          property_type: asset.property_type ?? null,
          construction: prepared.construction,
          wind_building_type: prepared.windBuildingType,
          hazard: h,
          hazard_label: LABEL[h],
          analysis_type: at,
          scenario: sc,
          scenario_label: SCENARIO_LABELS[at][sc],
          year,
          intensity: round(results.intensity(i, h, key), 3),
          intensity_unit: unitOf(h),
          loss_score: score,
          score,
          band: score === null ? 'No data' : severityBand(score),
          expected_annual_loss_usd: round(money.eal),
          residual_expected_annual_loss_usd: round(money.ealResidual),
          expected_damage_usd: round(money.eal - money.ealOperational),
          expected_disruption_usd: round(money.ealOperational),
          max_exposure_usd: round(money.maxExposure),
          loss_1_in_100_usd: round(money.loss100),
          loss_1_in_250_usd: round(money.loss250),
          cvar_usd: round(cv.cvar),
          residual_cvar_usd: round(cv.rcvar),
          cvar_percent: round(cv.cvarPercent, 4),
          avoided_loss_usd: round(cv.avoidedLoss),
          data_tier: tier,
          own_data_layer: ownLayer,
          published_dataset: published,
        };
      }
    }
  }
}

export const countRows = (assets: number, sel: Pick<ResultSelection, 'hazards' | 'scenarios' | 'years'>) =>
  assets * sel.hazards.length * sel.scenarios.length * sel.years.length;

/** One asset's figures at one scenario-year over the chosen hazards (the GIS exports' attribute table). */
export interface AssetFeatureProperties {
  asset_id: number | string | null;
  name: string;
  property_type: string | null;
  latitude: number;
  longitude: number;
  analysis_type: AnalysisType;
  scenario: ScenarioCode;
  year: number;
  exposed_value_usd: number | null;
  climate_score: number | null;
  expected_annual_loss_usd: number | null;
  residual_expected_annual_loss_usd: number | null;
  cvar_usd: number | null;
  residual_cvar_usd: number | null;
  max_exposure_usd: number | null;
  loss_1_in_100_usd: number | null;
  loss_1_in_250_usd: number | null;
  /** `score_<hazard key>` for every chosen hazard (0-100, null = no data). */
  [score: `score_${string}`]: number | null;
  /**
   * Per chosen hazard, as the results API's row of the asset, hazard and scenario-year has them:
   * `expected_annual_loss_<hazard>_usd` (expected_annual_loss_usd; a money figure, withheld on the Free plan), `intensity_<hazard>` and `intensity_<hazard>_unit` (intensity, intensity_unit),
   * `data_tier_<hazard>` and `own_data_layer_<hazard>` (data_tier, own_data_layer).
   */
  [eal: `expected_annual_loss_${string}`]: number | null;
  [intensity: `intensity_${string}`]: number | string | null;
  [tier: `data_tier_${string}`]: string;
  [layer: `own_data_layer_${string}`]: string | null;
}

export function assetFeatureProperties(
  results: ProjectResults<AssetRow | ResultsAssetRow>,
  i: number,
  at: AnalysisType,
  sc: ScenarioCode,
  year: number,
  hazards: readonly HazardKey[],
  withMitigation: boolean,
  own?: OwnLayerMarker | null,
): AssetFeatureProperties {
  const asset = results.assets[i]!;
  const { chunk, a } = results.locate(i);
  const p = results.prepared[i]!;
  const key = syKeyOf(at, sc, year);
  const c = assetCvar(p, chunk, a, hazards, at, sc, year);
  const S = chunk.scenarioYears.length;
  const cs = (withMitigation ? chunk.climateScoreResidual : chunk.climateScore)[a * S + results.syIndex(key)]!;
  const out: AssetFeatureProperties = {
    asset_id: asset.id,
    name: asset.name,
    property_type: asset.property_type ?? null,
    latitude: asset.latitude,
    longitude: asset.longitude,
    analysis_type: at,
    scenario: sc,
    year,
    exposed_value_usd: round((p.buildingValue + p.contentValue + p.inventoryValue) * p.ownership),
    climate_score: cs === 255 ? null : cs,
    expected_annual_loss_usd: round(c.eal),
    residual_expected_annual_loss_usd: round(c.ealResidual),
    cvar_usd: round(c.cvar),
    residual_cvar_usd: round(c.rcvar),
    max_exposure_usd: round(c.maxExposure),
    loss_1_in_100_usd: round(c.loss100),
    loss_1_in_250_usd: round(c.loss250),
  };
  const si = results.syIndex(key);
  for (const h of hazards) out[`score_${h}`] = results.score(i, h, key, withMitigation);
  // the same functions and rounding as assetResultRows' expected_annual_loss_usd, intensity and data_tier
  for (const h of hazards) {
    const source = sourceOf(asset, h, at, sc, year, own);
    out[`expected_annual_loss_${h}_usd`] = round(cellMoney(p, chunk, a, h, si, { gdpAdjusted: false, withContent: true }).eal);
    out[`intensity_${h}`] = round(results.intensity(i, h, key), 3);
    out[`intensity_${h}_unit`] = unitOf(h);
    out[`data_tier_${h}`] = source.tier;
    out[`own_data_layer_${h}`] = source.ownLayer;
  }
  return out;
}
