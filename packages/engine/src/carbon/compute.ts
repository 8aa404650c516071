import { EMISSION_FACTORS, type EmissionFactorTable } from './factors.js';

/** One holding of a financial portfolio (spec 001 §3.5). Amounts in USD, emissions in tCO2e per year. */
export interface CarbonCompanyInput {
  company_name: string;
  investment_in_usd: number;
  market_cap_in_usd: number;
  revenue_in_usd: number;
  /** Reported scope 1+2 (tCO2e/yr); null when unknown, then projected from revenue, sector and region. */
  scope_1_and_2_GHG_emission: number | null;
  region: string;
  sector: string;
}

export type EmissionSource = 'reported' | 'projected' | 'unavailable';

export interface CarbonCompanyResult {
  company_name: string;
  region: string;
  sector: string;
  investment_in_usd: number;
  /** investment / portfolio value x 100 (spec note 1). */
  nav_in_perc: number;
  /** investment / market capitalisation (PCAF listed equity, EVIC approximated by market cap). */
  attribution_factor: number;
  /** Scope 1+2 used (tCO2e/yr): reported, else projected, else null. */
  projected_scope_1_and_2_GHG_emission: number | null;
  emission_source: EmissionSource;
  /** The factor used for a projection, tCO2e per USD million revenue. */
  emission_factor: number | null;
  /** Financed emissions: attribution factor x scope 1+2 (tCO2e/yr). */
  total_carbon_emission: number | null;
  /** Financed emissions per USD million invested in this company (= scope 1+2 / market cap in USD million). */
  carbon_footprint: number | null;
  /** Scope 1+2 per USD million of the company's revenue. */
  carbon_intensity: number | null;
  /** The company's share of the portfolio WACI: portfolio weight x carbon intensity. */
  weighted_average_carbon_intensity: number | null;
  /** PCAF data-quality score: 2 reported (assumed unverified), 4 revenue-based estimate (PCAF option 3a); null when unknown. */
  data_quality_score: 2 | 4 | null;
  note: string | null;
}

export interface CarbonPortfolioResult {
  portfolio_value: number;
  /** Sum of financed emissions (tCO2e/yr). */
  total_carbon_emission_portfolio: number;
  /** Sum of the holdings' own scope 1+2 used, reported or projected (tCO2e/yr, not attributed). */
  projected_scope_1_and_2_portfolio: number;
  /** total_carbon_emission_portfolio / portfolio value in USD million. */
  carbon_footprint: number;
  /** Financed emissions / financed revenue (tCO2e per USD million revenue). */
  carbon_intensity: number | null;
  /** Σ (investment / portfolio value) x carbon intensity. */
  weighted_average_carbon_intensity_portfolio: number;
  /** Share of the invested amount (sum of investments) whose emissions are known or projected (0..1). */
  coverage: number;
  reported_companies: number;
  projected_companies: number;
  unavailable_companies: number;
  /** Investment-weighted PCAF data-quality score over covered holdings (1 best .. 5 worst), null if none. */
  data_quality_score: number | null;
}

export interface CarbonGroupTotal {
  key: string;
  investment_in_usd: number;
  total_carbon_emission: number;
  companies: number;
}

export interface CarbonAnalysis {
  table_data: CarbonCompanyResult[];
  portfolio: CarbonPortfolioResult;
  by_sector: CarbonGroupTotal[];
  by_region: CarbonGroupTotal[];
}

const MILLION = 1_000_000;

/** Scope 1+2 projected from revenue: revenue (USD million) x factor (tCO2e per USD million), or null with the reason. */
export function projectScope12(
  revenueUsd: number,
  sector: string,
  region: string,
  factors: EmissionFactorTable = EMISSION_FACTORS,
): { emission: number | null; factor: number | null; note: string | null } {
  const factor = factors.factor(sector, region);
  if (factor === null) {
    const why = factors.note(sector);
    return {
      emission: null,
      factor: null,
      note: `No published emission factor for ${sector} in ${region}${why ? `: ${why}` : '.'} Enter the reported scope 1+2.`,
    };
  }
  return { emission: (revenueUsd / MILLION) * factor, factor, note: null };
}

