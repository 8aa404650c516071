/**
 * The typed results API (issue 23 item 1) and the GIS exports of a project's assets (item 2): rows from a project's
 * stored analysis, or from posted assets analysed now with the same engine and hazard layers as a project's job.
 */
import {
  HAZARD_KEYS,
  METHODOLOGY_VERSION,
  SCENARIOS,
  YEARS,
  hazardByLabel,
  yearsProblem,
  type AnalysisType,
  type AssetResult,
  type HazardKey,
  type ResultsAsset,
  type ResultsResponse,
  type ScenarioCode,
} from '@crp/contracts';
import { computeChunk, prepareAssets, SCENARIO_YEARS, type AssetInput } from '@crp/engine';
import { countryOf } from '@crp/geo';
import { defaultHazardLayers, type ByoRegistry, type PublishedDatasets } from '@crp/hazards';
import { z } from 'zod';
import { createHazardProvider, prefetchPublished } from '../analysis/hazard-provider.js';
import type { StoredChunk } from '../analysis/result-codec.js';
import { assetFeatureProperties, cellsOf, countRows, type AssetFeatureProperties, type OwnLayerMarker, type ResultSelection } from '../analysis/result-rows.js';
import {
  ANALYSIS_RETRY_AFTER_SECONDS,
  loadProjectResults,
  resultsOf,
  type DecodeLimit,
  type ProjectResults,
  type ResultsAssetRow,
} from '../analysis/results-reader.js';
import { decodeCursor, encodeCursor, requestFingerprint } from './results-cursor.js';
import { pageRows, postedSource, projectSource, type RowPlan, type WindowSource } from './results-stream.js';
import type { DB } from '../../infra/db/database.js';
import type { ResultsRepository } from './results.repository.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { assertCan, type ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { OwnLayerService } from '../own-layers/own-layer.service.js';
import type { PublishedDatasetService } from '../published/published-datasets.service.js';
import { MONEY_WITHHELD, withholdMoney, type TierGate } from '../accounts/tier.service.js';

/** Posted assets analysed between two yields to the event loop. */
const CHUNK_ASSETS = 250;

type ParsedRequest = {
  project_id?: number | undefined;
  assets?: ResultsAsset[] | undefined;
  hazards?: HazardKey[] | undefined;
  analysis_type: AnalysisType;
  scenarios?: ScenarioCode[] | undefined;
  years?: number[] | undefined;
  asset_ids?: (number | string)[] | undefined;
  with_mitigation: boolean;
  gdp_adjusted: boolean;
};

/** Years of an analysis type, plus the 2020 baseline; 400 naming `field` for others. */
export function checkYears(at: AnalysisType, years: readonly number[] | undefined, field: string): number[] {
  const list = [...new Set(years ?? YEARS[at])].sort((a, b) => a - b);
  const problem = yearsProblem(at, list, field);
  if (problem) throw badRequest(problem, field);
  return list;
}

const hazardsOfProject = (project: ProjectRow): HazardKey[] =>
  (project.portfolio_variables as string[]).map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);

function inputOf(a: ResultsAsset, i: number): AssetInput {
  return {
    // the country as a project upload finds it (project.service.ts): it sets the default standard of flood protection
    id: i,
    name: a.name,
    latitude: a.latitude,
    longitude: a.longitude,
    type: a.property_type ?? null,
    country_code: a.country_code?.toUpperCase() ?? countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null,
    valuation: a.valuation ?? null,
    construction_cost: a.construction_cost ?? null,
    content_value: a.content_value ?? null,
    yearly_inventory_value: a.yearly_inventory_value ?? null,
    revenue: a.revenue ?? null,
    ownership: a.ownership ?? null,
    floors: a.floors ?? null,
    flood_protection: a.flood_protection ?? null,
    construction: a.construction ?? null,
  };
}

/** The rows with their money figures withheld, batch by batch (the rows of a large project are never all in memory). */
async function* withheldBatches(batches: AsyncIterable<AssetResult[]>): AsyncGenerator<AssetResult[]> {
  for await (const b of batches) yield b.map(withholdMoney);
}

