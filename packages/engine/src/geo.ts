/**
 * Coarse geography used to pick regional vulnerability curves: the JRC continent (Huizinga et al. 2017) and the
 * Eberenz et al. (2021) tropical-cyclone calibration region. A country code (ISO 3166 alpha-2 or alpha-3) wins when
 * given; otherwise a documented latitude/longitude box rule is used (approximate near borders; oceans, poles and
 * unknown places fall back to the global curve). Pure functions, no I/O.
 */

export const JRC_CONTINENTS = ['europe', 'north_america', 'south_america', 'asia', 'africa', 'oceania', 'global'] as const;
export type JrcContinent = (typeof JRC_CONTINENTS)[number];

/** Eberenz, Lüthi & Bresch (2021) NHESS 21:393, Table A2 calibration regions. */
export const TC_REGIONS = ['NA1', 'NA2', 'NI', 'OC', 'SI', 'WP1', 'WP2', 'WP3', 'WP4', 'ROW'] as const;
export type TcRegion = (typeof TC_REGIONS)[number];

/** Normalise a longitude to [-180, 180); NaN stays NaN. Handles the antimeridian (181 -> -179). */
export function normaliseLonDeg(lonDeg: number): number {
  if (!Number.isFinite(lonDeg)) return Number.NaN;
  const l = ((((lonDeg + 180) % 360) + 360) % 360) - 180;
  return l;
}

const inBox = (lat: number, lon: number, lat0: number, lat1: number, lon0: number, lon1: number) => lat >= lat0 && lat <= lat1 && lon >= lon0 && lon <= lon1;

