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
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

export function openApiRoutes(doc: unknown): OpenApiRoute[] {
  const d = doc as OpenApiDocument;
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
