import {
  BASELINE_YEAR,
  DATA_EDIT_PERMISSIONS,
  HAZARDS,
  HAZARD_KEYS,
  HAZARD_INDICATORS,
  METHODOLOGY_VERSION,
  SCENARIO_LABELS,
  SCENARIOS,
  YEARS,
  climateScoreLevel,
  hazardByLabel,
  severityBand,
  ASSET_TABLE_COLUMNS,
  DashboardAssetRow,
  type AnalysisType,
  dashboardView,
  type DashboardAnswer,
  type DashboardAssets,
  type DashboardView,
  type DashboardAssetTable,
  type DashboardBody,
  type DashboardFilterFields,
  type DashboardAssetPage,
  type DashboardAssetPageBody,
  type DashboardAssetPageRow,
  type DashboardHeatmapPage,
  type DashboardHeatmapPageBody,
  type DashboardMapAnswer,
  type DashboardMapBody,
  DASHBOARD_MAP_POINTS_MAX,
  type HazardKey,
  type ScenarioCode,
  type TierSection,
} from '@crp/contracts';
import { ASSET_BATCH_FIELDS, assetCvarBatch, defaultMeasure, exposedValue as exposedValueOf, gdpGrowthFactor, hazardScore, N_HAZARDS, keyFindings, portfolioCvarSeriesOf, portfolioHazardSeriesOf, SCENARIO_YEAR_INDEX, SCENARIO_YEARS, scenarioYearKey, seriesIndices, isInsurableIndex, technicalPremium, type LossOptions } from '@crp/engine';
import { DATASETS, HAZARD_META } from '@crp/hazards';
import { loadProjectResults, type ProjectResults } from '../analysis/results-reader.js';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { assertCan } from '../access/project-access.policy.js';
import type { ProjectAccessPolicy as ProjectService, ProjectRole } from '../access/project-access.policy.js';
import { tierDataOf } from '../accounts/tier.service.js';
import { Lru } from '../../lib/lru.js';
import type { OwnDataMarker, OwnLayerService } from '../own-layers/own-layer.service.js';

const labelOf = (h: HazardKey) => HAZARDS.find((x) => x.key === h)!.label;
const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
const TYPHOON = HAZARD_KEYS.indexOf('typhoon');

/**
 * Memory bounds of the dashboard's caches (docs/performance.md, "Dashboard"). Decoded analyses: at most 4 projects and
 * DASHBOARD_RESULTS_CACHE_MB (default 768 MiB; a 10,000-asset analysis decodes to about 200 MiB) of typed arrays, least
 * recently used evicted first (the newest is always kept). Per analysis, at most 64 portfolio CVaR series (a few
 * hundred bytes each). Serialised answers: DASHBOARD_ANSWER_CACHE_MB (default 128 MiB), none above 32 MiB.
 */
const MIB = 2 ** 20;
const SERIES_PER_ANALYSIS = 64;


/** A decoded analysis and what the dashboard derived from it (valid as long as the analysis). */
interface CachedResults {
  R: ProjectResults;
  /** The background computation of the whole-portfolio series has been started (precomputeSeries). */
  precomputing?: boolean;
  series: Lru<ReturnType<typeof portfolioCvarSeriesOf>>;
  /** Per-hazard loss series (loss bars) by analysis type, scenario, hazard set, content, GDP adjustment and property type. */
  hazardSeries: Lru<ReturnType<typeof portfolioHazardSeriesOf>>;
  /** Score matrices by scenario-year and adaptation (see scoreMatrix in build), at most 32 MiB per analysis. */
  scores: Lru<Uint8Array>;
  /** Per-asset CVaRs by analysis type, scenario, year, hazards, content and GDP adjustment, at most 64 MiB per analysis. */
  batches: Lru<{ pa: Float64Array; ph: Float64Array }>;
  /** JSON text of the sections that do not depend on the filters when every asset is selected (assets, stored table columns). */
  json: Map<string, string>;
  /** Means over every asset (hazard values, severity table, heat-map averages) by hazard, scenario-year and adaptation. */
  means: Map<string, number | null>;
}

/** Decoded analyses kept in memory (most recent few), so repeated dashboard queries do not re-read the database. */
class ResultsCache {
  private readonly lru: Lru<Promise<CachedResults>>;
  constructor(maxBytes: number) {
    this.lru = new Lru<Promise<CachedResults>>(4, maxBytes);
  }
  get(key: string, load: () => Promise<ProjectResults>): Promise<CachedResults> {
    let hit = this.lru.get(key);
    if (hit) return hit;
    hit = load().then((R) => ({ R, series: new Lru(SERIES_PER_ANALYSIS), hazardSeries: new Lru(SERIES_PER_ANALYSIS), scores: new Lru<Uint8Array>(Infinity, 32 * MIB), batches: new Lru(Infinity, 64 * MIB), json: new Map(), means: new Map() }));
    hit.then((c) => { if (this.lru.get(key) === hit) this.lru.set(key, hit!, c.R.bytes); }, () => this.lru.delete(key));
    this.lru.set(key, hit, 0);
    return hit;
  }
}

/**
 * The physical-risk dashboard (spec 001 §2.1, §3.2): every figure computed from the stored analysis for one analysis
 * type, scenario and year. Field meanings are documented in docs/dashboard.md.
 */
/** The dashboard answer object (what query returns). */
export type DashboardAnswerObject = Exclude<Awaited<ReturnType<DashboardService['build']>>, Buffer | { kind: 'rows' }>;

/**
 * The selected assets of one analysis and selection filters, as the page endpoints read them (build in rows mode):
 * idx[n] = the n-th selected asset, pa its per-asset CVaRs (ASSET_BATCH_FIELDS per asset), assetScores[n] its climate
 * score; plus the sorted orders and search results asked so far. Plain data, kept per analysis (DashboardService.selections).
 */
interface SelectionData {
  kind: 'rows';
  R: ProjectResults;
  cachedResults: CachedResults;
  idx: Int32Array;
  pa: Float64Array;
  assetScores: (number | null)[];
  hazards: HazardKey[];
  hk: Int32Array;
  syIdx: number;
  mitigation: boolean;
  /** Sorted orders (positions n) by sort key and order. */
  orders: Lru<Int32Array>;
  /** Positions matching a search, in a sorted order, by search, sort key and order. */
  searches: Lru<Int32Array>;
  /** Lower-case name and property type of each selected asset (searches), made on the first search. */
  haystack?: string[];
  /** Selected position of each asset id (ids filter). */
  positionOfId?: Map<number, number>;
  bounds?: [number, number, number, number] | null;
}
type Selection = SelectionData & { allowed: Partial<Record<TierSection, boolean>> };

/** Key of a portfolio series in an analysis's caches: what the series depends on besides the analysis. */
const seriesKeyOf = (at: AnalysisType, s: ScenarioCode, hazards: readonly HazardKey[], withContent: boolean, gdpAdjusted: boolean, propertyType: string) =>
  `${at}|${s}|${hazards.join(',')}|${withContent}|${gdpAdjusted}|${propertyType.toLowerCase()}`;
const hazardKeysOf = (labels: readonly string[]) => labels.map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);

/** The decoded-analysis cache's key: a project's analysis is identified by its version and analysis time. */
const resultsKeyOf = (p: Pick<ProjectRow, 'id' | 'version' | 'analysed_at'>) => `${p.id}:${p.version}:${p.analysed_at ? new Date(p.analysed_at).getTime() : 0}`;

