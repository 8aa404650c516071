/**
 * The cyclone-wind event set of a portfolio (issue 35 item 2): the same seeded synthetic members the typhoon_rp layer
 * was built from (scripts/build-synthetic.ts: every best track perturbed after CLIMADA tc_tracks_synth, member 0 the
 * track itself), regenerated at analysis time, with the Holland wind field evaluated only at the portfolio's points.
 * Nothing per event is stored: the committed input is layers/typhoon_event_tracks.json.gz (the best tracks as the
 * build read them, ≈ 1.7 MB gz, and, per member, how far it strays from its track, so members that cannot reach the
 * portfolio are not followed). docs/decisions.md "2026-11-28 Portfolio tails from regenerated events".
 *
 * Rates: member m of storm i of source s is one event of rate 1/((n_s + 1)·Y_s·k_g) per year (n_s members per track,
 * Y_s years of record, k_g sources pooled in basin g), as in the layer build, so that the exceedance rate of the
 * events' winds at a 0.5° cell centre is the layer's histogram at that cell. Catalogue year of the event:
 * offset of the source in its basin + m·Y_s + (season − first year) + 1 (agencies of a basin one after the other).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fromBytes, GRID_01 } from '../layer-format.js';
import { KM_LAT, KM_LON_EQ, MAX_DIST_KM, stormSteps, WIND_THRESHOLD_MS, windAt, type Fix, type StepParams, type Storm } from './holland.js';
import { perturbStorm, Rng, skipMember, walkHours, type LandTest } from './synthetic-tracks.js';

export const EVENT_TRACKS_FILE_NAME = 'typhoon_event_tracks.json.gz';
/** Along-track step of the wind field (km), as the synthetic layer build (SYNTH_STEP_KM). */
export const EVENT_STEP_KM = 25;
/** Slack (km) added to a member's recorded drift: interpolation between fixes and the step spacing. */
const DRIFT_SLACK_KM = 60;

export interface EventTrackFile {
  format: 'crp-tc-event-tracks/1';
  seed: number;
  yearsPerBasin: number;
  stepKm: number;
  sources: EventSourceFile[];
}
export interface EventSourceFile {
  key: string;
  group: string;
  startYear: number;
  endYear: number;
  /** Synthetic members per track (member 0, the track itself, not counted). */
  members: number;
  storms: {
    /** First year of the storm (its season as the build counts it). */
    y: number;
    /** Fixes: hours, lat, lon, 1-min wind m/s, central pressure hPa, RMW km, mean 34/50/64-kt radii km (null = NaN). */
    f: (number | null)[][];
    /** Per member 1..n: largest distance (km, rounded up) of a member fix from the same fix of the track. */
    d: number[];
    /** Per member 1..n: normals drawn for re-intensification after landfall (to skip the member exactly). */
    k: number[];
  }[];
}

export interface EventSource {
  key: string;
  group: string;
  startYear: number;
  years: number;
  members: number;
  /** Events per year of each event of this source. */
  rate: number;
  /** First catalogue year of the source in its basin (agencies one after the other). */
  yearOffset: number;
  storms: { season: number; storm: Storm; drift: Uint16Array; maxDrift: number; reint: Uint8Array; hours: number }[];
}

export interface EventSet {
  seed: number;
  sources: EventSource[];
  /** Catalogue years of each basin (Σ (n_s + 1)·Y_s). */
  basinYears: Record<string, number>;
  onLand: LandTest;
}

