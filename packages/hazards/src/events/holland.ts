/**
 * The parametric Holland wind field of a tropical cyclone (moved here from scripts/lib/typhoon.ts so that the layer
 * build and the portfolio event set, cyclone-events.ts, run the same code).
 *
 * Wind field (per interpolated fix), following CLIMADA's H08/H10 family:
 *   Δp = p_env − p_c, p_env = 1010 hPa (CLIMADA default); when p_c is missing, Atkinson & Holliday (1977):
 *        V[kt] = 6.7·Δp^0.644 → Δp = (V/6.7)^(1/0.644).
 *   b_s = −4.4e-5·Δp² + 0.01·Δp + 0.03·∂p_c/∂t − 0.014·|φ| + 0.15·v_t^x + 1.0, x = 0.6·(1 − Δp/215), clipped to [1, 2.5]
 *        (Holland 2008, MWR 136:3432).
 *   R_max from the JTWC MRD column when given, else Willoughby, Darling & Rahn (2006) eq. 7a:
 *        R_max[km] = 46.4·exp(−0.0155·V_max + 0.0169·|φ|).
 *   V_sym(r) = v_ms·[(R_max/r)^b_s·exp(1 − (R_max/r)^b_s)]^x (Holland, Belanger & Fritz 2010 profile): x = 0.5 inside
 *        R_max; outside, x_n fitted to the observed 34/50/64-kt wind radii where the best track gives them (JTWC b-decks,
 *        HURDAT2 from 2004), else 0.5 (Holland 1980 shape). Anchored to the best-track maximum: v_ms = V_max − v_t.
 *   Total wind = |V_sym·ê_θ + min(1, R_max/r)·v_t| (translation added with Mouton & Nordbeck 2005 decay, as CLIMADA).
 *   Winds below 17.5 m/s are dropped; the field is evaluated to 300 km from the eye (CLIMADA defaults).
 */
/** One best-track fix: wind converted to 1-min sustained 10 m (m/s); NaN where not reported. */
export interface Fix {
  tH: number;
  lat: number;
  lon: number;
  vMs: number;
  pHpa: number;
  rmwKm: number;
  /** Mean radius (km) of 34, 50 and 64 kt winds over the reported quadrants (JTWC b-decks, HURDAT2 from 2004); NaN if absent. */
  r34Km?: number;
  r50Km?: number;
  r64Km?: number;
}
export interface Storm {
  id: string;
  fixes: Fix[];
}

export const KT = 0.514444;
export const P_ENV_HPA = 1010;
export const WIND_THRESHOLD_MS = 17.5;
export const MAX_DIST_KM = 300;
export const KM_LAT = 110.57,
  KM_LON_EQ = 111.32;

export function dpFromWindHpa(vMs: number): number {
  return Math.pow(vMs / KT / 6.7, 1 / 0.644);
}
export function rmaxWilloughbyKm(vMs: number, latDeg: number): number {
  return 46.4 * Math.exp(-0.0155 * vMs + 0.0169 * Math.abs(latDeg));
}
export function hollandBs(dpHpa: number, dpdtHpaH: number, latDeg: number, vtMs: number): number {
  const x = 0.6 * (1 - dpHpa / 215);
  const b = -4.4e-5 * dpHpa * dpHpa + 0.01 * dpHpa + 0.03 * dpdtHpaH - 0.014 * Math.abs(latDeg) + 0.15 * Math.pow(Math.max(vtMs, 0), x) + 1.0;
  return Math.min(2.5, Math.max(1.0, b));
}