type AssetRecord = ProjectResults['assets'][number];
type AssetTableColumn = (typeof ASSET_TABLE_COLUMNS)[number];
/** How the identity columns (the `assets` block) read an asset. */
const IDENTITY_COLUMNS = {
  id: (a: AssetRecord) => a.id,
  name: (a: AssetRecord) => a.name,
  latitude: (a: AssetRecord) => a.latitude,
  longitude: (a: AssetRecord) => a.longitude,
  country_code: (a: AssetRecord) => a.country_code,
} satisfies Record<Exclude<keyof DashboardAssets, 'continent'>, (a: AssetRecord) => unknown>;
const ASSET_IDENTITY_KEYS = Object.keys(IDENTITY_COLUMNS) as (keyof typeof IDENTITY_COLUMNS)[];
/** The asset table's columns read from the stored asset (the others are this query's scores and losses). */
const STORED_COLUMNS = {
  type: (a: AssetRecord) => a.property_type,
  revenue: (a: AssetRecord) => a.revenue,
  construction_cost: (a: AssetRecord) => a.construction_cost,
  area: (a: AssetRecord) => a.area,
  gross_area: (a: AssetRecord) => (a.area !== null && a.stories !== null ? a.area * Math.max(1, a.stories) : a.area),
  ownership: (a: AssetRecord) => a.ownership,
  floors: (a: AssetRecord) => a.stories,
  valuation: (a: AssetRecord) => a.valuation,
  building_age: (a: AssetRecord) => a.building_age,
  basement: (a: AssetRecord) => a.basement,
  plinth_height: (a: AssetRecord) => a.plinth_height,
  flood_protection: (a: AssetRecord) => a.flood_protection,
  mitigation_risk: (a: AssetRecord) => a.mitigation_risk ?? 0,
  content_value: (a: AssetRecord) => a.content_value,
  yearly_inventory_value: (a: AssetRecord) => a.yearly_inventory_value,
} satisfies Partial<Record<AssetTableColumn, (a: AssetRecord) => unknown>>;
const STORED_KEYS = Object.keys(STORED_COLUMNS) as (keyof typeof STORED_COLUMNS)[];
const COMPUTED_KEYS = ASSET_TABLE_COLUMNS.filter((k) => !(k in STORED_COLUMNS));
const ROW_KEYS = Object.keys(DashboardAssetRow.shape) as (keyof DashboardAssetRow)[];
/** The loss columns of the asset table: their field in the engine's per-asset batch (assetCvarBatch). */
const LOSS_FIELDS = { percentage: 2, overall_loss: 1, cvar: 0, max_exposure: 3, loss_100_year: 6, loss_250_year: 7 } as const;

/**
 * Indices 0..n-1 of the `k` largest values, largest first, ties in index order: what a stable descending sort of all n
 * followed by slice(0, k) gives, in one pass.
 */
function topN(n: number, k: number, value: (i: number) => number): number[] {
  const top: number[] = [], vals: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (top.length === k && !(v > vals[k - 1]!)) continue;
    let at = top.length;
    while (at > 0 && v > vals[at - 1]!) at--;
    top.splice(at, 0, i); vals.splice(at, 0, v);
    if (top.length > k) { top.pop(); vals.pop(); }
  }
  return top;
}

/**
 * Severity scores of every asset x stored hazard at scenario-year s, `[i * N_HAZARDS + h]`, 255 = no data: gathered
 * from the chunks once per analysis, scenario-year and adaptation (the score loops read them directly).
 */
function scoreMatrixOf(c: CachedResults, s: number, residual: boolean): Uint8Array {
  return c.scores.getOrMake(`${s}|${residual}`, () => {
    const { R } = c;
    const { chunks, chunkOf, localOf } = R;
    const S = chunks[0]!.scenarioYears.length;
    const A = R.assets.length;
    const m = new Uint8Array(A * N_HAZARDS);
    for (let i = 0; i < A; i++) {
      const ch = chunks[chunkOf[i]!]!;
      const src = residual ? ch.scoreResidual : ch.score;
      const b = localOf[i]! * N_HAZARDS;
      for (let h = 0; h < N_HAZARDS; h++) m[i * N_HAZARDS + h] = src[(b + h) * S + s]!;
    }
    return m;
  }, (m) => m.byteLength);
}

/**
 * Stable LSD radix sort (16-bit digits) of positions by the unsigned key (hi, lo) of each position: ties keep their
 * order in `pos`. `lo` null: hi alone.
 */
function radixSort(pos: Int32Array, hi: Uint32Array, lo: Uint32Array | null): Int32Array {
  const n = pos.length;
  let src: Int32Array = pos, dst: Int32Array = new Int32Array(n);
  const count = new Uint32Array(65537);
  const passes: [Uint32Array, number][] = lo ? [[lo, 0], [lo, 16], [hi, 0], [hi, 16]] : [[hi, 0], [hi, 16]];
  for (const [k, shift] of passes) {
    count.fill(0);
    for (let j = 0; j < n; j++) count[((k[src[j]!]! >>> shift) & 0xffff) + 1]!++;
    if (count.some((c) => c === n)) continue; // every key has this digit: the pass would not move anything
    for (let b = 0; b < 65536; b++) count[b + 1]! += count[b]!;
    for (let j = 0; j < n; j++) { const p = src[j]!; dst[count[(k[p]! >>> shift) & 0xffff]!++] = p; }
    const t = src; src = dst; dst = t;
  }
  return src;
}

const DATA_SOURCES = Object.values(DATASETS).map((d) => ({ name: d.name, publisher: d.publisher, license: d.license }));
/** Labels of the project's hazards whose data tier is 'placeholder' (HAZARD_META of @crp/hazards). */
export function placeholderHazards(labels: readonly string[]): string[] {
  return labels.filter((l) => { const h = hazardByLabel(l)?.key; return h !== undefined && HAZARD_META[h].tier === 'placeholder'; });
}

/** Which of the project's hazards took values from own layers at the scenario (null: baseline) and year, over all assets. */
async function ownDataOf(marker: OwnDataMarker | null | undefined, assets: readonly { latitude: number; longitude: number }[], hazards: readonly HazardKey[], sc: ScenarioCode | null, year: number) {
  if (!marker) return null;
  const used = new Set<HazardKey>();
  let n = 0;
  for (let i = 0; i < assets.length; i++) {
    const a = assets[i]!;
    let any = false;
    for (const h of marker.hazardsAt(Number(a.latitude), Number(a.longitude), sc, year)) if (hazards.includes(h)) { used.add(h); any = true; }
    if (any) n++;
    if ((i & 8191) === 8191) await new Promise((r) => setImmediate(r));
  }
  return { hazards: hazards.filter((h) => used.has(h)).map((h) => labelOf(h)), assets: n, layers: marker.labels };
}

export class DashboardService {
  private readonly cache: ResultsCache;
  /** Serialised answers by everything they depend on (project version and analysis, caller's role, tier, filters). */
  private readonly answers: Lru<Buffer>;
  /** Answers being built, by the same key: identical queries that arrive meanwhile wait for that build (single flight). */
  private readonly building = new Map<string, Promise<Buffer>>();
  /** Selections of the page endpoints (per analysis and selection filters), at most 256 MiB of positions and scores. */
  private readonly selections = new Lru<SelectionData>(32, 256 * MIB);
  private readonly selecting = new Map<string, Promise<SelectionData | null>>();
  /** Up to this many selected assets the map endpoint sends points, above it clusters (tests lower it). */
  mapPointsMax = DASHBOARD_MAP_POINTS_MAX;

  constructor(
    private readonly db: DB,
    private readonly projects: ProjectService,
    private readonly users: UsersRepository,
    limits: { resultsCacheMb: number; answerCacheMb: number } = { resultsCacheMb: 768, answerCacheMb: 128 },
    /** The company's own hazard layers (issue 23 item 3), for the 'own data' marks; none when not given. */
    private readonly own?: Pick<OwnLayerService, 'markerFor' | 'signatureOf'>,
  ) {
    this.cache = new ResultsCache(limits.resultsCacheMb * MIB);
    this.answers = new Lru<Buffer>(Infinity, limits.answerCacheMb * MIB);
  }

  private async resolveProject(caller: AuthUser, body: { project_id?: number | undefined; project_name?: string | undefined }): Promise<{ project: ProjectRow; role: ProjectRole }> {
    const access = body.project_id !== undefined ? await this.projects.access(caller, body.project_id) : await this.projects.findVisibleByName(caller, body.project_name!);
    assertCan(access.role, 'view', access.project.name);
    return access;
  }

  /**
   * Decodes a project's stored analysis into the cache (called when an analysis has been stored), so that the first
   * dashboard query after an analysis does not pay for reading and decoding it.
   */
  async warm(projectId: number): Promise<void> {
    const project = await this.db.selectFrom('projects').select(['id', 'version', 'analysed_at', 'status', 'portfolio_variables']).where('id', '=', projectId).executeTakeFirst();
    if (!project || project.status !== 'done') return;
    const cached = await this.cache.get(resultsKeyOf(project), () => loadProjectResults(this.db, project.id));
    this.precomputeSeries(cached, hazardKeysOf(project.portfolio_variables as string[]));
  }

