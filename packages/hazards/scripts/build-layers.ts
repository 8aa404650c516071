/**
 * Reproducible build of the committed hazard layers: reads raw open data from HAZARD_RAW_DIR (default ../shared/data
 * beside the repository) and writes gzip-compressed binary grids plus manifest.json and params.json to
 * packages/hazards/layers/. Run: npm run build:layers -w @crp/hazards  (root: npm run hazards:build).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { HAZARD_RETURN_PERIODS_YEARS } from '@crp/contracts';
import {
  GRID_025,
  GRID_05,
  GRID_01,
  GRID_1,
  GRID_1M,
  GRID_5M,
  TILE_CELLS,
  makeArray,
  sha256,
  toBytes,
  type DType,
  type LayerEntry,
  type TypedArray,
} from '../src/layer-format.js';
import { DATASETS } from '../src/datasets.js';
import { HAZARD_META } from '../src/sampler.js';
import { HAZARD_INDICATORS, HAZARD_KEYS } from '@crp/contracts';
import { rawDir, rawAvailable, readCsv, readCsvRecords, readText, readRaw } from './lib/io.js';
import { loadClimate, computeChronic, loadRegions, regionGrid, loadRegionalDeltas, CHRONIC_OFFSETS_C, W05, H05, type Region } from './lib/chronic.js';
import { loadTerrain, slopeTan, W5, H5, KM_PER_5MIN, type Terrain } from './lib/terrain.js';
import { buildRiverLayers } from './lib/river-layers.js';
import { allSources, type TrackSource } from './lib/tracks.js';
import { buildShelfIndex, SHELF_MIN_DEPTH_M, SHELF_RADIUS_KM, SHELF_REFERENCE } from './lib/shelf.js';
import { buildFineCoast, FINE_SCALE_KM, FINE_OFFSET_KM, FINE_NODATA } from './lib/coastline.js';
import { accumulateSource, gpdReturnLevels, smoothHistogram, TRACK_SHIFT_SIGMA_KM, NB, ROW0, ROW1, type Bbox } from './lib/typhoon.js';
import { fitGevLmoments, gevReturnLevel } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
export const LAYERS_DIR = resolve(here, '../layers');
export const SCRIPTS_DIR = here;
const RPS = [...HAZARD_RETURN_PERIODS_YEARS];

/** Knutson et al. (2020) BAMS 101:E303, median projected change of mean TC intensity (%) at +2 °C, per basin. */
export const KNUTSON_INTENSITY_PCT: Record<string, number> = { WP: 5.3, NA: 2.9, EP: 5.5, NI: 4.3, SI: 5.4, SP: 0.9 };
export const TYPHOON_BASINS = ['', 'WP', 'NA', 'EP', 'NI', 'SI', 'SP'];
/** AR6 WGI SPM A.1.7: GMSL rise rates (mm/yr) 1901-1971, 1971-2006, 2006-2018. */
const GMSL_RATES = [
  { from: 1901, to: 1971, mmYr: 1.3 },
  { from: 1971, to: 2006, mmYr: 1.9 },
  { from: 2006, to: 2023, mmYr: 3.7 },
];
/** Chuvieco et al. (2018) ESSD 10, 2015: FireCCI51 mean annual global burned area 2001-2016, km². */
export const GLOBAL_BURNED_AREA_KM2 = 3.81e6;
/**
 * SCS curve numbers (USDA-NRCS 1986, TR-55 Table 2-2, hydrologic soil group C, good condition) by IGBP class.
 * 1-5 forests → woods 70; 6-7 shrublands → brush 65; 8-9 savannas → woods-grass combination 72; 10 grassland → pasture 74;
 * 11 wetland → 98 (saturated, like water); 12 & 14 cropland → row crops straight row 85; 13 urban → commercial 94;
 * 15 snow/ice → 98; 16 barren → fallow bare soil 91. Water 0 (no land).
 */
export const IGBP_CURVE_NUMBER = [0, 70, 70, 70, 70, 70, 65, 65, 72, 72, 74, 98, 85, 94, 85, 98, 91];
/**
 * Fuel code by IGBP class (src/models/wildfire.ts): forests and shrublands (1-7) woody; savannas, woody savannas and
 * grasslands (8-10) grass-fuelled inside the tropics (the frequent, low-intensity grass-fuelled pyromes of Archibald et
 * al. 2013, PNAS 110:6442) and woody outside them (California's oak-conifer foothills and the Mediterranean's wooded
 * grasslands burn as shrub and crown fires); the cropland/natural-vegetation mosaic (14) its own code (natural vegetation
 * inside, exposure only). Urban and built-up land (13) has no burn rate of its own (FireCCI51, Chuvieco et al. 2018, maps
 * it as non-burnable): its buildings are exposed from the burnable pixels next to it; water, wetlands, croplands,
 * snow/ice and barren likewise.
 */
export const IGBP_FUEL = [0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 0, 0, 0, 3, 0, 0];
/** Latitude of the Tropics of Cancer and Capricorn (°): grass-fuelled fuel code inside, woody outside. */
export const TROPICS_LAT_DEG = 23.44;
/** Fuel code of IGBP class `igbp` at the 0.1° row `r` (IGBP_FUEL, grass outside the tropics counted as woody). */
export function fuelCodeOf(igbp: number, r: number): number {
  const g = IGBP_FUEL[igbp] ?? 0;
  return g === 2 && Math.abs(90 - (r + 0.5) * 0.1) > TROPICS_LAT_DEG ? 1 : g;
}
/**
 * Calibration anchors of the landscape burn rate, one per fuel group: k is set so that the area-weighted mean burn rate of
 * the group's pixels in the box equals the observed annual burned fraction.
 * - grass: the north Australian savanna (IGBP 8-10 between 11°S and 20°S, 125°E-146°E), 21 % burnt per year on average
 *   1997-2005 (Russell-Smith et al. 2007, Fire Ecology 3(1):48).
 * - woody: forests and shrublands of the European Mediterranean and its coasts (36°N-44°N, 9.5°W-28°E), 2 %/yr, the middle
 *   of the 1-3 %/yr of Mediterranean shrublands (fire return intervals of 30-100 years; literature-consistent magnitude,
 *   **to verify** against the EFFIS national statistics or GFED5 per-class burned area).
 * The global total is then a check, not a target: between GFED4's 3.48 Mkm²/yr (Giglio, Randerson & van der Werf 2013,
 * JGR-Biogeosci. 118:317; most small fires missed), FireCCI51's 3.81 (Chuvieco et al. 2018) and GFED5's 7.74 (Chen et
 * al. 2023, ESSD 15:5227; small fires and croplands included).
 */
export const WILDFIRE_ANCHORS = {
  grass: { south: -20, north: -11, west: 125, east: 146, burnedFraction: 0.21, source: 'Russell-Smith et al. (2007) Fire Ecology 3(1):48' },
  woody: { south: 36, north: 44, west: -9.5, east: 28, burnedFraction: 0.02, source: 'Mediterranean shrublands 1-3 %/yr (to verify)' },
} as const;
/** GFED5 mean annual global burned area 2001-2020, km² (Chen et al. 2023, ESSD 15:5227). */
export const GFED5_BURNED_AREA_KM2 = 7.74e6;
/** GLC reporting window used for rates: 2007-01-01 to 2018-08-13 (metadata export date). */
export const GLC_YEARS = 11.6;
export const HK_GEO_YEARS = 37; // 1984-2020
/** Hong Kong box for the GEO catalogue: 5' rows south of the Shenzhen River border (about 22.5°N). */
export const HK_BBOX: Bbox = { west: 113.82, south: 22.15, east: 114.45, north: 22.5 };

const cellArea01Km2 = (r: number) => 11.1195 * 11.1195 * Math.cos(((90 - (r + 0.5) * 0.1) * Math.PI) / 180);

/**
 * Per-fuel-group burn-rate coefficients k (p = min(1, k·F) on the group's pixels, F the baseline fire climate) that
 * reproduce WILDFIRE_ANCHORS, found by bisection (the cap at 1 makes the mean non-linear in k), and the global landscape
 * burned area they imply (a check against FireCCI51 and GFED5).
 */
