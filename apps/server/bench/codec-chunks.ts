/**
 * Real result chunks for the codec bench and its test: the engine with the committed hazard layers, on the bench
 * portfolio (fixtures.ts benchPortfolio, countries looked up as create_project does), 500 assets a chunk as the
 * analysis jobs write them.
 */
import { computeChunk, prepareAssets, SCENARIO_YEARS, type AssetInput, type PreparedAsset } from '@crp/engine';
import { countryOf } from '@crp/geo';
import { createHazardProvider } from '../src/modules/analysis/hazard-provider.js';
import type { StoredChunk } from '../src/modules/analysis/result-codec.js';
import { benchPortfolio } from './fixtures.js';

/** Assets per stored chunk (analysis.jobs.ts CHUNK_ASSETS). */
export const CHUNK_ASSETS = 500;

/**
 * `chunks` chunks of `size` assets of benchPortfolio(chunks * size, seed), computed in this thread, each with its
 * prepared assets. `mitigated`: the assets get mitigation levels 0-3 in turn, so the residual (adapted) arrays differ
 * from the unadapted ones.
 */
export function realChunks(
  chunks: number,
  options: { size?: number; seed?: number; mitigated?: boolean } = {},
): { chunk: StoredChunk; prepared: PreparedAsset[] }[] {
  const size = options.size ?? CHUNK_ASSETS;
  const inputs: AssetInput[] = benchPortfolio(chunks * size, options.seed ?? 42).map((a, i) => ({
    name: a.name,
    latitude: a.latitude,
    longitude: a.longitude,
    country_code: countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null,
    type: a.property_type,
    valuation: a.valuation,
    revenue: a.revenue,
    mitigation_risk: options.mitigated ? i % 4 : null,
  }));
  const provider = createHazardProvider();
  const out: { chunk: StoredChunk; prepared: PreparedAsset[] }[] = [];
  for (let start = 0; start < inputs.length; start += size) {
    const slice = inputs.slice(start, start + size);
    const prepared = prepareAssets(slice, undefined);
    const chunk = computeChunk(prepared, slice, 0, slice.length, SCENARIO_YEARS, provider);
    out.push({ chunk: { ...chunk, start } as StoredChunk, prepared });
  }
  return out;
}
