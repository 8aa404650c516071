/**
 * Loader and point sampler of the committed hazard layers. Everything is in memory; a point query is a handful of
 * array look-ups plus closed-form arithmetic for the scenario/year.
 */
import { readFileSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HAZARD_INDICATORS, HAZARD_KEYS, HAZARD_RETURN_PERIODS_YEARS, severityBand,
  type AnalysisType, type DataTier, type HazardKey, type HazardPointValue, type ScenarioCode,
} from '@crp/contracts';
import { fromBytes, sha256, type LayerEntry, type TypedArray, GRID_05, GRID_025, GRID_01, GRID_5M, TILE_CELLS, FINE_TILE_CELLS } from './layer-format.js';
import { deltaAtGwl, gmslRiseSince2020M, knutsonFactor, linearInterp, sspOf, warmingLevelC, type HazardParams } from './scenario.js';
import {
  aridityScore, coldScore, damageFractionScore, floodScore, percentileScore, slrScore, typhoonScore,
} from './scoring.js';
import type { DatasetInfo } from './datasets.js';
import { ByoRegistry, type ByoEntry, type ByoHit } from './byo.js';
import { OWN_DATA_TIER } from '@crp/contracts';

const here = dirname(fileURLToPath(import.meta.url));
/** The committed layers folder, resolved from this file. */
export const DEFAULT_LAYERS_DIR = resolve(here, '../layers');

export const RPS = HAZARD_RETURN_PERIODS_YEARS;
export const N_RP = RPS.length;
const I100 = RPS.indexOf(100);
const I10 = RPS.indexOf(10);
/** Xu (2010) as in CLIMADA TCSurgeBathtub: surge height 0.1023·(V − 26.8224) + 1.8288 m above 60 kn, else 0. */
export function xuSurgeM(v: number): number {
  return v > 26.8224 ? 0.1023 * (v - 26.8224) + 1.8288 : 0;
}

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
}
export const CURVE_HAZARDS = ['typhoon', 'storm_surge', 'river_flood', 'rainfall_flood'] as const;

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

/** Which layers each hazard uses, its data tier and the resolution reported. */
export const HAZARD_META: Record<HazardKey, { layers: string[]; tier: DataTier; resolutionKm: number; model: string }> = {
  typhoon: { layers: ['typhoon_rp', 'typhoon_basin'], tier: 'observed/modelled from real data', resolutionKm: 28, model: 'Holland (2008/2010) wind field over all staged best tracks, GPD tail; Knutson et al. (2020) intensity change via Jewson (2021)' },
  storm_surge: { layers: ['typhoon_rp', 'coast_tile_index', 'coast_elevation', 'coast_distance', 'coast_fine_tile_index', 'coast_fine_distance', 'slr_local_rate'], tier: 'model on real inputs', resolutionKm: 9.3, model: 'Bathtub: Xu (2010) surge from return-period wind plus sea-level rise, minus ETOPO5 elevation (sub-cell coastal ramp, shore holding the 10-yr storm tide) and 0.2 m/km decay inland of the Natural Earth 1:10m coastline' },
  sea_level_rise: { layers: ['coast_tile_index', 'coast_elevation', 'coast_distance', 'coast_fine_tile_index', 'coast_fine_distance', 'slr_local_rate', 'slr_local_se'], tier: 'observed/modelled from real data', resolutionKm: 9.3, model: 'AR6 GMSL central projection + local PSMSL residual rate' },
  river_flood: { layers: ['river_hand', 'ar6_region'], tier: 'placeholder', resolutionKm: 9.3, model: 'HAND proxy (ETOPO5 vs Natural Earth rivers) against a 5 m 100-yr floodplain stage scaled by the HKO 5-day rainfall growth curve and CMIP6 Rx5day' },
  rainfall_flood: { layers: ['precip_wet_month', 'curve_number', 'ar6_region'], tier: 'placeholder', resolutionKm: 11, model: 'SCS-CN runoff of T-year daily rain (CMAP × HKO ratio, CMIP6 Rx1day) in excess of a 10-yr drainage design storm' },
  landslide: { layers: ['landslide_probability', 'ar6_region'], tier: 'model on real inputs', resolutionKm: 9.3, model: 'Catalogue density (NASA GLC, HK GEO) redistributed by ETOPO5 slope; scaled by CMIP6 Rx1day' },
  wildfire: { layers: ['fuel', 'fire_climate', 'ar6_region'], tier: 'model on real inputs', resolutionKm: 11, model: 'MODIS fuel (built-up land 0, as FireCCI51) × fire-season shape (Bagnouls-Gaussen dry months and Monthly Drought Code) × Thornthwaite PET ratio, calibrated to the FireCCI51 global burned area' },
  extreme_heat: { layers: ['tas_warm', 'ar6_region'], tier: 'observed/modelled from real data', resolutionKm: 210, model: 'NCEP warmest-month mean + CMIP6 ΔTXx at the GWL' },
  extreme_cold: { layers: ['tas_cold', 'ar6_region'], tier: 'observed/modelled from real data', resolutionKm: 210, model: 'NCEP coldest-month mean + CMIP6 ΔTNn at the GWL' },
  snowfall: { layers: ['snowfall', 'ar6_region'], tier: 'model on real inputs', resolutionKm: 280, model: 'CMAP precipitation × snow fraction of NCEP monthly temperature warmed by CMIP6 ΔTNn' },
  drought: { layers: ['aridity', 'ar6_region'], tier: 'model on real inputs', resolutionKm: 280, model: 'UNEP aridity index P/PET (Thornthwaite) with temperatures warmed by CMIP6 ΔTXx' },
};