/** A page of rows: the JSON answer's members before `results`, the next page's cursor, and the rows in batches. */
export interface RowsPage {
  head: Omit<ResultsResponse, 'results' | 'next_cursor'>;
  nextCursor: string | null;
  /** asset_id is a project's whole number, or a posted id as sent (text or number). */
  idKind: 'number' | 'text';
  rows: AsyncIterable<AssetResult[]>;
}

interface RowSourceOf {
  hazards: HazardKey[];
  source: WindowSource;
  assetCount: number;
  ordinals: number[] | null;
  /** The analysis run read (0 for posted assets). */
  run: number;
}

const missingIds = (ids: readonly unknown[], where: string) =>
  badRequest(
    `asset_ids: ${where} has no asset ${ids
      .slice(0, 5)
      .map((i) => JSON.stringify(i))
      .join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}.`,
    'asset_ids',
  );

/** Ordinals of posted assets by their ids (compared as text, so 7 and "7" are the same id); 400 naming asset_ids for others. */
function postedOrdinals(assets: readonly ResultsAsset[], ids: readonly (number | string)[]): number[] {
  const byId = new Map<string, number>();
  assets.forEach((a, i) => {
    if (a.id !== undefined && a.id !== null && !byId.has(String(a.id))) byId.set(String(a.id), i);
  });
  const missing = ids.filter((id) => !byId.has(String(id)));
  if (missing.length) throw missingIds(missing, 'the posted assets');
  return [...new Set(ids.map((id) => byId.get(String(id))!))].sort((a, b) => a - b);
}

/** A GeoJSON FeatureCollection (RFC 7946): Point features in [longitude, latitude], WGS 84. */
export function featureCollection<P extends { longitude: number; latitude: number }>(items: Iterable<P>, extra: Record<string, unknown> = {}) {
  const features = [];
  for (const p of items)
    features.push({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [p.longitude, p.latitude] }, properties: p });
  return { type: 'FeatureCollection' as const, ...extra, features };
}

export const GisQuery = z.object({
  format: z.enum(['geojson', 'gpkg'], { error: 'format must be geojson or gpkg' }).default('geojson'),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
  scenario: z.enum(SCENARIOS, { error: 'scenario must be 26, 45 or 85' }).optional(),
  year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole year').optional(),
  with_mitigation: z.enum(['true', 'false'], { error: 'with_mitigation must be true or false' }).default('true'),
});
export type GisQuery = z.infer<typeof GisQuery>;

/** Marks of a company's own layers for posted assets (all its layers apply: they are analysed now). */
function markerOf(own: ByoRegistry | null, published: PublishedDatasets | null): OwnLayerMarker {
  // the baseline is sampled as SSP2-4.5 (analysis/hazard-provider.ts)
  const layerAt = (lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number) => {
    const hits = own ? own.lookup(lat, lng, scenario ?? '45', year).filter((h) => h.entry.hazard === hazard) : [];
    return hits.length ? [...new Set(hits.map((h) => h.entry.label ?? h.entry.id))].join('; ') : null;
  };
  return { layerAt, publishedAt: (lat, lng, hazard, scenario, year) => (published ? published.labelAt(lat, lng, hazard, scenario ?? '45', year) : null) };
}

export class ResultsService {
  constructor(
    private readonly db: DB,
    private readonly repo: ResultsRepository,
    private readonly policy: ProjectAccessPolicy,
    /** How much of a stored analysis may be decoded at once (config RESULTS_DECODE_MAX_MB). */
    private readonly decodeLimit: DecodeLimit,
    /** The company's own hazard layers: applied to posted assets as a project's analysis applies them, and marked. */
    private readonly own?: Pick<OwnLayerService, 'markerFor' | 'registryFor'>,
    /** The installation's published flood maps: applied to posted assets before the own layers, and marked. */
    private readonly published?: Pick<PublishedDatasetService, 'current'>,
    /** Whether the caller's tier shows money figures (a Free company gets them as null). */
    private readonly tiers?: Pick<TierGate, 'moneyAllowed'>,
  ) {}

  private async moneyAllowed(caller: AuthUser): Promise<boolean> {
    return this.tiers ? this.tiers.moneyAllowed(caller.companyId) : true;
  }