// ISO-3166 alpha-3 lists by Eberenz et al. (2021) region (Table A1/A2; CLIMADA region_ids_cal).
const TC_REGION_ISO3: Record<Exclude<TcRegion, 'ROW'>, string> = {
  NA1: 'AIA ATG ARG ABW BHS BRB BLZ BMU BOL CPV CYM CHL COL CRI CUB DMA DOM ECU SLV FLK GUF GRD GLP GTM GUY HTI HND JAM MTQ MEX MSR NIC PAN PRY PER PRI SHN KNA LCA VCT SXM SUR TTO TCA URY VEN VGB VIR',
  NA2: 'CAN USA',
  NI: 'AFG ARM AZE BHR BGD BTN DJI ERI ETH GEO IND IRN IRQ ISR JOR KAZ KWT KGZ LBN MDV MNG MMR NPL OMN PAK QAT SAU SOM LKA SYR TJK TKM UGA ARE UZB YEM',
  OC: 'ASM AUS COK FJI PYF GUM KIR MHL FSM NRU NCL NZL NIU NFK MNP PLW PNG PCN WSM SLB TLS TKL TON TUV VUT WLF',
  SI: 'COM COD SWZ MDG MWI MLI MUS MOZ ZAF TZA ZWE',
  WP1: 'KHM IDN LAO MYS THA VNM',
  WP2: 'PHL',
  WP3: 'CHN',
  WP4: 'HKG JPN KOR MAC TWN',
};
// Alpha-2 equivalents of the countries above that most portfolios use (others: give alpha-3 or rely on coordinates).
const ISO2_TO_ISO3: Record<string, string> = {
  US: 'USA',
  CA: 'CAN',
  MX: 'MEX',
  CU: 'CUB',
  DO: 'DOM',
  HT: 'HTI',
  JM: 'JAM',
  PR: 'PRI',
  BS: 'BHS',
  GT: 'GTM',
  HN: 'HND',
  NI: 'NIC',
  CR: 'CRI',
  PA: 'PAN',
  SV: 'SLV',
  BZ: 'BLZ',
  CO: 'COL',
  VE: 'VEN',
  EC: 'ECU',
  PE: 'PER',
  BR: 'BRA',
  AR: 'ARG',
  CL: 'CHL',
  BO: 'BOL',
  PY: 'PRY',
  UY: 'URY',
  IN: 'IND',
  BD: 'BGD',
  PK: 'PAK',
  MM: 'MMR',
  LK: 'LKA',
  NP: 'NPL',
  OM: 'OMN',
  AE: 'ARE',
  SA: 'SAU',
  YE: 'YEM',
  IR: 'IRN',
  IQ: 'IRQ',
  QA: 'QAT',
  KW: 'KWT',
  BH: 'BHR',
  IL: 'ISR',
  JO: 'JOR',
  SO: 'SOM',
  ET: 'ETH',
  AU: 'AUS',
  NZ: 'NZL',
  FJ: 'FJI',
  PG: 'PNG',
  NC: 'NCL',
  WS: 'WSM',
  TO: 'TON',
  VU: 'VUT',
  SB: 'SLB',
  TL: 'TLS',
  MG: 'MDG',
  MZ: 'MOZ',
  ZA: 'ZAF',
  TZ: 'TZA',
  MU: 'MUS',
  MW: 'MWI',
  ZW: 'ZWE',
  KH: 'KHM',
  ID: 'IDN',
  LA: 'LAO',
  MY: 'MYS',
  TH: 'THA',
  VN: 'VNM',
  PH: 'PHL',
  CN: 'CHN',
  HK: 'HKG',
  JP: 'JPN',
  KR: 'KOR',
  MO: 'MAC',
  TW: 'TWN',
  SG: 'SGP',
  GB: 'GBR',
  DE: 'DEU',
  FR: 'FRA',
  IT: 'ITA',
  ES: 'ESP',
  PT: 'PRT',
  NL: 'NLD',
  BE: 'BEL',
  CH: 'CHE',
  AT: 'AUT',
  PL: 'POL',
  SE: 'SWE',
  NO: 'NOR',
  DK: 'DNK',
  FI: 'FIN',
  IE: 'IRL',
  GR: 'GRC',
  TR: 'TUR',
  RU: 'RUS',
  UA: 'UKR',
  CZ: 'CZE',
  HU: 'HUN',
  RO: 'ROU',
  EG: 'EGY',
  NG: 'NGA',
  KE: 'KEN',
  MA: 'MAR',
  DZ: 'DZA',
  TN: 'TUN',
  GH: 'GHA',
  CI: 'CIV',
  SN: 'SEN',
  CM: 'CMR',
  AO: 'AGO',
  SD: 'SDN',
  UG: 'UGA',
  CD: 'COD',
  KZ: 'KAZ',
  UZ: 'UZB',
  MN: 'MNG',
  AF: 'AFG',
};
const ISO3_CONTINENT: Record<string, JrcContinent> = {};
function addContinent(c: JrcContinent, list: string) {
  for (const k of list.split(' ')) ISO3_CONTINENT[k] = c;
}
addContinent('north_america', 'USA CAN BMU GRL');
addContinent('south_america', 'MEX CUB DOM HTI JAM PRI BHS GTM HND NIC CRI PAN SLV BLZ COL VEN ECU PER BRA ARG CHL BOL PRY URY GUY SUR GUF TTO BRB');
addContinent('europe', 'GBR DEU FRA ITA ESP PRT NLD BEL CHE AUT POL SWE NOR DNK FIN IRL GRC RUS UKR CZE HUN ROU ISL LUX');
addContinent('africa', 'EGY NGA KEN MAR DZA TUN GHA CIV SEN CMR AGO SDN UGA COD ZAF MOZ MDG TZA ETH SOM MWI ZWE MUS');
addContinent('oceania', 'AUS NZL FJI PNG NCL WSM TON VUT SLB');
addContinent(
  'asia',
  'CHN HKG MAC TWN JPN KOR IND BGD PAK MMR LKA NPL KHM IDN LAO MYS THA VNM PHL SGP TUR SAU ARE OMN YEM IRN IRQ QAT KWT BHR ISR JOR KAZ UZB MNG AFG TLS',
);

const ISO3_TC_REGION: Record<string, TcRegion> = {};
for (const [r, list] of Object.entries(TC_REGION_ISO3)) for (const k of list.split(' ')) ISO3_TC_REGION[k] = r as TcRegion;

