import { dbId, ErrorBody, PortfolioTailCsv, PortfolioTailQuery, PortfolioTailResponse } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { eventLossCsv } from './portfolio-tail.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const params = z.object({ projectId: dbId('projectId', { coerce: true }) });

/** The portfolio tail of cyclone wind from events (issue 35 item 2). */
export const portfolioTailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { portfolioTail } = app.services;
  app.get(
    '/api/v2/projects/:projectId/portfolio_tail/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Results'],
        summary: "A project's portfolio tail of cyclone wind from events: OEP and AEP curves, 1-in-100/250 occurrence and aggregate losses, TVaR(99 %)",
        description:
          "The synthetic cyclone event set (the one the typhoon layer is built from) regenerated at the project's assets; each event's loss at each asset with the asset's own wind vulnerability, after the scenario-year's intensity change. " +
          "Scenario-year defaults to the project's default filter. Beside it the sum of the assets' own 1-in-100/250-year typhoon losses (the upper bound the dashboard shows otherwise) and of their expected annual losses. " +
          'The first call after an analysis regenerates the events (seconds to a minute, by basin); later calls are cached. Needs view permission; Free plan: money fields null and `money_withheld` says so. ' +
          'The event loss table: `event_losses.csv`.',
        security: TOKEN_SECURITY,
        params,
        querystring: PortfolioTailQuery,
        response: { 200: PortfolioTailResponse, ...errors },
      },
    },
    async (req) => (await portfolioTail.tail(caller(req), req.params.projectId, req.query, 'view')).response,
  );
  app.get(
    '/api/v2/projects/:projectId/portfolio_tail/event_losses.csv',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Results'],
        summary: "A project's cyclone-wind event loss table (CSV: event_id, basin, source, year, rate_per_year, loss_usd)",
        description:
          "One row per event with a loss, largest first. `year` is the catalogue year within the basin, `rate_per_year` the event's annual rate (Σ rate × loss = the expected annual loss of the portfolio tail). " +
          'Needs download permission; Free plan: loss_usd empty and the header X-Money-Withheld.',
        security: TOKEN_SECURITY,
        params,
        querystring: PortfolioTailQuery,
        response: { 200: { description: 'The event loss table', content: { 'text/csv': { schema: PortfolioTailCsv } } }, ...errors },
      },
    },
    async (req, reply) => {
      const t = await portfolioTail.tail(caller(req), req.params.projectId, req.query, 'download');
      if (!t.money) reply.header('x-money-withheld', 'portfolio_losses');
      const r = t.response;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="project_${r.project_id}_event_losses_${r.analysis_type}${r.scenario}_${r.year}.csv"`)
        .send(eventLossCsv(t.rows, t.money) as never);
    },
  );
};
