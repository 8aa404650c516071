/**
 * Plausibility benchmark (issue 20 item 7): reference buildings and the demo portfolio through the real analysis (the
 * engine over the committed hazard layers) must show expected annual losses and premiums inside the published ranges
 * cited in src/modules/analysis/reference-buildings.ts and docs/validation.md.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HAZARD_KEYS } from '@crp/contracts';
import { propertyTypeOf } from '@crp/engine';
import { sharedHazardLayers } from '../src/modules/analysis/hazard-provider.js';
import { analyseReference, demoReferenceAssets, PHYSRISK_BAND, REFERENCE_BUILDINGS } from '../src/modules/analysis/reference-buildings.js';

const pct = (x: number) => `${(100 * x).toFixed(3)} %`;

for (const [year, scenario] of [
  [2020, '45'],
  [2050, '85'],
] as const) {
  test(`reference buildings, ${year === 2020 ? 'baseline 2020' : `SSP5-8.5 ${year}`}: expected annual loss per hazard and in total inside the cited ranges`, () => {
    const rows = analyseReference(
      REFERENCE_BUILDINGS.map((b) => b.asset),
      year,
      scenario,
    );
    REFERENCE_BUILDINGS.forEach((b, i) => {
      const r = rows[i]!;
      const [lo, hi] = b.totalRange;
      assert.ok(r.total >= lo && r.total <= hi, `${b.asset.name}: total ${pct(r.total)} outside ${pct(lo)}..${pct(hi)} (${b.basis})`);
      for (const [h, max] of Object.entries(b.hazardMax ?? {})) {
        const v = r.byHazard[h as keyof typeof r.byHazard]!;
        assert.ok(!(v > max!), `${b.asset.name}: ${h} ${pct(v)} above ${pct(max!)} (${b.basis})`);
      }
      // the premium of the insurable hazards stays inside what property insurers charge: at most 2 x the total EAL and
      // at most 5 % of value (physrisk's "very high" threshold) for the most exposed bay front
      assert.ok(r.premium <= Math.max(2 * r.total, 0.0001) && r.premium < 0.05, `${b.asset.name}: premium ${pct(r.premium)} vs EAL ${pct(r.total)}`);
      // 20-year window sum below the value for every reference building
      assert.ok(r.cvar20 < 1, `${b.asset.name}: 20-year loss ${pct(r.cvar20)} of value`);
    });
  });
}

test('the worked 10-storey office: 0.05-0.5 %/yr in Miami, premium 0.05-1 %; well below 0.5 % in Hong Kong, Tokyo, London', () => {
  const rows = analyseReference(REFERENCE_BUILDINGS.map((b) => b.asset));
  const at = (k: string) => rows[REFERENCE_BUILDINGS.findIndex((b) => b.key === k)]!;
  const miami = at('miami-office');
  assert.ok(miami.total >= 0.0005 && miami.total <= 0.005, `Miami ${pct(miami.total)}`);
  assert.ok(miami.premium >= 0.0005 && miami.premium <= 0.01, `Miami premium ${pct(miami.premium)}`);
  for (const k of ['hong-kong-office', 'tokyo-office', 'london-office']) {
    const r = at(k);
    assert.ok(r.total <= 0.005 && r.premium <= 0.005, `${k}: ${pct(r.total)}, premium ${pct(r.premium)}`);
  }
});

test('the demo portfolio: totals inside the property range, and no asset loses more than its value in 20 years', () => {
  const demo = demoReferenceAssets();
  for (const [year, scenario] of [
    [2020, '45'],
    [2050, '85'],
  ] as const) {
    const rows = analyseReference(demo, year, scenario);
    const value = demo.reduce((s, a) => s + a.valuation, 0);
    const w = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r, i) => s + f(r) * demo[i]!.valuation, 0) / value;
    const eal = w((r) => r.total);
    const premium = w((r) => r.premium);
    // value-weighted: the 0.05-0.5 %/yr property range widened to physrisk's "medium" band (1 %) for a portfolio that
    // holds Manila, Dhaka and Dubai sites whose heat and drought disruption is counted as lost revenue
    assert.ok(eal >= 0.0005 && eal <= 0.01, `demo EAL ${pct(eal)} at ${year}`);
    assert.ok(premium >= 0.0005 && premium <= 0.005, `demo premium ${pct(premium)} at ${year}`);
    rows.forEach((r, i) => assert.ok(r.cvar20 < 1, `${demo[i]!.name}: 20-year loss ${pct(r.cvar20)} of value`));
    // every hazard with data is a finite, non-negative loss
    for (const r of rows) for (const h of HAZARD_KEYS) assert.ok(Number.isNaN(r.byHazard[h]) || r.byHazard[h]! >= 0);
  }
});

/**
 * Wildfire (issue 33 item 1; docs/validation.md "Issue 33: wildfire"): three buildings in fire country, each with the
 * published range of its wildfire loss (damage + business interruption, fraction of value per year).
 * - Warehouse in a Mediterranean fire climate (a logistics shed beside the eucalypt and pine forests of Pedrógão Grande,
 *   Portugal, where the June 2017 fire complex burned about 450 km² and destroyed some 500 houses): inside the 0.05-0.5 %/yr
 *   that commercial property loses to all natural hazards (the property range above), and at most physrisk's "medium"
 *   band (< 1 %/yr) from wildfire; the landscape around it burns 1-3 %/yr and a masonry or steel shed is not a pine stand.
 * - House in a wildland-urban suburb (Altadena, California, where the January 2025 Eaton Fire destroyed about 9,400
 *   structures, and Paradise, California, Camp Fire 2018, 14,518 destroyed, Troy et al. 2022): not 0, and inside
 *   0.01-1 %/yr (intermix WUI housing in fire-prone forest 0.05-1 %/yr, references-2 §10, interface suburbs from 0.01 %).
 * - Buildings in a tropical savanna town (Katherine, Northern Territory, in the north Australian savanna that burns 21 %
 *   a year, Russell-Smith et al. 2007; Lusaka, Zambia): grass fires rarely destroy masonry towns (Cohen 2000: no wall
 *   ignition beyond ~40 m), so well under 2 %/yr: at most 0.5 %/yr, physrisk "medium".
 */
