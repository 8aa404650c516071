/**
 * Reproducible build of the committed historical tropical-cyclone track archive (layers/typhoon_tracks.json.gz):
 * one record per storm, de-duplicated across agencies, from the raw best tracks in HAZARD_RAW_DIR (default ../shared/data).
 * Run: npm run build:tracks -w @crp/hazards (root `npm run hazards:build` runs it after the layers).
 *
 * Rules (docs/decisions.md, docs/methodology/hazards.md "Historical tracks"):
 * - seasons from 1949; only storms reaching tropical-storm strength (lifetime maximum ≥ 17.5 m/s);
 * - per basin the sources are taken in priority order and a storm of a later source is dropped when it shares two or more
 *   synoptic times within 250 km with a storm already kept: WP IBTrACS (where it reports a wind) > JTWC > CMA;
 *   NI IBTrACS > IMD > JTWC; NA and EP HURDAT2; SH JTWC;
 * - names come from the kept record or, when it has none (IBTrACS subset, IMD), from the matching JTWC / CMA storm; where the
 *   kept record reports no wind at a fix (RSMC Tokyo gives none for depressions), the matching record's wind at the same
 *   synoptic time fills it;
 * - storms that crossed from the WP into the North Indian Ocean are kept once, from the WP records;
 * - fixes at their native 3-6 h steps, lat/lon to 0.1°, wind as 1-minute sustained 10 m wind in m/s to 0.1, converted as
 *   the typhoon layer does (scripts/lib/tracks.ts): kt × 0.514444; RSMC Tokyo 10-min (IBTrACS WP) ÷ 0.93; CMA 2-min and
 *   IMD 3-min as reported.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { DATASETS } from '../src/datasets.js';
import { rawDir, readCsv, readText } from './lib/io.js';
import { KT, ONE_TO_TEN_MIN } from './lib/tracks.js';

const here = dirname(fileURLToPath(import.meta.url));
export const TRACKS_LAYERS_DIR = resolve(here, '../layers');
export const TRACKS_FILE = 'typhoon_tracks.json.gz';
export const FIRST_SEASON = 1949;
const TS_MS = 17.5;
const MATCH_KM = 250;

interface RFix {
  tH: number;
  lat: number;
  lon: number;
  v: number;
}
interface RStorm {
  id: string;
  name: string | null;
  season: number;
  basin: string;
  agency: string;
  dataset: string;
  fixes: RFix[];
}

/** The committed file: one record per storm; `dt` hours since the previous fix (first = 0), `la`/`lo` in 0.1°, `w` m/s (null = not reported). */
export interface TrackFileStorm {
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
export interface TrackFileSource {
  basin: string;
  agency: string;
  dataset: string;
  from: number;
  to: number;
  storms: number;
  wind: string;
}
export interface TrackFile {
  format: 'crp-tc-tracks/1';
  generator: string;
  firstSeason: number;
  sources: TrackFileSource[];
  storms: TrackFileStorm[];
}

const hours = (y: number, mo: number, d: number, h: number) => Date.UTC(y, mo - 1, d, h) / 3.6e6;
const isoH = (s: string) => Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(s) ? s : s + 'Z') / 3.6e6;
const num = (s: string | undefined) => {
  const t = (s ?? '').trim();
  if (t === '') return NaN;
  const v = Number(t);
  return Number.isFinite(v) ? v : NaN;
};
const wrapLon = (l: number) => (l > 180 ? l - 360 : l < -180 ? l + 360 : l);
const r1 = (x: number) => Math.round(x * 10) / 10;

const NUMBER_WORDS =
  /^(ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN|ELEVEN|TWELVE|THIRTEEN|FOURTEEN|FIFTEEN|SIXTEEN|SEVENTEEN|EIGHTEEN|NINETEEN|TWENTY|THIRTY|FORTY|FIFTY|[-\s])+$/i;
/** A real storm name in title case, or null for placeholders (numbers, INVEST, UNNAMED, NONAME). */
export function cleanName(raw: string | undefined): string | null {
  const s = (raw ?? '').trim();
  if (
    !s ||
    /^\(.*\)$/.test(s) ||
    /^\d+[A-Z]?$/.test(s) ||
    NUMBER_WORDS.test(s) ||
    /^(INVEST|UNNAMED|NONAME|NAMELESS|TD|TS|NN|-+)$/i.test(s) ||
    /^[A-Z]{2}\d{6}$/.test(s)
  )
    return null;
  return s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());
}

