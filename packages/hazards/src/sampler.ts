/**
 * Loader and point sampler of the committed hazard layers. Everything is in memory; a point query is a handful of
 * array look-ups plus closed-form arithmetic for the scenario/year. Each hazard's maths lives in its own file under
 * models/ (with its sources); this file loads the layers, makes the models and runs them for a point.
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAZARD_INDICATORS, HAZARD_KEYS, PUBLISHED_DATA_TIER, severityBand, type HazardKey, type HazardPointValue } from '@crp/contracts';
import { fromBytes, sha256, type LayerEntry, type TypedArray } from './layer-format.js';
import type { HazardParams } from './scenario.js';
import { ByoRegistry, type ByoEntry } from './byo.js';
import {
  N_RP,
  RPS,
  newCurveSample,
  type CatalogEntry,
  type CurveSample,
  type Layer,
  type LayerSet,
  type Manifest,
  type ScenarioContext,
  type ScenarioYearOpts,
} from './types.js';
import { CURVE_INDEX, locate, newSite, round4 } from './models/common.js';
import { createCoast } from './models/coast.js';
import { createHazardModels, HAZARD_META, SCENARIO_DATASETS, type HazardModels } from './models/index.js';
import { createScenarioResolver } from './scenario-context.js';
import { createOwnOverlay, type HitSource, type OverlayMark } from './own-overlay.js';
import type { PublishedDatasets } from './published/dataset.js';
import { layerCatalog } from './catalog.js';

export { RPS, N_RP, newCurveSample, HAZARD_META };
export type { Manifest, ScenarioYearOpts, ScenarioContext, CurveSample, CatalogEntry };
export { xuSurgeM } from './models/storm-surge.js';
export { interpLogRp } from './own-overlay.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The committed layers folder, resolved from this file. */
export const DEFAULT_LAYERS_DIR = resolve(here, '../layers');

export const CURVE_HAZARDS = ['typhoon', 'storm_surge', 'river_flood', 'rainfall_flood'] as const;

export interface HazardLayers {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly params: HazardParams;
  readonly byo: ByoRegistry;
  resolveScenario(opts: ScenarioYearOpts): ScenarioContext;
  /**
   * Every hazard at a point; `published` (the installation's registered flood maps) and then `own` (a company's
   * uploaded layers) override the built-in value where they cover the point.
   */
  samplePoint(
    lat: number,
    lng: number,
    opts: ScenarioYearOpts,
    own?: ByoRegistry | null,
    published?: PublishedDatasets | null,
  ): Record<HazardKey, HazardPointValue>;
  sampleCurves(lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out?: CurveSample): CurveSample;
  /**
   * sampleCurves restricted to some hazards (and the ones they read: storm surge reads typhoon): runs only their models
   * (and the coast and sea-level rise only when storm surge or sea-level rise is asked), then the installation's own
   * layers. The slots of the hazards asked are exactly those of sampleCurves; the other slots are left as they were.
   * For callers that read one hazard at many points (map tiles).
   */
  curveSamplerFor(hazards: readonly HazardKey[]): (lat: number, lng: number, ctx: ScenarioContext, out: CurveSample) => CurveSample;
  /**
   * Applies a company's own layers (or the published datasets) to a sample of sampleCurves (values, scores and
   * return-period curves); returns a bit mask of the hazards (bit = index in HAZARD_KEYS) that took a value, 0 when none.
   */
  overlayOwn(own: HitSource, lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out: CurveSample): number;
  catalog(): CatalogEntry[];
  /** A loaded layer (manifest entry and raw quantised values), e.g. for regional rebuild checks. */
  layer(name: string): { entry: LayerEntry; data: TypedArray } | undefined;
  /** Bytes held by the loaded layers (typed arrays). */
  memoryBytes(): number;
  /** Register a GeoTIFF (bring-your-own layer); it overrides the built-in value where it covers a point. */
  registerGeoTiff(entry: ByoEntry): Promise<void>;
  /**
   * Load every entry of a BYO catalogue file (default HAZARD_BYO_CATALOG or packages/hazards/byo/catalog.json); a bad
   * entry is skipped and returned with its reason.
   */
  loadByoCatalog(path?: string): Promise<{ loaded: number; skipped: { id: string; reason: string }[] }>;
}

const PUBLISHED_MARK: OverlayMark = { tier: PUBLISHED_DATA_TIER, prefix: 'published dataset' };

function readLayer(dir: string, e: LayerEntry, verify: boolean): TypedArray {
  const raw = gunzipSync(readFileSync(join(dir, e.file)));
  if (verify && sha256(raw) !== e.sha256) throw new Error(`checksum mismatch for layer ${e.name}`);
  return fromBytes(e.dtype, raw);
}