export function calibrateWildfire(fuel: Uint8Array, fireClim: Float32Array, nO: number) {
  const F = (i: number) => fireClim[(Math.floor(i / 3600 / 5) * W05 + Math.floor((i % 3600) / 5)) * nO]!;
  const meanIn = (g: number, box: { south: number; north: number; west: number; east: number }, k: number) => {
    let a = 0,
      b = 0;
    for (let r = Math.floor((90 - box.north) * 10); r < Math.floor((90 - box.south) * 10); r++)
      for (let c = Math.floor((box.west + 180) * 10); c < Math.floor((box.east + 180) * 10); c++) {
        const i = r * 3600 + c;
        if (fuel[i] !== g) continue;
        a += cellArea01Km2(r);
        b += cellArea01Km2(r) * Math.min(1, k * F(i));
      }
    return b / a;
  };
  const solve = (g: number, anchor: (typeof WILDFIRE_ANCHORS)['grass' | 'woody']) => {
    let lo = 0,
      hi = 100;
    for (let it = 0; it < 60; it++) {
      const mid = (lo + hi) / 2;
      if (meanIn(g, anchor, mid) < anchor.burnedFraction) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const kWoody = solve(1, WILDFIRE_ANCHORS.woody),
    kGrass = solve(2, WILDFIRE_ANCHORS.grass);
  let burnedAreaKm2 = 0;
  for (let i = 0; i < fuel.length; i++) {
    const k = fuel[i] === 1 ? kWoody : fuel[i] === 2 ? kGrass : 0;
    if (k > 0) burnedAreaKm2 += cellArea01Km2(Math.floor(i / 3600)) * Math.min(1, k * F(i));
  }
  return {
    kWoody,
    kGrass,
    anchors: WILDFIRE_ANCHORS,
    burnedAreaKm2,
    fireCci51BurnedAreaKm2: GLOBAL_BURNED_AREA_KM2,
    gfed5BurnedAreaKm2: GFED5_BURNED_AREA_KM2,
  };
}

export interface Out {
  entries: LayerEntry[];
  dir: string;
}

export function writeLayer(out: Out, e: Omit<LayerEntry, 'file' | 'sha256' | 'bytesRaw' | 'bytesGz'>, data: TypedArray) {
  const raw = toBytes(data);
  const gz = gzipSync(raw, { level: 9 });
  const file = `${e.name}.bin.gz`;
  writeFileSync(join(out.dir, file), gz);
  out.entries.push({ ...e, file, sha256: sha256(raw), bytesRaw: raw.byteLength, bytesGz: gz.byteLength });
  console.log(`  ${e.name}: ${(raw.byteLength / 1e6).toFixed(2)} MB raw, ${(gz.byteLength / 1e6).toFixed(2)} MB gz`);
}

export function quantise(dtype: DType, values: ArrayLike<number>, scale: number, offset: number, nodata: number | null): TypedArray {
  const a = makeArray(dtype, values.length);
  const [lo, hi] = dtype === 'uint8' ? [0, 255] : dtype === 'uint16' ? [0, 65535] : dtype === 'int16' ? [-32768, 32767] : [-2147483648, 2147483647];
  const maxValid = nodata === hi ? hi - 1 : hi;
  const minValid = nodata === lo ? lo + 1 : lo;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) {
      a[i] = nodata ?? 0;
      continue;
    }
    a[i] = Math.min(maxValid, Math.max(minValid, Math.round((v - offset) / scale)));
  }
  return a;
}

// ---------------------------------------------------------------- parameters (scenarios, sea level, regions)
/**
 * Regional winter-mean warming at the warming levels (params.json winterTas), from packages/hazards/data/atlas-winter-tas.json
 * (derive-winter-warming.ts: CMIP6 regional tas of the AR6 WGI Atlas repository). Per region in params.regions order:
 * [ΔT at +1.5, +2, +3, +4 °C] vs 1850-1900, °C, or null; `global`: the Atlas 'world' column (DJF), for cells outside
 * every region. The cold and snow models warm the monthly means by this instead of by ΔTNn (issue 33 item 5).
 */
export function winterTasParams(abbrevs: string[]) {
  const j = JSON.parse(readFileSync(join(SCRIPTS_DIR, '..', 'data', 'atlas-winter-tas.json'), 'utf8')) as {
    source: string;
    warmingLevelsC: number[];
    regions: { abbrev: string; winter: string; deltaAtGwl: (number | null)[] }[];
  };
  const by = new Map(j.regions.map((r) => [r.abbrev, r]));
  const rows = abbrevs.map((a) => {
    const r = by.get(a);
    return r && r.deltaAtGwl.every((v) => v !== null) ? (r.deltaAtGwl as number[]) : null;
  });
  const global = by.get('world')!.deltaAtGwl as number[];
  return { source: j.source, season: abbrevs.map((a) => by.get(a)?.winter ?? null), deltas: rows, global };
}

export function buildParams(dir: string) {
  const gs = readCsv(dir, 'cmip6_regional_extremes_ar6/gsat_by_ssp_period/cmip6_mmm_gsat_anomaly_by_ssp_period.csv');
  const col = (prefix: string) => gs.header.findIndex((h) => h.startsWith(prefix));
  const decades = gs.rows
    .filter((r) => /^\d{4}-\d{4}$/.test(r[0]!) && +r[0]!.slice(5) - +r[0]!.slice(0, 4) === 9)
    .sort((a, b) => +a[0]!.slice(0, 4) - +b[0]!.slice(0, 4));
  const gsat = {
    centreYears: decades.map((r) => +r[0]!.slice(0, 4) + 4.5),
    ssp126: decades.map((r) => +r[col('SSP1-2.6')]!),
    ssp245: decades.map((r) => +r[col('SSP2-4.5')]!),
    ssp585: decades.map((r) => +r[col('SSP5-8.5')]!),
  };
  const gm = readCsv(dir, 'ipcc-ar6-gmsl-projections/ar6_gmsl_central_rel1995-2014.csv');
  const gcol = (n: string) => gm.header.indexOf(n);
  const gmsl = {
    years: gm.rows.map((r) => +r[0]!),
    ssp126: gm.rows.map((r) => +r[gcol('ssp126_m')]!),
    ssp245: gm.rows.map((r) => +r[gcol('ssp245_m')]!),
    ssp585: gm.rows.map((r) => +r[gcol('ssp585_m')]!),
  };
  const reg = loadRegions(dir);
  const { deltas, globals } = loadRegionalDeltas(dir, reg);
  return { gsat, gmsl, reg, deltas, globals };
}

/** AR6 WGI Table 9.9 (medium confidence rows): { ssp126|ssp245|ssp585: { years, median, low, high } }. */
export function gmslLikelyTable(dir: string) {
  const t = readCsv(dir, 'ipcc-ar6-gmsl-projections/ar6_table9.9_gmsl_likely_ranges_rel1995-2014.csv');
  const out: Record<string, { years: number[]; median: number[]; low: number[]; high: number[] }> = {};
  for (const [key, label] of [
    ['ssp126', 'SSP1-2.6'],
    ['ssp245', 'SSP2-4.5'],
    ['ssp585', 'SSP5-8.5'],
  ] as const) {
    const rs = t.rows.filter((r) => r[0] === label && r[5] === 'medium confidence' && +r[1]! <= 2100).sort((a, b) => +a[1]! - +b[1]!);
    out[key] = { years: rs.map((r) => +r[1]!), median: rs.map((r) => +r[2]!), low: rs.map((r) => +r[3]!), high: rs.map((r) => +r[4]!) };
  }
  return out;
}

// ---------------------------------------------------------------- chronic
export function buildChronicArrays(dir: string, region?: Region) {
  const cl = loadClimate(dir, region);
  return computeChronic(cl, region);
}

// ---------------------------------------------------------------- typhoon
export interface TyphoonBuild {
  rp: Float32Array; // [cell*nRP + k], NaN = no data
  basin: Uint8Array;
  sources: { key: string; label: string; group: string; years: number; storms: number; stormsUsed: number; maxWindMs: number; dataset: string }[];
  smoothingSigmaKm: number;
}

