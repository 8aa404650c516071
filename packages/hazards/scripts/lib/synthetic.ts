/**
 * Synthetic tropical-cyclone tracks: every best track of a source perturbed into `n` synthetic members by a directed
 * random walk with landfall decay, after the published algorithm of CLIMADA's `tc_tracks_synth`
 * (`calc_perturbed_trajectories`, its defaults as documented there; the method goes back to Kleppek et al. 2008, GRL
 * 35:L10705, and CLIMADA is described by Aznar-Siguan & Bresch 2019, GMD 12:3085). Written from the documented
 * algorithm and its published default parameters, not from their code. The 10,000-year target and the empirical
 * return levels follow STORM (Bloemendaal et al. 2020, Sci. Data 7:40 and 7:377):
 *
 * - the genesis point is shifted by U(−0.75°, +0.75°) in latitude and in longitude (max_shift_ini);
 * - each segment keeps its great-circle bearing and length from the historical track, the bearing turned by the
 *   cumulative sum of dt_h·(π/360)·(2u−1) rad (max_ddirection per hour) and the length scaled by 1 + 0.3·(2u−1)
 *   (max_dspeed_rel); u are uniform series with hourly lag-1 autocorrelation 0.5 (direction) and 0.85 (speed),
 *   generated hourly (the autocorrelated-uniform construction CLIMADA cites, stats.stackexchange 48086) and read at
 *   each segment's start hour; a member is cut where it passes 70° of latitude;
 * - intensity: the historical wind at each fix, except on land, where the wind decays from its value at landfall as
 *   exp(−A·x) over the distance x (km) travelled since landfall, with A by Saffir-Simpson category at landfall
 *   (CLIMADA's global parameters fitted on IBTrACS 1980-2019, LANDFALL_DECAY_V); a single land fix is not decayed; when
 *   the member leaves land, the rest of its sea segment is shifted to continue from the last land wind plus
 *   6 + |5·N(0,1)| kt (CLIMADA's re-intensification rule); winds never below 0;
 * - central pressure: kept where the wind is unchanged, else dropped so that the wind field derives Δp from the
 *   decayed wind (Atkinson & Holliday 1977, as for fixes without pressure);
 * - member 0 is the historical track itself (CLIMADA keeps the original in the set).
 *
 * The land mask is MODIS IGBP land (curve_number layer ≠ 0, 0.1°).
 */
import type { Fix, Storm } from './tracks.js';
import { KT } from './tracks.js';

export const MAX_SHIFT_INI_DEG = 0.75;
export const MAX_DSPEED_REL = 0.3;
export const MAX_DDIRECTION_RAD_H = Math.PI / 360;
export const AUTOCORR_DSPEED = 0.85;
export const AUTOCORR_DDIRECTION = 0.5;
/** exp(−A·x), x in km since landfall, by category at landfall (−1 TD, 0 TS, 1-5). CLIMADA LANDFALL_DECAY_V. */
export const LANDFALL_DECAY_V: Record<number, number> = {
  [-1]: 0.00012859077693295416,
  0: 0.0017226346292718126,
  1: 0.002309772914350468,
  2: 0.0025968221565522698,
  3: 0.002626252944053856,
  4: 0.002550639312763181,
  5: 0.003788695795963695,
};
/** Saffir-Simpson lower bounds (kt, 1-min): TS 34, Cat 1 64, 2 83, 3 96, 4 113, 5 137. */
const SS_KT = [34, 64, 83, 96, 113, 137];
const EARTH_KM = 6371.0088;

export function category(vMs: number): number {
  const kt = vMs / KT;
  let c = -1;
  for (const t of SS_KT) if (kt >= t) c++;
  return c;
}

/** Seeded generator (mulberry32) with standard normals by Box-Muller. */
export class Rng {
  private s: number;
  private spare = NaN;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  uniform(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const v = this.spare;
      this.spare = NaN;
      return v;
    }
    let u = 0;
    while (u <= 1e-12) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

/** CDF of cos θ·X + sin θ·Y for X, Y uniform on [−√3, √3] (unit variance); maps the mix back to a uniform. */
function mixCdf(z: number, theta: number): number {
  const c = Math.cos(theta),
    s = Math.sin(theta),
    r3 = Math.sqrt(3),
    s2 = Math.sin(2 * theta);
  if (z >= r3 * (c + s)) return 1;
  if (z > r3 * (c - s)) return (1 / 12 / s2) * (-3 - z * z + 2 * r3 * z * (c + s) + 9 * s2);
  if (z > r3 * (s - c)) return (1 / 6) * (3 + (r3 * z) / c);
  if (z > -r3 * (c + s)) return (1 / 12 / s2) * (z * z + 2 * r3 * z * (c + s) + 3 * (1 + s2));
  return 0;
}

/**
 * n hourly values in [0, 1], uniform, with lag-1 autocorrelation `ac`: x_0 ~ N(0,1), x_i = mix of x_{i−1} and a fresh
 * N(0,1) at angle θ = acos(ac) mapped through the mixture's CDF, then scaled from [−√3, √3] to [0, 1].
 */
export function autocorrelatedUniform(n: number, ac: number, rng: Rng): Float64Array {
  const out = new Float64Array(n);
  const theta = Math.acos(ac);
  const g = Math.abs((theta % Math.PI) - Math.floor((theta % Math.PI) / (Math.PI / 2) + 0.5) * (Math.PI / 2));
  const r3 = Math.sqrt(3);
  let x = rng.normal(); // as CLIMADA: the first hour is a standard normal, the later ones uniform on [−√3, √3]
  for (let i = 0; i < n; i++) {
    if (i > 0) x = 2 * r3 * (mixCdf(Math.cos(theta) * x + Math.sin(theta) * rng.normal(), g) - 0.5);
    out[i] = (x + r3) / (2 * r3);
  }
  return out;
}

const rad = Math.PI / 180;
function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * rad,
    p2 = lat2 * rad,
    dl = (lon2 - lon1) * rad;
  return Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl)) / rad;
}
function gcDistRad(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * rad,
    dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}
