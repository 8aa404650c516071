/**
 * Step 2 of a dashboard answer: the selection. The engine's per-asset CVaRs of the query's year (kept per analysis),
 * the selected assets (property type, then the `count` highest residual CVaRs), their money per hazard at a
 * scenario-year and their climate scores. The page endpoints keep a selection as plain data (SelectionData).
 */
import type { DashboardBody, HazardKey, TierSection } from '@crp/contracts';
import { ASSET_BATCH_FIELDS, assetCvarBatch } from '@crp/engine';
import type { DashboardAsset, ProjectResults } from '../analysis/results-reader.js';
import { Lru } from '../../lib/lru.js';
import { storedHazardIndex, type CachedResults, type PerAssetFigures } from './dashboard-cache.js';
import { MIB } from './dashboard-columns.js';
import type { ResolvedFilters } from './dashboard-filter.js';
import { precomputedBars, precomputedBatch, precomputedFigures } from './year-batches.js';
import { climateScoresOf, moneyAt, moneySumsOf, type MoneySums } from './dashboard-money.js';
import { NO_SCORE } from './year-batches-compute.js';

export { climateScoresOf, moneyAt, moneySumsOf, type Money, type MoneySums } from './dashboard-money.js';

/** The selected assets of one query and what was computed for them. */
export interface Selected {
  c: CachedResults;
  R: ProjectResults<DashboardAsset>;
  f: ResolvedFilters;
  /** idx[n] = the asset index of the n-th selected asset (also its row in pa and ph). */
  idx: number[];
  N: number;
  /** Every asset of the project is selected: sections that depend only on the stored data are kept per analysis. */
  everyAsset: boolean;
  /**
   * Per-asset CVaRs of every asset: pa[i*ASSET_BATCH_FIELDS..] = cvar, rcvar, rcvar %, max exposure, eal, ealR, tails;
   * ph[(r*H + k)*2..] = cvar, rcvar of hazard k alone, where r = idx[n] (the engine pass over every asset) or, with
   * phByPosition, r = n (only the selected assets: the scenario-year was precomputed, year-batches.ts); bars = the
   * selection's sums of those (H * 2), when precomputed for it.
   */
  pa: PerAssetFigures;
  ph: Float64Array;
  phByPosition: boolean;
  bars: Float64Array | null;
  /** Stored index of each of the query's hazards; H = their number; S = stored scenario-years. */
  hk: Int32Array;
  H: number;
  S: number;
  /** Stored index of the query's scenario-year and of its baseline. */
  syIdx: number;
  baseIdx: number;
}

/** Field f of the per-asset batch of selected asset n. */
export const px = (sel: Selected, n: number, f: number) => sel.pa[sel.idx[n]! * ASSET_BATCH_FIELDS + f]!;

/**
 * The per-asset CVaRs of every asset (and each hazard's alone, for the bar chart) in one engine pass, kept per
 * analysis for the filters they depend on (the property type, count, adaptation and unit filters reuse them).
 */
function batchOf(c: CachedResults, f: ResolvedFilters): { pa: Float64Array; ph: Float64Array } {
  const { R } = c;
  const batchKey = `${f.at}|${f.sc}|${f.year}|${f.hazards.join(',')}|${f.withContent}|${!!f.opt.gdpAdjusted}`;
  return c.batches.getOrMake(
    batchKey,
    () => {
      const all = R.assets.map((_, i) => i);
      const b = { pa: new Float64Array(all.length * ASSET_BATCH_FIELDS), ph: new Float64Array(all.length * f.hazards.length * 2) };
      assetCvarBatch(R.prepared, R.chunks, R.chunkOf, R.localOf, all, f.hazards, f.at, f.sc, f.year, f.opt, b.pa, b.ph);
      return b;
    },
    (b) => b.pa.byteLength + b.ph.byteLength,
  );
}

/**
 * Each selected asset's CVaR of each hazard alone, when the per-asset CVaRs were precomputed (the bars' sums are, for
 * every asset and each property type): the engine pass over the selected assets only (`count`, a property type not
 * among the precomputed groups).
 */
function perHazardOf(c: CachedResults, f: ResolvedFilters, idx: number[], body: Pick<DashboardBody, 'property_type' | 'count'>) {
  const bars = body.count === 'All' ? (precomputedBars(c, f, body.property_type) ?? null) : null;
  if (bars) return { ph: new Float64Array(0), bars };
  const { R } = c;
  const ph = new Float64Array(idx.length * f.hazards.length * 2);
  assetCvarBatch(R.prepared, R.chunks, R.chunkOf, R.localOf, idx, f.hazards, f.at, f.sc, f.year, f.opt, new Float64Array(idx.length * ASSET_BATCH_FIELDS), ph);
  return { ph, bars: null };
}

function everyIndexOf(n: number): { idx: number[]; idx32: Int32Array } {
  const idx32 = new Int32Array(n);
  for (let i = 0; i < n; i++) idx32[i] = i;
  return { idx: Array.from(idx32), idx32 };
}

