/**
 * The physical-risk dashboard (spec 001 §2.1, §3.2): every figure computed from the stored analysis for one analysis
 * type, scenario and year. Field meanings are documented in docs/dashboard.md. An answer is built in four steps, one
 * module each: the filters (dashboard-filter.ts), the selection (dashboard-selection.ts), its figures
 * (dashboard-figures.ts) and the sections (dashboard-sections.ts), over the decoded analysis and what is kept with it
 * (dashboard-cache.ts); the page endpoints read the selection (dashboard-pages.ts).
 */
import {
  BASELINE_YEAR,
  dashboardView,
  HAZARD_KEYS,
  hazardByLabel,
  type DashboardAnswer,
  type DashboardView,
  type DashboardBody,
  DashboardBody as DashboardBodySchema,
  type DashboardFilterFields,
  type DashboardAssetPage,
  type DashboardAssetPageBody,
  type DashboardAssetPageRow,
  type DashboardHeatmapPage,
  type DashboardHeatmapPageBody,
  type DashboardMapAnswer,
  type DashboardMapBody,
  DASHBOARD_MAP_POINTS_MAX,
  type TierSection,
  type AnalysisType,
  type ScenarioCode,
} from '@crp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { lossSeriesOf, N_HAZARDS } from '@crp/engine';
import { DECODED_BYTES_PER_ASSET, loadProjectResults, type DecodeLimit, type ProjectResults, type DashboardAsset } from '../analysis/results-reader.js';
import { countAssets } from '../analysis/analysis.repository.js';
import type { DB } from '../../infra/db/database.js';
import type { DashboardRepository } from './dashboard.repository.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { assertCan } from '../access/project-access.policy.js';
import type { ProjectAccessPolicy, ProjectRole } from '../access/project-access.policy.js';
import { tierDataOf } from '../accounts/tier.service.js';
import { Lru } from '../../lib/lru.js';
import type { OwnLayerService } from '../own-layers/own-layer.service.js';
import {
  hazardKeysOf,
  precomputeSeries,
  resultsKeyOf,
  ResultsCache,
  scoreMatrixOf,
  seriesKeyOf,
  storedHazardIndex,
  type CachedResults,
  type YearBatches,
} from './dashboard-cache.js';
import { meanKeys } from './dashboard-money.js';
import { LARGE_JOBS_KEPT, largeResultsOf, LargeStores, STORE_JOBS, storeJobOf } from './large-store.js';
import { MEAN_FIELDS } from './large-store-compute.js';
import { figuresKeyOf, yearKeyOf } from './year-batches-compute.js';
import { labelOf, LOSS_FIELDS, MIB } from './dashboard-columns.js';
import { resolveFilters, selectionKeyOf, type ResolvedFilters } from './dashboard-filter.js';
import { portfolioSeries, portfolioTotals } from './dashboard-figures.js';
import { boundsOf, mapClusters, orderOf, pageRowOf, searchOf } from './dashboard-pages.js';
import { answerOf, ownDataOf, publishedDataOf } from './dashboard-sections.js';
import { startYearBatches } from './year-batches.js';
import { baselineSums, selectAssets, selectionBytes, selectionDataOf, type Selection, type SelectionData, yearFiguresOf } from './dashboard-selection.js';

export { placeholderHazards } from './dashboard-sections.js';

/** The dashboard answer object (what query returns). */
export type DashboardAnswerObject = Exclude<Awaited<ReturnType<DashboardService['build']>>, Buffer | { kind: 'rows' }>;

/** Who asks and about what: the project, the caller's role, tier and edit permissions, and the resolved filters. */
interface QueryContext {
  project: ProjectRow;
  role: ProjectRole;
  f: ResolvedFilters;
  tierPermissions: ReturnType<typeof tierDataOf>['tier_permissions'];
  edits: Record<string, boolean>;
  resultsKey: string;
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
  /** How much of a stored analysis may be decoded at once (config RESULTS_DECODE_MAX_MB). */
  private readonly decodeLimit: DecodeLimit;
  /** Memory for decoded analyses (config DASHBOARD_RESULTS_CACHE_MB). */
  private readonly resultsCacheBytes: number;
  /** The dashboard stores of analyses too large to decode (large-store.ts). */
  readonly large: LargeStores;
  /** Up to this many selected assets the map endpoint sends points, above it clusters (tests lower it). */
  mapPointsMax = DASHBOARD_MAP_POINTS_MAX;