test('wildfire: a Mediterranean warehouse, a wildland-urban suburb house and savanna-town buildings inside their published ranges', () => {
  const warehouse = { type: 'Warehouse', valuation: 10e6, revenue: 5e6, floors: 1 };
  const house = { type: 'Residential', valuation: 1e6, revenue: 0, floors: 2 };
  const cases = [
    { name: 'Pedrógão Grande warehouse (PT)', a: { latitude: 39.92, longitude: -8.15, country_code: 'PT', ...warehouse }, range: [0.0005, 0.01] },
    { name: 'Altadena house (US)', a: { latitude: 34.19, longitude: -118.13, country_code: 'US', ...house }, range: [0.0001, 0.01] },
    { name: 'Paradise house (US)', a: { latitude: 39.76, longitude: -121.62, country_code: 'US', ...house }, range: [0.0001, 0.01] },
    { name: 'Katherine warehouse (AU)', a: { latitude: -14.47, longitude: 132.26, country_code: 'AU', ...warehouse }, range: [0, 0.005] },
    { name: 'Katherine house (AU)', a: { latitude: -14.47, longitude: 132.26, country_code: 'AU', ...house }, range: [0, 0.005] },
    {
      name: 'Lusaka factory (ZM)',
      a: { latitude: -15.42, longitude: 28.28, country_code: 'ZM', type: 'Industrial', valuation: 20e6, revenue: 20e6, floors: 3 },
      range: [0, 0.005],
    },
  ] as const;
  const rows = analyseReference(
    cases.map((c) => ({ name: c.name, ...c.a })),
    2020,
    '45',
  );
  cases.forEach((c, i) => {
    const w = rows[i]!.byHazard.wildfire!;
    const [lo, hi] = c.range;
    assert.ok(w >= lo && w <= hi, `${c.name}: wildfire ${pct(w)} outside ${pct(lo)}..${pct(hi)}`);
    assert.ok(rows[i]!.cvar20 < 1, `${c.name}: 20-year loss ${pct(rows[i]!.cvar20)} of value`);
  });
  // the WUI suburb is not 0, and the savanna town loses far less than its landscape burns (21 %/yr)
  assert.ok(rows[1]!.byHazard.wildfire! > 0 && rows[2]!.byHazard.wildfire! > 0);
});

/**
 * Heat and drought (issue 33 items 3 and 4; docs/validation.md "Issue 33: heat and drought"), each with its published range
 * (loss as a fraction of value per year; revenue = value for the plants, 0.2 × value for the office).
 * - Factory in a hot desert (Kuwait City, Arabian Peninsula; Niamey, Sahel): the ILO / Kjellstrom work-capacity loss at
 *   300 W in the shade. ILO (2019) "Working on a warmer planet": 1.4 % of the world's working hours lost in 1995, 2.2 % in
 *   2030, up to about 5 % in the hottest subregions (Southern Asia, Western Africa), all sectors together and mostly
 *   agriculture at 400 W; an indoor 300 W factory therefore loses more than nothing and at most a few %: 0.1-5 %/yr of its
 *   revenue to heat (since the follow-up below, the wage bill of its lost hours: hours × 0.150), and its drought
 *   disruption today is 0 (not a water-intensive plant; drought keyed to change).
 * - Air-conditioned office in a hot humid city (Singapore; Dhaka): cooled to ISO 7730 category B (≤ 26 °C), the indoor WBGT
 *   stays below the curve's onset, so at most 0.1 % of revenue a year (largely protected, as an office should be).
 * - Water-intensive plant (thermal power) in a drying region (Seville, Mediterranean: CMIP6 soil moisture −2 to −4 σ by
 *   2-4 °C of warming, Seneviratne et al. 2021): 0 today; by 2050 under SSP5-8.5 inside van Vliet et al. (2012, Nature
 *   Climate Change 2:676) summer usable-capacity reductions of 6.3-19 % (Europe, 2031-2060) — the year-round share at
 *   most their upper bound, at least 1 %; more by 2100 than by 2050.
 */
