import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  analysePortfolio,
  analysePortfolioParallel,
  EnginePool,
  assetCvar,
  cellMoney,
  assetFingerprint,
  HAZARD_INDEX,
  N_HAZARDS,
  SCENARIO_YEARS,
  SCENARIO_YEAR_INDEX,
  portfolioCvarSeries,
  type AssetHazardInputs,
  type AssetInput,
  type HazardProvider,
  type ResultChunk,
} from '../src/index.js';
import { syntheticAssets } from '../bench/synthetic-provider.js';

const RPS = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
const curve = (scale: number) => ({ returnPeriodsYears: RPS, intensities: [0, 0.1, 0.3, 0.6, 0.9, 1.2, 1.6, 1.9, 2.2].map((x) => x * scale) });
const windCurve = (v: number) => ({ returnPeriodsYears: RPS, intensities: RPS.map((rp) => v * (0.6 + (0.4 * Math.log(rp)) / Math.log(1000))) });

function inputs(scale: number): AssetHazardInputs {
  return {
    river_flood: curve(scale),
    rainfall_flood: curve(scale * 0.3),
    storm_surge: curve(scale * 0.5),
    typhoon: windCurve(50 * Math.max(scale, 0.2)),
    wildfire: 0.002 * scale,
    landslide: 0.01 * scale,
    extreme_heat: 26 + 4 * scale,
    extreme_cold: -5 * scale,
    snowfall: 200 * scale,
    sea_level_rise: 0.2 * scale,
    drought: Math.max(0, 0.6 - 0.2 * scale),
  };
}
const base: AssetInput = {
  latitude: 22.3,
  longitude: 114.2,
  type: 'Commercial',
  valuation: 10e6,
  construction_cost: 8e6,
  content_value: 1e6,
  yearly_inventory_value: 5e5,
  revenue: 3e6,
  ownership: 50,
  mitigation_risk: 0,
};
const providerFor =
  (f: (a: AssetInput, sy: (typeof SCENARIO_YEARS)[number]) => AssetHazardInputs | null): HazardProvider =>
  (sy, assets, start, end) =>
    assets.slice(start, end).map((a) => f(a, sy));
const scaleOf = (sy: (typeof SCENARIO_YEARS)[number]) => (sy.analysisType === 'baseline' ? 1 : 1 + (((sy.year - 2020) / 100) * Number(sy.scenario)) / 85);
const cell = (ch: ResultChunk, a: number, h: keyof typeof HAZARD_INDEX, sy: string) =>
  (a * N_HAZARDS + HAZARD_INDEX[h]) * SCENARIO_YEARS.length + SCENARIO_YEAR_INDEX.get(sy)!;

test('portfolio grid: every asset x hazard x scenario-year, money with ownership and content toggle', () => {
  const r = analysePortfolio(
    [base],
    providerFor((_a, sy) => inputs(scaleOf(sy))),
  );
  assert.equal(r.cells, 11 * 58);
  const ch = r.chunks[0]!;
  const A = r.prepared[0]!;
  for (let i = 0; i < ch.ead.length; i++) {
    assert.ok(ch.ead[i]! >= 0 && ch.ead[i]! <= 1);
    assert.ok(ch.eadResidual[i]! <= ch.ead[i]!);
    assert.ok(ch.score[i]! <= 100);
  }
  const sy = SCENARIO_YEAR_INDEX.get('ssp85_2050')!;
  const m = cellMoney(A, ch, 0, 'river_flood', sy);
  const ead = ch.ead[cell(ch, 0, 'river_flood', 'ssp85_2050')]!;
  const bi = ch.disruption[cell(ch, 0, 'river_flood', 'ssp85_2050')]!;
  assert.ok(Math.abs(m.eal - (ead * 9.5e6 * 0.5 + bi * 3e6 * 0.5)) < 1e-6 * m.eal);
  const noContent = cellMoney(A, ch, 0, 'river_flood', sy, { withContent: false });
  assert.ok(noContent.eal < m.eal && noContent.exposedValue === 4e6);
  const gdp = cellMoney(A, ch, 0, 'river_flood', sy, { gdpAdjusted: true });
  assert.ok(gdp.ealOperational >= m.ealOperational);
  const cv = assetCvar(A, ch, 0, ['river_flood', 'typhoon'], 'ssp', '85', 2050);
  assert.ok(cv.cvar > 0 && cv.rcvar <= cv.cvar && cv.avoidedLoss === cv.cvar - cv.rcvar);
  assert.ok(cv.cvar > assetCvar(A, ch, 0, ['river_flood', 'typhoon'], 'ssp', '85', 2030).cvar, 'CVaR grows with the scenario');
  assert.ok(cv.maxExposure >= cv.eal);
});