/**
 * Financed emissions and carbon metrics of a portfolio, following PCAF (2022) Part A §5.1 listed equity
 * and TCFD (2021) "Implementing the Recommendations" Table 2 (see docs/methodology.md, Carbon and transition).
 * Inputs are assumed validated: investment > 0, 0 < investment <= market cap, revenue > 0, portfolio value > 0.
 */
export function computeCarbon(portfolioValueUsd: number, companies: CarbonCompanyInput[], factors: EmissionFactorTable = EMISSION_FACTORS): CarbonAnalysis {
  const table_data: CarbonCompanyResult[] = companies.map((c) => {
    const weight = c.investment_in_usd / portfolioValueUsd;
    const af = c.investment_in_usd / c.market_cap_in_usd;
    let emission: number | null = c.scope_1_and_2_GHG_emission;
    let source: EmissionSource = 'reported';
    let factor: number | null = null;
    let note: string | null = null;
    if (emission === null) {
      const p = projectScope12(c.revenue_in_usd, c.sector, c.region, factors);
      emission = p.emission;
      factor = p.factor;
      note = p.note;
      source = emission === null ? 'unavailable' : 'projected';
    }
    const financed = emission === null ? null : af * emission;
    const intensity = emission === null ? null : emission / (c.revenue_in_usd / MILLION);
    return {
      company_name: c.company_name,
      region: c.region,
      sector: c.sector,
      investment_in_usd: c.investment_in_usd,
      nav_in_perc: weight * 100,
      attribution_factor: af,
      projected_scope_1_and_2_GHG_emission: emission,
      emission_source: source,
      emission_factor: factor,
      total_carbon_emission: financed,
      carbon_footprint: financed === null ? null : financed / (c.investment_in_usd / MILLION),
      carbon_intensity: intensity,
      weighted_average_carbon_intensity: intensity === null ? null : weight * intensity,
      data_quality_score: source === 'reported' ? 2 : source === 'projected' ? 4 : null,
      note,
    };
  });

  let financed = 0;
  let own = 0;
  let financedRevenueM = 0;
  let waci = 0;
  let coveredInvestment = 0;
  let dq = 0;
  for (const [i, r] of table_data.entries()) {
    if (r.total_carbon_emission === null) continue;
    const c = companies[i]!;
    financed += r.total_carbon_emission;
    own += r.projected_scope_1_and_2_GHG_emission!;
    financedRevenueM += (r.attribution_factor * c.revenue_in_usd) / MILLION;
    waci += r.weighted_average_carbon_intensity!;
    coveredInvestment += c.investment_in_usd;
    dq += c.investment_in_usd * r.data_quality_score!;
  }
  const totalInvestment = companies.reduce((sum, c) => sum + c.investment_in_usd, 0);
  const count = (s: EmissionSource) => table_data.filter((r) => r.emission_source === s).length;
  const portfolio: CarbonPortfolioResult = {
    portfolio_value: portfolioValueUsd,
    total_carbon_emission_portfolio: financed,
    projected_scope_1_and_2_portfolio: own,
    carbon_footprint: financed / (portfolioValueUsd / MILLION),
    carbon_intensity: financedRevenueM > 0 ? financed / financedRevenueM : null,
    weighted_average_carbon_intensity_portfolio: waci,
    coverage: totalInvestment > 0 ? coveredInvestment / totalInvestment : 0,
    reported_companies: count('reported'),
    projected_companies: count('projected'),
    unavailable_companies: count('unavailable'),
    data_quality_score: coveredInvestment > 0 ? dq / coveredInvestment : null,
  };

  const group = (key: (r: CarbonCompanyResult) => string): CarbonGroupTotal[] => {
    const m = new Map<string, CarbonGroupTotal>();
    for (const r of table_data) {
      const g = m.get(key(r)) ?? { key: key(r), investment_in_usd: 0, total_carbon_emission: 0, companies: 0 };
      g.investment_in_usd += r.investment_in_usd;
      g.total_carbon_emission += r.total_carbon_emission ?? 0;
      g.companies += 1;
      m.set(g.key, g);
    }
    return [...m.values()].sort((a, b) => b.total_carbon_emission - a.total_carbon_emission || a.key.localeCompare(b.key));
  };
  return { table_data, portfolio, by_sector: group((r) => r.sector), by_region: group((r) => r.region) };
}
