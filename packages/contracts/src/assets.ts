/**
 * Asset fields of a portfolio upload (spec 000 §3 "Location for submission" and "CSV column order"),
 * and their parsing, shared by the server (authoritative) and the web preview.
 * NA (empty, "NA", "N/A", "-", null) is kept distinct from zero: it becomes null.
 */

export type AssetFieldKind = 'text' | 'latitude' | 'longitude' | 'money' | 'number' | 'integer' | 'percent' | 'energy' | 'crop' | 'construction';

export interface AssetField {
  key: string;
  /** Header in the CSV/XLSX template, in the spec's column order. */
  header: string;
  label: string;
  kind: AssetFieldKind;
  /** Unit shown in the template and the preview. */
  unit?: string;
  /** Mandatory columns: name and location. */
  required?: boolean;
  /** Optional columns are kept only when the user chooses them in the confirmation dialog (spec 000 §5). */
  optional?: boolean;
  /** Other spellings accepted in uploaded headers. */
  aliases?: string[];
  /** Allowed range of a number (inclusive), when narrower than "not negative". */
  range?: readonly [number, number];
}

export const ASSET_FIELDS = [
  { key: 'name', header: 'name', label: 'Asset name', kind: 'text', required: true, aliases: ['asset name', 'asset', 'site', 'site name', 'property name'] },
  { key: 'latitude', header: 'lat', label: 'Latitude', kind: 'latitude', unit: 'degrees', required: true, aliases: ['latitude', 'y'] },
  { key: 'longitude', header: 'long', label: 'Longitude', kind: 'longitude', unit: 'degrees', required: true, aliases: ['longitude', 'lon', 'lng', 'x'] },
  { key: 'revenue', header: 'revenue', label: 'Revenue', kind: 'money', unit: 'USD/yr', aliases: ['annual revenue', 'turnover'] },
  {
    key: 'construction_cost',
    header: 'construction cost',
    label: 'Construction cost',
    kind: 'money',
    unit: 'USD',
    optional: true,
    aliases: ['replacement cost', 'rebuild cost'],
  },
  { key: 'property_type', header: 'property type', label: 'Property type', kind: 'text', aliases: ['type', 'asset type', 'occupancy', 'use'] },
  { key: 'area', header: 'area', label: 'Area', kind: 'number', unit: 'm²', optional: true, aliases: ['floor area', 'gross area', 'area m2', 'area sqm'] },
  { key: 'valuation', header: 'valuation', label: 'Valuation', kind: 'money', unit: 'USD', optional: true, aliases: ['value', 'asset value', 'market value'] },
  { key: 'stories', header: 'floors', label: 'Floors', kind: 'integer', optional: true, aliases: ['stories', 'storeys', 'number of floors'] },
  { key: 'solar_production', header: 'solar', label: 'Solar production', kind: 'energy', unit: 'GWh/yr', optional: true, aliases: ['solar production'] },
  { key: 'wind_production', header: 'wind', label: 'Wind production', kind: 'energy', unit: 'GWh/yr', optional: true, aliases: ['wind production'] },
  { key: 'hydro_production', header: 'hydro', label: 'Hydro production', kind: 'energy', unit: 'GWh/yr', optional: true, aliases: ['hydro production'] },
  { key: 'wheat_production', header: 'wheat', label: 'Wheat production', kind: 'crop', unit: 'kg/yr', optional: true, aliases: ['wheat production'] },
  { key: 'rice_production', header: 'rice', label: 'Rice production', kind: 'crop', unit: 'kg/yr', optional: true, aliases: ['rice production'] },
  { key: 'maize_production', header: 'maize', label: 'Maize production', kind: 'crop', unit: 'kg/yr', optional: true, aliases: ['maize production', 'corn'] },
  { key: 'fruit_production', header: 'fruit', label: 'Fruit production', kind: 'crop', unit: 'kg/yr', optional: true, aliases: ['fruit production'] },
  {
    key: 'vegetable_production',
    header: 'veg',
    label: 'Vegetable production',
    kind: 'crop',
    unit: 'kg/yr',
    optional: true,
    aliases: ['vegetable', 'vegetables', 'vegetable production'],
  },
  {
    key: 'ownership',
    header: 'ownership',
    label: 'Ownership',
    kind: 'percent',
    unit: '%',
    optional: true,
    aliases: ['ownership %', 'ownership share', 'share'],
  },
  {
    key: 'flood_protection',
    header: 'flood protection',
    label: 'Flood protection',
    kind: 'number',
    unit: 'years',
    optional: true,
    range: [1, 100000],
    aliases: ['standard of protection', 'protection standard', 'flood protection standard', 'flood protection years', 'sop'],
  },
  {
    key: 'construction',
    header: 'construction',
    label: 'Construction',
    kind: 'construction',
    optional: true,
    aliases: ['construction class', 'construction type', 'construction material', 'structure type', 'building material'],
  },
] as const satisfies readonly AssetField[];