  /** A project the caller may download (the export routes' rule): 404 when not visible, 403 without download right. */
  private async downloadable(caller: AuthUser, projectId: number): Promise<ProjectRow> {
    const { project, role } = await this.policy.access(caller, projectId);
    if (project.kind !== 'physical')
      throw new AppError(404, `project_id: no physical-risk project ${projectId}.`, [{ field: 'project_id', message: 'not a physical-risk project' }]);
    assertCan(role, 'download', project.name);
    return project;
  }

  /**
   * A page of the request's rows (every row without `limit`), streamed: the answer's head, the plan (which rows), and
   * the rows in batches, read a stored chunk at a time (results-stream.ts). `cursor` continues an earlier page.
   */
  async rows(caller: AuthUser, body: ParsedRequest, page: { limit?: number | undefined; cursor?: string | undefined } = {}): Promise<RowsPage> {
    const at = body.analysis_type;
    const years = checkYears(at, body.years, 'years');
    const scenarios = [...new Set(body.scenarios ?? SCENARIOS)];
    const { hazards, source, assetCount, ordinals, run } =
      body.project_id !== undefined ? await this.projectRows(caller, body.project_id, body) : await this.postedRows(caller, body, at, scenarios, years);
    const sel: ResultSelection = { analysisType: at, hazards, scenarios, years, withMitigation: body.with_mitigation, gdpAdjusted: body.gdp_adjusted };
    const selected = ordinals ? ordinals.length : assetCount;
    const perAsset = countRows(1, sel);
    const total = selected * perAsset;
    const fingerprint = requestFingerprint({ ...body, hazards, scenarios, years });
    const from = page.cursor !== undefined ? decodeCursor(page.cursor, { run, fingerprint, totalRows: total }) : 0;
    const to = page.limit !== undefined ? Math.min(total, from + page.limit) : total;
    const plan: RowPlan = { ordinals, assets: selected, perAsset, total, from, to };
    const money = await this.moneyAllowed(caller);
    const batches = pageRows(source, plan, sel);
    return {
      head: {
        methodology_version: METHODOLOGY_VERSION,
        project_id: body.project_id ?? null,
        analysis_type: at,
        assets: selected,
        rows: to - from,
        total_rows: total,
        money_withheld: money ? null : MONEY_WITHHELD,
      },
      nextCursor: to < total ? encodeCursor({ o: to, r: run, f: fingerprint }) : null,
      idKind: body.project_id !== undefined ? 'number' : 'text',
      rows: money ? batches : withheldBatches(batches),
    };
  }

  /** A project's stored analysis as a row source (read a chunk at a time). */
  private async projectRows(caller: AuthUser, projectId: number, body: ParsedRequest): Promise<RowSourceOf> {
    const project = await this.downloadable(caller, projectId);
    const hazards = [...new Set(body.hazards ?? hazardsOfProject(project))];
    const run = await this.finishedRun(project.id);
    const assetCount = await this.repo.assetCount(project.id);
    const ordinals = body.asset_ids ? await this.projectOrdinals(project.id, body.asset_ids) : null;
    const source = projectSource(this.repo, project.id, run, (await this.own?.markerFor(project)) ?? null);
    return { hazards, source, assetCount, ordinals, run };
  }

  /** Posted assets analysed now (at most 1,000) as a row source. */
  private async postedRows(caller: AuthUser, body: ParsedRequest, at: AnalysisType, scenarios: ScenarioCode[], years: number[]): Promise<RowSourceOf> {
    const assets = body.assets!;
    const hazards = [...new Set(body.hazards ?? HAZARD_KEYS)];
    const ordinals = body.asset_ids ? postedOrdinals(assets, body.asset_ids) : null;
    const registry = this.own ? (await this.own.registryFor(caller.companyId)).registry : null;
    const own = registry && registry.size > 0 ? registry : null;
    const pub = (await this.published?.current()) ?? null;
    const results = await this.analyse(assets, own, pub);
    await pub?.prefetch(results.assets, cellsOf(at, scenarios, years));
    return { hazards, source: postedSource(results, own || pub ? markerOf(own, pub) : null), assetCount: assets.length, ordinals, run: 0 };
  }

