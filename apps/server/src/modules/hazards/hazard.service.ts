import {
  CURVE_HAZARD_KEYS,
  HazardPointQuery as HazardPointQuerySchema,
  type HazardCurvesAnswer,
  type HazardCurvesRequest,
  type HazardPointQuery,
  type TyphoonTrackAnswer,
} from '@crp/contracts';
import { defaultHazardLayers, defaultTrackArchive, hazardPoint, trackDataSources } from '@crp/hazards';
import type { z } from 'zod';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { OwnLayerService } from '../own-layers/own-layer.service.js';
import type { PublishedDatasetService } from '../published/published-datasets.service.js';

/** A typhoon-track request as validated by the route: a point, or an asset of a project, plus the search window. */
export interface TyphoonTrackRequest {
  latitude?: number | undefined;
  longitude?: number | undefined;
  project_id?: number | undefined;
  asset_id?: number | undefined;
  radius_km: number;
  since_year?: number | undefined;
  limit: number;
}

const bad = (field: string, message: string) => new AppError(400, `${field}: ${message}`, [{ field, message }]);

/** Hazard values at a point, the layer catalogue, and historical cyclone tracks near a point or an asset. */
export class HazardService {
  constructor(
    private readonly policy: ProjectAccessPolicy,
    private readonly ownLayers: Pick<OwnLayerService, 'registryFor'>,
    private readonly published?: Pick<PublishedDatasetService, 'current'>,
  ) {}

  /**
   * All hazards at one point; the installation's published flood maps, then the caller's company's own layers, replace
   * built-in values where they cover it.
   */
  async point(caller: AuthUser, query: HazardPointQuery) {
    const published = (await this.published?.current()) ?? null;
    if (published) {
      // the maps' pixels read ahead, off the event loop (a bad query is answered by hazardPoint below)
      const q = HazardPointQuerySchema.safeParse(query);
      if (q.success) await published.prefetch([q.data], [{ scenario: q.data.scenario, year: q.data.year }]);
    }
    return hazardPoint(query, await defaultHazardLayers(), (await this.ownLayers.registryFor(caller.companyId)).registry, published);
  }

  /**
   * Many points at one scenario and year (issue 38): each point answers the point API's values of the hazards asked
   * for (default the curve hazards), by the same function, so the two never disagree.
   */
  async curves(caller: AuthUser, body: HazardCurvesRequest): Promise<z.input<typeof HazardCurvesAnswer>> {
    const { analysis_type, scenario, year } = body;
    const check = HazardPointQuerySchema.safeParse({ latitude: 0, longitude: 0, analysis_type, scenario, year });
    if (!check.success) {
      const issue = check.error.issues[0]!;
      throw bad(String(issue.path[0] ?? 'year'), issue.message);
    }
    const layers = await defaultHazardLayers();
    const own = (await this.ownLayers.registryFor(caller.companyId)).registry;
    const published = (await this.published?.current()) ?? null;
    await published?.prefetch(body.points, [{ scenario, year }]);
    const hazards = body.hazards ?? CURVE_HAZARD_KEYS;
    const points: z.input<typeof HazardCurvesAnswer>['points'] = [];
    let label = '';
    for (const [i, p] of body.points.entries()) {
      const r = await hazardPoint({ latitude: p.latitude, longitude: p.longitude, analysis_type, scenario, year }, layers, own, published);
      label = r.scenario_label;
      const values: Record<string, (typeof r.hazards)[keyof typeof r.hazards]> = {};
      for (const h of hazards) values[h] = r.hazards[h];
      points.push({ id: p.id ?? null, latitude: p.latitude, longitude: p.longitude, hazards: values });
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve)); // other requests between slices
    }
    return { analysis_type, scenario, scenario_label: label, year, points };
  }

  async catalog() {
    return (await defaultHazardLayers()).catalog();
  }

  /** The point a typhoon-track request is about: its coordinates, or an asset of a project the caller may read. */
  private async trackPoint(caller: AuthUser, b: TyphoonTrackRequest) {
    if (b.project_id !== undefined || b.asset_id !== undefined) {
      if (b.project_id === undefined) throw bad('project_id', 'project_id is required with asset_id');
      if (b.asset_id === undefined) throw bad('asset_id', 'asset_id is required with project_id');
      if (b.latitude !== undefined || b.longitude !== undefined)
        throw bad(b.latitude !== undefined ? 'latitude' : 'longitude', 'send either latitude and longitude or project_id and asset_id, not both');
      const row = await this.policy.readableAsset(caller, b.project_id, b.asset_id); // 404 for a project the caller may not read
      if (!row) throw notFound(`asset_id: no asset ${b.asset_id} in project ${b.project_id}.`);
      return { latitude: row.latitude, longitude: row.longitude, asset: { id: row.id, name: row.name, project_id: row.project_id } };
    }
    if (b.latitude === undefined) throw bad('latitude', 'latitude is required (or send project_id and asset_id)');
    if (b.longitude === undefined) throw bad('longitude', 'longitude is required (or send project_id and asset_id)');
    return { latitude: b.latitude, longitude: b.longitude, asset: null };
  }

  /** Historical tropical-cyclone tracks that passed within radius_km of the point, closest first. */
  async typhoonTracks(caller: AuthUser, b: TyphoonTrackRequest): Promise<z.input<typeof TyphoonTrackAnswer>> {
    const { latitude, longitude, asset } = await this.trackPoint(caller, b);
    const archive = defaultTrackArchive();
    const r = archive.nearby({
      latitude,
      longitude,
      radiusKm: b.radius_km,
      ...(b.since_year !== undefined ? { sinceYear: b.since_year } : {}),
      limit: b.limit,
    });
    return {
      latitude,
      longitude,
      radius_km: b.radius_km,
      since_year: b.since_year ?? null,
      ...(asset ? { asset } : {}),
      count: r.storms.length,
      total: r.total,
      has_data: r.coverage.length > 0,
      coverage: r.coverage.map((c) => ({ basin: c.basin, from: c.from, to: c.to })),
      storms: r.storms,
      wind: '1-minute sustained 10 m wind, m/s (RSMC Tokyo 10-min winds ÷ 0.93; CMA 2-min and IMD 3-min as reported)',
      sources: trackDataSources(archive),
    };
  }
}