/** The manifest, the build parameters and every layer of a layers folder, in memory. */
function readLayers(dir: string, verify: boolean): { manifest: Manifest; L: Map<string, Layer>; src: LayerSet } {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const params = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8')) as HazardParams & Record<string, unknown>;
  const L = new Map<string, Layer>();
  for (const e of manifest.layers) L.set(e.name, { e, data: readLayer(dir, e, verify) });
  const src: LayerSet = {
    params,
    get: (n) => {
      const l = L.get(n);
      if (!l) throw new Error(`layer ${n} missing`);
      return l;
    },
    optional: (n) => L.get(n),
  };
  return { manifest, L, src };
}

/** Load every layer of a layers folder (default: the committed one). `verify` checks SHA-256 checksums. */
export function loadHazardLayers(dir: string = DEFAULT_LAYERS_DIR, opts: { verify?: boolean } = {}): HazardLayers {
  const { manifest, L, src } = readLayers(dir, opts.verify ?? false);
  const params = src.params;
  const models = createHazardModels(src);
  const resolveScenario = createScenarioResolver(params);
  const byo = new ByoRegistry();
  const own = createOwnOverlay(models);
  const sampleCurves = curveSampler(src, models, resolveScenario, byo, own.overCurves);
  const sourceText = sourceTexts(L);
  const scratch = newCurveSample();

  function samplePoint(
    lat: number,
    lng: number,
    opts: ScenarioYearOpts,
    ownLayers?: ByoRegistry | null,
    published?: PublishedDatasets | null,
  ): Record<HazardKey, HazardPointValue> {
    const ctx = resolveScenario(opts);
    const out = pointAnswer(sampleCurves(lat, lng, ctx, scratch), sourceText);
    const slr = out.sea_level_rise;
    slr.likely_range = slr.value === null ? null : models.sea_level_rise.likelyRange(lat, lng, ctx, scratch.values[HAZARD_KEYS.indexOf('sea_level_rise')]!);
    if (byo.size > 0) own.overPoint(out, byo.lookup(lat, lng, opts.scenario, opts.year));
    if (published && published.size > 0) own.overPoint(out, published.lookup(lat, lng, ctx.scenario, ctx.year), PUBLISHED_MARK);
    if (ownLayers && ownLayers.size > 0) own.overPoint(out, ownLayers.lookup(lat, lng, opts.scenario, opts.year));
    return out;
  }

  return {
    dir,
    manifest,
    params,
    byo,
    resolveScenario,
    samplePoint,
    sampleCurves,
    curveSamplerFor: (hazards) => subsetSampler(src, models, byo, own.overCurves, hazards),
    catalog: () => layerCatalog(manifest, L.values(), byo),
    layer: (name) => {
      const l = L.get(name);
      return l ? { entry: l.e, data: l.data } : undefined;
    },
    memoryBytes: () => [...L.values()].reduce((a, l) => a + l.data.byteLength, 0) + byo.memoryBytes(),
    registerGeoTiff: (entry) => byo.register(entry),
    overlayOwn: (reg, lat, lng, sy, out) => (reg.size > 0 ? own.overCurves(reg, lat, lng, resolveScenario(sy), out) : 0),
    loadByoCatalog: (path) => byo.loadCatalog(path),
  };
}

/**
 * The fast path (sampleCurves): locates the point once on every grid, finds its coast and sea-level rise, then runs
 * each hazard model (typhoon before storm surge, which reads the typhoon curve) and the installation's own layers.
 */
function curveSampler(
  src: LayerSet,
  models: HazardModels,
  resolveScenario: (sy: ScenarioYearOpts | ScenarioContext) => ScenarioContext,
  byo: ByoRegistry,
  overCurves: (reg: ByoRegistry, lat: number, lng: number, ctx: ScenarioContext, out: CurveSample) => number,
) {
  const region = src.get('ar6_region').data as Uint8Array;
  const nReg = src.params.regions.length;
  const coast = createCoast(src);
  const site = newSite();
  const m = models;
  return function sampleCurves(lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out: CurveSample = newCurveSample()): CurveSample {
    const ctx = resolveScenario(sy);
    locate(site, region, nReg, lat, lng, ctx);
    site.coast = coast.near(lat, lng);
    site.slrM = m.sea_level_rise.riseM(site, ctx);
    m.typhoon.sample(site, ctx, out);
    m.sea_level_rise.sample(site, ctx, out);
    m.storm_surge.sample(site, ctx, out);
    m.river_flood.sample(site, ctx, out);
    m.rainfall_flood.sample(site, ctx, out);
    m.landslide.sample(site, ctx, out);
    m.wildfire.sample(site, ctx, out);
    m.extreme_heat.sample(site, ctx, out);
    m.extreme_cold.sample(site, ctx, out);
    m.snowfall.sample(site, ctx, out);
    m.drought.sample(site, ctx, out);
    if (byo.size > 0) overCurves(byo, lat, lng, ctx, out);
    return out;
  };
}