interface Layer { e: LayerEntry; data: TypedArray }

export interface HazardLayers {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly params: HazardParams;
  readonly byo: ByoRegistry;
  resolveScenario(opts: ScenarioYearOpts): ScenarioContext;
  /** Every hazard at a point; `own` (a company's uploaded layers) overrides the built-in value where it covers the point. */
  samplePoint(lat: number, lng: number, opts: ScenarioYearOpts, own?: ByoRegistry | null): Record<HazardKey, HazardPointValue>;
  sampleCurves(lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out?: CurveSample): CurveSample;
  /**
   * Applies a company's own layers to a sample of sampleCurves (values, scores and return-period curves); returns a
   * bit mask of the hazards (bit = index in HAZARD_KEYS) that took an own value, 0 when none.
   */
  overlayOwn(own: ByoRegistry, lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out: CurveSample): number;
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

export function newCurveSample(): CurveSample {
  return { curves: new Float32Array(4 * N_RP), values: new Float32Array(HAZARD_KEYS.length), scores: new Float32Array(HAZARD_KEYS.length) };
}

function readLayer(dir: string, e: LayerEntry, verify: boolean): TypedArray {
  const raw = gunzipSync(readFileSync(join(dir, e.file)));
  if (verify && sha256(raw) !== e.sha256) throw new Error(`checksum mismatch for layer ${e.name}`);
  return fromBytes(e.dtype, raw);
}

/** Load every layer of a layers folder (default: the committed one). `verify` checks SHA-256 checksums. */
export function loadHazardLayers(dir: string = DEFAULT_LAYERS_DIR, opts: { verify?: boolean } = {}): HazardLayers {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const params = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8')) as HazardParams & Record<string, unknown>;
  const L = new Map<string, Layer>();
  for (const e of manifest.layers) L.set(e.name, { e, data: readLayer(dir, e, opts.verify ?? false) });
  const get = (n: string) => { const l = L.get(n); if (!l) throw new Error(`layer ${n} missing`); return l; };

  const tyRp = get('typhoon_rp').data as Uint8Array;
  const tyBasin = get('typhoon_basin').data as Uint8Array;
  const tasWarm = get('tas_warm').data as Int16Array;
  const tasCold = get('tas_cold').data as Int16Array;
  const wet = get('precip_wet_month').data as Uint16Array;
  const snow = get('snowfall').data as Uint16Array;
  const arid = get('aridity').data as Uint16Array;
  const fireC = get('fire_climate').data as Uint16Array;
  const region = get('ar6_region').data as Uint8Array;
  const slrRate = get('slr_local_rate').data as Int16Array;
  // optional (layers built before 2026-11-25 lack it): standard error of the local gauge trend, 0.01 mm/yr
  const slrSe = L.get('slr_local_se')?.data as Int16Array | undefined;
  const gmslLikely = params.gmslLikely as Record<'ssp126' | 'ssp245' | 'ssp585', { years: number[]; median: number[]; low: number[]; high: number[] }> | undefined;
  const cnL = get('curve_number').data as Uint8Array;
  const fuelL = get('fuel').data as Uint8Array;
  const tileIdx = get('coast_tile_index').data as Int32Array;
  const cElev = get('coast_elevation').data as Int16Array;
  const cDist = get('coast_distance').data as Uint8Array;
  const hand = get('river_hand').data as Uint8Array;
  // optional (layers built before 2026-11-23 lack them): signed distance to the Natural Earth 1:10m coastline
  const fineIdx = L.get('coast_fine_tile_index')?.data as Int32Array | undefined;
  const fineL = L.get('coast_fine_distance');
  const fineD = fineL?.data as Uint8Array | undefined;
  const fineScale = fineL?.e.scale ?? 0.1, fineOffset = fineL?.e.offset ?? 0, fineNodata = fineL?.e.nodata ?? 255;
  const slide = get('landslide_probability').data as Uint16Array;

  const offsets = params.chronicOffsetsC;
  const nO = offsets.length;
  const nReg = params.regions.length;
  const wildfireK = params.wildfireK as number;
  const rainRatio = Float64Array.from(params.rainfallRatio as number[]);
  const growth = params.riverGrowth as number[];
  const g2 = growth[0]!;
  const stageFrac = Float64Array.from(growth.map((g) => Math.max(0, (g - g2) / (1 - g2))));
  const floodplainM = params.floodplainHandM as number;
  const i10 = RPS.indexOf(10);
  const basinCodes = params.typhoonBasins;

  // Percentile tables for heat and snow scores (area-weighted over land cells, baseline values).
  const pct = buildPercentiles(tasWarm, snow, nO, cnL);

  const ctxCache = new Map<string, ScenarioContext>();
  function resolveScenario(o: ScenarioYearOpts | ScenarioContext): ScenarioContext {
    if ('gwlC' in o) return o;
    const key = `${o.scenario}:${o.year}`;
    const c = ctxCache.get(key);
    if (c) return c;
    const gwl = warmingLevelC(params, o.scenario, o.year);
    const base = params.baselineGwlC;
    const mk = (idx: 'TXx' | 'TNn' | 'Rx1day' | 'Rx5day', floor0: boolean) => {
      const a = new Float32Array(nReg + 1);
      for (let r = 0; r <= nReg; r++) {
        const v4 = (r < nReg ? params.regionalDeltas[idx][r] : null) ?? params.globalDeltas[idx]!;
        let d = deltaAtGwl(v4, gwl) - deltaAtGwl(v4, base);
        if (floor0) d = Math.max(0, d);
        a[r] = d;
      }
      return a;
    };
    const tf = new Float32Array(basinCodes.length);
    basinCodes.forEach((b, i) => { tf[i] = b ? knutsonFactor(params.knutsonIntensityPct[b] ?? 0, gwl, base) : 1; });
    const ctx: ScenarioContext = {
      key, scenario: o.scenario, year: o.year, gwlC: gwl, gmslRiseM: gmslRiseSince2020M(params, o.scenario, o.year),
      dTXx: mk('TXx', false), dTNn: mk('TNn', false), dRx1: mk('Rx1day', true), dRx5: mk('Rx5day', true), typhoonFactor: tf,
    };
    if (ctxCache.size > 2000) ctxCache.clear();
    ctxCache.set(key, ctx);
    return ctx;
  }

  const bandInterp = (arr: Uint16Array, cell: number, dT: number, scale: number) => {
    const x = Math.max(0, Math.min(offsets[nO - 1]!, dT));
    let j = 0;
    while (j < nO - 2 && x > offsets[j + 1]!) j++;
    const t = (x - offsets[j]!) / (offsets[j + 1]! - offsets[j]!);
    return (arr[cell * nO + j]! * (1 - t) + arr[cell * nO + j + 1]! * t) * scale;
  };

  const scsRunoffMm = (pMm: number, cn: number) => {
    const s = 25400 / cn - 254;
    const ia = 0.2 * s;
    return pMm > ia ? ((pMm - ia) * (pMm - ia)) / (pMm + 0.8 * s) : 0;
  };

  /** Signed km at a 1' cell (global row, col) of the coastline-distance layer; NaN where not stored. */
  const fineAt = (row: number, col: number): number => {
    if (!fineIdx || !fineD || row < 0 || row >= 10800) return NaN;
    col = ((col % 21600) + 21600) % 21600;
    const ti = fineIdx[Math.floor(row / FINE_TILE_CELLS) * 360 + Math.floor(col / FINE_TILE_CELLS)]!;
    if (ti < 0) return NaN;
    const v = fineD[ti * FINE_TILE_CELLS * FINE_TILE_CELLS + (row % FINE_TILE_CELLS) * FINE_TILE_CELLS + (col % FINE_TILE_CELLS)]!;
    return v === fineNodata ? NaN : v * fineScale + fineOffset;
  };
  /** Distance from the point to the Natural Earth 1:10m coastline, km (bilinear; negative at sea); NaN when unknown. */
  const coastlineKm = (lat: number, lng: number): number => {
    const y = (90 - lat) * 60 - 0.5, x = (lng + 180) * 60 - 0.5;
    const r0 = Math.floor(y), c0 = Math.floor(x), fy = y - r0, fx = x - c0;
    const a = fineAt(r0, c0), b = fineAt(r0, c0 + 1), c = fineAt(r0 + 1, c0), d = fineAt(r0 + 1, c0 + 1);
    if (a === a && b === b && c === c && d === d) return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    // at the edge of the stored band (about 20 km inland): the nearest stored cell, if any
    const n = fineAt(Math.round(y), Math.round(x));
    return n;
  };

  /**
   * Coastal site: elevation (m) and distance inland (km); null when no coast within 60 km.
   * Distance: to the nearer of the Natural Earth 1:10m coastline (1' signed-distance layer) and the nearest 5' sea-level
   * water cell (MODIS water at or below sea level, e.g. lagoons and lakes open to the sea that Natural Earth draws as land).
   * Elevation: the ETOPO5 cell mean, reached half a 5' cell (4.63 km) from the coastline and ramped linearly down to 0 m at
   * the coastline (the linear profile whose mean over the cell's first half-width matches the cell centre value).
   */
  const coastCell = (lat: number, lng: number): { elev: number; dist: number } | null => {
    const c = coastCell5(lat, lng);
    if (!c) return null;
    const f = coastlineKm(lat, lng);
    if (f === f) {
      const df = Math.max(0, f);
      c.dist = c.sea ? df : Math.min(c.dist, df);
      if (c.dist < HALF_CELL_5M_KM) c.elev *= c.dist / HALF_CELL_5M_KM;
    }
    return c;
  };

  /** Coastal 5' cell: elevation (m) and distance inland (km); null when no coast within 60 km. */
  const coastCell5 = (lat: number, lng: number): { elev: number; dist: number; sea: boolean } | null => {
    const tr = Math.min(179, Math.max(0, Math.floor(90 - lat)));
    let tc = Math.floor(lng + 180) % 360; if (tc < 0) tc += 360;
    const ti = tileIdx[tr * 360 + tc]!;
    if (ti < 0) return null;
    const a = Math.min(11, Math.max(0, Math.floor((90 - lat - tr) * 12)));
    const b = Math.min(11, Math.max(0, Math.floor((lng + 180 - tc) * 12)));
    const base = ti * TILE_CELLS * TILE_CELLS;
    const e = cElev[base + a * 12 + b]!, d = cDist[base + a * 12 + b]!;
    // land (distance ≥ 1 km). Negative ETOPO5 values on MODIS land are coastline mismatches of the 9 km grid (or
    // polders that dikes protect): clamp to sea level.
    // The stored distance is between cell centres; the coastline lies between the last land and first sea centres, so
    // the distance inland from the coast is about half a 5' cell (4.6 km) less.
    if (d > 0) return { elev: Math.max(0, e), dist: Math.max(0, d - HALF_CELL_5M_KM), sea: false };
    // a sea cell: the site is on the shore; take the lowest land neighbour in the tile, else sea level
    let best = Infinity;
    for (let da = -1; da <= 1; da++) for (let db = -1; db <= 1; db++) {
      const aa = a + da, bb = b + db;
      if (aa < 0 || aa > 11 || bb < 0 || bb > 11) continue;
      if (cDist[base + aa * 12 + bb]! === 0) continue;
      const v = cElev[base + aa * 12 + bb]!;
      if (v < best) best = v;
    }
    return { elev: best < Infinity ? Math.max(0, best) : 0, dist: 0, sea: true };
  };

  const idx05 = (lat: number, lng: number) => cellOf(GRID_05.resDeg, GRID_05.width, GRID_05.height, lat, lng);

  function sampleCurves(lat: number, lng: number, sy: ScenarioYearOpts | ScenarioContext, out: CurveSample = newCurveSample()): CurveSample {
    const ctx = resolveScenario(sy);
    const { curves, values, scores } = out;
    const c05 = idx05(lat, lng);
    const reg = region[c05]!;
    const r = reg === 255 ? nReg : reg;
    const dTXx = ctx.dTXx[r]!, dTNn = ctx.dTNn[r]!, dRx1 = ctx.dRx1[r]!, dRx5 = ctx.dRx5[r]!;
    const c025 = cellOf(0.25, GRID_025.width, GRID_025.height, lat, lng);
    const c01 = cellOf(0.1, GRID_01.width, GRID_01.height, lat, lng);
    const c5 = cellOf(GRID_5M.resDeg, GRID_5M.width, GRID_5M.height, lat, lng);

    // typhoon (curve 0)
    const raw100 = tyRp[c025 * N_RP + I100]!;
    const tyNull = raw100 === 255;
    const tf = ctx.typhoonFactor[tyBasin[c025]!] ?? 1;
    for (let k = 0; k < N_RP; k++) curves[k] = tyNull ? NaN : tyRp[c025 * N_RP + k]! * 0.5 * tf;
    values[H_TY] = curves[I100]!;
    scores[H_TY] = tyNull ? 0 : typhoonScore(curves[I100]!);

    // coastal: sea-level rise and storm surge (curve 1)
    const coast = Math.abs(lat) <= 61 ? coastCell(lat, lng) : null;
    const rate = slrRate[c05]!;
    const localRateMmYr = rate === -32768 ? 0 : rate * 0.01;
    const slrM = ctx.gmslRiseM + (localRateMmYr * (ctx.year - 2020)) / 1000;
    if (coast && coast.dist <= 50) {
      values[H_SLR] = slrM;
      scores[H_SLR] = slrScore(coast.elev - slrM, slrM);
      // Shoreline standard (RULE, as the 10-yr drainage design of the rainfall flood): the built shore holds today's
      // 10-year storm tide, so the effective ground is at least the baseline 10-yr surge height (no sea-level rise).
      const raw10 = tyRp[c025 * N_RP + I10]!;
      // (the Xu line without its 60-kn cut, so a 10-yr wind just below 60 kn still gives the shore its storm-tide height)
      const shore = tyNull ? 0 : Math.max(0, 0.1023 * (raw10 * 0.5 - 26.8224) + 1.8288);
      const zEff = coast.elev > shore ? coast.elev : shore;
      for (let k = 0; k < N_RP; k++) {
        const v = curves[k]!;
        if (Number.isNaN(v)) { curves[N_RP + k] = NaN; continue; }
        const surge = xuSurgeM(v);
        curves[N_RP + k] = surge > 0 ? Math.max(0, surge + slrM - zEff - 0.2 * coast.dist) : 0;
      }
    } else {
      values[H_SLR] = NaN;
      scores[H_SLR] = 0;
      for (let k = 0; k < N_RP; k++) curves[N_RP + k] = tyNull ? NaN : 0;
    }
    values[H_SS] = curves[N_RP + I100]!;
    scores[H_SS] = Number.isNaN(values[H_SS]!) ? 0 : floodScore(values[H_SS]!);

    // river flood (curve 2)
    const h = hand[c5]!;
    const stageMul = floodplainM * (1 + dRx5 / 100);
    for (let k = 0; k < N_RP; k++) curves[2 * N_RP + k] = h === 255 ? 0 : Math.max(0, stageFrac[k]! * stageMul - h);
    values[H_RF] = curves[2 * N_RP + I100]!;
    scores[H_RF] = floodScore(values[H_RF]!);

    // rainfall flood (curve 3)
    let cn = cnL[c01]!;
    if (cn === 0) cn = neighbourCn(cnL, c01);
    const wetMmDay = wet[c05]! * 0.01;
    if (cn === 0) {
      for (let k = 0; k < N_RP; k++) curves[3 * N_RP + k] = NaN;
      values[H_PF] = NaN; scores[H_PF] = 0;
    } else {
      const mul = wetMmDay * (1 + dRx1 / 100);
      const qDesign = scsRunoffMm(rainRatio[i10]! * wetMmDay, cn); // drainage sized for today's 10-yr storm
      for (let k = 0; k < N_RP; k++) curves[3 * N_RP + k] = Math.max(0, scsRunoffMm(rainRatio[k]! * mul, cn) - qDesign) / 1000;
      values[H_PF] = curves[3 * N_RP + I100]!;
      scores[H_PF] = floodScore(values[H_PF]!);
    }

    // landslide
    const pl = Math.min(1, slide[c5]! * 1e-5 * (1 + dRx1 / 100));
    values[H_LS] = pl;
    scores[H_LS] = damageFractionScore(pl);

    // wildfire
    const pf = fuelL[c01] ? Math.min(1, wildfireK * bandInterp(fireC, c05, dTXx, 1e-4)) : 0;
    values[H_WF] = pf;
    scores[H_WF] = damageFractionScore(0.7 * pf);

    // heat and cold
    const warm = tasWarm[c05]! * 0.01 + dTXx;
    values[H_HEAT] = warm;
    scores[H_HEAT] = percentileScore(warm, pct.warm);
    const cold = tasCold[c05]! * 0.01 + dTNn;
    values[H_COLD] = cold;
    scores[H_COLD] = coldScore(cold);

    // snowfall
    const sn = bandInterp(snow, c05, dTNn, 0.2);
    values[H_SNOW] = sn;
    scores[H_SNOW] = sn < 1 ? 0 : percentileScore(sn, pct.snow);

    // drought
    const ai = bandInterp(arid, c05, dTXx, 0.001);
    values[H_DR] = ai;
    scores[H_DR] = aridityScore(ai);
    if (byo.size > 0) overlayByo(byo, lat, lng, ctx, out);
    return out;
  }

  /** Own rasters in the fast path: values, scores and (for return-period entries) the curves at RPS; returns the hazards' bit mask. */
  function overlayByo(reg: ByoRegistry, lat: number, lng: number, ctx: ScenarioContext, out: CurveSample): number {
    const hits = reg.lookup(lat, lng, ctx.scenario, ctx.year);
    if (hits.length === 0) return 0;
    let mask = 0;
    for (const key of new Set(hits.map((h) => h.entry.hazard))) {
      const hs = hits.filter((h) => h.entry.hazard === key);
      const h = HAZARD_KEYS.indexOf(key);
      const { rpYears, rpValues, plain } = splitByo(hs);
      const ci = CURVE_INDEX[key];
      if (ci !== undefined && rpYears.length > 0) {
        for (let k = 0; k < N_RP; k++) out.curves[ci * N_RP + k] = interpLogRp(rpYears, rpValues, RPS[k]!);
      }
      const v = plain ?? (rpYears.length > 0 ? interpLogRp(rpYears, rpValues, 100) : NaN);
      out.values[h] = v;
      out.scores[h] = scoreFor(key, v);
      mask |= 1 << h;
    }
    return mask;
  }

  const byo = new ByoRegistry();
  const scratch = newCurveSample();

  function samplePoint(lat: number, lng: number, opts: ScenarioYearOpts, own?: ByoRegistry | null): Record<HazardKey, HazardPointValue> {
    const ctx = resolveScenario(opts);
    const s = sampleCurves(lat, lng, ctx, scratch);
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
        hazard: key, indicator: ind.indicator, value: Number.isNaN(v) ? null : round4(v), unit: ind.unit,
        score, band: severityBand(score), return_periods: curve, resolution_km: meta.resolutionKm, tier: meta.tier,
        source: sourceText(key),
      };
      if (key === 'sea_level_rise') out[key].likely_range = Number.isNaN(v) ? null : slrLikelyRange(lat, lng, ctx, v);
    }
    if (byo.size > 0) applyByo(out, byo.lookup(lat, lng, opts.scenario, opts.year));
    if (own && own.size > 0) applyByo(out, own.lookup(lat, lng, opts.scenario, opts.year));
    return out;
  }

  /**
   * AR6 likely (17-83 %) range of the relative rise since 2020: the Table 9.9 likely-to-median ratios (2050 before 2050,
   * linear to 2100) applied to the GMSL rise since 2020, combined in quadrature with ±1 standard error of the local
   * gauge trend times the years since 2020.
   */
  function slrLikelyRange(lat: number, lng: number, ctx: ScenarioContext, median: number): { low: number; high: number } | null {
    const t = gmslLikely?.[sspOf(ctx.scenario)];
    if (!t || t.years.length < 2) return null;
    const ratio = (arr: number[]) => {
      const r = arr.map((x, i) => x / t.median[i]!);
      return linearInterp(t.years, r, Math.min(t.years[t.years.length - 1]!, Math.max(t.years[0]!, ctx.year)), false);
    };
    const g = ctx.gmslRiseM;
    const seRaw = slrSe ? slrSe[idx05(lat, lng)]! : -32768;
    const localSe = seRaw === -32768 ? 0 : (seRaw * 0.01 * (ctx.year - 2020)) / 1000;
    const dLow = Math.hypot(g * (1 - ratio(t.low)), localSe), dHigh = Math.hypot(g * (ratio(t.high) - 1), localSe);
    return { low: round4(median - dLow), high: round4(median + dHigh) };
  }

  const sourceCache = new Map<HazardKey, string>();
  function sourceText(key: HazardKey): string {
    let s = sourceCache.get(key);
    if (!s) {
      const ds = new Set<string>();
      for (const ln of HAZARD_META[key].layers) for (const d of L.get(ln)?.e.datasets ?? []) ds.add(d);
      if (['river_flood', 'rainfall_flood', 'landslide', 'wildfire', 'extreme_heat', 'extreme_cold', 'snowfall', 'drought', 'typhoon'].includes(key)) ds.add('cmip6_regional_extremes_ar6');
      if (key === 'sea_level_rise' || key === 'storm_surge') ds.add('ipcc-ar6-gmsl-projections');
      if (key === 'river_flood' || key === 'rainfall_flood') ds.add('hko-daily-rainfall');
      s = `built-in: ${HAZARD_META[key].model} [${[...ds].join(', ')}]`;
      sourceCache.set(key, s);
    }
    return s;
  }

  function applyByo(out: Record<HazardKey, HazardPointValue>, hits: ByoHit[]) {
    const byHazard = new Map<HazardKey, ByoHit[]>();
    for (const h of hits) (byHazard.get(h.entry.hazard) ?? byHazard.set(h.entry.hazard, []).get(h.entry.hazard)!).push(h);
    for (const [key, hs] of byHazard) {
      const cur = out[key];
      const { rpYears, rpValues, plain } = splitByo(hs);
      let curve = cur.return_periods;
      if (rpYears.length > 0) curve = { returnPeriodsYears: rpYears, intensities: rpValues.map(round4) };
      const value = plain ?? interpLogRp(rpYears, rpValues, 100);
      const score = scoreFor(key, value);
      // named by label (or id) only: never a server path
      const names = [...new Set(hs.map((h) => h.entry.label ?? h.entry.id))].join('; ');
      out[key] = {
        ...cur, value: round4(value), unit: cur.unit, indicator: hs[0]!.entry.indicator ?? cur.indicator,
        return_periods: curve, score, band: severityBand(score), resolution_km: hs[0]!.resolutionKm, tier: OWN_DATA_TIER,
        source: `own data: ${names}; replaces built-in layer at this point`,
      };
    }
  }

  function scoreFor(key: HazardKey, v: number): number {
    switch (key) {
      case 'typhoon': return typhoonScore(v);
      case 'storm_surge': case 'river_flood': case 'rainfall_flood': return floodScore(v);
      case 'wildfire': return damageFractionScore(0.7 * v);
      case 'landslide': return damageFractionScore(v);
      case 'extreme_heat': return percentileScore(v, pct.warm);
      case 'extreme_cold': return coldScore(v);
      case 'snowfall': return v < 1 ? 0 : percentileScore(v, pct.snow);
      case 'drought': return aridityScore(v);
      case 'sea_level_rise': return 0; // a BYO rise without the site's elevation: no exposure known
    }
  }

  function catalog(): CatalogEntry[] {
    const res: CatalogEntry[] = [];
    const usedBy = (ln: string) => HAZARD_KEYS.filter((k) => HAZARD_META[k].layers.includes(ln));
    for (const { e } of L.values()) {
      const hz = usedBy(e.name);
      const main = hz[0];
      const ind = main ? HAZARD_INDICATORS[main] : null;
      res.push({
        hazard: hz.length === 1 ? main! : 'shared', layer: e.name, indicator: ind && hz.length === 1 ? ind.indicator : e.description, unit: e.unit,
        description: `${e.description}${hz.length ? ` (used by ${hz.join(', ')})` : ''}`, grid: e.grid, resolutionKm: e.resolutionKm,
        scenarios: ['SSP1-2.6', 'SSP2-4.5', 'SSP5-8.5', 'RCP2.6', 'RCP4.5', 'RCP8.5'], years: [2020, 2100],
        returnPeriodsYears: e.name === 'typhoon_rp' ? [...RPS] : null, tier: main ? HAZARD_META[main].tier : null,
        sources: e.datasets.map((k) => ({ key: k, ...manifest.datasets[k]! })), sha256: e.sha256, bytesGz: e.bytesGz ?? null, kind: 'built-in',
      });
    }
    for (const b of byo.entries()) {
      res.push({
        hazard: b.entry.hazard, layer: b.entry.id, indicator: b.entry.indicator ?? HAZARD_INDICATORS[b.entry.hazard].indicator,
        unit: HAZARD_INDICATORS[b.entry.hazard].unit, description: b.entry.label ?? b.entry.file ?? b.entry.id,
        grid: b.grid, resolutionKm: b.resolutionKm, scenarios: b.entry.scenario ? [b.entry.scenario] : ['any'],
        years: b.entry.year ? [b.entry.year, b.entry.year] : [2020, 2100], returnPeriodsYears: b.entry.returnPeriodYears ? [b.entry.returnPeriodYears] : null,
        tier: OWN_DATA_TIER, sources: [{ key: b.entry.id, name: b.entry.label ?? b.entry.file ?? b.entry.id, publisher: b.entry.publisher ?? 'user supplied', license: b.entry.license ?? 'user supplied', citation: b.entry.citation ?? '', origin: b.entry.file ?? 'uploaded' }],
        sha256: b.sha256, bytesGz: null, kind: 'byo',
      });
    }
    return res;
  }

  return {
    dir, manifest, params, byo, resolveScenario, samplePoint, sampleCurves, catalog,
    layer: (name) => { const l = L.get(name); return l ? { entry: l.e, data: l.data } : undefined; },
    memoryBytes: () => [...L.values()].reduce((a, l) => a + l.data.byteLength, 0) + byo.memoryBytes(),
    registerGeoTiff: (entry) => byo.register(entry),
    overlayOwn: (own, lat, lng, sy, out) => (own.size > 0 ? overlayByo(own, lat, lng, resolveScenario(sy), out) : 0),
    loadByoCatalog: (path) => byo.loadCatalog(path),
  };
}

