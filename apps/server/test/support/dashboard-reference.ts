/**
 * FROZEN REFERENCE for apps/server/test/dashboard-equivalence.test.ts: the dashboard query exactly as it was before the
 * performance work of issue 7 (commit 1d8095d, apps/server/src/modules/dashboard/dashboard.service.ts), kept verbatim except for
 * import paths and the class name. The optimised service must return the same answer for every filter combination.
 * Do not "fix" or optimise this file: it is the oracle. (If the dashboard's meaning changes on purpose, change both.)
 */
/* eslint-disable */
import {
  BASELINE_YEAR,
  DATA_EDIT_PERMISSIONS,
  HAZARDS,
  HAZARD_INDICATORS,
  METHODOLOGY_VERSION,
  SCENARIO_LABELS,
  SCENARIOS,
  YEARS,
  climateScoreLevel,
  hazardByLabel,
  markerColour,
  severityBand,
  type AnalysisType,
  type DashboardBody,
  type HazardKey,
  type ScenarioCode,
  type TierSection,
} from '@crp/contracts';
import {
  assetCvar,
  cellMoney,
  defaultMeasure,
  hazardScore,
  HAZARD_INDEX,
  N_HAZARDS,
  keyFindings,
  portfolioCvarSeries,
  reportedValue as reportedValueOf,
  scenarioYearKey,
  seriesIndices,
  technicalPremium,
  type LossOptions,
  type PreparedAsset,
  type ResultChunk,
} from '@crp/engine';
import { DATASETS } from '@crp/hazards';
import { HAZARD_KEYS } from '@crp/contracts';
import { INSURABLE_HAZARDS, prepareAssets, SCENARIO_YEAR_INDEX } from '@crp/engine';
import { assetInputOf } from '../../src/modules/analysis/analysis.jobs.js';
import { decodeChunk, type StoredChunk } from '../../src/modules/analysis/result-codec.js';
import { placeholderHazards } from '../../src/modules/dashboard/dashboard.service.js';
import type { AssetRow } from '../../src/infra/db/schema.js';
import type { DB } from '../../src/infra/db/database.js';
import type { ProjectRow } from '../../src/infra/db/schema.js';
import type { AuthUser } from '../../src/lib/auth-context.js';
import { AppError, badRequest } from '../../src/lib/errors.js';
import type { UsersRepository } from '../../src/modules/accounts/users.repository.js';
import { assertCan, type ProjectAccessPolicy, type ProjectRole } from '../../src/modules/access/project-access.policy.js';
import { tierDataOf } from '../../src/modules/accounts/tier.service.js';

/* ---- results-reader.ts as it was (the loader is part of the oracle) ---- */

/** A stored analysis, decoded for reading: assets in position order with their result chunk and local index. */
interface ProjectResults {
  assets: AssetRow[];
  prepared: PreparedAsset[];
  chunks: StoredChunk[];
  /** Chunk and index within it of asset i. */
  locate(i: number): { chunk: StoredChunk; a: number };
  /** Headline hazard intensity of asset i at a scenario-year key (NaN = no data). */
  intensity(i: number, hazard: HazardKey, syKey: string): number;
  /** Severity score 0-100 (null = no data) of asset i for a hazard at a scenario-year key. */
  score(i: number, hazard: HazardKey, syKey: string, residual?: boolean): number | null;
  syIndex(syKey: string): number;
}

