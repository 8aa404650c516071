/**
 * Rebuilds only the river-flood layers (`river_hand`, `river_bankfull_depth`) and their entries of manifest.json and
 * params.json, leaving every other layer untouched. Same code path as the full build (build-layers.ts).
 * Run: npm run build:river-layers -w @crp/hazards (raw data from HAZARD_RAW_DIR; WDBII rivers from GSHHG_RIVERS or
 * Debian's gmt-gshhg-full).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAZARD_RETURN_PERIODS_YEARS } from '@crp/contracts';
import { LAYERS_DIR, hkoDurationGrowth, hkoRainfallStats, writeLayer, type Out } from './build-layers.js';
import { rawDir, readRaw } from './lib/io.js';
import { loadTerrain } from './lib/terrain.js';
import { updateManifest, updateParams } from './lib/partial-rebuild.js';
import { buildRiverLayers } from './lib/river-layers.js';

export function buildRiverOnly(dir = rawDir(), outDir = LAYERS_DIR) {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const rx5 = hkoRainfallStats(dir).rx5;
  const rv = buildRiverLayers(
    dir,
    t,
    rx5.map((v) => v / rx5[[...HAZARD_RETURN_PERIODS_YEARS].indexOf(100)]!),
  );
  const out: Out = { entries: [], dir: outDir };
  for (const l of rv.layers) writeLayer(out, l.entry, l.data);
  updateManifest(outDir, out.entries, { template: 'river_hand', after: 'river_hand' });
  updateParams(outDir, { riverGrowthByDuration: hkoDurationGrowth(dir), riverStage: rv.params }, { after: 'riverGrowth', drop: ['floodplainHandM'] });
  console.log(`[hazards] river layers rebuilt: ${out.entries.map((e) => `${e.name} ${((e.bytesGz ?? 0) / 1e6).toFixed(2)} MB gz`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildRiverOnly();
