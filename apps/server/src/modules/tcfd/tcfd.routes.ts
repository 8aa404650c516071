import { dbId, ErrorBody, TcfdNarrative, TcfdNarrativeBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Params = z.object({ projectId: dbId('projectId', { coerce: true }) });

/** The organisation's text of a portfolio's TCFD report (issue 23 item 6), shared by everyone with access. */
export const tcfdRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tcfd } = app.services;

  app.get(
    '/api/v2/tcfd_narrative/:projectId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary:
          "The organisation's text of a portfolio's TCFD report (governance, risk integration, targets) and its linked carbon analysis; empty until written",
        security: TOKEN_SECURITY,
        params: Params,
        response: { 200: TcfdNarrative, ...errors },
      },
    },
    async (req) => tcfd.get(caller(req), req.params.projectId),
  );

  app.put(
    '/api/v2/tcfd_narrative/:projectId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: "Changes the TCFD report's text (the fields sent; owner or write access)",
        security: TOKEN_SECURITY,
        params: Params,
        body: TcfdNarrativeBody,
        response: { 200: TcfdNarrative, ...errors },
      },
    },
    async (req) => tcfd.update(caller(req), req.params.projectId, req.body),
  );
};
