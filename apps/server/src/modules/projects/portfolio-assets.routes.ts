import { CreateProjectResponse, ErrorBody, PortfolioAssetsResponse, PortfolioListItem, PortfolioVariables, UpdateAssetsBody, UpdateAssetsResponse } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql } from 'kysely';
import { AppError } from '../../lib/errors.js';
import { Lru } from '../../lib/lru.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { iso } from '../accounts/user.presenter.js';
import { assertCan } from './project-list.service.js';
import { ANALYSE_PORTFOLIO_JOB } from './project.service.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const UserIdParam = z.object({ userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().max(2_147_483_647) });
const jsonList = (field: string) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return { __invalid: field };
    }
  }, z.array(z.unknown(), { error: `${field} must be a JSON list` }));

/** The spec's older asset and portfolio calls (spec 000 §7 "Locations and assets"), on the same services. */
export const portfolioAssetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projects, projectList, assetEdits } = app.services;
  /** Asset lists as sent (UTF-8 JSON), by project, version and name; at most 32 MiB (about 45,000 assets). */
  const assetLists = new Lru<Buffer>(Infinity, 32 * 2 ** 20);

  app.get('/api/portfolio/:userId/', {
    onRequest: app.authenticate,
    schema: { tags: ['Portfolios'], summary: 'Your physical-risk portfolios (own and shared) with hazards and asset counts', security: TOKEN_SECURITY, params: UserIdParam, response: { 200: z.array(PortfolioListItem), ...errors } },
  }, async (req) => {
    const user = caller(req);
    projectList.assertSelf(user, req.params.userId);
    const rows = await app.db
      .selectFrom('projects as p')
      .leftJoin('project_shares as s', (j) => j.onRef('s.project_id', '=', 'p.id').on('s.user_id', '=', user.id))
      .select(['p.id', 'p.name', 'p.portfolio_variables', 'p.non_building_variables', 'p.base_unit', 'p.base_currency', 'p.created_at', 'p.status'])
      .select((eb) => eb.selectFrom('assets as a').select(sql<number>`count(*)::int`.as('n')).whereRef('a.project_id', '=', 'p.id').as('assets'))
      .where('p.company_id', '=', user.companyId)
      .where('p.kind', '=', 'physical')
      .where((eb) => eb.or([eb('p.owner_id', '=', user.id), eb('s.user_id', '=', user.id)]))
      .orderBy('p.created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      project_id: r.id, portfolio_name: r.name, portfolio_variables: r.portfolio_variables, non_building_variables: r.non_building_variables,
      base_unit: r.base_unit, base_currency: r.base_currency, assets: r.assets ?? 0, status: r.status, created_at: iso(r.created_at),
    }));
  });

  app.get('/api/asset/:userId/', {
    onRequest: app.authenticate,
    schema: {
      tags: ['Assets'],
      summary: 'The assets of one of your portfolios (by project_id or portfolio_name)',
      security: TOKEN_SECURITY,
      params: UserIdParam,
      querystring: z.object({ project_id: z.coerce.number().int().positive().optional(), portfolio_name: z.string().trim().max(150).optional() }),
      response: { 200: PortfolioAssetsResponse, ...errors },
    },
  }, async (req, reply) => {
    const user = caller(req);
    projectList.assertSelf(user, req.params.userId);
    const { project_id, portfolio_name } = req.query;
    if (project_id === undefined && !portfolio_name) throw new AppError(400, 'project_id or portfolio_name is required', [{ field: 'project_id', message: 'required' }]);
    const { project } = project_id !== undefined ? await projects.access(user, project_id) : await projects.findVisibleByName(user, portfolio_name!, 'physical', 'portfolio_name');
    // Every change of a project's assets (create, overwrite, edit, delete) raises its version in the same transaction,
    // so the list is kept, as sent, per project, version and name.
    const key = `${project.id}:${project.version}:${project.name}`;
    let body = assetLists.get(key);
    if (!body) {
      const assets = await app.db.selectFrom('assets').selectAll().where('project_id', '=', project.id).orderBy('position').execute();
      const answer: z.input<typeof PortfolioAssetsResponse> = {
        project_id: project.id,
        portfolio_name: project.name,
        version: project.version,
        assets: assets.map(({ project_id: _p, created_at, updated_at, ...a }) => ({ ...a, created_at: iso(created_at), updated_at: iso(updated_at) })),
      };
      body = Buffer.from(JSON.stringify(answer), 'utf8');
      assetLists.set(key, body, body.byteLength);
    }
    // A Buffer is written as is (no serialiser pass): the schema above documents the answer.
    return reply.type('application/json; charset=utf-8').send(body as unknown as z.input<typeof PortfolioAssetsResponse>);
  });

  app.post('/api/asset/delete/:userId/', {
    onRequest: app.authenticate,
    schema: {
      tags: ['Assets'],
      summary: 'Delete assets from a portfolio (owner or write access); the analysis re-runs',
      security: TOKEN_SECURITY,
      params: UserIdParam,
      body: z.object({
        project_id: z.coerce.number().int().positive().optional(),
        portfolio_name: z.string().trim().max(150).optional(),
        asset_ids: jsonList('asset_ids').pipe(z.array(z.coerce.number().int().positive(), { error: 'asset_ids must be a list of asset ids' }).min(1, 'asset_ids needs at least one id')),
      }),
      response: { 201: z.object({ detail: z.string(), deleted: z.number().int(), job_id: z.number().int().nullable() }), ...errors },
    },
  }, async (req, reply) => {
    const user = caller(req);
    projectList.assertSelf(user, req.params.userId);
    const b = req.body;
    if (b.project_id === undefined && !b.portfolio_name) throw new AppError(400, 'project_id or portfolio_name is required', [{ field: 'project_id', message: 'required' }]);
    const { project, role } = b.project_id !== undefined ? await projects.access(user, b.project_id) : await projects.findVisibleByName(user, b.portfolio_name!, 'physical', 'portfolio_name');
    assertCan(role, 'editAssets', project.name);
    const out = await app.db.transaction().execute(async (tx) => {
      const existing = await tx.selectFrom('assets').select('id').where('project_id', '=', project.id).execute();
      const mine = new Set(existing.map((a) => a.id));
      const foreign = b.asset_ids.filter((id) => !mine.has(id));
      if (foreign.length) throw new AppError(400, `asset_ids: ${foreign.slice(0, 10).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not an asset of '${project.name}'.`, [{ field: 'asset_ids', message: 'unknown asset' }]);
      if (b.asset_ids.length >= existing.length) throw new AppError(400, `asset_ids: a portfolio keeps at least one asset; delete the project instead.`, [{ field: 'asset_ids', message: 'would empty the portfolio' }]);
      const res = await tx.deleteFrom('assets').where('project_id', '=', project.id).where('id', 'in', b.asset_ids).executeTakeFirst();
      const current = await tx.selectFrom('projects').select('version').where('id', '=', project.id).forUpdate().executeTakeFirstOrThrow();
      const version = current.version + 1;
      await tx.updateTable('projects').set({ version, status: 'queued', progress: 0, status_message: 'Re-analysing after deleting assets', updated_at: new Date() }).where('id', '=', project.id).execute();
      const jobId = await app.services.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: project.id, version }, tx);
      return { deleted: Number(res.numDeletedRows), jobId };
    });
    return reply.status(201).send({ detail: `Deleted ${out.deleted} asset(s); the analysis is re-running.`, deleted: out.deleted, job_id: out.jobId });
  });

  app.post('/api/asset/nonbuilding/:userId/', {
    onRequest: app.authenticate,
    bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
    schema: {
      tags: ['Portfolios'],
      summary: 'Create a portfolio from building locations: value (JSON list of locations), portfolio_name, variables (JSON list of hazards)',
      security: TOKEN_SECURITY,
      params: UserIdParam,
      body: z.object({ value: jsonList('value'), portfolio_name: z.string({ error: 'portfolio_name is required' }).trim().min(1, 'portfolio_name is required').max(150), variables: PortfolioVariables.optional() }),
      response: { 201: CreateProjectResponse, ...errors },
    },
  }, async (req, reply) => {
    const user = caller(req);
    projectList.assertSelf(user, req.params.userId);
    const out = await projects.createPhysical(user, { portfolio_name: req.body.portfolio_name, data: req.body.value, portfolio_variables: req.body.variables }, 'map');
    return reply.status(201).send({ detail: `Portfolio '${out.project.name}' created with ${out.project.assets} assets; analysis queued.`, project: out.project, job_id: out.jobId });
  });

  app.post('/api/v2/modify-bulk-asset/', {
    onRequest: app.authenticate,
    bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
    schema: { tags: ['Assets'], summary: 'Bulk edit of assets (same as update_assets)', security: TOKEN_SECURITY, body: UpdateAssetsBody, response: { 200: UpdateAssetsResponse, ...errors } },
  }, async (req) => assetEdits.update(caller(req), req.body));
};
