import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT } from '../src/config.js';
import { fullValid, send, type FuzzRequest, type Known } from './support/fuzz.js';
import { openApiRoutes, type JsonSchema, type OpenApiRoute } from './support/openapi-routes.js';
import { newUser, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Every integer id is bounded by its column type (issue 32): the id columns are `serial` (PostgreSQL `integer`,
 * 1..2,147,483,647), and an id of 2^31 or more used to reach a query and answer 500 on nine routes. This walks every
 * route of docs/openapi.json as a signed-in owner of a real, analysed project and sets each integer slot in turn (path
 * and query parameters, JSON body fields at any depth) that is an id or has no bound within int4 to 2^31 and to 10^11,
 * the rest of the request valid: no answer may be a 5xx; an out-of-range id is a 400 naming the field or a 404. The
 * largest valid id, 2,147,483,647, must not be a 5xx either.
 */

const INT4_MAX = 2_147_483_647;
const OUT_OF_RANGE = [2 ** 31, 1e11];
/** Field names that hold a row id (`id`, `project_id`, `userId`, `ids`, `share_with`: user ids). */
const ID_NAME = /^(id|ids|share_with)$|_ids?$|Id$/;

interface Slot {
  where: 'path' | 'query' | 'body';
  /** The field as the error names it: `project_id`, `assets.0.id`, `ids.0`. */
  field: string;
  path: string[];
}

function integerType(s: JsonSchema | undefined): boolean {
  if (!s) return false;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.includes('integer') || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(integerType);
}
/** An integer slot this test sets: an id by name, or any integer whose schema allows more than int4 holds. */
const wanted = (name: string, s: JsonSchema | undefined) => integerType(s) && (ID_NAME.test(name) || s?.maximum === undefined || s.maximum > INT4_MAX);

/** The integer slots of a body built by fullValid (arrays hold one item), with the schema beside each value. */
function bodySlots(schema: JsonSchema | undefined, value: unknown, path: string[] = []): Slot[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const s = schema.anyOf?.find((a) => a.type !== 'null') ?? schema.oneOf?.find((a) => a.type !== 'null') ?? schema;
  if (Array.isArray(value)) {
    const name = path[path.length - 1] ?? '';
    if (value.length && typeof value[0] === 'number' && (ID_NAME.test(name) || wanted(name, s.items)))
      return [{ where: 'body', field: [...path, '0'].join('.'), path: [...path, '0'] }];
    return value.length ? bodySlots(s.items, value[0], [...path, '0']) : [];
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const ps = s.properties?.[k];
    if (typeof v === 'number') return ID_NAME.test(k) || wanted(k, ps) ? [{ where: 'body' as const, field: [...path, k].join('.'), path: [...path, k] }] : [];
    return bodySlots(ps, v, [...path, k]);
  });
}

function withValueAt(body: unknown, path: string[], v: number): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  let o: Record<string, unknown> = copy;
  for (const p of path.slice(0, -1)) o = o[p] as Record<string, unknown>;
  o[path[path.length - 1]!] = v;
  return copy;
}

describe('every integer id is bounded by its column type: 2^31 and 10^11 at every id of every route', { timeout: 600_000 }, () => {
  let s: TestServer;
  let token = '';
  let known: Known;
  let routes: OpenApiRoute[] = [];

  before(async () => {
    s = await startServer({}, { jobs: true });
    const owner = await registerAndLogin(s.api);
    token = owner.token;
    const p = await s.api.post('/api/v2/create_project/', {
      token,
      json: {
        portfolio_name: 'Id bounds',
        data: [{ name: 'Office', latitude: 22.28, longitude: 114.16, valuation: 2e8 }],
        portfolio_variables: ['Extreme Heat'],
      },
    });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    const projectId = p.body.project.project_id as number;
    await waitForAnalysis(s, token, projectId);
    const member = await s.api.post('/api/user/register/', { json: newUser({ company_code: owner.company_code }) });
    const assetIds = (await s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).execute()).map((r) => r.id);
    known = {
      ids: [[assetIds[0]]],
      asset_ids: [assetIds],
      scenario: ['45'],
      bbox: [[113, 22, 115, 23]],
      userId: [owner.userId],
      projectId: [projectId],
      project_id: [projectId],
      user_id: [member.body.user.id],
      project_name: ['Id bounds'],
      portfolio_name: ['Id bounds'],
      name: ['Id bounds'],
      latitude: [22.3],
      longitude: [114.2],
      layer: ['wildfire'],
      method: ['app'],
    };
    routes = openApiRoutes(JSON.parse(readFileSync(join(REPO_ROOT, 'docs/openapi.json'), 'utf8')));
  });
  after(() => s?.close());

  test('no 5xx; out-of-range ids are a 400 naming the field or a 404', async () => {
    assert.ok(routes.length > 60, `routes in docs/openapi.json: ${routes.length}`);
    const failures: string[] = [];
    let sent = 0;
    const covered = new Set<string>();
    for (const route of routes) {
      if (route.key.includes('logout')) continue; // would end the session the other calls use (and take no id)
      const params = route.parameters.filter((p) => p.in === 'path' || p.in === 'query');
      const schema = route.body['application/json'];
      const body = route.method !== 'GET' && schema?.properties ? fullValid(schema, '', known) : undefined;
      const slots: Slot[] = [
        ...params.filter((p) => wanted(p.name, p.schema)).map((p) => ({ where: p.in as 'path' | 'query', field: p.name, path: [p.name] })),
        ...bodySlots(schema, body),
      ];
      for (const slot of slots) {
        for (const v of [INT4_MAX, ...OUT_OF_RANGE]) {
          const value = (p: { name: string }) => (slot.where !== 'body' && p.name === slot.field ? v : (known[p.name]?.[0] ?? 1));
          const path = route.path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(String(value({ name: n }))));
          const query = params
            .filter((p) => p.in === 'query' && (p.required || p.name === slot.field))
            .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(value(p)))}`)
            .join('&');
          const r: FuzzRequest = {
            method: route.method,
            path,
            query: query ? `?${query}` : '',
            encoding: body === undefined ? 'none' : 'json',
            body: slot.where === 'body' ? withValueAt(body, slot.path, v) : body,
          };
          const res = await send(s.url, r, token);
          sent += 1;
          covered.add(`${route.key} ${slot.where}:${slot.field}`);
          const answer = `${res.status} ${JSON.stringify(res.body).slice(0, 240)}`;
          const where = `${route.key} ${slot.where} ${slot.field}=${v}`;
          if (res.status >= 500) failures.push(`${where}: ${answer}`);
          else if (v > INT4_MAX && ID_NAME.test(slot.path[slot.path.length - 1] === '0' ? slot.path[slot.path.length - 2]! : slot.field)) {
            const b = res.body as { detail?: string; errors?: { field: string }[] } | null;
            const named = b?.errors?.some((e) => e.field === slot.field) || b?.detail?.includes(slot.field.replace(/\.0$/, ''));
            if (!(res.status === 404 || (res.status === 400 && named))) failures.push(`${where}: wanted 400 naming the field or 404, got ${answer}`);
          }
        }
      }
    }
    console.log(`id bounds: ${covered.size} integer slots on ${routes.length} routes, ${sent} requests`);
    assert.ok(covered.size > 40, `integer slots walked: ${covered.size}\n${[...covered].join('\n')}`);
    assert.deepEqual(failures, [], `\n${failures.join('\n')}`);
  });
});
