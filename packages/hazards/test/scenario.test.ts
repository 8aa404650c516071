import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warmingLevelC, gmslRiseSince2020M, knutsonFactor, pchip } from '../src/index.js';
import { layers } from './helpers.js';

const p = () => layers().params;

test('GWL by SSP lies within the AR6 SPM Table SPM.1 very likely ranges (mid- and long-term)', () => {
  // AR6 WGI SPM Table SPM.1, °C vs 1850-1900: best estimate (very likely range)
  const ar6: [string, '26' | '45' | '85', number, number, number][] = [
    ['2041-2060', '26', 1.7, 1.3, 2.2],
    ['2041-2060', '45', 2.0, 1.6, 2.5],
    ['2041-2060', '85', 2.4, 1.9, 3.0],
    ['2081-2100', '26', 1.8, 1.3, 2.4],
    ['2081-2100', '45', 2.7, 2.1, 3.5],
    ['2081-2100', '85', 4.4, 3.3, 5.7],
  ];
  for (const [period, s, , lo, hi] of ar6) {
    const y0 = +period.slice(0, 4);
    let m = 0;
    for (let y = y0; y < y0 + 20; y++) m += warmingLevelC(p(), s, y + 0.5) / 20;
    assert.ok(m >= lo && m <= hi, `${period} ${s}: ${m.toFixed(2)} outside [${lo}, ${hi}]`);
  }
});

test('GWL never decreases from SSP1-2.6 to SSP5-8.5 at the same year and is smooth', () => {
  for (let y = 2020; y <= 2100; y++) {
    const a = warmingLevelC(p(), '26', y),
      b = warmingLevelC(p(), '45', y),
      c = warmingLevelC(p(), '85', y);
    assert.ok(a <= b && b <= c, `${y}: ${a} ${b} ${c}`);
    // smooth: year-to-year change of the GWL is small
    assert.ok(Math.abs(warmingLevelC(p(), '85', y + 1) - c) < 0.1);
  }
  assert.ok(warmingLevelC(p(), '85', 2020) > 1.0 && warmingLevelC(p(), '85', 2020) < 1.4, 'present-day warming about 1.1-1.3 °C');
});

test('AR6 GMSL (relative to 1995-2014) is reproduced: 2050 and 2100 medians of Table 9.9', () => {
  // AR6 WGI Table 9.9 medians (m): 2050 SSP1-2.6 0.19, SSP2-4.5 0.20, SSP5-8.5 0.23; 2100 0.44, 0.56, 0.77.
  // Our values are rises since 2020 (AR6 central 2020 = 0.05 m above the 1995-2014 baseline).
  const cases: ['26' | '45' | '85', number, number][] = [
    ['26', 2050, 0.19],
    ['45', 2050, 0.2],
    ['85', 2050, 0.23],
    ['26', 2100, 0.44],
    ['45', 2100, 0.56],
    ['85', 2100, 0.77],
  ];
  for (const [s, y, v] of cases) assert.ok(Math.abs(gmslRiseSince2020M(p(), s, y) + 0.05 - v) <= 0.011, `${s} ${y}`);
  assert.equal(gmslRiseSince2020M(p(), '85', 2020), 0);
});

test('Jewson (2021) scaling reproduces the Knutson et al. (2020) +2 °C change exactly', () => {
  assert.ok(Math.abs(knutsonFactor(5.3, 2.85, 0.85) - 1.053) < 1e-9);
  assert.equal(knutsonFactor(5.3, 0.85, 0.85), 1);
  assert.ok(knutsonFactor(5.3, 4, 0.85) > knutsonFactor(5.3, 2, 0.85));
});

test('pchip interpolates monotone data monotonically', () => {
  const xs = [0, 1, 2, 3],
    ys = [0, 1, 1, 5];
  let prev = -Infinity;
  for (let x = 0; x <= 3; x += 0.05) {
    const v = pchip(xs, ys, x);
    assert.ok(v >= prev - 1e-12);
    prev = v;
  }
  assert.equal(pchip(xs, ys, 2), 1);
});