test('heat and drought: a desert factory, an air-conditioned office in a hot humid city and a water-intensive plant in a drying region', () => {
  const factory = { type: 'Industrial', valuation: 20e6, revenue: 20e6, floors: 3 };
  const office = { type: 'Office', valuation: 100e6, revenue: 20e6, floors: 10 };
  const plant = { type: 'Energy - Thermal Power', valuation: 100e6, revenue: 100e6, floors: 1 };
  const sites = [
    { name: 'Kuwait City factory (KW)', a: { latitude: 29.37, longitude: 47.98, country_code: 'KW', ...factory } },
    { name: 'Niamey factory (NE)', a: { latitude: 13.51, longitude: 2.11, country_code: 'NE', ...factory } },
    { name: 'Singapore office (SG)', a: { latitude: 1.29, longitude: 103.85, country_code: 'SG', ...office } },
    { name: 'Dhaka office (BD)', a: { latitude: 23.78, longitude: 90.4, country_code: 'BD', ...office } },
    { name: 'Seville thermal plant (ES)', a: { latitude: 37.39, longitude: -5.98, country_code: 'ES', ...plant } },
  ] as const;
  const assets = sites.map((s) => ({ name: s.name, ...s.a }));
  const today = analyseReference(assets, 2020, '45');
  const mid = analyseReference(assets, 2050, '85');
  const late = analyseReference(assets, 2100, '85');
  const share = (r: (typeof today)[number], h: 'extreme_heat' | 'drought', a: (typeof sites)[number]['a']) => (r.byHazard[h]! * a.valuation) / a.revenue;
  for (const i of [0, 1]) {
    const heat = share(today[i]!, 'extreme_heat', sites[i]!.a);
    assert.ok(heat >= 0.001 && heat <= 0.05, `${sites[i]!.name}: heat ${pct(heat)} of revenue outside 0.1-5 % (ILO 2019)`);
    assert.ok(today[i]!.byHazard.drought! === 0, `${sites[i]!.name}: drought ${pct(today[i]!.byHazard.drought!)} today`);
    assert.ok(today[i]!.total <= 0.025, `${sites[i]!.name}: total ${pct(today[i]!.total)} above 2.5 %/yr`);
  }
  for (const i of [2, 3]) {
    const heat = share(today[i]!, 'extreme_heat', sites[i]!.a);
    assert.ok(heat <= 0.001, `${sites[i]!.name}: heat ${pct(heat)} of revenue in a cooled office`);
  }
  const d0 = share(today[4]!, 'drought', sites[4]!.a);
  const d50 = share(mid[4]!, 'drought', sites[4]!.a);
  const d100 = share(late[4]!, 'drought', sites[4]!.a);
  assert.equal(d0, 0, `Seville plant drought today ${pct(d0)}`);
  assert.ok(d50 >= 0.01 && d50 <= 0.19, `Seville plant drought 2050 ${pct(d50)} outside 1-19 % (van Vliet et al. 2012)`);
  assert.ok(d100 > d50, `Seville plant drought 2100 ${pct(d100)} not above 2050 ${pct(d50)}`);
});

/**
 * Heat in money (issue 33 item 3 follow-up; docs/validation.md "Issue 33 follow-up: heat costed at the wage bill"). The
 * heat loss is business interruption, not damage: the share of work hours lost (ILO / Kjellstrom, 300 W in the shade for a
 * factory) × the labour cost share of revenue (ILO labour income share 51.4 % × value added per unit of gross output of
 * manufacturing 0.293, China NBS input-output table 2005: 0.150). Published ranges:
 * - hours: ILO (2019) "Working on a warmer planet": India loses 4.3 % of its working hours to heat in 1995 and 5.8 % in
 *   2030 (1.5 °C of warming), all sectors, mostly agriculture and construction at 400 W; an indoor 300 W factory in the
 *   hot north-Indian plain (Lucknow) therefore loses at least 1 % (the world's 1995 average, 1.4 %, is of that order) and
 *   at most India's all-sector 5.8 %, today and in 2050 under SSP5-8.5, and more in 2050 than today. A factory in a hot
 *   desert (Riyadh; Jacobabad, Sindh) loses something (≥ 0.1 %) and at most that 5.8 %; dry heat in the shade is milder
 *   than humid heat (the shade WBGT is mostly the wet bulb).
 * - money: those hours × the labour cost share, so at most 5.8 % × 0.150 = 0.87 % of revenue; issue 33's criteria: no
 *   building above 2 %/yr of value (revenue = value here), none in a hot desert above 2.5 %/yr; drought of a factory that
 *   is not water-intensive ≤ 1 %/yr (it is 0: drought is costed by water dependence).
 * - work intensity: an indoor warehouse (200 W, ILO services) loses fewer hours than the factory (300 W), which loses
 *   fewer than open-air road works (400 W, ILO construction), at the same place.
 */
test('heat in money: factories in a hot desert and in northern India lose the wage bill of their lost hours, inside ILO 2019', () => {
  const factory = { type: 'Industrial', valuation: 20e6, revenue: 20e6, floors: 3 };
  const L = propertyTypeOf('Industrial').labourCostShare;
  assert.ok(L > 0.1 && L < 0.2, `labour cost share of manufacturing ${pct(L)}`);
  const sites = [
    { name: 'Lucknow factory (IN)', a: { latitude: 26.85, longitude: 80.95, country_code: 'IN', ...factory }, minHours: 0.01 },
    { name: 'Riyadh factory (SA)', a: { latitude: 24.71, longitude: 46.68, country_code: 'SA', ...factory }, minHours: 0.001 },
    { name: 'Jacobabad factory (PK)', a: { latitude: 28.28, longitude: 68.44, country_code: 'PK', ...factory }, minHours: 0.001 },
  ] as const;
  const assets = sites.map((s) => ({ name: s.name, ...s.a }));
  const today = analyseReference(assets, 2020, '45');
  const mid = analyseReference(assets, 2050, '85');
  sites.forEach((s, i) => {
    for (const [label, r] of [
      ['today', today[i]!],
      ['2050 SSP5-8.5', mid[i]!],
    ] as const) {
      const heatOfRevenue = (r.byHazard.extreme_heat! * s.a.valuation) / s.a.revenue;
      const hours = heatOfRevenue / L;
      assert.ok(hours >= s.minHours && hours <= 0.058, `${s.name} ${label}: ${pct(hours)} of work hours lost, outside ${pct(s.minHours)}-5.8 % (ILO 2019)`);
      assert.ok(heatOfRevenue <= 0.058 * L, `${s.name} ${label}: heat ${pct(heatOfRevenue)} of revenue above the wage bill of 5.8 % of hours`);
      assert.ok(r.byHazard.extreme_heat! <= 0.02, `${s.name} ${label}: heat ${pct(r.byHazard.extreme_heat!)} of value a year above 2 %`);
      assert.ok((r.byHazard.drought ?? 0) <= 0.01, `${s.name} ${label}: drought ${pct(r.byHazard.drought ?? 0)} above 1 %/yr`);
      if (i > 0) assert.ok(r.total <= 0.025, `${s.name} ${label}: total ${pct(r.total)} above 2.5 %/yr in a hot desert`);
    }
    assert.ok(mid[i]!.byHazard.extreme_heat! > today[i]!.byHazard.extreme_heat!, `${s.name}: heat not larger in 2050 under SSP5-8.5`);
  });
  // work intensity at one place: indoor warehouse 200 W < factory 300 W < open-air road works 400 W (hours lost)
  const at = { latitude: 26.85, longitude: 80.95, country_code: 'IN', valuation: 10e6, revenue: 10e6, floors: 1 };
  const kinds = ['Warehouse', 'Industrial', 'Roads'] as const;
  const r = analyseReference(
    kinds.map((type) => ({ name: `Lucknow ${type}`, type, ...at })),
    2020,
    '45',
  );
  const hours = kinds.map((type, k) => r[k]!.byHazard.extreme_heat! / propertyTypeOf(type).labourCostShare);
  assert.ok(hours[0]! < hours[1]! && hours[1]! < hours[2]!, `hours lost 200/300/400 W: ${hours.map(pct).join(', ')}`);
});

