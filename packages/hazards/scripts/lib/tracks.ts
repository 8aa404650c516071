/**
 * Best-track readers. Every storm becomes a list of fixes with the wind converted to a 1-minute sustained 10 m wind (m/s).
 * Conversions: kt × 0.514444; 10-min (RSMC Tokyo via IBTrACS WMO) ÷ 0.93 to 1-min (WMO guideline, Harper, Kepert &
 * Ginger 2010, WMO/TD-No. 1555, "at-sea" factor); CMA 2-min and IMD 3-min winds are used as reported (no conversion).
 */
import { readText, readCsv } from './io.js';

export const KT = 0.514444;
export const NM_KM = 1.852;
/** 1-min → 10-min at-sea conversion factor (Harper et al. 2010). */
export const ONE_TO_TEN_MIN = 0.93;

export interface Fix {
  tH: number;
  lat: number;
  lon: number;
  vMs: number;
  pHpa: number;
  rmwKm: number;
  /** Mean radius (km) of 34, 50 and 64 kt winds over the reported quadrants (JTWC b-decks, HURDAT2 from 2004); NaN if absent. */
  r34Km?: number;
  r50Km?: number;
  r64Km?: number;
}
export interface Storm {
  id: string;
  fixes: Fix[];
}
export interface TrackSource {
  key: string;
  label: string;
  group: 'WP' | 'NA' | 'EP' | 'NI' | 'SH';
  startYear: number;
  endYear: number;
  storms: Storm[];
  dataset: string;
}

const hours = (y: number, mo: number, d: number, h: number) => Date.UTC(y, mo - 1, d, h) / 3.6e6;
const isoH = (s: string) => Date.parse(s.endsWith('Z') ? s : s + 'Z') / 3.6e6;
const num = (s: string | undefined) => {
  if (s === undefined) return NaN;
  const t = s.trim();
  if (t === '') return NaN;
  const v = Number(t);
  return Number.isFinite(v) ? v : NaN;
};
const wrapLon = (l: number) => (l > 180 ? l - 360 : l < -180 ? l + 360 : l);

function meanRadiusKm(quads: (string | undefined)[]): number {
  const v = quads.map((q) => num(q)).filter((x) => x > 0);
  return v.length ? (v.reduce((a, b) => a + b, 0) / v.length) * NM_KM : NaN;
}

/** Append a fix, or merge wind radii into the previous fix of the same storm and time (b-decks repeat rows per radius). */
function pushFix(map: Map<string, Fix[]>, key: string, f: Fix, radKt?: number, radiusKm?: number): void {
  const list = map.get(key) ?? map.set(key, []).get(key)!;
  const last = list[list.length - 1];
  const target = last && last.tH === f.tH ? last : (list.push(f), f);
  if (radKt && radiusKm && radiusKm > 0) {
    if (radKt === 34) target.r34Km = radiusKm;
    else if (radKt === 50) target.r50Km = radiusKm;
    else if (radKt === 64) target.r64Km = radiusKm;
  }
}

function finish(map: Map<string, Fix[]>): Storm[] {
  const out: Storm[] = [];
  for (const [id, fixes] of map) {
    fixes.sort((a, b) => a.tH - b.tH);
    const dedup = fixes.filter((f, i) => i === 0 || f.tH !== fixes[i - 1]!.tH);
    if (dedup.some((f) => f.vMs >= 17.5)) out.push({ id, fixes: dedup });
  }
  return out;
}

function yearOfStorm(s: Storm) {
  return new Date(s.fixes[0]!.tH * 3.6e6).getUTCFullYear();
}

function clip(src: TrackSource): TrackSource {
  src.storms = src.storms.filter((s) => {
    const y = yearOfStorm(s);
    return y >= src.startYear && y <= src.endYear;
  });
  return src;
}