/** Models sampleCurves runs, in its order (typhoon before storm surge); sea-level rise and storm surge need the coast. */
const MODEL_ORDER = [
  'typhoon',
  'sea_level_rise',
  'storm_surge',
  'river_flood',
  'rainfall_flood',
  'landslide',
  'wildfire',
  'extreme_heat',
  'extreme_cold',
  'snowfall',
  'drought',
] as const satisfies readonly HazardKey[];

/** curveSamplerFor: sampleCurves with only the models of `hazards` (plus typhoon under storm surge). */
function subsetSampler(
  src: LayerSet,
  models: HazardModels,
  byo: ByoRegistry,
  overCurves: (reg: ByoRegistry, lat: number, lng: number, ctx: ScenarioContext, out: CurveSample) => number,
  hazards: readonly HazardKey[],
) {
  const want = new Set<HazardKey>(hazards);
  if (want.has('storm_surge')) want.add('typhoon');
  const run = MODEL_ORDER.filter((k) => want.has(k)).map((k) => models[k]);
  const needCoast = want.has('storm_surge') || want.has('sea_level_rise');
  const region = src.get('ar6_region').data as Uint8Array;
  const nReg = src.params.regions.length;
  const coast = needCoast ? createCoast(src) : null;
  const site = newSite();
  return function sampleSome(lat: number, lng: number, ctx: ScenarioContext, out: CurveSample): CurveSample {
    locate(site, region, nReg, lat, lng, ctx);
    if (coast) {
      site.coast = coast.near(lat, lng);
      site.slrM = models.sea_level_rise.riseM(site, ctx);
    }
    for (const m of run) m.sample(site, ctx, out);
    if (byo.size > 0) overCurves(byo, lat, lng, ctx, out);
    return out;
  };
}

/** A point's answer from a fast-path sample: rounded values and curves, score and band, tier, resolution and source. */
function pointAnswer(s: CurveSample, sourceText: (key: HazardKey) => string): Record<HazardKey, HazardPointValue> {
  const out = {} as Record<HazardKey, HazardPointValue>;
  for (let h = 0; h < HAZARD_KEYS.length; h++) {
    const key = HAZARD_KEYS[h]!;
    const ind = HAZARD_INDICATORS[key];
    const meta = HAZARD_META[key];
    const v = s.values[h]!;
    const ci = CURVE_INDEX[key];
    let curve = null as HazardPointValue['return_periods'];
    if (ci !== undefined && !Number.isNaN(v)) {
      const intensities: number[] = [];
      for (let k = 0; k < N_RP; k++) intensities.push(round4(s.curves[ci * N_RP + k]!));
      curve = { returnPeriodsYears: [...RPS], intensities };
    }
    const score = Number.isNaN(v) ? 0 : Math.round(s.scores[h]! * 10) / 10;
    out[key] = {
      hazard: key,
      indicator: ind.indicator,
      value: Number.isNaN(v) ? null : round4(v),
      unit: ind.unit,
      intensity_score: score,
      score,
      band: severityBand(score),
      return_periods: curve,
      resolution_km: meta.resolutionKm,
      tier: meta.tier,
      source: sourceText(key),
    };
  }
  return out;
}

/** "built-in: <model> [datasets]" per hazard: its layers' datasets, then the scenario tables it applies (cached). */
function sourceTexts(L: Map<string, Layer>): (key: HazardKey) => string {
  const cache = new Map<HazardKey, string>();
  return (key) => {
    let s = cache.get(key);
    if (!s) {
      const ds = new Set<string>();
      for (const ln of HAZARD_META[key].layers) for (const d of L.get(ln)?.e.datasets ?? []) ds.add(d);
      for (const d of SCENARIO_DATASETS[key]) ds.add(d);
      s = `built-in: ${HAZARD_META[key].model} [${[...ds].join(', ')}]`;
      cache.set(key, s);
    }
    return s;
  };
}

export function layersPresent(dir: string = DEFAULT_LAYERS_DIR): boolean {
  return existsSync(join(dir, 'manifest.json'));
}