/** Half of a 5-arc-minute cell, km (40,008 km / 4320 / 2). */
const HALF_CELL_5M_KM = 40008 / 4320 / 2;
const H = (k: HazardKey) => HAZARD_KEYS.indexOf(k);
const H_TY = H('typhoon'), H_SS = H('storm_surge'), H_RF = H('river_flood'), H_PF = H('rainfall_flood'), H_LS = H('landslide'),
  H_WF = H('wildfire'), H_HEAT = H('extreme_heat'), H_COLD = H('extreme_cold'), H_SNOW = H('snowfall'), H_SLR = H('sea_level_rise'), H_DR = H('drought');
const CURVE_INDEX: Partial<Record<HazardKey, number>> = { typhoon: 0, storm_surge: 1, river_flood: 2, rainfall_flood: 3 };

function splitByo(hs: ByoHit[]): { rpYears: number[]; rpValues: number[]; plain: number | undefined } {
  const rp = hs.filter((h) => h.entry.returnPeriodYears != null).sort((a, b) => a.entry.returnPeriodYears! - b.entry.returnPeriodYears!);
  return { rpYears: rp.map((h) => h.entry.returnPeriodYears!), rpValues: rp.map((h) => h.value), plain: hs.find((h) => h.entry.returnPeriodYears == null)?.value };
}