  /** The run whose rows are read: 409 while there is none (queued or running: Retry-After), or when it failed. */
  private async finishedRun(projectId: number): Promise<number> {
    const p = await this.repo.run(projectId);
    if (p.results_version !== null) return p.results_version;
    if (p.status === 'failed') throw new AppError(409, `The analysis of this project failed: ${p.status_message ?? ''}`);
    throw new AppError(409, 'The analysis of this project is not finished yet. Try again when it is done.', undefined, {
      retry_after_seconds: ANALYSIS_RETRY_AFTER_SECONDS,
    });
  }

  /** Ordinals of a project's asset ids, ascending; 400 naming asset_ids for an id the project does not have. */
  private async projectOrdinals(projectId: number, ids: readonly (number | string)[]): Promise<number[]> {
    const nums = ids.map((id) => (typeof id === 'number' ? id : /^\d+$/.test(id.trim()) ? Number(id.trim()) : NaN));
    const bad = ids.filter((_, i) => !Number.isSafeInteger(nums[i]));
    const found = await this.repo.ordinalsOf(projectId, [...new Set(nums.filter((n) => Number.isSafeInteger(n)))]);
    const missing = [...bad, ...nums.filter((n) => Number.isSafeInteger(n) && !found.has(n))];
    if (missing.length) throw missingIds(missing, `project ${projectId}`);
    return [...new Set(found.values())].sort((a, b) => a - b);
  }

  /** Posted assets through the engine with the default hazard layers, as a project's analysis job does. */
  private async analyse(assets: ResultsAsset[], own: ByoRegistry | null, published: PublishedDatasets | null): Promise<ProjectResults<ResultsAssetRow>> {
    const inputs = assets.map(inputOf);
    const prepared = prepareAssets(inputs, undefined);
    const provider = createHazardProvider({ own, published }, await defaultHazardLayers());
    const chunks: StoredChunk[] = [];
    for (let start = 0; start < inputs.length; start += CHUNK_ASSETS) {
      const end = Math.min(inputs.length, start + CHUNK_ASSETS);
      await prefetchPublished(published, inputs.slice(start, end));
      chunks.push(computeChunk(prepared, inputs, start, end, SCENARIO_YEARS, provider) as StoredChunk);
      await new Promise((r) => setImmediate(r));
    }
    const rows: ResultsAssetRow[] = assets.map((a, i) => ({
      id: a.id ?? null,
      name: a.name,
      latitude: a.latitude,
      longitude: a.longitude,
      property_type: a.property_type ?? null,
      input: inputs[i]!,
    }));
    return resultsOf(rows, chunks);
  }

  /** One feature per asset of a project at one scenario-year (default: the project's default filter). */
  async projectFeatures(
    caller: AuthUser,
    projectId: number,
    q: GisQuery,
  ): Promise<{ project: ProjectRow; properties: AssetFeatureProperties[]; hazards: HazardKey[]; at: AnalysisType; scenario: ScenarioCode; year: number }> {
    const project = await this.downloadable(caller, projectId);
    const filters = project.default_filters as { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };
    const at = q.analysis_type ?? filters.analysis_type;
    const scenario = q.scenario ?? (at === filters.analysis_type ? filters.scenario : '45');
    const year = checkYears(at, [q.year ?? (at === filters.analysis_type ? filters.year : 2050)], 'year')[0]!;
    const hazards = hazardsOfProject(project);
    const results = await loadProjectResults(this.db, project.id, this.decodeLimit);
    const money = await this.moneyAllowed(caller);
    // which own layer or published map gave each value, as the results API marks its rows
    const marker = (await this.own?.markerFor(project)) ?? null;
    await marker?.prefetch(results.assets, cellsOf(at, [scenario], [year]));
    const properties = results.assets.map((_, i) => {
      const p = assetFeatureProperties(results, i, at, scenario, year, hazards, q.with_mitigation === 'true', marker);
      return money ? p : withholdMoney(p);
    });
    return { project, properties, hazards, at, scenario, year };
  }
}
