/**
 * Everything behind `GET api/v2/hazard/point/` so the server route is a thin wrapper:
 *   const r = await hazardPoint(req.query)  // throws HazardQueryError (status 400, errors [{ field, message }])
 */
import { HazardPointQuery, SCENARIO_LABELS, type HazardKey, type HazardPointValue } from '@crp/contracts';
import { loadHazardLayers, type HazardLayers } from './sampler.js';
import type { ByoRegistry } from './byo.js';
import type { PublishedDatasets } from './published/dataset.js';

export class HazardQueryError extends Error {
  readonly status = 400;
  constructor(readonly errors: { field: string; message: string }[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
    this.name = 'HazardQueryError';
  }
}

export interface HazardPointResponse {
  latitude: number;
  longitude: number;
  analysis_type: 'rcp' | 'ssp';
  scenario: '26' | '45' | '85';
  scenario_label: string;
  year: number;
  warming_level_c: number;
  hazards: Record<HazardKey, HazardPointValue>;
}

/** Validate a raw query object (strings allowed); throws HazardQueryError naming each bad field. */
export function parseHazardPointQuery(query: unknown): HazardPointQuery {
  const r = HazardPointQuery.safeParse(query ?? {});
  if (!r.success) {
    throw new HazardQueryError(r.error.issues.map((i) => ({ field: String(i.path[0] ?? 'query'), message: i.message })));
  }
  return r.data;
}

let shared: Promise<HazardLayers> | null = null;
/**
 * The committed layers plus the installation's own-layer catalogue, loaded once per process. A catalogue entry that
 * cannot be loaded is skipped with a logged reason (the others and every built-in layer still work); a failed load
 * of the built-in layers is not cached, so the next call tries again.
 */
export function defaultHazardLayers(): Promise<HazardLayers> {
  shared ??= (async () => {
    const l = loadHazardLayers();
    const { skipped } = await l.loadByoCatalog();
    for (const s of skipped) console.warn(JSON.stringify({ level: 'warn', msg: 'own hazard layer skipped', layer: s.id, reason: s.reason }));
    return l;
  })();
  shared.catch(() => {
    shared = null;
  });
  return shared;
}

/** Everything behind `GET api/v2/hazard/catalog/`: every layer (built-in and bring-your-own) with its provenance. */
export async function hazardCatalog(layers?: HazardLayers) {
  const l = layers ?? (await defaultHazardLayers());
  return { return_periods_years: l.params.returnPeriodsYears ?? null, layers: l.catalog() };
}

/**
 * `published`: the installation's registered flood maps, then `own`: the caller's company's own layers, each overriding
 * the values before it where they cover the point.
 */
export async function hazardPoint(
  query: unknown,
  layers?: HazardLayers,
  own?: ByoRegistry | null,
  published?: PublishedDatasets | null,
): Promise<HazardPointResponse> {
  const q = parseHazardPointQuery(query);
  const l = layers ?? (await defaultHazardLayers());
  const opts = { analysisType: q.analysis_type, scenario: q.scenario, year: q.year };
  const ctx = l.resolveScenario(opts);
  return {
    latitude: q.latitude,
    longitude: q.longitude,
    analysis_type: q.analysis_type,
    scenario: q.scenario,
    scenario_label: SCENARIO_LABELS[q.analysis_type][q.scenario],
    year: q.year,
    warming_level_c: Math.round(ctx.gwlC * 100) / 100,
    hazards: l.samplePoint(q.latitude, q.longitude, opts, own, published),
  };
}