/** The query's selection: property type filter, then the `count` highest residual CVaRs. */
export function selectAssets(c: CachedResults, f: ResolvedFilters, body: Pick<DashboardBody, 'property_type' | 'count'>): Selected {
  const { R } = c;
  const syIdx = R.syIndex(f.syKey);
  const baseIdx = R.syIndex(f.baseKey);
  const precomputed = precomputedBatch(c, f);
  const { pa, ph: phAll } = precomputed ? { pa: precomputed, ph: null } : batchOf(c, f);
  const every = (c.every ??= everyIndexOf(R.assets.length));
  let idx: number[] = every.idx;
  if (body.property_type !== 'All') {
    const pt = body.property_type.toLowerCase();
    idx = idx.filter((i) => (R.assets[i]!.property_type ?? 'NA').toLowerCase() === pt);
  }
  if (body.count !== 'All')
    idx = idx
      .slice()
      .sort((x, y) => (pa[y * ASSET_BATCH_FIELDS + 1]! || 0) - (pa[x * ASSET_BATCH_FIELDS + 1]! || 0))
      .slice(0, body.count);
  const { ph, bars } = phAll ? { ph: phAll, bars: null } : perHazardOf(c, f, idx, body);
  return {
    c,
    R,
    f,
    idx,
    N: idx.length,
    pa,
    ph,
    phByPosition: !phAll,
    bars,
    syIdx,
    baseIdx,
    everyAsset: idx.length === R.assets.length && body.count === 'All',
    hk: storedHazardIndex(f.hazards),
    H: f.hazards.length,
    S: R.chunks[0]!.scenarioYears.length,
  };
}

/**
 * The money sums at the query's baseline (2020) scenario-year: precomputed for every asset (year-batches.ts), else
 * kept per analysis when every asset is selected (the same for every year of an analysis type, and scenario for RCP),
 * so a year never asked computes only its own year's money.
 */
export function baselineSums(sel: Selected): MoneySums {
  if (!sel.everyAsset) return moneySumsOf(sel, moneyAt(sel, sel.baseIdx));
  const pre = precomputedFigures(sel.c, sel.f, sel.baseIdx);
  if (pre) return pre.sums;
  const { f } = sel;
  return sel.c.money.getOrMake(
    `${sel.baseIdx}|${f.hazards.join(',')}|${f.withContent}|${!!f.opt.gdpAdjusted}`,
    () => moneySumsOf(sel, moneyAt(sel, sel.baseIdx)),
    (m) => 64 + m.loss.byteLength * 2,
  );
}

/**
 * The query's money sums at its year and the climate scores of its selected assets: precomputed for every asset at
 * the year and loss options (year-batches.ts), else from the money of the selection at the year.
 */
export function yearFiguresOf(sel: Selected): { atYear: MoneySums; assetScores: (number | null)[] } {
  const pre = sel.everyAsset ? precomputedFigures(sel.c, sel.f, sel.syIdx) : undefined;
  if (pre?.scores) {
    const src = pre.scores.subarray(sel.f.mitigation ? sel.N : 0, sel.f.mitigation ? 2 * sel.N : sel.N);
    const assetScores: (number | null)[] = new Array(sel.N);
    for (let n = 0; n < sel.N; n++) assetScores[n] = src[n] === NO_SCORE ? null : src[n]!;
    return { atYear: pre.sums, assetScores };
  }
  const mm = moneyAt(sel, sel.syIdx);
  return { atYear: moneySumsOf(sel, mm), assetScores: climateScoresOf(sel, mm, sel.f.mitigation, sel.syIdx) };
}

/**
 * The selected assets of one analysis and selection filters, as the page endpoints read them: idx[n] = the n-th
 * selected asset, pa its per-asset CVaRs (ASSET_BATCH_FIELDS per asset), assetScores[n] its climate score; plus the
 * sorted orders and search results asked so far. Plain data, kept per analysis (DashboardService.selections).
 */
export interface SelectionData {
  kind: 'rows';
  R: ProjectResults<DashboardAsset>;
  cachedResults: CachedResults;
  idx: Int32Array;
  pa: PerAssetFigures;
  assetScores: (number | null)[];
  hazards: HazardKey[];
  hk: Int32Array;
  syIdx: number;
  mitigation: boolean;
  /** Sorted orders (positions n) by sort key and order. */
  orders: Lru<Int32Array>;
  /** Positions matching a search, in a sorted order, by search, sort key and order. */
  searches: Lru<Int32Array>;
  /** Lower-case name and property type of each selected asset (searches), made on the first search. */
  haystack?: string[];
  /** Selected position of each asset id (ids filter). */
  positionOfId?: Map<number, number>;
  bounds?: [number, number, number, number] | null;
  /** Every asset in position order (dashboard-pages isEveryAssetInOrder), once checked. */
  inOrder?: boolean;
}
/** A selection with the caller's tier sections (what the page endpoints may show). */
export type Selection = SelectionData & { allowed: Partial<Record<TierSection, boolean>> };

/** The page endpoints' selection data of a selection (plain data only, so that nothing of the query's arrays is kept). */
export function selectionDataOf(sel: Selected, assetScores: (number | null)[]): SelectionData {
  return {
    kind: 'rows',
    R: sel.R,
    cachedResults: sel.c,
    idx: sel.idx === sel.c.every?.idx ? sel.c.every.idx32 : Int32Array.from(sel.idx),
    pa: sel.pa,
    assetScores,
    hazards: sel.f.hazards,
    hk: sel.hk,
    syIdx: sel.syIdx,
    mitigation: sel.f.mitigation,
    orders: new Lru(16, 64 * MIB),
    searches: new Lru(8, 32 * MIB),
  };
}
/** Bytes a selection holds: positions and scores, plus the per-asset CVaRs (shared with the batch cache while there). */
export const selectionBytes = (d: SelectionData) => d.idx.length * 16 + d.pa.byteLength;
