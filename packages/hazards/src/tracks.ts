/**
 * Historical tropical-cyclone tracks near a point (layers/typhoon_tracks.json.gz, built by scripts/build-tracks.ts).
 * Distance is the great-circle distance from the point to each track segment (not only to the fixes); wind at closest
 * approach is interpolated linearly along that segment. A 1° cell → storm index, built once on load, limits the search.
 * See docs/methodology/hazards.md ("Historical tracks").
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { DEFAULT_LAYERS_DIR } from './sampler.js';
import { DATASETS } from './datasets.js';

export const EARTH_RADIUS_KM = 6371.0088;
export const TRACKS_FILE_NAME = 'typhoon_tracks.json.gz';
const KT = 0.514444;

export interface TrackSourceInfo {
  basin: string;
  agency: string;
  dataset: string;
  from: number;
  to: number;
  storms: number;
  wind: string;
}
interface FileStorm {
  id: string;
  n: string | null;
  s: number;
  b: string;
  a: string;
  d: string;
  t0: number;
  dt: number[];
  la: number[];
  lo: number[];
  w: (number | null)[];
}

/** One storm of the archive, decoded. `wind` is the 1-min sustained wind (m/s), NaN where the agency reported none. */
export interface TrackStorm {
  id: string;
  name: string | null;
  season: number;
  basin: string;
  agency: string;
  dataset: string;
  timeH: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  wind: Float64Array;
  maxWindMs: number | null;
}

export interface TrackPoint {
  time: string;
  latitude: number;
  longitude: number;
  wind_ms: number | null;
  category: SaffirSimpson | null;
}
/** Saffir-Simpson category from the 1-min wind: -1 tropical depression (< 34 kt), 0 tropical storm, 1-5 hurricane/typhoon. */
export type SaffirSimpson = -1 | 0 | 1 | 2 | 3 | 4 | 5;

export interface NearbyStorm {
  id: string;
  name: string | null;
  season: number;
  year: number;
  basin: string;
  agency: string;
  dataset: string;
  closest_km: number;
  closest_time: string;
  closest_point: { latitude: number; longitude: number };
  wind_at_closest_ms: number | null;
  category_at_closest: SaffirSimpson | null;
  max_wind_ms: number | null;
  category: SaffirSimpson | null;
  track: TrackPoint[];
}

export interface NearbyQuery {
  latitude: number;
  longitude: number;
  radiusKm: number;
  sinceYear?: number;
  limit?: number;
  windowKm?: number;
}
export interface NearbyResult {
  storms: NearbyStorm[];
  /** Number of storms within the radius before the limit. */
  total: number;
  /** Basins whose records reach this point (a storm fix within about 5-10°), with their record periods; empty = no data. */
  coverage: { basin: string; from: number; to: number; sources: TrackSourceInfo[] }[];
}

/** Saffir-Simpson category of a 1-min wind in m/s (NHC thresholds in kt: 34, 64, 83, 96, 113, 137). */
export function saffirSimpson(windMs: number | null | undefined): SaffirSimpson | null {
  if (windMs === null || windMs === undefined || !Number.isFinite(windMs)) return null;
  const kt = windMs / KT + 1e-9;
  return kt >= 137 ? 5 : kt >= 113 ? 4 : kt >= 96 ? 3 : kt >= 83 ? 2 : kt >= 64 ? 1 : kt >= 34 ? 0 : -1;
}

type V3 = [number, number, number];
const RAD = Math.PI / 180;
const vec = (lat: number, lon: number): V3 => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3) => Math.hypot(a[0], a[1], a[2]);
/** Angle between unit vectors (radians), robust for small angles. */
const angle = (a: V3, b: V3) => Math.atan2(norm(cross(a, b)), dot(a, b));

/** Great-circle distance in km between two points (degrees). */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return angle(vec(lat1, lon1), vec(lat2, lon2)) * EARTH_RADIUS_KM;
}