/** Seed of storm i of a source: FNV-1a of the source key mixed with the run seed and the storm index (as the build). */
export function stormSeed(seed: number, key: string, i: number): number {
  let h = 2166136261 ^ seed;
  for (const ch of `${key}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);

export function fixesOf(rows: (number | null)[][]): Fix[] {
  return rows.map((r) => ({
    tH: num(r[0]),
    lat: num(r[1]),
    lon: num(r[2]),
    vMs: num(r[3]),
    pHpa: num(r[4]),
    rmwKm: num(r[5]),
    r34Km: num(r[6]),
    r50Km: num(r[7]),
    r64Km: num(r[8]),
  }));
}

/** MODIS IGBP land (curve_number ≠ 0, 0.1°) as the build's land test. */
export function landTestOf(curveNumber: Uint8Array): LandTest {
  const W1 = GRID_01.width,
    H1 = GRID_01.height;
  return (lat, lon) => {
    const r = Math.floor((90 - lat) / 0.1),
      c = Math.floor((lon + 180) / 0.1);
    if (r < 0 || r >= H1) return false;
    return curveNumber[r * W1 + (((c % W1) + W1) % W1)]! !== 0;
  };
}

/** The event set from a layers directory (typhoon_event_tracks.json.gz and curve_number.bin.gz). */
export function loadEventSet(layersDir: string): EventSet {
  const file = JSON.parse(gunzipSync(readFileSync(join(layersDir, EVENT_TRACKS_FILE_NAME))).toString('utf8')) as EventTrackFile;
  const cn = fromBytes('uint8', gunzipSync(readFileSync(join(layersDir, 'curve_number.bin.gz')))) as Uint8Array;
  return eventSetFrom(file, landTestOf(cn));
}

export function eventSetFrom(file: EventTrackFile, onLand: LandTest): EventSet {
  const basinYears: Record<string, number> = {};
  const count: Record<string, number> = {};
  for (const s of file.sources) count[s.group] = (count[s.group] ?? 0) + 1;
  const sources = file.sources.map((s) => {
    const years = s.endYear - s.startYear + 1;
    const yearOffset = basinYears[s.group] ?? 0;
    basinYears[s.group] = yearOffset + (s.members + 1) * years;
    return {
      key: s.key,
      group: s.group,
      startYear: s.startYear,
      years,
      members: s.members,
      rate: 1 / ((s.members + 1) * years * count[s.group]!),
      yearOffset,
      storms: s.storms.map((st, i) => {
        const drift = Uint16Array.from(st.d);
        const storm = { id: `${s.key}#${i}`, fixes: fixesOf(st.f) };
        return { season: st.y, storm, drift, maxDrift: drift.reduce((a, b) => Math.max(a, b), 0), reint: Uint8Array.from(st.k), hours: walkHours(storm) };
      }),
    };
  });
  return { seed: file.seed, sources, basinYears, onLand };
}

/** A point of the portfolio where the wind of every event is evaluated. */
export interface EventPoint {
  lat: number;
  lon: number;
}

/** One event that reached at least one point with a wind ≥ 17.5 m/s. */
export interface WindEvent {
  /** `<source>:<storm index>:<member>` (member 0 = the recorded track). */
  id: string;
  group: string;
  source: string;
  /** Catalogue year within the basin's catalogue (1-based). */
  year: number;
  /** Events per year. */
  rate: number;
  /** Points reached and their largest 1-min wind (m/s) during the event. */
  points: Int32Array;
  windMs: Float32Array;
}

export interface EventWinds {
  events: WindEvent[];
  /** Catalogue years per basin, and the rate of one year of each source (for the annual aggregate). */
  basinYears: Record<string, number>;
  stats: { membersGenerated: number; stormsFollowed: number; stormsSkipped: number; seconds: number; perturbSeconds: number };
}

const RAD = Math.PI / 180;
function gcKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD,
    dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Points bucketed by 1° cell, with the distance from any 1° cell to the nearest point memoised. */
