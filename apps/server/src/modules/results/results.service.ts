/**
 * The typed results API (issue 23 item 1) and the GIS exports of a project's assets (item 2): rows from a project's
 * stored analysis, or from posted assets analysed now with the same engine and hazard layers as a project's job.
 */
import {
  ASSET_RESULT_COLUMNS,
  HAZARD_KEYS,
  METHODOLOGY_VERSION,
  RESULTS_MAX_ROWS,
  SCENARIOS,
  YEARS,
  csvField,
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
import {
  assetFeatureProperties,
  assetResultRows,
  cellsOf,
  countRows,
  type AssetFeatureProperties,
  type OwnLayerMarker,
  type ResultSelection,
} from '../analysis/result-rows.js';
import { loadProjectResults, resultsOf, type DecodeLimit, type ProjectResults, type ResultsAssetRow } from '../analysis/results-reader.js';
import type { DB } from '../../infra/db/database.js';
import type { ResultsRepository } from './results.repository.js';
import type { AssetRow, ProjectRow } from '../../infra/db/schema.js';
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

/** The rows with their money figures withheld, lazily (the rows of a large project are never all in memory). */
function* withheld(rows: Iterable<AssetResult>): Iterable<AssetResult> {
  for (const r of rows) yield withholdMoney(r);
}

/** CSV text of result rows: RFC 4180 quoting; text cells that a spreadsheet would run as a formula are escaped (csvField). */
export function resultsCsv(rows: Iterable<AssetResult>): string {
  const lines = [ASSET_RESULT_COLUMNS.join(',')];
  for (const r of rows) lines.push(ASSET_RESULT_COLUMNS.map((c) => csvField(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
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

  /** Per-asset rows of the request (JSON answer); csv and geojson format the same rows. */
  async rows(caller: AuthUser, body: ParsedRequest): Promise<{ response: Omit<ResultsResponse, 'results'>; rows: Iterable<AssetResult> }> {
    const at = body.analysis_type;
    const years = checkYears(at, body.years, 'years');
    const scenarios = [...new Set(body.scenarios ?? SCENARIOS)];
    let results: ProjectResults<AssetRow | ResultsAssetRow>;
    let hazards: HazardKey[];
    let marker: OwnLayerMarker | null = null;
    if (body.project_id !== undefined) {
      const project = await this.downloadable(caller, body.project_id);
      hazards = [...new Set(body.hazards ?? hazardsOfProject(project))];
      // Count before decoding: the assets of a project are counted in SQL.
      this.checkSize(await this.repo.assetCount(project.id), { hazards, scenarios, years });
      results = await loadProjectResults(this.db, project.id, this.decodeLimit);
      const m = (await this.own?.markerFor(project)) ?? null;
      await m?.prefetch(results.assets, cellsOf(at, scenarios, years));
      marker = m;
    } else {
      const assets = body.assets!;
      hazards = [...new Set(body.hazards ?? HAZARD_KEYS)];
      this.checkSize(assets.length, { hazards, scenarios, years });
      const registry = this.own ? (await this.own.registryFor(caller.companyId)).registry : null;
      const own = registry && registry.size > 0 ? registry : null;
      const pub = (await this.published?.current()) ?? null;
      results = await this.analyse(assets, own, pub);
      if (own || pub) marker = markerOf(own, pub);
      await pub?.prefetch(results.assets, cellsOf(at, scenarios, years));
    }
    const sel: ResultSelection = { analysisType: at, hazards, scenarios, years, withMitigation: body.with_mitigation, gdpAdjusted: body.gdp_adjusted };
    const money = await this.moneyAllowed(caller);
    const rows = assetResultRows(results, sel, marker);
    return {
      response: {
        methodology_version: METHODOLOGY_VERSION,
        project_id: body.project_id ?? null,
        analysis_type: at,
        assets: results.assets.length,
        rows: countRows(results.assets.length, sel),
        money_withheld: money ? null : MONEY_WITHHELD,
      },
      rows: money ? rows : withheld(rows),
    };
  }

  private checkSize(assets: number, sel: Pick<ResultSelection, 'hazards' | 'scenarios' | 'years'>) {
    const total = countRows(assets, sel);
    if (total > RESULTS_MAX_ROWS) {
      throw badRequest(
        `years: this request makes ${total.toLocaleString('en-US')} rows (assets x hazards x scenarios x years); one answer holds at most ${RESULTS_MAX_ROWS.toLocaleString('en-US')}. Ask for fewer years, scenarios or hazards, or split the assets.`,
        'years',
      );
    }
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