export function buildTyphoonArrays(dir: string, bbox?: Bbox, sources?: TrackSource[]): TyphoonBuild {
  const W = GRID_025.width,
    H = GRID_025.height;
  const srcs = sources ?? allSources(dir);
  const groups = ['WP', 'NA', 'EP', 'NI', 'SH'] as const;
  const nRows = ROW1 - ROW0;
  const histAll = new Float32Array(nRows * W * NB);
  const groupRate = groups.map(() => new Float32Array(W * H));
  const touched = new Uint8Array(W * H);
  const info: TyphoonBuild['sources'] = [];
  // Cap of return levels: the highest best-track wind of any source (independent of the region built)
  let cap = 0;
  for (const s of srcs) for (const st of s.storms) for (const f of st.fixes) if (f.vMs > cap) cap = f.vMs;
  for (const g of groups) {
    const members = srcs.filter((s) => s.group === g);
    for (const s of members) {
      const years = s.endYear - s.startYear + 1;
      const weight = 1 / (years * members.length);
      const t0 = Date.now();
      const r = accumulateSource(s, histAll, groupRate[groups.indexOf(g)]!, weight, touched, bbox);
      info.push({ key: s.key, label: s.label, group: g, years, storms: s.storms.length, stormsUsed: r.stormsUsed, maxWindMs: r.maxWindMs, dataset: s.dataset });
      console.log(`  typhoon ${s.key}: ${s.storms.length} storms, ${years} y, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  const sigmaKm = TRACK_SHIFT_SIGMA_KM;
  const ts = Date.now();
  smoothHistogram(histAll, sigmaKm, bbox);
  console.log(`  typhoon rate smoothing σ = ${sigmaKm.toFixed(1)} km (CLIMADA track-shift equivalent): ${((Date.now() - ts) / 1000).toFixed(1)} s`);
  // coverage: cells within 3° (12 cells) of any cell that saw a ≥17.5 m/s wind; elsewhere "no data"
  const cov = dilate(touched, W, H, 12);
  const nR = RPS.length;
  const rp = new Float32Array(W * H * nR).fill(NaN);
  const basin = new Uint8Array(W * H);
  for (let c = 0; c < W * H; c++) {
    if (!cov[c]) continue;
    const row = Math.floor(c / W);
    let levels = RPS.map(() => 0);
    if (row >= ROW0 && row < ROW1) {
      const hc = histAll.subarray(((row - ROW0) * W + (c % W)) * NB, ((row - ROW0) * W + (c % W) + 1) * NB);
      levels = gpdReturnLevels(hc, RPS, cap);
      let best = -1,
        bestRate = 0;
      groups.forEach((_, gi) => {
        const v = groupRate[gi]![c]!;
        if (v > bestRate) {
          bestRate = v;
          best = gi;
        }
      });
      if (best >= 0) {
        const g = groups[best]!;
        const lon = -180 + ((c % W) + 0.5) * 0.25;
        basin[c] = g === 'SH' ? (lon >= 10 && lon < 135 ? 5 : 6) : TYPHOON_BASINS.indexOf(g);
      }
    }
    for (let k = 0; k < nR; k++) rp[c * nR + k] = levels[k]!;
  }
  return { rp, basin, sources: info, smoothingSigmaKm: sigmaKm };
}

function dilate(m: Uint8Array, W: number, H: number, rad: number): Uint8Array {
  const a = new Uint8Array(W * H),
    b = new Uint8Array(W * H);
  for (let r = 0; r < H; r++) {
    let last = -1e9;
    for (let c = -rad; c < W + rad; c++) {
      const cc = ((c % W) + W) % W;
      if (m[r * W + cc]) last = c;
      if (c - rad >= 0 && c - rad < W && c - last <= 2 * rad) a[r * W + c - rad] = 1;
    }
  }
  for (let c = 0; c < W; c++) {
    let last = -1e9;
    for (let r = 0; r < H + rad; r++) {
      if (r < H && a[r * W + c]) last = r;
      if (r - rad >= 0 && r - last <= 2 * rad) b[(r - rad) * W + c] = 1;
    }
  }
  return b;
}

// ---------------------------------------------------------------- sea level: local non-GMSL rate from PSMSL
function gmslMeanRate(y0: number, y1: number): number {
  let sum = 0;
  for (const p of GMSL_RATES) {
    const a = Math.max(y0, p.from),
      b = Math.min(y1, p.to);
    if (b > a) sum += (b - a) * p.mmYr;
  }
  return sum / Math.max(1, y1 - y0);
}

/**
 * Tide-gauge selection for the local rate (documented in docs/methodology/hazards.md §3.3):
 * - annual values from 1960 on, without PSMSL's "flag for attention" (bit 001; PSMSL advises against using them for
 *   long-term trends), at stations without PSMSL's station quality flag (filelist "Y");
 * - long: at least 40 valid annual values spanning at least 40 years (decadal variability makes shorter trends
 *   unreliable: Douglas 1991, JGR 96:6981, asks for 50-60 years for global rates; 40 keeps today's land motion);
 * - well fitted: standard error of the OLS trend, with the lag-1 autocorrelation of the residuals reducing the sample to
 *   n·(1 − r₁)/(1 + r₁) (Santer et al. 2000, JGR 105:7337), at most 1 mm/yr;
 * - nearby: the nearest such gauge within 100 km of the cell centre (0.5° cells), else no local term (GMSL only);
 * - capped: a residual beyond ±10 mm/yr (datum jumps, or subsidence too local to stand for a 0.5° cell) is capped there and
 *   counted as flagged.
 */
export const SLR_GAUGE_RULES = { fromYear: 1960, minValues: 40, minSpanYears: 40, maxSeMmYr: 1, maxDistanceKm: 100, capMmYr: 10 };

/** OLS trend and its autocorrelation-adjusted standard error (mm/yr). */
export function trendWithSe(xs: number[], ys: number[]): { slope: number; se: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n,
    my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0,
    sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const slope = sxy / sxx;
  const res = xs.map((x, i) => ys[i]! - my - slope * (x - mx));
  let ssr = 0,
    c1 = 0;
  for (let i = 0; i < n; i++) {
    ssr += res[i]! ** 2;
    if (i > 0) c1 += res[i]! * res[i - 1]!;
  }
  const r1 = Math.max(0, Math.min(0.95, ssr > 0 ? c1 / ssr : 0));
  const nEff = Math.max(3, (n * (1 - r1)) / (1 + r1));
  const se = Math.sqrt(ssr / (nEff - 2) / sxx);
  return { slope, se };
}

export interface SlrGauge {
  id: string;
  name: string;
  lat: number;
  lon: number;
  values: number;
  firstYear: number;
  lastYear: number;
  trend: number;
  se: number;
  local: number;
  capped: boolean;
}

export function selectSlrGauges(dir: string): { used: SlrGauge[]; rejected: Record<string, number> } {
  const R = SLR_GAUGE_RULES;
  const { header, rows } = readCsv(dir, 'psmsl-rlr-annual/psmsl_rlr_annual.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const flagged = new Set(
    readText(dir, 'psmsl-rlr-annual/filelist.txt')
      .split(/\r?\n/)
      .map((l) => l.split(';'))
      .filter((f) => f.length >= 7 && f[6]!.trim() === 'Y')
      .map((f) => f[0]!.trim()),
  );
  const by = new Map<string, { name: string; lat: number; lon: number; ys: number[]; vs: number[] }>();
  const rejected = { stationFlagged: 0, short: 0, poorFit: 0 };
  for (const r of rows) {
    const y = +r[ix('year')]!;
    if (y < R.fromYear) continue;
    if ((parseInt(r[ix('quality_flag')]!, 8) & 1) === 1) continue; // PSMSL flag for attention
    const id = r[ix('station_id')]!;
    const s = by.get(id) ?? by.set(id, { name: r[ix('name')]!.trim(), lat: +r[ix('lat')]!, lon: +r[ix('lon')]!, ys: [], vs: [] }).get(id)!;
    s.ys.push(y);
    s.vs.push(+r[ix('msl_mm_rlr')]!);
  }
  const used: SlrGauge[] = [];
  for (const [id, s] of by) {
    if (flagged.has(id)) {
      rejected.stationFlagged++;
      continue;
    }
    const y0 = Math.min(...s.ys),
      y1 = Math.max(...s.ys);
    if (s.ys.length < R.minValues || y1 - y0 + 1 < R.minSpanYears) {
      rejected.short++;
      continue;
    }
    const { slope, se } = trendWithSe(s.ys, s.vs);
    if (!(se <= R.maxSeMmYr)) {
      rejected.poorFit++;
      continue;
    }
    const raw = slope - gmslMeanRate(y0, y1);
    const local = Math.max(-R.capMmYr, Math.min(R.capMmYr, raw));
    used.push({ id, name: s.name, lat: s.lat, lon: s.lon, values: s.ys.length, firstYear: y0, lastYear: y1, trend: slope, se, local, capped: local !== raw });
  }
  return { used, rejected };
}

/**
 * Vertical land motion where no tide gauge qualifies (docs/methodology/hazards.md §3.3): the ICE-5G (VM2) v1.3 GIA
 * prediction of the present-day rate of relative sea-level change at each PSMSL station (Peltier 2004, Annu. Rev. Earth
 * Planet. Sci. 32:111; file drsl250 distributed by PSMSL, the "average present-day" column: the mean of the rates over
 * the last and the next 250 years), inverse-distance-squared weighted over the stations within `radiusKm` of the 0.5°
 * cell centre; beyond it no GIA term. GIA varies over hundreds of km (the Hudson Bay and Fennoscandian domes are 1,000-2,000 km across), so stations within 500 km stand for a cell.
 */
export const SLR_GIA_RULES = { radiusKm: 500, power: 2, column: 'average present-day rate ([250 yr BP, 250 yr AP])' };

export interface GiaStation {
  id: string;
  name: string;
  lat: number;
  lon: number;
  rate: number;
}

/** The ICE-5G GIA relative sea-level rates at the PSMSL stations (mm/yr; positive = relative sea level rising). */
export function readGiaRates(dir: string): GiaStation[] {
  const out: GiaStation[] = [];
  for (const line of readText(dir, 'psmsl-rlr-annual/gia_drsl250_PSMSL_ICE5Gv1.3_VM2_L90_2012b.txt.gz').split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || !/^-?\d+\.\d+$/.test(f[0]!) || !/^\d+$/.test(f[2]!)) continue;
    const lat = +f[0]!,
      lon360 = +f[1]!,
      rate = +f[f.length - 1]!;
    if (!Number.isFinite(lat) || !Number.isFinite(lon360) || !Number.isFinite(rate)) continue;
    out.push({ id: f[2]!, name: f.slice(4, f.length - 3).join(' '), lat, lon: lon360 > 180 ? lon360 - 360 : lon360, rate });
  }
  return out;
}

/** Great-circle-free flat distance (km) used for the gauge and GIA searches (equirectangular at the cell latitude). */
function flatKm(lat: number, lon: number, sLat: number, sLon: number): number {
  let dl = Math.abs(sLon - lon);
  if (dl > 180) dl = 360 - dl;
  return Math.hypot((sLat - lat) * 110.57, dl * 111.32 * Math.cos((lat * Math.PI) / 180));
}

/** GIA rate (mm/yr) at a point: inverse-distance-squared mean of the stations within SLR_GIA_RULES.radiusKm; NaN if none. */
export function giaRateAt(st: readonly GiaStation[], lat: number, lon: number): number {
  const R = SLR_GIA_RULES.radiusKm;
  const dLat = R / 110.57;
  let sw = 0,
    s = 0;
  for (const g of st) {
    if (Math.abs(g.lat - lat) > dLat) continue;
    const d = flatKm(lat, lon, g.lat, g.lon);
    if (d > R) continue;
    const w = 1 / Math.max(1, d) ** SLR_GIA_RULES.power;
    sw += w;
    s += w * g.rate;
  }
  return sw > 0 ? s / sw : NaN;
}

export function buildLocalSlrRate(dir: string): {
  grid: Float32Array;
  seGrid: Float32Array;
  stations: number;
  capped: number;
  rejected: Record<string, number>;
  gauges: SlrGauge[];
  giaStations: number;
  cells: { gauge: number; gia: number };
} {
  const { used: st, rejected } = selectSlrGauges(dir);
  const gia = readGiaRates(dir);
  const cells = { gauge: 0, gia: 0 };
  const grid = new Float32Array(W05 * H05).fill(NaN),
    seGrid = new Float32Array(W05 * H05).fill(NaN);
  const maxKm = SLR_GAUGE_RULES.maxDistanceKm;
  for (let r = 0; r < H05; r++) {
    const lat = 90 - (r + 0.5) * 0.5;
    for (let c = 0; c < W05; c++) {
      const lon = -180 + (c + 0.5) * 0.5;
      let best = Infinity,
        g: SlrGauge | null = null;
      for (const s of st) {
        if (Math.abs(s.lat - lat) > 1.5) continue;
        let dl = Math.abs(s.lon - lon);
        if (dl > 180) dl = 360 - dl;
        const d = Math.hypot((s.lat - lat) * 110.57, dl * 111.32 * Math.cos((lat * Math.PI) / 180));
        if (d < best) {
          best = d;
          g = s;
        }
      }
      if (g && best <= maxKm) {
        grid[r * W05 + c] = g.local;
        seGrid[r * W05 + c] = g.se;
        cells.gauge++;
      } else {
        // no qualifying gauge: vertical land motion from ICE-5G GIA (no standard error known: left empty)
        const v = giaRateAt(gia, lat, lon);
        if (v === v) {
          grid[r * W05 + c] = v;
          cells.gia++;
        }
      }
    }
  }
  return { grid, seGrid, stations: st.length, capped: st.filter((s) => s.capped).length, rejected, gauges: st, giaStations: gia.length, cells };
}

/**
 * The storm surge's shelf wind-setup index in the coastal tiles (`coast_shelf_index`, lib/shelf.ts) and its params.json
 * entry `surgeShelf` (the reference index of the US Gulf and Atlantic coast); used by buildAll and build-shelf-layer.ts.
 */
export function buildShelfLayer(
  t: Terrain,
  tiles: number[],
): { layer: [Omit<LayerEntry, 'file' | 'sha256' | 'bytesRaw' | 'bytesGz'>, TypedArray]; params: Record<string, unknown> } {
  const sh = buildShelfIndex(t, tiles);
  console.log(`  shelf index: reference ${sh.refIndexKmPerM.toFixed(3)} km/m (median of ${sh.refCells} US Gulf/Atlantic coast cells)`);
  return {
    layer: [
      {
        name: 'coast_shelf_index',
        dtype: 'uint8',
        grid: GRID_5M,
        bands: 1,
        scale: 0.05,
        offset: 0,
        nodata: 255,
        unit: 'km/m',
        description: `Shelf wind-setup index R·mean(1/max(D, ${SHELF_MIN_DEPTH_M} m)) over the ETOPO5 sea cells within ${SHELF_RADIUS_KM} km, in coastal tiles (tile-major, 144 cells per tile; 255 = no sea within reach)`,
        resolutionKm: 9.3,
        datasets: ['etopo5-global-dem'],
      },
      quantise('uint8', sh.index, 0.05, 0, 255),
    ],
    params: {
      surgeShelf: {
        radiusKm: SHELF_RADIUS_KM,
        minDepthM: SHELF_MIN_DEPTH_M,
        reference: SHELF_REFERENCE,
        refIndexKmPerM: +sh.refIndexKmPerM.toFixed(4),
        refCells: sh.refCells,
      },
    },
  };
}

/** The sea-level layers (slr_local_rate, slr_local_se) and their params.json entries; used by buildAll and build-slr-layers.ts. */
export function buildSlrLayers(dir: string): {
  layers: [Omit<LayerEntry, 'file' | 'sha256' | 'bytesRaw' | 'bytesGz'>, TypedArray][];
  params: Record<string, unknown>;
} {
  const layers: [Omit<LayerEntry, 'file' | 'sha256' | 'bytesRaw' | 'bytesGz'>, TypedArray][] = [];
  const slr = buildLocalSlrRate(dir);
  console.log(
    `  sea level: ${slr.stations} gauges kept (${slr.capped} capped at ±${SLR_GAUGE_RULES.capMmYr} mm/yr), rejected ${JSON.stringify(slr.rejected)}; cells from gauges ${slr.cells.gauge}, from GIA ${slr.cells.gia}`,
  );
  layers.push([
    {
      name: 'slr_local_rate',
      dtype: 'int16',
      grid: GRID_05,
      bands: 1,
      scale: 0.01,
      offset: 0,
      nodata: -32768,
      unit: 'mm/yr',
      description: `Local relative sea-level rate beyond GMSL: the PSMSL gauge trend minus the AR6 GMSL rate over its record (nearest of ${slr.stations} long, well-fitted gauges within ${SLR_GAUGE_RULES.maxDistanceKm} km; capped at ±${SLR_GAUGE_RULES.capMmYr} mm/yr), else the ICE-5G GIA rate (inverse-distance-squared mean of the PSMSL stations within ${SLR_GIA_RULES.radiusKm} km)`,
      resolutionKm: 55,
      datasets: ['psmsl-rlr-annual'],
    },
    quantise('int16', slr.grid, 0.01, 0, -32768),
  ]);
  layers.push([
    {
      name: 'slr_local_se',
      dtype: 'int16',
      grid: GRID_05,
      bands: 1,
      scale: 0.01,
      offset: 0,
      nodata: -32768,
      unit: 'mm/yr',
      description: 'Standard error of the local tide-gauge trend (autocorrelation-adjusted OLS) of slr_local_rate (empty where the rate is from GIA)',
      resolutionKm: 55,
      datasets: ['psmsl-rlr-annual'],
    },
    quantise('int16', slr.seGrid, 0.01, 0, -32768),
  ]);
  return {
    layers,
    params: {
      slrGaugeRules: SLR_GAUGE_RULES,
      slrGauges: { kept: slr.stations, capped: slr.capped, rejected: slr.rejected },
      slrGia: { ...SLR_GIA_RULES, stations: slr.giaStations, cells: slr.cells },
    },
  };
}

// ---------------------------------------------------------------- HKO rainfall statistics
/**
 * Durations (days) of the basin rainfall behind the river-flood growth curve: from the 5-day accumulation the model
 * started with (CMIP6 Rx5day) up to a season. River flood hazards §3.4: a basin's flood integrates the rain over its
 * response time (the critical storm duration of the rational method and of derived flood frequency).
 */
export const RIVER_GROWTH_DURATIONS_DAYS = [5, 7, 10, 15, 20, 30, 45, 60, 90] as const;

/**
 * Growth curves R_D,T / R_D,100 of the annual maximum D-day rainfall at the Hong Kong Observatory (GEV by L-moments,
 * Hosking 1990), one per duration of RIVER_GROWTH_DURATIONS_DAYS: the river model picks the duration of a site's basin
 * response time (flatter growth for larger basins; Blöschl & Sivapalan 1997).
 */
export function hkoDurationGrowth(dir: string): { days: number[]; growth: number[][]; years: number } {
  const lines = readText(dir, 'hko-daily-rainfall/daily_HKO_RF_ALL_1884-2022.csv.gz').split(/\r?\n/);
  const byYear = new Map<number, (number | null)[]>();
  for (const l of lines) {
    const f = l.split(',');
    if (f.length < 4 || !/^\d{4}$/.test(f[0]!)) continue;
    const y = +f[0]!;
    const v = f[3]!.trim() === 'Trace' ? 0 : f[3]!.trim() === '***' ? null : Number(f[3]);
    (byYear.get(y) ?? byYear.set(y, []).get(y)!).push(v === null || !Number.isFinite(v) ? null : v);
  }
  const growth: number[][] = [];
  let years = 0;
  for (const d of RIVER_GROWTH_DURATIONS_DAYS) {
    const maxima: number[] = [];
    for (const [y, vals] of byYear) {
      // the same complete years as hkoRainfallStats
      if (y > 2021 || vals.length < 365 || vals.filter((v) => v !== null).length < 360) continue;
      let m = 0,
        s = 0;
      for (let i = 0; i < vals.length; i++) {
        s += vals[i] ?? 0;
        if (i >= d) s -= vals[i - d] ?? 0;
        if (i >= d - 1 && s > m) m = s;
      }
      maxima.push(m);
    }
    years = maxima.length;
    const g = fitGevLmoments(maxima);
    const r100 = gevReturnLevel(g, 100);
    growth.push(RPS.map((T) => gevReturnLevel(g, T) / r100));
  }
  return { days: [...RIVER_GROWTH_DURATIONS_DAYS], growth, years };
}

export function hkoRainfallStats(dir: string) {
  const lines = readText(dir, 'hko-daily-rainfall/daily_HKO_RF_ALL_1884-2022.csv.gz').split(/\r?\n/);
  const byYear = new Map<number, (number | null)[]>();
  for (const l of lines) {
    const f = l.split(',');
    if (f.length < 4 || !/^\d{4}$/.test(f[0]!)) continue;
    const y = +f[0]!;
    const v = f[3]!.trim() === 'Trace' ? 0 : f[3]!.trim() === '***' ? null : Number(f[3]);
    (byYear.get(y) ?? byYear.set(y, []).get(y)!).push(v === null || !Number.isFinite(v) ? null : v);
  }
  const max1: number[] = [],
    max5: number[] = [];
  for (const [y, vals] of byYear) {
    if (y > 2021 || vals.length < 365) continue;
    const valid = vals.filter((v) => v !== null).length;
    if (valid < 360) continue;
    let m1 = 0,
      m5 = 0;
    for (let i = 0; i < vals.length; i++) {
      m1 = Math.max(m1, vals[i] ?? 0);
      if (i >= 4) {
        let s = 0;
        for (let k = i - 4; k <= i; k++) s += vals[k] ?? 0;
        m5 = Math.max(m5, s);
      }
    }
    max1.push(m1);
    max5.push(m5);
  }
  const g1 = fitGevLmoments(max1),
    g5 = fitGevLmoments(max5);
  return {
    years: max1.length,
    gev1: g1,
    gev5: g5,
    rx1: RPS.map((T) => gevReturnLevel(g1, T)),
    rx5: RPS.map((T) => gevReturnLevel(g5, T)),
    maxObserved1: Math.max(...max1),
  };
}

// ---------------------------------------------------------------- landslide
/** GLC span used for its rate (2007-01 to the 2018-08-13 export) as dates, for the completeness count of GEO incidents. */
export const GLC_SPAN = { from: '2007-01-01', to: '2018-08-13' };
const ddmmyyyy = (s: string | undefined): string | null => {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec((s ?? '').trim());
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : null;
};

/**
 * Completeness of the NASA GLC against the complete Hong Kong register, over the same box and the GLC's own span:
 * GEO incidents (dated by FAILDATE, else CALLDATE) between GLC_SPAN.from and .to, divided by the GLC points in the
 * Hong Kong box. The GLC reports one landslide for every `factor` GEO records (any size): the factor that turns a GLC
 * density into the GEO-equivalent density the hit rate is calibrated on (docs/methodology/hazards.md §3.6b).
 */
export function glcCompleteness(dir: string) {
  const inHk = (lat: number, lon: number) => lat >= HK_BBOX.south && lat <= HK_BBOX.north && lon >= HK_BBOX.west && lon <= HK_BBOX.east;
  const glc = readCsv(dir, 'nasa-global-landslide-catalog-points/glc_coolr_points.csv.gz');
  const glcHk = glc.rows.filter((r) => inHk(+r[2]!, +r[1]!)).length;
  const hk = readCsvRecords(dir, 'hk-geo-landslide-incidents-1984-2020/hk_landslide_incidents_1984_2020.csv.gz');
  const iF = hk.header.indexOf('FAILDATE'),
    iC = hk.header.indexOf('CALLDATE'),
    iLat = hk.header.indexOf('LAT_WGS84'),
    iLon = hk.header.indexOf('LON_WGS84');
  let geoSpan = 0;
  for (const r of hk.rows) {
    const d = ddmmyyyy(r[iF]) ?? ddmmyyyy(r[iC]);
    if (d && d >= GLC_SPAN.from && d <= GLC_SPAN.to && inHk(+r[iLat]!, +r[iLon]!)) geoSpan++;
  }
  return { glcPointsHongKong: glcHk, geoIncidentsSameSpan: geoSpan, span: GLC_SPAN, factor: geoSpan / glcHk, slopeSafetyFactor: SLOPE_SAFETY_FACTOR };
}

/**
 * Landslide risk of slopes outside Hong Kong relative to present-day Hong Kong, whose hit rate the engine is calibrated
 * on: 4. Hong Kong's Landslip Preventive Measures programme (1977-2010, about 4,500 government man-made slopes upgraded)
 * reduced the overall landslide risk from man-made slopes to less than 25 % of the 1977 level (Ho & Cheung 2016,
 * Geotech. Eng. J. SEAGS 47(3):1-10, doi:10.14456/seagj.2016.18; HKSAR press release 30 April 2010: "reduced by 75 %").
 * Elsewhere, slopes are taken at Hong Kong's 1977 level. APPROXIMATION: "less than 25 %" makes 4 a lower bound, and it
 * was measured on man-made slopes (natural hillsides are not in it), as risk to life, not as building hits.
 */
export const SLOPE_SAFETY_FACTOR = 4;

export function buildLandslide(dir: string, t: Terrain, slope: Float32Array, glcFactor = 1): Float32Array {
  const glcRate = new Float64Array(W5 * H5),
    geoRate = new Float64Array(W5 * H5);
  const inHk = (lat: number, lon: number) => lat >= HK_BBOX.south && lat <= HK_BBOX.north && lon >= HK_BBOX.west && lon <= HK_BBOX.east;
  const add = (a: Float64Array, lat: number, lon: number, w: number) => {
    const r = Math.floor((90 - lat) * 12),
      c = ((Math.floor((lon + 180) * 12) % W5) + W5) % W5;
    if (r >= 0 && r < H5) a[r * W5 + c]! += w;
  };
  const glc = readCsv(dir, 'nasa-global-landslide-catalog-points/glc_coolr_points.csv.gz');
  // outside Hong Kong each GLC point stands for glcFactor GEO-equivalent incidents (catalogue completeness), on slopes
  // without Hong Kong's slope-safety programme (SLOPE_SAFETY_FACTOR times the risk per incident)
  for (const r of glc.rows) add(glcRate, +r[2]!, +r[1]!, (glcFactor * SLOPE_SAFETY_FACTOR) / GLC_YEARS);
  const hk = readCsvRecords(dir, 'hk-geo-landslide-incidents-1984-2020/hk_landslide_incidents_1984_2020.csv.gz');
  const iLat = hk.header.indexOf('LAT_WGS84'),
    iLon = hk.header.indexOf('LON_WGS84');
  for (const r of hk.rows) {
    const lat = +r[iLat]!,
      lon = +r[iLon]!;
    if (Number.isFinite(lat) && inHk(lat, lon)) add(geoRate, lat, lon, 1 / HK_GEO_YEARS);
  }
  // window sums (11 x 11 cells ≈ 100 km) of events/yr, land area and slope
  const R = 5;
  const areaKm2 = (row: number) => KM_PER_5MIN * KM_PER_5MIN * Math.cos(((90 - (row + 0.5) / 12) * Math.PI) / 180);
  const ar = new Float64Array(W5 * H5),
    sl = new Float64Array(W5 * H5);
  for (let r = 0; r < H5; r++)
    for (let c = 0; c < W5; c++) {
      const i = r * W5 + c;
      if (t.land[i]) {
        ar[i] = areaKm2(r);
        sl[i] = slope[i]! * areaKm2(r);
      }
    }
  const box = (a: Float64Array) => {
    const tmp = new Float64Array(W5 * H5),
      outA = new Float64Array(W5 * H5);
    for (let r = 0; r < H5; r++) {
      let s = 0;
      for (let c = -R; c <= R; c++) s += a[r * W5 + ((c + W5) % W5)]!;
      for (let c = 0; c < W5; c++) {
        tmp[r * W5 + c] = s;
        s += a[r * W5 + ((c + R + 1) % W5)]! - a[r * W5 + ((c - R + W5) % W5)]!;
      }
    }
    for (let c = 0; c < W5; c++) {
      let s = 0;
      for (let r = 0; r <= R; r++) s += tmp[r * W5 + c]!;
      for (let r = 0; r < H5; r++) {
        outA[r * W5 + c] = s;
        if (r + R + 1 < H5) s += tmp[(r + R + 1) * W5 + c]!;
        if (r - R >= 0) s -= tmp[(r - R) * W5 + c]!;
      }
    }
    return outA;
  };
  const evW = box(glcRate),
    arW = box(ar),
    slW = box(sl);
  const p = new Float32Array(W5 * H5);
  const prob = (i: number, events: number, area: number, slopeArea: number) => {
    if (!t.land[i] || area <= 0 || events <= 0) return 0;
    const meanSlope = slopeArea / area;
    const dens = events / area; // events per km² per yr
    const lam = meanSlope > 0 ? dens * (slope[i]! / meanSlope) : dens;
    return 1 - Math.exp(-lam * Math.PI * 1 * 1); // at least one event within 1 km
  };
  for (let i = 0; i < p.length; i++) p[i] = prob(i, evW[i]!, arW[i]!, slW[i]!);
  // Inside Hong Kong the GEO catalogue replaces GLC, over the catalogue's own coverage only (window ∩ Hong Kong box),
  // so Hong Kong's incidents are not spread over Shenzhen and the sea.
  const r0 = Math.floor((90 - HK_BBOX.north) * 12),
    r1 = Math.floor((90 - HK_BBOX.south) * 12);
  const c0 = Math.floor((HK_BBOX.west + 180) * 12),
    c1 = Math.floor((HK_BBOX.east + 180) * 12);
  for (let r = r0; r <= r1; r++)
    for (let c = c0; c <= c1; c++) {
      let ev = 0,
        a = 0,
        sa = 0;
      for (let rr = Math.max(r0, r - R); rr <= Math.min(r1, r + R); rr++)
        for (let cc = Math.max(c0, c - R); cc <= Math.min(c1, c + R); cc++) {
          const k = rr * W5 + cc;
          ev += geoRate[k]!;
          a += ar[k]!;
          sa += sl[k]!;
        }
      p[r * W5 + c] = prob(r * W5 + c, ev, a, sa);
    }
  fillCoastalSeaCells(p, t.land);
  return p;
}

/**
 * Partly-sea coastal cells: a 5' cell the land mask calls sea can still hold the asset's land (waterfronts, reclamation).
 * Such a sea cell next to land takes the mean probability of its land neighbours (8-neighbourhood), so a site on land in
 * a coastal cell is treated as on land; the sampler answers 0 for points the 1:10m coastline puts at sea.
 */
export function fillCoastalSeaCells(p: Float32Array, land: Uint8Array): void {
  const src = Float32Array.from(p);
  for (let r = 1; r < H5 - 1; r++)
    for (let c = 0; c < W5; c++) {
      const i = r * W5 + c;
      if (land[i]) continue;
      let s = 0,
        n = 0;
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const k = (r + dr) * W5 + ((c + dc + W5) % W5);
          if (land[k]) {
            s += src[k]!;
            n++;
          }
        }
      if (n > 0) p[i] = s / n;
    }
}

/** Buildings Department: 43,163 private buildings (excluding New Territories Exempted Houses) at 31 Dec 2014. */
export const HK_PRIVATE_BUILDINGS = 43163;
const HK_SQUATTER = /squat|hut|shed|structure|licen[cs]ed/i;
const HK_VILLAGE = /village|NTEH|small house/i;
const HK_BUILDING =
  /\b(buildings?|houses?|flats?|storey|floors?|school|temple|monastery|premises|court|residential|residents|mansion|tower|church|hospital|shop|factory|kitchen|estate|families|persons)\b/i;
const HK_EVACUATED = /evacuat/i;
const HK_DAMAGED = /damag|collaps|buried|destroy|crack|undermin|demolish/i;

/**
 * Landslide building-hit calibration on the GEO catalogue's own consequence columns: an incident *affected a building*
 * when a clause of CONSEC names a building (building, house, flat, floor, school, residents, …; not a squatter hut or
 * licensed structure) together with its evacuation or damage; it *damaged* it when that clause reports damage,
 * collapse, burial, cracking or undermining. Village houses (NTEH) are counted apart, because the exposure (Buildings
 * Department count of private buildings) excludes them. Returns the counts and the rate per building per year.
 */
export function hkBuildingIncidents(dir: string) {
  const hk = readCsvRecords(dir, 'hk-geo-landslide-incidents-1984-2020/hk_landslide_incidents_1984_2020.csv.gz');
  const iC = hk.header.indexOf('CONSEC'),
    iF = hk.header.indexOf('FACAFF');
  let affected = 0,
    damaged = 0,
    village = 0,
    villageDamaged = 0;
  for (const r of hk.rows) {
    const cons = (r[iC] ?? '').trim();
    if (cons === '' || cons === '-' || /^nil$/i.test(cons)) continue;
    let isB = false,
      isD = false;
    for (const clause of cons.split(/[;,\n.]| and /)) {
      if (!HK_BUILDING.test(clause) || HK_SQUATTER.test(clause)) continue;
      if (HK_EVACUATED.test(clause) || HK_DAMAGED.test(clause)) {
        isB = true;
        if (HK_DAMAGED.test(clause)) isD = true;
      }
    }
    if (!isB) continue;
    if (HK_VILLAGE.test(cons) || HK_VILLAGE.test(r[iF] ?? '')) {
      village++;
      if (isD) villageDamaged++;
      continue;
    }
    affected++;
    if (isD) damaged++;
  }
  return {
    incidents: hk.rows.length,
    years: HK_GEO_YEARS,
    buildingsExposed: HK_PRIVATE_BUILDINGS,
    affectedBuildings: affected,
    damagedBuildings: damaged,
    affectedVillageHouses: village,
    damagedVillageHouses: villageDamaged,
    affectedPerBuildingYear: affected / HK_GEO_YEARS / HK_PRIVATE_BUILDINGS,
  };
}

/**
 * Mean landslide probability over the Hong Kong box's cells with a non-zero value (land and the partly-sea coastal cells
 * filled from their land neighbours): the catalogue's coverage. `scale` converts quantised values.
 */
/** Storage step of landslide_probability: 2e-5 so that p up to 1 fits uint16 (1e-5 clipped p at 0.655 before). */
export const LANDSLIDE_SCALE = 2e-5;

/**
 * The hit-rate calibration stored in params.json landslideCalibration: the GEO building counts, the GLC completeness
 * and the mean over the Hong Kong cells of the layer's p and of its expected count n = -ln(1 - p) (the engine turns p
 * back into n, so that hits scale with the number of landslides, not with p saturating at 1).
 */
export function landslideCalibration(dir: string, ls: Float32Array, glcC: ReturnType<typeof glcCompleteness>) {
  const hkB = hkBuildingIncidents(dir);
  const q = quantise('uint16', ls, LANDSLIDE_SCALE, 0, null);
  const hkP = hkMeanLandslideP(q, LANDSLIDE_SCALE);
  const hkN = hkMeanLandslideP(q, LANDSLIDE_SCALE, (p) => -Math.log1p(-Math.min(p, LANDSLIDE_P_MAX)));
  return {
    ...hkB,
    glcCompleteness: glcC,
    meanPHongKong: hkP.mean,
    meanNHongKong: hkN.mean,
    hongKongCells: hkP.cells,
    siteHitFractionPerLandslide: hkB.affectedPerBuildingYear / hkN.mean,
  };
}
/** Largest p the engine inverts (n = -ln(1 - p) <= 10.8); the same constant as engine LANDSLIDE_P_MAX. */
export const LANDSLIDE_P_MAX = 1 - 2e-5;

export function hkMeanLandslideP(p: ArrayLike<number>, scale = 1, f: (p: number) => number = (x) => x): { mean: number; cells: number } {
  const r0 = Math.floor((90 - HK_BBOX.north) * 12),
    r1 = Math.floor((90 - HK_BBOX.south) * 12);
  const c0 = Math.floor((HK_BBOX.west + 180) * 12),
    c1 = Math.floor((HK_BBOX.east + 180) * 12);
  let s = 0,
    n = 0;
  for (let r = r0; r <= r1; r++)
    for (let c = c0; c <= c1; c++) {
      const v = p[r * W5 + c]! * scale;
      if (v > 0) {
        s += f(v);
        n++;
      }
    }
  return { mean: s / n, cells: n };
}

// ---------------------------------------------------------------- main
export async function buildAll(dir = rawDir(), outDir = LAYERS_DIR) {
  if (!rawAvailable(dir)) throw new Error(`raw data not found in ${dir} (set HAZARD_RAW_DIR)`);
  mkdirSync(outDir, { recursive: true });
  const out: Out = { entries: [], dir: outDir };
  const t0 = Date.now();
  console.log(`[hazards] building layers from ${dir}`);

  const P = buildParams(dir);
  console.log('  chronic climate…');
  const ch = buildChronicArrays(dir);
  const regGrid = regionGrid(P.reg);
  const nO = CHRONIC_OFFSETS_C.length;
  const chronicSrc = ['ncep-reanalysis1-ltm', 'cmap-precip-ltm'];
  writeLayer(
    out,
    {
      name: 'tas_warm',
      dtype: 'int16',
      grid: GRID_05,
      bands: 1,
      scale: 0.01,
      offset: 0,
      nodata: -32768,
      unit: '°C',
      description: 'Warmest-month mean 2 m temperature 1991-2020',
      resolutionKm: 210,
      datasets: ['ncep-reanalysis1-ltm'],
    },
    quantise('int16', ch.warmC, 0.01, 0, -32768),
  );
  writeLayer(
    out,
    {
      name: 'tas_cold',
      dtype: 'int16',
      grid: GRID_05,
      bands: 1,
      scale: 0.01,
      offset: 0,
      nodata: -32768,
      unit: '°C',
      description: 'Coldest-month mean 2 m temperature 1991-2020',
      resolutionKm: 210,
      datasets: ['ncep-reanalysis1-ltm'],
    },
    quantise('int16', ch.coldC, 0.01, 0, -32768),
  );
  writeLayer(
    out,
    {
      name: 'precip_wet_month',
      dtype: 'uint16',
      grid: GRID_05,
      bands: 1,
      scale: 0.01,
      offset: 0,
      nodata: null,
      unit: 'mm/day',
      description: 'Mean daily precipitation of the wettest month 1981-2010',
      resolutionKm: 280,
      datasets: ['cmap-precip-ltm'],
    },
    quantise('uint16', ch.wetMonthMmDay, 0.01, 0, null),
  );
  writeLayer(
    out,
    {
      name: 'snowfall',
      dtype: 'uint16',
      grid: GRID_05,
      bands: nO,
      bandLabels: CHRONIC_OFFSETS_C,
      scale: 0.2,
      offset: 0,
      nodata: null,
      unit: 'mm/yr',
      description: 'Annual snowfall water equivalent at warming offsets (°C) of the monthly temperatures',
      resolutionKm: 280,
      datasets: chronicSrc,
    },
    quantise('uint16', ch.snowMm, 0.2, 0, null),
  );
  writeLayer(
    out,
    {
      name: 'aridity',
      dtype: 'uint16',
      grid: GRID_05,
      bands: nO,
      bandLabels: CHRONIC_OFFSETS_C,
      scale: 0.001,
      offset: 0,
      nodata: null,
      unit: 'P/PET',
      description: 'UNEP aridity index P/PET (Thornthwaite) at warming offsets (°C)',
      resolutionKm: 280,
      datasets: chronicSrc,
    },
    quantise('uint16', ch.aridity, 0.001, 0, null),
  );
  writeLayer(
    out,
    {
      name: 'fire_climate',
      dtype: 'uint16',
      grid: GRID_05,
      bands: nO,
      bandLabels: CHRONIC_OFFSETS_C,
      scale: 1e-4,
      offset: 0,
      nodata: null,
      unit: '-',
      description: 'Fire-climate factor: dry-season shape × Thornthwaite PET ratio at warming offsets (°C)',
      resolutionKm: 280,
      datasets: chronicSrc,
    },
    quantise('uint16', ch.fireClim, 1e-4, 0, null),
  );
  writeLayer(
    out,
    {
      name: 'ar6_region',
      dtype: 'uint8',
      grid: GRID_05,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: 255,
      unit: 'index',
      description: 'IPCC AR6 WGI reference region index (params.regions)',
      resolutionKm: 55,
      datasets: ['cmip6_regional_extremes_ar6'],
    },
    regGrid,
  );

  console.log('  sea level (PSMSL, ICE-5G GIA)…');
  const slr = buildSlrLayers(dir);
  for (const [e, d] of slr.layers) writeLayer(out, e, d);

  console.log('  land cover (MODIS)…');
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const cn = new Uint8Array(igbp.length),
    fuel = new Uint8Array(igbp.length);
  for (let i = 0; i < igbp.length; i++) {
    const k = igbp[i]!;
    cn[i] = IGBP_CURVE_NUMBER[k] ?? 0;
    fuel[i] = fuelCodeOf(k, Math.floor(i / 3600));
  }
  writeLayer(
    out,
    {
      name: 'curve_number',
      dtype: 'uint8',
      grid: GRID_01,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: 0,
      unit: 'CN',
      description: 'SCS curve number (TR-55, soil group C) from MODIS IGBP class',
      resolutionKm: 11,
      datasets: ['modis-landcover-igbp-0.1deg'],
    },
    cn,
  );
  writeLayer(
    out,
    {
      name: 'fuel',
      dtype: 'uint8',
      grid: GRID_01,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: null,
      unit: 'code',
      description:
        'Fuel code: 1 woody (IGBP 1-7; 8-10 outside the tropics), 2 grass-fuelled (IGBP 8-10 in the tropics), 3 cropland/natural-vegetation mosaic (IGBP 14), 0 other',
      resolutionKm: 11,
      datasets: ['modis-landcover-igbp-0.1deg'],
    },
    fuel,
  );
  const wildfireCalibration = calibrateWildfire(fuel, ch.fireClim, nO);
  console.log(
    `  wildfire: k woody ${wildfireCalibration.kWoody.toFixed(4)}, grass ${wildfireCalibration.kGrass.toFixed(4)}; landscape burned area ${(wildfireCalibration.burnedAreaKm2 / 1e6).toFixed(2)} Mkm²/yr`,
  );

  console.log('  terrain (ETOPO5)…');
  const t = loadTerrain(dir, igbp);
  const slope = slopeTan(t);
  // coastal tiles: 1° tiles with land within 60 km of the sea or sea next to land
  const tileIndex = new Int32Array(360 * 180).fill(-1);
  const tiles: number[] = [];
  for (let tr = 0; tr < 180; tr++)
    for (let tc = 0; tc < 360; tc++) {
      let keep = false;
      for (let r = tr * 12; r < tr * 12 + 12 && !keep; r++)
        for (let c = tc * 12; c < tc * 12 + 12; c++) {
          const i = r * W5 + c;
          if (t.land[i] && t.distKm[i]! <= 60) {
            keep = true;
            break;
          }
        }
      if (keep) {
        tileIndex[tr * 360 + tc] = tiles.length;
        tiles.push(tr * 360 + tc);
      }
    }
  const n144 = TILE_CELLS * TILE_CELLS;
  const tElev = new Int16Array(tiles.length * n144),
    tDist = new Uint8Array(tiles.length * n144);
  tiles.forEach((tile, ti) => {
    const tr = Math.floor(tile / 360),
      tc = tile % 360;
    for (let a = 0; a < 12; a++)
      for (let b = 0; b < 12; b++) {
        const i = (tr * 12 + a) * W5 + tc * 12 + b;
        tElev[ti * n144 + a * 12 + b] = Math.max(-32767, Math.min(32767, Math.round(t.elev[i]!)));
        tDist[ti * n144 + a * 12 + b] = t.land[i] ? Math.max(1, Math.min(255, Math.round(t.distKm[i]!))) : 0;
      }
  });
  writeLayer(
    out,
    {
      name: 'coast_tile_index',
      dtype: 'int32',
      grid: GRID_1,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: -1,
      unit: 'index',
      description: 'Index of the 12x12 5-minute coastal tile per 1° cell (-1: no coast within 60 km)',
      resolutionKm: 111,
      datasets: ['etopo5-global-dem'],
    },
    tileIndex,
  );
  writeLayer(
    out,
    {
      name: 'coast_elevation',
      dtype: 'int16',
      grid: GRID_5M,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: null,
      unit: 'm',
      description: 'ETOPO5 elevation in coastal tiles (tile-major, 144 cells per tile)',
      resolutionKm: 9.3,
      datasets: ['etopo5-global-dem'],
    },
    tElev,
  );
  writeLayer(
    out,
    {
      name: 'coast_distance',
      dtype: 'uint8',
      grid: GRID_5M,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: null,
      unit: 'km',
      description: 'Distance from land to the nearest ETOPO5 sea cell in coastal tiles (0 = sea)',
      resolutionKm: 9.3,
      datasets: ['etopo5-global-dem'],
    },
    tDist,
  );
  const shelf = buildShelfLayer(t, tiles);
  writeLayer(out, ...shelf.layer);

  console.log("  coastline distance (Natural Earth 1:10m, 1')…");
  const fc = buildFineCoast(dir, tiles);
  writeLayer(
    out,
    {
      name: 'coast_fine_tile_index',
      dtype: 'int32',
      grid: GRID_1,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: -1,
      unit: 'index',
      description: 'Index of the 60x60 1-minute coastline-distance tile per 1° cell (-1: no land within 20 km of the Natural Earth coastline)',
      resolutionKm: 111,
      datasets: ['natural-earth-10m-land'],
    },
    fc.tileIndex,
  );
  writeLayer(
    out,
    {
      name: 'coast_fine_distance',
      dtype: 'uint8',
      grid: GRID_1M,
      bands: 1,
      scale: FINE_SCALE_KM,
      offset: FINE_OFFSET_KM,
      nodata: FINE_NODATA,
      unit: 'km',
      description: `Signed distance to the Natural Earth 1:10m coastline (land +, sea −; tile-major, 3600 cells per tile; ${FINE_NODATA} = more than 20 km inland)`,
      resolutionKm: 1.9,
      datasets: ['natural-earth-10m-land'],
    },
    fc.codes,
  );

  console.log('  rivers (WDBII/Natural Earth network, drainage area, HAND)…');
  const rx5 = hkoRainfallStats(dir).rx5;
  const rv = buildRiverLayers(
    dir,
    t,
    rx5.map((v) => v / rx5[RPS.indexOf(100)]!),
  );
  for (const l of rv.layers) writeLayer(out, l.entry, l.data);

  console.log('  landslides…');
  const glcC = glcCompleteness(dir);
  const ls = buildLandslide(dir, t, slope, glcC.factor);
  const lsCal = landslideCalibration(dir, ls, glcC);
  console.log(`  landslide calibration: ${JSON.stringify(lsCal)}`);
  writeLayer(
    out,
    {
      name: 'landslide_probability',
      dtype: 'uint16',
      grid: GRID_5M,
      bands: 1,
      scale: LANDSLIDE_SCALE,
      offset: 0,
      nodata: null,
      unit: '1/yr',
      description:
        'Annual probability of a landslide within 1 km at the completeness of the Hong Kong GEO register (catalogue density × GLC completeness factor × relative ETOPO5 slope)',
      resolutionKm: 9.3,
      datasets: ['nasa-global-landslide-catalog-points', 'hk-geo-landslide-incidents-1984-2020', 'etopo5-global-dem'],
    },
    quantise('uint16', ls, LANDSLIDE_SCALE, 0, null),
  );

  console.log('  typhoon wind field over all best tracks…');
  const ty = buildTyphoonArrays(dir);
  writeLayer(
    out,
    {
      name: 'typhoon_rp',
      dtype: 'uint8',
      grid: GRID_025,
      bands: RPS.length,
      bandLabels: RPS,
      scale: 0.5,
      offset: 0,
      nodata: 255,
      unit: 'm/s',
      description: '1-min sustained 10 m wind at return periods (Holland wind field over best tracks, GPD tail); 255 = outside the basins with tracks',
      resolutionKm: 28,
      datasets: [...new Set(ty.sources.map((x) => x.dataset))],
    },
    quantise('uint8', ty.rp, 0.5, 0, 255),
  );
  writeLayer(
    out,
    {
      name: 'typhoon_basin',
      dtype: 'uint8',
      grid: GRID_025,
      bands: 1,
      scale: 1,
      offset: 0,
      nodata: 0,
      unit: 'index',
      description: 'Dominant TC basin (params.typhoonBasins)',
      resolutionKm: 28,
      datasets: [...new Set(ty.sources.map((x) => x.dataset))],
    },
    ty.basin,
  );

  const hko = hkoRainfallStats(dir);
  // HK wettest-month daily rate from the CMAP layer (0.5° cell containing HKO headquarters, 22.30N 114.17E)
  const hkCell = Math.floor((90 - 22.3) / 0.5) * W05 + Math.floor((114.17 + 180) / 0.5);
  const hkWet = ch.wetMonthMmDay[hkCell]!;
  const params = {
    version: 1,
    returnPeriodsYears: RPS,
    gsat: P.gsat,
    baselineGwlC: 0.85,
    gmsl: P.gmsl,
    regions: P.reg.regions.map((r) => ({ abbrev: r.abbrev, name: r.name })),
    regionalDeltas: P.deltas,
    globalDeltas: P.globals,
    winterTas: winterTasParams(P.reg.regions.map((r) => r.abbrev)),
    knutsonIntensityPct: KNUTSON_INTENSITY_PCT,
    typhoonBasins: TYPHOON_BASINS,
    typhoonSources: ty.sources,
    typhoonSmoothingSigmaKm: ty.smoothingSigmaKm,
    chronicOffsetsC: CHRONIC_OFFSETS_C,
    wildfireCalibration,
    hko: { years: hko.years, gev1: hko.gev1, gev5: hko.gev5, rx1Mm: hko.rx1, rx5Mm: hko.rx5, maxObserved1Mm: hko.maxObserved1, cmapWetMonthMmDay: hkWet },
    /** Ratio of the T-year daily rainfall to the wettest-month mean daily rate, calibrated at HKO. */
    rainfallRatio: hko.rx1.map((v) => v / hkWet),
    /** 5-day rainfall growth curve R5_T / R5_100 at HKO. */
    riverGrowth: hko.rx5.map((v) => v / hko.rx5[RPS.indexOf(100)]!),
    /** D-day rainfall growth curves R_D,T / R_D,100 at HKO, by basin response time (river flood §3.4). */
    riverGrowthByDuration: hkoDurationGrowth(dir),
    riverStage: rv.params,
    drainageDesignRpYears: 10,
    landslideFootprintKm: 1,
    landslideCalibration: lsCal,
    ...slr.params,
    ...shelf.params,
    /** IPCC AR6 WGI Table 9.9 GMSL median and likely (17-83 %) range, m relative to 1995-2014. */
    gmslLikely: gmslLikelyTable(dir),
  };
  writeFileSync(join(outDir, 'params.json'), JSON.stringify(params, null, 1));
  // which hazards (indicator, unit) each layer serves; scenario and year coverage
  const layersOut = out.entries.map((e) => {
    const hz = HAZARD_KEYS.filter((k) => HAZARD_META[k].layers.includes(e.name));
    return {
      ...e,
      hazards: hz.map((k) => ({ hazard: k, indicator: HAZARD_INDICATORS[k].indicator, unit: HAZARD_INDICATORS[k].unit, tier: HAZARD_META[k].tier })),
      scenarios: ['SSP1-2.6', 'SSP2-4.5', 'SSP5-8.5', 'RCP2.6→SSP1-2.6', 'RCP4.5→SSP2-4.5', 'RCP8.5→SSP5-8.5'],
      years: { from: 2020, to: 2100, note: 'baseline layer; scenario and year applied at query time through the global warming level (params.json)' },
      licenses: [...new Set(e.datasets.map((d) => DATASETS[d]!.license))],
      citations: [...new Set(e.datasets.map((d) => DATASETS[d]!.citation))],
    };
  });
  const manifest = {
    name: '@crp/hazards layers',
    formatVersion: 1,
    rawDirHint: '../shared/data',
    generator: 'packages/hazards/scripts/build-layers.ts',
    returnPeriodsYears: RPS,
    layers: layersOut,
    datasets: DATASETS,
    totalBytesGz: out.entries.reduce((a, e) => a + (e.bytesGz ?? 0), 0),
    // the historical track archive is written by build-tracks.ts (run next by hazards:build); keep its entry meanwhile
    ...(existsSync(join(outDir, 'manifest.json'))
      ? { tracks: (JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as { tracks?: unknown }).tracks }
      : {}),
  };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  console.log(`[hazards] ${out.entries.length} layers, ${(manifest.totalBytesGz / 1e6).toFixed(2)} MB gz, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildAll().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