/**
 * The tail beyond a very high standard of protection (issue 34 item 3; docs/validation.md "Tail beyond a standard of
 * protection"): a port terminal on the Waalhaven/Eemhaven docks of Rotterdam, where the river-flood curve (HAND) floods
 * the quay 0.35-1.2 m from the 5- to the 1,000-year event, behind the Dutch 1-in-1,250-year river standard (Waterwet 2009).
 * Only the excess of events rarer than the standard over the design level passes (ead.ts beyondStandard), so the river
 * loss sits in physrisk's "very low" acute band, below 0.01 %/yr (was 0.065 %/yr, the constant 1,000-year tail); it is not
 * zero, since the curve still grows beyond 1,000 years; and the same terminal with its own 100-year standard loses more.
 */
test('the tail beyond a 1-in-1,250-year dike: a Rotterdam port terminal loses at most 0.01 %/yr to river floods', () => {
  const terminal = {
    name: 'Rotterdam Waalhaven terminal (NL)',
    latitude: 51.89,
    longitude: 4.43,
    country_code: 'NL',
    type: 'Port',
    valuation: 100e6,
    revenue: 20e6,
    floors: 3,
  };
  for (const [year, scenario] of [
    [2020, '45'],
    [2050, '85'],
  ] as const) {
    const [dike, own100] = analyseReference([terminal, { ...terminal, flood_protection: 100 }], year, scenario);
    const river = dike!.byHazard.river_flood!;
    assert.ok(river > 0 && river <= PHYSRISK_BAND.veryLow, `${year}: river ${pct(river)} outside 0..0.01 %/yr behind the 1,250-yr dike`);
    assert.ok(own100!.byHazard.river_flood! > 10 * river, `${year}: 100-yr standard ${pct(own100!.byHazard.river_flood!)} vs dike ${pct(river)}`);
  }
});

/**
 * Landslide (issue 33 item 2; docs/validation.md "Issue 33: landslide and winter"): a house in a hillside town with
 * documented catastrophic landslides, outside Hong Kong, where the hit rate is now carried to the NASA catalogue's towns
 * by its completeness against the Hong Kong register (274.7 GEO incidents per GLC point) and by Hong Kong's pre-1977
 * slope risk (4x, Ho & Cheung 2016). Published range: 1e-5 to 1e-3 of value a year — above Hong Kong's own average
 * building hit-and-damage rate (9.27e-5 hits per building a year × 0.049 damage per hit = 4.5e-6, GEO 1984-2020), below
 * the 0.01 %/yr... 0.1 %/yr that would make landslide a leading peril for ordinary buildings (references-2 §10: landslide,
 * engineered building on ordinary slopes < 0.01 %/yr; non-engineered houses on steep hillsides up to 10x that).
 * - Pokhara, Nepal (GLC: 9 reported landslides within 10 km 2007-2018; the 2012 Seti River debris flood killed ~70).
 * - Banjarnegara, Central Java (the Jemblung landslide of 12 December 2014 buried a village, ~100 dead; 4 GLC points
 *   within 10 km).
 * Flat land stays at 0 (Amsterdam, the Gangetic plain at Kolkata).
 */
test('landslide: a house in a hillside town with documented landslides loses 1e-5 to 1e-3 of its value a year; flat land 0', () => {
  const house = { type: 'Residential', valuation: 1e6, revenue: 0, floors: 2 };
  const cases = [
    { name: 'Pokhara house (NP)', a: { latitude: 28.21, longitude: 83.99, country_code: 'NP', ...house }, range: [1e-5, 1e-3] },
    { name: 'Banjarnegara house (ID)', a: { latitude: -7.39, longitude: 109.69, country_code: 'ID', ...house }, range: [1e-5, 1e-3] },
    { name: 'Amsterdam house (NL)', a: { latitude: 52.37, longitude: 4.9, country_code: 'NL', ...house }, range: [0, 1e-7] },
    { name: 'Kolkata house (IN)', a: { latitude: 22.57, longitude: 88.36, country_code: 'IN', ...house }, range: [0, 1e-7] },
  ] as const;
  const rows = analyseReference(
    cases.map((c) => ({ name: c.name, ...c.a })),
    2020,
    '45',
  );
  cases.forEach((c, i) => {
    const v = rows[i]!.byHazard.landslide!;
    const [lo, hi] = c.range;
    assert.ok(v >= lo && v <= hi, `${c.name}: landslide ${v.toExponential(2)} of value/yr outside ${lo}..${hi}`);
  });
});

