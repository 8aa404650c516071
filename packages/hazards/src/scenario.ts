/**
 * Scenario and year → global warming level (GWL) and sea level, from the data the build stores in params.json.
 *
 * - GWL: CMIP6 multi-model-mean GSAT anomaly vs 1850-1900 by SSP and decade (Hauser, cmip_temperatures, the data behind
 *   IPCC AR6 WGI Ch. 11), interpolated between decade centres with a monotone cubic (Fritsch & Carlson 1980).
 * - RCP2.6/4.5/8.5 are mapped onto SSP1-2.6/2-4.5/5-8.5 (the usual convention, references.md b.5).
 * - Regional index changes at a GWL: linear between (0 °C, 0) and the AR6 warming levels 1.5/2/3/4 °C, extrapolated
 *   beyond 4 °C with the 3→4 °C slope; change vs baseline = Δ(GWL) − Δ(GWL of the baseline climatology).
 */
import type { AnalysisType, ScenarioCode } from '@crp/contracts';

export type SspKey = 'ssp126' | 'ssp245' | 'ssp585';

export interface ScenarioYear {
  analysisType: AnalysisType;
  scenario: ScenarioCode;
  year: number;
}

export interface HazardParams {
  version: number;
  /** Decade-mean GSAT anomaly (°C vs 1850-1900) at decade centre years. */
  gsat: { centreYears: number[]; ssp126: number[]; ssp245: number[]; ssp585: number[] };
  /** GWL of the present-day baseline climatologies (AR6 SPM: 1995-2014 is 0.85 °C above 1850-1900). */
  baselineGwlC: number;
  /** AR6 GMSL central projection (m, relative to 1995-2014) at years. */
  gmsl: { years: number[]; ssp126: number[]; ssp245: number[]; ssp585: number[] };
  /** AR6 reference regions used by the regional-change layer (index = layer value). */
  regions: { abbrev: string; name: string }[];
  /** Multi-model-median change vs 1850-1900 at GWL 1.5, 2, 3, 4 °C, per region index (null when missing). */
  regionalDeltas: Record<'TXx' | 'TNn' | 'Rx1day' | 'Rx5day' | 'CDD' | 'SM_total', (number[] | null)[]>;
  /** Global row of each index (fallback for regions without data). */
  globalDeltas: Record<string, number[]>;
  /**
   * Regional winter-mean warming vs 1850-1900 at GWL 1.5, 2, 3, 4 °C (multi-model median of the CMIP6 regional tas of
   * the AR6 WGI Atlas repository; scripts/derive-winter-warming.ts), per region index (null when missing), and the
   * global row (the Atlas 'world' column) for cells outside every region.
   */
  winterTas: { source: string; season: (string | null)[]; deltas: (number[] | null)[]; global: number[] };
  /** Knutson et al. (2020) median change of mean TC intensity at +2 °C (%), per basin code. */
  knutsonIntensityPct: Record<string, number>;
  typhoonBasins: string[];
  /** Offsets (°C) at which the chronic layers were precomputed. */
  chronicOffsetsC: number[];
  [key: string]: unknown;
}

export const GWL_POINTS_C = [1.5, 2, 3, 4];

export function sspOf(scenario: ScenarioCode): SspKey {
  return scenario === '26' ? 'ssp126' : scenario === '45' ? 'ssp245' : 'ssp585';
}

