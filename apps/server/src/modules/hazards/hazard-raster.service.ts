/**
 * A hazard layer as a grid of values at a chosen scenario-year (and return period for the curve hazards), for the
 * Cloud-Optimised GeoTIFF download (issue 23 item 2). Every cell is the hazard model of @crp/hazards evaluated at the
 * cell centre, the same call (sampleCurves) the analysis and the map tiles make: no value is made up here.
 */
import { HAZARD_INDICATORS, HAZARD_KEYS, HAZARDS, SCENARIO_LABELS, SCENARIOS, type AnalysisType, type HazardKey, type ScenarioCode } from '@crp/contracts';
import { CURVE_HAZARDS, defaultHazardLayers, HAZARD_META, newCurveSample, RETURN_PERIODS_YEARS, type HazardLayers } from '@crp/hazards';
import { z } from 'zod';
import { badRequest } from '../../lib/errors.js';
import { checkYears } from '../results/results.service.js';

/** Most cells one download evaluates (about 19 µs each: ~10 s); a larger area needs a coarser res_deg. */
export const COG_MAX_CELLS = 500_000;
/** Cell sizes offered when res_deg is not given: the finest that keeps the area within COG_MAX_CELLS. */
const AUTO_RES = [0.05, 0.1, 0.25, 0.5, 1, 2];
export const NODATA = -9999;
const HAZARD_KEY_LIST = HAZARDS.map((h) => h.key) as unknown as [HazardKey, ...HazardKey[]];

export const HazardCogParams = z.object({ hazard: z.enum(HAZARD_KEY_LIST, { error: `hazard must be one of ${HAZARD_KEY_LIST.join(', ')}` }) });
export const HazardCogQuery = z.object({
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  scenario: z.enum(SCENARIOS, { error: 'scenario must be 26, 45 or 85' }).default('45'),
  year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole year').default(2050),
  return_period: z.coerce
    .number({ error: 'return_period must be a number of years' })
    .int('return_period must be a whole number of years')
    .optional()
    .describe(`Years; for ${CURVE_HAZARDS.join(', ')} (default 100): one of ${RETURN_PERIODS_YEARS.join(', ')}. Other hazards have no return period.`),
  bbox: z.string().max(100).optional().describe('west,south,east,north in degrees (default the whole world).'),
  res_deg: z.coerce
    .number({ error: 'res_deg must be a number' })
    .positive('res_deg must be positive')
    .max(5, 'res_deg must be 5 or less')
    .optional()
    .describe(
      `Cell size, degrees; not finer than the layer's native grid. Default: the native grid, or the finest of ${AUTO_RES.join(', ')} that keeps the area within ${COG_MAX_CELLS.toLocaleString('en-US')} cells.`,
    ),
});
export type HazardCogQuery = z.infer<typeof HazardCogQuery>;

export interface HazardGrid {
  width: number;
  height: number;
  west: number;
  north: number;
  resDeg: number;
  data: Float32Array;
  unit: string;
  returnPeriod: number | null;
  description: string;
  fileStem: string;
}

function parseBbox(s: string | undefined): [number, number, number, number] {
  if (!s) return [-180, -90, 180, 90];
  const p = s.split(',').map((v) => Number(v.trim()));
  if (p.length !== 4 || p.some((v) => !Number.isFinite(v))) throw badRequest('bbox must be west,south,east,north in degrees, e.g. 100,0,130,30.', 'bbox');
  const [w, so, e, n] = p as [number, number, number, number];
  if (w < -180 || e > 180 || so < -90 || n > 90) throw badRequest('bbox must lie within -180..180 longitude and -90..90 latitude.', 'bbox');
  if (!(w < e && so < n)) throw badRequest('bbox: west must be less than east and south less than north.', 'bbox');
  return [w, so, e, n];
}

/** Native grid of a hazard: the finest cell among its loaded layers, degrees. */
function nativeRes(layers: HazardLayers, h: HazardKey): number {
  let res = Infinity;
  for (const n of HAZARD_META[h].layers) {
    const l = layers.layer(n);
    if (l && l.entry.grid.resDeg < res) res = l.entry.grid.resDeg;
  }
  return Number.isFinite(res) ? res : 0.1;
}