test('percentages are of the valuation the user gave (construction cost only without one); the damage is of the construction cost (issue 37 item 2)', async () => {
  const { reportedValue, exposedValue, portfolioSummary } = await import('../src/index.js');
  // base: valuation 10 M, construction cost 8 M, content 1 M, inventory 0.5 M, 50 % owned
  const assets: AssetInput[] = [base, { ...base, valuation: null }, { ...base, construction_cost: null }];
  const r = analysePortfolio(
    assets,
    providerFor((_a, sy) => inputs(scaleOf(sy))),
  );
  const [both, costOnly, valuationOnly] = r.prepared as [(typeof r.prepared)[0], (typeof r.prepared)[0], (typeof r.prepared)[0]];
  assert.deepEqual([both.buildingValue, both.reportedValue, both.valuedAtCost], [8e6, 10e6, false]);
  assert.deepEqual([costOnly.buildingValue, costOnly.reportedValue, costOnly.valuedAtCost], [8e6, 8e6, true]);
  assert.deepEqual([valuationOnly.buildingValue, valuationOnly.reportedValue, valuationOnly.valuedAtCost], [10e6, 10e6, false]);
  assert.equal(reportedValue(both, true), (10e6 + 1.5e6) * 0.5);
  assert.equal(reportedValue(both, false), 10e6 * 0.5);
  assert.equal(exposedValue(both, true), (8e6 + 1.5e6) * 0.5);
  const ch = r.chunks[0]!;
  const a = assetCvar(both, ch, 0, ['river_flood', 'typhoon'], 'ssp', '85', 2050);
  const b = assetCvar(costOnly, ch, 1, ['river_flood', 'typhoon'], 'ssp', '85', 2050);
  // the same building, the same damage: only the denominator differs
  assert.equal(a.cvar, b.cvar);
  assert.ok(Math.abs(a.cvarPercent - (100 * a.cvar) / 5.75e6) < 1e-9, `${a.cvarPercent}`);
  assert.ok(Math.abs(b.cvarPercent - (100 * b.cvar) / 4.75e6) < 1e-9, `${b.cvarPercent}`);
  assert.ok(Math.abs(a.rcvarPercent - (100 * a.rcvar) / 5.75e6) < 1e-9);
  const s = portfolioSummary(r.chunks, r.prepared, { analysisType: 'ssp', scenario: '85', year: 2050 });
  assert.equal(s.reportedValue, 5.75e6 + 4.75e6 + 5.75e6);
  assert.equal(s.exposedValue, 4.75e6 + 4.75e6 + 5.75e6);
  assert.ok(Math.abs(s.total.cvarPercent - (100 * s.total.cvar) / s.reportedValue) < 1e-9);
});

test('monotonicity: higher hazard never lowers loss; adaptation never raises it', () => {
  const scales = [0, 0.25, 0.5, 1, 1.5, 2, 3];
  const assets = scales.flatMap((s) => [0, 1, 2, 3].map((lvl) => ({ ...base, id: `${s}/${lvl}`, mitigation_risk: lvl })));
  const r = analysePortfolio(
    assets,
    providerFor((a) => inputs(Number(String(a.id).split('/')[0]))),
    { scenarioYears: [SCENARIO_YEARS[0]!] },
  );
  const ch = r.chunks[0]!;
  for (let h = 0; h < N_HAZARDS; h++)
    for (let lvl = 0; lvl < 4; lvl++) {
      let prev = -1;
      let prevS = -1;
      for (let si = 0; si < scales.length; si++) {
        const a = si * 4 + lvl;
        const c = a * N_HAZARDS + h;
        const ead = ch.ead[c]! + ch.disruption[c]!;
        assert.ok(ead >= prev - 1e-7, `hazard ${h} level ${lvl} scale ${scales[si]}`);
        prev = ead;
        assert.ok(ch.score[c]! >= prevS);
        prevS = ch.score[c]!;
        if (lvl > 0) {
          const c0 = (si * 4 + lvl - 1) * N_HAZARDS + h;
          assert.ok(ch.eadResidual[c]! <= ch.eadResidual[c0]! + 1e-9 && ch.disruptionResidual[c]! <= ch.disruptionResidual[c0]! + 1e-9);
        }
      }
    }
});