export type AssetFieldKey = (typeof ASSET_FIELDS)[number]['key'];

/**
 * Construction classes of a building (issue 33 item 6): each selects a FEMA Hazus hurricane wind damage function by
 * storeys and occupancy (docs/methodology/engine.md §1.3a). Empty = unknown: the regional Emanuel curve applies.
 */
export const CONSTRUCTION_CLASSES = ['concrete', 'steel', 'masonry', 'wood', 'manufactured'] as const;
export type ConstructionClass = (typeof CONSTRUCTION_CLASSES)[number];

/** Other spellings of the classes accepted in uploads and the API (lower case, single spaces). */
const CONSTRUCTION_SYNONYMS: Record<string, ConstructionClass> = {
  'reinforced concrete': 'concrete',
  rc: 'concrete',
  'steel frame': 'steel',
  'structural steel': 'steel',
  brick: 'masonry',
  'concrete block': 'masonry',
  blockwork: 'masonry',
  timber: 'wood',
  'timber frame': 'wood',
  'wood frame': 'wood',
  'manufactured home': 'manufactured',
  'manufactured housing': 'manufactured',
  'mobile home': 'manufactured',
};

/** The construction class a cell or field names: null for NA/empty, undefined for a value that is not a class. */
export function constructionClassOf(v: unknown): ConstructionClass | null | undefined {
  if (isNA(v)) return null;
  if (typeof v !== 'string') return undefined;
  const s = v
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if ((CONSTRUCTION_CLASSES as readonly string[]).includes(s)) return s as ConstructionClass;
  return CONSTRUCTION_SYNONYMS[s];
}

/** The sentence naming the field when a construction value is not a class. */
export function constructionClassError(field: string, v: unknown): string {
  return `${field} '${String(v).slice(0, 40)}' is not a construction class (${CONSTRUCTION_CLASSES.join(', ')})`;
}

/**
 * Longest property type, characters. The type is free text, in an upload and in the results API alike: known types,
 * their labels and common synonyms select the type's vulnerability and business-interruption figures; any other
 * text is kept as written and analysed as Commercial (engine property-types.ts propertyTypeOf).
 */
export const PROPERTY_TYPE_MAX = 80;

/**
 * A property-type cell or field as every asset path reads it (upload rows, the results API's posted assets): null for
 * NA (empty, "NA", "-"...), the trimmed text otherwise, or an error sentence naming `field` when it is too long.
 */
export function parsePropertyType(v: unknown, field: string): { value: string | null } | { error: string } {
  if (isNA(v)) return { value: null };
  const s = String(v).trim();
  if (s.length > PROPERTY_TYPE_MAX) return { error: `${field} is longer than ${PROPERTY_TYPE_MAX} characters` };
  return { value: s };
}

/** Why an asset at latitude 0, longitude 0 is refused (upload rows and posted assets): it is a missing location written as zeros. */
export const NULL_ISLAND_MESSAGE = "latitude and longitude are both 0 (a point in the Gulf of Guinea): give the asset's real location";
export const isNullIsland = (latitude: number | null, longitude: number | null) => latitude === 0 && longitude === 0;

export const OPTIONAL_ASSET_FIELDS = ASSET_FIELDS.filter((f): boolean => (f as AssetField).optional === true).map((f) => f.key);

/** The NA sentinel of the spec: sent for empty values. */
export const NA = 'NA';

/** The text "NaN" (any case): refused where a number is expected, though `isNA` counts it as an empty cell. */
export function isNaNText(v: unknown): boolean {
  return typeof v === 'string' && v.trim().toLowerCase() === 'nan';
}

export function isNA(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'number') return Number.isNaN(v);
  const s = String(v).trim().toLowerCase();
  return s === '' || s === 'na' || s === 'n/a' || s === 'null' || s === 'none' || s === '-' || s === '--' || s === 'nan';
}

/** An optional sign, digits, and optionally a point followed by digits: nothing to trim, strip or scale. */
export const PLAIN_DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * A table row the importers skip, in the server (create_project) and in the web wizard's preview and row count alike:
 * every cell is empty or NA. Such rows are not assets and take no asset number.
 */
export function isBlankRow(cells: readonly unknown[]): boolean {
  return !cells.some((c) => !isNA(c));
}

const SUFFIX: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mm: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};

/**
 * Parses a number written by people: "1,250,000", "USD 1.2M", "$3.5bn", "2 500", "12.5%", "(1,000)" is refused.
 * Returns null for NA and an error sentence for text that is not a number.
 */