  constructor(
    private readonly db: DB,
    private readonly repo: DashboardRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly users: UsersRepository,
    limits: { resultsCacheMb: number; answerCacheMb: number; maxDecodedBytes: number } = { resultsCacheMb: 768, answerCacheMb: 128, maxDecodedBytes: Infinity },
    /** The company's own hazard layers (issue 23 item 3), for the 'own data' marks; none when not given. */
    private readonly own?: Pick<OwnLayerService, 'markerFor' | 'signatureOf'>,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.large = new LargeStores(db, log);
    this.cache = new ResultsCache(limits.resultsCacheMb * MIB);
    this.resultsCacheBytes = limits.resultsCacheMb * MIB;
    this.decodeLimit = { maxDecodedBytes: limits.maxDecodedBytes };
    this.answers = new Lru<Buffer>(Infinity, limits.answerCacheMb * MIB);
  }

  private async resolveProject(
    caller: AuthUser,
    body: { project_id?: number | undefined; project_name?: string | undefined },
  ): Promise<{ project: ProjectRow; role: ProjectRole }> {
    const access =
      body.project_id !== undefined ? await this.policy.access(caller, body.project_id) : await this.policy.findVisibleByName(caller, body.project_name!);
    assertCan(access.role, 'view', access.project.name);
    return access;
  }

  /**
   * Decodes a project's stored analysis into the cache (called when an analysis has been stored), so that the first
   * dashboard query after an analysis does not pay for reading and decoding it.
   */
  async warm(projectId: number): Promise<void> {
    const project = await this.repo.analysisState(projectId);
    if (!project || project.status !== 'done') return;
    let cached: CachedResults;
    try {
      cached = await this.cache.get(resultsKeyOf(project), () => this.load(project.id));
    } catch (err) {
      // a large analysis whose dashboard store is being prepared (load started it)
      if (err instanceof AppError && err.statusCode === 409) return;
      throw err;
    }
    const defaults = resolveFilters(project, null, DashboardBodySchema.parse({ project_id: project.id }));
    if (cached.R.large) {
      // a large analysis: its assets and aggregates are read; the job of the default filters too, for the first query
      if (!cached.years) fillFromStore(cached);
      const job = storeJobOf(defaults.at, defaults.sc, defaults.year);
      if (job !== undefined) await this.largeJob(cached, job);
      return;
    }
    this.startYears(resultsKeyOf(project), cached, project);
    // The per-asset CVaRs at the project's default filters (what most first queries ask), kept with the analysis.
    selectAssets(cached, defaults, { property_type: 'All', count: 'All' });
  }

  /**
   * After a restart, decodes the most recently analysed projects into the cache in the background, newest first, as
   * long as they fit the cache's memory together (the newest one always, if it is under the decode limit), so that the
   * first dashboard query after a restart finds its analysis decoded instead of waiting seconds for it (issue 22: about
   * 8-11 s at 100,000 assets). A query that comes during the warm-up waits for the same decode, not a second one.
   * Answers the ids decoded.
   */
  async warmRecent(maxProjects = 4): Promise<number[]> {
    const warmed: number[] = [];
    const large: number[] = [];
    let bytes = 0;
    for (const p of await this.repo.recentlyAnalysed(maxProjects)) {
      const need = (p.assets ?? 0) * DECODED_BYTES_PER_ASSET;
      if (need > this.decodeLimit.maxDecodedBytes) large.push(p.id);
      else if (warmed.length > 0 && bytes + need > this.resultsCacheBytes) break;
      else {
        await this.warm(p.id);
        warmed.push(p.id);
        bytes += need;
      }
    }
    // too large to decode, after the others: the dashboard store is built if it is missing, else the assets are read
    // (about 40 s at a million), so the first query after a restart finds them
    for (const id of large) {
      await this.warm(id);
      warmed.push(id);
    }
    return warmed;
  }