  /**
   * Once per decoded analysis, in the background: the whole portfolio's CVaR and per-hazard loss series of the
   * project's hazards for every analysis type, scenario, content and GDP choice (24 of each, a few hundred bytes apiece;
   * about 0.6 s of CPU at 10,000 assets, one series per event-loop turn so requests interleave). A query that changes
   * the scenario, content or GDP filter then only computes its year's per-asset CVaRs (docs/performance.md).
   */
  private precomputeSeries(c: CachedResults, hazards: HazardKey[]): void {
    if (c.precomputing || hazards.length === 0) return;
    c.precomputing = true;
    const { R } = c;
    const all = R.assets.map((_, i) => i);
    const jobs: (() => void)[] = [];
    for (const at of ['ssp', 'rcp'] as const) {
      for (const withContent of [true, false]) {
        for (const gdp of [false, true]) {
          for (const s of SCENARIOS) {
            const key = seriesKeyOf(at, s, hazards, withContent, gdp, 'All');
            const opt = { withContent, gdpAdjusted: gdp };
            jobs.push(() => c.series.getOrMake(key, () => portfolioCvarSeriesOf(R.prepared, R.chunks, R.chunkOf, R.localOf, all, hazards, at, s, opt)));
            if (hazards.length > 1) jobs.push(() => c.hazardSeries.getOrMake(key, () => portfolioHazardSeriesOf(R.prepared, R.chunks, R.chunkOf, R.localOf, all, hazards, at, s, opt)));
          }
        }
      }
    }
    const next = () => {
      const job = jobs.shift();
      if (!job) return;
      job();
      setImmediate(next);
    };
    setImmediate(next);
  }

  /** The dashboard answer as UTF-8 JSON (what the routes send), from the answer cache when the same answer was built. */
  async queryJson(caller: AuthUser, body: DashboardBody): Promise<Buffer> {
    let key = '';
    let flight: { resolve: (b: Buffer) => void; reject: (e: unknown) => void } | null = null;
    const fragments = new Map<string, string>();
    try {
      const answer = await this.build(caller, body, (k) => {
        key = k;
        const hit = this.answers.get(k) ?? this.building.get(k);
        if (hit) return hit;
        const p = new Promise<Buffer>((resolve, reject) => { flight = { resolve, reject }; });
        p.catch(() => {}); // the waiters, if any, handle it
        this.building.set(k, p);
        return undefined;
      }, fragments);
      if (Buffer.isBuffer(answer)) return answer;
      // The map rows are serialised once for the two sections that send them; the rest is stringified with
      // placeholders that are then replaced by that text.
      const skeleton = JSON.stringify(answer);
      const parts: Buffer[] = [];
      let from = 0;
      for (const [marker, json] of fragments) {
        const quoted = JSON.stringify(marker);
        const at = skeleton.indexOf(quoted, from);
        if (at < 0) continue;
        parts.push(Buffer.from(skeleton.slice(from, at), 'utf8'), Buffer.from(json, 'utf8'));
        from = at + quoted.length;
      }
      parts.push(Buffer.from(skeleton.slice(from), 'utf8'));
      const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      if (buf.byteLength <= 32 * 2 ** 20) this.answers.set(key, buf, buf.byteLength);
      (flight as { resolve: (b: Buffer) => void } | null)?.resolve(buf);
      return buf;
    } catch (err) {
      (flight as { reject: (e: unknown) => void } | null)?.reject(err);
      throw err;
    } finally {
      if (flight) this.building.delete(key);
    }
  }

  /** The dashboard answer with its per-asset sections as rows (reports build on it). */
  async query(caller: AuthUser, body: DashboardBody): Promise<DashboardView> {
    return dashboardView((await this.build(caller, body)) as DashboardAnswerObject as DashboardAnswer);
  }