test('edge cases: zero value, NA fields, ocean (no data), poles, antimeridian', () => {
  const assets: AssetInput[] = [
    { latitude: 10, longitude: 10 }, // all NA
    { ...base, valuation: 0, construction_cost: 0, content_value: 0, yearly_inventory_value: 0, revenue: 0 }, // zero value
    { ...base, latitude: 0, longitude: -30, id: 'ocean' }, // mid-Atlantic: provider gives null
    { ...base, latitude: 90, longitude: 0 },
    { ...base, latitude: -90, longitude: 45 },
    { ...base, latitude: -18.1, longitude: 180 },
    { ...base, latitude: -18.1, longitude: -180 },
    { ...base, latitude: 'NA', longitude: null },
    { ...base, ownership: 'n/a', valuation: 'abc', revenue: -5, mitigation_risk: 'unknown', type: '' },
  ];
  const r = analysePortfolio(
    assets,
    providerFor((a) => (a.id === 'ocean' ? null : inputs(1))),
  );
  const ch = r.chunks[0]!;
  for (let i = 0; i < ch.ead.length; i++) assert.ok(Number.isNaN(ch.ead[i]!) || (ch.ead[i]! >= 0 && ch.ead[i]! <= 1));
  // zero value: ratios and scores still computed, money 0
  const m0 = cellMoney(r.prepared[1]!, ch, 1, 'river_flood', 0);
  assert.equal(m0.eal, 0);
  assert.ok(ch.score[cell(ch, 1, 'river_flood', 'baseline_2020')]! > 0);
  // ocean: no data everywhere -> NaN ratios, score 255, CVaR NaN
  assert.ok(Number.isNaN(ch.ead[cell(ch, 2, 'typhoon', 'baseline_2020')]!));
  assert.equal(ch.score[cell(ch, 2, 'typhoon', 'baseline_2020')], 255);
  assert.equal(ch.climateScore[2 * SCENARIO_YEARS.length], 255);
  assert.ok(Number.isNaN(assetCvar(r.prepared[2]!, ch, 2, ['typhoon'], 'ssp', '85', 2050).cvar));
  // poles and missing coordinates: global curves
  assert.equal(r.prepared[3]!.continent, 'global');
  assert.equal(r.prepared[7]!.continent, 'global');
  // antimeridian: both sides identical
  assert.equal(r.prepared[5]!.tcRegion, r.prepared[6]!.tcRegion);
  assert.equal(ch.ead[cell(ch, 5, 'typhoon', 'ssp85_2050')], ch.ead[cell(ch, 6, 'typhoon', 'ssp85_2050')]);
  // NA money fields: ownership 100 %, negative revenue -> 0, construction cost kept
  assert.equal(r.prepared[8]!.ownership, 1);
  assert.equal(r.prepared[8]!.revenue, 0);
  assert.equal(r.prepared[8]!.buildingValue, 8e6);
  assert.equal(r.prepared[8]!.mitigationLevel, 0);
  assert.equal(r.prepared[0]!.property.key, 'commercial');
});

test('re-run only changed assets: fingerprint', () => {
  assert.equal(assetFingerprint(base), assetFingerprint({ ...base, name: 'renamed' }));
  assert.notEqual(assetFingerprint(base), assetFingerprint({ ...base, valuation: 11e6 }));
  assert.notEqual(assetFingerprint(base), assetFingerprint(base, { typhoon: { damageScale: 0.5 } }));
});