class PointIndex {
  private readonly buckets = new Map<number, number[]>();
  private readonly cells: { lat: number; lon: number }[] = [];
  /** Distance (km) from each 1° cell centre to the nearest point's cell centre; NaN = not computed yet. */
  private readonly nearest = new Float32Array(180 * 360).fill(NaN);
  constructor(readonly points: readonly EventPoint[]) {
    points.forEach((p, i) => {
      const k = PointIndex.key(p.lat, p.lon);
      const b = this.buckets.get(k);
      if (b) b.push(i);
      else {
        this.buckets.set(k, [i]);
        this.cells.push({ lat: Math.floor(p.lat) + 0.5, lon: Math.floor(p.lon) + 0.5 });
      }
    });
  }
  static key(lat: number, lon: number): number {
    return (Math.floor(lat) + 90) * 360 + ((((Math.floor(lon) + 180) % 360) + 360) % 360);
  }
  /** A lower bound (km) of the distance from (lat, lon) to the nearest point: cell centres less a cell's reach. */
  distanceBelow(lat: number, lon: number): number {
    const k = PointIndex.key(lat, lon);
    let d = this.nearest[k]!;
    if (Number.isNaN(d)) {
      const cLat = Math.floor(lat) + 0.5,
        cLon = Math.floor(lon) + 0.5;
      d = Infinity;
      for (const c of this.cells) d = Math.min(d, gcKm(cLat, cLon, c.lat, c.lon));
      this.nearest[k] = d;
    }
    // both the query and the point lie within half a 1° cell's diagonal (≤ 79 km) of their centres
    return Math.max(0, d - 160);
  }
  /** The point lists of the 1° cells overlapping a box. */
  within(south: number, north: number, west: number, east: number, out: number[][]): void {
    out.length = 0;
    for (let la = Math.floor(south); la <= Math.floor(north); la++) {
      if (la < -90 || la > 89) continue;
      for (let lo = Math.floor(west); lo <= Math.floor(east); lo++) {
        const b = this.buckets.get(PointIndex.key(la, lo));
        if (b) out.push(b);
      }
    }
  }
}

/** Smallest distance (km, lower bound) from a track's fixes and 50 km steps between them to the nearest point. */
function trackDistance(fixes: readonly Fix[], idx: PointIndex): number {
  let best = Infinity;
  for (let i = 0; i < fixes.length; i++) {
    const a = fixes[i]!;
    if (!Number.isFinite(a.lat) || !Number.isFinite(a.lon)) continue;
    best = Math.min(best, idx.distanceBelow(a.lat, a.lon));
    const b = fixes[i + 1];
    if (!b || !Number.isFinite(b.lat) || !Number.isFinite(b.lon)) continue;
    let dl = b.lon - a.lon;
    if (dl > 180) dl -= 360;
    if (dl < -180) dl += 360;
    const n = Math.ceil(gcKm(a.lat, a.lon, b.lat, b.lon) / 50);
    for (let k = 1; k < n; k++) {
      let lon = a.lon + (dl * k) / n;
      if (lon > 180) lon -= 360;
      if (lon < -180) lon += 360;
      best = Math.min(best, idx.distanceBelow(a.lat + ((b.lat - a.lat) * k) / n, lon));
    }
  }
  return best;
}

/** Whether any stretch of a member comes within MAX_DIST_KM of a point (each point of a segment lies within half its length of an end). */
function memberNear(fixes: readonly Fix[], idx: PointIndex): boolean {
  for (let i = 0; i + 1 < fixes.length; i++) {
    const a = fixes[i]!,
      b = fixes[i + 1]!;
    const half = gcKm(a.lat, a.lon, b.lat, b.lon) / 2;
    if (Math.min(idx.distanceBelow(a.lat, a.lon), idx.distanceBelow(b.lat, b.lon)) - half <= MAX_DIST_KM) return true;
  }
  return false;
}

/** The largest wind of one step at every point in reach, into `maxWind` (points first reached appended to `hit`). */
const LISTS: number[][] = [];
function paintPoints(s: StepParams, idx: PointIndex, maxWind: Float32Array, hit: number[]): void {
  // every point within MAX_DIST_KM: the layer build's paint() stops at outerRadiusKm, beyond which the wind is below
  // the threshold anyway (the profile falls with distance outside R_max)
  const rOut = MAX_DIST_KM;
  const dLat = rOut / KM_LAT,
    dLon = rOut / (KM_LON_EQ * Math.max(0.2, Math.cos(s.lat * RAD)));
  idx.within(s.lat - dLat, s.lat + dLat, s.lon - dLon, s.lon + dLon, LISTS);
  for (const list of LISTS)
    for (const i of list) {
      const p = idx.points[i]!;
      // the same geometry as the layer build's paint() (scripts/build-synthetic.ts)
      const dy = (p.lat - s.lat) * KM_LAT;
      const kmLon = KM_LON_EQ * Math.cos(((p.lat + s.lat) / 2) * RAD);
      let dl = p.lon - s.lon;
      if (dl > 180) dl -= 360;
      if (dl < -180) dl += 360;
      const dx = dl * kmLon;
      if (dx * dx + dy * dy > rOut * rOut) continue;
      const v = windAt(s, dx, dy);
      if (v < WIND_THRESHOLD_MS) continue;
      if (maxWind[i] === 0) hit.push(i);
      if (v > maxWind[i]!) maxWind[i] = v;
    }
}

