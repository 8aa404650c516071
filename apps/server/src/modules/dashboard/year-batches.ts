/**
 * Once per decoded analysis, in a worker thread (year-batches-compute.ts): the portfolio series the dashboard kept
 * computing in the background on the event loop, each property type's series, and the per-asset CVaRs of every
 * scenario-year at the default loss options (the project's hazards, with content, no GDP adjustment) with the overall
 * bar chart's sums, every asset's money sums and climate scores and the means of every stored scenario-year; the
 * same for the default scenario's years without content and GDP adjusted, and for each hazard alone at the default
 * year. A dashboard query for a year never asked with those options is then a lookup instead of the engine's pass
 * over every asset x hazard and the money loops (docs/performance-history.md, "The dashboard at scale"); other options keep
 * the engine pass. The worker reads the decoded chunks without a copy (the reader decodes the arrays it reads into
 * SharedArrayBuffers); one such worker runs at a time in the process. If it fails, the series are computed on the
 * event loop as before (DashboardService).
 */
import { startTsWorker } from '../../lib/ts-worker.js';
import { ASSET_BATCH_FIELDS, lossSeriesOf } from '@crp/engine';
import { YEARS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { seriesKeyOf, type CachedResults, type PerAssetFigures, type YearBatches } from './dashboard-cache.js';
import { syKeyOf, type ResolvedFilters } from './dashboard-filter.js';
import {
  figuresKeyOf,
  moneyOf,
  yearJobsOf,
  yearKeyOf,
  type ChunkArrays,
  type SeriesJob,
  type YearFigures,
  type YearInput,
  type YearMessage,
} from './year-batches-compute.js';

/**
 * At most this many bytes per analysis (68 bytes per asset and scenario-year: the per-asset CVaRs and two climate
 * scores): the default filters' scenario first, then its years without content and GDP adjusted, then the others.
 */
export const YEAR_BATCHES_MAX_BYTES = 768 * 2 ** 20;
/** Property types with their own series and bar sums, at most (the most frequent; others take the engine pass). */
const MAX_GROUPS = 64;

let queue: Promise<void> = Promise.resolve();

/** The property-type groups of an analysis: lower-case type ('na' for none) and its asset positions, ascending. */
function groupsOf(c: CachedResults): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  c.R.assets.forEach((a, i) => {
    const t = (a.property_type ?? 'NA').toLowerCase();
    let l = lists.get(t);
    if (!l) lists.set(t, (l = []));
    l.push(i);
  });
  // (a type named 'all' would share the whole portfolio's series key: left to the engine pass)
  lists.delete('all');
  const kept = [...lists].sort((x, y) => y[1].length - x[1].length).slice(0, MAX_GROUPS);
  return new Map(kept.map(([t, l]) => [t, Int32Array.from(l)]));
}

/**
 * The series the worker computes: first the whole portfolio's at the default loss options (every query's charts),
 * later the whole portfolio's at the other content and GDP choices, each hazard's alone and each property type's (what
 * precomputeSeries computed on the event loop before).
 */
function seriesJobsOf(hazards: HazardKey[], groups: number, first: { at: AnalysisType; sc: ScenarioCode }) {
  const scenarios = yearJobsOf(first, () => -1).filter((j) => j.withContent && !j.gdpAdjusted && j.year === YEARS[j.at][YEARS[j.at].length - 1]);
  const perHazard = hazards.length > 1;
  const job = (j: { at: AnalysisType; sc: ScenarioCode }, hs: HazardKey[], withContent: boolean, gdpAdjusted: boolean, group: number): SeriesJob => ({
    at: j.at,
    sc: j.sc,
    hazards: hs,
    withContent,
    gdpAdjusted,
    group,
    perHazard: perHazard && hs.length > 1,
  });
  const seriesFirst = scenarios.map((j) => job(j, hazards, true, false, -1));
  const seriesLater: SeriesJob[] = [];
  for (const [withContent, gdp] of [
    [true, true],
    [false, false],
    [false, true],
  ] as const)
    for (const j of scenarios) seriesLater.push(job(j, hazards, withContent, gdp, -1));
  if (perHazard) for (const h of hazards) for (const j of scenarios) seriesLater.push(job(j, [h], true, false, -1));
  for (let g = 0; g < groups; g++) for (const j of scenarios) seriesLater.push(job(j, hazards, true, false, g));
  return { seriesFirst, seriesLater };
}

/** Stores one message of the worker in the analysis's caches. */
function receive(c: CachedResults, y: YearBatches, groupNames: string[], m: YearMessage): void {
  if (m.type === 'year') {
    y.pa.set(m.key, m.pa);
    y.bars.set(m.key, m.bars);
    y.bytes += m.pa.byteLength + m.bars.byteLength;
  } else if (m.type === 'figures') {
    y.figures.set(m.key, m.figures);
    y.bytes += 64 + m.figures.sums.loss.byteLength * 2 + (m.figures.scores?.byteLength ?? 0);
  } else if (m.type === 'means') {
    for (const [k, v] of m.means) c.means.set(k, v);
  } else if (m.type === 'series') {
    const j = m.job;
    const key = seriesKeyOf(j.at, j.sc, j.hazards, j.withContent, j.gdpAdjusted, j.group < 0 ? 'All' : groupNames[j.group]!);
    c.series.set(key, lossSeriesOf(m.years, m.loss, m.lossResidual));
    if (m.hazardLoss && m.hazardLossResidual) c.hazardSeries.set(key, { years: m.years, loss: m.hazardLoss, lossResidual: m.hazardLossResidual });
  } else if (m.type === 'done') y.ms = m.ms;
  else if (m.type === 'error') y.error = m.message;
}