test('winter hazards: cold and snow futures warm by the regional winter-mean change at the scenario-year warming level (CMIP6 regional tas of the AR6 WGI Atlas), not by ΔTNn', () => {
  const l = layers();
  // winter (DJF) tas change vs 1850-1900 at GWL 1.5 / 2 / 3 / 4 °C, multi-model median of the AR6 Atlas CMIP6 regional
  // means (packages/hazards/data/atlas-winter-tas.json), and the TNn change of the same region (Hauser; AR6 WGI Ch. 11 data)
  const cases = [
    ['Moscow', 55.75, 37.62, 'WCE', [2.37, 3.03, 4.19, 5.5], [4.8, 6.06, 8.34, 11.04]],
    ['Winnipeg', 49.9, -97.14, 'CNA', [1.85, 2.87, 3.79, 4.97], [2.54, 3.76, 6.01, 7.82]],
    ['Fort McMurray', 56.73, -111.38, 'NWN', [3.65, 4.88, 7.81, 10.6], [4.46, 6.01, 8.9, 12.38]],
    ['Yakutsk', 62.03, 129.73, 'ESB', [2.92, 4.01, 5.48, 7.57], [3.42, 4.55, 6.7, 8.62]],
  ] as const;
  const atGwl = (v: readonly number[], g: number) => {
    const xs = [0, 1.5, 2, 3, 4],
      ys = [0, ...v];
    let i = 0;
    while (i < 3 && g > xs[i + 1]!) i++;
    return ys[i]! + ((ys[i + 1]! - ys[i]!) * (g - xs[i]!)) / (xs[i + 1]! - xs[i]!);
  };
  const base = { analysisType: 'ssp', scenario: '45', year: 2020 } as const;
  const g0 = l.resolveScenario(base).gwlC;
  for (const [name, lat, lng, region, win, tnn] of cases) {
    const reg = l.layer('ar6_region')!.data[Math.floor((90 - lat) / 0.5) * 720 + Math.floor((lng + 180) / 0.5)]!;
    assert.equal(l.params.regions[reg]!.abbrev, region, name);
    const cold0 = l.samplePoint(lat, lng, base).extreme_cold.value!;
    for (const [scenario, year] of [
      ['85', 2050],
      ['45', 2100],
      ['85', 2100],
    ] as const) {
      const sy = { analysisType: 'ssp', scenario, year } as const;
      const g = l.resolveScenario(sy).gwlC;
      const expected = atGwl(win, g) - atGwl(win, g0);
      const got = l.samplePoint(lat, lng, sy).extreme_cold.value! - cold0;
      assert.ok(Math.abs(got - expected) < 0.01, `${name} ${scenario} ${year}: ΔT ${got.toFixed(2)} vs table ${expected.toFixed(2)} (GWL ${g.toFixed(2)})`);
      // and clearly less than the coldest night's warming wherever TNn warms faster (all four regions)
      assert.ok(got < atGwl(tnn, g) - atGwl(tnn, g0) - 0.2, `${name} ${scenario} ${year}: ΔT ${got.toFixed(2)} not below ΔTNn`);
    }
  }
  // snow follows the same warming past +6 °C (the bands reach 16 °C): Fort McMurray keeps losing snow after 2050
  const snow = (year: number) => l.samplePoint(56.73, -111.38, { analysisType: 'ssp', scenario: '85', year }).snowfall.value!;
  assert.ok(snow(2100) < snow(2050) && snow(2050) < snow(2020), `Fort McMurray snow ${snow(2020)} → ${snow(2050)} → ${snow(2100)}`);
});