/**
 * Winter (issue 33 item 5): a cold-climate office in 2100 under SSP5-8.5 keeps its cold and its snow where January stays
 * far below 0 °C. The coldest month warms by the region's winter-mean change, inside the AR6 WGI Atlas CMIP6 DJF range for
 * 2081-2100 vs 1995-2014, SSP5-8.5, 10th-90th percentile over models (ESB 5.5-10.4 °C, CNA 4.2-7.5 °C; recomputed from the
 * Atlas repository's regional means, packages/hazards/data/atlas-winter-tas.json) plus the 2090→2100 step; with ΔTNn it
 * warmed 8.6 °C in Yakutsk and 8.6 °C in Winnipeg. The cold loss stays above 0 and inside the 0.01-0.5 %/yr of value that
 * commercial property loses to all natural hazards (references-2 §10), and the snowfall keeps at least 60 % of today's.
 */
test('winter: a cold-climate office in 2100 (Yakutsk, Winnipeg) keeps cold and snow, with winter warming inside the AR6 Atlas range', () => {
  const office = { type: 'Office', valuation: 100e6, revenue: 20e6, floors: 10 };
  const cases = [
    { name: 'Yakutsk office (RU)', a: { latitude: 62.03, longitude: 129.73, country_code: 'RU', ...office }, atlas: [5.47, 10.36] },
    { name: 'Winnipeg office (CA)', a: { latitude: 49.9, longitude: -97.14, country_code: 'CA', ...office }, atlas: [4.15, 7.5] },
  ] as const;
  const assets = cases.map((c) => ({ name: c.name, ...c.a }));
  const today = analyseReference(assets, 2020, '85');
  const late = analyseReference(assets, 2100, '85');
  const hz = sharedHazardLayers();
  cases.forEach((c, i) => {
    const at = (year: number) => hz.samplePoint(c.a.latitude, c.a.longitude, { analysisType: 'ssp', scenario: '85', year });
    const now = at(2020),
      fut = at(2100);
    // 2020 → 2090 (the centre of 2081-2100): below the Atlas 90th percentile counted from 1995-2014
    const d2090 = at(2090).extreme_cold.value! - now.extreme_cold.value!;
    assert.ok(fut.extreme_cold.value! < -5, `${c.name}: coldest month ${fut.extreme_cold.value!.toFixed(1)} °C in 2100`);
    assert.ok(fut.snowfall.value! >= 0.6 * now.snowfall.value!, `${c.name}: snow ${now.snowfall.value!.toFixed(0)} → ${fut.snowfall.value!.toFixed(0)} mm`);
    assert.ok(d2090 > 0 && d2090 <= c.atlas[1], `${c.name}: winter warming 2020→2090 ${d2090.toFixed(2)} °C above the Atlas 90th percentile ${c.atlas[1]}`);
    const cold = late[i]!.byHazard.extreme_cold!;
    assert.ok(cold >= 1e-4 && cold <= 5e-3, `${c.name}: cold ${pct(cold)} in 2100 outside 0.01-0.5 %/yr`);
    assert.ok(cold < today[i]!.byHazard.extreme_cold!, `${c.name}: cold loss does not fall with warming`);
  });
});

/**
 * Flood and coast (issue 34 item 6; docs/validation.md "Issue 34 item 6: flood and surge plausibility"), loss as a
 * fraction of value per year (damage + interruption), baseline 2020. Published flood AAL of ordinary buildings is
 * 0.05-2 %/yr (JBA / Fathom studies and Aqueduct-based physrisk runs, issue 34); an unelevated building inside an
 * unprotected 1-in-10 to 1-in-20 floodplain 1-3 %/yr (references-2.md §10); the loss sweep flags a building whose flood
 * or surge EAL alone exceeds 2 %/yr.
 * - Single-storey warehouses in undefended river floodplains of three income groups: Kampong Cham (Mekong, Cambodia,
 *   lower-middle income), Nong Khai (Mekong, Thailand, upper-middle), Davenport, Iowa (the largest Mississippi city
 *   without a permanent floodwall; high income, own standard 2 years = no levee): river + rainfall at most 2 %/yr, and
 *   not 0 on the Mekong. Patna (Ganges, India, lower-middle) is the open case (todo below).
 * - Jais, a town on the flat ETOPO5 Gangetic interfluve 100 km from the Ganges (the loss sweep's former worst river
 *   case, 5.3 %/yr): river alone at most 2 %/yr; no published map puts it in a floodplain.
 * - Ground-floor shop in a delta city (Ho Chi Minh City, Saigon-Dong Nai delta): river + rainfall inside 0.05-2 %/yr.
 * - Warehouses on undiked barrier coasts (Galveston Island west of the seawall, Texas; Nags Head, Outer Banks, North
 *   Carolina): storm surge inside 0.05-2 %/yr with the default standard; with their own 2-year standard (no dike, the
 *   user's own data) inside the unprotected-floodplain band, at most 3 %/yr (Galveston 2.05 %/yr since the synthetic
 *   tracks lowered its 10-year wind, 30 -> 27.5 m/s, and with it the shore's 10-year storm tide; docs/validation.md).
 */
