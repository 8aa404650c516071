/**
 * Chronic climate layers on a 0.5° grid from the NCEP/NCAR Reanalysis 1 2 m air temperature LTM (1991-2020,
 * Kalnay et al. 1996) and CMAP precipitation LTM (1981-2010, Xie & Arkin 1997), bilinearly interpolated.
 * Snowfall and the aridity index are precomputed at warming offsets (°C) so the loader only interpolates.
 */
import { readNetcdf, readCsv } from './io.js';
import { GRID_05 } from '../../src/layer-format.js';

export const W05 = GRID_05.width; // 720
export const H05 = GRID_05.height; // 360
/**
 * Warming offsets (°C) at which snow, aridity and fire-weather bands are precomputed. They reach 16 °C because the
 * regional CMIP6 ΔTNn that warms snow and cold reaches 15 °C by 2100 under SSP5-8.5 in N.W. North America (NWN, GWL
 * 5.6 °C) and more in the Arctic regions; with bands only to 6 °C, snowfall stopped falling at +6 °C while the cold
 * indicator kept warming.
 */
export const CHRONIC_OFFSETS_C = [0, 1, 2, 3, 4, 6, 9, 12, 16];
/** Annual precipitation above which fire is no longer fuel-limited (van der Werf et al. 2008: peak at 1000-2000 mm/yr). */
export const FIRE_FUEL_PRECIP_MM = 1000;
const DAYS_IN_MONTH = [31, 28.25, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MID_MONTH_DOY = [15, 45, 74, 105, 135, 166, 196, 227, 258, 288, 319, 349];

export interface Climate {
  /** Monthly mean temperature °C [cell*12+m]. */
  tasC: Float32Array;
  /** Monthly mean precipitation mm/day [cell*12+m]. */
  prMmDay: Float32Array;
}

function bilinear(
  data: Float64Array,
  nLat: number,
  nLon: number,
  lats: Float64Array,
  lon0: number,
  dLon: number,
  month: number,
  lat: number,
  lng: number,
): number {
  // lats descending (N->S): binary search
  let lo = 0,
    hi = nLat - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lats[mid]! > lat) lo = mid;
    else hi = mid - 1;
  }
  const i = lo;
  const la0 = lats[i]!,
    la1 = lats[i + 1]!;
  let ty = (la0 - lat) / (la0 - la1);
  ty = Math.min(1, Math.max(0, ty));
  const x = ((((lng - lon0) / dLon) % nLon) + nLon) % nLon;
  const j0 = Math.floor(x),
    j1 = (j0 + 1) % nLon,
    tx = x - j0;
  const off = month * nLat * nLon;
  const v = (ii: number, jj: number) => data[off + ii * nLon + jj]!;
  return (1 - ty) * ((1 - tx) * v(i, j0) + tx * v(i, j1)) + ty * ((1 - tx) * v(i + 1, j0) + tx * v(i + 1, j1));
}

/** Optional region (degrees) to limit the work to, for regional rebuild checks; cells outside stay 0. */
export interface Region {
  west: number;
  south: number;
  east: number;
  north: number;
}
const inRegion = (r: number, c: number, reg?: Region) => {
  if (!reg) return true;
  const lat = 90 - (r + 0.5) * 0.5,
    lng = -180 + (c + 0.5) * 0.5;
  return lat >= reg.south - 1 && lat <= reg.north + 1 && lng >= reg.west - 1 && lng <= reg.east + 1;
};

export function loadClimate(dir: string, reg?: Region): Climate {
  const t = readNetcdf(dir, 'ncep-reanalysis1-ltm/air.2m.mon.ltm.1991-2020.nc3.nc', ['air', 'lat', 'lon']);
  const p = readNetcdf(dir, 'cmap-precip-ltm/precip.mon.ltm.1981-2010.nc', ['precip', 'lat', 'lon']);
  const tLat = t.lat!.data,
    tLon = t.lon!.data,
    pLat = p.lat!.data,
    pLon = p.lon!.data;
  const n = W05 * H05;
  const tasC = new Float32Array(n * 12),
    prMmDay = new Float32Array(n * 12);
  const pr = p.precip!.data;
  for (let i = 0; i < pr.length; i++) if (!(pr[i]! > -1e30)) pr[i] = 0;
  for (let r = 0; r < H05; r++) {
    const lat = 90 - (r + 0.5) * 0.5;
    for (let c = 0; c < W05; c++) {
      if (!inRegion(r, c, reg)) continue;
      const lng = -180 + (c + 0.5) * 0.5;
      const k = r * W05 + c;
      for (let m = 0; m < 12; m++) {
        tasC[k * 12 + m] = bilinear(t.air!.data, tLat.length, tLon.length, tLat, tLon[0]!, tLon[1]! - tLon[0]!, m, lat, lng) - 273.15;
        prMmDay[k * 12 + m] = Math.max(0, bilinear(pr, pLat.length, pLon.length, pLat, pLon[0]!, pLon[1]! - pLon[0]!, m, lat, lng));
      }
    }
  }
  return { tasC, prMmDay };
}