/**
 * Shortest great-circle distance (km) from point P to the minor arc A-B, and the fraction (0-1) along A→B of the closest
 * point. Works across the antimeridian and near the poles (3-D vectors, no longitude arithmetic).
 */
export function segmentDistanceKm(
  pLat: number,
  pLon: number,
  aLat: number,
  aLon: number,
  bLat: number,
  bLon: number,
): { distanceKm: number; fraction: number } {
  const P = vec(pLat, pLon),
    A = vec(aLat, aLon),
    B = vec(bLat, bLon);
  const ab = angle(A, B);
  const dA = angle(P, A),
    dB = angle(P, B);
  const endpoint = () => (dA <= dB ? { distanceKm: dA * EARTH_RADIUS_KM, fraction: 0 } : { distanceKm: dB * EARTH_RADIUS_KM, fraction: 1 });
  if (ab < 1e-12) return { distanceKm: dA * EARTH_RADIUS_KM, fraction: 0 };
  const n0 = cross(A, B),
    nn = norm(n0);
  const n: V3 = [n0[0] / nn, n0[1] / nn, n0[2] / nn];
  const s = dot(P, n);
  // projection of P on the great circle through A and B
  const c0: V3 = [P[0] - s * n[0], P[1] - s * n[1], P[2] - s * n[2]];
  const cn = norm(c0);
  if (cn < 1e-12) return endpoint(); // P is a pole of the great circle: every point is 90° away
  const C: V3 = [c0[0] / cn, c0[1] / cn, c0[2] / cn];
  // C lies on the minor arc when it is on the same side of A towards B and of B towards A
  if (dot(cross(A, C), n) >= 0 && dot(cross(C, B), n) >= 0)
    return { distanceKm: Math.asin(Math.min(1, Math.abs(s))) * EARTH_RADIUS_KM, fraction: Math.min(1, angle(A, C) / ab) };
  return endpoint();
}

const iso = (tH: number) => new Date(Math.round(tH * 3600) * 1000).toISOString().replace('.000Z', 'Z');
const round1 = (x: number) => Math.round(x * 10) / 10;
const cellKey = (row: number, col: number) => row * 360 + (((col % 360) + 360) % 360);

export interface TrackArchive {
  readonly storms: TrackStorm[];
  readonly sources: TrackSourceInfo[];
  readonly firstSeason: number;
  nearby(q: NearbyQuery): NearbyResult;
  /** Basins whose records reach the point (see NearbyResult.coverage). */
  coverageAt(latitude: number, longitude: number): NearbyResult['coverage'];
}

type TrackFile = { firstSeason: number; sources: TrackSourceInfo[]; storms: FileStorm[] };

/** Decodes a track file and builds the 1° cell index and the 5° basin coverage masks. */
export function trackArchiveFrom(file: TrackFile): TrackArchive {
  const storms = file.storms.map(decodeStorm);
  // unit vectors of every fix (x, y, z interleaved) for fast distance bounds
  const unit = storms.map(fixVectors);
  const cells = cellIndex(storms);
  const coverage = basinCoverage(storms);

  const coverageAt = (latitude: number, longitude: number) => {
    const k = Math.min(35, Math.floor((90 - latitude) / 5)) * 72 + (Math.floor((longitude + 180) / 5) % 72);
    const out: NearbyResult['coverage'] = [];
    for (const [basin, set] of coverage) {
      if (!set.has(k)) continue;
      const src = file.sources.filter((s) => s.basin === basin);
      out.push({ basin, from: Math.min(...src.map((s) => s.from)), to: Math.max(...src.map((s) => s.to)), sources: src });
    }
    return out.sort((a, b) => a.basin.localeCompare(b.basin));
  };

  const nearby = (q: NearbyQuery): NearbyResult => {
    const { latitude: pLat, longitude: pLon, radiusKm } = q;
    const windowKm = q.windowKm ?? Math.max(3 * radiusKm, 800);
    const P = vec(pLat, pLon);
    const hits: NearbyStorm[] = [];
    const pending: Closest[] = [];
    for (const i of candidateStorms(cells, pLat, pLon, radiusKm)) {
      const s = storms[i]!;
      if (q.sinceYear !== undefined && s.season < q.sinceYear) continue;
      const c = closestApproach(s, unit[i]!, P, pLat, pLon, radiusKm);
      if (!c) continue;
      hits.push(nearbyStorm(c));
      pending.push(c);
    }
    const order = hits.map((_h, n) => n);
    order.sort((x, y) => {
      const a = hits[x]!,
        b = hits[y]!;
      return a.closest_km - b.closest_km || (b.wind_at_closest_ms ?? -1) - (a.wind_at_closest_ms ?? -1) || a.id.localeCompare(b.id);
    });
    const kept = order.slice(0, q.limit ?? order.length);
    // tracks only for the storms returned
    for (const n of kept) hits[n]!.track = clippedTrack(pending[n]!, windowKm);
    return { storms: kept.map((n) => hits[n]!), total: hits.length, coverage: coverageAt(pLat, pLon) };
  };

  return { storms, sources: file.sources, firstSeason: file.firstSeason, nearby, coverageAt };
}

