/**
 * Synthetic-track wind return levels (issue 35 item 1): every staged best track perturbed into synthetic members
 * (scripts/lib/synthetic.ts, after CLIMADA's tc_tracks_synth) so that each source holds at least SYNTH_YEARS (10,000)
 * years of events, the Holland wind field of scripts/lib/typhoon.ts run over every member, and the wind at the return
 * periods read empirically from the synthetic exceedance rates (no GPD tail, no 48 km smoothing: the perturbation
 * replaces both). Run after build-layers.ts (it reads the land mask from layers/curve_number and rewrites
 * layers/typhoon_rp): npm run build:synthetic -w @crp/hazards (root `npm run hazards:build` runs it last).
 *
 * Compute on 2 cores: the wind field is evaluated on the 0.5° grid (cell centres) at 25 km steps along each track,
 * only in 0.5° cells with land in the cell or one of its eight neighbours (where assets and the coastal surge are);
 * the 0.25° layer takes the bilinear interpolation of the four surrounding 0.5° centres (0 where it falls below 17.5 m/s). Open-ocean cells away from
 * land keep the historical levels (Holland over best tracks, 48 km smoothing, GPD tail).
 *
 * Each basin's rate is the mean of its agencies (as in the historical layer): a source of Y years with n synthetic
 * members per track (plus the track itself) gives (n + 1)·Y years of events, each weighted 1/((n + 1)·Y·sources);
 * n is the same for the sources of a basin, the smallest with (n + 1)·ΣY ≥ SYNTH_YEARS (WP: three agencies' records
 * of the same storms pooled, NI two; the other basins one source each).
 * Seeded: member m of storm i of source s draws from a generator seeded by (SEED, s, i).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { HAZARD_RETURN_PERIODS_YEARS } from '@crp/contracts';
import { GRID_01, GRID_025, GRID_05, fromBytes, sha256, toBytes } from '../src/layer-format.js';
import { rawDir } from './lib/io.js';
import { allSources, type Storm, type TrackSource } from './lib/tracks.js';
import { NB, KM_LAT, KM_LON_EQ, MAX_DIST_KM, WIND_THRESHOLD_MS, outerRadiusKm, stormSteps, windAt, type Bbox, type StepParams } from './lib/typhoon.js';
import { perturbStorm, Rng, type LandTest } from './lib/synthetic.js';
import { LAYERS_DIR } from './build-layers.js';

const RPS = [...HAZARD_RETURN_PERIODS_YEARS];
export const SYNTH_YEARS = Number(process.env.SYNTH_YEARS ?? 10000);
export const SYNTH_SEED = Number(process.env.SYNTH_SEED ?? 35);
export const SYNTH_STEP_KM = 25;
const G = GRID_05;
const RES = G.resDeg,
  GW = G.width;
/** Rows of the 0.5° grid evaluated: 62°N to 62°S (as the historical layer). */
const R0 = Math.floor((90 - 62) / RES),
  R1 = Math.ceil((90 + 62) / RES);

interface LayerFileEntry {
  name: string;
  file: string;
  sha256: string;
  bytesRaw: number;
  bytesGz: number;
  description: string;
}

export function readLayer(dir: string, name: string): Uint8Array {
  return fromBytes('uint8', gunzipSync(readFileSync(join(dir, `${name}.bin.gz`)))) as Uint8Array;
}

/** MODIS IGBP land (curve_number ≠ 0) on the 0.1° grid as a point test, and the 0.5° evaluation mask. */
export function landMasks(dir: string): { onLand: LandTest; evalIndex: Int32Array; nEval: number } {
  const cn = readLayer(dir, 'curve_number');
  const W1 = GRID_01.width,
    H1 = GRID_01.height;
  const onLand: LandTest = (lat, lon) => {
    const r = Math.floor((90 - lat) / 0.1),
      c = Math.floor((lon + 180) / 0.1);
    if (r < 0 || r >= H1) return false;
    return cn[r * W1 + (((c % W1) + W1) % W1)]! !== 0;
  };
  const land05 = new Uint8Array(GW * G.height);
  for (let r = 0; r < H1; r++) for (let c = 0; c < W1; c++) if (cn[r * W1 + c]! !== 0) land05[Math.floor(r / 5) * GW + Math.floor(c / 5)] = 1;
  const evalIndex = new Int32Array(GW * G.height).fill(-1);
  let nEval = 0;
  for (let r = R0; r < R1; r++)
    for (let c = 0; c < GW; c++) {
      let any = false;
      for (let dr = -1; dr <= 1 && !any; dr++)
        for (let dc = -1; dc <= 1 && !any; dc++) {
          const rr = r + dr;
          if (rr >= 0 && rr < G.height && land05[rr * GW + ((((c + dc) % GW) + GW) % GW)]) any = true;
        }
      if (any) evalIndex[r * GW + c] = nEval++;
    }
  return { onLand, evalIndex, nEval };
}

