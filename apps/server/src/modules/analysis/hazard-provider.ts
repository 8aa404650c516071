/**
 * Adapter from the hazard layers (@crp/hazards) to the engine's HazardProvider: for each asset and scenario-year it
 * samples the four return-period curves, the seven scalar indicators and the drought change (σ) the engine keys drought
 * disruption to. Also the module the engine's worker threads
 * import (`createHazardProvider`), so it must not depend on the server.
 */
import { HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { CURVE_HAZARDS as ENGINE_CURVES, SCALAR_HAZARDS, SCENARIO_YEARS, type AssetInput, type HazardBatch, type ScenarioYear } from '@crp/engine';
import {
  CURVE_HAZARDS as LAYER_CURVES,
  RETURN_PERIODS_YEARS,
  loadHazardLayers,
  newCurveSample,
  type ByoRegistry,
  type HazardLayers,
  type PublishedDatasets,
  type ScenarioContext,
} from '@crp/hazards';

const N_RP = RETURN_PERIODS_YEARS.length;
let shared: HazardLayers | null = null;

/** The committed hazard layers, loaded once per thread. */
export function sharedHazardLayers(): HazardLayers {
  shared ??= loadHazardLayers();
  return shared;
}

/** The baseline year is one climate: it is sampled as SSP2-4.5 at 2020 (every scenario is the same there). */
function scenarioOf(sy: ScenarioYear) {
  return sy.analysisType === 'baseline'
    ? { analysisType: 'ssp' as const, scenario: '45' as const, year: sy.year }
    : { analysisType: sy.analysisType, scenario: sy.scenario ?? ('45' as const), year: sy.year };
}

/**
 * Reads ahead (asynchronously, yielding) the published flood-map pixels the assets need at every scenario-year of an
 * analysis, so the synchronous provider below reads no file for them.
 */
export async function prefetchPublished(
  published: PublishedDatasets | null | undefined,
  assets: readonly { latitude?: unknown; longitude?: unknown }[],
  sys: readonly ScenarioYear[] = SCENARIO_YEARS,
): Promise<void> {
  if (!published || published.size === 0 || assets.length === 0) return;
  await published.prefetch(
    assets,
    sys.map((sy) => scenarioOf(sy)),
  );
}

export interface SampledBatch extends HazardBatch {
  /** Headline intensity per asset and hazard (HAZARD_KEYS order), NaN = no data. */
  values: Float32Array;
}

/**
 * `options.published`: the installation's registered flood maps (issue 34 item 2), then `options.own`: the company's
 * own hazard layers, each applied over the values before it where they cover an asset (own data first).
 */
export function createHazardProvider(
  options?: { own?: ByoRegistry | null; published?: PublishedDatasets | null } | null,
  layers: HazardLayers = sharedHazardLayers(),
): (sy: ScenarioYear, assets: readonly AssetInput[], start: number, end: number) => SampledBatch {
  const own = options?.own && options.own.size > 0 ? options.own : null;
  const published = options?.published && options.published.size > 0 ? options.published : null;
  const contexts = new Map<string, ScenarioContext>();
  const sample = newCurveSample();
  const layerCurveIndex = ENGINE_CURVES.map((h) => (LAYER_CURVES as readonly string[]).indexOf(h));
  const scalarIndex = SCALAR_HAZARDS.map((h) => HAZARD_KEYS.indexOf(h as HazardKey));
  return (sy, assets, start, end) => {
    let ctx = contexts.get(sy.key);
    if (!ctx) {
      ctx = layers.resolveScenario(scenarioOf(sy));
      contexts.set(sy.key, ctx);
    }
    const count = end - start;
    const curves: HazardBatch['curves'] = {};
    const curveData = ENGINE_CURVES.map((h) => {
      const intensities = new Float32Array(count * N_RP);
      curves[h] = { returnPeriodsYears: RETURN_PERIODS_YEARS, intensities };
      return intensities;
    });
    const scalarData = SCALAR_HAZARDS.map(() => new Float32Array(count));
    const scalars: HazardBatch['scalars'] = {};
    SCALAR_HAZARDS.forEach((h, i) => (scalars[h] = scalarData[i]));
    const values = new Float32Array(count * HAZARD_KEYS.length);
    const droughtChangeSigma = new Float32Array(count);
    for (let j = 0; j < count; j++) {
      const a = assets[start + j]!;
      const lat = Number(a.latitude);
      const lng = Number(a.longitude);
      layers.sampleCurves(lat, lng, ctx, sample);
      if (published) layers.overlayOwn(published, lat, lng, ctx, sample);
      if (own) layers.overlayOwn(own, lat, lng, ctx, sample);
      for (let c = 0; c < ENGINE_CURVES.length; c++) {
        const from = layerCurveIndex[c]! * N_RP;
        curveData[c]!.set(sample.curves.subarray(from, from + N_RP), j * N_RP);
      }
      for (let s = 0; s < SCALAR_HAZARDS.length; s++) scalarData[s]![j] = sample.values[scalarIndex[s]!]!;
      values.set(sample.values, j * HAZARD_KEYS.length);
      droughtChangeSigma[j] = sample.soilMoistureChangeSigma;
    }
    return { count, curves, scalars, values, droughtChangeSigma };
  };
}