test('flood and surge: floodplain warehouses, a delta-city shop and barrier-coast warehouses inside the published ranges', () => {
  const warehouse = { type: 'Warehouse', valuation: 10e6, revenue: 5e6, floors: 1 };
  const shop = { type: 'Retail', valuation: 2e6, revenue: 2e6, floors: 1 };
  const flood = (r: { byHazard: Record<string, number> }) => r.byHazard.river_flood! + r.byHazard.rainfall_flood!;
  const cases = [
    { name: 'Kampong Cham warehouse (KH)', a: { latitude: 12.0, longitude: 105.46, country_code: 'KH', ...warehouse }, lo: 0.0005 },
    { name: 'Nong Khai warehouse (TH)', a: { latitude: 17.88, longitude: 102.74, country_code: 'TH', ...warehouse }, lo: 0.0005 },
    { name: 'Davenport warehouse, no levee (US)', a: { latitude: 41.52, longitude: -90.58, country_code: 'US', ...warehouse, flood_protection: 2 }, lo: 0 },
    { name: 'Ho Chi Minh City ground-floor shop (VN)', a: { latitude: 10.77, longitude: 106.7, country_code: 'VN', ...shop }, lo: 0.0005 },
  ] as const;
  const rows = analyseReference(
    cases.map((c) => ({ name: c.name, ...c.a })),
    2020,
    '45',
  );
  cases.forEach((c, i) => {
    const f = flood(rows[i]!);
    assert.ok(f >= c.lo && f <= 0.02, `${c.name}: river + rainfall ${pct(f)} outside ${pct(c.lo)}..2 %`);
    assert.ok(rows[i]!.cvar20 < 1, `${c.name}: 20-year loss ${pct(rows[i]!.cvar20)} of value`);
  });
  const [jais] = analyseReference([{ name: 'Jais warehouse (IN)', latitude: 26.2581, longitude: 81.5466, country_code: 'IN', ...warehouse }], 2020, '45');
  assert.ok(jais!.byHazard.river_flood! <= 0.02, `Jais: river ${pct(jais!.byHazard.river_flood!)} above 2 %`);
  const coast = [
    { name: 'Galveston West End warehouse (US)', latitude: 29.22, longitude: -94.93, country_code: 'US', ...warehouse },
    { name: 'Nags Head warehouse (US)', latitude: 35.96, longitude: -75.62, country_code: 'US', ...warehouse },
  ];
  const undiked = coast.map((a) => ({ ...a, name: `${a.name}, own standard 2 years`, flood_protection: 2 }));
  // With the default standard: 0.05-2 %/yr. With the user's own 2-year standard (the user says there is no dike: FEMA
  // V zone, the unprotected 1 % floodplain) the building is an unelevated one in an unprotected floodplain, 1-3 %/yr
  // (references-2.md §10, per-asset bands), the issue's "unless the user's own data says so"; it must stay above the
  // default-standard loss and under 3 %.
  const rs = analyseReference([...coast, ...undiked], 2020, '45');
  rs.forEach((r, i) => {
    const s = r.byHazard.storm_surge!;
    const hi = i < coast.length ? 0.02 : 0.03;
    assert.ok(s >= 0.0005 && s <= hi, `${r.name}: storm surge ${pct(s)} outside 0.05-${pct(hi)}`);
    if (i >= coast.length) assert.ok(s >= rs[i - coast.length]!.byHazard.storm_surge!, `${r.name}: no dike loses at least what the default standard loses`);
  });
});

/**
 * Big-river floodplain (docs/validation.md "Coastal and river tails (2026-11-28, third session)"): a single-storey
 * warehouse at Mahiari on the Hooghly (Ganges delta, lower-middle income, 10-year default standard), with the growth
 * curve of its basin's response time: river flood inside the published flood AAL of ordinary buildings, 0.05-2 %/yr
 * (JBA / Fathom studies, Aqueduct-based physrisk runs: issue 34; references-2.md §10), 20-year loss below its value.
 */
test('flood: a warehouse on the Hooghly floodplain (Mahiari) inside 0.05-2 %/yr from river flood', () => {
  const [r] = analyseReference(
    [{ name: 'Mahiari warehouse (IN)', latitude: 22.59, longitude: 88.24, country_code: 'IN', type: 'Warehouse', valuation: 10e6, revenue: 5e6, floors: 1 }],
    2020,
    '45',
  );
  const f = r!.byHazard.river_flood!;
  assert.ok(f >= 0.0005 && f <= 0.02, `Mahiari: river ${pct(f)} outside 0.05-2 %`);
  assert.ok(r!.cvar20 < 1, `Mahiari: 20-year loss ${pct(r!.cvar20)} of value`);
});

/**
 * Shoreline warehouse with the default protection (docs/validation.md "Coastal and river tails"): a single-storey
 * warehouse on the shore of Bantayan (Visayas, Philippines, lower-middle income, 10-year default coastal standard), where
 * the loss sweep's jitter puts buildings at the waterline. Published range: flood AAL of ordinary buildings 0.05-2 %/yr
 * (issue 34). Open: the Xu (2010) surge at 0 m, its wind setup scaled by Bantayan's shelf (factor 0.38), gives 3.1 %/yr
 * (5.0 before the shelf scaling; see docs/validation.md "Storm surge on narrow shelves").
 */
test(
  'surge: a shoreline warehouse on a typhoon coast with the default protection at most 2 %/yr (Bantayan)',
  { todo: 'Xu (2010) surge of a 53 m/s 100-year wind, shelf factor 0.38, at 0 m behind a 10-year standard: 3.1 %/yr (was 5.0; docs/validation.md)' },
  () => {
    const [r] = analyseReference(
      [
        {
          name: 'Bantayan warehouse (PH)',
          latitude: 11.1545,
          longitude: 123.7211,
          country_code: 'PH',
          type: 'Warehouse',
          valuation: 10e6,
          revenue: 5e6,
          floors: 1,
        },
      ],
      2020,
      '45',
    );
    const s = r!.byHazard.storm_surge!;
    assert.ok(s >= 0.0005 && s <= 0.02, `Bantayan: storm surge ${pct(s)} outside 0.05-2 %`);
  },
);

