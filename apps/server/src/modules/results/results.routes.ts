import {
  AssetResultsCsv,
  AssetResultsFeatureCollection,
  AssetResultsNdjson,
  type AssetResult,
  type ResultFormat,
  AssetResultsParquet,
  BinaryBody,
  dbId,
  ErrorBody,
  ResultsQuery,
  ResultsRequest,
  ResultsResponse,
  ResultsTooLargeBody,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteApp } from '../../lib/route-app.js';
import { z } from 'zod';
import { writeCog } from '../../lib/cog.js';
import { writeGeoPackage, type GpkgColumn } from '../../lib/geopackage.js';
import { COG_MAX_CELLS, HazardCogParams, HazardCogQuery, hazardGrid, NODATA } from '../hazards/hazard-raster.service.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { declareRequestMedia } from '../../plugins/openapi.js';
import { AppError } from '../../lib/errors.js';
import { byteRange } from '../../lib/http-range.js';
import { BODY_OPTION_KEYS, requestFromBody, TABLE_BODY_TYPES, type TableBodyType } from './results-body.js';
import { featureCollection, GisQuery, type RowsPage } from './results.service.js';
import { csvBody, geojsonBody, jsonBody, ndjsonBody, parquetBody } from './results-formats.js';
import { acceptsGzip, primed, streamBody } from '../../lib/stream-body.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'project';

const OPTIONS_IN_QUERY = `${BODY_OPTION_KEYS.join(', ')} as query parameters (lists comma-separated: hazards=typhoon,river_flood&years=2030,2050)`;
declareRequestMedia('post', '/api/v2/asset_results/', {
  'text/csv': {
    type: 'string',
    description: `A CSV with a header row naming the upload template's columns (name, lat, long, property type, valuation, ...; any order, the template's synonyms) and an optional id column, one asset a row; read and checked as an upload is. The other options go as ${OPTIONS_IN_QUERY}.`,
  },
  'application/geo+json': {
    type: 'object',
    description: `A GeoJSON FeatureCollection (RFC 7946) of Point features [longitude, latitude]; each feature's properties named as the JSON assets (name, property_type, valuation, ...), its id (or properties.id) the asset's own id. The other options go as ${OPTIONS_IN_QUERY}.`,
    required: ['type', 'features'],
    properties: { type: { type: 'string', enum: ['FeatureCollection'] }, features: { type: 'array', items: { type: 'object' } } },
  },
});

/** A CSV or GeoJSON body becomes the JSON request it stands for (results-body.ts) before validation. */
async function tableBody(req: { headers: Record<string, unknown>; body: unknown; query: unknown }) {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const query = (req.query ?? {}) as Record<string, unknown>;
  if ((TABLE_BODY_TYPES as readonly string[]).includes(type)) {
    req.body = requestFromBody(type as TableBodyType, req.body, query);
    return;
  }
  const misplaced = BODY_OPTION_KEYS.filter((k) => query[k] !== undefined);
  if (misplaced.length)
    throw new AppError(
      400,
      `${misplaced.join(', ')}: query parameters go with a CSV or GeoJSON body; in a JSON body send them as keys.`,
      misplaced.map((k) => ({ field: k, message: 'send it in the JSON body' })),
    );
}