/**
 * Issue 33 item 5 (docs/validation.md "Issue 33: winter"): the model's winter warming at SSP5-8.5 2081-2100 (year 2090,
 * the period's centre) against the AR6 WGI Atlas CMIP6 regional DJF change 2081-2100 vs 1995-2014 (the Interactive
 * Atlas' default baseline, which our 1991-2020 climatology matches: baseline GWL 0.85 °C), 10th-90th percentile over the
 * 30 models of the Atlas repository's regional means (land and sea mask; recomputed by scripts/derive-winter-warming.ts and
 * stored in packages/hazards/data/atlas-winter-tas.json). Before the fix the cold model took ΔTNn: about 11 °C in WCE/EEU by 2100.
 */
test('winter warming at SSP5-8.5 2081-2100 lies inside the AR6 Atlas CMIP6 DJF range of NEU, WCE, EEU, WSB, ESB, NWN and CNA', () => {
  const l = layers();
  const atlas = [
    // region, a city in it, Atlas DJF change 2081-2100 vs 1995-2014, SSP5-8.5: 10th, 50th, 90th percentile (°C)
    ['NEU', 'Oslo', 59.91, 10.75, 3.19, 4.81, 6.36],
    ['WCE', 'Warsaw', 52.23, 21.01, 3.48, 5.01, 6.85],
    ['EEU', 'Kazan', 55.79, 49.12, 4.76, 6.92, 9.53],
    ['WSB', 'Omsk', 54.99, 73.37, 5.73, 7.22, 11.27],
    ['ESB', 'Yakutsk', 62.03, 129.73, 5.47, 6.96, 10.36],
    ['NWN', 'Fort McMurray', 56.73, -111.38, 6.81, 9.76, 14.29],
    ['CNA', 'Winnipeg', 49.9, -97.14, 4.15, 5.44, 7.5],
  ] as const;
  const base = { analysisType: 'ssp', scenario: '85', year: 2020 } as const;
  for (const [region, city, lat, lng, p10, , p90] of atlas) {
    const reg = l.layer('ar6_region')!.data[Math.floor((90 - lat) / 0.5) * 720 + Math.floor((lng + 180) / 0.5)]!;
    assert.equal(l.params.regions[reg]!.abbrev, region, city);
    // the model's change vs its own baseline climatology (GWL 0.85 °C, 1995-2014): the 2020 value minus the 2020 change
    const ctx2090 = l.resolveScenario({ ...base, year: 2090 });
    const dT = ctx2090.dTWin[reg]!;
    assert.ok(dT >= p10 && dT <= p90, `${region} (${city}): winter ΔT ${dT.toFixed(2)} °C outside the Atlas ${p10}-${p90} °C`);
    // the former ΔTNn warming: above the Atlas median everywhere, the published 90th percentile in WCE, EEU
    const dTNn = ctx2090.dTNn[reg]!;
    assert.ok(dTNn > dT, `${region}: ΔTNn ${dTNn.toFixed(2)} vs winter ${dT.toFixed(2)}`);
  }
  // snow stays where January stays well below 0 °C: cities whose coldest month is -14 °C or colder today keep it below
  // -5 °C and at least 60 % of their snow in 2100 (with ΔTNn, Omsk's coldest month reached -3 °C)
  for (const [city, lat, lng] of [
    ['Yakutsk', 62.03, 129.73],
    ['Omsk', 54.99, 73.37],
    ['Winnipeg', 49.9, -97.14],
    ['Norilsk', 69.35, 88.2],
  ] as const) {
    const now = l.samplePoint(lat, lng, base),
      fut = l.samplePoint(lat, lng, { ...base, year: 2100 });
    assert.ok(now.extreme_cold.value! <= -14, `${city}: coldest month today ${now.extreme_cold.value!.toFixed(1)} °C`);
    assert.ok(fut.extreme_cold.value! < -5, `${city}: coldest month ${fut.extreme_cold.value!.toFixed(1)} °C in 2100`);
    assert.ok(fut.snowfall.value! > 0.6 * now.snowfall.value!, `${city}: snow ${now.snowfall.value!.toFixed(0)} → ${fut.snowfall.value!.toFixed(0)} mm`);
  }
});
