import {
  CarbonAnalysisBody,
  CarbonAnalysisResponse,
  CarbonDataResponse,
  CarbonDownloadBody,
  CarbonNameBody,
  CarbonProject,
  CarbonProjectListResponse,
  dbId,
  DetailBody,
  ErrorBody,
  safeFileName,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteApp } from '../../lib/route-app.js';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { CarbonService } from './carbon.service.js';

const errors = {
  400: ErrorBody.extend({ error: z.array(z.string()).optional() }).passthrough(),
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
};
const UserIdParam = z.object({ userId: dbId('userId', { coerce: true }) });
const TAG = 'Carbon';
const stamp = () => new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);

const self = (req: { params: { userId: number } } & Parameters<typeof caller>[0]) => {
  const user = caller(req);
  if (req.params.userId !== user.id) throw notFound(`userId: ${req.params.userId} is not your user id.`);
  return user;
};

/** Create and modify a transition (carbon) project. */
function carbonEditRoutes(app: RouteApp) {
  const { carbon } = app.services;
  app.post(
    '/api/report/create_carbon_analysis/:userId/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: [TAG],
        summary: 'Create a carbon analysis: portfolio_name, portfolio_value (USD) and companies_data (JSON list) or uploaded_file (CSV)',
        description:
          'Form, multipart or JSON body. Each problem names the row and the column (`Row 3, market_cap_in_usd: must be greater than 0 (USD)...`), listed in `error`; nothing is saved. ' +
          'An existing project of the same name answers 400 unless overwrite=true. Scope 1+2 blank or 0 is projected from revenue, sector and region.',
        security: TOKEN_SECURITY,
        consumes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        params: UserIdParam,
        body: CarbonAnalysisBody,
        response: { 201: DetailBody.extend({ project: CarbonProject, created: z.boolean() }), ...errors },
      },
    },
    async (req, reply) => {
      const out = await carbon.create(self(req), req.body, req.ip);
      return reply
        .status(201)
        .send({
          detail: out.created
            ? `Carbon project '${out.project.project_name}' created with ${out.project.companies} companies.`
            : `Carbon project '${out.project.project_name}' overwritten.`,
          ...out,
        });
    },
  );

  app.post(
    '/api/report/modify_carbon_analysis/:userId/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: [TAG],
        summary: 'Modify a carbon analysis: portfolio_name, portfolio_value and companies_data (all rows); owner or write access',
        security: TOKEN_SECURITY,
        consumes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        params: UserIdParam,
        body: CarbonAnalysisBody,
        response: { 200: DetailBody.extend({ project: CarbonProject }), ...errors },
      },
    },
    async (req) => {
      const project = await carbon.modify(self(req), req.body, req.ip);
      return { detail: `Carbon project '${project.project_name}' saved.`, project };
    },
  );
}

/** List, read, delete and download transition projects. */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
function carbonReadRoutes(app: RouteApp) {
  const { carbon } = app.services;
  app.get(
    '/api/report/get_carbon_project_list/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Transition (carbon) projects you own or that were shared with you',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        response: { 200: CarbonProjectListResponse, ...errors },
      },
    },
    async (req) => carbon.list(self(req)),
  );

  app.post(
    '/api/report/get_carbon_analysis/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Project fetch: output table_data, portfolio totals and emissions by sector and region (portfolio_name)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: CarbonNameBody,
        response: { 200: CarbonAnalysisResponse, ...errors },
      },
    },
    async (req) => carbon.analysis(self(req), req.body.portfolio_name),
  );

  app.post(
    '/api/report/get_carbon_analysis_data/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Project data fetch: portfolio value and the company rows as entered (portfolio_name)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: CarbonNameBody,
        response: { 200: CarbonDataResponse, ...errors },
      },
    },
    async (req) => carbon.data(self(req), req.body.portfolio_name),
  );

  app.post(
    '/api/report/delete_carbon_analysis/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Delete a carbon project by portfolio_name (owner only)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: CarbonNameBody,
        response: { 201: DetailBody, ...errors },
      },
    },
    async (req, reply) => {
      const name = await carbon.delete(self(req), req.body.portfolio_name, req.ip);
      return reply.status(201).send({ detail: `Carbon project '${name}' deleted.` });
    },
  );

  app.post(
    '/api/report/get_carbon_analysis/:userId/download/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Download a carbon project: rows (inputs and outputs per company, then the portfolio total); format=csv or xlsx answers a file',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: CarbonDownloadBody,
        produces: ['application/json', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: {
          200: z.object({
            portfolio_name: z.string(),
            columns: z.array(z.string()),
            rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const out = await carbon.downloadRows(self(req), req.body.portfolio_name);
      const base = `${safeFileName(out.name)}_carbon_${stamp()}`;
      if (req.body.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${base}.csv"`)
          .send(CarbonService.toCsv(out.columns, out.rows) as never);
      }
      if (req.body.format === 'xlsx') {
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${base}.xlsx"`)
          .send(CarbonService.toXlsx(out.name, out.columns, out.rows) as never);
      }
      return { portfolio_name: out.name, columns: out.columns, rows: out.rows };
    },
  );
}

/** The upload template and the emission factors. */
function carbonReferenceRoutes(app: RouteApp) {
  app.get(
    '/api/report/carbon_template/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'The carbon CSV template: columns in input order and two example rows',
        security: TOKEN_SECURITY,
        produces: ['text/csv'],
      },
    },
    async (_req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="carbon_template_${stamp()}.csv"`)
        .send(CarbonService.template()),
  );

  app.get(
    '/api/report/carbon_factors/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Regions, sectors and the emission factors used to project scope 1+2 (tCO2e per USD million revenue), with their sources',
        security: TOKEN_SECURITY,
        response: {
          200: z.object({
            regions: z.array(z.string()),
            sectors: z.array(z.string()),
            unit: z.string(),
            factors: z.record(z.string(), z.record(z.string(), z.number().nullable())),
            sector_notes: z.record(z.string(), z.string().nullable()),
            sources: z.array(z.object({ id: z.string(), title: z.string(), publisher: z.string(), reference: z.string(), license: z.string() })),
          }),
          ...errors,
        },
      },
    },
    async () => CarbonService.factors(),
  );
}

/** Carbon and transition module (spec 000 §7 "Transition projects", 001 §7 "Carbon"; paths not shown there are decided in docs/decisions.md). */
export const carbonRoutes: FastifyPluginAsyncZod = async (app) => {
  carbonEditRoutes(app);
  carbonReadRoutes(app);
  carbonReferenceRoutes(app);
};