/** The typed results API. */
function resultsApiRoutes(app: RouteApp) {
  const { results } = app.services;
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('application/geo+json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(new AppError(400, 'The GeoJSON body is not valid JSON.', [{ field: 'body', message: 'not valid JSON' }]), undefined);
    }
  });
  app.post(
    '/api/v2/asset_results/',
    {
      onRequest: app.authenticate,
      // A query in a POST body that changes nothing: personal API tokens (read-only) may call it from notebooks.
      config: { readOnlyPost: true },
      preValidation: tableBody,
      schema: {
        tags: ['Results'],
        consumes: ['application/json', ...TABLE_BODY_TYPES],
        summary: 'Per asset x hazard x scenario x year: intensity, expected damage and disruption, 1-in-100/250 losses, score (JSON, CSV or GeoJSON)',
        description:
          'Send `project_id` (a project you may download; its stored analysis: 409 while it is queued or running, with `Retry-After` seconds and `retry_after_seconds`, 5) or `assets` (at most 1,000, analysed now with the same engine and hazard layers). ' +
          `The assets may also come as a CSV body (text/csv, a header row of the upload template's columns) or a GeoJSON FeatureCollection of Point features (application/geo+json), read and checked as an upload is, with ${OPTIONS_IN_QUERY}. ` +
          '`?format=json` (default) answers this schema; `csv` the same columns (text/csv); `geojson` a FeatureCollection with one Point feature per row, the row as properties (application/geo+json). ' +
          '`ndjson` one row a line (application/x-ndjson); `parquet` an Apache Parquet file of the rows (application/vnd.apache.parquet; for pandas, DuckDB, Spark). ' +
          'Every format streams: no row cap; gzip when Accept-Encoding allows it (not Parquet, compressed already). `limit` pages the rows; the answer then carries `next_cursor` (JSON) and X-Next-Cursor and Link headers (every format): send it as `cursor` with the same body. X-Total-Rows gives the rows over every page. Money in USD, ownership-adjusted, rounded to cents; null = the hazard has no data at the asset, ' +
          "or the caller's tier has no portfolio losses (Free plan: every money field null, `money_withheld` says so, CSV answers carry the header X-Money-Withheld).",
        security: TOKEN_SECURITY,
        querystring: ResultsQuery,
        body: ResultsRequest,
        // One 200 per format (?format=json|csv|geojson), so generated clients can ask for each.
        response: {
          200: {
            description:
              'The rows: JSON (format=json), JSON lines (format=ndjson), CSV (format=csv), a GeoJSON FeatureCollection (format=geojson) or Apache Parquet (format=parquet).',
            content: {
              'application/json': { schema: ResultsResponse },
              'text/csv': { schema: AssetResultsCsv },
              'application/geo+json': { schema: AssetResultsFeatureCollection },
              'application/x-ndjson': { schema: AssetResultsNdjson },
              'application/vnd.apache.parquet': { schema: AssetResultsParquet },
            },
          },
          ...errors,
          409: ErrorBody.describe('project_id: the analysis is queued or running (Retry-After: 5 and retry_after_seconds), or it failed (no Retry-After).'),
          413: ErrorBody.describe('The request body is larger than the server accepts.'),
          422: ResultsTooLargeBody.describe('project_id: the stored analysis is larger than this server reads at once (RESULTS_DECODE_MAX_MB).'),
        },
      },
    },
    async (req, reply) => {
      const page = await results.rows(caller(req), req.body, { limit: req.query.limit, cursor: req.query.cursor });
      const stem = page.head.project_id ? `project_${page.head.project_id}_results` : 'asset_results';
      // a Free company's rows carry no money figures: said in a header for CSV, a member for GeoJSON and JSON
      if (page.head.money_withheld) reply.header('x-money-withheld', 'portfolio_losses');
      reply.header('x-total-rows', String(page.head.total_rows)).header('vary', 'Accept-Encoding');
      if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor).header('link', `<${nextUrl(req.url, page.nextCursor)}>; rel="next"`);
      const { format } = req.query;
      const pieces = bodyOf(format, page, await primed(page.rows), (ext, type) => {
        reply.header('content-type', type);
        if (ext) reply.header('content-disposition', `attachment; filename="${stem}.${ext}"`);
      });
      // Parquet pages are compressed (snappy) already
      const gzip = format !== 'parquet' && acceptsGzip(req.headers['accept-encoding']);
      if (gzip) reply.header('content-encoding', 'gzip');
      return reply.send(streamBody(pieces, gzip) as never);
    },
  );
}

