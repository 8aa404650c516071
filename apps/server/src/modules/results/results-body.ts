/**
 * CSV and GeoJSON bodies of the results API (issue 38 item 1): a CSV with a header row (the upload template's columns)
 * or a GeoJSON FeatureCollection of Point features becomes the `assets` of a ResultsRequest, read and checked by the
 * upload's own code (asset-import.ts: the same column names and synonyms, value checks and sentences); the other
 * options come from the query string. Then the request is validated as a JSON one.
 */
import { RESULTS_MAX_ASSETS } from '@crp/contracts';
import { AppError } from '../../lib/errors.js';
import {
  recordsFromJson,
  recordsFromTable,
  readUploadTable,
  unknownJsonKeys,
  unknownTableColumns,
  validateAssets,
  type ImportedAsset,
} from '../projects/asset-import.js';

/** Media types of the bodies read here. */
export const TABLE_BODY_TYPES = ['text/csv', 'application/geo+json'] as const;
export type TableBodyType = (typeof TABLE_BODY_TYPES)[number];

/** Query-string options that go with a CSV or GeoJSON body (a JSON body carries them as keys). */
export const BODY_OPTION_KEYS = ['hazards', 'analysis_type', 'scenarios', 'years', 'asset_ids', 'with_mitigation', 'gdp_adjusted'] as const;

/** Upload columns the results API does not analyse (non-building production and floor area): refused when filled. */
const NOT_READ = [
  'area',
  'solar_production',
  'wind_production',
  'hydro_production',
  'wheat_production',
  'rice_production',
  'maize_production',
  'fruit_production',
  'vegetable_production',
] as const;

/** Column or property names that carry the caller's own id of an asset (echoed as asset_id). */
const ID_KEYS = new Set(['id', 'asset_id', 'asset id']);

type Problem = { field: string; message: string };
const refuse = (detail: string, errors: Problem[]): never => {
  throw new AppError(400, detail, errors);
};

