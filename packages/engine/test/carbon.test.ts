import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CARBON_REGIONS,
  CARBON_SECTORS,
  computeCarbon,
  EMISSION_FACTOR_DATA,
  EMISSION_FACTORS,
  projectScope12,
  type EmissionFactorTable,
} from '../src/carbon/index.js';

const close = (actual: number | null, expected: number, eps = 1e-9) => {
  assert.ok(actual !== null, `expected ${expected}, got null`);
  assert.ok(Math.abs(actual - expected) <= eps * Math.max(1, Math.abs(expected)), `expected ${expected}, got ${actual}`);
};

/** A test factor table: Coal in China 500 tCO2e per USD million revenue; nothing else has a factor. */
const TEST_FACTORS: EmissionFactorTable = {
  factor: (sector, region) => (sector === 'Coal' && region === 'China' ? 500 : null),
  note: (sector) => (sector === 'Electric Utilities' ? 'not published' : null),
};

/*
 * Hand-worked portfolio, value USD 10,000,000:
 *   A  invest 2,000,000  mcap 100,000,000  revenue  50,000,000  scope1+2 10,000 (reported)  Europe / Chemicals
 *   B  invest 3,000,000  mcap  30,000,000  revenue  20,000,000  scope1+2 blank -> 20 $M x 500 = 10,000 (projected)  China / Coal
 *   C  invest 5,000,000  mcap 250,000,000  revenue 100,000,000  scope1+2  2,000 (reported)  Japan / Software & IT Services
 * NAV% = invest / 10M:              A 20,        B 30,            C 50
 * attribution = invest / mcap:      A 0.02,      B 0.1,           C 0.02
 * financed = AF x E:                A 200,       B 1,000,         C 40          -> portfolio 1,240 tCO2e
 * footprint = financed / invest $M: A 200/2=100, B 1000/3=333.33, C 40/5=8      -> portfolio 1,240 / 10 = 124
 * intensity = E / revenue $M:       A 10000/50=200, B 10000/20=500, C 2000/100=20
 * WACI share = weight x intensity:  A 0.2x200=40, B 0.3x500=150,  C 0.5x20=10    -> WACI 200
 * portfolio intensity = Σ financed / Σ AF x revenue $M = 1,240 / (0.02x50 + 0.1x20 + 0.02x100 = 5) = 248
 * own scope 1+2 = 10,000 + 10,000 + 2,000 = 22,000; PCAF quality = (2x2M + 4x3M + 2x5M) / 10M = 2.6
 */
const PORTFOLIO = [
  {
    company_name: 'A',
    investment_in_usd: 2_000_000,
    market_cap_in_usd: 100_000_000,
    revenue_in_usd: 50_000_000,
    scope_1_and_2_GHG_emission: 10_000,
    region: 'Europe',
    sector: 'Chemicals',
  },
  {
    company_name: 'B',
    investment_in_usd: 3_000_000,
    market_cap_in_usd: 30_000_000,
    revenue_in_usd: 20_000_000,
    scope_1_and_2_GHG_emission: null,
    region: 'China',
    sector: 'Coal',
  },
  {
    company_name: 'C',
    investment_in_usd: 5_000_000,
    market_cap_in_usd: 250_000_000,
    revenue_in_usd: 100_000_000,
    scope_1_and_2_GHG_emission: 2_000,
    region: 'Japan',
    sector: 'Software & IT Services',
  },
];

test('per-company metrics match the hand-worked portfolio', () => {
  const {
    table_data: [a, b, c],
  } = computeCarbon(10_000_000, PORTFOLIO, TEST_FACTORS);
  close(a!.nav_in_perc, 20);
  close(b!.nav_in_perc, 30);
  close(c!.nav_in_perc, 50);
  close(a!.attribution_factor, 0.02);
  close(b!.attribution_factor, 0.1);
  close(c!.attribution_factor, 0.02);
  assert.equal(a!.emission_source, 'reported');
  assert.equal(b!.emission_source, 'projected');
  close(b!.emission_factor, 500);
  close(b!.projected_scope_1_and_2_GHG_emission, 10_000);
  close(a!.total_carbon_emission, 200);
  close(b!.total_carbon_emission, 1_000);
  close(c!.total_carbon_emission, 40);
  close(a!.carbon_footprint, 100);
  close(b!.carbon_footprint, 1000 / 3);
  close(c!.carbon_footprint, 8);
  close(a!.carbon_intensity, 200);
  close(b!.carbon_intensity, 500);
  close(c!.carbon_intensity, 20);
  close(a!.weighted_average_carbon_intensity, 40);
  close(b!.weighted_average_carbon_intensity, 150);
  close(c!.weighted_average_carbon_intensity, 10);
  assert.equal(a!.data_quality_score, 2);
  assert.equal(b!.data_quality_score, 4);
});

