/**
 * What the partial rebuilds (build-shelf-layer.ts, build-river-layers.ts, build-slr-layers.ts,
 * build-landslide-winter.ts) share: they rewrite a few layers, then put those layers' entries into manifest.json and
 * their parameters into params.json, leaving every other entry and key as it was, in the order of a full build
 * (build-layers.ts), so that a partial rebuild and a full one write the same files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAZARD_INDICATORS, HAZARD_KEYS } from '@crp/contracts';
import { DATASETS } from '../../src/datasets.js';
import { HAZARD_META } from '../../src/sampler.js';
import type { LayerEntry } from '../../src/layer-format.js';

type ManifestEntry = { name: string; datasets: string[] } & Record<string, unknown>;

/**
 * Replaces (or inserts) the manifest entries of freshly written layers. Each entry takes the hazards that read the
 * layer, the scenarios and years of the `template` layer, and the licences and citations of its datasets, as the full
 * build writes them. A new layer goes after the entry named `after` (at the end when that is absent or not given).
 */
export function updateManifest(outDir: string, entries: readonly LayerEntry[], opts: { template: string; after?: string }): void {
  const path = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { layers: ManifestEntry[]; datasets: unknown; totalBytesGz: number };
  const template = manifest.layers.find((e) => e.name === opts.template);
  if (!template) throw new Error(`manifest.json has no layer ${opts.template}`);
  for (const e of entries) {
    const hz = HAZARD_KEYS.filter((k) => HAZARD_META[k].layers.includes(e.name));
    const full: ManifestEntry = {
      ...e,
      hazards: hz.map((k) => ({ hazard: k, indicator: HAZARD_INDICATORS[k].indicator, unit: HAZARD_INDICATORS[k].unit, tier: HAZARD_META[k].tier })),
      scenarios: template.scenarios,
      years: template.years,
      licenses: [...new Set(e.datasets.map((d) => DATASETS[d]!.license))],
      citations: [...new Set(e.datasets.map((d) => DATASETS[d]!.citation))],
    };
    const at = manifest.layers.findIndex((x) => x.name === e.name);
    const after = opts.after === undefined ? -1 : manifest.layers.findIndex((x) => x.name === opts.after);
    if (at >= 0) manifest.layers[at] = full;
    else if (after >= 0) manifest.layers.splice(after + 1, 0, full);
    else manifest.layers.push(full);
  }
  manifest.datasets = DATASETS;
  manifest.totalBytesGz = manifest.layers.reduce((a, e) => a + ((e.bytesGz as number | undefined) ?? 0), 0);
  writeFileSync(path, JSON.stringify(manifest, null, 1));
}

/** Reads params.json (for rebuilds that need other parameters, e.g. the AR6 regions). */
export function readParams(outDir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(outDir, 'params.json'), 'utf8')) as Record<string, unknown>;
}

/**
 * Puts `values` into params.json: a key already there keeps its place; the new ones go together right before the key
 * `before` or right after the key `after` (at the end when that key is absent). Keys in `drop` are removed.
 */
export function updateParams(outDir: string, values: Record<string, unknown>, place: { before?: string; after?: string; drop?: readonly string[] } = {}): void {
  const params = readParams(outDir);
  const drop = new Set(place.drop ?? []);
  const fresh = Object.fromEntries(Object.entries(values).filter(([k]) => !(k in params)));
  const anchor = place.before ?? place.after;
  const next: Record<string, unknown> = {};
  let placed = anchor === undefined || !(anchor in params);
  for (const [k, v] of Object.entries(params)) {
    if (drop.has(k)) continue;
    if (!placed && k === place.before) {
      Object.assign(next, fresh);
      placed = true;
    }
    next[k] = k in values ? values[k] : v;
    if (!placed && k === place.after) {
      Object.assign(next, fresh);
      placed = true;
    }
  }
  for (const [k, v] of Object.entries(fresh)) if (!(k in next)) next[k] = v;
  writeFileSync(join(outDir, 'params.json'), JSON.stringify(next, null, 1));
}
