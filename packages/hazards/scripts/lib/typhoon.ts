/**
 * Tropical-cyclone wind hazard: a parametric Holland wind field run over every staged best track, per-cell storm
 * maxima, exceedance rates averaged over the agencies of a basin, and a generalised Pareto tail (peaks over threshold)
 * giving the 1-minute sustained 10 m wind at return periods.
 *
 * Wind field (per interpolated fix), following CLIMADA's H08/H10 family:
 *   Δp = p_env − p_c, p_env = 1010 hPa (CLIMADA default); when p_c is missing, Atkinson & Holliday (1977):
 *        V[kt] = 6.7·Δp^0.644 → Δp = (V/6.7)^(1/0.644).
 *   b_s = −4.4e-5·Δp² + 0.01·Δp + 0.03·∂p_c/∂t − 0.014·|φ| + 0.15·v_t^x + 1.0, x = 0.6·(1 − Δp/215), clipped to [1, 2.5]
 *        (Holland 2008, MWR 136:3432).
 *   R_max from the JTWC MRD column when given, else Willoughby, Darling & Rahn (2006) eq. 7a:
 *        R_max[km] = 46.4·exp(−0.0155·V_max + 0.0169·|φ|).
 *   V_sym(r) = v_ms·[(R_max/r)^b_s·exp(1 − (R_max/r)^b_s)]^x (Holland, Belanger & Fritz 2010 profile): x = 0.5 inside
 *        R_max; outside, x_n fitted to the observed 34/50/64-kt wind radii where the best track gives them (JTWC b-decks,
 *        HURDAT2 from 2004), else 0.5 (Holland 1980 shape). Anchored to the best-track maximum: v_ms = V_max − v_t.
 *   Total wind = |V_sym·ê_θ + min(1, R_max/r)·v_t| (translation added with Mouton & Nordbeck 2005 decay, as CLIMADA).
 *   Winds below 17.5 m/s are dropped; the field is evaluated to 300 km from the eye (CLIMADA defaults).
 */
import type { Fix, Storm, TrackSource } from './tracks.js';
import { KT } from './tracks.js';
import { GRID_025 } from '../../src/layer-format.js';

export const P_ENV_HPA = 1010;
export const WIND_THRESHOLD_MS = 17.5;
export const MAX_DIST_KM = 300;
export const NB = 80; // 1 m/s bins from 17.5 m/s
const W = GRID_025.width,
  H = GRID_025.height,
  RES = GRID_025.resDeg;
/** Rows of the 0.25° grid kept in the wind computation: 62°N to 62°S. */
export const ROW0 = Math.floor((90 - 62) / RES),
  ROW1 = Math.ceil((90 + 62) / RES);
export const KM_LAT = 110.57,
  KM_LON_EQ = 111.32;

export function dpFromWindHpa(vMs: number): number {
  return Math.pow(vMs / KT / 6.7, 1 / 0.644);
}
export function rmaxWilloughbyKm(vMs: number, latDeg: number): number {
  return 46.4 * Math.exp(-0.0155 * vMs + 0.0169 * Math.abs(latDeg));
}
export function hollandBs(dpHpa: number, dpdtHpaH: number, latDeg: number, vtMs: number): number {
  const x = 0.6 * (1 - dpHpa / 215);
  const b = -4.4e-5 * dpHpa * dpHpa + 0.01 * dpHpa + 0.03 * dpdtHpaH - 0.014 * Math.abs(latDeg) + 0.15 * Math.pow(Math.max(vtMs, 0), x) + 1.0;
  return Math.min(2.5, Math.max(1.0, b));
}