test('worker_threads runner gives the same results as the in-thread analysis', async () => {
  const assets = syntheticAssets(300);
  const mod = fileURLToPath(new URL('../bench/synthetic-provider.ts', import.meta.url));
  const { createHazardProvider } = await import('../bench/synthetic-provider.js');
  const single = analysePortfolio(assets, createHazardProvider(), { chunkSize: 100 });
  let progress = 0;
  const par = await analysePortfolioParallel(assets, {
    providerModule: mod,
    workers: 2,
    chunkSize: 100,
    inThreadBelow: 0,
    onProgress: (d) => {
      progress = d;
    },
  });
  assert.equal(progress, 300);
  assert.equal(par.chunks.length, 3);
  for (let k = 0; k < 3; k++) {
    assert.deepEqual(par.chunks[k]!.ead, single.chunks[k]!.ead);
    assert.deepEqual(par.chunks[k]!.climateScoreResidual, single.chunks[k]!.climateScoreResidual);
  }
  assert.equal(par.workers, 2);
  // small portfolios run in the calling thread by default, with the same results
  const small = await analysePortfolioParallel(assets, { providerModule: mod, chunkSize: 100 });
  assert.equal(small.workers, 0);
  assert.deepEqual(small.chunks[2]!.ead, single.chunks[2]!.ead);
});

test('portfolio summary: totals, CVaR >= RCVaR, key findings, premium', async () => {
  const { portfolioSummary } = await import('../src/index.js');
  const assets = [base, { ...base, latitude: 40.7, longitude: -74, mitigation_risk: 3 }, { ...base, id: 'ocean' }];
  const r = analysePortfolio(
    assets,
    providerFor((a, sy) => (a.id === 'ocean' ? null : inputs(scaleOf(sy)))),
  );
  const s = portfolioSummary(r.chunks, r.prepared, { analysisType: 'ssp', scenario: '85', year: 2050 });
  assert.equal(s.hazards.length, 11);
  assert.ok(s.total.cvar > 0 && s.total.rcvar < s.total.cvar && s.total.avoidedLoss > 0);
  // hazards combine per year as independent (1 − Π(1 − d)): the total is at most the sum of the hazard rows and at least the largest
  assert.ok(s.total.cvar <= s.hazards.reduce((t, h) => t + h.cvar, 0) * (1 + 1e-9));
  assert.ok(s.total.cvar >= Math.max(...s.hazards.map((h) => h.cvar)) * (1 - 1e-9));
  assert.ok(s.total.eal <= s.hazards.reduce((t, h) => t + h.eal, 0) * (1 + 1e-9));
  assert.ok(s.total.technicalPremium > s.total.eal);
  assert.ok(s.keyFindings.cvar_85 > s.keyFindings.cvar_26 && s.keyFindings.value_of_transition_policies > 0);
  assert.ok(s.keyFindings.increased_by_2050! > 0 && s.keyFindings.increased_by_2100! > s.keyFindings.increased_by_2050!);
  assert.ok(s.total.score! >= Math.max(...s.hazards.map((h) => h.score ?? 0)) - 1);
  const rcp = portfolioSummary(r.chunks, r.prepared, { analysisType: 'rcp', scenario: '45', year: 2030, withContent: false, gdpAdjusted: true });
  assert.equal(rcp.keyFindings.increased_by_2100, null);
  assert.ok(rcp.exposedValue < s.exposedValue);
});

