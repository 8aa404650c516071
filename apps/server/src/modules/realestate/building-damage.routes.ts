import { BuildingDamageAnswer, ErrorBody, SCENARIOS, type ReturnPeriodCurve, type ScenarioCode } from '@crp/contracts';
import { buildingDamageCurves, EXPLORER_BASEMENT, EXPLORER_CONSTRUCTION, EXPLORER_HAZARDS, EXPLORER_OCCUPANCY, EXPLORER_STORIES, EXPLORER_VALUE_PER_SQ_M } from '@crp/engine';
import { defaultHazardLayers } from '@crp/hazards';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { assertCan } from '../projects/project-list.service.js';

const Body = z.object({
  project_name: z.string().trim().max(150).optional(),
  asset_name: z.string().trim().max(200).optional(),
  year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole year').min(2020, 'year must be 2020 to 2100').max(2100, 'year must be 2020 to 2100').default(2050),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  basement: z.enum(EXPLORER_BASEMENT, { error: `basement must be one of ${EXPLORER_BASEMENT.join(', ')}` }).default('unknown'),
  construction: z.enum(EXPLORER_CONSTRUCTION, { error: `construction must be one of ${EXPLORER_CONSTRUCTION.join(', ')}` }).default('unknown'),
  stories: z.enum(EXPLORER_STORIES, { error: `stories must be one of ${EXPLORER_STORIES.join(', ')}` }).default('unknown'),
  occupancy: z.enum(EXPLORER_OCCUPANCY, { error: `occupancy must be one of ${EXPLORER_OCCUPANCY.join(', ')}` }).default('unknown'),
  per_sq_m_value: z.coerce
    .number({ error: 'per_sq_m_value must be a number' })
    .refine((v) => (EXPLORER_VALUE_PER_SQ_M as readonly number[]).includes(v), `per_sq_m_value must be one of ${EXPLORER_VALUE_PER_SQ_M.join(', ')} (the upper bound of the band)`)
    .default(5000),
});

export const buildingDamageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/v2/building_damage/', {
    onRequest: app.authenticate,
    schema: {
      tags: ['Analysis'],
      summary: 'Building-damage explorer: damage-ratio curves for river flood, storm surge and rainfall flood per scenario',
      description:
        'Without an asset: Hazus/USACE depth-damage curves (x = depth in m). With project_name and asset_name: the site\'s return-period curves at the year for each scenario through the same building curve (x = return period in years), with the expected annual damage ratio.',
      security: TOKEN_SECURITY,
      body: Body,
      response: { 200: BuildingDamageAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
  }, async (req) => {
    const b = req.body;
    let hazardCurves: Partial<Record<(typeof EXPLORER_HAZARDS)[number], Partial<Record<ScenarioCode, ReturnPeriodCurve>>>> | undefined;
    if (b.project_name && b.asset_name) {
      const user = caller(req);
      const row = await app.db
        .selectFrom('projects as p')
        .innerJoin('assets as a', 'a.project_id', 'p.id')
        .leftJoin('project_shares as s', (j) => j.onRef('s.project_id', '=', 'p.id').on('s.user_id', '=', user.id))
        .select(['p.id as project_id', 'a.latitude', 'a.longitude'])
        .where('p.company_id', '=', user.companyId)
        .where('p.name_lower', '=', b.project_name.toLowerCase())
        .where('a.name', '=', b.asset_name)
        .where((eb) => eb.or([eb('p.owner_id', '=', user.id), eb('s.user_id', '=', user.id)]))
        .executeTakeFirst();
      if (!row) throw notFound(`asset_name: no asset '${b.asset_name}' in a project '${b.project_name}' you can see.`);
      const { role, project } = await app.services.projects.access(user, row.project_id);
      assertCan(role, 'view', project.name);
      const layers = await defaultHazardLayers();
      hazardCurves = {};
      for (const sc of SCENARIOS) {
        const point = layers.samplePoint(row.latitude, row.longitude, { analysisType: b.analysis_type, scenario: sc, year: b.analysis_type === 'rcp' ? Math.min(b.year, 2100) : b.year });
        for (const hz of EXPLORER_HAZARDS) {
          const rp = point[hz].return_periods;
          if (rp) (hazardCurves[hz] ??= {})[sc] = rp;
        }
      }
    }
    return buildingDamageCurves(
      { basement: b.basement, construction: b.construction, stories: b.stories, occupancy: b.occupancy, per_sq_m_value: b.per_sq_m_value },
      hazardCurves,
    );
  });
};