/**
 * Intensity at return period T from user-supplied (RP, intensity) pairs: linear in ln(RP) between them, flat above the
 * largest, and linear in ln(RP) down to 0 at 1 year below the smallest.
 */
export function interpLogRp(rps: number[], vals: number[], T: number): number {
  const n = rps.length;
  if (n === 0) return NaN;
  if (T >= rps[n - 1]!) return vals[n - 1]!;
  if (T <= rps[0]!) return rps[0]! <= 1 ? vals[0]! : Math.max(0, (vals[0]! * Math.log(Math.max(1, T))) / Math.log(rps[0]!));
  let i = 0;
  while (T > rps[i + 1]!) i++;
  const t = (Math.log(T) - Math.log(rps[i]!)) / (Math.log(rps[i + 1]!) - Math.log(rps[i]!));
  return vals[i]! + t * (vals[i + 1]! - vals[i]!);
}

function round4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

function cellOf(res: number, w: number, h: number, lat: number, lng: number): number {
  let row = Math.floor((90 - lat) / res);
  if (row >= h) row = h - 1;
  if (row < 0) row = 0;
  let col = Math.floor((lng + 180) / res) % w;
  if (col < 0) col += w;
  return row * w + col;
}

function neighbourCn(cn: Uint8Array, c: number): number {
  const W = 3600, r = Math.floor(c / W), col = c % W;
  let best = 0;
  for (let d = 1; d <= 2 && best === 0; d++) {
    for (let dr = -d; dr <= d; dr++) for (let dc = -d; dc <= d; dc++) {
      const rr = r + dr;
      if (rr < 0 || rr >= 1800) continue;
      const v = cn[rr * W + ((col + dc + W) % W)]!;
      if (v > best) best = v;
    }
  }
  return best;
}