function decodeStorm(s: FileStorm): TrackStorm {
  const k = s.dt.length;
  const timeH = new Float64Array(k),
    lat = new Float64Array(k),
    lon = new Float64Array(k),
    wind = new Float64Array(k);
  let t = s.t0,
    max = -Infinity;
  for (let i = 0; i < k; i++) {
    t += s.dt[i]!;
    timeH[i] = t;
    lat[i] = s.la[i]! / 10;
    lon[i] = s.lo[i]! / 10;
    const w = s.w[i];
    wind[i] = w === null || w === undefined ? NaN : w;
    if (wind[i]! > max) max = wind[i]!;
  }
  return { id: s.id, name: s.n, season: s.s, basin: s.b, agency: s.a, dataset: s.d, timeH, lat, lon, wind, maxWindMs: Number.isFinite(max) ? max : null };
}

function fixVectors(s: TrackStorm): Float64Array {
  const a = new Float64Array(s.lat.length * 3);
  for (let j = 0; j < s.lat.length; j++) {
    const v = vec(s.lat[j]!, s.lon[j]!);
    a[3 * j] = v[0];
    a[3 * j + 1] = v[1];
    a[3 * j + 2] = v[2];
  }
  return a;
}

/** 1° cells → storms: every segment is entered in each cell of its lat/lon box (split at the antimeridian). */
function cellIndex(storms: TrackStorm[]): Map<number, number[]> {
  const cells = new Map<number, number[]>();
  const put = (row: number, col: number, i: number) => {
    const key = cellKey(row, col);
    const l = cells.get(key) ?? cells.set(key, []).get(key)!;
    if (l[l.length - 1] !== i) l.push(i);
  };
  storms.forEach((s, i) => {
    for (let j = 0; j < s.lat.length; j++) {
      const a = j,
        b = Math.min(j + 1, s.lat.length - 1);
      const r0 = Math.floor(90 - Math.max(s.lat[a]!, s.lat[b]!)),
        r1 = Math.floor(90 - Math.min(s.lat[a]!, s.lat[b]!));
      let l0 = s.lon[a]!,
        l1 = s.lon[b]!;
      if (Math.abs(l1 - l0) > 180) {
        if (l0 < 0) l0 += 360;
        else l1 += 360;
      } // crosses the antimeridian: unwrap
      const c0 = Math.floor(Math.min(l0, l1) + 180),
        c1 = Math.floor(Math.max(l0, l1) + 180);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) put(r, c, i);
    }
  });
  return cells;
}

