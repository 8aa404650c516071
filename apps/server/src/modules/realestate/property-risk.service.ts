import {
  assetLimitMessage,
  PROPERTY_RING_DEFAULTS_KM,
  PROPERTY_RING_MAX_KM,
  type PropertyRiskComputeBody,
  type PropertyRiskProject,
  type PropertyRiskResponse,
  type PropertyRiskRow,
  type ProjectStatus,
} from '@crp/contracts';
import type { AssetInput } from '@crp/engine';
import { countryOf, gdpPerCapita, populationWithin } from '@crp/geo';
import { defaultHazardLayers } from '@crp/hazards';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../infra/db/database.js';
import type { AssetRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { elevationM, propertyRisk, scenarioYearOf } from './property-risk.js';
import { assetInputOf } from '../analysis/analysis.jobs.js';
import type { RealEstateRepository, NewPropertySite } from './realestate.repository.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { ASSET_ATTRIBUTE_COLUMNS, recordsFromJson, validateAssets } from '../projects/asset-import.js';
import type { JobDefinition, JobQueue } from '../../infra/job-queue.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import { tierDataOf } from '../accounts/tier.service.js';

export const PROPERTY_RISK_JOB = 'compute-property-risk';
/** Dashboard defaults (spec 001 §9): SSP, scenario 8.5, year 2050. */
const DEFAULT_SCENARIO = { analysis_type: 'ssp', scenario: '85', year: 2050 } as const;

type Scenario = PropertyRiskResponse['scenario'];

/** Real-estate property-risk projects: create and queue the computation, read the rows (spec 001 §7). */
export class PropertyRiskService {
  constructor(
    private readonly db: DB,
    private readonly repo: RealEstateRepository,
    private readonly users: UsersRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly jobs: JobQueue,
  ) {}

  /** Validates every location and ring (all problems listed, nothing stored), then stores the project and queues the job in one transaction. */
  // eslint-disable-next-line max-lines-per-function -- one request's steps in order (validate, sample rings, score, store); 80 lines before Prettier wrapped it
  async compute(caller: AuthUser, body: PropertyRiskComputeBody): Promise<{ project: ProjectStatus; jobId: number; created: boolean }> {
    const records = recordsFromJson(body.data);
    const { assets, errors } = validateAssets(records);
    const defMin = body.min_distance ?? PROPERTY_RING_DEFAULTS_KM.min_distance;
    const defMax = body.max_distance ?? PROPERTY_RING_DEFAULTS_KM.max_distance;
    const rings = records.map(({ row, values }) => {
      const read = (k: 'min_distance' | 'max_distance', fallback: number) => {
        const v = values[k];
        if (v === undefined || v === null || v === '' || v === 'NA') return fallback;
        const n = typeof v === 'number' ? v : Number(String(v).trim());
        if (!Number.isFinite(n) || n < 0 || n > PROPERTY_RING_MAX_KM) {
          errors.push(`Row ${row}: ${k} '${String(v).slice(0, 20)}' must be a number of km from 0 to ${PROPERTY_RING_MAX_KM}`);
          return fallback;
        }
        return n;
      };
      const min = read('min_distance', defMin);
      const max = read('max_distance', defMax);
      if (!(max > min)) errors.push(`Row ${row}: max_distance (${max} km) must be greater than min_distance (${min} km)`);
      return { min, max };
    });
    if (errors.length) {
      throw new AppError(400, `${errors.length} problem(s) in the locations: ${errors[0]}`, [{ field: 'data', message: errors[0]! }], { error: errors });
    }
    const scenario = this.scenarioOf(body);
    const company = await this.users.companyById(caller.companyId);
    if (!company) throw notFound();
    const limit = tierDataOf(company).assets_allowed;
    if (assets.length > limit)
      throw new AppError(400, assetLimitMessage(limit), [{ field: 'data', message: assetLimitMessage(limit) }], {
        error: [assetLimitMessage(limit)],
        code: 'asset_limit',
        assets_allowed: limit,
      });

    const sites: NewPropertySite[] = assets.map((a, i) => {
      const attributes: Record<string, unknown> = {};
      for (const c of ASSET_ATTRIBUTE_COLUMNS) attributes[c] = (a as Record<string, unknown>)[c] ?? null;
      const cc = (a.country_code as string | null | undefined) ?? countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null;
      return {
        name: a.name,
        latitude: a.latitude,
        longitude: a.longitude,
        country_code: cc,
        attributes,
        min_distance_km: rings[i]!.min,
        max_distance_km: rings[i]!.max,
      };
    });

    const name = body.project_name;
    return this.db.transaction().execute(async (tx) => {
      const existing = await this.repo.ownedByName(tx, caller.id, name);
      if (existing && !body.overwrite)
        throw badRequest(`project_name: you already have a property-risk project named '${name}'. Choose another name or turn on overwrite.`, 'project_name');
      const project = existing
        ? await this.repo.resetProject(tx, existing, scenario)
        : await this.repo.createProject(tx, { companyId: caller.companyId, ownerId: caller.id, name, filters: scenario });
      await this.repo.insertSites(tx, project.id, sites);
      const jobId = await this.jobs.enqueue(PROPERTY_RISK_JOB, { projectId: project.id, version: project.version }, tx);
      await this.users.audit(
        {
          company_id: caller.companyId,
          user_id: caller.id,
          action: existing ? 'realestate.overwrite' : 'realestate.created',
          detail: { project_id: project.id, assets: sites.length },
          client: null,
        },
        tx,
      );
      return {
        project: {
          project_id: project.id,
          name: project.name,
          status: project.status,
          progress: project.progress,
          message: project.status_message,
          assets: sites.length,
        },
        jobId,
        created: !existing,
      };
    });
  }

  private scenarioOf(body: PropertyRiskComputeBody): Scenario {
    const analysis_type = body.analysis_type ?? DEFAULT_SCENARIO.analysis_type;
    const scenario = body.scenario ?? DEFAULT_SCENARIO.scenario;
    const year = body.year ?? DEFAULT_SCENARIO.year;
    try {
      scenarioYearOf(analysis_type, scenario, year);
    } catch {
      throw badRequest(`year: ${year} is not offered for ${analysis_type} (rcp: 2020, 2030, 2050; ssp: 2025 to 2100 in steps of 5)`, 'year');
    }
    return { analysis_type, scenario, year };
  }

  /** The caller's property-risk projects (own and shared), newest first. */
  async list(caller: AuthUser): Promise<PropertyRiskProject[]> {
    const rows = await this.repo.visibleTo(caller.id, caller.companyId);
    return rows.map((r) => ({
      project_id: r.id,
      name: r.name,
      status: r.status,
      properties: r.properties,
      date: new Date(r.created_at).toISOString().slice(0, 10),
      own: r.owner_id === caller.id,
    }));
  }

  /** The rows of a property-risk project the caller may read, by name (404 otherwise, also for another company's project). */
  async fetch(caller: AuthUser, projectName: string): Promise<PropertyRiskResponse> {
    const { project } = await this.policy.findVisibleByName(caller, projectName, 'realestate');
    const sites = await this.repo.sites(project.id);
    const done = project.status === 'done';
    const data = done ? sites.filter((s) => s.result).map((s) => s.result as unknown as PropertyRiskRow) : [];
    const mean = (xs: number[]) => (xs.length ? Math.round((10 * xs.reduce((a, b) => a + b, 0)) / xs.length) / 10 : null);
    const f = project.default_filters as Scenario;
    return {
      project_name: project.name,
      project_id: project.id,
      status: project.status,
      progress: project.progress,
      message: project.status_message,
      scenario: { analysis_type: f.analysis_type, scenario: f.scenario, year: f.year },
      data,
      summary: {
        properties: sites.length,
        mean_flood_score: mean(data.map((r) => r.flood_score)),
        mean_typhoon_score: mean(data.map((r) => r.typhoon_score)),
        total_population: data.reduce((n, r) => n + r.population_value, 0),
        total_gdp_value: data.reduce((n, r) => n + (r.gdp_value ?? 0), 0),
      },
    };
  }
}

/** One location's row (spec 001 §3.7): engine scores at the point and in its ring, plus its surroundings. */
export function propertyRiskRow(
  asset: AssetRow,
  minKm: number,
  maxKm: number,
  layers: Awaited<ReturnType<typeof defaultHazardLayers>>,
  scenario: Scenario,
): PropertyRiskRow {
  const input: AssetInput & { latitude: number; longitude: number } = { ...assetInputOf(asset), latitude: asset.latitude, longitude: asset.longitude };
  const risk = propertyRisk(input, minKm, maxKm, layers, scenarioYearOf(scenario.analysis_type, scenario.scenario, scenario.year));
  const pop = populationWithin(asset.latitude, asset.longitude, maxKm);
  const country = countryOf(asset.latitude, asset.longitude, { nearestWithinKm: 50 });
  const gdp = gdpPerCapita(country?.country_code3);
  const elev = elevationM(layers, asset.latitude, asset.longitude);
  return {
    name: asset.name,
    flood_score: risk.flood_score,
    typhoon_score: risk.typhoon_score,
    gdp_value: gdp ? Math.round(pop.population * gdp.usd) : null,
    population_value: pop.population,
    flood: risk.flood,
    typhoon: risk.typhoon,
    lat: asset.latitude,
    lon: asset.longitude,
    property_type: asset.property_type,
    country_code: asset.country_code ?? country?.country_code ?? null,
    gdp_per_capita_usd: gdp?.usd ?? null,
    gdp_year: gdp?.year ?? null,
    population_places: pop.places,
    flood_driver: risk.flood_driver,
    flood_depth_m: risk.flood_depth_m,
    typhoon_wind_kmh: risk.typhoon_wind_kmh,
    elevation_m: elev,
    ring_samples: risk.ring_samples,
  };
}

/** The computation job: every location of a project version, results stored in one transaction. */
export function propertyRiskJob(db: DB, repo: RealEstateRepository, log: FastifyBaseLogger): JobDefinition<{ projectId: number; version: number }> {
  return {
    type: PROPERTY_RISK_JOB,
    maxAttempts: 3,
    retryDelaySeconds: 5,
    async run({ projectId, version }, ctx) {
      const project = await repo.projectForJob(projectId);
      if (!project || project.version !== version) return; // deleted or superseded by an overwrite
      await repo.setStatus(projectId, { status: 'running', progress: 0, status_message: 'Computing property risk' });
      const sites = await repo.sites(projectId);
      const layers = await defaultHazardLayers();
      const scenario = project.default_filters as Scenario;
      const t0 = performance.now();
      const results: { assetId: number; result: Record<string, unknown> }[] = [];
      for (const [i, s] of sites.entries()) {
        results.push({
          assetId: s.asset.id,
          result: propertyRiskRow(s.asset, s.min_distance_km, s.max_distance_km, layers, scenario) as unknown as Record<string, unknown>,
        });
        if (i % 20 === 19) {
          const message = `Computed ${i + 1} of ${sites.length} properties`;
          await repo.setStatus(projectId, { progress: 0.95 * ((i + 1) / sites.length), status_message: message });
          await ctx.progress(0.95 * ((i + 1) / sites.length), message);
          await new Promise((r) => setImmediate(r));
        }
      }
      const stored = await db.transaction().execute(async (tx) => {
        const current = await repo.lockVersion(projectId, tx);
        if (current === undefined || current !== version) return false;
        await repo.saveResults(tx, results);
        await repo.setStatus(projectId, { status: 'done', progress: 1, status_message: `Computed ${sites.length} properties`, analysed_at: new Date() }, tx);
        return true;
      });
      log.info({ projectId, properties: sites.length, ms: Math.round(performance.now() - t0), stored }, 'property risk computed');
    },
    async onFailed({ projectId }, error) {
      await repo.setStatus(projectId, { status: 'failed', status_message: `The property-risk computation failed: ${error.slice(0, 300)}` });
    },
  };
}