function buildPercentiles(warm: Int16Array, snow: Uint16Array, nO: number, cn: Uint8Array) {
  const W = 720, Hh = 360;
  const vw: [number, number][] = [], vs: [number, number][] = [];
  for (let r = 0; r < Hh; r++) {
    const lat = 90 - (r + 0.5) * 0.5;
    if (lat < -60) continue; // Antarctica excluded
    const a = Math.cos((lat * Math.PI) / 180);
    for (let c = 0; c < W; c++) {
      const k = r * W + c;
      const c01 = (r * 5 + 2) * 3600 + c * 5 + 2;
      const cnv = cn[c01]!;
      if (cnv === 0) continue; // land cells only (MODIS non-water)
      vw.push([warm[k]! * 0.01, a]);
      const s = snow[k * nO]! * 0.2;
      if (s >= 1) vs.push([s, a]);
    }
  }
  return { warm: quantiles(vw), snow: quantiles(vs) };
}

function quantiles(v: [number, number][]): Float64Array {
  v.sort((a, b) => a[0] - b[0]);
  const total = v.reduce((s, x) => s + x[1], 0);
  const out = new Float64Array(101);
  let acc = 0, j = 0;
  for (let q = 0; q <= 100; q++) {
    const target = (q / 100) * total;
    while (j < v.length - 1 && acc + v[j]![1] < target) { acc += v[j]![1]; j++; }
    out[q] = v[j]![0];
  }
  out[0] = v[0]![0];
  out[100] = v[v.length - 1]![0];
  return out;
}

export function layersPresent(dir: string = DEFAULT_LAYERS_DIR): boolean {
  return existsSync(join(dir, 'manifest.json'));
}