/** Reads the stored analysis of a project; 409 when there is none yet (still queued or running). */
async function loadProjectResults(db: DB, projectId: number): Promise<ProjectResults> {
  const project = await db.selectFrom('projects').select(['status', 'status_message']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const blobs = await db.selectFrom('analysis_results').select(['chunk_start', 'data']).where('project_id', '=', projectId).orderBy('chunk_start').execute();
  if (blobs.length === 0) {
    throw new AppError(
      409,
      project.status === 'failed'
        ? `The analysis of this project failed: ${project.status_message ?? ''}`
        : 'The analysis of this project is not finished yet. Try again when it is done.',
    );
  }
  const assets = await db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
  const chunks = blobs.map((b) => decodeChunk(Buffer.from(b.data)));
  const prepared = prepareAssets(assets.map(assetInputOf), undefined);
  const S = chunks[0]!.scenarioYears.length;
  const H = HAZARD_KEYS.length;
  const owner: { chunk: StoredChunk; a: number }[] = [];
  for (const c of chunks) for (let a = 0; a < c.count; a++) owner[c.start + a] = { chunk: c, a };
  if (owner.length !== assets.length)
    throw new AppError(409, 'The stored analysis does not match the assets (they changed since). A new analysis is queued or running.');
  const syIndex = (key: string) => {
    const i = SCENARIO_YEAR_INDEX.get(key);
    if (i === undefined) throw new AppError(400, `No scenario-year ${key}.`);
    return i;
  };
  return {
    assets,
    prepared,
    chunks,
    locate: (i) => owner[i]!,
    syIndex,
    intensity(i, hazard, key) {
      const { chunk, a } = owner[i]!;
      return chunk.intensity[(a * H + HAZARD_KEYS.indexOf(hazard)) * S + syIndex(key)]!;
    },
    score(i, hazard, key, residual = false) {
      const { chunk, a } = owner[i]!;
      const v = (residual ? chunk.scoreResidual : chunk.score)[(a * H + HAZARD_KEYS.indexOf(hazard)) * S + syIndex(key)]!;
      return v === 255 ? null : v;
    },
  };
}

/* ---- dashboard.service.ts as it was ---- */
const labelOf = (h: HazardKey) => HAZARDS.find((x) => x.key === h)!.label;
const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
const sum = (xs: number[]) => xs.reduce((s, v) => s + (Number.isFinite(v) ? v : 0), 0);

/** Decoded analyses kept in memory (most recent few), so repeated dashboard queries do not re-read the database. */
class ResultsCache {
  private readonly map = new Map<string, Promise<ProjectResults>>();
  constructor(private readonly size: number) {}
  get(key: string, load: () => Promise<ProjectResults>): Promise<ProjectResults> {
    let hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    hit = load();
    hit.catch(() => this.map.delete(key));
    this.map.set(key, hit);
    while (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
    return hit;
  }
}

/** The selected assets as chunks of their own (for portfolio passes over a filtered selection). */
function subsetChunks(R: ProjectResults, idx: number[]): { chunks: ResultChunk[]; prepared: PreparedAsset[] } {
  const prepared: PreparedAsset[] = [];
  const chunks: ResultChunk[] = [];
  const byChunk = new Map<ResultChunk, number[]>();
  for (const i of idx) {
    const { chunk, a } = R.locate(i);
    const list = byChunk.get(chunk) ?? [];
    list.push(a);
    byChunk.set(chunk, list);
  }
  for (const [chunk, locals] of byChunk) {
    const S = chunk.scenarioYears.length;
    const pick = <T extends Float32Array | Uint8Array>(arr: T, per: number): T => {
      const out = new (arr.constructor as new (n: number) => T)(locals.length * per);
      locals.forEach((a, j) => out.set(arr.subarray(a * per, a * per + per), j * per));
      return out;
    };
    const cells = N_HAZARDS * S;
    chunks.push({
      start: prepared.length,
      count: locals.length,
      hazards: chunk.hazards,
      scenarioYears: chunk.scenarioYears,
      ead: pick(chunk.ead, cells),
      eadResidual: pick(chunk.eadResidual, cells),
      disruption: pick(chunk.disruption, cells),
      disruptionResidual: pick(chunk.disruptionResidual, cells),
      sd: pick(chunk.sd, cells),
      maxDamage: pick(chunk.maxDamage, cells),
      tail100: pick(chunk.tail100, cells),
      tail250: pick(chunk.tail250, cells),
      score: pick(chunk.score, cells),
      scoreResidual: pick(chunk.scoreResidual, cells),
      climateScore: pick(chunk.climateScore, S),
      climateScoreResidual: pick(chunk.climateScoreResidual, S),
    });
    for (const a of locals) prepared.push(R.prepared[chunk.start + a]!);
  }
  return { chunks, prepared };
}

/**
 * The physical-risk dashboard (spec 001 §2.1, §3.2): every figure computed from the stored analysis for one analysis
 * type, scenario and year. Field meanings are documented in docs/dashboard.md.
 */
const DATA_SOURCES = Object.values(DATASETS).map((d) => ({ name: d.name, publisher: d.publisher, license: d.license }));

export class ReferenceDashboardService {
  private readonly cache = new ResultsCache(4);

  constructor(
    private readonly db: DB,
    private readonly projects: ProjectAccessPolicy,
    private readonly users: UsersRepository,
  ) {}

  private async resolveProject(
    caller: AuthUser,
    body: { project_id?: number | undefined; project_name?: string | undefined },
  ): Promise<{ project: ProjectRow; role: ProjectRole }> {
    const access =
      body.project_id !== undefined ? await this.projects.access(caller, body.project_id) : await this.projects.findVisibleByName(caller, body.project_name!);
    assertCan(access.role, 'view', access.project.name);
    return access;
  }

  async query(caller: AuthUser, body: DashboardBody) {
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
    const filters = project.default_filters as { analysis_type: AnalysisType; scenario: ScenarioCode; year: number };
    const at: AnalysisType = body.analysis_type ?? filters.analysis_type;
    const sc: ScenarioCode = (body.scenario as ScenarioCode | undefined) ?? filters.scenario;
    let year = body.year ?? (at === filters.analysis_type ? filters.year : 2050);
    if (at === 'rcp' && year > 2050) year = 2050; // spec 001 §4: rcp with 2100 is forced to 2050
    const validYears = at === 'rcp' ? YEARS.rcp : [BASELINE_YEAR, ...YEARS.ssp];
    if (!validYears.includes(year)) throw badRequest(`year: ${year} is not a ${at.toUpperCase()} year; choose from ${validYears.join(', ')}.`, 'year');

    const projectHazards = (project.portfolio_variables as string[]).map((l) => hazardByLabel(l)?.key).filter((k): k is HazardKey => !!k);
    let hazards = projectHazards;
    if (body.variable !== 'Total') {
      const h = hazardByLabel(body.variable)?.key;
      if (!h)
        throw badRequest(
          `variable: '${body.variable}' is not a hazard; send Total or one of ${(project.portfolio_variables as string[]).join(', ')}.`,
          'variable',
        );
      hazards = [h];
    }

    const company = await this.users.companyById(caller.companyId);
    const me = await this.users.userById(caller.id);
    const tier = tierDataOf(company!);
    const allowed = (s: TierSection) => tier.tier_permissions[s] === true;
    const edits = (me?.data_edit_permissions ?? {}) as Record<string, boolean>;

    const R = await this.cache.get(`${project.id}:${project.analysed_at ? new Date(project.analysed_at).getTime() : 0}`, () =>
      loadProjectResults(this.db, project.id),
    );
    const key = at === 'ssp' && year === BASELINE_YEAR ? scenarioYearKey('baseline', null, year) : scenarioYearKey(at, sc, year);
    const baseKey = at === 'rcp' ? scenarioYearKey('rcp', sc, BASELINE_YEAR) : scenarioYearKey('baseline', null, BASELINE_YEAR);
    const syIdx = R.syIndex(key);
    const baseIdx = R.syIndex(baseKey);
    const opt: LossOptions = { withContent: body.with_content, gdpAdjusted: body.adjusted_gdp };
    const mitigation = body.mitigation;

    // Asset selection: property type filter, then the `count` highest residual CVaRs.
    let idx = R.assets.map((_, i) => i);
    if (body.property_type !== 'All') idx = idx.filter((i) => (R.assets[i]!.property_type ?? 'NA').toLowerCase() === body.property_type.toLowerCase());
    const perAsset = new Map<number, ReturnType<typeof assetCvar>>();
    for (const i of idx) {
      const { chunk, a } = R.locate(i);
      perAsset.set(i, assetCvar(R.prepared[i]!, chunk, a, hazards, at, sc, year, opt));
    }
    if (body.count !== 'All') idx = [...idx].sort((x, y) => (perAsset.get(y)!.rcvar || 0) - (perAsset.get(x)!.rcvar || 0)).slice(0, body.count);

    const money = (i: number, h: HazardKey, s: number) => {
      const { chunk, a } = R.locate(i);
      return cellMoney(R.prepared[i]!, chunk, a, h, s, opt);
    };
    // Money of every selected asset x hazard at the year and at 2020, computed once: [n * H + k].
    const H = hazards.length;
    const M = (s: number) => {
      const eal = new Float64Array(idx.length * H),
        ealR = new Float64Array(idx.length * H),
        op = new Float64Array(idx.length * H),
        sd = new Float64Array(idx.length * H);
      const exposedValue = new Float64Array(idx.length);
      // issue 37 item 2: the Total Asset Value and the percentages are of the value the user gave (valuation, else
      // construction cost), the damage of the construction cost
      const reportedValue = new Float64Array(idx.length);
      idx.forEach((i, n) => {
        hazards.forEach((h, k) => {
          const m = money(i, h, s);
          exposedValue[n] = m.exposedValue;
          reportedValue[n] = reportedValueOf(R.prepared[i]!, opt.withContent ?? true);
          eal[n * H + k] = m.eal;
          ealR[n * H + k] = m.ealResidual;
          op[n * H + k] = m.ealOperational;
          sd[n * H + k] = m.sd;
        });
      });
      return { eal, ealR, op, sd, exposedValue, reportedValue };
    };
    const atYear = M(syIdx);
    const at2020 = syIdx === baseIdx ? atYear : M(baseIdx);
    const totalValue = sum([...atYear.reportedValue]);
    const pct = (v: number) => (totalValue > 0 ? (100 * v) / totalValue : 0);

    /** Climate score of selected asset n over the chosen hazards: the engine's score of the summed loss ratios. */
    const climateScore = (n: number, mm: typeof atYear, residual: boolean): number | null => {
      let loss = 0,
        bi = 0,
        seen = false;
      for (let k = 0; k < H; k++) {
        const l = (residual ? mm.ealR : mm.eal)[n * H + k]!;
        if (!Number.isFinite(l)) continue;
        seen = true;
        loss += l;
        bi += mm.op[n * H + k]!;
      }
      if (!seen) return null;
      const p = R.prepared[idx[n]!]!;
      const value = mm.exposedValue[n]!;
      const revenue = p.revenue * p.ownership;
      const sc0 = hazardScore(value > 0 ? loss / value : revenue > 0 ? loss / revenue : 0, revenue > 0 ? bi / revenue : 0);
      return Number.isFinite(sc0) ? Math.round(sc0) : null;
    };
    const assetScores = idx.map((_, n) => climateScore(n, atYear, mitigation));

    // Portfolio CVaR at any scenario and year (charts, key findings): one pass per scenario over the stored ratios
    // (engine portfolioCvarSeries). The card figures below are the exact (per-asset capped) sums of assetCvar.
    const selected = idx.length === R.assets.length ? { chunks: R.chunks, prepared: R.prepared } : subsetChunks(R, idx);
    const seriesByScenario = new Map<ScenarioCode, ReturnType<typeof portfolioCvarSeries>>();
    const portfolioCvar = (s: ScenarioCode, y: number) => {
      let ser = seriesByScenario.get(s);
      if (!ser) {
        ser = portfolioCvarSeries(selected.chunks, selected.prepared, hazards, at, s, opt);
        seriesByScenario.set(s, ser);
      }
      return ser.at(y);
    };

    // Per asset and per hazard CVaR at the chosen scenario and year.
    const hazardCvar = new Float64Array(idx.length * H).fill(Number.NaN);
    const hazardRcvar = new Float64Array(idx.length * H).fill(Number.NaN);
    idx.forEach((i, n) => {
      const { chunk, a } = R.locate(i);
      hazards.forEach((h, k) => {
        const x = assetCvar(R.prepared[i]!, chunk, a, [h], at, sc, year, opt);
        hazardCvar[n * H + k] = x.cvar;
        hazardRcvar[n * H + k] = x.rcvar;
      });
    });
    const cvar = idx.reduce(
      (acc, i) => {
        const x = perAsset.get(i)!;
        if (Number.isFinite(x.cvar)) acc.cvar += x.cvar;
        if (Number.isFinite(x.rcvar)) acc.rcvar += x.rcvar;
        return acc;
      },
      { cvar: 0, rcvar: 0 },
    );
    const maxExposure = sum(idx.map((i) => perAsset.get(i)!.maxExposure));
    // All-hazard EAL per asset: the engine's multi-hazard rule (1 − Π(1 − d) per year and loss type, as the CVaR cards).
    let eal = 0;
    for (const i of idx) {
      const x = perAsset.get(i)!;
      const v = mitigation ? x.ealResidual : x.eal;
      if (Number.isFinite(v)) eal += v;
    }
    // premium from cellMoney (insurable hazards); tail losses: the assets' own (assetCvar), added
    let loss100 = 0,
      loss250 = 0,
      premium = 0,
      tailsKnown = true;
    for (const i of idx) {
      let insEal = 0;
      for (const h of hazards) {
        const m = money(i, h, syIdx);
        if (Number.isFinite(m.eal) && INSURABLE_HAZARDS.includes(h)) insEal += m.eal;
      }
      premium += technicalPremium(insEal);
      const x = perAsset.get(i)!;
      if (!Number.isFinite(x.eal)) continue;
      if (!Number.isFinite(x.loss100) || !Number.isFinite(x.loss250)) tailsKnown = false;
      else {
        loss100 += x.loss100;
        loss250 += x.loss250;
      }
    }
    const scores = assetScores.filter((v): v is number => v !== null);
    const overallRisk = scores.length ? Math.round((10 * sum(scores)) / scores.length) / 10 : null;

    // Per hazard: intensities, scores, losses.
    const hazardSummary = (s: number, residual: boolean) =>
      Object.fromEntries(
        hazards.map((h) => {
          const vals = idx.map((i) => R.intensity(i, h, R.chunks[0]!.scenarioYears[s]!)).filter((v) => Number.isFinite(v));
          const sc2 = idx.map((i) => R.score(i, h, R.chunks[0]!.scenarioYears[s]!, residual)).filter((v): v is number => v !== null);
          const amount = vals.length ? Math.round((1000 * sum(vals)) / vals.length) / 1000 : null;
          const score = sc2.length ? Math.round(sum(sc2) / sc2.length) : null;
          return [labelOf(h), [amount, HAZARD_INDICATORS[h].unit, score]];
        }),
      );
    const perHazardLoss = (mm: typeof atYear, residual: boolean) =>
      hazards.map((h, k) => {
        let l = 0;
        for (let n = 0; n < idx.length; n++) {
          const v = (residual ? mm.ealR : mm.eal)[n * H + k]!;
          if (Number.isFinite(v)) l += v;
        }
        return { hazard: labelOf(h), loss: r2(l), percentage: r2(pct(l)) };
      });
    const inventoryLoss = (s: number) =>
      hazards.map((h) => {
        let v = 0;
        for (const i of idx) {
          const { chunk, a } = R.locate(i);
          const p = R.prepared[i]!;
          const c = (a * N_HAZARDS + HAZARD_INDEX[h]) * chunk.scenarioYears.length + s;
          const ratio = (mitigation ? chunk.eadResidual : chunk.ead)[c]!;
          if (Number.isFinite(ratio)) v += ratio * p.inventoryValue * p.ownership;
        }
        return { hazard: labelOf(h), loss: r2(v) };
      });

    const heat = (residual: boolean) => ({
      assets: idx.map((i) => R.assets[i]!.name),
      hazards: hazards.map(labelOf),
      /** [hazard index, asset index, score or null] triples, ECharts heat-map order. */
      data: idx.flatMap((i, ai) => hazards.map((h, hi) => [hi, ai, R.score(i, h, key, residual)])),
    });

    const series = seriesIndices(at, sc);
    const yearChart = (unit: 'dollar' | 'percentage', which: 'cvar' | 'rcvar', s: ScenarioCode) =>
      series.years
        .filter((y) => y >= BASELINE_YEAR)
        .map((y) => {
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
          {
            year_constant: yearChart(u, which, sc),
            year_max: yearChart(u, which, '85'),
            rcp_constant: scenarioChart(u, which, year),
            rcp_max: scenarioChart(u, which, lastYear),
          },
        ]),
      );

    const continentOf = (i: number) => R.prepared[i]!.continent;
    const mapData = idx.map((i, n) => {
      const a = R.assets[i]!;
      const cs = assetScores[n]!;
      return {
        name: a.name,
        latitude: a.latitude,
        longitude: a.longitude,
        continent: continentOf(i),
        climate_score: cs,
        colour: cs === null ? markerColour(0) : markerColour(cs),
        scores: Object.fromEntries(hazards.map((h) => [labelOf(h), R.score(i, h, key, mitigation)])),
      };
    });
    const byContinent: Record<string, typeof mapData> = {};
    for (const m of mapData) (byContinent[m.continent] ??= []).push(m);
    const byCountry = new Map<string, { cvar: number; rcvar: number; assets: number }>();
    for (const i of idx) {
      const c = R.assets[i]!.country_code ?? 'Unknown';
      const v = byCountry.get(c) ?? { cvar: 0, rcvar: 0, assets: 0 };
      const x = perAsset.get(i)!;
      v.cvar += Number.isFinite(x.cvar) ? x.cvar : 0;
      v.rcvar += Number.isFinite(x.rcvar) ? x.rcvar : 0;
      v.assets += 1;
      byCountry.set(c, v);
    }

    const assetTable = idx.map((i, n) => {
      const a = R.assets[i]!;
      const x = perAsset.get(i)!;
      return {
        id: a.id,
        name: a.name,
        type: a.property_type,
        revenue: a.revenue,
        construction_cost: a.construction_cost,
        area: a.area,
        gross_area: a.area !== null && a.stories !== null ? a.area * Math.max(1, a.stories) : a.area,
        ownership: a.ownership,
        floors: a.stories,
        valuation: a.valuation,
        building_age: a.building_age,
        basement: a.basement,
        plinth_height: a.plinth_height,
        flood_protection: a.flood_protection,
        construction: a.construction,
        mitigation_risk: a.mitigation_risk ?? 0,
        content_value: a.content_value,
        yearly_inventory_value: a.yearly_inventory_value,
        latitude: a.latitude,
        longitude: a.longitude,
        country_code: a.country_code,
        climatic_score: assetScores[n]!,
        /** Residual CVaR as % of the asset's value, and in USD. */
        percentage: r2(x.rcvarPercent),
        overall_loss: r2(x.rcvar),
        cvar: r2(x.cvar),
        max_exposure: r2(x.maxExposure),
        loss_100_year: r2(x.loss100),
        loss_250_year: r2(x.loss250),
      };
    });

    const sectionOrNull = <T>(s: TierSection, v: () => T): T | null => (allowed(s) ? v() : null);
    const measures = Object.fromEntries(
      hazards.map((h) => [
        labelOf(h),
        [1, 2, 3].map((lvl) => ({ level: lvl, label: ['Low', 'Medium', 'High'][lvl - 1], measure: defaultMeasure(h, lvl as 1 | 2 | 3) })),
      ]),
    );
    const lossYears = series.years;
    const lossBars = () => ({
      years: lossYears,
      series: hazards.map((h) => {
        const ser = portfolioCvarSeries(selected.chunks, selected.prepared, [h], at, sc, opt);
        return { hazard: labelOf(h), values: [...(mitigation ? ser.lossResidual : ser.loss)].map((v) => r2(v)) };
      }),
    });

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
        hazards: project.portfolio_variables as string[],
        // own hazard layers (issue 23 item 3) came after this reference; the compared portfolios' companies have none
        own_data: null,
        // published flood maps (issue 34 item 2) came after it too; none is registered in the compared installations
        published_data: null,
      },
      filters: {
        analysis_type: at,
        scenario: sc,
        scenario_label: SCENARIO_LABELS[at][sc],
        year,
        variable: body.variable,
        percentage_type: body.percentage_type,
        mitigation,
        with_content: body.with_content,
        adjusted_gdp: body.adjusted_gdp,
        property_type: body.property_type,
        count: body.count,
        currency: body.currency,
      },
      asset_count: idx.length,
      hazard_count: hazards.length,
      property_types: [...new Set(R.assets.map((a) => a.property_type ?? 'NA'))].sort(),
      overall: {
        overall_risk: overallRisk,
        label: overallRisk === null ? null : climateScoreLevel(overallRisk),
        Max_exposure: allowed('portfolio_losses') ? r2(maxExposure) : null,
      },
      climate_risk_card_data: sectionOrNull('portfolio_losses', () => ({
        climate_value_at_risk: r2(cvar.cvar),
        climate_value_at_risk_percentage: r2(pct(cvar.cvar)),
        residual_climate_value_at_risk: r2(cvar.rcvar),
        residual_climate_value_at_risk_percentage: r2(pct(cvar.rcvar)),
        avoided_loss: r2(Math.max(0, cvar.cvar - cvar.rcvar)),
        max_exposure: r2(maxExposure),
        max_exposure_percentage: r2(pct(maxExposure)),
        total_asset_value: r2(totalValue),
        assets_valued_at_construction_cost: idx.filter((i) => !((R.assets[i]!.valuation ?? 0) > 0) && (R.assets[i]!.construction_cost ?? 0) > 0).length,
        expected_annual_loss: r2(eal),
        technical_insurance_premium: r2(premium),
        loss_100_year: tailsKnown ? r2(loss100) : null,
        loss_250_year: tailsKnown ? r2(loss250) : null,
      })),
      overall_bar_chart: sectionOrNull('portfolio_losses', () =>
        hazards.map((h, k) => {
          let c = 0,
            rc = 0;
          for (let n = 0; n < idx.length; n++) {
            const x = hazardCvar[n * H + k]!;
            const y = hazardRcvar[n * H + k]!;
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
      heatmap: sectionOrNull('climate_heatmap', () => heat(true)),
      heatmap_without_adaptation: sectionOrNull('climate_heatmap', () => heat(false)),
      heatmap_average: sectionOrNull('climate_heatmap', () =>
        Object.fromEntries(
          hazards.map((h) => {
            const v = idx.map((i) => R.score(i, h, key, mitigation)).filter((x): x is number => x !== null);
            return [labelOf(h), v.length ? Math.round(sum(v) / v.length) : null];
          }),
        ),
      ),
      loss_bars_data: sectionOrNull('rcp_year_loss_bars', lossBars),
      loss_bars_data_historic: sectionOrNull('rcp_year_loss_bars', () => perHazardLoss(at2020, mitigation)),
      portfolio_exposure_percentage_loss: sectionOrNull('portfolio_losses', () => perHazardLoss(atYear, mitigation)),
      portfolio_exposure_percentage_loss_historic: sectionOrNull('portfolio_losses', () => perHazardLoss(at2020, mitigation)),
      inventory_loss_data: sectionOrNull('portfolio_losses', () => inventoryLoss(syIdx)),
      inventory_loss_data_historic: sectionOrNull('portfolio_losses', () => inventoryLoss(baseIdx)),
      metigation_measures: measures,
      typhoon_map_data: sectionOrNull('asset_level_risk_map', () =>
        idx.map((i) => ({
          name: R.assets[i]!.name,
          latitude: R.assets[i]!.latitude,
          longitude: R.assets[i]!.longitude,
          wind_ms: r2(R.intensity(i, 'typhoon', key)),
          score: R.score(i, 'typhoon', key, mitigation),
        })),
      ),
      // Gated with climate variable intensity since the audit of issue 7 (hazard scores leaked to tiers without it);
      // the figures are unchanged.
      combined_data: sectionOrNull('climate_variable_intensity', () =>
        hazards.map((h) => {
          const s0 = idx.map((i) => R.score(i, h, baseKey, mitigation)).filter((x): x is number => x !== null);
          const s1 = idx.map((i) => R.score(i, h, key, mitigation)).filter((x): x is number => x !== null);
          const avg = (v: number[]) => (v.length ? Math.round(sum(v) / v.length) : null);
          return {
            hazard: labelOf(h),
            score_2020: avg(s0),
            score: avg(s1),
            band_2020: avg(s0) === null ? 'No data' : severityBand(avg(s0)!),
            band: avg(s1) === null ? 'No data' : severityBand(avg(s1)!),
          };
        }),
      ),
      year_chart_data: sectionOrNull('rcp_year_loss_bars', () => ({
        percentage: yearChart('percentage', mitigation ? 'rcvar' : 'cvar', sc),
        dollar: yearChart('dollar', mitigation ? 'rcvar' : 'cvar', sc),
      })),
      bar_chart_data: sectionOrNull('portfolio_losses', () =>
        [...idx]
          .sort((x, y) => (perAsset.get(y)!.rcvar || 0) - (perAsset.get(x)!.rcvar || 0))
          .slice(0, 10)
          .map((i) => ({ name: R.assets[i]!.name, cvar: r2(perAsset.get(i)!.cvar), rcvar: r2(perAsset.get(i)!.rcvar) })),
      ),
      cone_chart: sectionOrNull('rcp_year_loss_bars', () =>
        series.years.map((y) => ({
          year: y,
          low: r2(portfolioCvar('26', y).cvar),
          mid: r2(portfolioCvar('45', y).cvar),
          high: r2(portfolioCvar('85', y).cvar),
        })),
      ),
      country_wise_loss_data: sectionOrNull('portfolio_losses', () =>
        [...byCountry.entries()].map(([country_code, v]) => ({ country_code, cvar: r2(v.cvar), rcvar: r2(v.rcvar), assets: v.assets })),
      ),
      hazard_map_continents: sectionOrNull('asset_level_risk_map', () => Object.keys(byContinent).sort()),
      hazard_map_data: sectionOrNull('asset_level_risk_map', () => mapData),
      hazard_map_data_with_continent: sectionOrNull('asset_level_risk_map', () => byContinent),
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
      single_asset: allowed('asset_table') && idx.length === 1 ? [{ ...assetTable[0]!, hazards: mapData[0]!.scores }] : [],
      asset_table: sectionOrNull('asset_table', () => assetTable),
      tier_permissions: tier.tier_permissions,
      data_edit_permissions: Object.fromEntries(DATA_EDIT_PERMISSIONS.map((k) => [k, edits[k] !== false])),
    };
  }
}
