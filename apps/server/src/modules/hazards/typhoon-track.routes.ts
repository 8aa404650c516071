import { dbId, ErrorBody, TYPHOON_TRACK_RADIUS_DEFAULT_KM, TYPHOON_TRACK_RADIUS_MAX_KM, TyphoonTrackAnswer } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 404: ErrorBody };
const UserIdParam = z.object({ userId: dbId('userId', { coerce: true }) });
const id = (field: string) => dbId(field, { coerce: true });

const TyphoonTrackBody = z.object({
  latitude: z.coerce
    .number({ error: 'latitude must be a number' })
    .min(-90, 'latitude must be between -90 and 90')
    .max(90, 'latitude must be between -90 and 90')
    .optional(),
  longitude: z.coerce
    .number({ error: 'longitude must be a number' })
    .min(-180, 'longitude must be between -180 and 180')
    .max(180, 'longitude must be between -180 and 180')
    .optional(),
  project_id: id('project_id').optional(),
  asset_id: id('asset_id').optional(),
  radius_km: z.coerce
    .number({ error: 'radius_km must be a number' })
    .positive('radius_km must be more than 0')
    .max(TYPHOON_TRACK_RADIUS_MAX_KM, `radius_km must be at most ${TYPHOON_TRACK_RADIUS_MAX_KM}`)
    .default(TYPHOON_TRACK_RADIUS_DEFAULT_KM),
  since_year: z.coerce
    .number({ error: 'since_year must be a number' })
    .int('since_year must be a whole year')
    .min(1800, 'since_year must be 1800 or later')
    .max(2100, 'since_year must be 2100 or earlier')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit must be at most 500')
    .default(50),
});

export const typhoonTrackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/hazard/typhoon_track/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Historical tropical-cyclone tracks that passed within radius_km of a location or of an asset',
        description:
          'Body: {latitude, longitude} or {project_id, asset_id} (the asset of a project you may read), plus radius_km (default 200, max 500), since_year and limit (default 50). ' +
          'Distance is the great-circle distance to each 3-6 h track segment; wind_at_closest_ms is the 1-minute sustained wind interpolated along that segment; ' +
          'category is the Saffir-Simpson category of the lifetime maximum wind (-1 depression, 0 tropical storm). Storms are sorted by closest distance, then wind. ' +
          '`coverage` lists the basins whose records reach the point (empty: no track data there). Records: IBTrACS, JTWC, CMA, HURDAT2, IMD best tracks (see `sources`).',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: TyphoonTrackBody,
        response: { 201: TyphoonTrackAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const user = caller(req);
      app.services.projectList.assertSelf(user, req.params.userId);
      return reply.status(201).send(await app.services.hazards.typhoonTracks(user, req.body));
    },
  );
};