  /**
   * Starts the background work of a decoded analysis, once: in a worker thread, the portfolio series and every
   * scenario-year at the default loss options (year-batches.ts), whose size then counts in the decoded-analysis cache;
   * if the worker fails, the series on the event loop (precomputeSeries) as before.
   */
  private startYears(key: string, c: CachedResults, project: Pick<ProjectRow, 'portfolio_variables' | 'default_filters'>): void {
    if (c.years) return;
    const filters = project.default_filters as { analysis_type: AnalysisType; scenario: ScenarioCode; year?: number };
    const hazards = hazardKeysOf(project.portfolio_variables as string[]);
    const years = startYearBatches(c, hazards, { at: filters.analysis_type, sc: filters.scenario, year: filters.year });
    void years?.done.then(() => (years.error ? precomputeSeries(c, hazards) : this.cache.account(key, c)));
  }

  /**
   * The precomputation of a project's current analysis (benches and tests wait for it): undefined while the analysis
   * is not decoded, else when done its worker time, scenario-years and bytes.
   */
  async precomputed(projectId: number): Promise<{ ms?: number; years: number; bytes: number; error?: string } | undefined> {
    const project = await this.repo.analysisState(projectId);
    if (!project || project.status !== 'done') return undefined;
    const c = await this.cache.peek(resultsKeyOf(project));
    if (!c?.years) return undefined;
    await c.years.done;
    return { ms: c.years.ms, years: c.years.pa.size, bytes: c.years.bytes, error: c.years.error };
  }