/** Starts the precomputation of a decoded analysis (once; nothing for a project without hazards) and answers it. */
export function startYearBatches(
  c: CachedResults,
  hazards: HazardKey[],
  first: { at: AnalysisType; sc: ScenarioCode; year?: number },
): YearBatches | undefined {
  if (c.years || hazards.length === 0 || c.R.assets.length === 0) return c.years;
  const { R } = c;
  const groups = groupsOf(c);
  const groupNames = [...groups.keys()];
  const perYear = R.assets.length * (ASSET_BATCH_FIELDS * 8 + 4);
  const jobs = yearJobsOf(first, (at, sc, year) => R.syIndex(syKeyOf(at, sc, year)), hazards).slice(0, Math.floor(YEAR_BATCHES_MAX_BYTES / perYear));
  const firstYears = jobs.filter((j) => j.at === first.at && j.sc === first.sc && j.withContent && !j.gdpAdjusted).length;
  const chunks: ChunkArrays[] = R.chunks.map((ch) => ({
    start: ch.start,
    count: ch.count,
    hazards: ch.hazards,
    scenarioYears: ch.scenarioYears,
    ead: ch.ead,
    eadResidual: ch.eadResidual,
    disruption: ch.disruption,
    disruptionResidual: ch.disruptionResidual,
    maxDamage: ch.maxDamage,
    tail100: ch.tail100,
    tail250: ch.tail250,
    score: ch.score,
    scoreResidual: ch.scoreResidual,
    intensity: ch.intensity,
  }));
  const input: YearInput = {
    chunks,
    chunkOf: R.chunkOf,
    localOf: R.localOf,
    money: moneyOf(R.prepared),
    hazards,
    groups: [...groups.values()],
    jobs,
    firstYears,
    ...seriesJobsOf(hazards, groups.size, first),
  };
  const y: YearBatches = {
    hazards: hazards.join(','),
    H: hazards.length,
    pa: new Map(),
    bars: new Map(),
    figures: new Map(),
    groupOf: new Map(groupNames.map((t, g) => [t, g])),
    done: Promise.resolve(),
    bytes: 0,
  };
  c.years = y;
  const run = () =>
    new Promise<void>((resolve) => {
      const w = startTsWorker(new URL('./year-batches.worker.ts', import.meta.url), input);
      w.unref();
      w.on('message', (m: YearMessage) => receive(c, y, groupNames, m));
      w.on('error', (e) => {
        y.error = e.message;
        resolve();
      });
      w.on('exit', () => resolve());
    });
  y.done = queue = queue.then(run, run);
  return y;
}

/** The hazard part of a precomputed key of the query's hazards: '' for the project's, the hazard for one alone, else null. */
function hazardPart(y: YearBatches, f: ResolvedFilters): string | null {
  const hs = f.hazards.join(',');
  return hs === y.hazards ? '' : f.hazards.length === 1 ? hs : null;
}

/** The precomputed per-asset CVaRs of the query's scenario-year, when its hazards and loss options were precomputed. */
export function precomputedBatch(c: CachedResults, f: ResolvedFilters): PerAssetFigures | undefined {
  const y = c.years;
  const h = y && hazardPart(y, f);
  if (!y || h === null || h === undefined) return undefined;
  return y.pa.get(yearKeyOf(f.at, f.sc, f.year, f.withContent, !!f.opt.gdpAdjusted, h));
}

/** The precomputed money figures of every asset at stored scenario-year s and the query's loss options, when its hazards were precomputed. */
export function precomputedFigures(c: CachedResults, f: ResolvedFilters, s: number): YearFigures | undefined {
  const y = c.years;
  const h = y && hazardPart(y, f);
  if (!y || h === null || h === undefined) return undefined;
  return y.figures.get(figuresKeyOf(s, f.withContent, !!f.opt.gdpAdjusted, h));
}

/** The overall bar chart's sums (H * 2: CVaR, residual CVaR of each hazard) of every asset ('All') or of a property type. */
export function precomputedBars(c: CachedResults, f: ResolvedFilters, propertyType: string): Float64Array | undefined {
  const y = c.years!;
  const h = hazardPart(y, f);
  const bars = h === null ? undefined : y.bars.get(yearKeyOf(f.at, f.sc, f.year, f.withContent, !!f.opt.gdpAdjusted, h));
  const g = propertyType === 'All' ? -1 : y.groupOf.get(propertyType.toLowerCase());
  if (!bars || g === undefined) return undefined;
  const H = f.hazards.length;
  return bars.subarray((g + 1) * H * 2, (g + 2) * H * 2);
}