  /** Builds the answer; with `cached`, first asks it for a serialised answer (or one being built) under the answer's key. */
  private async build(caller: AuthUser, body: DashboardBody, cached?: (key: string) => Buffer | Promise<Buffer> | undefined, fragments?: Map<string, string>, rowsMode = false) {
    const { project, role } = await this.resolveProject(caller, body);
    if (project.status !== 'done') {
      throw new AppError(409, project.status === 'failed' ? `The analysis failed: ${project.status_message ?? ''}` : `The analysis is ${project.status} (${Math.round(project.progress * 100)} %). The dashboard opens when it is done.`, undefined, {
        status: project.status,
        progress: project.progress,
      });
    }
    const me = await this.users.userById(caller.id);
    // Filters not sent: the caller's own saved defaults (update_default_filter without a project), else the project's.
    const filters = ((me?.default_filters as unknown) ?? project.default_filters) as { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };
    const at: AnalysisType = body.analysis_type ?? filters.analysis_type;
    const sc: ScenarioCode = (body.scenario as ScenarioCode | undefined) ?? filters.scenario;
    let year = body.year ?? (at === filters.analysis_type ? filters.year : 2050);
    if (at === 'rcp' && year > 2050) year = 2050; // spec 001 §4: rcp with 2100 is forced to 2050
    const validYears = at === 'rcp' ? YEARS.rcp : [BASELINE_YEAR, ...YEARS.ssp];
    if (!validYears.includes(year)) throw badRequest(`year: ${year} is not a ${at.toUpperCase()} year; choose from ${validYears.join(', ')}.`, 'year');

    const projectHazards = hazardKeysOf(project.portfolio_variables as string[]);
    let hazards = projectHazards;
    if (body.variable !== 'Total') {
      const h = hazardByLabel(body.variable)?.key;
      if (!h) throw badRequest(`variable: '${body.variable}' is not a hazard; send Total or one of ${(project.portfolio_variables as string[]).join(', ')}.`, 'variable');
      hazards = [h];
    }

    const company = await this.users.companyById(caller.companyId);
    const tier = tierDataOf(company!);
    const allowed = (s: TierSection) => tier.tier_permissions[s] === true;
    const edits = (me?.data_edit_permissions ?? {}) as Record<string, boolean>;

    const resultsKey = resultsKeyOf(project);
    if (cached) {
      // Everything the answer depends on: the analysis, the project fields it echoes, the caller's role, tier and edit
      // permissions, and the resolved filters.
      const hit = cached(JSON.stringify([resultsKey, await this.own?.signatureOf(project.company_id), project.name, project.portfolio_variables, role, tier.tier_permissions, edits, at, sc, year, body.variable, body.percentage_type, body.mitigation, body.with_content, body.adjusted_gdp, body.property_type, body.count, body.currency, body.per_asset]));
      if (hit) return hit;
    }
    // Rows mode: the selection (and its sorted orders) is kept per analysis and selection filters; identical requests
    // that arrive while it is built (the table, heat map and map pages of one dashboard) wait for that build. An answer
    // with per_asset 'pages' builds the same selection on its way and leaves it for the page requests that follow.
    const sharesSelection = rowsMode || body.per_asset === 'pages';
    const selKey = sharesSelection ? JSON.stringify([resultsKey, at, sc, year, hazards, body.mitigation, body.with_content, body.adjusted_gdp, body.property_type.toLowerCase(), body.count]) : '';
    const withCaller = (d: SelectionData) => ({ ...d, allowed: tier.tier_permissions as Partial<Record<TierSection, boolean>> });
    let selectionDone: ((d: SelectionData | null) => void) | null = null;
    if (rowsMode) {
      const hit = this.selections.get(selKey) ?? (await this.selecting.get(selKey));
      if (hit) return withCaller(hit);
    }
    if (sharesSelection && !this.selecting.has(selKey) && !this.selections.get(selKey)) {
      this.selecting.set(selKey, new Promise<SelectionData | null>((resolve) => { selectionDone = resolve; }));
    }
    try {
    const cachedResults = await this.cache.get(resultsKey, () => loadProjectResults(this.db, project.id));
    this.precomputeSeries(cachedResults, projectHazards);
    const { R, series: seriesCache, hazardSeries: hazardSeriesCache, batches: batchCache, json: jsonCache, means: meanCache } = cachedResults;
    const key = at === 'ssp' && year === BASELINE_YEAR ? scenarioYearKey('baseline', null, year) : scenarioYearKey(at, sc, year);
    const baseKey = at === 'rcp' ? scenarioYearKey('rcp', sc, BASELINE_YEAR) : scenarioYearKey('baseline', null, BASELINE_YEAR);
    const syIdx = R.syIndex(key);
    const baseIdx = R.syIndex(baseKey);
    const opt: LossOptions = { withContent: body.with_content, gdpAdjusted: body.adjusted_gdp };
    const withContent = body.with_content ?? true;
    const mitigation = body.mitigation;
    const { chunks, chunkOf, localOf, prepared } = R;
    const S = chunks[0]!.scenarioYears.length;
    const H = hazards.length;
    /** Index of the hazard in the stored [asset][hazard][scenario-year] layout (the reader's HAZARD_KEYS order). */
    const hk = Int32Array.from(hazards, (h) => HAZARD_KEYS.indexOf(h));
    /**
     * Severity scores of every asset x stored hazard at scenario-year s, `[i * N_HAZARDS + h]`, 255 = no data: gathered
     * from the chunks once per analysis, scenario-year and adaptation (the score loops below read them directly).
     */
    const scoreMatrix = (s: number, residual: boolean): Uint8Array => scoreMatrixOf(cachedResults, s, residual);
    /** Column of selected-asset scores (null = no data) for the stored hazard index h at scenario-year s. */
    const scoreColumn = (h: number, s: number, residual: boolean): (number | null)[] => {
      const m = scoreMatrix(s, residual);
      const col: (number | null)[] = new Array(N);
      for (let n = 0; n < N; n++) { const v = m[idx[n]! * N_HAZARDS + h]!; col[n] = v === 255 ? null : v; }
      return col;
    };

    // Per-asset CVaRs of every asset (and each hazard's alone, for the bar chart) in one engine pass, kept per
    // analysis for the filters they depend on (the property type, count, adaptation and unit filters reuse them):
    // pa[i*6..] = cvar, rcvar, rcvar %, max exposure, eal, ealR; ph[(i*H + k)*2..] = cvar, rcvar of hazard k.
    const batchKey = `${at}|${sc}|${year}|${hazards.join(',')}|${withContent}|${!!opt.gdpAdjusted}`;
    const { pa, ph } = batchCache.getOrMake(batchKey, () => {
      const all = R.assets.map((_, i) => i);
      const b = { pa: new Float64Array(all.length * ASSET_BATCH_FIELDS), ph: new Float64Array(all.length * H * 2) };
      assetCvarBatch(prepared, chunks, chunkOf, localOf, all, hazards, at, sc, year, opt, b.pa, b.ph);
      return b;
    }, (b) => b.pa.byteLength + b.ph.byteLength);
    // Asset selection: property type filter, then the `count` highest residual CVaRs.
    let idx: number[] = R.assets.map((_, i) => i);
    if (body.property_type !== 'All') { const pt = body.property_type.toLowerCase(); idx = idx.filter((i) => (R.assets[i]!.property_type ?? 'NA').toLowerCase() === pt); }
    if (body.count !== 'All') idx = idx.slice().sort((x, y) => (pa[y * ASSET_BATCH_FIELDS + 1]! || 0) - (pa[x * ASSET_BATCH_FIELDS + 1]! || 0)).slice(0, body.count);
    /** Row of selected asset n in pa/ph: the asset's own index. */
    const rowOf = idx;
    const N = idx.length;
    /** Every asset of the project is selected: sections that depend only on the stored data are kept per analysis. */
    const everyAsset = idx.length === R.assets.length && body.count === 'All';
    const px = (n: number, f: number) => pa[rowOf[n]! * ASSET_BATCH_FIELDS + f]!;

    // Money of every selected asset x hazard at the year and at 2020, computed once: [n * H + k] (engine cellMoney).
    const M = (s: number) => {
      const eal = new Float64Array(N * H), ealR = new Float64Array(N * H), op = new Float64Array(N * H);

      const exposedValue = new Float64Array(N);
      const sy = SCENARIO_YEARS[SCENARIO_YEAR_INDEX.get(chunks[0]!.scenarioYears[s] as string) ?? -1];
      const g = opt.gdpAdjusted && sy ? gdpGrowthFactor(sy.scenario, sy.year) : 1;
      for (let n = 0; n < N; n++) {
        const i = idx[n]!;
        const A = prepared[i]!;
        const ch = chunks[chunkOf[i]!]!;
        const val = exposedValueOf(A, withContent);
        const rev = A.revenue * A.ownership * g;
        exposedValue[n] = H > 0 ? val : 0;
        const b = localOf[i]! * N_HAZARDS;
        for (let k = 0; k < H; k++) {
          const c = (b + hk[k]!) * S + s;
          const bi = ch.disruption[c]!;
          eal[n * H + k] = ch.ead[c]! * val + bi * rev;
          ealR[n * H + k] = ch.eadResidual[c]! * val + ch.disruptionResidual[c]! * rev;
          op[n * H + k] = bi * rev;
        }
      }
      return { eal, ealR, op, exposedValue };
    };
    const atYear = M(syIdx);
    let totalValue = 0;
    for (let n = 0; n < N; n++) { const v = atYear.exposedValue[n]!; totalValue += Number.isFinite(v) ? v : 0; }
    const pct = (v: number) => (totalValue > 0 ? (100 * v) / totalValue : 0);

    /** Climate score of selected asset n over the chosen hazards: the engine's score of the summed loss ratios. */
    const climateScore = (n: number, mm: typeof atYear, residual: boolean): number | null => {
      let loss = 0, bi = 0, seen = false;
      const L = residual ? mm.ealR : mm.eal;
      for (let k = 0; k < H; k++) {
        const l = L[n * H + k]!;
        if (!Number.isFinite(l)) continue;
        seen = true;
        loss += l;
        bi += mm.op[n * H + k]!;
      }
      if (!seen) return null;
      const p = prepared[idx[n]!]!;
      const value = mm.exposedValue[n]!;
      const revenue = p.revenue * p.ownership;
      const sc0 = hazardScore(value > 0 ? loss / value : revenue > 0 ? loss / revenue : 0, revenue > 0 ? bi / revenue : 0);
      return Number.isFinite(sc0) ? Math.round(sc0) : null;
    };
    const assetScores: (number | null)[] = new Array(N);
    for (let n = 0; n < N; n++) assetScores[n] = climateScore(n, atYear, mitigation);
    // The page endpoints' selection (rows mode): plain data only, so that nothing of this query's arrays is kept.
    if (rowsMode || selectionDone) {
      const d: SelectionData = { kind: 'rows', R, cachedResults, idx: Int32Array.from(idx), pa, assetScores, hazards, hk, syIdx, mitigation, orders: new Lru(16, 64 * MIB), searches: new Lru(8, 32 * MIB) };
      // bytes: positions and scores, plus the per-asset CVaRs it holds on to (shared with the batch cache while there)
      this.selections.set(selKey, d, N * 16 + pa.byteLength);
      (selectionDone as ((d: SelectionData | null) => void) | null)?.(d);
      if (rowsMode) return withCaller(d);
    }
    const at2020 = syIdx === baseIdx ? atYear : M(baseIdx);

    // Portfolio CVaR at any scenario and year (charts, key findings): one pass per scenario over the stored ratios
    // (engine portfolioCvarSeriesOf), over the selected assets in the order the pre-optimisation code summed them
    // (grouped by stored chunk in order of first appearance), so the sums are the same to the last bit.
    const seriesOrder = (() => {
      if (N === R.assets.length) return idx;
      const groups = new Map<number, number[]>();
      for (const i of idx) { const c = chunkOf[i]!; let g = groups.get(c); if (!g) groups.set(c, (g = [])); g.push(i); }
      return [...groups.values()].flat();
    })();
    /** Portfolio series of the selection, kept per analysis when the selection is a whole property-type group. */
    const seriesKey = (hs: readonly HazardKey[], s: ScenarioCode) => (body.count === 'All' ? seriesKeyOf(at, s, hs, withContent, !!opt.gdpAdjusted, body.property_type) : null);
    const seriesOf = (hs: readonly HazardKey[], s: ScenarioCode) =>
      seriesCache.getOrMake(seriesKey(hs, s), () => portfolioCvarSeriesOf(prepared, chunks, chunkOf, localOf, seriesOrder, hs, at, s, opt));
    const seriesByScenario = new Map<ScenarioCode, ReturnType<typeof portfolioCvarSeriesOf>>();
    const portfolioCvar = (s: ScenarioCode, y: number) => {
      let ser = seriesByScenario.get(s);
      if (!ser) {
        ser = seriesOf(hazards, s);
        seriesByScenario.set(s, ser);
      }
      return ser.at(y);
    };

    let cvarTot = 0, rcvarTot = 0, maxExposure = 0, eal = 0;
    for (let n = 0; n < N; n++) {
      const c = px(n, 0), r = px(n, 1), m = px(n, 3), e = mitigation ? px(n, 5) : px(n, 4);
      if (Number.isFinite(c)) cvarTot += c;
      if (Number.isFinite(r)) rcvarTot += r;
      maxExposure += Number.isFinite(m) ? m : 0;
      if (Number.isFinite(e)) eal += e;
    }
    // tail losses (each asset's hazards summed, capped at value plus a year's revenue; assets summed) and the premium
    // (engine technicalPremium of the insurable hazards' expected loss)
    let loss100 = 0, loss250 = 0, premium = 0, tailsKnown = true;
    for (let n = 0; n < N; n++) {
      let insEal = 0;
      for (let k = 0; k < H; k++) {
        const c = n * H + k;
        if (Number.isFinite(atYear.eal[c]!) && isInsurableIndex(hk[k]!)) insEal += atYear.eal[c]!;
      }
      premium += technicalPremium(insEal);
      if (!Number.isFinite(px(n, 4))) continue; // no hazard with data
      const t100 = px(n, 6), t250 = px(n, 7);
      if (!Number.isFinite(t100) || !Number.isFinite(t250)) tailsKnown = false;
      else { loss100 += t100; loss250 += t250; }
    }
    let scoreSum = 0, scoreCount = 0;
    for (const v of assetScores) if (v !== null) { scoreSum += v; scoreCount++; }
    const overallRisk = scoreCount ? Math.round((10 * scoreSum) / scoreCount) / 10 : null;

    /** Mean (rounded) of the non-null scores of the selected assets for hazard k at scenario-year s. */
    /** Per-analysis memo of a selection mean when every asset is selected (the mean is then the same for every filter). */
    const memoMean = (key: string, mean: () => number | null) => {
      if (!everyAsset) return mean();
      let v = meanCache.get(key);
      if (v === undefined) meanCache.set(key, (v = mean()));
      return v;
    };
    const meanScore = (k: number, s: number, residual: boolean): number | null =>
      memoMean(`score|${hk[k]}|${s}|${residual}`, () => {
        const m = scoreMatrix(s, residual);
        const h = hk[k]!;
        let t = 0, c = 0;
        for (let n = 0; n < N; n++) { const v = m[idx[n]! * N_HAZARDS + h]!; if (v !== 255) { t += v; c++; } }
        return c ? Math.round(t / c) : null;
      });
    /** Mean (rounded to 0.001) headline intensity of hazard k over the selected assets with data, at scenario-year s. */
    const meanIntensity = (k: number, s: number): number | null =>
      memoMean(`intensity|${hk[k]}|${s}`, () => {
        const h = hk[k]!;
        let t = 0, c = 0;
        for (let n = 0; n < N; n++) { const i = idx[n]!; const v = chunks[chunkOf[i]!]!.intensity[(localOf[i]! * N_HAZARDS + h) * S + s]!; if (Number.isFinite(v)) { t += v; c++; } }
        return c ? Math.round((1000 * t) / c) / 1000 : null;
      });
    // Per hazard: intensities, scores, losses.
    const hazardSummary = (s: number, residual: boolean) => {
      const out: Record<string, unknown> = {};
      for (let k = 0; k < H; k++) out[labelOf(hazards[k]!)] = [meanIntensity(k, s), HAZARD_INDICATORS[hazards[k]!].unit, meanScore(k, s, residual)];
      return out;
    };
    const perHazardLoss = (mm: typeof atYear, residual: boolean) =>
      hazards.map((h, k) => {
        let l = 0;
        const L = residual ? mm.ealR : mm.eal;
        for (let n = 0; n < N; n++) { const v = L[n * H + k]!; if (Number.isFinite(v)) l += v; }
        return { hazard: labelOf(h), loss: r2(l), percentage: r2(pct(l)) };
      });
    const inventoryLoss = (s: number) =>
      hazards.map((h, k) => {
        let v = 0;
        const hh = hk[k]!;
        for (let n = 0; n < N; n++) {
          const i = idx[n]!;
          const p = prepared[i]!;
          const ch = chunks[chunkOf[i]!]!;
          const ratio = (mitigation ? ch.eadResidual : ch.ead)[(localOf[i]! * N_HAZARDS + hh) * S + s]!;
          if (Number.isFinite(ratio)) v += ratio * p.inventoryValue * p.ownership;
        }
        return { hazard: labelOf(h), loss: r2(v) };
      });

    /**
     * In JSON mode (queryJson), a large section is returned as a placeholder string and its JSON text kept in
     * `fragments` (spliced in after stringification, in section order); otherwise the objects themselves.
     */
    const asJson = <T>(json: () => string, objects: () => T): T => {
      if (!fragments) return objects();
      const marker = `\u0000dashboard-fragment-${fragments.size}\u0000`;
      fragments.set(marker, json());
      return marker as unknown as T;
    };
    /** scores[k][n]: score of hazard k for selected asset n at the year, with or without adaptation (built once each). */
    const scoreColumnsMemo: [(number | null)[][] | null, (number | null)[][] | null] = [null, null];
    const scoreColumns = (residual: boolean) =>
      (scoreColumnsMemo[residual ? 1 : 0] ??= hazards.map((_, k) => scoreColumn(hk[k]!, syIdx, residual)));
    const heat = (residual: boolean) => ({ hazards: hazards.map(labelOf), scores: scoreColumns(residual) });

    const series = seriesIndices(at, sc);
    const yearChart = (unit: 'dollar' | 'percentage', which: 'cvar' | 'rcvar', s: ScenarioCode) =>
      series.years.filter((y) => y >= BASELINE_YEAR).map((y) => {
        const v = portfolioCvar(s, Math.min(y, at === 'rcp' ? 2050 : 2100))[which];
        return { year: y, value: r2(unit === 'dollar' ? v : pct(v)) };
      });
    const scenarioChart = (unit: 'dollar' | 'percentage', which: 'cvar' | 'rcvar', y: number) =>
      SCENARIOS.map((s) => {
        const v = portfolioCvar(s, y)[which];
        return { scenario: SCENARIO_LABELS[at][s], value: r2(unit === 'dollar' ? v : pct(v)) };
      });
    const lastYear = at === 'rcp' ? 2050 : 2100;
    const chart = (which: 'cvar' | 'rcvar') =>
      Object.fromEntries(
        (['dollar', 'percentage'] as const).map((u) => [
          u,
          { year_constant: yearChart(u, which, sc), year_max: yearChart(u, which, '85'), rcp_constant: scenarioChart(u, which, year), rcp_max: scenarioChart(u, which, lastYear) },
        ]),
      );

    /** Per continent, the indices of its selected assets. */
    const byContinent = () => {
      const out: Record<string, number[]> = {};
      for (let n = 0; n < N; n++) (out[prepared[idx[n]!]!.continent] ??= []).push(n);
      return out;
    };
    const byCountry = () => {
      const out = new Map<string, { cvar: number; rcvar: number; assets: number }>();
      for (let n = 0; n < N; n++) {
        const c = R.assets[idx[n]!]!.country_code ?? 'Unknown';
        let v = out.get(c);
        if (!v) out.set(c, (v = { cvar: 0, rcvar: 0, assets: 0 }));
        const x = px(n, 0), y = px(n, 1);
        v.cvar += Number.isFinite(x) ? x : 0;
        v.rcvar += Number.isFinite(y) ? y : 0;
        v.assets += 1;
      }
      return out;
    };

    /** One selected asset's row (single_asset). */
    const assetRow = (n: number) => {
      const row = {} as Record<string, unknown>;
      for (const k of ROW_KEYS) row[k] = k in IDENTITY_COLUMNS ? IDENTITY_COLUMNS[k as keyof typeof IDENTITY_COLUMNS](R.assets[idx[n]!]!) : tableColumn(k as AssetTableColumn)[n];
      return row as DashboardAssetRow;
    };
    const tableMemo = new Map<AssetTableColumn, unknown[]>();
    /** One column of the asset table over the selection: stored fields, or this query's scores and losses. */
    const tableColumn = (k: AssetTableColumn): unknown[] => {
      let col = tableMemo.get(k);
      if (col) return col;
      const stored = STORED_COLUMNS[k as keyof typeof STORED_COLUMNS];
      if (stored) col = idx.map((i) => stored(R.assets[i]!));
      else if (k === 'climatic_score') col = assetScores;
      else if (!allowed('portfolio_losses')) col = new Array(N).fill(null); // the assets' losses add up to the portfolio's
      else {
        const f = LOSS_FIELDS[k as keyof typeof LOSS_FIELDS];
        col = new Array(N);
        for (let n = 0; n < N; n++) col[n] = r2(px(n, f));
      }
      tableMemo.set(k, col);
      return col;
    };
    const staticJson = (key: string, make: () => string) => { let t = jsonCache.get(key); if (t === undefined) jsonCache.set(key, (t = make())); return t; };
    const assetTable = () => Object.fromEntries(ASSET_TABLE_COLUMNS.map((k) => [k, tableColumn(k)])) as DashboardAssetTable;
    const assetsBlock = (): DashboardAssets => {
      const out = Object.fromEntries(ASSET_IDENTITY_KEYS.map((k) => [k, idx.map((i) => IDENTITY_COLUMNS[k](R.assets[i]!))])) as Omit<DashboardAssets, 'continent'>;
      return { ...out, continent: idx.map((i) => prepared[i]!.continent) };
    };

    const sectionOrNull = <T>(s: TierSection, v: () => T): T | null => (allowed(s) ? v() : null);
    const measures = Object.fromEntries(
      hazards.map((h) => [labelOf(h), [1, 2, 3].map((lvl) => ({ level: lvl, label: ['Low', 'Medium', 'High'][lvl - 1], measure: defaultMeasure(h, lvl as 1 | 2 | 3) }))]),
    );
    const lossYears = series.years;
    /** Each hazard's own loss series for the scenario (one engine pass for all hazards; kept like the CVaR series). */
    const hazardSeries = () => {
      if (H === 1) { const ser = seriesOf(hazards, sc); return { loss: [ser.loss], lossResidual: [ser.lossResidual] }; }
      return hazardSeriesCache.getOrMake(seriesKey(hazards, sc), () => portfolioHazardSeriesOf(prepared, chunks, chunkOf, localOf, seriesOrder, hazards, at, sc, opt));
    };
    const lossBars = () => {
      const per = hazardSeries();
      return { years: lossYears, series: hazards.map((h, q) => ({ hazard: labelOf(h), values: Array.from(mitigation ? per.lossResidual[q]! : per.loss[q]!, (v) => r2(v)) })) };
    };
    const cardsAllowed = allowed('portfolio_losses');
    const ownData = await ownDataOf(await this.own?.markerFor(project), R.assets, projectHazards, at === 'ssp' && year === BASELINE_YEAR ? null : sc, year);
    /** With per_asset 'pages' the per-asset sections are left out (the page endpoints serve them). */
    const pages = body.per_asset === 'pages';
    const perAsset = <T>(v: () => T): T | undefined => (pages ? undefined : v());
    return {
      project: {
        project_id: project.id,
        name: project.name,
        version: project.version,
        /** The caller's role: owner, write or read (readers cannot edit the table). */
        permission: role,
        analysed_at: project.analysed_at ? new Date(project.analysed_at).toISOString() : null,
        methodology_version: METHODOLOGY_VERSION,
        /** The open datasets the hazard layers are built from, for reports that must name their sources. */
        data_sources: DATA_SOURCES,
        placeholder_hazards: placeholderHazards(project.portfolio_variables as string[]),
        hazards: (project.portfolio_variables as string[]),
        own_data: ownData,
      },
      filters: { analysis_type: at, scenario: sc, scenario_label: SCENARIO_LABELS[at][sc], year, variable: body.variable, percentage_type: body.percentage_type, mitigation, with_content: body.with_content, adjusted_gdp: body.adjusted_gdp, property_type: body.property_type, count: body.count, currency: body.currency },
      asset_count: idx.length,
      hazard_count: hazards.length,
      property_types: [...new Set(R.assets.map((a) => a.property_type ?? 'NA'))].sort(),
      overall: { overall_risk: overallRisk, label: overallRisk === null ? null : climateScoreLevel(overallRisk), Max_exposure: cardsAllowed ? r2(maxExposure) : null },
      climate_risk_card_data: sectionOrNull('portfolio_losses', () => ({
        climate_value_at_risk: r2(cvarTot),
        climate_value_at_risk_percentage: r2(pct(cvarTot)),
        residual_climate_value_at_risk: r2(rcvarTot),
        residual_climate_value_at_risk_percentage: r2(pct(rcvarTot)),
        avoided_loss: r2(Math.max(0, cvarTot - rcvarTot)),
        max_exposure: r2(maxExposure),
        max_exposure_percentage: r2(pct(maxExposure)),
        total_asset_value: r2(totalValue),
        expected_annual_loss: r2(eal),
        technical_insurance_premium: r2(premium),
        loss_100_year: tailsKnown ? r2(loss100) : null,
        loss_250_year: tailsKnown ? r2(loss250) : null,
      })),
      overall_bar_chart: sectionOrNull('portfolio_losses', () =>
        hazards.map((h, k) => {
          let c = 0, rc = 0;
          for (let n = 0; n < N; n++) {
            const x = ph[(rowOf[n]! * H + k) * 2]!;
            const y = ph[(rowOf[n]! * H + k) * 2 + 1]!;
            if (Number.isFinite(x)) c += x;
            if (Number.isFinite(y)) rc += y;
          }
          return { hazard: labelOf(h), cvar: r2(c), rcvar: r2(rc), cvar_percentage: r2(pct(c)), rcvar_percentage: r2(pct(rc)) };
        }),
      ),
      cvar_chart_data: sectionOrNull('rcp_year_loss_bars', () => ({ cvar: chart('cvar'), rcvar: chart('rcvar') })),
      hazard_values: sectionOrNull('climate_variable_intensity', () => hazardSummary(syIdx, true)),
      hazard_values_without_adaptation: sectionOrNull('climate_variable_intensity', () => hazardSummary(syIdx, false)),
      hazard_values_2020: sectionOrNull('climate_variable_intensity', () => hazardSummary(baseIdx, true)),
      hazard_values_2020_without_adaptation: sectionOrNull('climate_variable_intensity', () => hazardSummary(baseIdx, false)),
      heatmap: perAsset(() => sectionOrNull('climate_heatmap', () => heat(true))),
      heatmap_without_adaptation: perAsset(() => sectionOrNull('climate_heatmap', () => heat(false))),
      heatmap_average: sectionOrNull('climate_heatmap', () =>
        Object.fromEntries(hazards.map((h, k) => [labelOf(h), meanScore(k, syIdx, mitigation)])),
      ),
      loss_bars_data: sectionOrNull('rcp_year_loss_bars', lossBars),
      loss_bars_data_historic: sectionOrNull('rcp_year_loss_bars', () => perHazardLoss(at2020, mitigation)),
      portfolio_exposure_percentage_loss: sectionOrNull('portfolio_losses', () => perHazardLoss(atYear, mitigation)),
      portfolio_exposure_percentage_loss_historic: sectionOrNull('portfolio_losses', () => perHazardLoss(at2020, mitigation)),
      inventory_loss_data: sectionOrNull('portfolio_losses', () => inventoryLoss(syIdx)),
      inventory_loss_data_historic: sectionOrNull('portfolio_losses', () => inventoryLoss(baseIdx)),
      metigation_measures: measures,
      typhoon_map_data: perAsset(() => sectionOrNull('asset_level_risk_map', () => ({
        wind_ms: idx.map((i) => r2(chunks[chunkOf[i]!]!.intensity[(localOf[i]! * N_HAZARDS + TYPHOON) * S + syIdx]!)),
        score: scoreColumn(TYPHOON, syIdx, mitigation),
      }))),
      /** The severity table's per-hazard scores and bands: climate variable intensity, so gated with it. */
      combined_data: sectionOrNull('climate_variable_intensity', () =>
        hazards.map((h, k) => {
          const a0 = meanScore(k, baseIdx, mitigation);
          const a1 = meanScore(k, syIdx, mitigation);
          return { hazard: labelOf(h), score_2020: a0, score: a1, band_2020: a0 === null ? 'No data' : severityBand(a0), band: a1 === null ? 'No data' : severityBand(a1) };
        }),
      ),
      year_chart_data: sectionOrNull('rcp_year_loss_bars', () => ({ percentage: yearChart('percentage', mitigation ? 'rcvar' : 'cvar', sc), dollar: yearChart('dollar', mitigation ? 'rcvar' : 'cvar', sc) })),
      bar_chart_data: sectionOrNull('portfolio_losses', () =>
        topN(N, 10, (n) => px(n, 1) || 0).map((n) => ({ name: R.assets[idx[n]!]!.name, cvar: r2(px(n, 0)), rcvar: r2(px(n, 1)) })),
      ),
      cone_chart: sectionOrNull('rcp_year_loss_bars', () =>
        series.years.map((y) => ({ year: y, low: r2(portfolioCvar('26', y).cvar), mid: r2(portfolioCvar('45', y).cvar), high: r2(portfolioCvar('85', y).cvar) })),
      ),
      country_wise_loss_data: sectionOrNull('portfolio_losses', () => [...byCountry().entries()].map(([country_code, v]) => ({ country_code, cvar: r2(v.cvar), rcvar: r2(v.rcvar), assets: v.assets }))),
      hazard_map_continents: sectionOrNull('asset_level_risk_map', () => Object.keys(byContinent()).sort()),
      hazard_map_data: perAsset(() => sectionOrNull('asset_level_risk_map', () => ({ climate_score: assetScores, ...heat(mitigation) }))),
      hazard_map_data_with_continent: perAsset(() => sectionOrNull('asset_level_risk_map', byContinent)),
      key_finding_data: sectionOrNull('portfolio_losses', () => {
        const findings = keyFindings((s, y) => portfolioCvar(s, y).cvar, at, sc, year);
        return {
        cvar_85: r2(findings.cvar_85),
        cvar_26: r2(findings.cvar_26),
        value_of_transition_policies: r2(findings.value_of_transition_policies),
        increased_by_2030: findings.increased_by_2030 === null ? null : r2(findings.increased_by_2030),
        increased_by_2050: findings.increased_by_2050 === null ? null : r2(findings.increased_by_2050),
        increased_by_2100: findings.increased_by_2100 === null ? null : r2(findings.increased_by_2100),
        };
      }),
      /** The one selected asset's row (amounts): part of the asset table, so gated with it. */
      single_asset: allowed('asset_table') && N === 1 ? [{ ...assetRow(0), hazards: Object.fromEntries(hazards.map((h, k) => [labelOf(h), scoreColumns(mitigation)[k]![0]!])) }] : [],
      // With every asset selected, the stored fields are the same for every filter: their JSON text is kept per analysis.
      assets: perAsset(() => allowed('asset_table') || allowed('climate_heatmap') || allowed('asset_level_risk_map') ? (everyAsset ? asJson(() => staticJson('assets', () => JSON.stringify(assetsBlock())), assetsBlock) : assetsBlock()) : null),
      ...(pages ? { per_asset_total: N } : {}),
      asset_table: perAsset(() => sectionOrNull('asset_table', () =>
        everyAsset
          ? asJson(() => {
              const stored = staticJson('asset_table', () => JSON.stringify(Object.fromEntries(STORED_KEYS.map((k) => [k, tableColumn(k)]))).slice(1, -1));
              return `{${stored},${JSON.stringify(Object.fromEntries(COMPUTED_KEYS.map((k) => [k, tableColumn(k)]))).slice(1)}`;
            }, assetTable)
          : assetTable(),
      )),
      tier_permissions: tier.tier_permissions,
      data_edit_permissions: Object.fromEntries(DATA_EDIT_PERMISSIONS.map((k) => [k, edits[k] !== false])),
    };
    } finally {
      if (selectionDone) {
        (selectionDone as (d: SelectionData | null) => void)(null);
        this.selecting.delete(selKey);
      }
    }
  }
  /** The selection of the page endpoints for a caller and filters (tier section checked: 403 when not allowed). */
  private async selection(caller: AuthUser, body: DashboardFilterFields & { project_id?: number | undefined; project_name?: string | undefined }, section: TierSection): Promise<Selection> {
    const sel = (await this.build(caller, { ...body, per_asset: 'pages' } as DashboardBody, undefined, undefined, true)) as Selection;
    if (sel.allowed[section] !== true) throw new AppError(403, `Your subscription tier does not include the ${section.replace(/_/g, ' ')}.`);
    return sel;
  }

