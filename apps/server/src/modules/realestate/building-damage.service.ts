import { SCENARIOS, type ReturnPeriodCurve, type ScenarioCode } from '@crp/contracts';
import {
  buildingDamageCurves,
  EXPLORER_BASEMENT,
  EXPLORER_CONSTRUCTION,
  EXPLORER_HAZARDS,
  EXPLORER_OCCUPANCY,
  EXPLORER_STORIES,
  EXPLORER_VALUE_PER_SQ_M,
} from '@crp/engine';
import { defaultHazardLayers } from '@crp/hazards';
import { z } from 'zod';
import type { AuthUser } from '../../lib/auth-context.js';
import { notFound } from '../../lib/errors.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';

/** The building-damage explorer's request (the choices are the engine's explorer bands). */
export const BuildingDamageBody = z.object({
  project_name: z.string().trim().max(150).optional(),
  asset_name: z.string().trim().max(200).optional(),
  year: z.coerce
    .number({ error: 'year must be a number' })
    .int('year must be a whole year')
    .min(2020, 'year must be 2020 to 2100')
    .max(2100, 'year must be 2020 to 2100')
    .default(2050),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  basement: z.enum(EXPLORER_BASEMENT, { error: `basement must be one of ${EXPLORER_BASEMENT.join(', ')}` }).default('unknown'),
  construction: z.enum(EXPLORER_CONSTRUCTION, { error: `construction must be one of ${EXPLORER_CONSTRUCTION.join(', ')}` }).default('unknown'),
  stories: z.enum(EXPLORER_STORIES, { error: `stories must be one of ${EXPLORER_STORIES.join(', ')}` }).default('unknown'),
  occupancy: z.enum(EXPLORER_OCCUPANCY, { error: `occupancy must be one of ${EXPLORER_OCCUPANCY.join(', ')}` }).default('unknown'),
  per_sq_m_value: z.coerce
    .number({ error: 'per_sq_m_value must be a number' })
    .refine(
      (v) => (EXPLORER_VALUE_PER_SQ_M as readonly number[]).includes(v),
      `per_sq_m_value must be one of ${EXPLORER_VALUE_PER_SQ_M.join(', ')} (the upper bound of the band)`,
    )
    .default(5000),
});

export type BuildingDamageBody = z.infer<typeof BuildingDamageBody>;

type HazardCurves = Partial<Record<(typeof EXPLORER_HAZARDS)[number], Partial<Record<ScenarioCode, ReturnPeriodCurve>>>>;

/** Building-damage explorer: depth-damage curves, or a site's return-period curves through the same building curve. */
export class BuildingDamageService {
  constructor(private readonly policy: ProjectAccessPolicy) {}

  /** The return-period curves of each scenario at the site of a named asset the caller may view. */
  private async siteCurves(caller: AuthUser, b: BuildingDamageBody & { project_name: string; asset_name: string }): Promise<HazardCurves> {
    const row = await this.policy.visibleAssetByName(caller, b.project_name, b.asset_name);
    if (!row) throw notFound(`asset_name: no asset '${b.asset_name}' in a project '${b.project_name}' you can see.`);
    await this.policy.require(caller, row.project_id, 'view');
    const layers = await defaultHazardLayers();
    const hazardCurves: HazardCurves = {};
    for (const sc of SCENARIOS) {
      const point = layers.samplePoint(row.latitude, row.longitude, {
        analysisType: b.analysis_type,
        scenario: sc,
        year: b.analysis_type === 'rcp' ? Math.min(b.year, 2100) : b.year,
      });
      for (const hz of EXPLORER_HAZARDS) {
        const rp = point[hz].return_periods;
        if (rp) (hazardCurves[hz] ??= {})[sc] = rp;
      }
    }
    return hazardCurves;
  }

  async curves(caller: AuthUser, b: BuildingDamageBody) {
    const hazardCurves =
      b.project_name && b.asset_name ? await this.siteCurves(caller, { ...b, project_name: b.project_name, asset_name: b.asset_name }) : undefined;
    return buildingDamageCurves(
      { basement: b.basement, construction: b.construction, stories: b.stories, occupancy: b.occupancy, per_sq_m_value: b.per_sq_m_value },
      hazardCurves,
    );
  }
}