/** Day length (h) at latitude φ on day-of-year d; declination after Cooper (1969). */
export function dayLengthH(latDeg: number, doy: number): number {
  const decl = ((23.44 * Math.PI) / 180) * Math.sin((2 * Math.PI * (284 + doy)) / 365);
  const phi = (latDeg * Math.PI) / 180;
  const x = Math.min(1, Math.max(-1, -Math.tan(phi) * Math.tan(decl)));
  return (24 / Math.PI) * Math.acos(x);
}

/**
 * Thornthwaite (1948) monthly potential evapotranspiration (mm/month), with the Willmott, Rowe & Mintz (1985)
 * quadratic above 26.5 °C. Heat index I and exponent a are computed from the (possibly warmed) monthly temperatures.
 */
export function thornthwaitePetMm(tMonthC: number[], latDeg: number): number[] {
  const corr = monthCorrections(latDeg);
  const out: number[] = [];
  annualPet(tMonthC, 0, corr, out);
  return out;
}

const corrCache = new Map<number, Float64Array>();
/** Thornthwaite day-length × month-length correction (L/12)·(N/30) per month. */
export function monthCorrections(latDeg: number): Float64Array {
  let c = corrCache.get(latDeg);
  if (!c) {
    c = new Float64Array(12);
    for (let m = 0; m < 12; m++) c[m] = (dayLengthH(latDeg, MID_MONTH_DOY[m]!) / 12) * (DAYS_IN_MONTH[m]! / 30);
    corrCache.set(latDeg, c);
  }
  return c;
}

/** Annual Thornthwaite PET (mm) of monthly temperatures shifted by `offsetC`; fills `months` when given. */
export function annualPet(tMonthC: ArrayLike<number>, offsetC: number, corr: Float64Array, months?: number[]): number {
  let I = 0;
  for (let m = 0; m < 12; m++) {
    const t = tMonthC[m]! + offsetC;
    if (t > 0) I += Math.pow(t / 5, 1.514);
  }
  const a = 6.75e-7 * I ** 3 - 7.71e-5 * I ** 2 + 1.792e-2 * I + 0.49239;
  let sum = 0;
  for (let m = 0; m < 12; m++) {
    const t = tMonthC[m]! + offsetC;
    let v = 0;
    if (t > 0 && I > 0) v = Math.max(0, t < 26.5 ? 16 * Math.pow((10 * t) / I, a) : -415.85 + 32.24 * t - 0.43 * t * t) * corr[m]!;
    if (months) months[m] = v;
    sum += v;
  }
  return sum;
}

/**
 * Snow fraction of monthly precipitation: all snow at or below 0 °C, all rain at or above 2 °C, linear between
 * (the 0-2 °C rain/snow transition, 50 % at 1 °C, of NWS Snow-17 PXTEMP guidance, Anderson 2006).
 */
export function snowFraction(tC: number): number {
  if (tC <= 0) return 1;
  if (tC >= 2) return 0;
  return (2 - tC) / 2;
}

/**
 * Drought Code day-length factors Lf (Van Wagner 1987, Development and structure of the Canadian Forest Fire Weather Index
 * System, FTR-35) north of 20°N; shifted by six months south of 20°S and 1.4 between (as in the cffdrs implementation).
 */
const DC_LF_NORTH = [-1.6, -1.6, -1.6, 0.9, 3.8, 5.8, 6.4, 5.0, 2.4, 0.4, -1.6, -1.6];
/** Drought Code danger classes (generalised Canadian FWI chart, Minnesota DNR): high from 210, extreme from 360. */
export const MDC_HIGH = 210;
export const MDC_EXTREME = 360;

/**
 * Monthly Drought Code of a climatological year (Girardin & Wotton 2009, J. Appl. Meteorol. Climatol. 48:517, eqs. 2-7):
 * Em = N·(0.36·T + Lf); DC_half = DC₀ + Em/4; rain RMeff = 0.83·P, Q = 3.937·RMeff / (800·e^(−DC₀/400)),
 * DC_mr = DC_half − 400·ln(1 + Q) (no rain effect at P ≤ 2.8 mm); DC_end = DC_mr + Em/4; MDC = (DC₀ + DC_end)/2.
 * The staged NCEP data have no daily maximum, so T is the monthly *mean* temperature (drying underestimated by about
 * 0.36·(Tmax − T) per day). After a month at or below 0 °C (snow cover) the code restarts at 15, the overwinter
 * start value of Girardin & Wotton; the year is cycled four times to reach a steady state.
 */
