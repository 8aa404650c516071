/**
 * File names of the published global flood-hazard maps an installation may register as its "published dataset"
 * (issue 34 item 2). The patterns are those of the files as published (docs/methodology.md, "Published flood maps"):
 *
 * WRI Aqueduct Floods v2 (Ward et al. 2020; public bucket wri-projects/AqueductFloodTool/download/v2, as listed by
 * os-climate/hazard `onboard/wri_aqueduct_flood.py`):
 *  - riverine `inunriver_{scenario}_{model}_{year}_rp{RP:05d}.tif`: scenario historical | rcp4p5 | rcp8p5; model
 *    left-padded with zeros to 14 characters (`000000000WATCH` for the 1980 baseline; `00000NorESM1-M`,
 *    `0000GFDL-ESM2M`, `0000HadGEM2-ES`, `00IPSL-CM5A-LR`, `MIROC-ESM-CHEM` for 2030, 2050, 2080);
 *  - coastal `inuncoast_{scenario}_{nosub|wtsub}_{hist|2030|2050|2080}_rp{RP:04d}_{0|0_perc_05|0_perc_50}.tif`
 *    (nosub/wtsub: without/with subsidence; `0` the 95th-percentile sea-level rise, `0_perc_05`/`0_perc_50` the 5th
 *    and 50th); the 1.5-year period is written `rp0001_5`.
 * JRC global river flood hazard maps: v1 (Dottori et al. 2016) `floodMapGL_rp{RP}y.tif`; v2 (Baugh et al. 2024,
 * CEMS-GloFAS) 10° tiles `ID{n}_{N|S}{lat}_{E|W}{lon}_RP{RP}_depth.tif`. Both are present-climate maps.
 *
 * Anything else is refused with a sentence naming the file (FloodNameError).
 */

export type PublishedScenario = 'historical' | 'rcp4p5' | 'rcp8p5';
export type PublishedSource = 'aqueduct' | 'jrc';
export type PublishedHazard = 'river_flood' | 'storm_surge';

export interface FloodFileKey {
  source: PublishedSource;
  hazard: PublishedHazard;
  scenario: PublishedScenario;
  /** Climate model (Aqueduct riverine), without its zero padding; null when the file has none. */
  model: string | null;
  /** Future year; null for the present-climate (historical) maps. */
  year: number | null;
  returnPeriodYears: number;
  /** Aqueduct coastal: with subsidence (wtsub) or without (nosub); null otherwise. */
  subsidence: boolean | null;
  /** Aqueduct coastal: percentile of the sea-level rise (95 for the `_0` files, 5 or 50); null otherwise. */
  slrPercentile: number | null;
  /** JRC v2: the tile id (e.g. `ID14_N49_W130`); null otherwise. */
  tile: string | null;
}

export class FloodNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FloodNameError';
  }
}

/** Return periods the Aqueduct files are published at (years). */
export const AQUEDUCT_RPS = [2, 5, 10, 25, 50, 100, 250, 500, 1000] as const;
/** Return periods of the JRC maps (v1: 10-500; v2 adds 75). */
export const JRC_RPS = [10, 20, 50, 75, 100, 200, 500] as const;
/** Future years of Aqueduct Floods v2. */
export const AQUEDUCT_YEARS = [2030, 2050, 2080] as const;
const AQUEDUCT_MODELS = ['WATCH', 'NorESM1-M', 'GFDL-ESM2M', 'HadGEM2-ES', 'IPSL-CM5A-LR', 'MIROC-ESM-CHEM'];

const RIVER = /^inunriver_(historical|rcp4p5|rcp8p5)_([0-9A-Za-z-]{14})_(\d{4})_rp(\d{5})\.tif$/;
const COAST = /^inuncoast_(historical|rcp4p5|rcp8p5)_(nosub|wtsub)_(hist|\d{4})_rp(\d{4})(_5)?_(0|0_perc_05|0_perc_50)\.tif$/;
const JRC_V1 = /^floodMapGL_rp(\d{1,4})y\.tif$/;
const JRC_V2 = /^(ID\d{1,4}_[NS]\d{1,2}_[EW]\d{1,3})_RP(\d{1,4})_depth\.tif$/;