function grouped<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) (m.get(key(r)) ?? m.set(key(r), []).get(key(r))!).push(r);
  return m;
}

function finishStorm(s: RStorm): RStorm | null {
  const fx = s.fixes.filter((f) => Number.isFinite(f.tH) && Number.isFinite(f.lat) && Number.isFinite(f.lon)).sort((a, b) => a.tH - b.tH);
  const fixes = fx.filter((f, i) => i === 0 || f.tH !== fx[i - 1]!.tH);
  if (fixes.length < 2 || s.season < FIRST_SEASON) return null;
  if (!fixes.some((f) => f.v >= TS_MS)) return null;
  return { ...s, fixes };
}

/** Most frequent real name among the rows (JTWC b-decks carry a number word until the storm is named). */
function bestName(names: (string | undefined)[]): string | null {
  const c = new Map<string, number>();
  for (const n of names) {
    const k = cleanName(n);
    if (k) c.set(k, (c.get(k) ?? 0) + 1);
  }
  let best: string | null = null,
    bn = 0;
  for (const [k, v] of c)
    if (v > bn) {
      best = k;
      bn = v;
    }
  return best;
}

// ------------------------------------------------------------------------------------------------- readers
function ibtracsWp(dir: string): RStorm[] {
  const { header, rows } = readCsv(dir, 'ibtracs-wp-v04r01/ibtracs_wp_v04r01_6h_subset.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const [iS, iT, iLa, iLo, iW] = ['SID', 'ISO_TIME', 'LAT', 'LON', 'WMO_WIND_KT'].map(ix) as number[];
  return [...grouped(rows, (r) => r[iS!]!)].map(([id, rs]) => ({
    id,
    name: null,
    season: +id.slice(0, 4),
    basin: 'WP',
    agency: 'IBTrACS (RSMC Tokyo wind)',
    dataset: 'ibtracs-wp-v04r01',
    fixes: rs.map((r) => ({ tH: isoH(r[iT!]!), lat: num(r[iLa!]), lon: wrapLon(num(r[iLo!])), v: (num(r[iW!]) * KT) / ONE_TO_TEN_MIN })),
  }));
}

function jtwcWp(dir: string): RStorm[] {
  const { header, rows } = readCsv(dir, 'jtwc-besttrack-wp/jtwc_wp_bdeck_1945_2021.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const [iY, iM, iD, iH, iCY, iLa, iLo, iV, iN] = ['YYYY', 'MM', 'DD', 'HH', 'CY', 'LAT', 'LON', 'VMAX', 'STORMNAME'].map(ix) as number[];
  // storms are interleaved: a storm is (season, CY); late-season numbers seen in January belong to the previous season
  const season = (r: string[]) => (+r[iM!]! === 1 && +r[iCY!]! >= 20 ? +r[iY!]! - 1 : +r[iY!]!);
  return [...grouped(rows, (r) => `${season(r)}-${+r[iCY!]!}`)].map(([id, rs]) => ({
    id: `JTWC-WP-${id}`,
    name: bestName(rs.map((r) => r[iN!])),
    season: season(rs[0]!),
    basin: 'WP',
    agency: 'JTWC',
    dataset: 'jtwc-besttrack-wp',
    fixes: rs.map((r) => ({ tH: hours(+r[iY!]!, +r[iM!]!, +r[iD!]!, +r[iH!]!), lat: num(r[iLa!]), lon: wrapLon(num(r[iLo!])), v: num(r[iV!]) * KT })),
  }));
}

function cmaWnp(dir: string): RStorm[] {
  const { header, rows } = readCsv(dir, 'cma-besttrack-wnp/cma_bst_1949_2024.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const [iS, iN, iT, iG, iLa, iLo, iW] = ['storm_id', 'name', 'time_utc', 'grade', 'lat', 'lon', 'wind_ms'].map(ix) as number[];
  return [
    ...grouped(
      rows.filter((r) => r[iG!] !== '9'),
      (r) => r[iS!]!,
    ),
  ].map(([id, rs]) => ({
    id: `CMA-${id}`,
    name: bestName(rs.map((r) => r[iN!])),
    season: +id.slice(0, 4),
    basin: 'WP',
    agency: 'CMA',
    dataset: 'cma-besttrack-wnp',
    fixes: rs.map((r) => ({ tH: isoH(r[iT!]!), lat: num(r[iLa!]), lon: wrapLon(num(r[iLo!])), v: num(r[iW!]) > 0 ? num(r[iW!]) : NaN })),
  }));
}

function hurdat2(dir: string, rel: string, dataset: string, defaultBasin: 'NA' | 'EP'): RStorm[] {
  const out: RStorm[] = [];
  const keep = new Set(['TD', 'TS', 'HU', 'SD', 'SS']);
  let cur: RStorm | null = null;
  for (const line of readText(dir, rel).split(/\r?\n/)) {
    if (!line.trim()) continue;
    const f = line.split(',').map((s) => s.trim());
    if (/^[A-Z]{2}\d{6}$/.test(f[0]!)) {
      const id = f[0]!;
      cur = {
        id,
        name: cleanName(f[1]),
        season: +id.slice(4),
        basin: id.startsWith('CP') ? 'CP' : defaultBasin,
        agency: id.startsWith('CP') ? 'NHC/CPHC (HURDAT2)' : 'NHC (HURDAT2)',
        dataset,
        fixes: [],
      };
      out.push(cur);
      continue;
    }
    if (!cur || !keep.has(f[3]!)) continue;
    const d = f[0]!,
      hm = f[1]!.padStart(4, '0');
    const v = num(f[6]);
    cur.fixes.push({
      tH: hours(+d.slice(0, 4), +d.slice(4, 6), +d.slice(6, 8), +hm.slice(0, 2) + +hm.slice(2) / 60),
      lat: parseFloat(f[4]!) * (f[4]!.endsWith('S') ? -1 : 1),
      lon: wrapLon(parseFloat(f[5]!) * (f[5]!.endsWith('W') ? -1 : 1)),
      v: v > 0 ? v * KT : NaN,
    });
  }
  return out;
}

function niCsv(dir: string, rel: string, agency: string, prefix: string): RStorm[] {
  const { header, rows } = readCsv(dir, rel);
  const ix = (n: string) => header.indexOf(n);
  const [iT, iS, iLa, iLo, iW] = ['DATETIME', 'CS_ID', 'LAT', 'LON', 'MSWS'].map(ix) as number[];
  return [...grouped(rows, (r) => r[iS!]!)].map(([id, rs]) => ({
    id: `${prefix}${id}`,
    name: null,
    season: +id.slice(0, 4),
    basin: 'NI',
    agency,
    dataset: 'tc-besttrack-north-indian',
    fixes: rs.map((r) => ({ tH: isoH(r[iT!]!.replace(' ', 'T')), lat: num(r[iLa!]), lon: wrapLon(num(r[iLo!])), v: num(r[iW!]) * KT })),
  }));
}

function jtwcIo(dir: string): RStorm[] {
  const map = new Map<string, { rows: string[][] }>();
  let key = '',
    prevCy = '',
    prevT = -Infinity;
  for (const line of readText(dir, 'tc-besttrack-north-indian/jtwc_io_bdeck_1982-2023.txt.gz').split(/\r?\n/)) {
    const f = line.split(',').map((s) => s.trim());
    if (f.length < 9) continue;
    const dt = f[2]!;
    const t = hours(+dt.slice(0, 4), +dt.slice(4, 6), +dt.slice(6, 8), +dt.slice(8, 10));
    if (f[1] !== prevCy || t - prevT > 72) key = `${dt.slice(0, 4)}-${f[1]}-${t}`;
    prevCy = f[1]!;
    prevT = t;
    (map.get(key) ?? map.set(key, { rows: [] }).get(key)!).rows.push(f);
  }
  return [...map].map(([k, { rows }]) => ({
    id: `JTWC-IO-${k.split('-').slice(0, 2).join('-')}`,
    name: bestName(rows.map((f) => f[27])),
    season: +k.slice(0, 4),
    basin: 'NI',
    agency: 'JTWC',
    dataset: 'tc-besttrack-north-indian',
    fixes: rows.map((f) => {
      const dt = f[2]!;
      return {
        tH: hours(+dt.slice(0, 4), +dt.slice(4, 6), +dt.slice(6, 8), +dt.slice(8, 10)),
        lat: (parseFloat(f[6]!) / 10) * (f[6]!.endsWith('S') ? -1 : 1),
        lon: wrapLon((parseFloat(f[7]!) / 10) * (f[7]!.endsWith('W') ? -1 : 1)),
        v: num(f[8]) * KT,
      };
    }),
  }));
}

function jtwcSh(dir: string): RStorm[] {
  const { header, rows } = readCsv(dir, 'jtwc-besttrack-southern-hemisphere/jtwc_sh_1982-2019_clean.csv.gz');
  const ix = (n: string) => header.indexOf(n);
  const [iS, iSe, iT, iLa, iLo, iV, iB] = ['storm_id', 'season', 'time_utc', 'lat', 'lon', 'vmax_kt', 'basin_genesis'].map(ix) as number[];
  return [...grouped(rows, (r) => r[iS!]!)].map(([id, rs]) => ({
    id,
    name: null,
    season: +rs[0]![iSe!]!,
    basin: rs[0]![iB!] === 'SP' ? 'SP' : 'SI',
    agency: 'JTWC',
    dataset: 'jtwc-besttrack-southern-hemisphere',
    fixes: rs.map((r) => ({ tH: isoH(r[iT!]!), lat: num(r[iLa!]), lon: wrapLon(num(r[iLo!])), v: num(r[iV!]) * KT })),
  }));
}

// ------------------------------------------------------------------------------------------------- de-duplication
function km(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad,
    dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Storms already kept, indexed by synoptic hour, to find the same storm in another agency's record. */
class KeptIndex {
  private byHour = new Map<number, { i: number; lat: number; lon: number }[]>();
  constructor(readonly kept: RStorm[] = []) {}
  add(s: RStorm) {
    const i = this.kept.push(s) - 1;
    for (const f of s.fixes) (this.byHour.get(f.tH) ?? this.byHour.set(f.tH, []).get(f.tH)!).push({ i, lat: f.lat, lon: f.lon });
  }
  /** Index of the kept storm sharing ≥ 2 synoptic times within 250 km (≥ 1 for two-fix records), or -1. */
  match(s: RStorm): number {
    const count = new Map<number, number>();
    for (const f of s.fixes)
      for (const k of this.byHour.get(f.tH) ?? []) if (km(f.lat, f.lon, k.lat, k.lon) <= MATCH_KM) count.set(k.i, (count.get(k.i) ?? 0) + 1);
    let best = -1,
      bn = 0;
    for (const [i, n] of count)
      if (n > bn) {
        best = i;
        bn = n;
      }
    return bn >= Math.min(2, s.fixes.length) ? best : -1;
  }
}

/**
 * Keeps the storms of `primary` (in order of priority), then each storm of the later sources unless it matches one kept.
 * `nameFrom` sources only lend names to kept storms.
 */
function merge(ordered: RStorm[][], idx = new KeptIndex()): RStorm[] {
  const start = idx.kept.length;
  for (const src of ordered) {
    for (const s0 of src) {
      const s = finishStorm(s0);
      if (!s) continue;
      const m = idx.match(s);
      if (m < 0) {
        idx.add(s);
        continue;
      }
      // same storm in a lower-priority record: lend its name, and its wind where the kept record has none at that time
      const k = idx.kept[m]!;
      if (!k.name && s.name) k.name = s.name;
      const byT = new Map(s.fixes.map((f) => [f.tH, f.v]));
      for (const f of k.fixes) if (!Number.isFinite(f.v) && Number.isFinite(byT.get(f.tH))) f.v = byT.get(f.tH)!;
    }
  }
  return idx.kept.slice(start);
}

export function buildTrackFile(dir: string): TrackFile {
  const ib = ibtracsWp(dir),
    jt = jtwcWp(dir),
    cma = cmaWnp(dir);
  // IBTrACS is preferred where it reports a wind for the storm (RSMC Tokyo, mostly from 1977); earlier storms come from JTWC, then CMA
  const ibWithWind = ib.filter((s) => s.fixes.some((f) => Number.isFinite(f.v)));
  const wpIdx = new KeptIndex();
  const wp = merge([ibWithWind, jt, cma], wpIdx);
  // storms that crossed from the WP into the North Indian Ocean are already kept whole from the WP records
  const ni = merge(
    [
      niCsv(dir, 'tc-besttrack-north-indian/ibtracs_ni_as_bob_1982-2022_subset.csv.gz', 'IBTrACS (IMD wind)', ''),
      niCsv(dir, 'tc-besttrack-north-indian/imd_besttrack_as_bob_1982-2023.csv.gz', 'IMD', 'IMD-'),
      jtwcIo(dir),
    ],
    wpIdx,
  );
  const na = merge([hurdat2(dir, 'hurdat2-atlantic-1970-2016/hurdat2_atlantic_1970_2016.txt.gz', 'hurdat2-atlantic-1970-2016', 'NA')]);
  const ep = merge([hurdat2(dir, 'hurdat2-nepac-1949-2019/hurdat2-nepac-1949-2019-042320.txt.gz', 'hurdat2-nepac-1949-2019', 'EP')]);
  const sh = merge([jtwcSh(dir)]);
  const all = [...wp, ...ni, ...na, ...ep, ...sh].sort((a, b) => a.fixes[0]!.tH - b.fixes[0]!.tH || a.id.localeCompare(b.id));

  const WIND: Record<string, string> = {
    'ibtracs-wp-v04r01': 'RSMC Tokyo 10-min ÷ 0.93',
    'jtwc-besttrack-wp': 'JTWC 1-min',
    'cma-besttrack-wnp': 'CMA 2-min as reported',
    'hurdat2-atlantic-1970-2016': 'NHC 1-min',
    'hurdat2-nepac-1949-2019': 'NHC/CPHC 1-min',
    'jtwc-besttrack-southern-hemisphere': 'JTWC 1-min',
  };
  const srcKey = (s: RStorm) => `${s.basin}|${s.agency}|${s.dataset}`;
  const sources: TrackFileSource[] = [...grouped(all, srcKey)]
    .map(([, ss]) => ({
      basin: ss[0]!.basin,
      agency: ss[0]!.agency,
      dataset: ss[0]!.dataset,
      from: Math.min(...ss.map((s) => s.season)),
      to: Math.max(...ss.map((s) => s.season)),
      storms: ss.length,
      wind: WIND[ss[0]!.dataset] ?? (ss[0]!.agency.startsWith('IMD') || ss[0]!.agency.includes('IMD wind') ? 'IMD 3-min as reported' : 'JTWC 1-min'),
    }))
    .sort((a, b) => a.basin.localeCompare(b.basin) || b.storms - a.storms);

  const storms: TrackFileStorm[] = all.map((s) => {
    const t0 = Math.round(s.fixes[0]!.tH * 100) / 100;
    return {
      id: s.id,
      n: s.name,
      s: s.season,
      b: s.basin,
      a: s.agency,
      d: s.dataset,
      t0,
      dt: s.fixes.map((f, i) => (i === 0 ? 0 : Math.round((f.tH - s.fixes[i - 1]!.tH) * 100) / 100)),
      la: s.fixes.map((f) => Math.round(f.lat * 10)),
      lo: s.fixes.map((f) => Math.round(f.lon * 10)),
      w: s.fixes.map((f) => (Number.isFinite(f.v) ? r1(f.v) : null)),
    };
  });
  return { format: 'crp-tc-tracks/1', generator: 'packages/hazards/scripts/build-tracks.ts', firstSeason: FIRST_SEASON, sources, storms };
}

/** Writes the archive and its entry (with attribution) into manifest.json. */
export function writeTrackFile(file: TrackFile, outDir = TRACKS_LAYERS_DIR) {
  const raw = Buffer.from(JSON.stringify(file));
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(join(outDir, TRACKS_FILE), gz);
  const manifestPath = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  const datasets = [...new Set(file.sources.map((s) => s.dataset))];
  manifest.tracks = {
    file: TRACKS_FILE,
    generator: file.generator,
    description: 'Historical tropical-cyclone best tracks, one record per storm de-duplicated across agencies; 1-min sustained wind (m/s)',
    storms: file.storms.length,
    fixes: file.storms.reduce((a, s) => a + s.dt.length, 0),
    firstSeason: file.firstSeason,
    sources: file.sources,
    datasets,
    licenses: [...new Set(datasets.map((d) => DATASETS[d]!.license))],
    citations: [...new Set(datasets.map((d) => DATASETS[d]!.citation))],
    sha256: createHash('sha256').update(raw).digest('hex'),
    bytesRaw: raw.byteLength,
    bytesGz: gz.byteLength,
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  return { bytesRaw: raw.byteLength, bytesGz: gz.byteLength };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const f = buildTrackFile(rawDir());
  const { bytesRaw, bytesGz } = writeTrackFile(f);
  for (const s of f.sources) console.log(`  ${s.basin} ${s.agency}: ${s.storms} storms ${s.from}-${s.to}`);
  console.log(
    `[tracks] ${f.storms.length} storms, ${(bytesRaw / 1e6).toFixed(2)} MB raw, ${(bytesGz / 1e6).toFixed(2)} MB gz, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