export interface Bbox {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface StepParams {
  lat: number;
  lon: number;
  vms: number;
  rmax: number;
  b: number;
  vtx: number;
  vty: number;
  vmax: number;
  xOut: number;
}

/** Symmetric + translational wind (m/s) at (dxKm east, dyKm north) from the eye. */
export function windAt(s: StepParams, dxKm: number, dyKm: number): number {
  const r = Math.max(0.5, Math.hypot(dxKm, dyKm));
  const q = Math.pow(s.rmax / r, s.b);
  const f = q * Math.exp(1 - q);
  const vsym = s.vms * (r <= s.rmax ? Math.sqrt(f) : Math.pow(f, s.xOut));
  const sgn = s.lat >= 0 ? 1 : -1; // counter-clockwise in the NH
  const ex = (-dyKm / r) * sgn,
    ey = (dxKm / r) * sgn;
  const dec = Math.min(1, s.rmax / r);
  return Math.hypot(vsym * ex + dec * s.vtx, vsym * ey + dec * s.vty);
}

/** Wind thresholds (m/s) of the 34, 50 and 64 kt radii. */
const RADII_MS = [34 * KT, 50 * KT, 64 * KT];

/**
 * Holland, Belanger & Fritz (2010) outer exponent x_n fitted (least squares in log wind) so that the symmetric profile
 * passes through the observed mean 34/50/64-kt radii: x = Σ ln(V_k/v_ms)·ln f(R_k) / Σ ln f(R_k)², f = q·e^(1−q),
 * q = (R_max/R)^b. Clipped to [0.15, 0.9]; 0.5 (Holland 1980 shape) without radii.
 */
export function fitOuterExponent(vms: number, rmax: number, b: number, radiiKm: number[]): number {
  let num = 0,
    den = 0;
  radiiKm.forEach((R, k) => {
    const V = RADII_MS[k]!;
    if (!(R > rmax * 1.2) || !(V < vms)) return;
    const q = Math.pow(rmax / R, b);
    const lf = Math.log(q * Math.exp(1 - q));
    num += Math.log(V / vms) * lf;
    den += lf * lf;
  });
  return den > 0 ? Math.min(0.9, Math.max(0.15, num / den)) : 0.5;
}

/** x + (y − x)·t where both are known, else the known one (NaN when neither). */
function mixAt(x: number, y: number, t: number): number {
  return Number.isFinite(x) && Number.isFinite(y) ? x + (y - x) * t : Number.isFinite(x) ? x : y;
}
function interpFixes(a: Fix, b: Fix, k: number, n: number): { lat: number; lon: number; v: number; p: number; rmw: number; radii: number[] } {
  const t = k / n;
  let dlon = b.lon - a.lon;
  if (dlon > 180) dlon -= 360;
  if (dlon < -180) dlon += 360;
  let lon = a.lon + dlon * t;
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
  const radii = [mixAt(a.r34Km ?? NaN, b.r34Km ?? NaN, t), mixAt(a.r50Km ?? NaN, b.r50Km ?? NaN, t), mixAt(a.r64Km ?? NaN, b.r64Km ?? NaN, t)];
  return { lat: a.lat + (b.lat - a.lat) * t, lon, v: mixAt(a.vMs, b.vMs, t), p: mixAt(a.pHpa, b.pHpa, t), rmw: mixAt(a.rmwKm, b.rmwKm, t), radii };
}

/**
 * The wind-field parameters of every interpolated step of a storm (fixes interpolated every `stepKm` along the track):
 * Holland B, R_max, the outer exponent fitted to the wind radii and the translation vector. The historical layer uses
 * 15 km steps on its 0.25° grid; the synthetic set (synthetic.ts) 25 km steps on its 0.5° grid. `near` (optional) skips
 * the steps with nothing to evaluate within MAX_DIST_KM before their wind-field parameters are computed.
 */
export function stormSteps(storm: Storm, stepKm: number, onStep: (s: StepParams) => void, near?: (lat: number, lon: number) => boolean): void {
  const fx = storm.fixes.filter((f) => Number.isFinite(f.vMs) && Number.isFinite(f.lat) && Number.isFinite(f.lon));
  for (let i = 0; i + 1 < fx.length; i++) {
    const a = fx[i]!,
      b = fx[i + 1]!;
    const dtH = b.tH - a.tH;
    if (dtH <= 0 || dtH > 24) continue;
    if (a.vMs < WIND_THRESHOLD_MS && b.vMs < WIND_THRESHOLD_MS) continue;
    const latM = (a.lat + b.lat) / 2;
    let dlon = b.lon - a.lon;
    if (dlon > 180) dlon -= 360;
    if (dlon < -180) dlon += 360;
    const dxKm = dlon * KM_LON_EQ * Math.cos((latM * Math.PI) / 180),
      dyKm = (b.lat - a.lat) * KM_LAT;
    const distKm = Math.hypot(dxKm, dyKm);
    const vtx = (dxKm * 1000) / (dtH * 3600),
      vty = (dyKm * 1000) / (dtH * 3600);
    const vt = Math.hypot(vtx, vty);
    if (vt > 40) continue; // bad fix
    const dpdt = Number.isFinite(a.pHpa) && Number.isFinite(b.pHpa) ? (b.pHpa - a.pHpa) / dtH : 0;
    const n = Math.max(1, Math.ceil(distKm / stepKm));
    const last = i + 2 === fx.length;
    for (let k = 0; k < n + (last ? 1 : 0); k++) {
      if (near) {
        // nothing to evaluate within 300 km (the portfolio event set): the step's position as interpFixes puts it
        const t = k / n;
        let lon = a.lon + dlon * t;
        if (lon > 180) lon -= 360;
        if (lon < -180) lon += 360;
        if (!near(a.lat + (b.lat - a.lat) * t, lon)) continue;
      }
      const f = interpFixes(a, b, k, n);
      if (f.v < WIND_THRESHOLD_MS) continue;
      const dp = Number.isFinite(f.p) && f.p < P_ENV_HPA - 1 ? P_ENV_HPA - f.p : dpFromWindHpa(f.v);
      const rmax = Number.isFinite(f.rmw) && f.rmw > 3 ? f.rmw : rmaxWilloughbyKm(f.v, f.lat);
      const vms = Math.max(0, f.v - vt),
        bs = hollandBs(dp, dpdt, f.lat, vt);
      onStep({ lat: f.lat, lon: f.lon, vms, rmax, b: bs, vtx, vty, vmax: f.v, xOut: fitOuterExponent(vms, rmax, bs, f.radii) });
    }
  }
}

/** Radius (km, 10 km steps, at most 300 km) beyond which the step's wind stays below the 17.5 m/s threshold. */
export function outerRadiusKm(s: StepParams): number {
  for (let r = s.rmax; r <= MAX_DIST_KM; r += 10) {
    const q = Math.pow(s.rmax / r, s.b);
    const vmaxAtR = s.vms * Math.pow(q * Math.exp(1 - q), s.xOut) + Math.min(1, s.rmax / r) * Math.hypot(s.vtx, s.vty);
    if (vmaxAtR < WIND_THRESHOLD_MS) return r;
  }
  return MAX_DIST_KM;
}
