import {
  dbId,
  DefaultFilters,
  DeleteProjectBody,
  DetailBody,
  ErrorBody,
  ProjectListResponse,
  ProjectNameItem,
  RenameProjectBody,
  SHARE_PERMISSIONS,
  ShareProjectBody,
  UpdateDefaultFilterBody,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const id = (name: string) => dbId(name, { coerce: true });
const UserIdParam = z.object({ userId: id('userId') });

// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
export const projectListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projectList } = app.services;

  app.get(
    '/api/project/all_projects/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: 'Names of your projects (own and shared) of one module',
        security: TOKEN_SECURITY,
        querystring: z.object({ list_for: z.enum(['physical_risk', 'map_module'], { error: 'list_for must be physical_risk or map_module' }) }),
        response: { 200: z.array(ProjectNameItem), ...errors },
      },
    },
    async (req) => projectList.names(caller(req), req.query.list_for),
  );

  app.get(
    '/api/project/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: 'Physical-risk projects you own or that were shared with you, with the company members you can share with',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        response: { 200: ProjectListResponse, ...errors },
      },
    },
    async (req) => {
      projectList.assertSelf(caller(req), req.params.userId);
      return projectList.list(caller(req));
    },
  );

  app.post(
    '/api/project/update/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: 'Rename a project (owner or write access); a name already used answers 400 with `Error`',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: RenameProjectBody,
        response: { 200: DetailBody.extend({ project_id: z.number().int(), name: z.string() }), ...errors },
      },
    },
    async (req) => {
      projectList.assertSelf(caller(req), req.params.userId);
      const r = await projectList.rename(caller(req), req.body.oldname, req.body.name);
      return { detail: `Project renamed to '${r.name}'.`, ...r };
    },
  );

  app.post(
    '/api/project/delete/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: 'Delete a project by name (owner only), with its assets, results and shares',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: DeleteProjectBody,
        response: { 201: DetailBody, ...errors },
      },
    },
    async (req, reply) => {
      projectList.assertSelf(caller(req), req.params.userId);
      await projectList.delete(caller(req), req.body.name, req.ip);
      return reply.status(201).send({ detail: `Project '${req.body.name}' deleted.` });
    },
  );

  app.post(
    '/api/project/update_default_filter/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: "Save the Advanced Filter defaults {year, scenario, analysis_type}: yours, or one project's with project_id",
        security: TOKEN_SECURITY,
        body: UpdateDefaultFilterBody,
        response: { 200: DetailBody.extend({ data: DefaultFilters }), ...errors },
      },
    },
    async (req) => ({ detail: 'Default filter saved.', data: await projectList.updateDefaultFilter(caller(req), req.body.data, req.body.project_id) }),
  );

  app.post(
    '/api/v2/share_project/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: 'Share a project with users of your company, read or write (owner only)',
        security: TOKEN_SECURITY,
        body: ShareProjectBody,
        response: {
          201: DetailBody.extend({
            shared_with: z.array(z.object({ user_id: z.number().int(), username: z.string(), permission: z.enum(SHARE_PERMISSIONS) })),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const shared = await projectList.share(caller(req), req.body.project_id, req.body.share_with, req.body.permission, req.ip);
      return reply.status(201).send({ detail: `Shared with ${shared.map((s) => s.username).join(', ')} (${req.body.permission}).`, shared_with: shared });
    },
  );

  app.post(
    '/api/v2/unshare_project/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Projects'],
        summary: "Remove a user's access to a project (owner only)",
        security: TOKEN_SECURITY,
        body: z.object({ project_id: id('project_id'), user_id: id('user_id') }),
        response: { 200: DetailBody, ...errors },
      },
    },
    async (req) => {
      await projectList.unshare(caller(req), req.body.project_id, req.body.user_id);
      return { detail: 'Access removed.' };
    },
  );
};