/** Monotone cubic Hermite interpolation (Fritsch & Carlson 1980), linear extrapolation outside. */
export function pchip(xs: number[], ys: number[], x: number): number {
  const n = xs.length;
  if (n === 0) return NaN;
  if (n === 1) return ys[0]!;
  if (x <= xs[0]!) return ys[0]! + ((ys[1]! - ys[0]!) / (xs[1]! - xs[0]!)) * (x - xs[0]!);
  if (x >= xs[n - 1]!) return ys[n - 1]! + ((ys[n - 1]! - ys[n - 2]!) / (xs[n - 1]! - xs[n - 2]!)) * (x - xs[n - 1]!);
  let i = 0;
  while (x > xs[i + 1]!) i++;
  const h = (k: number) => xs[k + 1]! - xs[k]!;
  const d = (k: number) => (ys[k + 1]! - ys[k]!) / h(k);
  const slope = (k: number): number => {
    if (k === 0) return d(0);
    if (k === n - 1) return d(n - 2);
    const a = d(k - 1),
      b = d(k);
    if (a * b <= 0) return 0;
    const w1 = 2 * h(k) + h(k - 1),
      w2 = h(k) + 2 * h(k - 1);
    return (w1 + w2) / (w1 / a + w2 / b);
  };
  const hi = h(i),
    t = (x - xs[i]!) / hi;
  const m0 = slope(i),
    m1 = slope(i + 1);
  const t2 = t * t,
    t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * ys[i]! + (t3 - 2 * t2 + t) * hi * m0 + (-2 * t3 + 3 * t2) * ys[i + 1]! + (t3 - t2) * hi * m1;
}

export function linearInterp(xs: number[], ys: number[], x: number, extrapolate = true): number {
  const n = xs.length;
  if (x <= xs[0]!) return extrapolate && n > 1 ? ys[0]! + ((ys[1]! - ys[0]!) / (xs[1]! - xs[0]!)) * (x - xs[0]!) : ys[0]!;
  for (let i = 0; i < n - 1; i++) {
    if (x <= xs[i + 1]!) return ys[i]! + ((ys[i + 1]! - ys[i]!) * (x - xs[i]!)) / (xs[i + 1]! - xs[i]!);
  }
  return extrapolate && n > 1 ? ys[n - 1]! + ((ys[n - 1]! - ys[n - 2]!) / (xs[n - 1]! - xs[n - 2]!)) * (x - xs[n - 1]!) : ys[n - 1]!;
}

/**
 * Global warming level (°C above 1850-1900) for a scenario and year. Scenarios are made non-decreasing from
 * SSP1-2.6 to SSP5-8.5 at every year (the CMIP6 means already are, to rounding).
 */
export function warmingLevelC(p: HazardParams, scenario: ScenarioCode, year: number): number {
  const g = (k: SspKey) => pchip(p.gsat.centreYears, p.gsat[k], year);
  const a = g('ssp126');
  if (scenario === '26') return a;
  const b = Math.max(a, g('ssp245'));
  if (scenario === '45') return b;
  return Math.max(b, g('ssp585'));
}

/** Change of a regional index vs 1850-1900 at a GWL (piecewise linear through 0 and the AR6 levels). */
export function deltaAtGwl(values4: number[], gwlC: number): number {
  const xs = [0, ...GWL_POINTS_C];
  const ys = [0, ...values4];
  if (gwlC <= 0) return 0;
  return linearInterp(xs, ys, gwlC, true);
}

/** GMSL rise (m) since 2020 for a scenario and year (AR6 central; linear between the decades, non-decreasing across scenarios). */
export function gmslRiseSince2020M(p: HazardParams, scenario: ScenarioCode, year: number): number {
  const f = (k: SspKey) => linearInterp(p.gmsl.years, p.gmsl[k], year, false) - linearInterp(p.gmsl.years, p.gmsl[k], 2020, false);
  const a = f('ssp126');
  if (scenario === '26') return a;
  const b = Math.max(a, f('ssp245'));
  if (scenario === '45') return b;
  return Math.max(b, f('ssp585'));
}

/**
 * Jewson (2021) scaling of a Knutson et al. (2020) +2 °C change K (%) to any warming:
 * β = 0.5·ln(1 + K/100) per °C, factor = exp(β·(GWL − GWL_baseline)).
 */
export function knutsonFactor(kPct: number, gwlC: number, baselineGwlC: number): number {
  const beta = 0.5 * Math.log(1 + kPct / 100);
  return Math.exp(beta * Math.max(0, gwlC - baselineGwlC));
}
