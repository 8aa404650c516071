/**
 * The assets of a large analysis as its dashboard store keeps them (one row per batch in dashboard_slices, job
 * ASSETS_JOB): the columns the dashboard reads (DashboardAsset), as the analysis saw them. A dashboard query after a
 * restart reads these few blobs (about 60 bytes an asset) instead of a million rows of the assets table, and keeps
 * objects of 19 fields instead of whole rows with their engine input.
 *
 * Layout of one batch of n assets (little-endian, before deflate): u32 n, u32 JSON bytes; Float64 columns (NUMBERS,
 * NaN = null) n each; Int32 ids; Int16 country and property-type indices into the JSON's dictionary (-1 = null);
 * Int8 basement (-1 null, 0, 1); the JSON {names, dict, construction?}. `construction` (index into
 * CONSTRUCTION_CLASSES, -1 = null) is there only when an asset of the batch has a class, so batches stored before the
 * column existed read as they are (every class null).
 */
import { CONSTRUCTION_CLASSES, type ConstructionClass } from '@crp/contracts';
import type { DashboardAsset } from '../analysis/results-reader.js';

/** The job number of the asset rows in dashboard_slices (scenario-year jobs are 0 and up). */
export const ASSETS_JOB = -1;

const NUMBERS = [
  'latitude',
  'longitude',
  'revenue',
  'construction_cost',
  'area',
  'valuation',
  'stories',
  'ownership',
  'building_age',
  'plinth_height',
  'flood_protection',
  'mitigation_risk',
  'content_value',
  'yearly_inventory_value',
] as const satisfies readonly (keyof DashboardAsset)[];

export function encodeAssets(rows: readonly DashboardAsset[]): Uint8Array {
  const n = rows.length;
  const dict: string[] = [];
  const at = new Map<string, number>();
  const code = (s: string | null) => {
    if (s === null) return -1;
    let j = at.get(s);
    if (j === undefined) at.set(s, (j = dict.push(s) - 1));
    return j;
  };
  const cc = new Int16Array(n),
    pt = new Int16Array(n),
    basement = new Int8Array(n),
    ids = new Int32Array(n);
  const cols = NUMBERS.map(() => new Float64Array(n));
  rows.forEach((a, i) => {
    NUMBERS.forEach((k, c) => (cols[c]![i] = a[k] ?? Number.NaN));
    ids[i] = a.id;
    cc[i] = code(a.country_code);
    pt[i] = code(a.property_type);
    basement[i] = a.basement === null ? -1 : a.basement ? 1 : 0;
  });
  if (dict.length > 32767) throw new Error('too many distinct countries and property types in one batch');
  const construction = rows.some((a) => a.construction !== null)
    ? rows.map((a) => (a.construction === null ? -1 : CONSTRUCTION_CLASSES.indexOf(a.construction)))
    : undefined;
  const json = Buffer.from(JSON.stringify({ names: rows.map((a) => a.name), dict, construction }), 'utf8');
  const head = new Uint32Array([n, json.byteLength]);
  return Buffer.concat([head, ...cols, ids, cc, pt, basement, json].map((x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
}

/** The assets of one batch (`raw` inflated, starting at a multiple of 8 bytes), in position order. */
export function decodeAssets(raw: Uint8Array): DashboardAsset[] {
  const head = new Uint32Array(raw.buffer, raw.byteOffset, 2);
  const n = head[0]!,
    jsonBytes = head[1]!;
  let o = raw.byteOffset + 8;
  const take = <T>(make: (buf: ArrayBufferLike, off: number, len: number) => T, bytes: number) => {
    const out = make(raw.buffer, o, n);
    o += bytes * n;
    return out;
  };
  const cols = NUMBERS.map(() => take((b, off, len) => new Float64Array(b, off, len), 8));
  const ids = take((b, off, len) => new Int32Array(b, off, len), 4);
  const cc = take((b, off, len) => new Int16Array(b, off, len), 2);
  const pt = take((b, off, len) => new Int16Array(b, off, len), 2);
  const basement = take((b, off, len) => new Int8Array(b, off, len), 1);
  const { names, dict, construction } = JSON.parse(Buffer.from(raw.buffer, o, jsonBytes).toString('utf8')) as {
    names: string[];
    dict: string[];
    construction?: number[];
  };
  const classOf = (i: number): ConstructionClass | null => {
    const c = construction?.[i] ?? -1;
    return c < 0 ? null : (CONSTRUCTION_CLASSES[c] ?? null);
  };
  const [lat, lon, revenue, cost, area, valuation, stories, ownership, age, plinth, protection, mitigation, content, inventory] = cols as [
    Float64Array,
    ...Float64Array[],
  ];
  const v = (col: Float64Array | undefined, i: number) => {
    const x = col![i]!;
    return Number.isNaN(x) ? null : x;
  };
  const out: DashboardAsset[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const b = basement[i]!;
    out[i] = {
      id: ids[i]!,
      name: names[i]!,
      latitude: lat[i]!,
      longitude: lon![i]!,
      country_code: cc[i]! < 0 ? null : dict[cc[i]!]!,
      property_type: pt[i]! < 0 ? null : dict[pt[i]!]!,
      revenue: v(revenue, i),
      construction_cost: v(cost, i),
      area: v(area, i),
      valuation: v(valuation, i),
      stories: v(stories, i),
      ownership: v(ownership, i),
      building_age: v(age, i),
      basement: b < 0 ? null : b === 1,
      plinth_height: v(plinth, i),
      flood_protection: v(protection, i),
      construction: classOf(i),
      mitigation_risk: v(mitigation, i),
      content_value: v(content, i),
      yearly_inventory_value: v(inventory, i),
    };
  }
  return out;
}

/** The assets table's columns of a DashboardAsset. */
export const DASHBOARD_ASSET_COLUMNS = [
  'id',
  'name',
  'country_code',
  'property_type',
  'basement',
  'construction',
  ...NUMBERS,
] as const satisfies readonly (keyof DashboardAsset)[];

/** An asset row reduced to what the dashboard reads (a plain object of one shape, whatever the row held). */
export function dashboardAssetOf(a: DashboardAsset): DashboardAsset {
  return {
    id: a.id,
    name: a.name,
    latitude: a.latitude,
    longitude: a.longitude,
    country_code: a.country_code,
    property_type: a.property_type,
    revenue: a.revenue,
    construction_cost: a.construction_cost,
    area: a.area,
    valuation: a.valuation,
    stories: a.stories,
    ownership: a.ownership,
    building_age: a.building_age,
    basement: a.basement,
    plinth_height: a.plinth_height,
    flood_protection: a.flood_protection,
    construction: a.construction,
    mitigation_risk: a.mitigation_risk,
    content_value: a.content_value,
    yearly_inventory_value: a.yearly_inventory_value,
  };
}