export async function hazardGrid(hazard: HazardKey, q: HazardCogQuery): Promise<HazardGrid> {
  const at = q.analysis_type as AnalysisType;
  const year = checkYears(at, [q.year], 'year')[0]!;
  const curve = (CURVE_HAZARDS as readonly string[]).indexOf(hazard);
  let rpIndex = -1;
  if (curve >= 0) {
    const rp = q.return_period ?? 100;
    rpIndex = (RETURN_PERIODS_YEARS as readonly number[]).indexOf(rp);
    if (rpIndex < 0) throw badRequest(`return_period must be one of ${RETURN_PERIODS_YEARS.join(', ')} years for ${hazard}.`, 'return_period');
  } else if (q.return_period !== undefined) {
    throw badRequest(`${hazard} has no return period: leave return_period out (${CURVE_HAZARDS.join(', ')} have one).`, 'return_period');
  }
  const [w, s, e, n] = parseBbox(q.bbox);
  const layers = await defaultHazardLayers();
  const native = nativeRes(layers, hazard);
  const cellsAt = (res: number) => Math.ceil((e - w) / res - 1e-9) * Math.ceil((n - s) / res - 1e-9);
  let res: number;
  if (q.res_deg !== undefined) {
    if (q.res_deg < native - 1e-12) throw badRequest(`res_deg must be ${+native.toFixed(6)} or more: the ${hazard} layer has no finer detail.`, 'res_deg');
    res = q.res_deg;
    if (cellsAt(res) > COG_MAX_CELLS)
      throw badRequest(
        `res_deg: ${cellsAt(res).toLocaleString('en-US')} cells; at most ${COG_MAX_CELLS.toLocaleString('en-US')} per download. Choose a coarser res_deg or a smaller bbox.`,
        'res_deg',
      );
  } else {
    const choice = [native, ...AUTO_RES.filter((r) => r > native)].find((r) => cellsAt(r) <= COG_MAX_CELLS);
    if (choice === undefined) throw badRequest('bbox is too large for one download even at 2°.', 'bbox');
    res = choice;
  }
  const width = Math.ceil((e - w) / res - 1e-9),
    height = Math.ceil((n - s) / res - 1e-9);
  const ctx = layers.resolveScenario({ analysisType: at, scenario: q.scenario as ScenarioCode, year });
  const out = newCurveSample();
  const N_RP = RETURN_PERIODS_YEARS.length;
  const h = HAZARD_KEYS.indexOf(hazard);
  const data = new Float32Array(width * height);
  let sinceYield = 0;
  for (let r = 0; r < height; r++) {
    const lat = n - (r + 0.5) * res;
    for (let c = 0; c < width; c++) {
      const lng = w + (c + 0.5) * res;
      const smp = layers.sampleCurves(lat, lng, ctx, out);
      data[r * width + c] = curve >= 0 ? smp.curves[curve * N_RP + rpIndex]! : smp.values[h]!;
    }
    sinceYield += width;
    if (sinceYield >= 4096) {
      // about 80 ms of model evaluations: let other requests through
      sinceYield = 0;
      await new Promise((done) => setImmediate(done));
    }
  }
  const unit = HAZARD_INDICATORS[hazard].unit;
  const rp = curve >= 0 ? RETURN_PERIODS_YEARS[rpIndex]! : null;
  const label = HAZARDS.find((x) => x.key === hazard)!.label;
  const description =
    `${label}: ${HAZARD_INDICATORS[hazard].indicator} (${unit})${rp ? `, ${rp}-year return period` : ''}, ${SCENARIO_LABELS[at][q.scenario as ScenarioCode]} ${year}; ` +
    `cell centres sampled from the @crp/hazards model at ${+res.toFixed(6)} deg; nodata ${NODATA}. ${HAZARD_META[hazard].model}`;
  return {
    width,
    height,
    west: w,
    north: n,
    resDeg: res,
    data,
    unit,
    returnPeriod: rp,
    description,
    fileStem: `${hazard}_${at}${q.scenario}_${year}${rp ? `_rp${rp}` : ''}`,
  };
}