/** The body of a page in `format`; `media` sets the content type and the file name's extension (none for JSON). */
function bodyOf(
  format: ResultFormat,
  page: RowsPage,
  rows: AsyncIterable<AssetResult[]>,
  media: (ext: string | null, type: string) => void,
): AsyncIterable<string | Uint8Array> {
  switch (format) {
    case 'csv':
      media('csv', 'text/csv; charset=utf-8');
      return csvBody(rows);
    case 'ndjson':
      media(null, 'application/x-ndjson; charset=utf-8');
      return ndjsonBody(rows);
    case 'geojson':
      media('geojson', 'application/geo+json');
      return geojsonBody({ methodology_version: page.head.methodology_version, money_withheld: page.head.money_withheld }, rows, page.nextCursor);
    case 'parquet':
      media('parquet', 'application/vnd.apache.parquet');
      return parquetBody(rows, page.idKind, parquetMeta(page.head));
    default:
      media(null, 'application/json; charset=utf-8');
      return jsonBody(page.head, rows, page.nextCursor);
  }
}

/** The request's URL with `cursor` set: the Link header's next page (POST the same body to it). */
function nextUrl(url: string, cursor: string): string {
  const [path, query = ''] = url.split('?');
  const q = new URLSearchParams(query);
  q.set('cursor', cursor);
  return `${path}?${q.toString()}`;
}

/** Key-value metadata of a Parquet answer: what the JSON answer says besides its rows. */
const parquetMeta = (head: RowsPage['head']) =>
  Object.fromEntries(Object.entries(head).map(([k, v]) => [k, v === null ? '' : String(v)])) as Record<string, string>;

