import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dataDir = join(pkgDir, 'data');
const rawDir = resolve(process.env.GEO_RAW_DIR ?? join(pkgDir, '../../../shared/data'));
const sha256 = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
interface Manifest {
  outputs: { file: string; sha256: string; bytes: number }[];
  sources: { licence: string }[];
}
const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;

test('committed data files match their manifest checksums and stay small', () => {
  let total = 0;
  for (const o of manifest.outputs) {
    const p = join(dataDir, o.file);
    assert.equal(sha256(p), o.sha256, o.file);
    total += statSync(p).size;
  }
  assert.deepEqual(manifest.outputs.map((o) => o.file).sort(), ['companies.json.gz', 'countries.json.gz', 'hk-districts.json.gz', 'places.json.gz']);
  assert.ok(total < 4 * 1024 * 1024, `data is ${total} bytes`);
  assert.ok(manifest.sources.every((s) => s.licence.length > 0));
});

const rawMissing = !existsSync(join(rawDir, 'geonames_cities'));
test('rebuilding from the raw data reproduces the committed files', { skip: rawMissing ? `raw data not found at ${rawDir}` : false, timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'crp-geo-'));
  try {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(pkgDir, 'scripts/build-data.ts')], {
      cwd: pkgDir,
      env: { ...process.env, GEO_RAW_DIR: rawDir, GEO_OUT_DIR: out },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const rebuilt = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    for (const o of manifest.outputs) {
      const again = rebuilt.outputs.find((x) => x.file === o.file);
      assert.equal(again?.sha256, o.sha256, `${o.file} differs after a rebuild`);
      assert.equal(sha256(join(out, o.file)), o.sha256, o.file);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
