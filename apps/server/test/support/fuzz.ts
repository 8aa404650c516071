/**
 * Hostile-input generators (fast-check) and a raw HTTP sender for the fuzz suite: values built from a route's
 * JSON schema, then mutated into wrong types, extremes, odd unicode, formula strings, prototype keys and deep nesting.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import type { DB } from '../../src/infra/db/database.js';
import type { JsonSchema, OpenApiRoute } from './openapi-routes.js';

export const LONG = 'x'.repeat(100_000);

/** Strings that have broken parsers, spreadsheets, paths and databases before. */
export const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\t',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '1e308',
  '1e309',
  '-1e309',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '1,000.5',
  '1_000',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  "=CMD|' /C calc'!A0",
  '=HYPERLINK("http://evil.example","x")',
  '+SUM(1,2)',
  '@SUM(A1:A2)',
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  'a\u0000b',
  '\u0000',
  '\u202Eevil\u202C.csv',
  'مرحبا بالعالم',
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  '\uD800',
  '\uDFFF',
  'a\uD83Db',
  '\uFEFF',
  '\uFFFF',
  "'; drop table users; --",
  "' or '1'='1",
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '%s%s%s%n',
  '%',
  '%ff',
  '\\',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  LONG,
  `=${LONG}`,
  'ü'.repeat(50_000),
  '😀'.repeat(30_000),
];

export const HOSTILE_NUMBERS: number[] = [
  0,
  -0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_SAFE_INTEGER - 2,
  2 ** 31,
  2 ** 53,
  5e-324,
  2147483647,
  2147483648,
  -2147483649,
];

/** Nesting `depth` levels of arrays or objects. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

const protoObject = (): unknown => JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}');

/** Any hostile value: wrong types, extremes, odd strings, containers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, [null], [LONG], { '': '' }) },
  { weight: 1, arbitrary: fc.constantFrom(32, 2000).chain((d) => fc.constantFrom(nested(d, 'array'), nested(d, 'object'))) },
  { weight: 1, arbitrary: fc.constant(null).map(protoObject) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 100)), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(10_000, 200_000).map((n) => Array.from({ length: n }, (_, i) => i)) },
);

/** Values known to the fixture (a real project id, the owner's id, a real name) by field name, so calls reach the service. */
export type Known = Record<string, unknown[]>;

/** A value that satisfies `schema` (best effort), preferring the fixture's known values for the field. */
export function validFor(schema: JsonSchema | undefined, field: string, known: Known): fc.Arbitrary<unknown> {
  const k = known[field];
  const own = ownValid(schema ?? {}, known);
  return k?.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...k) }, { weight: 1, arbitrary: own }) : own;
}

function ownValid(s: JsonSchema, known: Known): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => ownValid(a, known)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) });
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -2_147_483_648), max: Math.min(s.maximum ?? 1_000_000, 2_147_483_647) });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(ownValid(s.items ?? {}, known), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)) }); // a fixed-length list (a bbox: 4) needs its minimum
    case 'object':
      return objectFor(s, known, 0);
    default:
      return hostileValue;
  }
}

/**
 * An object for an object schema: each property is left out, valid, or hostile; sometimes required ones go missing
 * and unknown or prototype keys are added.
 */
export function objectFor(s: JsonSchema, known: Known, hostileWeight = 1): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const entries = props.map(([name, ps]) =>
    fc
      .oneof(
        { weight: required.has(name) ? 1 : 3, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: validFor(ps, name, known) },
        { weight: hostileWeight * 3, arbitrary: hostileValue },
      )
      .map((v) => [name, v] as const),
  );
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as (readonly [string, unknown])[]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '', 'x'.repeat(1000), 'a.b', '$where'), hostileValue)
        .map((e) => [e]),
    },
  );
  return fc.tuple(fc.tuple(...entries), extra).map(([es, ex]) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of [...es, ...ex]) if (v !== undefined) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  });
}

export type Encoding = 'json' | 'form' | 'multipart' | 'invalid-json' | 'wrong-type' | 'none' | 'json-scalar';