export interface Bbox {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface StepParams {
  lat: number;
  lon: number;
  vms: number;
  rmax: number;
  b: number;
  vtx: number;
  vty: number;
  vmax: number;
  xOut: number;
}

/** Symmetric + translational wind (m/s) at (dxKm east, dyKm north) from the eye. */
export function windAt(s: StepParams, dxKm: number, dyKm: number): number {
  const r = Math.max(0.5, Math.hypot(dxKm, dyKm));
  const q = Math.pow(s.rmax / r, s.b);
  const f = q * Math.exp(1 - q);
  const vsym = s.vms * (r <= s.rmax ? Math.sqrt(f) : Math.pow(f, s.xOut));
  const sgn = s.lat >= 0 ? 1 : -1; // counter-clockwise in the NH
  const ex = (-dyKm / r) * sgn,
    ey = (dxKm / r) * sgn;
  const dec = Math.min(1, s.rmax / r);
  return Math.hypot(vsym * ex + dec * s.vtx, vsym * ey + dec * s.vty);
}

/** Wind thresholds (m/s) of the 34, 50 and 64 kt radii. */
const RADII_MS = [34 * KT, 50 * KT, 64 * KT];

/**
 * Holland, Belanger & Fritz (2010) outer exponent x_n fitted (least squares in log wind) so that the symmetric profile
 * passes through the observed mean 34/50/64-kt radii: x = Σ ln(V_k/v_ms)·ln f(R_k) / Σ ln f(R_k)², f = q·e^(1−q),
 * q = (R_max/R)^b. Clipped to [0.15, 0.9]; 0.5 (Holland 1980 shape) without radii.
 */
export function fitOuterExponent(vms: number, rmax: number, b: number, radiiKm: number[]): number {
  let num = 0,
    den = 0;
  radiiKm.forEach((R, k) => {
    const V = RADII_MS[k]!;
    if (!(R > rmax * 1.2) || !(V < vms)) return;
    const q = Math.pow(rmax / R, b);
    const lf = Math.log(q * Math.exp(1 - q));
    num += Math.log(V / vms) * lf;
    den += lf * lf;
  });
  return den > 0 ? Math.min(0.9, Math.max(0.15, num / den)) : 0.5;
}

function interpFixes(a: Fix, b: Fix, k: number, n: number): { lat: number; lon: number; v: number; p: number; rmw: number; radii: number[] } {
  const t = k / n;
  let dlon = b.lon - a.lon;
  if (dlon > 180) dlon -= 360;
  if (dlon < -180) dlon += 360;
  let lon = a.lon + dlon * t;
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
  const mix = (x: number, y: number) => (Number.isFinite(x) && Number.isFinite(y) ? x + (y - x) * t : Number.isFinite(x) ? x : y);
  const radii = [mix(a.r34Km ?? NaN, b.r34Km ?? NaN), mix(a.r50Km ?? NaN, b.r50Km ?? NaN), mix(a.r64Km ?? NaN, b.r64Km ?? NaN)];
  return { lat: a.lat + (b.lat - a.lat) * t, lon, v: mix(a.vMs, b.vMs), p: mix(a.pHpa, b.pHpa), rmw: mix(a.rmwKm, b.rmwKm), radii };
}

/**
 * Run the wind field over every storm of a source and add each storm's per-cell maximum wind to the rate histogram
 * with weight `weight` (events per year). `onlyCells` limits the cells evaluated (for regional rebuilds).
 */
export function accumulateSource(
  src: TrackSource,
  hist: Float32Array,
  groupRate: Float32Array,
  weight: number,
  touched: Uint8Array,
  bbox?: Bbox,
): { stormsUsed: number; maxWindMs: number } {
  const stormMax = new Float32Array(W * H);
  const list: number[] = [];
  let maxWind = 0,
    used = 0;
  for (const storm of src.storms) {
    if (runStorm(storm, stormMax, list, bbox)) used++;
    for (const c of list) {
      const v = stormMax[c]!;
      stormMax[c] = 0;
      if (v < WIND_THRESHOLD_MS) continue;
      touched[c] = 1;
      if (v > maxWind) maxWind = v;
      const bin = Math.min(NB - 1, Math.floor(v - WIND_THRESHOLD_MS));
      const row = Math.floor(c / W);
      hist[((row - ROW0) * W + (c % W)) * NB + bin]! += weight;
      groupRate[c]! += weight;
    }
    list.length = 0;
  }
  return { stormsUsed: used, maxWindMs: maxWind };
}

function runStorm(storm: Storm, stormMax: Float32Array, list: number[], bbox?: Bbox): boolean {
  let any = false;
  stormSteps(storm, 15, (s) => {
    if (paintStep(s, stormMax, list, bbox)) any = true;
  });
  return any;
}

/**
 * The wind-field parameters of every interpolated step of a storm (fixes interpolated every `stepKm` along the track):
 * Holland B, R_max, the outer exponent fitted to the wind radii and the translation vector. The historical layer uses
 * 15 km steps on its 0.25° grid; the synthetic set (synthetic.ts) 25 km steps on its 0.5° grid.
 */
export function stormSteps(storm: Storm, stepKm: number, onStep: (s: StepParams) => void): void {
  const fx = storm.fixes.filter((f) => Number.isFinite(f.vMs) && Number.isFinite(f.lat) && Number.isFinite(f.lon));
  for (let i = 0; i + 1 < fx.length; i++) {
    const a = fx[i]!,
      b = fx[i + 1]!;
    const dtH = b.tH - a.tH;
    if (dtH <= 0 || dtH > 24) continue;
    if (a.vMs < WIND_THRESHOLD_MS && b.vMs < WIND_THRESHOLD_MS) continue;
    const latM = (a.lat + b.lat) / 2;
    let dlon = b.lon - a.lon;
    if (dlon > 180) dlon -= 360;
    if (dlon < -180) dlon += 360;
    const dxKm = dlon * KM_LON_EQ * Math.cos((latM * Math.PI) / 180),
      dyKm = (b.lat - a.lat) * KM_LAT;
    const distKm = Math.hypot(dxKm, dyKm);
    const vtx = (dxKm * 1000) / (dtH * 3600),
      vty = (dyKm * 1000) / (dtH * 3600);
    const vt = Math.hypot(vtx, vty);
    if (vt > 40) continue; // bad fix
    const dpdt = Number.isFinite(a.pHpa) && Number.isFinite(b.pHpa) ? (b.pHpa - a.pHpa) / dtH : 0;
    const n = Math.max(1, Math.ceil(distKm / stepKm));
    const last = i + 2 === fx.length;
    for (let k = 0; k < n + (last ? 1 : 0); k++) {
      const f = interpFixes(a, b, k, n);
      if (f.v < WIND_THRESHOLD_MS) continue;
      const dp = Number.isFinite(f.p) && f.p < P_ENV_HPA - 1 ? P_ENV_HPA - f.p : dpFromWindHpa(f.v);
      const rmax = Number.isFinite(f.rmw) && f.rmw > 3 ? f.rmw : rmaxWilloughbyKm(f.v, f.lat);
      const vms = Math.max(0, f.v - vt),
        bs = hollandBs(dp, dpdt, f.lat, vt);
      onStep({ lat: f.lat, lon: f.lon, vms, rmax, b: bs, vtx, vty, vmax: f.v, xOut: fitOuterExponent(vms, rmax, bs, f.radii) });
    }
  }
}

/** Radius (km, 10 km steps, at most 300 km) beyond which the step's wind stays below the 17.5 m/s threshold. */
export function outerRadiusKm(s: StepParams): number {
  for (let r = s.rmax; r <= MAX_DIST_KM; r += 10) {
    const q = Math.pow(s.rmax / r, s.b);
    const vmaxAtR = s.vms * Math.pow(q * Math.exp(1 - q), s.xOut) + Math.min(1, s.rmax / r) * Math.hypot(s.vtx, s.vty);
    if (vmaxAtR < WIND_THRESHOLD_MS) return r;
  }
  return MAX_DIST_KM;
}

function paintStep(s: StepParams, stormMax: Float32Array, list: number[], bbox?: Bbox): boolean {
  if (bbox) {
    // quick reject: the step's 300 km disc does not reach the box
    const dLatMax = MAX_DIST_KM / KM_LAT,
      dLonMax = MAX_DIST_KM / (KM_LON_EQ * Math.max(0.2, Math.cos((s.lat * Math.PI) / 180)));
    if (s.lat - dLatMax > bbox.north || s.lat + dLatMax < bbox.south) return false;
    let dlw = bbox.west - s.lon,
      dle = s.lon - bbox.east;
    if (dlw > 180) dlw -= 360;
    if (dle > 180) dle -= 360;
    if (dlw > dLonMax || dle > dLonMax) return false;
  }
  // outer radius where the wind can still reach the threshold
  const rOut = outerRadiusKm(s);
  const cosLat = Math.cos((s.lat * Math.PI) / 180);
  const dLat = rOut / KM_LAT,
    dLon = rOut / (KM_LON_EQ * Math.max(0.2, cosLat));
  let r0 = Math.max(ROW0, Math.floor((90 - (s.lat + dLat)) / RES)),
    r1 = Math.min(ROW1 - 1, Math.floor((90 - (s.lat - dLat)) / RES));
  if (bbox) {
    r0 = Math.max(r0, Math.floor((90 - bbox.north) / RES));
    r1 = Math.min(r1, Math.floor((90 - bbox.south) / RES));
    if (r0 > r1) return false;
    let dlw = bbox.west - s.lon,
      dle = s.lon - bbox.east;
    if (dlw > 180) dlw -= 360;
    if (dle > 180) dle -= 360;
    if (dlw > dLon || dle > dLon) return false;
  }
  const c0 = Math.floor((s.lon - dLon + 180) / RES),
    c1 = Math.floor((s.lon + dLon + 180) / RES);
  let any = false;
  for (let row = r0; row <= r1; row++) {
    const latC = 90 - (row + 0.5) * RES;
    if (bbox && (latC < bbox.south || latC > bbox.north)) continue;
    const dy = (latC - s.lat) * KM_LAT;
    const kmLon = KM_LON_EQ * Math.cos((((latC + s.lat) / 2) * Math.PI) / 180);
    for (let cc = c0; cc <= c1; cc++) {
      const col = ((cc % W) + W) % W;
      const lonC = -180 + (col + 0.5) * RES;
      if (bbox && (lonC < bbox.west || lonC > bbox.east)) continue;
      let dl = lonC - s.lon;
      if (dl > 180) dl -= 360;
      if (dl < -180) dl += 360;
      const dx = dl * kmLon;
      if (dx * dx + dy * dy > rOut * rOut) continue;
      const v = windAt(s, dx, dy);
      if (v < WIND_THRESHOLD_MS) continue;
      const c = row * W + col;
      const prev = stormMax[c]!;
      if (prev === 0) list.push(c);
      if (v > prev) stormMax[c] = v;
      any = true;
    }
  }
  return any;
}

/**
 * Generalised Pareto fit (method of moments, Hosking & Wallis 1987) to the rate-weighted per-storm maxima above
 * u = 17.5 m/s in one cell; shape ξ clipped to [−0.5, 0.1]. Return level for return period T (years):
 *   v_T = u + σ/ξ·((λ_u·T)^ξ − 1)   (ξ ≠ 0),   u + σ·ln(λ_u·T)   (ξ = 0),   0 when λ_u·T ≤ 1.
 */
export function gpdReturnLevels(histCell: Float32Array, rps: readonly number[], capMs: number): number[] {
  let lam = 0,
    s1 = 0;
  for (let i = 0; i < NB; i++) {
    const w = histCell[i]!;
    lam += w;
    s1 += w * (i + 0.5);
  }
  if (lam <= 0) return rps.map(() => 0);
  const m = s1 / lam;
  let s2 = 0;
  for (let i = 0; i < NB; i++) {
    const w = histCell[i]!;
    const d = i + 0.5 - m;
    s2 += w * d * d;
  }
  const v = s2 / lam;
  let xi = v > 0 ? 0.5 * (1 - (m * m) / v) : -0.5;
  xi = Math.min(0.1, Math.max(-0.5, xi));
  const sigma = m * (1 - xi);
  return rps.map((T) => {
    const x = lam * T;
    if (x <= 1) return 0;
    const lv = Math.abs(xi) < 1e-6 ? sigma * Math.log(x) : (sigma / xi) * (Math.pow(x, xi) - 1);
    return Math.min(capMs, WIND_THRESHOLD_MS + lv);
  });
}

/** Per-cell maximum 1-min wind (m/s) of one storm on the 0.25° grid (for validation against observed footprints). */
export function stormFootprint(storm: Storm, bbox?: Bbox): Map<number, number> {
  const stormMax = new Float32Array(W * H);
  const list: number[] = [];
  runStorm(storm, stormMax, list, bbox);
  const m = new Map<number, number>();
  for (const c of list) m.set(c, stormMax[c]!);
  return m;
}

/**
 * Gaussian smoothing of the per-cell storm-maximum rate histograms (all wind bins), σ in km, truncated at 3σ.
 * With ~45 years of tracks, whether the core of a strong storm crossed one 28 km cell or its neighbour is chance.
 * CLIMADA handles this with perturbed synthetic tracks (calc_perturbed_trajectories: initial positions shifted uniformly
 * by up to max_shift_ini = 0.75° in latitude and longitude); smoothing the rates with a Gaussian of the same standard
 * deviation, 0.75°/√3 ≈ 48 km, is the deterministic equivalent for the initial displacement.
 */
export function smoothHistogram(hist: Float32Array, sigmaKm: number, bbox?: Bbox): void {
  const nRows = ROW1 - ROW0;
  const tmp = new Float32Array(hist.length);
  const kLat = gaussKernel(sigmaKm / (KM_LAT * RES));
  const halfLat = (kLat.length - 1) / 2;
  // rows needed (a regional rebuild only needs the box, plus the kernel half-width for the input)
  const outR0 = bbox ? Math.max(0, Math.floor((90 - bbox.north) / RES) - ROW0) : 0;
  const outR1 = bbox ? Math.min(nRows - 1, Math.floor((90 - bbox.south) / RES) - ROW0) : nRows - 1;
  const inR0 = Math.max(0, outR0 - halfLat),
    inR1 = Math.min(nRows - 1, outR1 + halfLat);
  // along longitude (per row, kernel width depends on latitude)
  for (let r = inR0; r <= inR1; r++) {
    const lat = 90 - (r + ROW0 + 0.5) * RES;
    const cellKm = KM_LON_EQ * RES * Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    const k = gaussKernel(sigmaKm / cellKm);
    const half = (k.length - 1) / 2;
    for (let c = 0; c < W; c++) {
      const o = (r * W + c) * NB;
      for (let j = -half; j <= half; j++) {
        const w = k[j + half]!;
        const src = (r * W + ((((c + j) % W) + W) % W)) * NB;
        for (let b = 0; b < NB; b++) tmp[o + b]! += w * hist[src + b]!;
      }
    }
  }
  hist.fill(0);
  for (let r = outR0; r <= outR1; r++) {
    for (let j = -halfLat; j <= halfLat; j++) {
      const rr = r + j;
      if (rr < 0 || rr >= nRows) continue;
      const w = kLat[j + halfLat]!;
      const dst = r * W * NB,
        src = rr * W * NB;
      for (let i = 0; i < W * NB; i++) hist[dst + i]! += w * tmp[src + i]!;
    }
  }
}

function gaussKernel(sigmaCells: number): Float64Array {
  const half = Math.max(0, Math.ceil(3 * sigmaCells));
  const k = new Float64Array(2 * half + 1);
  let sum = 0;
  for (let j = -half; j <= half; j++) {
    const v = sigmaCells > 0 ? Math.exp((-0.5 * j * j) / (sigmaCells * sigmaCells)) : j === 0 ? 1 : 0;
    k[j + half] = v;
    sum += v;
  }
  for (let j = 0; j < k.length; j++) k[j]! /= sum;
  return k;
}

/** Smoothing σ (km): standard deviation of CLIMADA's uniform ±0.75° initial track shift, 0.75/√3 degrees of latitude. */
export const TRACK_SHIFT_SIGMA_KM = (0.75 / Math.sqrt(3)) * KM_LAT;
