/**
 * The portfolio tail of cyclone wind from events (issue 35 item 2): an event loss table per project and scenario-year,
 * its occurrence and aggregate exceedance curves, the 1-in-100 and 1-in-250-year occurrence and aggregate losses and
 * TVaR(99 %). docs/results-api.md "Portfolio tail" and docs/methodology/engine.md §3.5.
 */
import { z } from 'zod';
import { ANALYSIS_TYPES, SCENARIOS } from './hazards.js';

export const PortfolioTailQuery = z.object({
  analysis_type: z.enum(ANALYSIS_TYPES, { error: 'analysis_type must be rcp or ssp' }).optional(),
  scenario: z.enum(SCENARIOS, { error: 'scenario must be 26, 45 or 85' }).optional(),
  year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole year').optional(),
});
export type PortfolioTailQuery = z.infer<typeof PortfolioTailQuery>;

const usd = (d: string) => z.number().nullable().describe(`${d}, USD; null on the Free plan (money_withheld)`);

export const TailCurvePoint = z.object({
  return_period_years: z.number().describe('return period (years): the loss is exceeded once in this many years on average'),
  loss_usd: usd('loss at this return period'),
});

export const PortfolioTailResponse = z.object({
  project_id: z.number().int(),
  analysis_type: z.enum(ANALYSIS_TYPES),
  scenario: z.enum(SCENARIOS),
  year: z.number().int(),
  peril: z.literal('typhoon_wind').describe('tropical-cyclone wind; storm surge is not yet in the event set'),
  assets: z.number().int().describe('assets of the project in the event set (every asset: an asset no cyclone reaches has no loss)'),
  expected_annual_loss_usd: usd('mean annual loss from the events (Σ rate × loss; the mean of the aggregate curve)'),
  engine_expected_annual_loss_usd: usd("sum of the assets' own typhoon expected annual losses (the engine's return-period integral), for comparison"),
  occurrence_loss_100_usd: usd('portfolio 1-in-100-year occurrence loss (the largest event of a year)'),
  occurrence_loss_250_usd: usd('portfolio 1-in-250-year occurrence loss'),
  aggregate_loss_100_usd: usd("portfolio 1-in-100-year aggregate loss (the sum of a year's events)"),
  aggregate_loss_250_usd: usd('portfolio 1-in-250-year aggregate loss'),
  tvar_99_loss_usd: usd('TVaR(99 %): mean aggregate annual loss of the worst 1 % of years'),
  sum_of_asset_loss_100_usd: usd("sum of the assets' own 1-in-100-year typhoon losses: the comonotonic upper bound the dashboard showed"),
  sum_of_asset_loss_250_usd: usd("sum of the assets' own 1-in-250-year typhoon losses"),
  oep: z.array(TailCurvePoint).describe('occurrence exceedance curve'),
  aep: z.array(TailCurvePoint).describe('aggregate exceedance curve'),
  event_set: z.object({
    description: z.string(),
    catalogue_years: z.record(z.string(), z.number()).describe('years of synthetic catalogue per basin'),
    events_with_loss: z.number().int(),
    events_reaching: z.number().int().describe('events with a wind of at least 17.5 m/s at an asset'),
    members_generated: z.number().int().describe('synthetic members regenerated for this portfolio'),
    seconds: z.number().describe('time taken to regenerate the events at the portfolio (cached per analysis)'),
  }),
  other_hazards: z.string().describe('how the tail of the other hazards is aggregated on the dashboard'),
  money_withheld: z.string().nullable(),
});
export type PortfolioTailResponse = z.infer<typeof PortfolioTailResponse>;

export const PortfolioTailCsv = z.string().describe('event loss table: event_id, basin, source, year, rate_per_year, loss_usd (one row per event with a loss)');

/** Told beside the portfolio tail for the hazards without an event set. */
export const OTHER_HAZARDS_TAIL_NOTE =
  "Other hazards: each asset's own 1-in-100 and 1-in-250-year losses added over hazards and assets (comonotonic: every asset's rare year at once), an upper bound; with independent assets the portfolio tail would be far lower.";
