/**
 * Golden values of the money metrics (metrics.ts), recorded before its generations of the same maths were merged into
 * one (issue 24): every public metric over a 300-asset synthetic portfolio (deterministic synthetic hazards, NOT
 * hazard data) with some cells cleared to "no data" and some tails cleared (results stored before tails were kept),
 * for several hazard sets, scenarios, years and loss options. The fixture holds a SHA-256 of each function's exact
 * answers (float64 text, NaN and -0 spelt out), so any change of a single bit in any answer fails here.
 * Re-record (only for an intended change of the maths): UPDATE_GOLDEN=1 node --import tsx --test packages/engine/test/metrics-golden.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { HAZARD_KEYS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import {
  analysePortfolio,
  assetCvar,
  assetCvarBatch,
  ASSET_BATCH_FIELDS,
  cellMoney,
  cvarFromSeries,
  HAZARD_INDEX,
  interpolateSeries,
  N_HAZARDS,
  portfolioCvar,
  portfolioCvarSeries,
  portfolioCvarSeriesOf,
  portfolioHazardSeriesOf,
  portfolioSummary,
  type LossOptions,
} from '../src/index.js';
import { createHazardProvider, syntheticAssets } from '../bench/synthetic-provider.js';

const FIXTURE = new URL('./fixtures/metrics-golden.json', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const N = 300;

const num = (v: number) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v);
/** Exact text of any answer: numbers as float64 text, typed arrays as lists, NaN and -0 spelt out. */
const exact = (x: unknown): string =>
  JSON.stringify(x, (_k, v: unknown) => {
    if (typeof v === 'number') return num(v);
    if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, num);
    return v;
  });
const sha = (x: unknown) => createHash('sha256').update(exact(x)).digest('hex').slice(0, 32);

function portfolio() {
  const r = analysePortfolio(syntheticAssets(N), createHazardProvider(), { chunkSize: 128 });
  // "no data" cells: some asset x hazard rows (every scenario-year) and single scenario-years; no tails for a few
  r.chunks.forEach((ch) => {
    const S = ch.scenarioYears.length;
    for (let a = 0; a < ch.count; a += 7) {
      const h = (a / 7) % N_HAZARDS;
      for (let s = 0; s < S; s++) ch.ead[(a * N_HAZARDS + h) * S + s] = NaN;
    }
    for (let a = 3; a < ch.count; a += 11) ch.ead[(a * N_HAZARDS + HAZARD_INDEX.typhoon) * S + ((a * 5) % S)] = NaN;
    for (let a = 5; a < ch.count; a += 13)
      for (let h = 0; h < N_HAZARDS; h++)
        for (let s = 0; s < S; s++) {
          ch.tail100[(a * N_HAZARDS + h) * S + s] = NaN;
          ch.tail250[(a * N_HAZARDS + h) * S + s] = NaN;
        }
    // an asset without any data
    if (ch.count > 40) for (let h = 0; h < N_HAZARDS; h++) for (let s = 0; s < S; s++) ch.ead[(40 * N_HAZARDS + h) * S + s] = NaN;
  });
  const chunkOf = new Int32Array(N),
    localOf = new Int32Array(N);
  r.chunks.forEach((c, ci) => {
    for (let a = 0; a < c.count; a++) {
      chunkOf[c.start + a] = ci;
      localOf[c.start + a] = a;
    }
  });
  return { ...r, chunkOf, localOf };
}

type Q = [readonly HazardKey[], AnalysisType, ScenarioCode, number, LossOptions];
const QUERIES: Q[] = [
  [HAZARD_KEYS, 'ssp', '85', 2050, {}],
  [HAZARD_KEYS, 'ssp', '26', 2100, { gdpAdjusted: true }],
  [HAZARD_KEYS, 'rcp', '45', 2030, { withContent: false }],
  [['river_flood', 'typhoon', 'extreme_heat', 'drought'], 'ssp', '45', 2075, {}],
  [['wildfire'], 'rcp', '26', 2020, { withContent: false, gdpAdjusted: true }],
  [['storm_surge', 'sea_level_rise'], 'ssp', '85', 2041, {}],
  [['typhoon'], 'ssp', '85', 2100, { gdpAdjusted: true }],
];
const YEARS = [2001, 2010, 2020, 2025, 2030, 2050, 2063, 2090, 2100];

