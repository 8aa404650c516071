/** Historical tropical-cyclone tracks: the segment-distance query, real storms near Hong Kong, and the reproducible build. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  defaultTrackArchive,
  trackArchiveFrom,
  segmentDistanceKm,
  greatCircleKm,
  saffirSimpson,
  EARTH_RADIUS_KM,
  DEFAULT_LAYERS_DIR,
  TRACKS_FILE_NAME,
} from '../src/index.js';
import { rawDir, rawAvailable } from '../scripts/lib/io.js';
import { buildTrackFile } from '../scripts/build-tracks.js';

const DEG = Math.PI / 180;
const near = (a: number, b: number, tol: number, msg: string) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);

test('segment distance: perpendicular foot inside the segment, endpoints outside (hand-computed on the sphere)', () => {
  // 1° north of the middle of an equatorial segment: exactly 1° of arc
  const mid = segmentDistanceKm(1, 5, 0, 0, 0, 10);
  near(mid.distanceKm, EARTH_RADIUS_KM * DEG, 1e-6, 'equator');
  near(mid.fraction, 0.5, 1e-9, 'fraction');
  // a meridian segment 10°N-20°N along 30°E, point 15°N 31°E: sin d = cos 15° · sin 1° (107.4 km), while the nearest fix is 5° away
  const mer = segmentDistanceKm(15, 31, 10, 30, 20, 30);
  near(mer.distanceKm, EARTH_RADIUS_KM * Math.asin(Math.cos(15 * DEG) * Math.sin(1 * DEG)), 1e-6, 'meridian');
  near(mer.distanceKm, 107.4, 0.01, 'meridian km');
  assert.ok(greatCircleKm(15, 31, 10, 30) > 500);
  // beyond the start: the distance to the first fix, cos c = cos² 1°
  const out = segmentDistanceKm(1, -1, 0, 0, 0, 10);
  near(out.distanceKm, EARTH_RADIUS_KM * Math.acos(Math.cos(DEG) ** 2), 1e-6, 'endpoint');
  assert.equal(out.fraction, 0);
});

test('segment distance and the archive index work across the antimeridian', () => {
  const d = segmentDistanceKm(-18.3, 180, -18, 179.5, -18, -179.5);
  near(d.distanceKm, 0.3 * EARTH_RADIUS_KM * DEG, 0.5, 'across the dateline');
  near(d.fraction, 0.5, 0.01, 'fraction');
  const a = trackArchiveFrom({
    firstSeason: 1949,
    sources: [{ basin: 'SP', agency: 'JTWC', dataset: 'jtwc-besttrack-southern-hemisphere', from: 2016, to: 2016, storms: 1, wind: 'JTWC 1-min' }],
    storms: [
      {
        id: 'X',
        n: 'Test',
        s: 2016,
        b: 'SP',
        a: 'JTWC',
        d: 'jtwc-besttrack-southern-hemisphere',
        t0: 400000,
        dt: [0, 6, 6, 6],
        la: [-170, -175, -180, -185],
        lo: [1780, 1795, -1795, -1780],
        w: [30, 40, 50, null],
      },
    ],
  });
  for (const lon of [179.99, -179.99, 180]) {
    const r = a.nearby({ latitude: -17.8, longitude: lon, radiusKm: 50 });
    assert.equal(r.total, 1, `lon ${lon}`);
    const s = r.storms[0]!;
    assert.ok(s.closest_km < 25, `${s.closest_km} km`);
    // wind interpolated along the 179.5°E → 179.5°W segment (40 → 50 m/s) at about its middle
    assert.ok(s.wind_at_closest_ms! > 42 && s.wind_at_closest_ms! < 48, `${s.wind_at_closest_ms}`);
    assert.equal(s.max_wind_ms, 50);
    assert.equal(s.category, 3);
    assert.equal(s.track.length, 4);
    assert.equal(s.track[3]!.wind_ms, null);
  }
  assert.equal(a.nearby({ latitude: -17.8, longitude: 170, radiusKm: 200 }).total, 0);
});

test('Saffir-Simpson categories from the 1-min wind (NHC thresholds in kt)', () => {
  const c = (kt: number) => saffirSimpson(kt * 0.514444);
  assert.deepEqual([33, 34, 63, 64, 83, 96, 113, 137].map(c), [-1, 0, 0, 1, 2, 3, 4, 5]);
  assert.equal(saffirSimpson(null), null);
  assert.equal(saffirSimpson(NaN), null);
});

test('Hong Kong (22.30N 114.17E): Mangkhut 2018 and Hato 2017 passed within 200 km with typhoon winds', () => {
  const r = defaultTrackArchive().nearby({ latitude: 22.3, longitude: 114.17, radiusKm: 200 });
  assert.ok(r.total > 100, `${r.total} storms since 1949`);
  const find = (name: string, season: number) => r.storms.find((s) => s.name === name && s.season === season);
  const m = find('Mangkhut', 2018)!,
    h = find('Hato', 2017)!;
  assert.ok(m && h);
  // Mangkhut passed about 100 km south-west of Hong Kong on 16 Sep 2018; Hato made landfall near Zhuhai, about 60 km west, on 23 Aug 2017
  assert.ok(m.closest_km > 70 && m.closest_km < 150, `Mangkhut ${m.closest_km} km`);
  assert.equal(m.closest_time.slice(0, 10), '2018-09-16');
  assert.ok(m.wind_at_closest_ms! >= 35 && m.wind_at_closest_ms! <= 55, `Mangkhut ${m.wind_at_closest_ms} m/s`);
  assert.ok(m.max_wind_ms! >= 58, `Mangkhut lifetime max ${m.max_wind_ms} m/s`);
  assert.ok(m.category! >= 4);
  assert.ok(h.closest_km < 100, `Hato ${h.closest_km} km`);
  assert.ok(h.wind_at_closest_ms! >= 33 && h.wind_at_closest_ms! <= 50, `Hato ${h.wind_at_closest_ms} m/s`);
  assert.ok(m.track.length >= 3 && m.track.every((p) => greatCircleKm(22.3, 114.17, p.latitude, p.longitude) < 2500));
  for (let i = 1; i < r.storms.length; i++) assert.ok(r.storms[i]!.closest_km >= r.storms[i - 1]!.closest_km);
  assert.deepEqual(
    r.coverage.map((c) => c.basin),
    ['WP'],
  );
  const since = defaultTrackArchive().nearby({ latitude: 22.3, longitude: 114.17, radiusKm: 200, sinceYear: 2018, limit: 3 });
  assert.equal(since.storms.length, 3);
  assert.ok(since.storms.every((s) => s.season >= 2018) && since.total > 3);
});

test('Madrid: no tropical cyclone within 200 km; London is outside every basin record', () => {
  const a = defaultTrackArchive();
  const madrid = a.nearby({ latitude: 40.42, longitude: -3.7, radiusKm: 200 });
  assert.equal(madrid.total, 0);
  assert.deepEqual(
    madrid.coverage.map((c) => c.basin),
    ['NA'],
  );
  assert.equal(a.nearby({ latitude: 51.5, longitude: -0.12, radiusKm: 200 }).coverage.length, 0);
  // Miami: Andrew (1992) and Katrina (2005)
  const miami = a.nearby({ latitude: 25.77, longitude: -80.19, radiusKm: 200 });
  assert.ok(['Andrew', 'Katrina'].every((n) => miami.storms.some((s) => s.name === n)));
});

test('the archive is one record per storm, small, and the 1° index answers quickly', () => {
  const a = defaultTrackArchive();
  const ids = new Set(a.storms.map((s) => s.id));
  assert.equal(ids.size, a.storms.length);
  const key = (s: { name: string | null; season: number; basin: string }) => `${s.name}|${s.season}|${s.basin}`;
  const named = a.storms.filter((s) => s.name);
  const dup = named.length - new Set(named.map(key)).size;
  assert.ok(dup <= named.length * 0.01, `${dup} named storms appear twice in one basin and season`);
  const gz = readFileSync(join(DEFAULT_LAYERS_DIR, TRACKS_FILE_NAME)).byteLength;
  assert.ok(gz < 4e6, `${gz} bytes`);
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) a.nearby({ latitude: 22.3, longitude: 114.17, radiusKm: 200, limit: 50 });
  const ms = (performance.now() - t0) / 20;
  assert.ok(ms < 150, `${ms.toFixed(1)} ms per query`);
});

const dir = rawDir();
const skip = rawAvailable(dir) ? false : `raw data not found in ${dir}`;
test('rebuilding the track archive from the raw best tracks reproduces the committed file', { skip }, () => {
  const fresh = buildTrackFile(dir);
  const committedRaw = gunzipSync(readFileSync(join(DEFAULT_LAYERS_DIR, TRACKS_FILE_NAME)));
  assert.deepEqual(JSON.parse(committedRaw.toString('utf8')), JSON.parse(JSON.stringify(fresh)));
  const manifest = JSON.parse(readFileSync(join(DEFAULT_LAYERS_DIR, 'manifest.json'), 'utf8'));
  assert.equal(manifest.tracks.sha256, createHash('sha256').update(committedRaw).digest('hex'));
  assert.equal(manifest.tracks.storms, fresh.storms.length);
});