/** JTWC western North Pacific b-decks (1-min, RMW in MRD, nm). Storms are consecutive rows with the same CY. */
export function jtwcWp(dir: string): TrackSource {
  const { header, rows } = readCsv(dir, 'jtwc-besttrack-wp/jtwc_wp_bdeck_1945_2021.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const [iY, iM, iD, iH, iCY, iLat, iLon, iV, iP, iMRD] = ['YYYY', 'MM', 'DD', 'HH', 'CY', 'LAT', 'LON', 'VMAX', 'MSLP', 'MRD'].map(ix) as number[];
  const map = new Map<string, Fix[]>();
  for (const r of rows) {
    const cy = +r[iCY!]!;
    const yy = num(r[iY!]),
      mm = num(r[iM!]);
    const t = hours(yy, mm, num(r[iD!]), num(r[iH!]));
    // rows are in time order with storms interleaved: a storm is (season year, CY); late-season numbers seen in
    // January belong to the previous year's season
    const key = `${mm === 1 && cy >= 20 ? yy - 1 : yy}-${cy}`;
    const mrd = num(r[iMRD!]);
    const p = num(r[iP!]);
    const iRad = header.indexOf('RAD'),
      iR1 = header.indexOf('RAD1');
    pushFix(
      map,
      key,
      {
        tH: t,
        lat: num(r[iLat!]),
        lon: wrapLon(num(r[iLon!])),
        vMs: num(r[iV!]) * KT,
        pHpa: p > 850 && p < 1020 ? p : NaN,
        rmwKm: mrd > 0 ? mrd * NM_KM : NaN,
      },
      num(r[iRad]),
      meanRadiusKm(r.slice(iR1, iR1 + 4)),
    );
  }
  return clip({ key: 'jtwc_wp', label: 'JTWC WP best track', group: 'WP', startYear: 1977, endYear: 2021, storms: finish(map), dataset: 'jtwc-besttrack-wp' });
}

/** CMA western North Pacific best track (2-min wind m/s, central pressure). ET fixes (grade 9) are dropped. */
export function cmaWnp(dir: string): TrackSource {
  const { header, rows } = readCsv(dir, 'cma-besttrack-wnp/cma_bst_1949_2024.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const map = new Map<string, Fix[]>();
  for (const r of rows) {
    if (r[ix('grade')] === '9') continue;
    const id = r[ix('storm_id')]!;
    const p = num(r[ix('pres_hpa')]);
    (map.get(id) ?? map.set(id, []).get(id)!).push({
      tH: isoH(r[ix('time_utc')]!),
      lat: num(r[ix('lat')]),
      lon: wrapLon(num(r[ix('lon')])),
      vMs: num(r[ix('wind_ms')]),
      pHpa: p > 850 && p < 1020 ? p : NaN,
      rmwKm: NaN,
    });
  }
  return clip({ key: 'cma_wnp', label: 'CMA WNP best track', group: 'WP', startYear: 1977, endYear: 2024, storms: finish(map), dataset: 'cma-besttrack-wnp' });
}

/** IBTrACS v04r01 WP, WMO-agency (RSMC Tokyo) 10-min wind, converted to 1-min. */
export function ibtracsWp(dir: string): TrackSource {
  const { header, rows } = readCsv(dir, 'ibtracs-wp-v04r01/ibtracs_wp_v04r01_6h_subset.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const map = new Map<string, Fix[]>();
  for (const r of rows) {
    const v = num(r[ix('WMO_WIND_KT')]);
    const p = num(r[ix('WMO_PRES_HPA')]);
    const id = r[ix('SID')]!;
    (map.get(id) ?? map.set(id, []).get(id)!).push({
      tH: isoH(r[ix('ISO_TIME')]!),
      lat: num(r[ix('LAT')]),
      lon: wrapLon(num(r[ix('LON')])),
      vMs: Number.isFinite(v) ? (v * KT) / ONE_TO_TEN_MIN : NaN,
      pHpa: p > 850 && p < 1020 ? p : NaN,
      rmwKm: NaN,
    });
  }
  return clip({
    key: 'ibtracs_wp',
    label: 'IBTrACS WP (RSMC Tokyo wind)',
    group: 'WP',
    startYear: 1977,
    endYear: 2024,
    storms: finish(map),
    dataset: 'ibtracs-wp-v04r01',
  });
}

/** HURDAT2 (Atlantic or NE/Central Pacific), 1-min wind; only tropical/subtropical statuses. */
export function hurdat2(dir: string, rel: string, key: string, group: 'NA' | 'EP', startYear: number, endYear: number, dataset: string): TrackSource {
  const lines = readText(dir, rel).split(/\r?\n/);
  const map = new Map<string, Fix[]>();
  let id = '';
  const keep = new Set(['TD', 'TS', 'HU', 'SD', 'SS']);
  for (const line of lines) {
    if (!line.trim()) continue;
    const f = line.split(',').map((s) => s.trim());
    if (/^[A-Z]{2}\d{6}$/.test(f[0]!)) {
      id = f[0]!;
      continue;
    }
    if (!keep.has(f[3]!)) continue;
    const d = f[0]!,
      hm = f[1]!.padStart(4, '0');
    const lat = parseFloat(f[4]!) * (f[4]!.endsWith('S') ? -1 : 1);
    const lon = parseFloat(f[5]!) * (f[5]!.endsWith('W') ? -1 : 1);
    const v = num(f[6]),
      p = num(f[7]);
    (map.get(id) ?? map.set(id, []).get(id)!).push({
      tH: hours(+d.slice(0, 4), +d.slice(4, 6), +d.slice(6, 8), +hm.slice(0, 2) + +hm.slice(2) / 60),
      lat,
      lon: wrapLon(lon),
      vMs: v > 0 ? v * KT : NaN,
      pHpa: p > 850 && p < 1020 ? p : NaN,
      rmwKm: NaN,
      r34Km: meanRadiusKm(f.slice(8, 12)),
      r50Km: meanRadiusKm(f.slice(12, 16)),
      r64Km: meanRadiusKm(f.slice(16, 20)),
    });
  }
  return clip({ key, label: `HURDAT2 ${group}`, group, startYear, endYear, storms: finish(map), dataset });
}

/** JTWC North Indian Ocean b-decks (1-min, RMW from 2001). */
export function jtwcIo(dir: string): TrackSource {
  const lines = readText(dir, 'tc-besttrack-north-indian/jtwc_io_bdeck_1982-2023.txt.gz').split(/\r?\n/);
  const map = new Map<string, Fix[]>();
  let key = '',
    prevCy = '',
    prevT = -Infinity;
  for (const line of lines) {
    const f = line.split(',').map((s) => s.trim());
    if (f.length < 9) continue;
    const dt = f[2]!;
    const t = hours(+dt.slice(0, 4), +dt.slice(4, 6), +dt.slice(6, 8), +dt.slice(8, 10));
    if (f[1] !== prevCy || t - prevT > 72) key = `${dt.slice(0, 4)}-${f[1]}-${t}`;
    prevCy = f[1]!;
    prevT = t;
    const lat = (parseFloat(f[6]!) / 10) * (f[6]!.endsWith('S') ? -1 : 1);
    const lon = (parseFloat(f[7]!) / 10) * (f[7]!.endsWith('W') ? -1 : 1);
    const p = num(f[9]),
      mrd = num(f[19]);
    pushFix(
      map,
      key,
      { tH: t, lat, lon: wrapLon(lon), vMs: num(f[8]) * KT, pHpa: p > 850 && p < 1020 ? p : NaN, rmwKm: mrd > 0 ? mrd * NM_KM : NaN },
      num(f[11]),
      meanRadiusKm(f.slice(13, 17)),
    );
  }
  return clip({
    key: 'jtwc_io',
    label: 'JTWC North Indian best track',
    group: 'NI',
    startYear: 1982,
    endYear: 2023,
    storms: finish(map),
    dataset: 'tc-besttrack-north-indian',
  });
}

/** IMD RSMC New Delhi best track (3-min wind kt, no pressure). */
export function imdNi(dir: string): TrackSource {
  const { header, rows } = readCsv(dir, 'tc-besttrack-north-indian/imd_besttrack_as_bob_1982-2023.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const map = new Map<string, Fix[]>();
  for (const r of rows) {
    const id = r[ix('CS_ID')]!;
    (map.get(id) ?? map.set(id, []).get(id)!).push({
      tH: isoH(r[ix('DATETIME')]!.replace(' ', 'T')),
      lat: num(r[ix('LAT')]),
      lon: wrapLon(num(r[ix('LON')])),
      vMs: num(r[ix('MSWS')]) * KT,
      pHpa: NaN,
      rmwKm: NaN,
    });
  }
  return clip({
    key: 'imd_ni',
    label: 'IMD North Indian best track',
    group: 'NI',
    startYear: 1982,
    endYear: 2023,
    storms: finish(map),
    dataset: 'tc-besttrack-north-indian',
  });
}

/** JTWC Southern Hemisphere (1-min, no pressure). Seasons 1982-2019 (38 seasons). */
export function jtwcSh(dir: string): TrackSource {
  const { header, rows } = readCsv(dir, 'jtwc-besttrack-southern-hemisphere/jtwc_sh_1982-2019_clean.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const map = new Map<string, Fix[]>();
  for (const r of rows) {
    const id = r[ix('storm_id')]!;
    (map.get(id) ?? map.set(id, []).get(id)!).push({
      tH: isoH(r[ix('time_utc')]!),
      lat: num(r[ix('lat')]),
      lon: wrapLon(num(r[ix('lon')])),
      vMs: num(r[ix('vmax_kt')]) * KT,
      pHpa: NaN,
      rmwKm: NaN,
    });
  }
  // seasons: Jul 1981 .. Jun 2019
  return {
    key: 'jtwc_sh',
    label: 'JTWC Southern Hemisphere best track',
    group: 'SH',
    startYear: 1982,
    endYear: 2019,
    storms: finish(map),
    dataset: 'jtwc-besttrack-southern-hemisphere',
  };
}

export function allSources(dir: string): TrackSource[] {
  return [
    jtwcWp(dir),
    cmaWnp(dir),
    ibtracsWp(dir),
    hurdat2(dir, 'hurdat2-atlantic-1970-2016/hurdat2_atlantic_1970_2016.txt.gz', 'hurdat2_al', 'NA', 1970, 2016, 'hurdat2-atlantic-1970-2016'),
    hurdat2(dir, 'hurdat2-nepac-1949-2019/hurdat2-nepac-1949-2019-042320.txt.gz', 'hurdat2_ep', 'EP', 1970, 2019, 'hurdat2-nepac-1949-2019'),
    jtwcIo(dir),
    imdNi(dir),
    jtwcSh(dir),
  ];
}
