/**
 * Rebuilds only the storm surge's shelf wind-setup index (`coast_shelf_index`, lib/shelf.ts) and its entries of
 * manifest.json and params.json (`surgeShelf`), leaving every other layer untouched. Same code path as the full build
 * (build-layers.ts buildShelfLayer). Run: npm run build:shelf-layer -w @crp/hazards (raw data from HAZARD_RAW_DIR).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAZARD_INDICATORS, HAZARD_KEYS } from '@crp/contracts';
import { DATASETS } from '../src/datasets.js';
import { HAZARD_META } from '../src/sampler.js';
import { LAYERS_DIR, buildShelfLayer, writeLayer, type Out } from './build-layers.js';
import { rawDir, readRaw } from './lib/io.js';
import { coastalTiles } from './lib/shelf.js';
import { loadTerrain } from './lib/terrain.js';

type Entry = { name: string; datasets: string[] } & Record<string, unknown>;

export function buildShelfOnly(dir = rawDir(), outDir = LAYERS_DIR) {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const shelf = buildShelfLayer(t, coastalTiles(t));
  const out: Out = { entries: [], dir: outDir };
  writeLayer(out, ...shelf.layer);
  const manifestPath = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { layers: Entry[]; datasets: unknown; totalBytesGz: number };
  const template = manifest.layers.find((e) => e.name === 'coast_elevation')!;
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
    else manifest.layers.splice(manifest.layers.findIndex((x) => x.name === 'coast_distance') + 1, 0, full);
  }
  manifest.datasets = DATASETS;
  manifest.totalBytesGz = manifest.layers.reduce((a, e) => a + ((e.bytesGz as number | undefined) ?? 0), 0);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  const paramsPath = join(outDir, 'params.json');
  const params = JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, unknown>;
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k in shelf.params) continue;
    if (k === 'gmslLikely') Object.assign(next, shelf.params);
    next[k] = v;
  }
  if (!('surgeShelf' in next)) Object.assign(next, shelf.params);
  writeFileSync(paramsPath, JSON.stringify(next, null, 1));
  console.log(`[hazards] shelf layer rebuilt: ${out.entries.map((e) => `${e.name} ${((e.bytesGz ?? 0) / 1e3).toFixed(1)} kB gz`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildShelfOnly();
