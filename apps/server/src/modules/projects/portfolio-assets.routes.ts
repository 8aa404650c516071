import {
  CreateProjectResponse,
  dbId,
  ErrorBody,
  PortfolioAssetsResponse,
  PortfolioListItem,
  PortfolioVariables,
  UpdateAssetsBody,
  UpdateAssetsResponse,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const UserIdParam = z.object({ userId: dbId('userId', { coerce: true }) });
const jsonList = (field: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return { __invalid: field };
      }
    },
    z.array(z.unknown(), { error: `${field} must be a JSON list` }),
  );

/** The spec's older asset and portfolio calls (spec 000 §7 "Locations and assets"), on the same services. */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
export const portfolioAssetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projects, projectList, assetEdits, portfolioAssets } = app.services;

  app.get(
    '/api/portfolio/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Portfolios'],
        summary: 'Your physical-risk portfolios (own and shared) with hazards and asset counts',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        response: { 200: z.array(PortfolioListItem), ...errors },
      },
    },
    async (req) => {
      const user = caller(req);
      projectList.assertSelf(user, req.params.userId);
      return portfolioAssets.portfolios(user);
    },
  );

  app.get(
    '/api/asset/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Assets'],
        summary: 'The assets of one of your portfolios (by project_id or portfolio_name)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        querystring: z.object({ project_id: dbId('project_id', { coerce: true }).optional(), portfolio_name: z.string().trim().max(150).optional() }),
        response: { 200: PortfolioAssetsResponse, ...errors },
      },
    },
    async (req, reply) => {
      const user = caller(req);
      projectList.assertSelf(user, req.params.userId);
      const body = await portfolioAssets.assetList(user, req.query);
      // A Buffer is written as is (no serialiser pass): the schema above documents the answer.
      return reply.type('application/json; charset=utf-8').send(body as unknown as z.input<typeof PortfolioAssetsResponse>);
    },
  );

  app.post(
    '/api/asset/delete/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Assets'],
        summary: 'Delete assets from a portfolio (owner or write access); the analysis re-runs',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: z.object({
          project_id: dbId('project_id', { coerce: true }).optional(),
          portfolio_name: z.string().trim().max(150).optional(),
          asset_ids: jsonList('asset_ids').pipe(
            z.array(dbId('asset_ids', { coerce: true }), { error: 'asset_ids must be a list of asset ids' }).min(1, 'asset_ids needs at least one id'),
          ),
        }),
        response: { 201: z.object({ detail: z.string(), deleted: z.number().int(), job_id: z.number().int().nullable() }), ...errors },
      },
    },
    async (req, reply) => {
      const user = caller(req);
      projectList.assertSelf(user, req.params.userId);
      const out = await portfolioAssets.deleteAssets(user, req.body, req.body.asset_ids);
      return reply.status(201).send({ detail: `Deleted ${out.deleted} asset(s); the analysis is re-running.`, deleted: out.deleted, job_id: out.jobId });
    },
  );

  app.post(
    '/api/asset/nonbuilding/:userId/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Portfolios'],
        summary: 'Create a portfolio from building locations: value (JSON list of locations), portfolio_name, variables (JSON list of hazards)',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: z.object({
          value: jsonList('value'),
          portfolio_name: z.string({ error: 'portfolio_name is required' }).trim().min(1, 'portfolio_name is required').max(150),
          variables: PortfolioVariables.optional(),
        }),
        response: { 201: CreateProjectResponse, ...errors },
      },
    },
    async (req, reply) => {
      const user = caller(req);
      projectList.assertSelf(user, req.params.userId);
      const out = await projects.createPhysical(
        user,
        { portfolio_name: req.body.portfolio_name, data: req.body.value, portfolio_variables: req.body.variables },
        'map',
      );
      return reply
        .status(201)
        .send({
          detail: `Portfolio '${out.project.name}' created with ${out.project.assets} assets; analysis queued.`,
          project: out.project,
          job_id: out.jobId,
        });
    },
  );

  app.post(
    '/api/v2/modify-bulk-asset/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Assets'],
        summary: 'Bulk edit of assets (same as update_assets)',
        security: TOKEN_SECURITY,
        body: UpdateAssetsBody,
        response: { 200: UpdateAssetsResponse, ...errors },
      },
    },
    async (req) => assetEdits.update(caller(req), req.body),
  );
};