  /** The dashboard answer as UTF-8 JSON (what the routes send), from the answer cache when the same answer was built. */
  async queryJson(caller: AuthUser, body: DashboardBody): Promise<Buffer> {
    let key = '';
    let flight: { resolve: (b: Buffer) => void; reject: (e: unknown) => void } | null = null;
    const fragments = new Map<string, string>();
    try {
      const answer = await this.build(
        caller,
        body,
        (k) => {
          key = k;
          const hit = this.answers.get(k) ?? this.building.get(k);
          if (hit) return hit;
          const p = new Promise<Buffer>((resolve, reject) => {
            flight = { resolve, reject };
          });
          p.catch(() => {}); // the waiters, if any, handle it
          this.building.set(k, p);
          return undefined;
        },
        fragments,
      );
      if (Buffer.isBuffer(answer)) return answer;
      const buf = spliceFragments(JSON.stringify(answer), fragments);
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

  /** Step 1: the project (409 until its analysis is done), the caller's role, tier and permissions, and the filters. */
  private async context(caller: AuthUser, body: DashboardBody): Promise<QueryContext> {
    const { project, role } = await this.resolveProject(caller, body);
    if (project.status !== 'done') {
      throw new AppError(
        409,
        project.status === 'failed'
          ? `The analysis failed: ${project.status_message ?? ''}`
          : `The analysis is ${project.status} (${Math.round(project.progress * 100)} %). The dashboard opens when it is done.`,
        undefined,
        { status: project.status, progress: project.progress },
      );
    }
    const me = await this.users.userById(caller.id);
    // Filters not sent: the caller's own saved defaults (update_default_filter without a project), else the project's.
    const f = resolveFilters(project, me?.default_filters as unknown, body);
    const company = await this.users.companyById(caller.companyId);
    const tierPermissions = tierDataOf(company!).tier_permissions;
    const edits = (me?.data_edit_permissions ?? {}) as Record<string, boolean>;
    return { project, role, f, tierPermissions, edits, resultsKey: resultsKeyOf(project) };
  }

  /** Everything an answer depends on: the analysis, the project fields it echoes, the caller's role, tier and edit permissions, and the resolved filters. */
  private async answerKey(x: QueryContext, body: DashboardBody): Promise<string> {
    const { project, f } = x;
    return JSON.stringify([
      x.resultsKey,
      await this.own?.signatureOf(project.company_id),
      project.name,
      project.portfolio_variables,
      x.role,
      x.tierPermissions,
      x.edits,
      f.at,
      f.sc,
      f.year,
      body.variable,
      body.percentage_type,
      body.mitigation,
      body.with_content,
      body.adjusted_gdp,
      body.property_type,
      body.count,
      body.currency,
      body.per_asset,
    ]);
  }

  /**
   * Builds the answer (filter, selection, figures, sections); with `cached`, first asks it for a serialised answer (or
   * one being built) under the answer's key. Rows mode: the selection of the page endpoints, kept per analysis and
   * selection filters; identical requests that arrive while it is built (the table, heat map and map pages of one
   * dashboard) wait for that build. An answer with per_asset 'pages' builds the same selection on its way and leaves
   * it for the page requests that follow.
   */
  private async build(
    caller: AuthUser,
    body: DashboardBody,
    cached?: (key: string) => Buffer | Promise<Buffer> | undefined,
    fragments?: Map<string, string>,
    rowsMode = false,
  ) {
    const x = await this.context(caller, body);
    const { f } = x;
    if (cached) {
      const hit = cached(await this.answerKey(x, body));
      if (hit) return hit;
    }
    const sharesSelection = rowsMode || body.per_asset === 'pages';
    const selKey = sharesSelection ? selectionKeyOf(x.resultsKey, f, body) : '';
    const withCaller = (d: SelectionData): Selection => ({ ...d, allowed: x.tierPermissions as Partial<Record<TierSection, boolean>> });
    const done: { resolve?: (d: SelectionData | null) => void } = {};
    if (rowsMode) {
      const hit = this.selections.get(selKey) ?? (await this.selecting.get(selKey));
      if (hit) return withCaller(hit);
    }
    if (sharesSelection && !this.selecting.has(selKey) && !this.selections.get(selKey)) {
      this.selecting.set(
        selKey,
        new Promise<SelectionData | null>((resolve) => {
          done.resolve = resolve;
        }),
      );
    }
    try {
      const c = await this.cache.get(x.resultsKey, () => this.load(x.project.id));
      if (c.R.large) await this.largeReady(c, f, body, rowsMode);
      else this.startYears(x.resultsKey, c, x.project);
      // Step 2: the selection, its money at the year and its climate scores.
      const sel = selectAssets(c, f, body);
      const { atYear, assetScores } = yearFiguresOf(sel);
      if (rowsMode || done.resolve) {
        const d = selectionDataOf(sel, assetScores);
        this.selections.set(selKey, d, selectionBytes(d));
        done.resolve?.(d);
        if (rowsMode) return withCaller(d);
      }
      // Step 3: the figures; step 4: the sections.
      const totals = portfolioTotals(sel, atYear, assetScores);
      const at2020 = sel.syIdx === sel.baseIdx ? atYear : baselineSums(sel);
      const series = portfolioSeries(sel, body);
      const marker = await this.own?.markerFor(x.project);
      const cellSc = f.at === 'ssp' && f.year === BASELINE_YEAR ? null : f.sc;
      await marker?.prefetch(sel.R.assets, [{ scenario: cellSc ?? '45', year: f.year }]);
      const ownData = await ownDataOf(marker, sel.R.assets, f.projectHazards, cellSc, f.year);
      const publishedData = await publishedDataOf(marker, sel.R.assets, f.projectHazards, cellSc, f.year);
      return answerOf({
        project: x.project,
        role: x.role,
        tierPermissions: x.tierPermissions,
        edits: x.edits,
        body,
        sel,
        atYear,
        at2020,
        assetScores,
        totals,
        series,
        ownData,
        publishedData,
        fragments,
      });
    } finally {
      if (done.resolve) {
        done.resolve(null);
        this.selecting.delete(selKey);
      }
    }
  }

  /**
   * Reads a project's analysis: decoded when it fits the decode limit (RESULTS_DECODE_MAX_MB), else its assets and the
   * aggregates of its dashboard store (large-store.ts), which is built in the background the first time (409 with the
   * progress until it is done).
   */
  private async load(projectId: number): Promise<ProjectResults<DashboardAsset>> {
    const n = await countAssets(this.db, projectId);
    if (n * DECODED_BYTES_PER_ASSET <= this.decodeLimit.maxDecodedBytes) return loadProjectResults(this.db, projectId, this.decodeLimit, n);
    const { version, hazards } = await this.large.current(projectId);
    // no analysis stored yet: the reader's own 409
    if (version === null) return loadProjectResults(this.db, projectId);
    const st = await this.large.state(projectId, version);
    if (st?.state !== 'done') {
      // once made here, read into the cache (unless another process makes it, or it failed: then the next query asks)
      void this.large
        .ensureBuilding(projectId, version, hazards)
        .then(async () => {
          if (!this.large.closing && (await this.large.state(projectId, version))?.state === 'done') await this.warm(projectId);
        })
        .catch((err: unknown) => this.log?.warn({ projectId, err }, 'reading a new dashboard store failed'));
      const progress = st?.state === 'building' ? st.progress : 0;
      throw new AppError(
        409,
        `This portfolio has ${n.toLocaleString('en-US')} assets, more than this server reads at once: its dashboard is being prepared ` +
          `(${Math.round(progress * 100)} %). It opens when this is done.` +
          (st?.state === 'failed' ? ` The last attempt failed (${st.message ?? 'unknown error'}) and is being retried.` : ''),
        undefined,
        { status: 'preparing', progress },
      );
    }
    const agg = await this.large.aggregates(projectId, version);
    return largeResultsOf(await this.large.assets(projectId, version, n), { projectId, version, agg, loaded: new Map() });
  }

  /**
   * A query of a large analysis: refuses (422, naming each filter) what its dashboard store does not hold, fills the
   * analysis's caches from the store's aggregates once, and reads the query's scenario-year job.
   */
  private async largeReady(c: CachedResults, f: ResolvedFilters, body: DashboardBody, rowsMode: boolean): Promise<void> {
    const L = c.R.large!;
    const refused: { field: string; message: string }[] = [];
    const size = `${c.R.assets.length.toLocaleString('en-US')} assets`;
    const no = (field: string, what: string) => refused.push({ field, message: `${what} is not available for a portfolio of ${size}.` });
    if (f.hazards.join(',') !== L.agg.hazards.join(',')) no('variable', 'Showing one hazard alone');
    if (!f.withContent) no('with_content', 'Losses without content');
    if (f.opt.gdpAdjusted) no('adjusted_gdp', 'GDP-adjusted operational losses');
    if (body.count !== 'All') no('count', 'Showing only the highest-loss assets');
    if (body.property_type !== 'All') no('property_type', 'Filtering by one property type');
    if (!rowsMode && body.per_asset !== 'pages') no('per_asset', "The per-asset sections in the answer (ask per_asset 'pages' and use the page endpoints)");
    const job = storeJobOf(f.at, f.sc, f.year);
    if (job === undefined) no('year', `${f.at} ${f.sc} ${f.year}`);
    if (refused.length > 0)
      throw new AppError(
        422,
        `This portfolio has ${size}: its dashboard is read from a summary made once per analysis, ` +
          `which holds every scenario and year at the default loss options for the whole portfolio. Not available at this size: ` +
          `${refused.map((r) => r.field).join(', ')}.`,
        refused,
      );
    if (!c.years) fillFromStore(c);
    await this.largeJob(c, job!);
  }

  /** Reads one job of a large analysis's store into its caches (the most recently asked LARGE_JOBS_KEPT are kept). */
  private async largeJob(c: CachedResults, job: number): Promise<void> {
    const L = c.R.large!;
    let p = L.loaded.get(job);
    if (p) L.loaded.delete(job);
    else {
      p = this.large.slice(L.projectId, L.version, job, c.R.assets.length);
      p.catch(() => L.loaded.delete(job));
    }
    L.loaded.set(job, p);
    for (const old of [...L.loaded.keys()].slice(0, Math.max(0, L.loaded.size - LARGE_JOBS_KEPT))) {
      L.loaded.delete(old);
      forgetJob(c, old);
    }
    const slice = await p;
    const j = STORE_JOBS[job]!;
    const y = c.years!;
    y.pa.set(yearKeyOf(j.at, j.sc, j.year), slice.pa);
    const fk = figuresKeyOf(j.s, true, false);
    y.figures.set(fk, { sums: y.figures.get(fk)!.sums, scores: slice.scores });
    c.scores.set(`${j.s}|false`, slice.m, slice.m.byteLength);
    c.scores.set(`${j.s}|true`, slice.mR, slice.mR.byteLength);
  }

  /** The selection of the page endpoints for a caller and filters (tier section checked: 403 when not allowed). */
  private async selection(
    caller: AuthUser,
    body: DashboardFilterFields & { project_id?: number | undefined; project_name?: string | undefined },
    section: TierSection,
  ): Promise<Selection> {
    const sel = (await this.build(caller, { ...body, per_asset: 'pages' } as DashboardBody, undefined, undefined, true)) as Selection;
    if (sel.allowed[section] !== true) throw new AppError(403, `Your subscription tier does not include the ${section.replace(/_/g, ' ')}.`);
    // a large analysis: the hazard scores of the selection's year, read again if they were let go since
    if (sel.R.large && !sel.cachedResults.scores.get(`${sel.syIdx}|false`))
      await this.largeJob(
        sel.cachedResults,
        STORE_JOBS.findIndex((j) => j.s === sel.syIdx),
      );
    return sel;
  }

  /** `POST api/v2/dashboard/assets/`: one page of the asset table, sorted and searched on the server. */
  async assetPage(caller: AuthUser, body: DashboardAssetPageBody): Promise<DashboardAssetPage> {
    const sel = await this.selection(caller, body, 'asset_table');
    if (body.sort in LOSS_FIELDS && sel.allowed.portfolio_losses !== true)
      throw new AppError(403, `sort: your subscription tier does not include the asset losses ('${body.sort}').`, [
        { field: 'sort', message: 'not part of your tier' },
      ]);
    let positions: ArrayLike<number>;
    if (body.ids) {
      const byId = (sel.positionOfId ??= new Map(Array.from(sel.idx, (i, n) => [sel.R.assets[i]!.id, n] as const)));
      positions = body.ids.map((id) => byId.get(id)).filter((n): n is number => n !== undefined);
    } else {
      const order = orderOf(sel, body.sort, body.order, sel.mitigation);
      positions = searchOf(sel, order, `${body.sort}|${body.order}`, body.search);
    }
    const rows: DashboardAssetPageRow[] = [];
    const end = Math.min(positions.length, body.offset + body.limit);
    for (let j = body.offset; j < end; j++) rows.push(pageRowOf(sel, positions[j]!));
    return { total: positions.length, offset: body.offset, limit: body.limit, sort: body.sort, order: body.order, rows };
  }

  /** `POST api/v2/dashboard/heatmap/`: one page of the hazard heat map (assets by hazards), sorted and searched on the server. */
  async heatmapPage(caller: AuthUser, body: DashboardHeatmapPageBody): Promise<DashboardHeatmapPage> {
    const sel = await this.selection(caller, body, 'climate_heatmap');
    const residual = body.adaptation ?? sel.mitigation;
    const labels = sel.hazards.map(labelOf);
    const sortKey =
      body.sort === 'climate_score' || body.sort === 'name' || body.sort === 'position'
        ? body.sort
        : hazardByLabel(body.sort)?.key && sel.hazards.includes(hazardByLabel(body.sort)!.key)
          ? hazardByLabel(body.sort)!.label
          : null;
    if (!sortKey) throw badRequest(`sort: '${body.sort}' is not position, name, climate_score or one of the hazards ${labels.join(', ')}.`, 'sort');
    const order = orderOf(sel, sortKey, body.order, residual);
    const positions = searchOf(sel, order, `${sortKey}|${body.order}|${residual}`, body.search);
    const end = Math.min(positions.length, body.offset + body.limit);
    const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, residual);
    const ids: number[] = [],
      names: string[] = [];
    const scores: (number | null)[][] = sel.hazards.map(() => []);
    for (let j = body.offset; j < end; j++) {
      const n = positions[j]!,
        i = sel.idx[n]!,
        a = sel.R.assets[i]!;
      ids.push(a.id);
      names.push(a.name);
      for (let k = 0; k < sel.hazards.length; k++) {
        const v = m[i * N_HAZARDS + sel.hk[k]!]!;
        scores[k]!.push(v === 255 ? null : v);
      }
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
      if (!h || !sel.hazards.includes(h))
        throw badRequest(`colour_by: '${body.colour_by}' is not Climate score or one of the hazards ${labels.join(', ')}.`, 'colour_by');
      const m = scoreMatrixOf(sel.cachedResults, sel.syIdx, sel.mitigation),
        hh = HAZARD_KEYS.indexOf(h);
      score = (n) => {
        const v = m[idx[n]! * N_HAZARDS + hh]!;
        return v === 255 ? null : v;
      };
    }
    const base = { total: N, colour_by: body.colour_by, hazards: labels, bounds: boundsOf(sel) };
    if (N <= this.mapPointsMax) {
      const p = { id: [] as number[], name: [] as string[], latitude: [] as number[], longitude: [] as number[], score: [] as (number | null)[] };
      for (let n = 0; n < N; n++) {
        const a = R.assets[idx[n]!]!;
        p.id.push(a.id);
        p.name.push(a.name);
        p.latitude.push(a.latitude);
        p.longitude.push(a.longitude);
        p.score.push(score(n));
      }
      return { ...base, clustered: false, points: p, clusters: null };
    }
    const clusters = mapClusters(sel, score, body.bbox, body.zoom);
    return { ...base, clustered: true, points: null, clusters };
  }
}

/**
 * The caches of a large analysis filled from its store's aggregates (what year-batches.ts precomputes for a decoded
 * one): each job's bar sums and money sums, the series of every scenario (whole portfolio and property types), the
 * means of every scenario-year. Per-asset figures come per job (DashboardService.largeJob).
 */
function fillFromStore(c: CachedResults): void {
  const { agg } = c.R.large!;
  const H = agg.hazards.length;
  const y: YearBatches = {
    hazards: agg.hazards.join(','),
    H,
    pa: new Map(),
    bars: new Map(),
    figures: new Map(),
    groupOf: new Map(agg.groups.map((t, g) => [t, g])),
    done: Promise.resolve(),
    bytes: 0,
  };
  STORE_JOBS.forEach((j, n) => {
    y.bars.set(yearKeyOf(j.at, j.sc, j.year), agg.bars[n]!);
    const s = agg.sums[n]!;
    y.figures.set(figuresKeyOf(j.s, true, false), {
      sums: { totalValue: s[0]!, premium: s[1]!, loss: s.slice(2, 2 + H), lossResidual: s.slice(2 + H, 2 + 2 * H) },
      scores: null,
    });
  });
  for (const s of agg.series) {
    const key = seriesKeyOf(s.at, s.sc, agg.hazards, true, false, s.group < 0 ? 'All' : agg.groups[s.group]!);
    c.series.set(key, lossSeriesOf(s.years, s.loss, s.lossResidual));
    if (s.hazardLoss && s.hazardLossResidual) c.hazardSeries.set(key, { years: s.years, loss: s.hazardLoss, lossResidual: s.hazardLossResidual });
  }
  const hk = storedHazardIndex(agg.hazards);
  const m = agg.means;
  const S = m.length / (H * MEAN_FIELDS);
  for (let s = 0; s < S; s++)
    for (let k = 0; k < H; k++) {
      const o = (s * H + k) * MEAN_FIELDS;
      c.means.set(meanKeys.score(hk[k]!, s, false), m[o + 1] ? Math.round(m[o]! / m[o + 1]!) : null);
      c.means.set(meanKeys.score(hk[k]!, s, true), m[o + 3] ? Math.round(m[o + 2]! / m[o + 3]!) : null);
      c.means.set(meanKeys.intensity(hk[k]!, s), m[o + 5] ? Math.round((1000 * m[o + 4]!) / m[o + 5]!) / 1000 : null);
      c.means.set(meanKeys.inventory(hk[k]!, s, false), m[o + 6]!);
      c.means.set(meanKeys.inventory(hk[k]!, s, true), m[o + 7]!);
    }
  // the hazard-score matrices of the kept jobs (11 bytes an asset each), managed by largeJob and forgetJob
  c.scores = new Lru<Uint8Array>(Infinity, Infinity);
  c.years = y;
}

/** Lets go of a job's per-asset figures (and its year's scores, unless another kept job has the same year). */
function forgetJob(c: CachedResults, job: number): void {
  const j = STORE_JOBS[job]!;
  const y = c.years!;
  y.pa.delete(yearKeyOf(j.at, j.sc, j.year));
  if ([...c.R.large!.loaded.keys()].some((k) => STORE_JOBS[k]!.s === j.s)) return;
  const fk = figuresKeyOf(j.s, true, false);
  y.figures.set(fk, { sums: y.figures.get(fk)!.sums, scores: null });
  c.scores.delete(`${j.s}|false`);
  c.scores.delete(`${j.s}|true`);
}

/**
 * The answer's JSON from its skeleton (JSON.stringify of the answer object) with each placeholder replaced by its
 * fragment's JSON text (the per-asset sections, serialised once; in fragment order).
 */
function spliceFragments(skeleton: string, fragments: Map<string, string>): Buffer {
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
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
