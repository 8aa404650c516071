import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateManifest, updateParams } from '../scripts/lib/partial-rebuild.js';
import { GRID_025, type LayerEntry } from '../src/layer-format.js';

const read = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;

test('a partial rebuild puts new parameters at their place, replaces existing ones in place and drops the retired ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'partial-'));
  writeFileSync(join(dir, 'params.json'), JSON.stringify({ a: 1, riverGrowth: 2, old: 3, gmslLikely: 4, z: 5 }));
  updateParams(dir, { riverStage: 'new', riverGrowthByDuration: 'g' }, { after: 'riverGrowth', drop: ['old'] });
  assert.deepEqual(Object.entries(read(dir, 'params.json')), [
    ['a', 1],
    ['riverGrowth', 2],
    ['riverStage', 'new'],
    ['riverGrowthByDuration', 'g'],
    ['gmslLikely', 4],
    ['z', 5],
  ]);
  updateParams(dir, { surgeShelf: 's' }, { before: 'gmslLikely' });
  assert.deepEqual(Object.keys(read(dir, 'params.json')), ['a', 'riverGrowth', 'riverStage', 'riverGrowthByDuration', 'surgeShelf', 'gmslLikely', 'z']);
  // a rebuild of the same values keeps the order: the files of a partial rebuild and of a full one stay the same
  updateParams(dir, { riverStage: 'newer' }, { after: 'z' });
  assert.deepEqual(Object.entries(read(dir, 'params.json'))[2], ['riverStage', 'newer']);
  assert.equal(Object.keys(read(dir, 'params.json')).length, 7);
  // an anchor that is absent: at the end
  updateParams(dir, { last: 1 }, { before: 'nope' });
  assert.equal(Object.keys(read(dir, 'params.json')).at(-1), 'last');
});

test('a partial rebuild replaces or inserts manifest entries with hazards, licences and the sum of gzip sizes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'partial-'));
  const base = { grid: GRID_025, dtype: 'uint8', bands: 1, scale: 1, offset: 0, nodata: null, unit: 'm', description: '', resolutionKm: 28 };
  const layer = (name: string, bytesGz: number) => ({
    ...base,
    name,
    file: `${name}.bin.gz`,
    sha256: 'x',
    bytesRaw: 1,
    bytesGz,
    datasets: ['etopo5-global-dem'],
  });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      layers: [{ ...layer('coast_elevation', 10), scenarios: ['historical'], years: [2020] }, layer('coast_distance', 20), layer('after', 30)],
      datasets: {},
      totalBytesGz: 60,
    }),
  );
  updateManifest(dir, [layer('coast_shelf_index', 5) as LayerEntry], { template: 'coast_elevation', after: 'coast_distance' });
  const m = read(dir, 'manifest.json') as { layers: Record<string, unknown>[]; totalBytesGz: number; datasets: Record<string, unknown> };
  assert.deepEqual(
    m.layers.map((l) => l.name),
    ['coast_elevation', 'coast_distance', 'coast_shelf_index', 'after'],
  );
  const shelf = m.layers[2]!;
  assert.deepEqual(shelf.years, [2020]);
  assert.ok(
    (shelf.hazards as { hazard: string }[]).some((h) => h.hazard === 'storm_surge'),
    JSON.stringify(shelf.hazards),
  );
  assert.equal((shelf.licenses as string[]).length, 1);
  assert.equal(m.totalBytesGz, 65);
  assert.ok('etopo5-global-dem' in m.datasets);
  updateManifest(dir, [layer('coast_shelf_index', 7) as LayerEntry], { template: 'coast_elevation', after: 'coast_elevation' });
  const again = read(dir, 'manifest.json') as { layers: Record<string, unknown>[]; totalBytesGz: number };
  assert.deepEqual(
    again.layers.map((l) => l.name),
    ['coast_elevation', 'coast_distance', 'coast_shelf_index', 'after'],
  );
  assert.equal(again.totalBytesGz, 67);
  assert.throws(() => updateManifest(dir, [], { template: 'missing' }), /no layer missing/);
});