test(
  'flood: a warehouse on the Ganges at Patna at most 2 %/yr from river flood',
  { todo: 'flat ETOPO5 beside the Ganges, HAND 0, 10-year default standard: 3.1 %/yr with the 45-day growth curve (was 4.3; docs/validation.md)' },
  () => {
    const [r] = analyseReference(
      [{ name: 'Patna warehouse (IN)', latitude: 25.61, longitude: 85.14, country_code: 'IN', type: 'Warehouse', valuation: 10e6, revenue: 5e6, floors: 1 }],
      2020,
      '45',
    );
    assert.ok(r!.byHazard.river_flood! <= 0.02, `Patna: river ${pct(r!.byHazard.river_flood!)} above 2 %`);
  },
);

/**
 * Drought of a water-intensive firm (issue 33 item 4; docs/validation.md "Issue 33 item 4: drought of water-intensive
 * firms"). A Food & Chemicals plant is not a power plant: the WRI curve's share of the year in drought is the share of the
 * year its water supply fails, a year of failing water costs a formal firm 8 % of its revenue (World Bank 2017, Uncharted
 * Waters / "Shocks in the City": "a single water outage can reduce a firm's revenue by more than 8 %"), and a unit of lost
 * revenue costs it the value added of the lost sales (food 0.285, China NBS input-output table 2005). Published range:
 * - at most a whole year of failing water, 8 % of revenue, in money at most 8 % × 0.285 = 2.3 % of revenue a year;
 * - Cairo and Seville (AR6 region MED, drying: CMIP6 soil moisture −2 to −4 σ by 2-4 °C of warming, Seneviratne et al.
 *   2021): 0 today, more than 0 in 2050 and more in 2100 under SSP5-8.5;
 * - issue 33's criteria: no building in a hot desert or drought climate above 2.5 %/yr of value (revenue = value here);
 * - the same plant loses far less than a thermal power plant at the same place (whose whole capacity depends on cooling
 *   water): under a twentieth of it.
 */
test('drought of a water-intensive firm: a food & chemicals plant in Cairo and Seville, 2050 and 2100 SSP5-8.5, at most a year of failing water at value added', () => {
  const food = { type: 'Food & Chemicals', valuation: 50e6, revenue: 50e6, floors: 2 };
  const cap = 0.08 * propertyTypeOf('Food & Chemicals').droughtCostShare;
  assert.ok(cap > 0.02 && cap < 0.025, `cap ${pct(cap)}`);
  const sites = [
    { name: 'Cairo food & chemicals plant (EG)', a: { latitude: 30.04, longitude: 31.24, country_code: 'EG', ...food } },
    { name: 'Seville food & chemicals plant (ES)', a: { latitude: 37.39, longitude: -5.98, country_code: 'ES', ...food } },
  ] as const;
  const assets = [
    ...sites.map((s) => ({ name: s.name, ...s.a })),
    ...sites.map((s) => ({ name: `${s.name} as a thermal plant`, ...s.a, type: 'Energy - Thermal Power' })),
  ];
  const today = analyseReference(assets, 2020, '45');
  const mid = analyseReference(assets, 2050, '85');
  const late = analyseReference(assets, 2100, '85');
  sites.forEach((s, i) => {
    const of = (r: (typeof today)[number]) => (r.byHazard.drought! * s.a.valuation) / s.a.revenue;
    assert.equal(of(today[i]!), 0, `${s.name}: drought today ${pct(of(today[i]!))}`);
    assert.ok(of(mid[i]!) > 0, `${s.name}: no drought in 2050 under SSP5-8.5 in a drying region`);
    assert.ok(of(late[i]!) > of(mid[i]!), `${s.name}: drought 2100 ${pct(of(late[i]!))} not above 2050 ${pct(of(mid[i]!))}`);
    for (const [label, r, plant] of [
      ['2050 SSP5-8.5', mid[i]!, mid[i + 2]!],
      ['2100 SSP5-8.5', late[i]!, late[i + 2]!],
    ] as const) {
      assert.ok(of(r) <= cap, `${s.name} ${label}: drought ${pct(of(r))} of revenue above a year of failing water (${pct(cap)})`);
      assert.ok(r.total <= 0.025, `${s.name} ${label}: total ${pct(r.total)} above 2.5 %/yr in a drying climate`);
      assert.ok(
        r.byHazard.drought! < 0.05 * plant.byHazard.drought!,
        `${s.name} ${label}: ${pct(r.byHazard.drought!)} vs thermal plant ${pct(plant.byHazard.drought!)}`,
      );
    }
  });
});

/**
 * Wind by construction class (issue 33 item 6; docs/validation.md "Issue 33: wind by construction class"): buildings on
 * hurricane and typhoon coasts with a construction class, typhoon wind loss (fraction of value per year) inside:
 * - Miami-Dade house (wood, masonry): at least the Florida state-wide residential average of the Florida Public Hurricane
 *   Loss Model, about 5 billion USD a year before deductibles on about 1.8 trillion USD of residential property = 0.28 %/yr
 *   (Hamid et al. 2011, "Catastrophe model-based assessment of hurricane risk and estimates of potential insured losses
 *   for the State of Florida", Natural Hazards Review 12(4):171 [verify volume], abstract): Miami on the coast is among
 *   the most exposed counties, so at least that average; at most physrisk's "very high" threshold, 5 %/yr.
 * - Manila and Tacloban (Philippines) wood house: physrisk's "medium" to "high" bands, 0.2-5 %/yr, for light houses on
 *   the coast most often struck by typhoons (Haiyan 2013 at Tacloban).
 * - A 10-storey concrete office in Miami loses less than a wood house there, which loses more than a masonry one.
 */
