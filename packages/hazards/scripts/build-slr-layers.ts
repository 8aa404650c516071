/**
 * Rebuilds only the sea-level layers (`slr_local_rate`, `slr_local_se`: PSMSL gauge residuals, ICE-5G GIA elsewhere)
 * and their entries of manifest.json and params.json, leaving every other layer untouched. Same code path as the full
 * build (build-layers.ts buildSlrLayers). Run: npm run build:slr-layers -w @crp/hazards (raw data from HAZARD_RAW_DIR).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS_DIR, buildSlrLayers, writeLayer, type Out } from './build-layers.js';
import { rawDir } from './lib/io.js';
import { updateManifest, updateParams } from './lib/partial-rebuild.js';

export function buildSlrOnly(dir = rawDir(), outDir = LAYERS_DIR) {
  const slr = buildSlrLayers(dir);
  const out: Out = { entries: [], dir: outDir };
  for (const [e, d] of slr.layers) writeLayer(out, e, d);
  updateManifest(outDir, out.entries, { template: 'slr_local_rate' });
  updateParams(outDir, slr.params, { after: 'landslideCalibration' });
  console.log(`[hazards] sea-level layers rebuilt: ${out.entries.map((e) => `${e.name} ${((e.bytesGz ?? 0) / 1e3).toFixed(1)} kB gz`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildSlrOnly();