export function monthlyDroughtCode(tC: ArrayLike<number>, pMm: ArrayLike<number>, latDeg: number): number[] {
  const out = new Array<number>(12).fill(15);
  let dc0 = 15;
  for (let it = 0; it < 4; it++)
    for (let m = 0; m < 12; m++) {
      const t = tC[m]!,
        p = pMm[m]!;
      if (t <= 0) {
        dc0 = 15;
        out[m] = 15;
        continue;
      }
      const lf = latDeg > 20 ? DC_LF_NORTH[m]! : latDeg < -20 ? DC_LF_NORTH[(m + 6) % 12]! : 1.4;
      const em = Math.max(0, DAYS_IN_MONTH[m]! * (0.36 * t + lf));
      const half = dc0 + 0.25 * em;
      const q = (3.937 * 0.83 * p) / (800 * Math.exp(-dc0 / 400));
      const mr = p <= 2.8 ? half : Math.max(0, half - 400 * Math.log(1 + q));
      const end = mr + 0.25 * em;
      out[m] = (dc0 + end) / 2;
      dc0 = end;
    }
  return out;
}

/**
 * Fire-season months of a climatological year: a month dry by Bagnouls & Gaussen (P < 2T) counts 1; any other month counts
 * by its Monthly Drought Code, 0 at the "high" class (210) rising to 1 at "extreme" (360), so fuel dryness in climates
 * that rain all year or have a short dry spell (SE Australian eucalypt forests, continental boreal forests) is seen.
 */
export function fireSeasonMonths(tC: ArrayLike<number>, pMm: ArrayLike<number>, latDeg: number): number {
  const mdc = monthlyDroughtCode(tC, pMm, latDeg);
  let m = 0;
  for (let i = 0; i < 12; i++) m += pMm[i]! < 2 * tC[i]! ? 1 : Math.min(1, Math.max(0, (mdc[i]! - MDC_HIGH) / (MDC_EXTREME - MDC_HIGH)));
  return m;
}

/** Fire-season months at which the season factor reaches its plateau (half the year: one dry season of a seasonal climate). */
export const FIRE_SEASON_PLATEAU_MONTHS = 6;
/**
 * Season factor of the fire climate: min(1, m / 6) of the fire-season months m. It used to be 4·(m/12)(1 − m/12), which
 * fell back to 0 at 12 months and so zeroed 29 % of the burnable semi-arid and dry sub-humid land; a climate dry all year
 * is limited by its fuel (van der Werf et al. 2008: burned area rises with precipitation up to 1000-2000 mm/yr; Archibald
 * et al. 2013: fuel-limited and dryness-limited fire regimes), which the precipitation factor min(1, P/1000 mm) carries, and
 * in the tropics every month can be fire season (Canadian fire-season rules, Boulanger et al. 2014), so the factor must be
 * 1, not 0, at 12 months.
 */
export function fireSeasonShape(fireSeasonMonths: number): number {
  return Math.min(1, Math.max(0, fireSeasonMonths / FIRE_SEASON_PLATEAU_MONTHS));
}

export interface ChronicLayers {
  warmC: Float32Array;
  coldC: Float32Array;
  wetMonthMmDay: Float32Array;
  annualPrMm: Float32Array;
  /** [cell*nOff+o] */
  snowMm: Float32Array;
  aridity: Float32Array;
  /** Fire-weather factor: dry-season shape × PET ratio [cell*nOff+o]. */
  fireClim: Float32Array;
  dryMonths: Uint8Array;
}