/** 5×5 blocks of 0.5° cells holding at least one evaluated cell (a quick reject of steps far from land). */
const BLOCK = 5;
export function blockMask(evalIndex: Int32Array): Uint8Array {
  const bw = Math.ceil(GW / BLOCK),
    bh = Math.ceil(G.height / BLOCK);
  const m = new Uint8Array(bw * bh);
  for (let r = 0; r < G.height; r++) for (let c = 0; c < GW; c++) if (evalIndex[r * GW + c]! >= 0) m[Math.floor(r / BLOCK) * bw + Math.floor(c / BLOCK)] = 1;
  return m;
}

function nearEvalCells(s: StepParams, blocks: Uint8Array): boolean {
  const bw = Math.ceil(GW / BLOCK);
  const dLat = MAX_DIST_KM / KM_LAT,
    dLon = MAX_DIST_KM / (KM_LON_EQ * Math.max(0.2, Math.cos((s.lat * Math.PI) / 180)));
  const b0 = Math.floor(Math.max(0, (90 - (s.lat + dLat)) / RES) / BLOCK),
    b1 = Math.floor(Math.min(G.height - 1, (90 - (s.lat - dLat)) / RES) / BLOCK);
  const c0 = Math.floor((s.lon - dLon + 180) / RES),
    c1 = Math.floor((s.lon + dLon + 180) / RES);
  for (let br = b0; br <= b1; br++)
    for (let cc = Math.floor(c0 / BLOCK); cc <= Math.floor(c1 / BLOCK); cc++) if (blocks[br * bw + (((cc % bw) + bw) % bw)]) return true;
  return false;
}

function paint(s: StepParams, evalIndex: Int32Array, blocks: Uint8Array, stormMax: Float32Array, list: number[]): void {
  if (!nearEvalCells(s, blocks)) return;
  const rOut = outerRadiusKm(s);
  const cosLat = Math.cos((s.lat * Math.PI) / 180);
  const dLat = rOut / KM_LAT,
    dLon = rOut / (KM_LON_EQ * Math.max(0.2, cosLat));
  const r0 = Math.max(R0, Math.floor((90 - (s.lat + dLat)) / RES)),
    r1 = Math.min(R1 - 1, Math.floor((90 - (s.lat - dLat)) / RES));
  const c0 = Math.floor((s.lon - dLon + 180) / RES),
    c1 = Math.floor((s.lon + dLon + 180) / RES);
  for (let row = r0; row <= r1; row++) {
    const latC = 90 - (row + 0.5) * RES;
    const dy = (latC - s.lat) * KM_LAT;
    const kmLon = KM_LON_EQ * Math.cos((((latC + s.lat) / 2) * Math.PI) / 180);
    for (let cc = c0; cc <= c1; cc++) {
      const col = ((cc % GW) + GW) % GW;
      const k = evalIndex[row * GW + col]!;
      if (k < 0) continue;
      let dl = -180 + (col + 0.5) * RES - s.lon;
      if (dl > 180) dl -= 360;
      if (dl < -180) dl += 360;
      const dx = dl * kmLon;
      if (dx * dx + dy * dy > rOut * rOut) continue;
      const v = windAt(s, dx, dy);
      if (v < WIND_THRESHOLD_MS) continue;
      const prev = stormMax[k]!;
      if (prev === 0) list.push(k);
      if (v > prev) stormMax[k] = v;
    }
  }
}