/**
 * Every event of the set that brings a wind ≥ 17.5 m/s to at least one point, with its wind at each point reached.
 * `groups` limits the basins followed (all by default). Exact: a member is only skipped when its recorded drift from
 * its track cannot bring its 300 km wind field to any point.
 */
export function eventWindsAt(set: EventSet, points: readonly EventPoint[], groups?: readonly string[]): EventWinds {
  const t0 = Date.now();
  const idx = new PointIndex(points);
  const maxWind = new Float32Array(points.length);
  const hit: number[] = [];
  const events: WindEvent[] = [];
  const near = (lat: number, lon: number) => idx.distanceBelow(lat, lon) <= MAX_DIST_KM;
  let perturbMs = 0;
  let membersGenerated = 0,
    stormsFollowed = 0,
    stormsSkipped = 0;
  for (const src of set.sources) {
    if (groups && !groups.includes(src.group)) continue;
    src.storms.forEach((st, i) => {
      if (!points.length) return;
      const dTrack = trackDistance(st.storm.fixes, idx);
      const reach = MAX_DIST_KM + DRIFT_SLACK_KM;
      if (dTrack > st.maxDrift + reach) {
        stormsSkipped++;
        return;
      }
      stormsFollowed++;
      let last = 0;
      for (let m = 1; m <= src.members; m++) if (st.drift[m - 1]! + reach >= dTrack) last = m;
      const rng = new Rng(stormSeed(set.seed, src.key, i));
      for (let m = 0; m <= last; m++) {
        if (m > 0 && st.drift[m - 1]! + reach < dTrack) {
          skipMember(st.hours, rng, st.reint[m - 1]!); // cannot reach: only the random sequence advances
          continue;
        }
        const tp = performance.now();
        const member = m === 0 ? st.storm : perturbStorm(st.storm, rng, set.onLand);
        perturbMs += performance.now() - tp;
        if (m > 0) membersGenerated++;
        if (!memberNear(member.fixes, idx)) continue;
        stormSteps(member, EVENT_STEP_KM, (s) => paintPoints(s, idx, maxWind, hit), near);
        if (!hit.length) continue;
        hit.sort((a, b) => a - b);
        const pts = Int32Array.from(hit);
        const w = new Float32Array(pts.length);
        pts.forEach((p, k) => {
          w[k] = maxWind[p]!;
          maxWind[p] = 0;
        });
        hit.length = 0;
        events.push({
          id: `${src.key}:${i}:${m}`,
          group: src.group,
          source: src.key,
          year: src.yearOffset + m * src.years + (st.season - src.startYear) + 1,
          rate: src.rate,
          points: pts,
          windMs: w,
        });
      }
    });
  }
  return {
    events,
    basinYears: set.basinYears,
    stats: { membersGenerated, stormsFollowed, stormsSkipped, seconds: (Date.now() - t0) / 1000, perturbSeconds: perturbMs / 1000 },
  };
}

/** Largest distance (km, rounded up) of each member fix from the same fix of the track (the build's drift index). */
export function memberDrift(track: Storm, member: Storm): number {
  const a = track.fixes.filter((f) => Number.isFinite(f.lat) && Number.isFinite(f.lon));
  let d = 0;
  member.fixes.forEach((f, k) => {
    const h = a[k];
    if (h) d = Math.max(d, gcKm(h.lat, h.lon, f.lat, f.lon));
  });
  return Math.ceil(d);
}
