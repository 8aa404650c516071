import {
  ErrorBody,
  PropertyRiskComputeBody,
  PropertyRiskComputeResponse,
  PropertyRiskFetchQuery,
  PropertyRiskProject,
  PropertyRiskResponse,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.extend({ error: z.array(z.string()).optional() }).passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Real estate and property risk (spec 001 §7): compute (data + project_name) as a job, fetch by project_name. */
export const realEstateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { propertyRisk } = app.services;

  app.post(
    '/api/v2/property_risk/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Real estate'],
        summary: 'Create a property-risk project from a JSON list of locations (data) and queue the flood and typhoon computation',
        description:
          'Form or JSON body: project_name, data (JSON list of locations with name, latitude, longitude and the optional spec 001 §3.6 fields; ' +
          'each may carry its own min_distance / max_distance in km), optional min_distance / max_distance (defaults 1 and 10 km), overwrite (true replaces ' +
          'a project of the same name), analysis_type / scenario / year (default ssp, 85, 2050). Row problems answer 400 with `error` listing them all and nothing is saved. ' +
          'Follow the job with GET api/v2/projects/{projectId}/status/, then read the rows with POST api/v2/property_risk/fetch/.',
        security: TOKEN_SECURITY,
        consumes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        body: PropertyRiskComputeBody,
        response: { 202: PropertyRiskComputeResponse, ...errors },
      },
    },
    async (req, reply) => {
      const out = await propertyRisk.compute(caller(req), req.body);
      return reply
        .status(202)
        .send({
          detail: out.created
            ? `Property-risk project '${out.project.name}' created with ${out.project.assets} properties; computation queued.`
            : `Property-risk project '${out.project.name}' overwritten with ${out.project.assets} properties; computation queued.`,
          project: out.project,
          job_id: out.jobId,
        });
    },
  );

  app.post(
    '/api/v2/property_risk/fetch/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Real estate'],
        summary: 'The property-risk rows of a project by project_name (flood and typhoon scores, ring mean/min/max, GDP and population)',
        description: 'data is empty until status is done. A project of another company, or not shared with the caller, is a 404.',
        security: TOKEN_SECURITY,
        consumes: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
        body: PropertyRiskFetchQuery,
        response: { 200: PropertyRiskResponse, ...errors },
      },
    },
    async (req) => propertyRisk.fetch(caller(req), req.body.project_name),
  );

  app.get(
    '/api/v2/property_risk/projects/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Real estate'],
        summary: "The caller's property-risk projects (own and shared with them), newest first",
        security: TOKEN_SECURITY,
        response: { 200: z.array(PropertyRiskProject), 401: ErrorBody },
      },
    },
    async (req) => propertyRisk.list(caller(req)),
  );
};
