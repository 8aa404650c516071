import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HAZARD_KEYS } from '@crp/contracts';
import { loadHazardLayers, DEFAULT_LAYERS_DIR, HAZARD_META, DATASETS } from '../src/index.js';
import { layers } from './helpers.js';

test('catalogue lists every layer with provenance and every hazard is covered', () => {
  const cat = layers().catalog();
  assert.ok(cat.length >= 15);
  for (const e of cat) {
    assert.ok(e.sources.length > 0, e.layer);
    for (const s of e.sources) assert.ok(s.license && s.citation && s.publisher, `${e.layer}/${s.key}`);
    assert.match(e.sha256, /^[0-9a-f]{64}$/);
    assert.ok(e.resolutionKm > 0);
  }
  for (const k of HAZARD_KEYS) {
    for (const ln of HAZARD_META[k].layers)
      assert.ok(
        cat.some((e) => e.layer === ln),
        `${k} uses ${ln}`,
      );
  }
  const manifest = layers().manifest;
  for (const key of Object.keys(manifest.datasets)) assert.ok(DATASETS[key], key);
});

test('committed layers are compact and their checksums verify', () => {
  let total = 0;
  for (const f of readdirSync(DEFAULT_LAYERS_DIR)) total += statSync(join(DEFAULT_LAYERS_DIR, f)).size;
  assert.ok(total < 30e6, `layers folder is ${(total / 1e6).toFixed(1)} MB`);
  const l = loadHazardLayers(DEFAULT_LAYERS_DIR, { verify: true });
  assert.ok(l.memoryBytes() > 1e6 && l.memoryBytes() < 200e6);
});