/** Upper-case alpha-3 code for an alpha-2 or alpha-3 input; undefined if unknown or empty. */
export function toIso3(countryCode: string | null | undefined): string | undefined {
  if (!countryCode) return undefined;
  const c = countryCode.trim().toUpperCase();
  if (c.length === 3) return c;
  if (c.length === 2) return ISO2_TO_ISO3[c];
  return undefined;
}

/**
 * JRC continent of a point. Box rule (documented in docs/methodology/engine.md): North America lat >= 28.5 (24.5 east
 * of 98 W) between 170 W and 50 W; Central & South America (incl. Mexico, Caribbean) south of that to 56 S; Europe
 * 36-72 N, 25 W-45 E (north of 41 N east of 26 E); Africa 35 S-36 N, 20 W-52 E (excl. Arabia); Oceania south of 11 S
 * 110-180 E, PNG, Pacific islands; Asia the rest of 45-180 E north of 11 S. Anything else (oceans, poles) -> global.
 */
export function jrcContinentOf(latDeg: number, lonDeg: number, countryCode?: string | null): JrcContinent {
  const iso3 = toIso3(countryCode);
  if (iso3 && ISO3_CONTINENT[iso3]) return ISO3_CONTINENT[iso3];
  const lat = latDeg;
  const lon = normaliseLonDeg(lonDeg);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat > 84 || lat < -60) return 'global';
  if (lon >= -170 && lon <= -50) {
    if (lat >= 28.5 || (lat >= 24.5 && lon > -98)) return 'north_america';
    if (lat >= -56 && lon >= -120) return 'south_america';
    return 'global';
  }
  if (lon < -170 || (lon > -50 && lon < -25)) return lat < 0 && lon < -130 ? 'oceania' : 'global';
  if (lon >= -25 && lon <= 45 && lat >= 36 && lat <= 72 && !(lon > 26 && lat < 41)) return 'europe';
  if (lon >= -20 && lon <= 52 && lat >= -35 && lat < 36 && !(lon > 35 && lat > 12) && !(lon > 43 && lat > 10)) return 'africa';
  if (lat < -11 && lon >= 110) return 'oceania';
  if (lon >= 141 && lat < 0) return 'oceania';
  if (lon >= 26 && lat >= -11) return 'asia';
  return 'global';
}

/** Eberenz et al. (2021) region of a point: country code first, else the box rule documented in the methodology. */
export function tcRegionOf(latDeg: number, lonDeg: number, countryCode?: string | null): TcRegion {
  const iso3 = toIso3(countryCode);
  if (iso3) return ISO3_TC_REGION[iso3] ?? 'ROW';
  const lat = latDeg;
  const lon = normaliseLonDeg(lonDeg);
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return 'ROW';
  if (inBox(lat, lon, 24.5, 72, -170, -50) && !(lat < 28.5 && lon < -98)) return 'NA2';
  if (inBox(lat, lon, -56, 28.5, -120, -30)) return 'NA1';
  if (
    inBox(lat, lon, 21.8, 25.5, 119.5, 122.5) ||
    inBox(lat, lon, 33, 39, 124.5, 131) ||
    inBox(lat, lon, 24, 46, 128, 146) ||
    inBox(lat, lon, 22.1, 22.6, 113.5, 114.5)
  )
    return 'WP4';
  if (inBox(lat, lon, 4.5, 21.5, 116.5, 127)) return 'WP2';
  if (inBox(lat, lon, 18, 54, 97, 135)) return 'WP3';
  if (inBox(lat, lon, -11, 23.5, 92, 141)) return 'WP1';
  if (inBox(lat, lon, -5, 42, 40, 100)) return 'NI';
  if (inBox(lat, lon, -50, -11, 110, 180) || inBox(lat, lon, -30, 0, -180, -130) || inBox(lat, lon, -11, 0, 141, 180)) return 'OC';
  if (inBox(lat, lon, -40, -5, 30, 90)) return 'SI';
  return 'ROW';
}