test('grid kernel equals the reference functions (JRC flood, Emanuel wind, adaptation, tail rule)', async () => {
  const { eadFromCurve, jrcCurve, buildingFloodDamage, emanuelDamage, vHalfForRegion, downtimeYears } = await import('../src/index.js');
  const flood = curve(1.7);
  const wind = windCurve(70);
  for (const lvl of [0, 2]) {
    // flood_protection 1: no standard of protection (the default for the Philippines would be 10 years)
    const asset: AssetInput = { ...base, mitigation_risk: lvl, latitude: 14.6, longitude: 121, country_code: 'PH', type: 'Residential', flood_protection: 1 };
    const r = analysePortfolio(
      [asset],
      providerFor(() => ({ river_flood: flood, typhoon: wind })),
      { scenarioYears: [SCENARIO_YEARS[0]!] },
    );
    const ch = r.chunks[0]!;
    const c = (h: keyof typeof HAZARD_INDEX) => HAZARD_INDEX[h];
    const jc = jrcCurve('residential', 'asia');
    const jrcDamage = (_c: unknown, d: number) => buildingFloodDamage(jc, 'residential', d, { floors: Number.NaN, basement: false, plinthM: 0 });
    const f = eadFromCurve(flood.returnPeriodsYears, flood.intensities, (d) => jrcDamage(jc, d));
    assert.ok(Math.abs(ch.ead[c('river_flood')]! - f.mean) < 1e-6, `flood ${ch.ead[c('river_flood')]} vs ${f.mean}`);
    assert.ok(Math.abs(ch.sd[c('river_flood')]! - f.sd) < 1e-6);
    // downtime integrated over the same bins; a bin is dry (skipped) when the damage at its frequent end is 0
    const rp = flood.returnPeriodsYears;
    const I = flood.intensities;
    const n = rp.length;
    let bi = (1 / rp[n - 1]!) * downtimeYears(jrcDamage(jc, I[n - 1]!));
    for (let k = 0; k < n - 1; k++) {
      if (jrcDamage(jc, I[k]!) > 0) bi += ((1 / rp[k]! - 1 / rp[k + 1]!) * (downtimeYears(jrcDamage(jc, I[k]!)) + downtimeYears(jrcDamage(jc, I[k + 1]!)))) / 2;
    }
    assert.ok(Math.abs(ch.disruption[c('river_flood')]! - bi) < 1e-6);
    const w = eadFromCurve(wind.returnPeriodsYears, wind.intensities, (v) => emanuelDamage(v, vHalfForRegion('WP2'))).mean;
    assert.ok(Math.abs(ch.ead[c('typhoon')]! - w) < 1e-6, `wind ${ch.ead[c('typhoon')]} vs ${w}`);
    if (lvl === 2) {
      // medium: depth - 0.6 m and 10-year standard of protection; typhoon damage x 0.7
      const fr = eadFromCurve(flood.returnPeriodsYears, flood.intensities, (d) => jrcDamage(jc, d - 0.6), { protectionRpYears: 10 }).mean;
      assert.ok(Math.abs(ch.eadResidual[c('river_flood')]! - fr) < 1e-6, `flood residual ${ch.eadResidual[c('river_flood')]} vs ${fr}`);
      assert.ok(Math.abs(ch.eadResidual[c('typhoon')]! - 0.7 * w) < 1e-6);
    }
  }
});

test("computeChunk copies the provider's headline intensities (HazardBatch.values) into chunk.intensity", async () => {
  const { computeChunk, prepareAssets, batchFromAssetInputs } = await import('../src/index.js');
  const assets = syntheticAssets(150);
  const sys = [SCENARIO_YEARS[0]!, SCENARIO_YEARS[5]!];
  const provider: HazardProvider = (sy, as, s, e) => {
    const b = batchFromAssetInputs(as.slice(s, e).map(() => inputs(1)));
    b.values = Float32Array.from({ length: (e - s) * N_HAZARDS }, (_, k) => (s + Math.floor(k / N_HAZARDS)) * 100 + (k % N_HAZARDS) + sy.year / 10000);
    return b;
  };
  const ch = computeChunk(prepareAssets(assets, undefined), assets, 0, 150, sys, provider);
  const at = (a: number, h: number, s: number) => ch.intensity![(a * N_HAZARDS + h) * 2 + s]!;
  assert.ok(Math.abs(at(149, 3, 1) - (14903 + SCENARIO_YEARS[5]!.year / 10000)) < 1e-2);
  assert.ok(Math.abs(at(70, 10, 0) - (7010 + 0.202)) < 1e-2);
});

test('worker_threads runner: a failing provider rejects the run and back-pressure waits for onChunk', async () => {
  const bad = fileURLToPath(new URL('./fixtures/failing-provider.ts', import.meta.url));
  await assert.rejects(
    analysePortfolioParallel(syntheticAssets(50), { providerModule: bad, workers: 1, chunkSize: 50, inThreadBelow: 0 }),
    /hazard layer unavailable|provider returned/,
  );
  const mod = fileURLToPath(new URL('../bench/synthetic-provider.ts', import.meta.url));
  let inFlight = 0;
  let maxInFlight = 0;
  const order: number[] = [];
  await analysePortfolioParallel(syntheticAssets(200), {
    providerModule: mod,
    workers: 1,
    chunkSize: 50,
    inThreadBelow: 0,
    scenarioYearKeys: ['baseline_2020'],
    onChunk: async (c) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      order.push(c.start);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    },
  });
  assert.equal(maxInFlight, 1);
  assert.deepEqual(order, [0, 50, 100, 150]);
});