/** Basin → the 5° cells its fixes reach, dilated by one cell. */
function basinCoverage(storms: TrackStorm[]): Map<string, Set<number>> {
  const coverage = new Map<string, Set<number>>();
  for (const s of storms) {
    const cov = coverage.get(s.basin) ?? coverage.set(s.basin, new Set()).get(s.basin)!;
    for (let j = 0; j < s.lat.length; j++) cov.add(Math.floor((90 - s.lat[j]!) / 5) * 72 + (Math.floor((s.lon[j]! + 180) / 5) % 72));
  }
  for (const [basin, set] of coverage) {
    const dil = new Set<number>();
    for (const k of set) {
      const r = Math.floor(k / 72),
        c = k % 72;
      for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) if (r + dr >= 0 && r + dr < 36) dil.add((r + dr) * 72 + ((c + dc + 72) % 72));
    }
    coverage.set(basin, dil);
  }
  return coverage;
}

/** Storms entered in the 1° cells of the radius's lat/lon box around the point (every longitude near the poles). */
function candidateStorms(cells: Map<number, number[]>, pLat: number, pLon: number, radiusKm: number): Set<number> {
  const dLat = radiusKm / 111.19 + 1;
  const rowA = Math.max(0, Math.floor(90 - (pLat + dLat))),
    rowB = Math.min(179, Math.floor(90 - (pLat - dLat)));
  const cosMin = Math.cos(Math.min(89.9, Math.abs(pLat) + dLat) * RAD);
  const dLon = radiusKm / (111.19 * cosMin) + 1;
  const allLon = dLon >= 180;
  const colA = allLon ? 0 : Math.floor(pLon - dLon + 180),
    colB = allLon ? 359 : Math.floor(pLon + dLon + 180);
  const cand = new Set<number>();
  for (let r = rowA; r <= rowB; r++) for (let c = colA; c <= colB; c++) for (const i of cells.get(cellKey(r, c)) ?? []) cand.add(i);
  return cand;
}

/** A storm's closest approach: distance (km), segment bj and fraction bf along it, and every fix's angle from the point. */
interface Closest {
  s: TrackStorm;
  best: number;
  bj: number;
  bf: number;
  ang: Float64Array;
}

/** The closest approach of a storm's track to the point P, or null when it stays beyond the radius. */
function closestApproach(s: TrackStorm, xyz: Float64Array, P: V3, pLat: number, pLon: number, radiusKm: number): Closest | null {
  let best = Infinity,
    bj = 0,
    bf = 0;
  // angular distance of each fix (chord → angle), to skip segments that cannot come within the radius
  const k = s.lat.length;
  const ang = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const ch = Math.hypot(xyz[3 * j]! - P[0], xyz[3 * j + 1]! - P[1], xyz[3 * j + 2]! - P[2]);
    ang[j] = 2 * Math.asin(Math.min(1, ch / 2));
  }
  for (let j = 0; j + 1 < k; j++) {
    const ch = Math.hypot(xyz[3 * j]! - xyz[3 * j + 3]!, xyz[3 * j + 1]! - xyz[3 * j + 4]!, xyz[3 * j + 2]! - xyz[3 * j + 5]!);
    const ab = 2 * Math.asin(Math.min(1, ch / 2));
    // every point C of the arc has d(P, C) ≥ d(P, A) - d(A, C) ≥ min(dA, dB) - ab (triangle inequality)
    if ((Math.min(ang[j]!, ang[j + 1]!) - ab) * EARTH_RADIUS_KM > Math.min(radiusKm, best)) continue;
    const d = segmentDistanceKm(pLat, pLon, s.lat[j]!, s.lon[j]!, s.lat[j + 1]!, s.lon[j + 1]!);
    if (d.distanceKm < best) {
      best = d.distanceKm;
      bj = j;
      bf = d.fraction;
    }
  }
  return best > radiusKm ? null : { s, best, bj, bf, ang };
}