/** ImportedAsset (the upload's record) -> the results API's posted asset; `id` the caller's own id, if any. */
function postedAsset(a: ImportedAsset, id: unknown, field: string, problems: Problem[]): Record<string, unknown> {
  for (const k of NOT_READ)
    if (a[k] !== null && a[k] !== undefined)
      problems.push({
        field: `${field}.${k}`,
        message: `${k} is not read by the results API (buildings only): leave it empty, or upload the portfolio as a project`,
      });
  const out: Record<string, unknown> = { name: a.name, latitude: a.latitude, longitude: a.longitude };
  if (id !== undefined && id !== null && id !== '') out.id = typeof id === 'number' ? id : String(id);
  const copy = {
    property_type: a.property_type,
    valuation: a.valuation,
    construction_cost: a.construction_cost,
    revenue: a.revenue,
    ownership: a.ownership,
    floors: a.stories,
    flood_protection: a.flood_protection,
    construction: a.construction,
    country_code: a.country_code,
  };
  for (const [k, v] of Object.entries(copy)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** "Row 7: latitude 95.2 is outside -90..90" -> a named problem; `fieldOf(row)` names the row's field. */
function rowProblem(sentence: string, fieldOf: (row: number) => string): Problem {
  const m = /^Row (\d+): ([\s\S]*)$/.exec(sentence);
  return m ? { field: fieldOf(Number(m[1])), message: m[2]! } : { field: 'body', message: sentence };
}

function checked(records: { row: number; values: Record<string, unknown> }[], ids: unknown[], fieldOf: (row: number) => string, what: string) {
  if (records.length === 0) refuse(`The ${what} has no assets.`, [{ field: 'body', message: 'no assets' }]);
  if (records.length > RESULTS_MAX_ASSETS) {
    const msg = `at most ${RESULTS_MAX_ASSETS} assets per request; upload a larger portfolio as a project and ask by project_id`;
    refuse(`The ${what} has ${records.length} assets: ${msg}.`, [{ field: 'body', message: msg }]);
  }
  const { assets, errors } = validateAssets(records);
  const problems = errors.map((e) => rowProblem(e, fieldOf));
  if (problems.length === 0) {
    // validateAssets keeps the records' order and answers one asset per record when there are no problems
    const posted = assets.map((a, i) => postedAsset(a, ids[i], fieldOf(records[i]!.row), problems));
    if (problems.length === 0) return posted;
  }
  return refuse(`${problems.length} problem(s) in the ${what}: ${problems[0]!.field}: ${problems[0]!.message}`, problems);
}

/** The assets of a CSV body: a header row of the upload template's columns (any order, synonyms), one asset a row. */
export function assetsFromCsv(text: string): Record<string, unknown>[] {
  const table = readUploadTable({ filename: 'body.csv', data: Buffer.from(text, 'utf8') }, RESULTS_MAX_ASSETS + 1);
  const header = table.find((r) => r.some((c) => String(c ?? '').trim() !== '')) ?? [];
  const idColumn = header.findIndex((c) =>
    ID_KEYS.has(
      String(c ?? '')
        .trim()
        .toLowerCase(),
    ),
  );
  const rest = idColumn < 0 ? table : table.map((r) => r.filter((_, c) => c !== idColumn));
  const unknown = unknownTableColumns(rest);
  if (unknown.length)
    refuse(
      `The CSV body has columns the results API does not read: ${unknown.join(', ')}`,
      unknown.map((c) => ({ field: c, message: `unknown column '${c}' (the upload template's columns, and id)` })),
    );
  const records = recordsFromTable(rest);
  const headerRow = table.indexOf(header) + 1;
  if (!records.length || records[0]!.row === headerRow)
    refuse('The CSV body needs a header row naming its columns (name, lat, long, ...: the upload template).', [{ field: 'body', message: 'no header row' }]);
  const ids = records.map((r) => (idColumn < 0 ? undefined : table[r.row - 1]![idColumn]));
  return checked(records, ids, (row) => `row ${row}`, 'CSV body');
}

/** The assets of a GeoJSON FeatureCollection body: Point features, properties named as in a JSON upload. */
export function assetsFromFeatureCollection(fc: unknown): Record<string, unknown>[] {
  const o = fc as { type?: unknown; features?: unknown } | null;
  if (!o || typeof o !== 'object' || o.type !== 'FeatureCollection' || !Array.isArray(o.features))
    refuse('The GeoJSON body must be a FeatureCollection (RFC 7946) of Point features.', [{ field: 'type', message: 'not a FeatureCollection' }]);
  const features = (o as { features: unknown[] }).features;
  const problems: Problem[] = [];
  const items: Record<string, unknown>[] = [];
  const ids: unknown[] = [];
  features.forEach((f, i) => {
    const feat = (f ?? {}) as {
      type?: unknown;
      id?: unknown;
      geometry?: { type?: unknown; coordinates?: unknown } | null;
      properties?: Record<string, unknown> | null;
    };
    const g = feat.geometry;
    const c = g?.coordinates;
    if (feat.type !== 'Feature' || !g || g.type !== 'Point' || !Array.isArray(c) || c.length < 2 || typeof c[0] !== 'number' || typeof c[1] !== 'number') {
      problems.push({ field: `features.${i}.geometry`, message: `a Point geometry [longitude, latitude] is required (found ${g?.type ?? 'none'})` });
      return;
    }
    const props = { ...(feat.properties ?? {}) };
    let id = feat.id;
    for (const k of Object.keys(props))
      if (ID_KEYS.has(k)) {
        id ??= props[k];
        delete props[k];
      }
    ids.push(id);
    items.push({ ...props, longitude: c[0], latitude: c[1] });
  });
  if (problems.length) refuse(`${problems.length} problem(s) in the GeoJSON body: ${problems[0]!.field}: ${problems[0]!.message}`, problems);
  const unknown = unknownJsonKeys(items);
  if (unknown.length)
    refuse(
      `The GeoJSON body has properties the results API does not read: ${unknown.join(', ')}`,
      unknown.map((k) => ({ field: k, message: `unknown property '${k}' (the upload template's fields, and id)` })),
    );
  return checked(recordsFromJson(items), ids, (row) => `features.${row - 1}`, 'GeoJSON body');
}

/** Query-string options (hazards=typhoon,river_flood&years=2030,2050...) as the JSON request's keys. */
export function optionsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const list = (v: unknown) =>
    String(v)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v);
  for (const k of BODY_OPTION_KEYS) {
    const v = query[k];
    if (v === undefined) continue;
    if (k === 'hazards' || k === 'scenarios' || k === 'asset_ids') out[k] = list(v);
    else if (k === 'years') out[k] = list(v).map((y) => (/^\d+$/.test(y) ? Number(y) : y));
    else if (k === 'with_mitigation' || k === 'gdp_adjusted') out[k] = bool(v);
    else out[k] = v;
  }
  return out;
}

/** The JSON request a CSV or GeoJSON body stands for. */
export function requestFromBody(type: TableBodyType, body: unknown, query: Record<string, unknown>): Record<string, unknown> {
  const assets = type === 'text/csv' ? assetsFromCsv(String(body ?? '')) : assetsFromFeatureCollection(body);
  return { assets, ...optionsFromQuery(query) };
}
