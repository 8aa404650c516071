/**
 * Portfolio tails from an event loss table (issue 35 item 2; docs/methodology/engine.md §3.5). Each event has an annual
 * rate, a basin, a catalogue year within its basin and the portfolio's loss. From the table:
 *
 * - occurrence exceedance (OEP): the loss of the largest event of a year, read as in CLIMADA's frequency curve and as
 *   the hazard layer's return levels: the N-year occurrence loss is the largest loss L whose exceedance rate
 *   Σ rate(events with loss ≥ L) reaches 1/N;
 * - aggregate exceedance (AEP): the sum of a year's event losses. Within a basin, a catalogue year's loss is the sum
 *   of its events' losses, with the year's probability the rate of its events (a source's years are equally likely;
 *   the agencies of a basin share it). Basins are independent: their annual distributions are convolved (on a grid of
 *   AGG_BINS bins that keeps every mean exact) when more than one basin has losses;
 * - TVaR(99 %): the mean annual aggregate loss of the worst 1 % of years;
 * - the mean: Σ rate·loss, the portfolio's expected annual loss from events (the AEP mean).
 */
import type { PreparedAsset } from './assets.js';
import { evalTable } from './interp.js';
import { exposedValue } from './metrics.js';
import { downtimeYears } from './vulnerability/other.js';
import { emanuelDamage, EMANUEL_V_THRESH_MS } from './vulnerability/wind.js';

export interface EventLossRow {
  eventId: string;
  basin: string;
  /** Catalogue year within the basin (1-based). */
  year: number;
  /** Events per year. */
  rate: number;
  loss: number;
}

export interface TailPoint {
  returnPeriodYears: number;
  loss: number;
}

export interface PortfolioTail {
  /** Σ rate·loss: the expected annual loss from the events (the AEP mean). */
  meanAnnualLoss: number;
  oep: TailPoint[];
  aep: TailPoint[];
  /** Mean annual aggregate loss of the worst 1 % of years. */
  tvar99: number;
  eventsWithLoss: number;
}

/** Bins of the grid on which the annual losses of several basins are convolved. */
export const AGG_BINS = 4096;
export const TAIL_RETURN_PERIODS_YEARS = [2, 5, 10, 25, 50, 100, 250, 500, 1000] as const;

/**
 * Damage ratio of an asset's building at a 1-minute wind (m/s): the same vulnerability the engine's expected annual
 * loss integrates (compute.ts curveCell): the asset's tabulated curve (Hazus building type, wind turbine) when it has
 * one, else the regional Emanuel curve with the asset's V_half.
 */
export function windDamageRatio(A: PreparedAsset, windMs: number): number {
  if (A.windTable !== null) return evalTable(A.windTable, windMs);
  return windMs > EMANUEL_V_THRESH_MS ? emanuelDamage(windMs, A.vHalfMs) : 0;
}

/** Loss (USD) of one event at an asset: damage of the exposed value and the downtime of a year's revenue (as tailEventLoss). */
export function windEventLoss(A: PreparedAsset, windMs: number, withContent = true): number {
  const d = windDamageRatio(A, windMs);
  if (d <= 0) return 0;
  return d * exposedValue(A, withContent) + downtimeYears(d) * A.revenue * A.ownership;
}

/** The N-year loss of a weighted list (loss, rate or probability): the largest loss whose exceedance weight reaches 1/N. */
function levelAt(sorted: readonly { loss: number; w: number }[], T: number): number {
  let cum = 0;
  for (const x of sorted) {
    cum += x.w;
    if (cum >= 1 / T - 1e-15) return x.loss;
  }
  return 0;
}

/** Mean of the worst `q` probability of a weighted list sorted by loss, descending (zero-loss mass below). */
function tailMean(sorted: readonly { loss: number; w: number }[], q: number): number {
  let cum = 0,
    s = 0;
  for (const x of sorted) {
    const take = Math.min(x.w, q - cum);
    if (take <= 0) break;
    s += take * x.loss;
    cum += take;
  }
  return s / q;
}

/** The annual aggregate distribution of one basin: its catalogue years with losses, each with its probability. */
function basinYears(rows: readonly EventLossRow[]): { loss: number; w: number }[] {
  const byYear = new Map<number, { loss: number; w: number }>();
  for (const r of rows) {
    const y = byYear.get(r.year);
    if (y) y.loss += r.loss;
    else byYear.set(r.year, { loss: r.loss, w: r.rate });
  }
  return [...byYear.values()].filter((y) => y.loss > 0);
}

/** Several independent basins' annual distributions convolved on a grid (the mass of a loss split between its two bins). */
function convolve(basins: { loss: number; w: number }[][]): { loss: number; w: number }[] {
  const top = basins.reduce((a, b) => a + b.reduce((m, y) => Math.max(m, y.loss), 0), 0);
  const step = top / (AGG_BINS - 1);
  let acc = new Float64Array(AGG_BINS);
  acc[0] = 1;
  for (const b of basins) {
    const pdf = new Float64Array(AGG_BINS);
    let zero = 1;
    for (const y of b) {
      const u = y.loss / step;
      const i = Math.min(AGG_BINS - 2, Math.floor(u));
      const f = u - i;
      pdf[i]! += y.w * (1 - f);
      pdf[i + 1]! += y.w * f;
      zero -= y.w;
    }
    pdf[0]! += Math.max(0, zero);
    const nz: number[] = [];
    for (let i = 0; i < AGG_BINS; i++) if (pdf[i]! > 0) nz.push(i);
    const out = new Float64Array(AGG_BINS);
    for (let i = 0; i < AGG_BINS; i++) {
      const a = acc[i]!;
      if (a === 0) continue;
      for (const j of nz) {
        const k = Math.min(AGG_BINS - 1, i + j);
        out[k]! += a * pdf[j]!;
      }
    }
    acc = out;
  }
  const list: { loss: number; w: number }[] = [];
  for (let i = AGG_BINS - 1; i > 0; i--) if (acc[i]! > 0) list.push({ loss: i * step, w: acc[i]! });
  return list;
}

/** OEP and AEP curves, TVaR(99 %) and the mean from an event loss table. */
export function portfolioTail(rows: readonly EventLossRow[], returnPeriods: readonly number[] = TAIL_RETURN_PERIODS_YEARS): PortfolioTail {
  const withLoss = rows.filter((r) => r.loss > 0);
  const meanAnnualLoss = withLoss.reduce((a, r) => a + r.rate * r.loss, 0);
  const occ = withLoss.map((r) => ({ loss: r.loss, w: r.rate })).sort((a, b) => b.loss - a.loss);
  const byBasin = new Map<string, EventLossRow[]>();
  for (const r of withLoss) (byBasin.get(r.basin) ?? byBasin.set(r.basin, []).get(r.basin)!).push(r);
  const basins = [...byBasin.values()].map(basinYears).filter((b) => b.length);
  const agg = (basins.length > 1 ? convolve(basins) : (basins[0] ?? [])).sort((a, b) => b.loss - a.loss);
  return {
    meanAnnualLoss,
    oep: returnPeriods.map((T) => ({ returnPeriodYears: T, loss: levelAt(occ, T) })),
    aep: returnPeriods.map((T) => ({ returnPeriodYears: T, loss: levelAt(agg, T) })),
    tvar99: tailMean(agg, 0.01),
    eventsWithLoss: withLoss.length,
  };
}