export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  encoding: Encoding;
  body: unknown;
}

/** Path segments that try to leave the route or break URL decoding (sent as they are, not encoded again). */
export const RAW_SEGMENTS = [
  '..',
  '%2e%2e',
  '%2e%2e%2f',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%00',
  'a%00b',
  '%ff%fe',
  '%',
  '%zz',
  '-1',
  '0',
  '1e3',
  '0x10',
  '99999999999999999999',
  '%20',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%ED%A0%80',
];

const segment = (schema: JsonSchema | undefined, name: string, known: Known): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: validFor(schema, name, known).map((v) => encodeURIComponent(typeof v === 'string' ? v : String(v))) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    {
      weight: 2,
      arbitrary: hostileValue.map((v) => encodeURIComponent(typeof v === 'string' ? v.slice(0, 300) : (JSON.stringify(v)?.slice(0, 300) ?? 'undefined'))),
    },
  );

/** Query strings: generated from the parameters, or raw ones that break parsers. */
function queryFor(route: OpenApiRoute, known: Known): fc.Arbitrary<string> {
  const params = route.parameters.filter((p) => p.in === 'query');
  const generated = objectFor(
    {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? {}])),
      required: params.filter((p) => p.required).map((p) => p.name),
    },
    known,
  ).map((o) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) {
      if (Array.isArray(v) && v.length < 100) for (const x of v) q.append(k, typeof x === 'string' ? x : (JSON.stringify(x) ?? ''));
      else q.append(k, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
    }
    const s = q.toString();
    return s ? `?${s}` : '';
  });
  const raw = fc.constantFrom(
    '?%',
    '?a=%zz',
    '?__proto__[polluted]=yes',
    '?constructor[prototype][polluted]=yes',
    '?x=1&x=2&x=3',
    `?q=${'a'.repeat(10_000)}`,
    '?=&=&&',
    '?%00=%00',
  );
  return fc.oneof({ weight: 5, arbitrary: generated }, { weight: 1, arbitrary: raw });
}

/** One fuzzed request for a route. */
export function requestFor(route: OpenApiRoute, known: Known): fc.Arbitrary<FuzzRequest> {
  const pathParams = route.parameters.filter((p) => p.in === 'path');
  const path = fc.tuple(...pathParams.map((p) => segment(p.schema, p.name, known).map((v) => [p.name, v] as const))).map((pairs) => {
    let out = route.path;
    for (const [n, v] of pairs) out = out.replace(`{${n}}`, v);
    return out;
  });
  const schema = route.body['application/json'] ?? Object.values(route.body)[0];
  const hasBody = route.method !== 'GET';
  const body: fc.Arbitrary<unknown> = schema?.properties
    ? fc.oneof({ weight: 6, arbitrary: objectFor(schema, known) }, { weight: 1, arbitrary: hostileValue })
    : hostileValue;
  const encodings: Encoding[] = hasBody ? ['json', 'json', 'json', 'form', 'form', 'multipart', 'invalid-json', 'wrong-type', 'none', 'json-scalar'] : ['none'];
  return fc.record({
    method: fc.constant(route.method),
    path: pathParams.length ? path : fc.constant(route.path),
    query: queryFor(route, known),
    encoding: fc.constantFrom(...encodings),
    body,
  });
}

const asField = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

export interface Sent {
  status: number;
  body: unknown;
  contentType: string;
}

