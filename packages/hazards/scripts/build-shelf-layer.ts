/**
 * Rebuilds only the storm surge's shelf wind-setup index (`coast_shelf_index`, lib/shelf.ts) and its entries of
 * manifest.json and params.json (`surgeShelf`), leaving every other layer untouched. Same code path as the full build
 * (build-layers.ts buildShelfLayer). Run: npm run build:shelf-layer -w @crp/hazards (raw data from HAZARD_RAW_DIR).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS_DIR, buildShelfLayer, writeLayer, type Out } from './build-layers.js';
import { rawDir, readRaw } from './lib/io.js';
import { updateManifest, updateParams } from './lib/partial-rebuild.js';
import { coastalTiles } from './lib/shelf.js';
import { loadTerrain } from './lib/terrain.js';

export function buildShelfOnly(dir = rawDir(), outDir = LAYERS_DIR) {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const shelf = buildShelfLayer(t, coastalTiles(t));
  const out: Out = { entries: [], dir: outDir };
  writeLayer(out, ...shelf.layer);
  updateManifest(outDir, out.entries, { template: 'coast_elevation', after: 'coast_distance' });
  updateParams(outDir, shelf.params, { before: 'gmslLikely' });
  console.log(`[hazards] shelf layer rebuilt: ${out.entries.map((e) => `${e.name} ${((e.bytesGz ?? 0) / 1e3).toFixed(1)} kB gz`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildShelfOnly();