/** Whether any segment of a track comes within 3.5° (the 300 km wind-field reach and half a cell) of a box. */
function reaches(st: Storm, b: Bbox): boolean {
  const m = 3.5;
  const f = st.fixes;
  for (let i = 0; i < f.length; i++) {
    const a = f[i]!,
      c = f[Math.min(i + 1, f.length - 1)]!;
    if (Math.abs(a.lon - c.lon) > 180) return true; // across the antimeridian: do not filter
    if (
      Math.max(a.lat, c.lat) >= b.south - m &&
      Math.min(a.lat, c.lat) <= b.north + m &&
      Math.max(a.lon, c.lon) >= b.west - m &&
      Math.min(a.lon, c.lon) <= b.east + m
    )
      return true;
  }
  return false;
}

/** Seed of storm i of a source: FNV-1a of the source key mixed with the run seed and the storm index. */
function stormSeed(seed: number, key: string, i: number): number {
  let h = 2166136261 ^ seed;
  for (const ch of `${key}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

export interface SyntheticSourceInfo {
  key: string;
  group: string;
  years: number;
  storms: number;
  members: number;
  syntheticYears: number;
  events: number;
  seconds: number;
}

/** The synthetic rate histogram (events/yr per 1 m/s bin from 17.5 m/s) of every evaluated 0.5° cell. */
/**
 * The synthetic rate histogram (events/yr per 1 m/s bin from 17.5 m/s) of every evaluated 0.5° cell: each source's
 * histogram computed on its own, then added in source order (so a build split over processes gives the same bytes).
 * SYNTH_CACHE_DIR keeps each source's histogram in a file (and reuses it); SYNTH_ONLY=key,key computes only those
 * sources (to run a build as several processes on a shared machine; a final run without SYNTH_ONLY assembles them).
 */
export function syntheticHistogram(
  sources: TrackSource[],
  onLand: LandTest,
  evalIndex: Int32Array,
  nEval: number,
  years = SYNTH_YEARS,
  seed = SYNTH_SEED,
  near?: Bbox,
  cache?: { dir: string; only?: string[] },
): { hist: Float32Array; info: SyntheticSourceInfo[] } {
  const hist = new Float32Array(nEval * NB);
  const info: SyntheticSourceInfo[] = [];
  const blocks = blockMask(evalIndex);
  for (const g of ['WP', 'NA', 'EP', 'NI', 'SH']) {
    const members = sources.filter((s) => s.group === g);
    for (const src of members) {
      if (cache?.only && !cache.only.includes(src.key)) continue;
      const Y = src.endYear - src.startYear + 1;
      const basinYears = members.reduce((a, x) => a + x.endYear - x.startYear + 1, 0);
      const n = Math.max(0, Math.ceil(years / basinYears) - 1);
      const file = cache ? join(cache.dir, `${src.key}-s${seed}-y${years}-n${nEval}.bin`) : '';
      let one: { h: Float32Array; info: SyntheticSourceInfo };
      if (cache && existsSync(file) && existsSync(file + '.json')) {
        one = { h: new Float32Array(new Uint8Array(readFileSync(file)).buffer), info: JSON.parse(readFileSync(file + '.json', 'utf8')) as SyntheticSourceInfo };
      } else {
        one = sourceHistogram(src, g, n, 1 / ((n + 1) * Y * members.length), onLand, evalIndex, blocks, nEval, seed, near);
        if (cache) {
          writeFileSync(file, Buffer.from(one.h.buffer));
          writeFileSync(file + '.json', JSON.stringify(one.info));
        }
      }
      for (let i = 0; i < hist.length; i++) hist[i]! += one.h[i]!;
      info.push(one.info);
    }
  }
  return { hist, info };
}

function sourceHistogram(
  src: TrackSource,
  g: string,
  n: number,
  weight: number,
  onLand: LandTest,
  evalIndex: Int32Array,
  blocks: Uint8Array,
  nEval: number,
  seed: number,
  near?: Bbox,
): { h: Float32Array; info: SyntheticSourceInfo } {
  const t0 = Date.now();
  const h = new Float32Array(nEval * NB);
  const stormMax = new Float32Array(nEval);
  const list: number[] = [];
  const Y = src.endYear - src.startYear + 1;
  let events = 0;
  src.storms.forEach((storm, i) => {
    const rng = new Rng(stormSeed(seed, src.key, i));
    for (let m = 0; m <= n; m++) {
      const st = m === 0 ? storm : perturbStorm(storm, rng, onLand);
      if (near && !reaches(st, near)) continue;
      stormSteps(st, SYNTH_STEP_KM, (s) => paint(s, evalIndex, blocks, stormMax, list));
      if (list.length) events++;
      for (const k of list) {
        const v = stormMax[k]!;
        stormMax[k] = 0;
        h[k * NB + Math.min(NB - 1, Math.floor(v - WIND_THRESHOLD_MS))]! += weight;
      }
      list.length = 0;
    }
  });
  const seconds = (Date.now() - t0) / 1000;
  console.log(
    `  synthetic ${src.key}: ${src.storms.length} storms × ${n + 1} (${(n + 1) * Y} years), ${events} events touching land cells, ${seconds.toFixed(1)} s`,
  );
  return { h, info: { key: src.key, group: g, years: Y, storms: src.storms.length, members: n, syntheticYears: (n + 1) * Y, events, seconds } };
}

/**
 * Return levels from a rate histogram read empirically: the wind whose exceedance rate is 1/T, log-linear in the rate
 * within the 1 m/s bin (linear to 0 at the top edge of the highest occupied bin); 0 when the rate of winds ≥ 17.5 m/s
 * is below 1/T.
 */
export function empiricalReturnLevels(h: Float32Array, rps: readonly number[]): number[] {
  const ex = new Float64Array(NB + 1);
  for (let i = NB - 1; i >= 0; i--) ex[i] = ex[i + 1]! + h[i]!;
  return rps.map((T) => {
    const target = 1 / T;
    if (!(ex[0]! >= target)) return 0;
    let i = 0;
    while (i + 1 < NB && ex[i + 1]! >= target) i++;
    const a = ex[i]!,
      b = ex[i + 1]!;
    const f = b > 0 ? Math.log(a / target) / Math.log(a / b) : (a - target) / a;
    return WIND_THRESHOLD_MS + i + Math.min(1, Math.max(0, f));
  });
}

/** The 0.25° layer: bilinear from the 0.5° synthetic levels where all four centres were evaluated, else `fallback`. */
export function toQuarterDegree(levels05: Float32Array, evalIndex: Int32Array, fallback: Uint8Array, nR: number): Uint8Array {
  const W = GRID_025.width,
    H = GRID_025.height;
  const out = new Uint8Array(fallback);
  let replaced = 0;
  for (let r = 0; r < H; r++) {
    const lat = 90 - (r + 0.5) * 0.25;
    const fr = (90 - lat) / RES - 0.5;
    const ra = Math.floor(fr),
      wr = fr - ra;
    if (ra < R0 || ra + 1 >= R1) continue;
    for (let c = 0; c < W; c++) {
      const lon = -180 + (c + 0.5) * 0.25;
      const fc = (lon + 180) / RES - 0.5;
      const ca = Math.floor(fc),
        wc = fc - ca;
      const ks = [
        evalIndex[ra * GW + ((ca + GW) % GW)]!,
        evalIndex[ra * GW + ((ca + 1 + GW) % GW)]!,
        evalIndex[(ra + 1) * GW + ((ca + GW) % GW)]!,
        evalIndex[(ra + 1) * GW + ((ca + 1 + GW) % GW)]!,
      ];
      if (ks.some((k) => k < 0)) continue;
      const w = [(1 - wr) * (1 - wc), (1 - wr) * wc, wr * (1 - wc), wr * wc];
      const cell = r * W + c;
      const any = ks.some((k) => levels05[k * nR + nR - 1]! > 0);
      if (!any && fallback[cell * nR]! === 255) continue; // no storm in either set: stays "outside the basins"
      for (let j = 0; j < nR; j++) {
        let v = 0;
        for (let q = 0; q < 4; q++) v += w[q]! * levels05[ks[q]! * nR + j]!;
        // between a centre with no storm at this period (0) and one with a level, the mix is not a wind: below the
        // 17.5 m/s threshold it is 0, as at the centres
        out[cell * nR + j] = v < WIND_THRESHOLD_MS ? 0 : Math.min(254, Math.round(v / 0.5));
      }
      replaced++;
    }
  }
  console.log(`  synthetic levels written to ${replaced} cells of 0.25°`);
  return out;
}

/** Return levels (m/s, [cell·nRP + k]) of the evaluated 0.5° cells from the synthetic set. */
export function syntheticLevels(
  sources: TrackSource[],
  onLand: LandTest,
  evalIndex: Int32Array,
  nEval: number,
  near?: Bbox,
  cache?: { dir: string; only?: string[] },
) {
  const { hist, info } = syntheticHistogram(sources, onLand, evalIndex, nEval, SYNTH_YEARS, SYNTH_SEED, near, cache);
  const nR = RPS.length;
  const levels = new Float32Array(nEval * nR);
  for (let k = 0; k < nEval; k++) {
    const lv = empiricalReturnLevels(hist.subarray(k * NB, (k + 1) * NB), RPS);
    for (let j = 0; j < nR; j++) levels[k * nR + j] = lv[j]!;
  }
  return { levels, info };
}

/** The evaluation mask limited to the 0.5° cells whose centres lie in a box (regional rebuilds in tests). */
export function restrictEval(evalIndex: Int32Array, west: number, south: number, east: number, north: number): { evalIndex: Int32Array; nEval: number } {
  const out = new Int32Array(evalIndex.length).fill(-1);
  let n = 0;
  for (let r = 0; r < G.height; r++)
    for (let c = 0; c < GW; c++) {
      const lat = 90 - (r + 0.5) * RES,
        lon = -180 + (c + 0.5) * RES;
      if (evalIndex[r * GW + c]! >= 0 && lat >= south && lat <= north && lon >= west && lon <= east) out[r * GW + c] = n++;
    }
  return { evalIndex: out, nEval: n };
}

export function buildSynthetic(dir = rawDir(), outDir = LAYERS_DIR) {
  const t0 = Date.now();
  const sources = allSources(dir);
  const { onLand, evalIndex, nEval } = landMasks(outDir);
  console.log(`  ${nEval} cells of 0.5° evaluated (land within one cell)`);
  const cacheDir = process.env.SYNTH_CACHE_DIR;
  const only = process.env.SYNTH_ONLY?.split(',').filter(Boolean);
  const cache = cacheDir ? { dir: cacheDir, ...(only ? { only } : {}) } : undefined;
  if (only && cache) {
    syntheticHistogram(sources, onLand, evalIndex, nEval, SYNTH_YEARS, SYNTH_SEED, undefined, cache);
    console.log(`[synthetic] ${only.join(', ')} kept in ${cacheDir}; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return;
  }
  const { levels, info } = syntheticLevels(sources, onLand, evalIndex, nEval, undefined, cache);
  const historical = readLayer(outDir, 'typhoon_rp');
  const layer = toQuarterDegree(levels, evalIndex, historical, RPS.length);
  const raw = toBytes(layer);
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(join(outDir, 'typhoon_rp.bin.gz'), gz);
  const manifestPath = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { layers: LayerFileEntry[] };
  const e = manifest.layers.find((l) => l.name === 'typhoon_rp')!;
  Object.assign(e, {
    sha256: sha256(raw),
    bytesRaw: raw.byteLength,
    bytesGz: gz.byteLength,
    description:
      '1-min sustained 10 m wind at return periods: Holland wind field over ≥ 10,000 years of synthetic tracks per source (best tracks perturbed after CLIMADA tc_tracks_synth) near land; historical tracks with GPD tail over open ocean; 255 = outside the basins with tracks',
  });
  (manifest as { totalBytesGz?: number }).totalBytesGz = manifest.layers.reduce((a, l) => a + (l.bytesGz ?? 0), 0);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  const paramsPath = join(outDir, 'params.json');
  const params = JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, unknown>;
  params.typhoonSynthetic = {
    algorithm: 'CLIMADA tc_tracks_synth (random walk of genesis and heading, landfall decay), scripts/lib/synthetic.ts',
    seed: SYNTH_SEED,
    yearsPerSource: SYNTH_YEARS,
    gridDeg: RES,
    stepKm: SYNTH_STEP_KM,
    sources: info,
    /** wall seconds of this run, and the sum of the sources' own wall seconds (the same when nothing came from SYNTH_CACHE_DIR) */
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    sourceSeconds: Math.round(info.reduce((a, x) => a + x.seconds, 0)),
    layerSha256: createHash('sha256').update(raw).digest('hex'),
  };
  writeFileSync(paramsPath, JSON.stringify(params, null, 1));
  console.log(`[synthetic] ${info.reduce((a, s) => a + s.events, 0)} events, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildSynthetic();