test('wind by construction class: coastal houses and offices inside their published ranges, wood above masonry above concrete', () => {
  const house = { type: 'Residential', valuation: 1e6, revenue: 0, floors: 1 };
  const miami = { latitude: 25.7743, longitude: -80.1937, country_code: 'US' };
  const cases = [
    { name: 'Miami house, wood', a: { ...miami, ...house, construction: 'wood' }, range: [0.0028, 0.05] },
    { name: 'Miami house, masonry', a: { ...miami, ...house, construction: 'masonry' }, range: [0.0028, 0.05] },
    { name: 'Manila house, wood', a: { latitude: 14.58, longitude: 120.98, country_code: 'PH', ...house, construction: 'wood' }, range: [0.002, 0.05] },
    { name: 'Tacloban house, wood', a: { latitude: 11.24, longitude: 125.0, country_code: 'PH', ...house, construction: 'wood' }, range: [0.002, 0.05] },
    {
      name: 'Miami 10-storey office, concrete',
      a: { ...miami, type: 'Office', valuation: 100e6, revenue: 20e6, floors: 10, construction: 'concrete' },
      range: [0.0005, 0.01],
    },
  ] as const;
  const rows = analyseReference(
    cases.map((c) => ({ name: c.name, ...c.a })),
    2020,
    '45',
  );
  cases.forEach((c, i) => {
    const w = rows[i]!.byHazard.typhoon!;
    const [lo, hi] = c.range;
    assert.ok(w >= lo && w <= hi, `${c.name}: typhoon ${pct(w)} outside ${pct(lo)}..${pct(hi)}`);
    assert.ok(rows[i]!.cvar20 < 1, `${c.name}: 20-year loss ${pct(rows[i]!.cvar20)} of value`);
  });
  const [wood, masonry, , , office] = rows.map((r) => r.byHazard.typhoon!);
  assert.ok(wood! > masonry! && masonry! > office!, `wood ${pct(wood!)}, masonry ${pct(masonry!)}, concrete office ${pct(office!)}`);
});

/**
 * Typhoon on islands and cyclone coasts (docs/validation.md "Typhoon on islands and business interruption"): a
 * single-storey warehouse of unknown construction (regional Emanuel curve, Eberenz et al. 2021 TDR-optimal V_half)
 * in Port-Vila (Vanuatu; Oceania, V_half 64.1 m/s) and in Toamasina (Madagascar's east coast; South Indian, 52.4 m/s).
 * Published range: the loss sweep's acceptance bound (issue 33: at most 2 %/yr, a 20-year loss below the value) and
 * references-2 §10 (0.05-0.3 %/yr for engineered commercial buildings on hurricane coasts, memory-flagged). Both coasts
 * have documented cyclone losses (Pam 2015 at Efate, JTWC 77 m/s 42 km from Port-Vila; Gafilo 2004 and Hudah 2000 near
 * Antalaha; the staged JTWC record holds 3 and 5 storms of 51-77 m/s within 60 km since 1982), so neither is zero.
 */
const warehouse = (name: string, latitude: number, longitude: number, country_code: string) => ({
  name,
  latitude,
  longitude,
  country_code,
  type: 'Warehouse',
  valuation: 10e6,
  revenue: 5e6,
  floors: 1,
});
const PORT_VILA = warehouse('Port-Vila warehouse (VU)', -17.7338, 168.3219, 'VU');
const TOAMASINA = warehouse('Toamasina warehouse (MG)', -18.1492, 49.4023, 'MG');

test('typhoon: warehouses on a South Pacific island (Port-Vila) and on Madagascar east coast (Toamasina) lose to typhoon; Port-Vila 20-year loss below its value', () => {
  const [vila, toam] = analyseReference([PORT_VILA, TOAMASINA], 2020, '45');
  for (const [n, r] of [
    ['Port-Vila', vila!],
    ['Toamasina', toam!],
  ] as const) {
    assert.ok(r.byHazard.typhoon! >= 0.0005, `${n}: typhoon ${pct(r.byHazard.typhoon!)} below 0.05 % on a documented cyclone coast`);
  }
  // the mean of the two calibrations gave 118 % (docs/validation.md); the TDR-optimal V_half 81 %
  assert.ok(vila!.cvar20 < 1, `Port-Vila: 20-year loss ${pct(vila!.cvar20)} of value`);
});

test(
  'typhoon: a warehouse on a South Pacific island (Port-Vila) at most 2 %/yr',
  {
    todo: '100-year 1-min wind 60 m/s from the synthetic tracks (64 historical; JTWC record: Pam 2015): 3.1 %/yr (3.8 with the historical layer; docs/validation.md)',
  },
  () => {
    const [r] = analyseReference([PORT_VILA], 2020, '45');
    assert.ok(r!.byHazard.typhoon! <= 0.02, `Port-Vila: typhoon ${pct(r!.byHazard.typhoon!)} above 2 %`);
  },
);

test(
  'typhoon and surge: a warehouse on Madagascar east coast (Toamasina) at most 2 %/yr, 20-year loss below its value',
  {
    todo: 'V_half 52.4 m/s (South Indian) on a 48 m/s 100-year wind (synthetic tracks; 57 historical): typhoon 2.1 %/yr (4.6 with the historical layer), plus the surge at 0 m (docs/validation.md)',
  },
  () => {
    const [r] = analyseReference([TOAMASINA], 2020, '45');
    assert.ok(r!.byHazard.typhoon! <= 0.02, `Toamasina: typhoon ${pct(r!.byHazard.typhoon!)} above 2 %`);
    assert.ok(r!.cvar20 < 1, `Toamasina: 20-year loss ${pct(r!.cvar20)} of value`);
  },
);