  /**
   * Value of sortable column k for selected asset n, as a number (NaN = empty) or a lower-case string. Loss columns are
   * empty when the tier does not allow portfolio losses (the caller is refused sorting by them, see assetPage).
   */
  private sortValues(sel: Selection, key: string, residual: boolean): { num: Float64Array } | { str: string[] } {
    const { R, idx, pa, assetScores } = sel;
    const N = idx.length;
    const num = new Float64Array(N);
    if (key === 'position') { for (let n = 0; n < N; n++) num[n] = n; return { num }; }
    if (key === 'climatic_score' || key === 'climate_score') { for (let n = 0; n < N; n++) num[n] = assetScores[n] ?? NaN; return { num }; }
    const f = LOSS_FIELDS[key as keyof typeof LOSS_FIELDS];
    if (f !== undefined) { for (let n = 0; n < N; n++) { const v = r2(pa[idx[n]! * ASSET_BATCH_FIELDS + f]!); num[n] = v ?? NaN; } return { num }; }
    const h = hazardByLabel(key)?.key;
    if (h && sel.hazards.includes(h)) {
      const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, residual);
      const hh = HAZARD_KEYS.indexOf(h);
      for (let n = 0; n < N; n++) { const v = m[idx[n]! * N_HAZARDS + hh]!; num[n] = v === 255 ? NaN : v; }
      return { num };
    }
    const read = key in IDENTITY_COLUMNS ? IDENTITY_COLUMNS[key as keyof typeof IDENTITY_COLUMNS] : STORED_COLUMNS[key as keyof typeof STORED_COLUMNS];
    if (!read) throw badRequest(`sort: '${key}' is not a column.`, 'sort');
    const first = N ? read(R.assets[idx[0]!]!) : null;
    if (typeof first === 'string' || key === 'name' || key === 'type' || key === 'country_code') {
      const str: string[] = new Array(N);
      for (let n = 0; n < N; n++) { const v = read(R.assets[idx[n]!]!); str[n] = v === null || v === undefined ? '' : String(v).toLowerCase(); }
      return { str };
    }
    for (let n = 0; n < N; n++) { const v = read(R.assets[idx[n]!]!) as number | boolean | null; num[n] = v === null || v === undefined ? NaN : Number(v); }
    return { num };
  }

  /**
   * Positions 0..N-1 sorted by a column: empty values last in either order, ties in upload order; kept per selection.
   * A stable radix sort of 64-bit keys (numbers as order-preserving bit patterns, text as its rank among the distinct
   * values): a comparison sort of a million positions with a comparator function takes seconds, this about 0.1 s.
   */
  private orderOf(sel: Selection, key: string, order: 'asc' | 'desc', residual: boolean): Int32Array {
    const cacheKey = `${key}|${order}|${residual}`;
    return sel.orders.getOrMake(cacheKey, () => {
      const N = sel.idx.length;
      if (key === 'position') {
        const out = new Int32Array(N);
        for (let n = 0; n < N; n++) out[n] = order === 'asc' ? n : N - 1 - n;
        return out;
      }
      const v = this.sortValues(sel, key, residual);
      const hi = new Uint32Array(N), lo = new Uint32Array(N);
      const filled: number[] = [], empty: number[] = [];
      const desc = order === 'desc';
      if ('num' in v) {
        const f = new Float64Array(1), u = new Uint32Array(f.buffer);
        for (let n = 0; n < N; n++) {
          const x = v.num[n]!;
          if (x !== x) { empty.push(n); continue; }
          f[0] = x + 0; // -0 sorts with 0
          let h = u[1]!, l = u[0]!;
          if (h & 0x80000000) { h = ~h >>> 0; l = ~l >>> 0; } else h = (h | 0x80000000) >>> 0;
          if (desc) { h = ~h >>> 0; l = ~l >>> 0; }
          hi[n] = h; lo[n] = l;
          filled.push(n);
        }
        return Int32Array.from([...radixSort(Int32Array.from(filled), hi, lo), ...empty]);
      }
      const distinct = [...new Set(v.str)].filter((x) => x !== '').sort();
      const rank = new Map(distinct.map((x, r) => [x, desc ? distinct.length - 1 - r : r]));
      for (let n = 0; n < N; n++) {
        const x = v.str[n]!;
        if (x === '') { empty.push(n); continue; }
        hi[n] = rank.get(x)!;
        filled.push(n);
      }
      return Int32Array.from([...radixSort(Int32Array.from(filled), hi, null), ...empty]);
    }, (o) => o.byteLength);
  }

  /** Positions of a sorted order whose name or property type contains the search (lower case). */
  private searchOf(sel: Selection, order: Int32Array, orderKey: string, search: string): Int32Array {
    const q = search.toLowerCase();
    if (!q) return order;
    return sel.searches.getOrMake(`${orderKey}|${q}`, () => {
      const hay = (sel.haystack ??= Array.from(sel.idx, (i) => { const a = sel.R.assets[i]!; return `${a.name.toLowerCase()}\u0000${(a.property_type ?? '').toLowerCase()}`; }));
      const out: number[] = [];
      for (let j = 0; j < order.length; j++) { const n = order[j]!; if (hay[n]!.includes(q)) out.push(n); }
      return Int32Array.from(out);
    }, (o) => o.byteLength);
  }

  /** One selected asset's asset-table row (the same values as the answer's asset_table and assets columns). */
  private rowOf(sel: Selection, n: number): DashboardAssetPageRow {
    const { R, idx, pa, assetScores } = sel;
    const a = R.assets[idx[n]!]!;
    const losses = sel.allowed.portfolio_losses === true;
    const row = {} as Record<string, unknown>;
    for (const k of ROW_KEYS) {
      if (k in IDENTITY_COLUMNS) row[k] = IDENTITY_COLUMNS[k as keyof typeof IDENTITY_COLUMNS](a);
      else if (k in STORED_COLUMNS) row[k] = STORED_COLUMNS[k as keyof typeof STORED_COLUMNS](a);
      else if (k === 'climatic_score') row[k] = assetScores[n];
      else row[k] = losses ? r2(pa[idx[n]! * ASSET_BATCH_FIELDS + LOSS_FIELDS[k as keyof typeof LOSS_FIELDS]]!) : null;
    }
    const hazards: Record<string, number | null> = {};
    // The per-hazard scores are the heat map's and the risk map's: sent when the tier shows either.
    if (sel.allowed.climate_heatmap !== true && sel.allowed.asset_level_risk_map !== true) return { ...(row as DashboardAssetRow), position: n, hazards };
    const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, sel.mitigation);
    for (let k = 0; k < sel.hazards.length; k++) { const v = m[idx[n]! * N_HAZARDS + sel.hk[k]!]!; hazards[labelOf(sel.hazards[k]!)] = v === 255 ? null : v; }
    return { ...(row as DashboardAssetRow), position: n, hazards };
  }

  /** `POST api/v2/dashboard/assets/`: one page of the asset table, sorted and searched on the server. */
  async assetPage(caller: AuthUser, body: DashboardAssetPageBody): Promise<DashboardAssetPage> {
    const sel = await this.selection(caller, body, 'asset_table');
    if (body.sort in LOSS_FIELDS && sel.allowed.portfolio_losses !== true) throw new AppError(403, `sort: your subscription tier does not include the asset losses ('${body.sort}').`, [{ field: 'sort', message: 'not part of your tier' }]);
    let positions: ArrayLike<number>;
    if (body.ids) {
      const byId = (sel.positionOfId ??= new Map(Array.from(sel.idx, (i, n) => [sel.R.assets[i]!.id, n] as const)));
      positions = body.ids.map((id) => byId.get(id)).filter((n): n is number => n !== undefined);
    } else {
      const order = this.orderOf(sel, body.sort, body.order, sel.mitigation);
      positions = this.searchOf(sel, order, `${body.sort}|${body.order}`, body.search);
    }
    const rows: DashboardAssetPageRow[] = [];
    const end = Math.min(positions.length, body.offset + body.limit);
    for (let j = body.offset; j < end; j++) rows.push(this.rowOf(sel, positions[j]!));
    return { total: positions.length, offset: body.offset, limit: body.limit, sort: body.sort, order: body.order, rows };
  }

  /** `POST api/v2/dashboard/heatmap/`: one page of the hazard heat map (assets by hazards), sorted and searched on the server. */
  async heatmapPage(caller: AuthUser, body: DashboardHeatmapPageBody): Promise<DashboardHeatmapPage> {
    const sel = await this.selection(caller, body, 'climate_heatmap');
    const residual = body.adaptation ?? sel.mitigation;
    const labels = sel.hazards.map(labelOf);
    const sortKey = body.sort === 'climate_score' || body.sort === 'name' || body.sort === 'position' ? body.sort : hazardByLabel(body.sort)?.key && sel.hazards.includes(hazardByLabel(body.sort)!.key) ? hazardByLabel(body.sort)!.label : null;
    if (!sortKey) throw badRequest(`sort: '${body.sort}' is not position, name, climate_score or one of the hazards ${labels.join(', ')}.`, 'sort');
    const order = this.orderOf(sel, sortKey, body.order, residual);
    const positions = this.searchOf(sel, order, `${sortKey}|${body.order}|${residual}`, body.search);
    const end = Math.min(positions.length, body.offset + body.limit);
    const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, residual);
    const ids: number[] = [], names: string[] = [];
    const scores: (number | null)[][] = sel.hazards.map(() => []);
    for (let j = body.offset; j < end; j++) {
      const n = positions[j]!, i = sel.idx[n]!, a = sel.R.assets[i]!;
      ids.push(a.id); names.push(a.name);
      for (let k = 0; k < sel.hazards.length; k++) { const v = m[i * N_HAZARDS + sel.hk[k]!]!; scores[k]!.push(v === 255 ? null : v); }
    }
    return { total: positions.length, offset: body.offset, limit: body.limit, hazards: labels, ids, names, scores };
  }

  /**
   * `POST api/v2/dashboard/map/`: the asset map's points, every selected asset up to DASHBOARD_MAP_POINTS_MAX, else grid
   * clusters of the viewport (cells of about 48 px at the zoom), coloured by the highest score in each.
   */
  async mapData(caller: AuthUser, body: DashboardMapBody): Promise<DashboardMapAnswer> {
    const sel = await this.selection(caller, body, 'asset_level_risk_map');
    const { R, idx } = sel;
    const N = idx.length;
    const labels = sel.hazards.map(labelOf);
    let score: (n: number) => number | null;
    if (body.colour_by === 'Climate score' || body.colour_by === 'climate_score') score = (n) => sel.assetScores[n]!;
    else {
      const h = hazardByLabel(body.colour_by)?.key;
      if (!h || !sel.hazards.includes(h)) throw badRequest(`colour_by: '${body.colour_by}' is not Climate score or one of the hazards ${labels.join(', ')}.`, 'colour_by');
      const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, sel.mitigation), hh = HAZARD_KEYS.indexOf(h);
      score = (n) => { const v = m[idx[n]! * N_HAZARDS + hh]!; return v === 255 ? null : v; };
    }
    if (sel.bounds === undefined) {
      let w = Infinity, so = Infinity, e = -Infinity, no = -Infinity;
      for (let n = 0; n < N; n++) {
        const a = R.assets[idx[n]!]!;
        if (!Number.isFinite(a.latitude) || !Number.isFinite(a.longitude)) continue;
        w = Math.min(w, a.longitude); e = Math.max(e, a.longitude); so = Math.min(so, a.latitude); no = Math.max(no, a.latitude);
      }
      sel.bounds = w <= e ? [w, so, e, no] : null;
    }
    const base = { total: N, colour_by: body.colour_by, hazards: labels, bounds: sel.bounds };
    if (N <= this.mapPointsMax) {
      const p = { id: [] as number[], name: [] as string[], latitude: [] as number[], longitude: [] as number[], score: [] as (number | null)[] };
      for (let n = 0; n < N; n++) { const a = R.assets[idx[n]!]!; p.id.push(a.id); p.name.push(a.name); p.latitude.push(a.latitude); p.longitude.push(a.longitude); p.score.push(score(n)); }
      return { ...base, clustered: false, points: p, clusters: null };
    }
    const [w, s, e, no] = body.bbox ?? [-180, -90, 180, 90];
    const cell = (360 / (512 * 2 ** Math.floor(body.zoom))) * 48; // degrees per ~48 screen pixels (512-pixel tiles, as MapLibre draws)
    const cells = new Map<string, { lat: number; lon: number; count: number; score: number | null; first: number }>();
    for (let n = 0; n < N; n++) {
      const a = R.assets[idx[n]!]!;
      const x = a.longitude, y = a.latitude;
      if (!(x >= w && x <= e && y >= s && y <= no)) continue;
      const key = `${Math.floor(x / cell)}:${Math.floor(y / cell)}`;
      const sc = score(n);
      const c = cells.get(key);
      if (!c) cells.set(key, { lat: y, lon: x, count: 1, score: sc, first: n });
      else { c.lat += y; c.lon += x; c.count++; if (sc !== null && (c.score === null || sc > c.score)) c.score = sc; }
    }
    const clusters = [...cells.values()].map((c) => ({ latitude: c.lat / c.count, longitude: c.lon / c.count, count: c.count, score: c.score, name: c.count === 1 ? R.assets[idx[c.first]!]!.name : null }));
    return { ...base, clustered: true, points: null, clusters };
  }
}