function destination(lat: number, lon: number, bearing: number, angRad: number): [number, number] {
  const p = lat * rad,
    b = bearing * rad;
  const p2 = Math.asin(Math.sin(p) * Math.cos(angRad) + Math.cos(p) * Math.sin(angRad) * Math.cos(b));
  const l2 = lon * rad + Math.atan2(Math.sin(b) * Math.sin(angRad) * Math.cos(p), Math.cos(angRad) - Math.sin(p) * Math.sin(p2));
  let lon2 = l2 / rad;
  lon2 = ((((lon2 + 180) % 360) + 360) % 360) - 180;
  return [p2 / rad, lon2];
}

export type LandTest = (lat: number, lon: number) => boolean;

/** One synthetic member of a storm (random walk of position, landfall decay of intensity). */
export function perturbStorm(storm: Storm, rng: Rng, onLand: LandTest): Storm {
  const fx = storm.fixes.filter((f) => Number.isFinite(f.lat) && Number.isFinite(f.lon));
  if (fx.length < 2) return { id: storm.id, fixes: fx.map((f) => ({ ...f })) };
  const hours = Math.max(1, Math.ceil(fx[fx.length - 1]!.tH - fx[0]!.tH) + 1);
  const dx = MAX_SHIFT_INI_DEG * (2 * rng.uniform() - 1),
    dy = MAX_SHIFT_INI_DEG * (2 * rng.uniform() - 1);
  const uDir = autocorrelatedUniform(hours, AUTOCORR_DDIRECTION, rng);
  const uSpd = autocorrelatedUniform(hours, AUTOCORR_DSPEED, rng);
  const out: Fix[] = [];
  let lat = fx[0]!.lat + dy,
    lon = fx[0]!.lon + dx;
  lon = ((((lon + 180) % 360) + 360) % 360) - 180;
  out.push({ ...fx[0]!, lat, lon });
  let turn = 0;
  for (let i = 0; i + 1 < fx.length; i++) {
    const a = fx[i]!,
      b = fx[i + 1]!;
    const dt = Math.max(0, b.tH - a.tH);
    const h = Math.min(hours - 1, Math.max(0, Math.round(a.tH - fx[0]!.tH)));
    turn += dt * (MAX_DDIRECTION_RAD_H / rad) * (2 * uDir[h]! - 1);
    const stretch = 1 + MAX_DSPEED_REL * (2 * uSpd[h]! - 1);
    [lat, lon] = destination(lat, lon, bearingDeg(a.lat, a.lon, b.lat, b.lon) + turn, stretch * gcDistRad(a.lat, a.lon, b.lat, b.lon));
    out.push({ ...b, lat, lon });
    if (Math.abs(lat) > 70) break;
  }
  applyLandDecay(out, rng, onLand);
  return { id: storm.id, fixes: out };
}

/** CLIMADA-style landfall decay in place (see the header). */
export function applyLandDecay(fixes: Fix[], rng: Rng, onLand: LandTest): void {
  const n = fixes.length;
  const land = fixes.map((f) => onLand(f.lat, f.lon));
  let i = 1;
  while (i < n) {
    if (!(land[i] && !land[i - 1])) {
      i++;
      continue;
    }
    const seaLand = i;
    let landSea = i;
    while (landSea < n && land[landSea]) landSea++;
    const vLf = fixes[seaLand - 1]!.vMs;
    if (landSea - seaLand > 1 && Number.isFinite(vLf)) {
      const A = LANDFALL_DECAY_V[category(vLf)]!;
      // distance since landfall: from the midpoint of the crossing segment, then along the track
      const pre = fixes[seaLand - 1]!,
        first = fixes[seaLand]!;
      let x = (gcDistRad(pre.lat, pre.lon, first.lat, first.lon) * EARTH_KM) / 2;
      for (let k = seaLand; k < landSea; k++) {
        if (k > seaLand) x += gcDistRad(fixes[k - 1]!.lat, fixes[k - 1]!.lon, fixes[k]!.lat, fixes[k]!.lon) * EARTH_KM;
        const v = vLf * Math.exp(-A * x);
        const f = fixes[k]!;
        if (!Number.isFinite(f.vMs) || v !== f.vMs) {
          f.vMs = v;
          f.pHpa = NaN;
        }
      }
      if (landSea < n) {
        const nextLand = land.indexOf(true, landSea);
        const end = nextLand < 0 ? n : nextLand;
        const bump = (6 + Math.abs(5 * rng.normal())) * KT;
        const diff = fixes[landSea]!.vMs - fixes[landSea - 1]!.vMs - bump;
        if (Number.isFinite(diff) && diff !== 0)
          for (let k = landSea; k < end; k++) {
            fixes[k]!.vMs = Math.max(0, fixes[k]!.vMs - diff);
            fixes[k]!.pHpa = NaN;
          }
      }
    }
    i = landSea + 1;
  }
}