/** GIS exports: the assets of a project as GeoPackage, a hazard layer as Cloud-Optimised GeoTIFF. */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
function gisExportRoutes(app: RouteApp) {
  const { results } = app.services;
  app.get(
    '/api/v2/projects/:projectId/assets_gis/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Results'],
        summary: "A project's assets with their results at one scenario-year, as GeoJSON or GeoPackage (EPSG:4326 points)",
        description:
          "One Point feature per asset: name, property type, exposed value, climate score, expected annual loss, 20-year expected loss (field `cvar_usd`), maximum exposure, 1-in-100 and 1-in-250-year losses over the project's hazards; " +
          'per hazard `score_<hazard>`, `expected_annual_loss_<hazard>_usd`, `intensity_<hazard>` with `intensity_<hazard>_unit`, `data_tier_<hazard>` and `own_data_layer_<hazard>` (the results API row of that asset, hazard and scenario-year). ' +
          "Scenario-year defaults to the project's default filter. `format=gpkg` answers a GeoPackage 1.2 (application/geopackage+sqlite3) with one layer `assets` and its R-tree spatial index (rtree_assets_geom). Needs download permission on the project.",
        security: TOKEN_SECURITY,
        params: z.object({ projectId: dbId('projectId', { coerce: true }) }),
        querystring: GisQuery,
        response: { 200: BinaryBody('GeoJSON FeatureCollection (application/geo+json) or GeoPackage (application/geopackage+sqlite3)'), ...errors },
        produces: ['application/geo+json', 'application/geopackage+sqlite3'],
      },
    },
    async (req, reply) => {
      const f = await results.projectFeatures(caller(req), req.params.projectId, req.query);
      const stem = `${safeName(f.project.name)}_assets_${f.at}${f.scenario}_${f.year}`;
      if (req.query.format === 'gpkg') {
        const first = f.properties[0];
        const columns: GpkgColumn[] = Object.keys(first ?? { name: '' })
          .filter((k) => k !== 'latitude' && k !== 'longitude')
          .map((name) => ({
            name,
            type:
              ['name', 'property_type', 'analysis_type', 'scenario'].includes(name) || /^(data_tier|own_data_layer)_|_unit$/.test(name)
                ? 'TEXT'
                : name === 'asset_id' || name === 'year' || name === 'climate_score' || name.startsWith('score_')
                  ? 'INTEGER'
                  : 'REAL',
          }));
        const data = await writeGeoPackage(
          'assets',
          `Assets of ${f.project.name} with climate-risk results, ${f.at.toUpperCase()} ${f.scenario} ${f.year}`,
          columns,
          f.properties.map((p) => ({ longitude: p.longitude, latitude: p.latitude, properties: p as unknown as Record<string, string | number | null> })),
        );
        return reply
          .header('content-type', 'application/geopackage+sqlite3')
          .header('content-disposition', `attachment; filename="${stem}.gpkg"`)
          .header('cache-control', 'private, no-store')
          .send(data);
      }
      const fc = featureCollection(f.properties, { name: f.project.name });
      return reply
        .header('content-type', 'application/geo+json')
        .header('content-disposition', `attachment; filename="${stem}.geojson"`)
        .header('cache-control', 'private, no-store')
        .send(JSON.stringify(fc) as never);
    },
  );

  app.get(
    '/api/v2/hazard_layers/:hazard/cog/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Results'],
        summary: 'A hazard layer at a scenario-year (and return period) as a Cloud-Optimised GeoTIFF (EPSG:4326, Float32)',
        description:
          "Every cell is the hazard model evaluated at the cell centre, the same values the analysis and the map read: the hazard's indicator in its unit (e.g. flood depth m, gust m/s, burn probability 1/yr). " +
          `Curve hazards (typhoon, storm_surge, river_flood, rainfall_flood) take return_period (default 100). Tiled 256 x 256, deflate, overviews, IFDs first; nodata ${NODATA}. ` +
          `At most ${COG_MAX_CELLS.toLocaleString('en-US')} cells: the whole world comes at 0.5°, a region (bbox) at the native grid. The answer's X-Cell-Size-Deg header gives the cell size. ` +
          "Range requests (one range: bytes=a-b, a- or -n; Accept-Ranges: bytes) answer 206 with that part, 416 past the end; the file is rendered once per layer and parameters and kept (COG_CACHE_MB), so GDAL's several reads of one file do not render it again. ETag and If-Range are honoured.",
        security: TOKEN_SECURITY,
        params: HazardCogParams,
        querystring: HazardCogQuery,
        response: {
          200: BinaryBody('A Cloud-Optimised GeoTIFF (image/tiff)'),
          206: BinaryBody('The requested byte range of the file (Range: bytes=start-end; Content-Range says which)'),
          400: ErrorBody,
          401: ErrorBody,
          416: BinaryBody('The range starts past the end of the file (Content-Range: bytes */size)'),
        },
        produces: ['image/tiff'],
      },
    },
    async (req, reply) => {
      const key = JSON.stringify([req.params.hazard, req.query]);
      const f = await app.services.cogFiles.get(key, async () => {
        const g = await hazardGrid(req.params.hazard, req.query);
        const body = writeCog({
          width: g.width,
          height: g.height,
          data: g.data,
          west: g.west,
          north: g.north,
          resDeg: g.resDeg,
          nodata: NODATA,
          description: g.description,
        });
        return { body, resDeg: g.resDeg, fileStem: g.fileStem };
      });
      reply
        .header('content-type', 'image/tiff; application=geotiff; profile=cloud-optimized')
        .header('content-disposition', `attachment; filename="${f.fileStem}.tif"`)
        .header('x-cell-size-deg', String(f.resDeg))
        .header('cache-control', 'private, max-age=3600')
        .header('accept-ranges', 'bytes')
        .header('etag', f.etag);
      const size = f.body.byteLength;
      const ifRange = req.headers['if-range'];
      const range = ifRange === undefined || ifRange === f.etag ? byteRange(req.headers.range, size) : null;
      if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send(Buffer.alloc(0));
      if (!range) return reply.send(f.body);
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .send(f.body.subarray(range.start, range.end + 1));
    },
  );
}

/** The typed results API and the GIS exports of a project (issue 23; docs/results-api.md). */
export const resultRoutes: FastifyPluginAsyncZod = async (app) => {
  resultsApiRoutes(app);
  gisExportRoutes(app);
};
