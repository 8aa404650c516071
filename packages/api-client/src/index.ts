/**
 * A small typed client of the platform's HTTP API. The types are generated from docs/openapi.json
 * (src/generated/openapi.ts, `npm run openapi`), so a call's path, parameters, body and answer are checked against
 * the server's own schemas at compile time. Uses the global fetch (Node 18+, browsers); no other dependency.
 *
 *   const api = createApiClient({ baseUrl: 'https://risk.example.com', token });
 *   const { results } = await api.assetResults({ assets: [{ name: 'HQ', latitude: 22.3, longitude: 114.17 }], years: [2050] });
 */
import type { components, operations, paths } from './generated/openapi.js';

export type { components, operations, paths };
export type AssetResult = components['schemas']['AssetResult'];
export type ResultsResponse = components['schemas']['ResultsResponse'];
export type ResultsAsset = components['schemas']['ResultsAssetInput'];

type Method = 'get' | 'post';
type Op<P extends keyof paths, M extends Method> = paths[P][M] extends infer O ? (O extends { responses: unknown } ? O : never) : never;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : unknown;
/** The JSON answer of the first 2xx response of an operation. */
export type OkBody<O> = O extends { responses: infer R }
  ? R extends { 200: infer A }
    ? JsonOf<A>
    : R extends { 201: infer A }
      ? JsonOf<A>
      : unknown
  : unknown;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
type PathOf<O> = O extends { parameters: { path: infer P } } ? (P extends Record<string, unknown> ? P : never) : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? (Q extends Record<string, unknown> ? Q : never) : never;

export interface RequestInit<O> {
  params?: PathOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
}

/** A non-2xx answer: the server's `{detail, errors?: [{field, message}]}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: { field: string; message: string }[] = [],
  ) {
    super(`${status}: ${detail}`);
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  /** The token of `POST /api/user/rest_login/`, sent as `Authorization: Token <token>`. */
  token?: string;
  fetch?: typeof fetch;
}

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');

  /** Raw call: the Response (for CSV, GeoJSON, GeoPackage and other non-JSON answers). */
  async function raw<P extends keyof paths, M extends Method & keyof paths[P]>(method: M, path: P, init: RequestInit<Op<P, M>> = {}): Promise<Response> {
    let url = String(path).replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = (init.params as Record<string, unknown> | undefined)?.[k];
      if (v === undefined) throw new Error(`path parameter ${k} is missing`);
      return encodeURIComponent(String(v));
    });
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries((init.query ?? {}) as Record<string, unknown>)) if (v !== undefined && v !== null) q.set(k, String(v));
    if ([...q].length) url += `?${q}`;
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Token ${options.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(base + url, { method: method.toUpperCase(), headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    if (!res.ok) {
      const text = await res.text();
      let body: { detail?: string; errors?: { field: string; message: string }[] } = {};
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      throw new ApiError(res.status, body.detail ?? (text.slice(0, 200) || res.statusText), body.errors);
    }
    return res;
  }

  /** Typed JSON call of any operation: `request('post', '/api/v2/asset_results/', { body })`. */
  async function request<P extends keyof paths, M extends Method & keyof paths[P]>(
    method: M,
    path: P,
    init: RequestInit<Op<P, M>> = {},
  ): Promise<OkBody<Op<P, M>>> {
    const res = await raw(method, path, init);
    return (await res.json()) as OkBody<Op<P, M>>;
  }

  return {
    request,
    raw,
    /** Per asset x hazard x scenario x year results of a project (`project_id`) or of up to 1,000 posted assets. */
    assetResults: (body: BodyOf<Op<'/api/v2/asset_results/', 'post'>>) => request('post', '/api/v2/asset_results/', { body }),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