/** The answer for one storm (its track filled later, for the storms returned): wind, time and point of closest approach. */
function nearbyStorm({ s, best, bj, bf }: Closest): NearbyStorm {
  const j2 = bj + 1;
  const wA = s.wind[bj]!,
    wB = s.wind[j2]!;
  const w = Number.isFinite(wA) && Number.isFinite(wB) ? wA + (wB - wA) * bf : bf < 0.5 ? (Number.isFinite(wA) ? wA : wB) : Number.isFinite(wB) ? wB : wA;
  const tH = s.timeH[bj]! + (s.timeH[j2]! - s.timeH[bj]!) * bf;
  // closest point along the arc (for the map): interpolate on the sphere
  const A = vec(s.lat[bj]!, s.lon[bj]!),
    B = vec(s.lat[j2]!, s.lon[j2]!);
  const m: V3 = [A[0] + (B[0] - A[0]) * bf, A[1] + (B[1] - A[1]) * bf, A[2] + (B[2] - A[2]) * bf];
  const mn = norm(m);
  const cLat = Math.asin(m[2] / mn) / RAD,
    cLon = Math.atan2(m[1], m[0]) / RAD;
  const wc = Number.isFinite(w) ? round1(w) : null;
  return {
    id: s.id,
    name: s.name,
    season: s.season,
    year: new Date(tH * 3.6e6).getUTCFullYear(),
    basin: s.basin,
    agency: s.agency,
    dataset: s.dataset,
    closest_km: round1(best),
    closest_time: iso(Math.round(tH)),
    closest_point: { latitude: Math.round(cLat * 100) / 100, longitude: Math.round(cLon * 100) / 100 },
    wind_at_closest_ms: wc,
    category_at_closest: saffirSimpson(wc),
    max_wind_ms: s.maxWindMs,
    category: saffirSimpson(s.maxWindMs),
    track: [],
  };
}

/** The track clipped to the window: fixes within windowKm, plus one fix either side so the line reaches the edge. */
function clippedTrack({ s, bj, ang }: Closest, windowKm: number): TrackPoint[] {
  const k = s.lat.length,
    j2 = bj + 1;
  let lo = -1,
    hi = -1;
  for (let j = 0; j < k; j++)
    if (ang[j]! * EARTH_RADIUS_KM <= windowKm) {
      if (lo < 0) lo = j;
      hi = j;
    }
  if (lo < 0) {
    lo = bj;
    hi = j2;
  }
  lo = Math.max(0, Math.min(lo, bj) - 1);
  hi = Math.min(k - 1, Math.max(hi, j2) + 1);
  const track: TrackPoint[] = [];
  for (let j = lo; j <= hi; j++) {
    const wj = s.wind[j]!;
    track.push({ time: iso(s.timeH[j]!), latitude: s.lat[j]!, longitude: s.lon[j]!, wind_ms: Number.isFinite(wj) ? wj : null, category: saffirSimpson(wj) });
  }
  return track;
}

/** Loads the committed archive (or one in `dir`). */
export function loadTrackArchive(dir: string = DEFAULT_LAYERS_DIR): TrackArchive {
  return trackArchiveFrom(JSON.parse(gunzipSync(readFileSync(join(dir, TRACKS_FILE_NAME))).toString('utf8')));
}

let cached: TrackArchive | null = null;
/** The committed archive, loaded once per process. */
export function defaultTrackArchive(): TrackArchive {
  return (cached ??= loadTrackArchive());
}

/** Attribution of the datasets behind the archive (publisher, licence, citation). */
export function trackDataSources(archive: TrackArchive) {
  return [...new Set(archive.sources.map((s) => s.dataset))].map((key) => {
    const d = DATASETS[key]!;
    const src = archive.sources.filter((s) => s.dataset === key);
    return {
      key,
      name: d.name,
      publisher: d.publisher,
      license: d.license,
      citation: d.citation,
      basins: [...new Set(src.map((s) => s.basin))],
      agencies: [...new Set(src.map((s) => s.agency))],
      seasons: { from: Math.min(...src.map((s) => s.from)), to: Math.max(...src.map((s) => s.to)) },
    };
  });
}