function record(): Record<string, string> {
  const r = portfolio();
  const all = Array.from({ length: N }, (_, i) => i);
  const order = all.filter((i) => i % 3 !== 1).reverse();
  const out: Record<string, string> = {};
  QUERIES.forEach(([hz, at, sc, year, opt], qi) => {
    const perAsset: unknown[] = [];
    for (const ch of r.chunks)
      for (let a = 0; a < ch.count; a++) {
        perAsset.push(assetCvar(r.prepared[ch.start + a]!, ch, a, hz, at, sc, year, opt));
        perAsset.push(hz.map((h) => assetCvar(r.prepared[ch.start + a]!, ch, a, [h], at, sc, year, opt)));
      }
    out[`assetCvar ${qi}`] = sha(perAsset);
    const batch = new Float64Array(order.length * ASSET_BATCH_FIELDS),
      ph = new Float64Array(order.length * hz.length * 2);
    assetCvarBatch(r.prepared, r.chunks, r.chunkOf, r.localOf, order, hz, at, sc, year, opt, batch, ph);
    const batchNoPh = new Float64Array(order.length * ASSET_BATCH_FIELDS);
    assetCvarBatch(r.prepared, r.chunks, r.chunkOf, r.localOf, order, hz, at, sc, year, opt, batchNoPh, null);
    out[`assetCvarBatch ${qi}`] = sha([batch, ph, batchNoPh]);
    out[`portfolioCvar ${qi}`] = sha(
      YEARS.map((y) => [portfolioCvar(r.chunks, r.prepared, hz, at, sc, y, opt), portfolioCvar(r.chunks, r.prepared, hz, at, sc, y, opt, true)]),
    );
    const s1 = portfolioCvarSeries(r.chunks, r.prepared, hz, at, sc, opt);
    out[`portfolioCvarSeries ${qi}`] = sha([s1.years, s1.loss, s1.lossResidual, YEARS.map((y) => s1.at(y))]);
    for (const [name, ord] of [
      ['all', all],
      ['order', order],
    ] as const) {
      const s2 = portfolioCvarSeriesOf(r.prepared, r.chunks, r.chunkOf, r.localOf, ord, hz, at, sc, opt);
      out[`portfolioCvarSeriesOf ${name} ${qi}`] = sha([s2.years, s2.loss, s2.lossResidual, YEARS.map((y) => s2.at(y)), YEARS.map((y) => s2.at(y))]);
      const s3 = portfolioHazardSeriesOf(r.prepared, r.chunks, r.chunkOf, r.localOf, ord, hz, at, sc, opt);
      out[`portfolioHazardSeriesOf ${name} ${qi}`] = sha([s3.years, s3.loss, s3.lossResidual]);
    }
    out[`portfolioSummary ${qi}`] = sha(portfolioSummary(r.chunks, r.prepared, { analysisType: at, scenario: sc, year, hazards: hz, ...opt }));
    const money: unknown[] = [];
    for (const ch of r.chunks)
      for (let a = 0; a < ch.count; a += 3)
        for (const h of hz) for (let s = 0; s < ch.scenarioYears.length; s += 4) money.push(cellMoney(r.prepared[ch.start + a]!, ch, a, h, s, opt));
    out[`cellMoney ${qi}`] = sha(money);
  });
  out.portfolioSummaryDefault = sha(portfolioSummary(r.chunks, r.prepared, { analysisType: 'ssp', scenario: '45', year: 2050 }));
  const series: unknown[] = [];
  for (const [ys, vs] of [
    [
      [2020, 2030, 2050, 2100],
      [10, 20, NaN, 70],
    ],
    [
      [2020, 2050],
      [100, 100],
    ],
    [
      [2020, 2040],
      [0, 200],
    ],
  ] as const) {
    for (const y of YEARS)
      series.push(interpolateSeries(ys, vs, y), cvarFromSeries(ys, vs, y), cvarFromSeries(ys, vs, y, 500), cvarFromSeries(ys, vs, y, Infinity, 0.05));
  }
  out.cvarFromSeries = sha(series);
  return out;
}

test('metrics golden values: every public money metric, bit for bit, over a synthetic portfolio with gaps', () => {
  const got = record();
  if (UPDATE) {
    writeFileSync(FIXTURE, `${JSON.stringify(got, null, 1)}\n`);
    return;
  }
  const want = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, string>;
  assert.deepEqual(Object.keys(got), Object.keys(want));
  for (const k of Object.keys(want)) assert.equal(got[k], want[k], k);
});
