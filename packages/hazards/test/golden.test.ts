/**
 * Golden values of the point sampler: 50 points around the world x every hazard x five scenario-years, recorded from
 * the sampler before it was split into one file per hazard model (issue 24), so any later change to the sampling
 * maths shows here. Both paths are checked: sampleCurves (the engine's fast path: every return-period curve, headline
 * value and score as stored float32, NaN and -0 kept) and samplePoint (the API answer, source texts and likely ranges
 * included), without and with own layers (a company's registry, and the installation's registry), and the catalogue.
 * The fixture holds a SHA-256 of each exact answer plus the rounded headline values, so a mismatch names the case.
 * Re-record (only for an intended change of the maths): UPDATE_GOLDEN=1 node --import tsx --test packages/hazards/test/golden.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArrayBuffer } from 'geotiff';
import { HAZARD_KEYS } from '@crp/contracts';
import { ByoRegistry, newCurveSample, readGeoTiffLayer, type ByoEntry, type ScenarioYearOpts } from '../src/index.js';
import { layers, PLACES } from './helpers.js';

const FIXTURE = new URL('./fixtures/sampler-golden.json', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** The 23 named places and 27 points of a fixed pseudo-random sequence over the inhabited latitudes (4 of them at sea). */
function points(): [number, number][] {
  const out: [number, number][] = Object.values(PLACES).map(([la, ln]) => [la, ln]);
  let s = 20261126;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  let sea = 0;
  while (out.length < 50) {
    const p: [number, number] = [Math.round((-56 + next() * 128) * 1000) / 1000, Math.round((-180 + next() * 360) * 1000) / 1000];
    // mostly land (where the rainfall-flood runoff model has a curve number), a few points at sea
    const land = layers().samplePoint(p[0], p[1], SCENARIO_YEARS[0]!).rainfall_flood.value !== null;
    if (land || sea++ < 4) out.push(p);
  }
  return out;
}

const SCENARIO_YEARS: ScenarioYearOpts[] = [
  { analysisType: 'ssp', scenario: '45', year: 2020 },
  { analysisType: 'ssp', scenario: '85', year: 2050 },
  { analysisType: 'ssp', scenario: '26', year: 2100 },
  { analysisType: 'rcp', scenario: '45', year: 2030 },
  { analysisType: 'ssp', scenario: '85', year: 2075 },
];

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);
/** Exact text of float32 values: NaN and -0 spelt out (JSON would turn them into null and 0). */
const exact = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v));

interface Case {
  p: [number, number];
  sy: string;
  curves: string;
  point: string;
  values: (number | null)[];
}

/** A float32 EPSG:4326 GeoTIFF over Hong Kong (113.8-114.5E, 22.1-22.6N, 0.1°) with a nodata pixel. */
function tiff(value: number): Uint8Array {
  const width = 7,
    height = 5;
  const data = new Float32Array(width * height).fill(value);
  data[0] = -9999;
  return new Uint8Array(
    writeArrayBuffer(data, {
      width,
      height,
      BitsPerSample: [32],
      SampleFormat: [3],
      SamplesPerPixel: 1,
      ModelPixelScale: [0.1, 0.1, 0],
      ModelTiepoint: [0, 0, 0, 113.8, 22.6, 0],
      GeographicTypeGeoKey: 4326,
      GDAL_NODATA: '-9999',
    }),
  );
}
const NO_LIMITS = { maxBytes: Number.MAX_SAFE_INTEGER, maxPixels: Number.MAX_SAFE_INTEGER };
async function registry(entries: [ByoEntry, number][]): Promise<ByoRegistry> {
  const reg = new ByoRegistry();
  for (const [e, v] of entries) reg.add(await readGeoTiffLayer(tiff(v), e, NO_LIMITS));
  return reg;
}

function sampleAll(own: ByoRegistry | null): { cases: Case[]; masks: number[] } {
  const L = layers();
  const cases: Case[] = [];
  const masks: number[] = [];
  const out = newCurveSample();
  for (const p of points()) {
    for (const sy of SCENARIO_YEARS) {
      const s = L.sampleCurves(p[0], p[1], sy, out);
      if (own) masks.push(L.overlayOwn(own, p[0], p[1], sy, s));
      const pt = L.samplePoint(p[0], p[1], sy, own);
      cases.push({
        p,
        sy: `${sy.analysisType}${sy.scenario}:${sy.year}`,
        curves: sha(JSON.stringify([exact(s.curves), exact(s.values), exact(s.scores)])),
        point: sha(JSON.stringify(pt)),
        values: HAZARD_KEYS.map((k) => pt[k].value),
      });
    }
  }
  return { cases, masks };
}

test('sampler golden values: 50 points x 11 hazards x 5 scenario-years, built-in and own layers, catalogue', async () => {
  const L = layers();
  const builtIn = sampleAll(null);
  const own = await registry([
    [{ id: 'g-rf-100', hazard: 'river_flood', returnPeriodYears: 100, scenario: '85', year: 2050, label: 'Golden flood 100-yr' }, 1.5],
    [{ id: 'g-rf-10', hazard: 'river_flood', returnPeriodYears: 10, scenario: '85', year: 2050, label: 'Golden flood 10-yr' }, 0.6],
    [{ id: 'g-wf', hazard: 'wildfire', label: 'Golden wildfire' }, 0.02],
    [{ id: 'g-heat', hazard: 'extreme_heat', label: 'Golden heat' }, 33.3],
    [{ id: 'g-slr', hazard: 'sea_level_rise', label: 'Golden rise' }, 0.4],
  ]);
  const withOwn = sampleAll(own);
  // the installation's own registry (fast path overlay inside sampleCurves, applyByo in samplePoint)
  await L.registerGeoTiff({ id: 'g-surge-100', hazard: 'storm_surge', returnPeriodYears: 100, file: writeTmp(tiff(2.5)), label: 'Golden surge 100-yr' });
  await L.registerGeoTiff({ id: 'g-snow', hazard: 'snowfall', file: writeTmp(tiff(120)), label: 'Golden snow' });
  const installation = sampleAll(null);
  const catalog = sha(
    JSON.stringify(L.catalog().map((c) => (c.kind === 'byo' ? { ...c, sources: c.sources.map((s) => ({ ...s, origin: 'tmp' })), description: '' } : c))),
  );
  const got = { builtIn: builtIn.cases, withOwn: withOwn.cases, ownMasks: withOwn.masks, installation: installation.cases, catalog };
  if (UPDATE) {
    writeFileSync(FIXTURE, `${JSON.stringify(got)}\n`);
    return;
  }
  const want = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof got;
  for (const part of ['builtIn', 'withOwn', 'installation'] as const) {
    assert.equal(got[part].length, want[part].length);
    got[part].forEach((c, i) => assert.deepEqual(c, want[part][i], `${part} ${c.p.join(',')} ${c.sy}`));
  }
  assert.ok(
    withOwn.masks.some((m) => m !== 0),
    'the own layers cover some points',
  );
  assert.deepEqual(got.ownMasks, want.ownMasks);
  assert.equal(got.catalog, want.catalog);
});

let tmp: string | null = null;
let n = 0;
function writeTmp(bytes: Uint8Array): string {
  tmp ??= mkdtempSync(join(tmpdir(), 'golden-'));
  const p = join(tmp, `own-${n++}.tif`);
  writeFileSync(p, bytes);
  return p;
}
