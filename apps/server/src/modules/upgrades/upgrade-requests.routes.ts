import { ErrorBody, UpgradeRequest, UpgradeRequestBody, UpgradeRequestList } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dbId } from '@crp/contracts';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const Answer = z.object({ detail: z.string(), request: UpgradeRequest });

/** Upgrade requests (issue 37 item 1): a member asks for a higher tier, an operator grants it. */
export const upgradeRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.services.upgrades;
  app.post(
    '/api/v2/upgrade_requests/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: "Ask for a higher tier for the caller's company",
        description:
          "Any active member may ask. The company's administrators and the installation's operators get a notification and an e-mail; an operator grants it (POST .../grant/ or npm run admin -- grant-tier). " +
          "400 when the tier is not above the company's; 409 while the company has a pending request (one at a time).",
        security: TOKEN_SECURITY,
        body: UpgradeRequestBody,
        response: { 201: Answer, ...errors },
      },
    },
    async (req, reply) => {
      const r = await svc.request(caller(req), req.body, req.ip);
      return reply
        .status(201)
        .send({
          detail: `Upgrade to ${r.tier} requested. Your company's administrators and the operators of this installation were told; you will get a notification when it is granted.`,
          request: r,
        });
    },
  );

  app.get(
    '/api/v2/upgrade_requests/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: "Upgrade requests: an operator sees every company's pending ones (then the last decided); anyone else their company's",
        security: TOKEN_SECURITY,
        response: { 200: UpgradeRequestList, 401: ErrorBody },
      },
    },
    async (req) => ({ requests: await svc.list(caller(req)) }),
  );

  app.post(
    '/api/v2/upgrade_requests/:id/grant/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: 'Grant a pending upgrade request (operators only): the company gets the tier asked for and every member is told',
        security: TOKEN_SECURITY,
        params: z.object({ id: dbId('id', { coerce: true }) }),
        response: { 200: Answer, ...errors },
      },
    },
    async (req) => {
      const r = await svc.grant(caller(req), req.params.id, req.ip);
      return { detail: `${r.company_name} (${r.company_code}) is now on the ${r.tier} plan; its members were told.`, request: r };
    },
  );
};