export function computeChronic(cl: Climate, reg?: Region): ChronicLayers {
  const n = W05 * H05,
    nO = CHRONIC_OFFSETS_C.length;
  const out: ChronicLayers = {
    warmC: new Float32Array(n),
    coldC: new Float32Array(n),
    wetMonthMmDay: new Float32Array(n),
    annualPrMm: new Float32Array(n),
    snowMm: new Float32Array(n * nO),
    aridity: new Float32Array(n * nO),
    fireClim: new Float32Array(n * nO),
    dryMonths: new Uint8Array(n),
  };
  for (let k = 0; k < n; k++) {
    if (!inRegion(Math.floor(k / W05), k % W05, reg)) continue;
    const lat = 90 - (Math.floor(k / W05) + 0.5) * 0.5;
    const T = Array.from(cl.tasC.subarray(k * 12, k * 12 + 12));
    const P = Array.from(cl.prMmDay.subarray(k * 12, k * 12 + 12)).map((v, m) => v * DAYS_IN_MONTH[m]!);
    out.warmC[k] = Math.max(...T);
    out.coldC[k] = Math.min(...T);
    out.wetMonthMmDay[k] = Math.max(...cl.prMmDay.subarray(k * 12, k * 12 + 12));
    const pAnn = P.reduce((a, b) => a + b, 0);
    out.annualPrMm[k] = pAnn;
    // Bagnouls & Gaussen (1957): a month is dry when P (mm) < 2 T (°C).
    let dm = 0;
    for (let m = 0; m < 12; m++) if (P[m]! < 2 * T[m]!) dm++;
    out.dryMonths[k] = dm;
    const corr = monthCorrections(lat);
    const pet0 = annualPet(T, 0, corr);
    // Fire-season months: Bagnouls-Gaussen dry months plus the Monthly Drought Code's fuel dryness in the other months.
    // Burned area is dryness-limited in wet climates and fuel-limited in dry ones (van der Werf et al. 2008, GBC
    // 22:GB3028; Archibald et al. 2013, PNAS 110:6442), so the season factor rises with the fire-season months and
    // plateaus (fireSeasonShape) while the fuel limitation is carried by min(1, P / 1000 mm) alone.
    const fm = fireSeasonMonths(T, P, lat);
    const shape = fireSeasonShape(fm) * Math.min(1, pAnn / FIRE_FUEL_PRECIP_MM);
    CHRONIC_OFFSETS_C.forEach((o, oi) => {
      let snow = 0;
      for (let m = 0; m < 12; m++) snow += P[m]! * snowFraction(T[m]! + o);
      const pet = annualPet(T, o, corr);
      out.snowMm[k * nO + oi] = snow;
      out.aridity[k * nO + oi] = pet > 0 ? Math.min(60, pAnn / pet) : 60;
      out.fireClim[k * nO + oi] = pet0 > 0 ? shape * (pet / pet0) : 0;
    });
  }
  return out;
}

export interface Ar6Regions {
  regions: { abbrev: string; name: string; surface: string; poly: [number, number][] }[];
}

export function loadRegions(dir: string): Ar6Regions {
  const { rows } = readCsv(dir, 'cmip6_regional_extremes_ar6/regions/IPCC-WGI-reference-regions-v4_coordinates.csv');
  const regions = rows.map((r) => ({
    abbrev: r[3]!.trim(),
    name: r[2]!.trim(),
    surface: r[1]!.trim(),
    poly: r
      .slice(4)
      .filter((v) => v.includes('|'))
      .map((v) => v.split('|').map(Number) as [number, number]),
  }));
  return { regions };
}

function pointInPoly(x: number, y: number, poly: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!,
      [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Region index per 0.5° cell (land regions take precedence over ocean ones); 255 where none. */
export function regionGrid(reg: Ar6Regions): Uint8Array {
  const g = new Uint8Array(W05 * H05).fill(255);
  const order = reg.regions.map((r, i) => ({ r, i })).sort((a, b) => (a.r.surface === b.r.surface ? 0 : a.r.surface === 'Land' ? -1 : 1));
  const bbox = reg.regions.map((r) => {
    const xs = r.poly.map((p) => p[0]),
      ys = r.poly.map((p) => p[1]);
    return [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)] as const;
  });
  for (let row = 0; row < H05; row++) {
    const lat = 90 - (row + 0.5) * 0.5;
    for (let c = 0; c < W05; c++) {
      const lng = -180 + (c + 0.5) * 0.5;
      for (const { r, i } of order) {
        const b = bbox[i]!;
        // polygons crossing the dateline are given with longitudes beyond ±180 in some rows: test both
        for (const x of [lng, lng + 360, lng - 360]) {
          if (x < b[0] || x > b[1] || lat < b[2] || lat > b[3]) continue;
          if (pointInPoly(x, lat, r.poly)) {
            g[row * W05 + c] = i;
            break;
          }
        }
        if (g[row * W05 + c] !== 255) break;
      }
    }
  }
  return g;
}

export const REGIONAL_INDICES = ['TXx', 'TNn', 'Rx1day', 'Rx5day', 'CDD', 'SM_total'] as const;

export function loadRegionalDeltas(dir: string, reg: Ar6Regions) {
  const deltas: Record<string, (number[] | null)[]> = {};
  const globals: Record<string, number[]> = {};
  for (const idx of REGIONAL_INDICES) {
    const { header, rows } = readCsv(dir, `cmip6_regional_extremes_ar6/cmip_indices_multi_model_median_regional_${idx}.csv`);
    const cols = ['1.5', '2.0', '3.0', '4.0'].map((h) => header.indexOf(h));
    const byAbbrev = new Map<string, number[] | null>();
    for (const r of rows) {
      const vals = cols.map((c) => Number(r[c]));
      byAbbrev.set(r[0]!.trim(), vals.every((v) => Number.isFinite(v) && r[cols[0]!] !== '') ? vals : null);
    }
    deltas[idx] = reg.regions.map((r) => byAbbrev.get(r.abbrev) ?? null);
    globals[idx] = (byAbbrev.get('land') ?? byAbbrev.get('global'))!;
  }
  return { deltas, globals };
}