test('portfolioCvarSeries equals the sum of assetCvar at every year of each scenario (caps not binding)', async () => {
  const { createHazardProvider } = await import('../bench/synthetic-provider.js');
  const assets = syntheticAssets(120);
  const r = analysePortfolio(assets, createHazardProvider(), { chunkSize: 50 });
  const hazards = ['river_flood', 'typhoon', 'extreme_heat', 'drought'] as const;
  for (const [at, sc] of [
    ['ssp', '85'],
    ['rcp', '26'],
  ] as const) {
    const series = portfolioCvarSeries(r.chunks, r.prepared, hazards, at, sc, { withContent: true });
    for (const year of series.years) {
      let c = 0;
      let rc = 0;
      for (const ch of r.chunks)
        for (let a = 0; a < ch.count; a++) {
          const x = assetCvar(r.prepared[ch.start + a]!, ch, a, hazards, at, sc, year);
          if (Number.isFinite(x.cvar)) {
            c += x.cvar;
            rc += x.rcvar;
          }
        }
      const s = series.at(year);
      assert.ok(Math.abs(s.cvar - c) <= 1e-6 * Math.max(1, c), `${at}${sc} ${year}: ${s.cvar} vs ${c}`);
      assert.ok(Math.abs(s.rcvar - rc) <= 1e-6 * Math.max(1, rc), `${at}${sc} ${year} residual: ${s.rcvar} vs ${rc}`);
    }
  }
});

test('assetCvarBatch and portfolioCvarSeriesOf give exactly what assetCvar and portfolioCvarSeries give (issue 7)', async () => {
  const { assetCvarBatch, ASSET_BATCH_FIELDS, portfolioCvarSeries, portfolioCvarSeriesOf } = await import('../src/index.js');
  const { createHazardProvider } = await import('../bench/synthetic-provider.js');
  const r = analysePortfolio(syntheticAssets(250), createHazardProvider(), { chunkSize: 100 });
  const chunkOf = new Int32Array(250),
    localOf = new Int32Array(250);
  r.chunks.forEach((c, ci) => {
    for (let a = 0; a < c.count; a++) {
      chunkOf[c.start + a] = ci;
      localOf[c.start + a] = a;
    }
  });
  const items = [249, 3, 100, 0, 57, 180, 181, 99];
  for (const [hazards, at, sc, year, opt] of [
    [['river_flood', 'typhoon', 'extreme_heat', 'drought'], 'ssp', '85', 2050, {}],
    [['wildfire'], 'rcp', '26', 2030, { withContent: false }],
    [['river_flood', 'storm_surge', 'sea_level_rise'], 'ssp', '45', 2100, { gdpAdjusted: true }],
  ] as const) {
    const out = new Float64Array(items.length * ASSET_BATCH_FIELDS),
      ph = new Float64Array(items.length * hazards.length * 2);
    assetCvarBatch(r.prepared, r.chunks, chunkOf, localOf, items, hazards, at, sc, year, opt, out, ph);
    items.forEach((i, j) => {
      const chunk = r.chunks[chunkOf[i]!]!;
      const x = assetCvar(r.prepared[i]!, chunk, localOf[i]!, hazards, at, sc, year, opt);
      assert.deepEqual(
        [...out.subarray(j * ASSET_BATCH_FIELDS, (j + 1) * ASSET_BATCH_FIELDS)],
        [x.cvar, x.rcvar, x.rcvarPercent, x.maxExposure, x.eal, x.ealResidual, x.loss100, x.loss250],
      );
      hazards.forEach((h, k) => {
        const y = assetCvar(r.prepared[i]!, chunk, localOf[i]!, [h], at, sc, year, opt);
        assert.deepEqual([ph[(j * hazards.length + k) * 2], ph[(j * hazards.length + k) * 2 + 1]], [y.cvar, y.rcvar]);
      });
    });
    // the whole portfolio in stored order: the same sums as portfolioCvarSeries over the chunks
    const all = Array.from({ length: 250 }, (_, i) => i);
    const a = portfolioCvarSeries(r.chunks, r.prepared, hazards, at, sc, opt);
    const b = portfolioCvarSeriesOf(r.prepared, r.chunks, chunkOf, localOf, all, hazards, at, sc, opt);
    assert.deepEqual([...b.loss], [...a.loss]);
    assert.deepEqual([...b.lossResidual], [...a.lossResidual]);
    for (const y of [2020, 2030, 2050, 2100]) assert.deepEqual(b.at(y), a.at(y));
  }
});

