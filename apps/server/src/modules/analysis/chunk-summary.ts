/**
 * A chunk's share of the project card's figures (climate score, exposure, CVaR at the project's default filter). Its own
 * module, free of the server, because the engine's worker threads compute it with the chunk (chunk-encoder.ts).
 */
import type { AnalysisType, HazardKey, ScenarioCode } from '@crp/contracts';
import { assetCvar, HAZARD_INDEX, reportedValue, SCENARIO_YEAR_INDEX, scenarioYearKey, type PreparedAsset } from '@crp/engine';
import type { DefaultFilters } from '../../infra/db/schema.js';
import { climateScoresOf, moneyAt, type MoneyInput } from '../dashboard/dashboard-money.js';
import type { StoredChunk } from './result-codec.js';

/** One chunk's share of the project card's figures (sums over its assets); shares are added in chunk order. */
export interface SummaryShare {
  scoreSum: number;
  scored: number;
  maxExposure: number;
  totalValue: number;
  cvar: number;
  rcvar: number;
}

export function summaryIndex(filters: DefaultFilters): number {
  return SCENARIO_YEAR_INDEX.get(scenarioYearKey(filters.analysis_type as AnalysisType, filters.scenario as ScenarioCode, filters.year)) ?? 0;
}

/**
 * A chunk's share of the figures of a project card at the project's default filter: climate scores of the assets with
 * data, maximum exposure, total asset value (valuation, else construction cost), CVaR and residual CVaR over the portfolio's hazards.
 * `prepared[i]` is the asset at position `base + i`.
 * The scores are the dashboard's at its default view (its own code, dashboard-money.ts: the portfolio's hazards, with
 * adaptation, contents included), not the stored overall score over every modelled hazard: one number per figure
 * (issue 37 item 2).
 */
export function summaryShare(
  prepared: readonly PreparedAsset[],
  base: number,
  chunk: StoredChunk,
  filters: DefaultFilters,
  hazards: HazardKey[],
): SummaryShare {
  const out: SummaryShare = { scoreSum: 0, scored: 0, maxExposure: 0, totalValue: 0, cvar: 0, rcvar: 0 };
  const S = chunk.scenarioYears.length;
  const syIndex = summaryIndex(filters);
  const first = chunk.start - base;
  // a view of this chunk's assets only (prepared may hold the whole portfolio: arrays of its length per chunk would
  // cost O(portfolio) for every chunk)
  const n = chunk.count;
  const local = Int32Array.from({ length: n }, (_, a) => a);
  const hk = Int32Array.from(hazards, (h) => HAZARD_INDEX[h]);
  const view: MoneyInput = {
    idx: local,
    N: n,
    hk,
    H: hk.length,
    S,
    f: { withContent: true, opt: {} },
    R: { prepared: prepared.slice(first, first + n), chunks: [chunk], chunkOf: new Int32Array(n), localOf: local },
  };
  const scores = climateScoresOf(view, moneyAt(view, syIndex), true, syIndex);
  for (let a = 0; a < chunk.count; a++) {
    const asset = prepared[first + a]!;
    const score = scores[a];
    if (score !== null && score !== undefined) {
      out.scoreSum += score;
      out.scored += 1;
    }
    const c = assetCvar(asset, chunk, a, hazards, filters.analysis_type as AnalysisType, filters.scenario as ScenarioCode, filters.year);
    if (Number.isFinite(c.maxExposure)) out.maxExposure += c.maxExposure;
    if (Number.isFinite(c.cvar)) out.cvar += c.cvar;
    if (Number.isFinite(c.rcvar)) out.rcvar += c.rcvar;
    // the Total Asset Value is the dashboard's: the value the user gave (valuation, else construction cost)
    out.totalValue += reportedValue(asset, true);
  }
  return out;
}
