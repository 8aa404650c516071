import { CreateProjectBody, CreateProjectResponse, dbId, ErrorBody, PreviewUploadBody, PreviewUploadResponse, ProjectStatus } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteApp } from '../../lib/route-app.js';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { buildAssetTemplate } from './asset-template.js';

const errors = {
  400: ErrorBody.extend({ error: z.array(z.string()).optional() }).passthrough(),
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
};
const ProjectIdParam = z.object({ projectId: dbId('projectId', { coerce: true }) });

/** Project creation and the upload template. */
function projectCreateRoutes(app: RouteApp) {
  const { projects } = app.services;
  app.post(
    '/api/v2/create_project/',
    {
      onRequest: app.authenticate,
      // A JSON list of many locations is as large as an uploaded file.
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Portfolios'],
        summary:
          'Create a physical-risk portfolio from a JSON list of locations (data) or a CSV/XLSX/XLS file or a GeoJSON/GeoPackage/zipped Shapefile of points (upload_file), and queue its analysis',
        description:
          'Form, multipart or JSON body. Row problems answer 400 with `error`: ["Row 7: latitude 95.2 is outside -90..90", ...] and nothing is saved. ' +
          "More assets than the tier allows answer 400 'You are only allowed to add {n} assets for Analysis'. mode=add|overwrite changes an existing portfolio of the same name.",
        security: TOKEN_SECURITY,
        consumes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        body: CreateProjectBody,
        response: { 201: CreateProjectResponse, ...errors },
      },
    },
    async (req, reply) => {
      const source = req.body.upload_file !== undefined ? 'file' : req.body.ticker || req.body.index_name ? 'company' : 'map';
      const out = await projects.createPhysical(caller(req), req.body, source);
      return reply
        .status(201)
        .send({
          detail: out.created
            ? `Portfolio '${out.project.name}' created with ${out.project.assets} assets; analysis queued.`
            : `Portfolio '${out.project.name}' updated; analysis queued.`,
          project: out.project,
          job_id: out.jobId,
          ...(out.warnings.length ? { warnings: out.warnings } : {}),
        });
    },
  );

  app.post(
    '/api/v2/preview_upload/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Portfolios'],
        summary:
          'Read an upload (a GeoJSON, GeoPackage or zipped Shapefile of points, or a CSV/XLSX/XLS) into the table create_project checks: header, first rows, row count',
        description:
          'Nothing is checked row by row or stored: the web wizard previews a GIS file with it before sending the file to create_project. ' +
          'A GIS file becomes latitude and longitude (WGS 84, from the geometry, reprojected from its .prj/srs) and its attributes under their own names.',
        security: TOKEN_SECURITY,
        consumes: ['multipart/form-data'],
        body: PreviewUploadBody,
        response: { 200: PreviewUploadResponse, ...errors },
      },
    },
    async (req) => projects.previewUpload(req.body.upload_file),
  );

  app.get(
    '/api/v2/download_upload_csv_template/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Portfolios'],
        summary: 'The asset upload template (.xlsx) in the spec column order, with units, an example row and instructions',
        security: TOKEN_SECURITY,
        querystring: z.object({
          unit: z.enum(['meter'], { error: 'unit must be meter' }).optional(),
          currency: z.enum(['USD'], { error: 'currency must be USD, the only currency offered' }).optional(),
        }),
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      },
    },
    async (_req, reply) => {
      const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="asset_upload_template_${stamp}.xlsx"`)
        .send(buildAssetTemplate());
    },
  );
}

/** A project analysis status, once or as a progress stream. */
function projectStatusRoutes(app: RouteApp) {
  const { projectList } = app.services;
  app.get(
    '/api/v2/projects/:projectId/status/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Portfolios'],
        summary: 'Analysis status and progress (0-1) of a project',
        security: TOKEN_SECURITY,
        params: ProjectIdParam,
        response: { 200: ProjectStatus, ...errors },
      },
    },
    async (req) => projectList.status(caller(req), req.params.projectId),
  );

  app.get(
    '/api/v2/projects/:projectId/progress/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Portfolios'],
        summary: 'Server-sent events with the analysis progress until it is done or failed',
        description: 'text/event-stream; each event is a ProjectStatus JSON. Read it with fetch (the Authorization header is required).',
        security: TOKEN_SECURITY,
        params: ProjectIdParam,
        produces: ['text/event-stream'],
      },
    },
    async (req, reply) => {
      const user = caller(req);
      let last = await projectList.status(user, req.params.projectId); // 404 before the stream starts
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      let closed = false;
      req.raw.on('close', () => (closed = true));
      let lastSent = '';
      const deadline = Date.now() + 30 * 60_000;
      while (!closed && Date.now() < deadline) {
        const s = JSON.stringify(last);
        if (s !== lastSent) {
          res.write(`event: progress\ndata: ${s}\n\n`);
          lastSent = s;
        } else res.write(': keep-alive\n\n');
        if (last.status === 'done' || last.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 400));
        try {
          last = await projectList.status(user, req.params.projectId);
        } catch {
          res.write(`event: error\ndata: ${JSON.stringify({ detail: 'The project no longer exists.' })}\n\n`);
          break;
        }
      }
      res.end();
    },
  );
}

export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  projectCreateRoutes(app);
  projectStatusRoutes(app);
};