export function parseAmount(v: unknown): { value: number | null } | { error: string } {
  // A plain decimal ("1234", "-5.5") is what nearly every cell of a large upload holds: the answer the steps below
  // give it (no NA, no unit, no separator), without their string copies and regular expressions.
  if (typeof v === 'string' && PLAIN_DECIMAL.test(v)) {
    const value = Number(v);
    return Math.abs(value) > 1e15 ? { error: `'${v.slice(0, 40)}' is out of range` } : { value };
  }
  // "NaN" is what a program writes for a failed computation, not a person's "no value": refused like other non-numbers
  // (the asset table's edit path refuses it too). An empty cell, NA, n/a or "-" is still "no value".
  if (isNaNText(v)) return { error: `'${String(v).trim().slice(0, 40)}' is not a number` };
  if (isNA(v)) return { value: null };
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : { error: 'is not a finite number' };
  if (typeof v === 'boolean') return { error: 'is not a number' };
  let s = String(v).trim().toLowerCase();
  s = s.replace(/^(usd|us\$|\$|hkd|hk\$)\s*/, '').replace(/\s*(usd|gwh|kg|m2|m²|sqm|%)$/, '');
  s = s.replace(/(\d)[\s,_'](?=\d{3}(\D|$))/g, '$1');
  const m = /^([+-]?\d*\.?\d+(?:e[+-]?\d+)?)\s*([a-z]+)?$/.exec(s);
  if (!m) return { error: `'${String(v).slice(0, 40)}' is not a number` };
  const base = Number(m[1]);
  const mult = m[2] ? SUFFIX[m[2]] : 1;
  if (mult === undefined) return { error: `'${String(v).slice(0, 40)}' has an unknown unit '${m[2]}'` };
  const value = base * mult;
  if (!Number.isFinite(value) || Math.abs(value) > 1e15) return { error: `'${String(v).slice(0, 40)}' is out of range` };
  return { value };
}

/** Normalises a header for matching: lower case, units in brackets dropped, punctuation to spaces. */
export function normaliseHeader(h: unknown): string {
  return String(h ?? '')
    .toLowerCase()
    .replace(/\(.*?\)|\[.*?\]/g, ' ')
    .replace(/[^a-z0-9%²]+/g, ' ')
    .trim();
}

/**
 * The headers of an upload's header row that name no asset field (issue 23: a misspelt `proprty type` column was
 * dropped without a word): non-empty, in file order, each once. The upload is not refused for them.
 */
export function unknownAssetColumns(headerRow: readonly unknown[]): string[] {
  // a Set: a header of 200,000 columns took 98 s with a list's includes (issue 32)
  const out = new Set<string>();
  for (const h of headerRow) {
    const text = String(h ?? '').trim();
    if (!text || out.has(text) || assetFieldForHeader(h) !== undefined) continue;
    out.add(text);
  }
  return [...out];
}

/** Keys of a JSON `data` location that the server reads (asset fields and the accepted spellings). */
export const ASSET_JSON_KEYS: readonly string[] = ['lat', 'long', 'lng', 'lon', 'floors', 'country_code'];

/** The warning shown (upload answer and the web wizard) when columns are not recognised. */
export function unknownColumnsWarning(columns: readonly string[], what: 'column' | 'field' = 'column'): string {
  const list =
    columns
      .slice(0, 20)
      .map((c) => `'${c.slice(0, 60)}'`)
      .join(', ') + (columns.length > 20 ? ` and ${columns.length - 20} more` : '');
  const one = columns.length === 1;
  return `${one ? `The ${what}` : `${columns.length} ${what}s`} ${list} ${one ? `is not a known asset ${what} and was` : `are not known asset ${what}s and were`} not imported (check the spelling against the template, e.g. 'property type', 'valuation', 'floors').`;
}

/** Maps an uploaded header to a field key, or undefined. */
export function assetFieldForHeader(h: unknown): AssetFieldKey | undefined {
  const n = normaliseHeader(h);
  return n ? headerKeys().get(n) : undefined;
}

let HEADER_KEYS: Map<string, AssetFieldKey> | null = null;
/**
 * Every accepted spelling (normalised header, key, label, alias) to its field, the first field in ASSET_FIELDS order
 * winning: one lookup per column instead of normalising every spelling again (a 200,000-column header took seconds;
 * issue 32).
 */
function headerKeys(): Map<string, AssetFieldKey> {
  if (HEADER_KEYS) return HEADER_KEYS;
  const m = new Map<string, AssetFieldKey>();
  for (const f of ASSET_FIELDS) {
    for (const spelling of [f.header, f.key.replace(/_/g, ' '), f.label, ...(f.aliases as readonly string[])]) {
      const n = normaliseHeader(spelling);
      if (n && !m.has(n)) m.set(n, f.key);
    }
  }
  return (HEADER_KEYS = m);
}