const EXPECTED =
  'expected an Aqueduct Floods name (inunriver_{historical|rcp4p5|rcp8p5}_{model}_{year}_rp{00100}.tif, ' +
  'inuncoast_{scenario}_{nosub|wtsub}_{hist|year}_rp{0100}_{0|0_perc_05|0_perc_50}.tif) or a JRC name (floodMapGL_rp{100}y.tif, ID{n}_{N|S}{lat}_{E|W}{lon}_RP{100}_depth.tif)';

function fail(name: string, why: string): never {
  throw new FloodNameError(`${name}: ${why}`);
}

function futureYear(name: string, scenario: PublishedScenario, year: number): number | null {
  if (scenario === 'historical') return null;
  if (!(AQUEDUCT_YEARS as readonly number[]).includes(year)) fail(name, `year ${year} is not one of Aqueduct's future years (${AQUEDUCT_YEARS.join(', ')})`);
  return year;
}

/** The hazard, scenario, model, year and return period a published file's name states; throws FloodNameError. */
export function parseFloodFileName(name: string): FloodFileKey {
  let m = RIVER.exec(name);
  if (m) {
    const scenario = m[1] as PublishedScenario;
    const model = m[2]!.replace(/^0+/, '');
    const year = Number(m[3]);
    const rp = Number(m[4]);
    if (!AQUEDUCT_MODELS.includes(model)) fail(name, `model '${model}' is not one of Aqueduct's (${AQUEDUCT_MODELS.join(', ')})`);
    if (scenario === 'historical' && (model !== 'WATCH' || year !== 1980)) fail(name, 'the historical riverine maps are 000000000WATCH_1980');
    if (scenario !== 'historical' && model === 'WATCH') fail(name, 'WATCH is the historical baseline, not a scenario model');
    if (!(AQUEDUCT_RPS as readonly number[]).includes(rp)) fail(name, `return period ${rp} is not one of Aqueduct's (${AQUEDUCT_RPS.join(', ')})`);
    return {
      source: 'aqueduct',
      hazard: 'river_flood',
      scenario,
      model,
      year: futureYear(name, scenario, year),
      returnPeriodYears: rp,
      subsidence: null,
      slrPercentile: null,
      tile: null,
    };
  }
  m = COAST.exec(name);
  if (m) {
    const scenario = m[1] as PublishedScenario;
    if ((scenario === 'historical') !== (m[3] === 'hist')) fail(name, "the historical coastal maps are '_hist_' and only they are");
    if (scenario === 'historical' && m[2] !== 'nosub') fail(name, 'the historical coastal maps are nosub');
    const rp = m[5] ? Number(m[4]) + 0.5 : Number(m[4]);
    if (!(rp === 1.5 || (AQUEDUCT_RPS as readonly number[]).includes(rp)))
      fail(name, `return period ${rp} is not one of Aqueduct's (1.5, ${AQUEDUCT_RPS.join(', ')})`);
    const perc = m[6] === '0' ? 95 : m[6] === '0_perc_05' ? 5 : 50;
    return {
      source: 'aqueduct',
      hazard: 'storm_surge',
      scenario,
      model: null,
      year: m[3] === 'hist' ? null : futureYear(name, scenario, Number(m[3])),
      returnPeriodYears: rp,
      subsidence: m[2] === 'wtsub',
      slrPercentile: perc,
      tile: null,
    };
  }
  m = JRC_V1.exec(name) ?? JRC_V2.exec(name);
  if (m) {
    const v2 = m.length === 3 && m[0].startsWith('ID');
    const rp = Number(v2 ? m[2] : m[1]);
    if (!(JRC_RPS as readonly number[]).includes(rp)) fail(name, `return period ${rp} is not one of the JRC maps' (${JRC_RPS.join(', ')})`);
    return {
      source: 'jrc',
      hazard: 'river_flood',
      scenario: 'historical',
      model: null,
      year: null,
      returnPeriodYears: rp,
      subsidence: null,
      slrPercentile: null,
      tile: v2 ? m[1]! : null,
    };
  }
  return fail(name, `not a published flood-map file name; ${EXPECTED}`);
}
