/**
 * The committed input of the portfolio cyclone event set (issue 35 item 2; src/events/cyclone-events.ts):
 * layers/typhoon_event_tracks.json.gz holds every staged best track as the synthetic layer build reads it (the same
 * sources, storms and fixes, numbers written exactly), the seed and the members per track of that build, and for every
 * member the largest distance of its fixes from the track's (km), so that the analysis regenerates only the members
 * that can reach a portfolio. Run after build-synthetic.ts (root `npm run hazards:build` runs it last); reads the raw
 * best tracks from HAZARD_RAW_DIR (default ../shared/data) and the land mask from layers/curve_number.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rawDir } from './lib/io.js';
import { allSources } from './lib/tracks.js';
import { landMasks, SYNTH_SEED, SYNTH_YEARS, SYNTH_STEP_KM } from './build-synthetic.js';
import { LAYERS_DIR } from './build-layers.js';
import { EVENT_TRACKS_FILE_NAME, memberDrift, stormSeed, type EventTrackFile } from '../src/events/cyclone-events.js';
import { CountingRng, perturbStorm, walkHours } from '../src/events/synthetic-tracks.js';
import { sha256 } from '../src/layer-format.js';

const fin = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? null : v);

export function buildEventTracks(dir = rawDir(), outDir = LAYERS_DIR): void {
  const t0 = Date.now();
  const sources = allSources(dir);
  const { onLand } = landMasks(outDir);
  const file: EventTrackFile = { format: 'crp-tc-event-tracks/1', seed: SYNTH_SEED, yearsPerBasin: SYNTH_YEARS, stepKm: SYNTH_STEP_KM, sources: [] };
  for (const g of ['WP', 'NA', 'EP', 'NI', 'SH']) {
    const members = sources.filter((s) => s.group === g);
    const basinYears = members.reduce((a, x) => a + x.endYear - x.startYear + 1, 0);
    const n = Math.max(0, Math.ceil(SYNTH_YEARS / basinYears) - 1); // as syntheticHistogram
    for (const src of members) {
      const storms = src.storms.map((storm, i) => {
        const rng = new CountingRng(stormSeed(SYNTH_SEED, src.key, i));
        const hours = walkHours(storm);
        const d: number[] = [],
          k: number[] = [];
        for (let m = 1; m <= n; m++) {
          const before = rng.normals;
          d.push(Math.min(65535, memberDrift(storm, perturbStorm(storm, rng, onLand))));
          k.push(hours === 0 ? 0 : rng.normals - before - 2 * hours);
        }
        const y = Math.min(src.endYear, Math.max(src.startYear, new Date(storm.fixes[0]!.tH * 3.6e6).getUTCFullYear()));
        const f = storm.fixes.map((x) => [x.tH, x.lat, x.lon, x.vMs, x.pHpa, x.rmwKm, x.r34Km, x.r50Km, x.r64Km].map(fin));
        return { y, f, d, k };
      });
      file.sources.push({ key: src.key, group: g, startYear: src.startYear, endYear: src.endYear, members: n, storms });
      console.log(`  event tracks ${src.key}: ${storms.length} storms × ${n} members, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  const raw = Buffer.from(JSON.stringify(file));
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(join(outDir, EVENT_TRACKS_FILE_NAME), gz);
  const paramsPath = join(outDir, 'params.json');
  const params = JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, unknown>;
  params.typhoonEventTracks = { file: EVENT_TRACKS_FILE_NAME, sha256: sha256(raw), bytesGz: gz.byteLength, seed: SYNTH_SEED };
  writeFileSync(paramsPath, JSON.stringify(params, null, 1));
  console.log(`[event tracks] ${(gz.byteLength / 1e6).toFixed(2)} MB gz, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildEventTracks();