test('portfolio totals match the hand-worked portfolio', () => {
  const { portfolio: p, by_sector, by_region } = computeCarbon(10_000_000, PORTFOLIO, TEST_FACTORS);
  close(p.total_carbon_emission_portfolio, 1_240);
  close(p.projected_scope_1_and_2_portfolio, 22_000);
  close(p.carbon_footprint, 124);
  close(p.carbon_intensity, 248);
  close(p.weighted_average_carbon_intensity_portfolio, 200);
  close(p.coverage, 1);
  close(p.data_quality_score, 2.6);
  assert.deepEqual([p.reported_companies, p.projected_companies, p.unavailable_companies], [2, 1, 0]);
  // Sector and region totals, largest emitter first.
  assert.deepEqual(
    by_sector.map((g) => [g.key, g.total_carbon_emission]),
    [
      ['Coal', 1000],
      ['Chemicals', 200],
      ['Software & IT Services', 40],
    ],
  );
  assert.deepEqual(
    by_region.map((g) => g.key),
    ['China', 'Europe', 'Japan'],
  );
});

test('a holding without reported emissions and without a factor is unavailable, named, and left out of the totals', () => {
  const rows = [
    ...PORTFOLIO,
    {
      company_name: 'D',
      investment_in_usd: 1_000_000,
      market_cap_in_usd: 10_000_000,
      revenue_in_usd: 5_000_000,
      scope_1_and_2_GHG_emission: null,
      region: 'Africa',
      sector: 'Electric Utilities',
    },
  ];
  const { table_data, portfolio: p } = computeCarbon(11_000_000, rows, TEST_FACTORS);
  const d = table_data[3]!;
  assert.equal(d.emission_source, 'unavailable');
  assert.equal(d.total_carbon_emission, null);
  assert.equal(d.carbon_intensity, null);
  assert.match(d.note!, /No published emission factor for Electric Utilities in Africa: not published/);
  close(p.total_carbon_emission_portfolio, 1_240);
  close(p.carbon_footprint, 1_240 / 11);
  close(p.coverage, 10 / 11);
  assert.equal(p.unavailable_companies, 1);
});

test('the committed factor table covers the 29 sectors and 12 regions, with only documented gaps', () => {
  assert.equal(CARBON_SECTORS.length, 29);
  assert.equal(CARBON_REGIONS.length, 12);
  for (const s of [
    'Automobiles & Auto Parts',
    'Banking Services',
    'Coal',
    'Insurance',
    'Oil & Gas',
    'Renewable Energy',
    'Software & IT Services',
    'Water Utilities',
  ]) {
    assert.ok((CARBON_SECTORS as readonly string[]).includes(s), s);
  }
  const gaps: string[] = [];
  for (const s of CARBON_SECTORS) for (const r of CARBON_REGIONS) if (EMISSION_FACTORS.factor(s, r) === null) gaps.push(`${s}|${r}`);
  assert.deepEqual([...new Set(gaps.map((g) => g.split('|')[0]))], ['Electric Utilities']);
  assert.ok(EMISSION_FACTORS.note('Electric Utilities')!.includes('NAICS 2211'));
});

test('a committed factor is the EPA US factor x the regional intensity ratio (unit: kg/USD x 1000 = t per USD million)', () => {
  const d = EMISSION_FACTOR_DATA;
  // Cement (Construction Materials, NAICS 327310) in China: 3.846 kg CO2e/USD x 1000 x (China / US kg CO2 per USD GDP).
  const expected = 3.846 * 1000 * d.regions['China'].economy_ratio_to_us;
  close(EMISSION_FACTORS.factor('Construction Materials', 'China'), Math.round(expected * 100) / 100, 1e-12);
  // Software (grid-scaled) in Europe uses the grid ratio, which is below 1 (cleaner grid than the US).
  assert.ok(d.regions['Europe'].grid_ratio_to_us < 1);
  close(EMISSION_FACTORS.factor('Software & IT Services', 'Europe'), Math.round(0.036 * 1000 * d.regions['Europe'].grid_ratio_to_us * 100) / 100, 1e-12);
  // Projection: revenue USD 20 million of a Chinese cement maker.
  const p = projectScope12(20_000_000, 'Construction Materials', 'China');
  close(p.emission, 20 * EMISSION_FACTORS.factor('Construction Materials', 'China')!);
  // Every factor is positive and finite where present.
  for (const s of CARBON_SECTORS)
    for (const r of CARBON_REGIONS) {
      const f = EMISSION_FACTORS.factor(s, r);
      if (f !== null) assert.ok(Number.isFinite(f) && f > 0, `${s} ${r}`);
    }
});