test('portfolioHazardSeriesOf gives, for every hazard in one pass, exactly the series portfolioCvarSeriesOf gives for that hazard alone', async () => {
  const { portfolioCvarSeriesOf, portfolioHazardSeriesOf } = await import('../src/index.js');
  const { createHazardProvider } = await import('../bench/synthetic-provider.js');
  const r = analysePortfolio(syntheticAssets(250), createHazardProvider(), { chunkSize: 100 });
  const chunkOf = new Int32Array(250),
    localOf = new Int32Array(250);
  r.chunks.forEach((c, ci) => {
    for (let a = 0; a < c.count; a++) {
      chunkOf[c.start + a] = ci;
      localOf[c.start + a] = a;
    }
  });
  const order = [249, 3, 100, 0, 57, 180, 181, 99, 12, 200];
  for (const [hazards, at, sc, opt] of [
    [['river_flood', 'typhoon', 'extreme_heat', 'drought', 'wildfire', 'sea_level_rise'], 'ssp', '85', {}],
    [['storm_surge', 'landslide'], 'rcp', '26', { withContent: false }],
    [['rainfall_flood', 'extreme_cold', 'snowfall'], 'ssp', '45', { gdpAdjusted: true }],
  ] as const) {
    const per = portfolioHazardSeriesOf(r.prepared, r.chunks, chunkOf, localOf, order, hazards, at, sc, opt);
    hazards.forEach((h, q) => {
      const one = portfolioCvarSeriesOf(r.prepared, r.chunks, chunkOf, localOf, order, [h], at, sc, opt);
      assert.deepEqual(per.years, one.years);
      assert.deepEqual([...per.loss[q]!], [...one.loss], `${h} ${at}${sc}`);
      assert.deepEqual([...per.lossResidual[q]!], [...one.lossResidual], `${h} ${at}${sc} residual`);
    });
    assert.ok(
      per.loss.some((l) => l.some((v) => v > 0)),
      'the fixture has losses to compare',
    );
  }
});

test('EnginePool: long-lived workers with a post module send back only what it makes of each chunk', async () => {
  const assets = syntheticAssets(300);
  const mod = fileURLToPath(new URL('../bench/synthetic-provider.ts', import.meta.url));
  const post = fileURLToPath(new URL('./fixtures/post-sum.ts', import.meta.url));
  const { createHazardProvider } = await import('../bench/synthetic-provider.js');
  const single = analysePortfolio(assets, createHazardProvider(), { chunkSize: 100 });
  const expected = single.chunks.map((c) => {
    let s = 0;
    for (const v of c.ead) if (Number.isFinite(v)) s += v;
    return s;
  });
  const pool = new EnginePool({ providerModule: mod, postModule: post, workers: 2, unref: true });
  try {
    const tasks = [0, 100, 200].map((start) => ({ start, assets: assets.slice(start, start + 100) }));
    const threads = new Set<number>();
    for (let round = 0; round < 2; round++) {
      const got = new Map<number, { sum: number; assets: number; inWorker: boolean; threadId: number; bytes: Float64Array }>();
      await pool.run(tasks, (head, value) => {
        assert.equal((head as { ead?: unknown }).ead, undefined, 'no arrays cross back with a post module');
        got.set(head.start, value as never);
      });
      assert.equal(pool.size, 2);
      for (const [k, start] of [0, 100, 200].entries()) {
        const v = got.get(start)!;
        assert.equal(v.inWorker, true);
        assert.equal(v.assets, 100);
        assert.ok(Math.abs(v.sum - expected[k]!) <= 1e-9 * Math.max(1, Math.abs(expected[k]!)), `chunk ${start}: ${v.sum} vs ${expected[k]}`);
        assert.equal(v.bytes[0], v.sum, 'transferred buffer arrives');
        threads.add(v.threadId);
      }
    }
    assert.ok(threads.size <= 2, 'the same two workers served both runs');
    await assert.rejects(
      pool.run(tasks.slice(0, 1), () => undefined, { fail: true }),
      /post module failed on purpose/,
    );
    // the pool still serves after a task failed
    let n = 0;
    await pool.run(tasks, () => {
      n += 1;
    });
    assert.equal(n, 3);
  } finally {
    await pool.close();
  }
});
