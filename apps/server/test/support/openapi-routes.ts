/** The routes of a generated OpenAPI document (app.swagger()), for tests that walk every route. */

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  [k: string]: unknown;
};

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiRoute {
  /** `GET /api/v2/files/{token}/{filename}`: the key other tests use for their rule tables. */
  key: string;
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  /** The request body schema per content type (application/json, application/x-www-form-urlencoded, multipart/form-data). */
  body: Record<string, JsonSchema>;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, JsonSchema> };
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

/** Replaces `{$ref: '#/components/schemas/X'}` by the schema (named components, e.g. AssetResult), so walkers see plain schemas. */
function inlineRefs<T>(v: T, schemas: Record<string, JsonSchema>, depth = 0): T {
  if (depth > 20 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => inlineRefs(x, schemas, depth + 1)) as T;
  const ref = (v as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
    return inlineRefs(schemas[ref.slice('#/components/schemas/'.length)] as T, schemas, depth + 1);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inlineRefs(x, schemas, depth + 1)])) as T;
}

export function openApiRoutes(doc: unknown): OpenApiRoute[] {
  const raw = doc as OpenApiDocument;
  const d = { ...raw, paths: inlineRefs(raw.paths, raw.components?.schemas ?? {}) };
  return Object.entries(d.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => ({
      key: `${m.toUpperCase()} ${path}`,
      method: m.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: Object.fromEntries(Object.entries(op.requestBody?.content ?? {}).map(([ct, c]) => [ct, c.schema ?? {}])),
    })),
  );
}