/** Sends a fuzzed request over a real socket; event streams are cut after their headers. */
export async function send(base: string, r: FuzzRequest, token: string | null): Promise<Sent> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Token ${token}`;
  let body: string | FormData | undefined;
  switch (r.encoding) {
    case 'json':
      headers['content-type'] = 'application/json';
      body = JSON.stringify(r.body) ?? 'null';
      break;
    case 'json-scalar':
      headers['content-type'] = 'application/json';
      body = typeof r.body === 'string' ? JSON.stringify(r.body) : 'NaN';
      break;
    case 'form': {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const f = new URLSearchParams();
      if (r.body && typeof r.body === 'object' && !Array.isArray(r.body)) for (const [k, v] of Object.entries(r.body)) f.append(k, asField(v));
      else f.append('value', asField(r.body));
      body = f.toString();
      break;
    }
    case 'multipart': {
      const fd = new FormData();
      if (r.body && typeof r.body === 'object' && !Array.isArray(r.body)) for (const [k, v] of Object.entries(r.body)) fd.append(k, asField(v));
      else fd.append('value', asField(r.body));
      body = fd;
      break;
    }
    case 'invalid-json':
      headers['content-type'] = 'application/json';
      body = asField(r.body).slice(0, 5000) + '{"a":';
      break;
    case 'wrong-type':
      headers['content-type'] = 'application/xml';
      body = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`;
      break;
    case 'none':
      break;
  }
  const res = await fetch(base + r.path + r.query, { method: r.method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(60_000) });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: null, contentType };
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, contentType };
}

/** A 4xx answer must carry a non-empty `detail` sentence. Returns the problem, or null. */
export function checkAnswer(res: Sent): string | null {
  if (res.status >= 500) return `status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`;
  if (res.status >= 400) {
    const d = (res.body as { detail?: unknown } | null)?.detail;
    if (typeof d !== 'string' || !d.trim()) return `status ${res.status} without a detail: ${JSON.stringify(res.body).slice(0, 300)}`;
  }
  return null;
}

/** Tables whose row counts must not move when a request is refused (sessions, throttling and the audit log may). */
export const DATA_TABLES = [
  'companies',
  'users',
  'email_codes',
  'notifications',
  'outbox_emails',
  'demo_requests',
  'projects',
  'assets',
  'project_shares',
  'jobs',
  'analysis_results',
  'files',
  'reports',
  'carbon_portfolios',
  'carbon_companies',
  'property_risk_sites',
  'map_projects',
] as const;

export async function tableCounts(db: DB): Promise<Record<string, number>> {
  const cols = DATA_TABLES.map((t) => sql`(select count(*) from ${sql.table(t)})::int as ${sql.ref(t)}`);
  const r = await sql<Record<string, number>>`select ${sql.join(cols)}`.execute(db);
  return r.rows[0]!;
}

export function countDiff(before: Record<string, number>, after: Record<string, number>): string | null {
  const moved = Object.keys(before).filter((k) => before[k] !== after[k]);
  return moved.length ? moved.map((k) => `${k} ${before[k]} -> ${after[k]}`).join(', ') : null;
}

/**
 * A body with every property of `schema` filled with a valid value (the fixture's known value for the field when there
 * is one), arrays with one item: the base on which the NUL walk puts U+0000 into one string at a time.
 */
export function fullValid(schema: JsonSchema | undefined, field: string, known: Known, depth = 0): unknown {
  const k = known[field]?.[0];
  if (k !== undefined && depth > 0) return k;
  const s = schema ?? {};
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  // alternatives of a value; an object's own `oneOf` of required keys (ResultsRequest) only constrains its properties
  const alts = s.anyOf ?? (s.properties ? undefined : s.oneOf);
  if (alts?.length) return fullValid(alts.find((a) => a.type !== 'null') ?? alts[0], field, known, depth);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return 'Fuzz'.padEnd(Math.max(4, s.minLength ?? 0), 'z');
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return depth > 6 ? [] : [fullValid(s.items, field, known, depth + 1)];
    case 'object':
      if (depth > 6) return {};
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, ps]) => [name, fullValid(ps, name, known, depth + 1)]));
    default:
      return 'Fuzz';
  }
}

/** The dotted paths of every string in `value` (`data.0.name`), for the NUL walk. */
export function stringPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value === 'string') return [prefix];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...prefix, String(i)]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...prefix, k]));
  return [];
}

/** A deep copy of `value` with a NUL put into the string at `path`. */
export function withNulAt(value: unknown, path: string[]): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  let o: Record<string, unknown> = copy;
  for (const p of path.slice(0, -1)) o = o[p] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  const v = String(o[last]);
  o[last] = `${v.slice(0, 1)}\u0000${v.slice(1)}`;
  return copy;
}
