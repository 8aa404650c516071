/**
 * Rebuilds only the sea-level layers (`slr_local_rate`, `slr_local_se`: PSMSL gauge residuals, ICE-5G GIA elsewhere)
 * and their entries of manifest.json and params.json, leaving every other layer untouched. Same code path as the full
 * build (build-layers.ts buildSlrLayers). Run: npm run build:slr-layers -w @crp/hazards (raw data from HAZARD_RAW_DIR).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAZARD_INDICATORS, HAZARD_KEYS } from '@crp/contracts';
import { DATASETS } from '../src/datasets.js';
import { HAZARD_META } from '../src/sampler.js';
import { LAYERS_DIR, buildSlrLayers, writeLayer, type Out } from './build-layers.js';
import { rawDir } from './lib/io.js';

type Entry = { name: string; datasets: string[] } & Record<string, unknown>;

export function buildSlrOnly(dir = rawDir(), outDir = LAYERS_DIR) {
  const slr = buildSlrLayers(dir);
  const out: Out = { entries: [], dir: outDir };
  for (const [e, d] of slr.layers) writeLayer(out, e, d);
  const manifestPath = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { layers: Entry[]; datasets: unknown; totalBytesGz: number };
  const template = manifest.layers.find((e) => e.name === 'slr_local_rate')!;
  for (const e of out.entries) {
    const hz = HAZARD_KEYS.filter((k) => HAZARD_META[k].layers.includes(e.name));
    const full: Entry = {
      ...e,
      hazards: hz.map((k) => ({ hazard: k, indicator: HAZARD_INDICATORS[k].indicator, unit: HAZARD_INDICATORS[k].unit, tier: HAZARD_META[k].tier })),
      scenarios: template.scenarios,
      years: template.years,
      licenses: [...new Set(e.datasets.map((d) => DATASETS[d]!.license))],
      citations: [...new Set(e.datasets.map((d) => DATASETS[d]!.citation))],
    };
    const at = manifest.layers.findIndex((x) => x.name === e.name);
    if (at >= 0) manifest.layers[at] = full;
    else manifest.layers.push(full);
  }
  manifest.datasets = DATASETS;
  manifest.totalBytesGz = manifest.layers.reduce((a, e) => a + ((e.bytesGz as number | undefined) ?? 0), 0);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  const paramsPath = join(outDir, 'params.json');
  const params = JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, unknown>;
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k in slr.params) continue;
    next[k] = v;
    if (k === 'landslideCalibration') Object.assign(next, slr.params);
  }
  writeFileSync(paramsPath, JSON.stringify(next, null, 1));
  console.log(`[hazards] sea-level layers rebuilt: ${out.entries.map((e) => `${e.name} ${((e.bytesGz ?? 0) / 1e3).toFixed(1)} kB gz`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildSlrOnly();
