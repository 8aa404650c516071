/**
 * The portfolio tail of cyclone wind from events (issue 35 item 2): the synthetic event set regenerated at the
 * project's asset locations (@crp/hazards eventWindsAt, cached per analysis), each event's loss at each asset with the
 * engine's own wind vulnerability (@crp/engine windEventLoss) after the scenario-year's Knutson/Jewson intensity factor
 * of the asset's basin (as the per-asset analysis scales typhoon_rp), the event loss table and its OEP/AEP curves.
 * The event winds are computed in a worker thread (portfolio-tail-winds.ts), one computation per project and version
 * shared by concurrent requests; the loss loop yields to the event loop every LOSS_SLICE_MS.
 */
import {
  BASELINE_YEAR,
  OTHER_HAZARDS_TAIL_NOTE,
  YEARS,
  type AnalysisType,
  type PortfolioTailQuery,
  type PortfolioTailResponse,
  type ScenarioCode,
} from '@crp/contracts';
import { cellMoney, portfolioTail, windEventLoss, type EventLossRow } from '@crp/engine';
import { defaultHazardLayers, GRID_025, gridCellIndex, type HazardLayers } from '@crp/hazards';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { badRequest } from '../../lib/errors.js';
import { assertCan, type ProjectAccessPolicy } from '../access/project-access.policy.js';
import { MONEY_WITHHELD, type TierGate } from '../accounts/tier.service.js';
import { loadProjectResults, type DecodeLimit, type ProjectResults } from '../analysis/results-reader.js';
import { syKeyOf } from '../analysis/result-rows.js';
import { eventWindsInWorker, type FlatWinds } from './portfolio-tail-winds.js';

const EVENT_SET_TEXT =
  'Synthetic tropical cyclones: every staged best track perturbed into ≥ 10,000 years per basin (CLIMADA tc_tracks_synth after Kleppek et al. 2008, seeded; the set the typhoon_rp layer is built from), Holland wind field at each asset';

/** The loss loop gives the event loop a turn after this many milliseconds of work. */
const LOSS_SLICE_MS = 20;

/** One project's event winds at its assets (scenario-independent), kept per analysis version. */
interface EventCache {
  version: number;
  winds: FlatWinds;
  /** Point index of each asset (assets at the same place share a point). */
  pointOf: Int32Array;
  /** Assets at each point. */
  assetsAt: number[][];
}

export class PortfolioTailService {
  private readonly cache = new Map<number, EventCache>();
  /** The computation under way per project (its version): concurrent requests wait for the same one. */
  private readonly running = new Map<number, { version: number; assets: number; done: Promise<EventCache> }>();
  constructor(
    private readonly db: DB,
    private readonly policy: ProjectAccessPolicy,
    private readonly decodeLimit: DecodeLimit,
    private readonly tiers?: Pick<TierGate, 'moneyAllowed'>,
    /** Projects whose event winds are kept (each a few MB at most). */
    private readonly cacheProjects = 8,
  ) {}

  private winds(projectId: number, version: number, results: ProjectResults, layers: HazardLayers): Promise<EventCache> {
    const hit = this.cache.get(projectId);
    if (hit && hit.version === version && hit.pointOf.length === results.assets.length) return Promise.resolve(hit);
    const run = this.running.get(projectId);
    if (run && run.version === version && run.assets === results.assets.length) return run.done;
    const done = this.computeWinds(projectId, version, results, layers).finally(() => {
      if (this.running.get(projectId)?.done === done) this.running.delete(projectId);
    });
    this.running.set(projectId, { version, assets: results.assets.length, done });
    return done;
  }

  private async computeWinds(projectId: number, version: number, results: ProjectResults, layers: HazardLayers): Promise<EventCache> {
    const key = new Map<string, number>();
    const points: { lat: number; lon: number }[] = [];
    const assetsAt: number[][] = [];
    const pointOf = new Int32Array(results.assets.length);
    results.assets.forEach((a, i) => {
      const lat = Number(a.latitude),
        lon = Number(a.longitude);
      const k = `${lat.toFixed(4)},${lon.toFixed(4)}`;
      let p = key.get(k);
      if (p === undefined) {
        p = points.length;
        key.set(k, p);
        points.push({ lat, lon });
        assetsAt.push([]);
      }
      pointOf[i] = p;
      assetsAt[p]!.push(i);
    });
    const winds = await eventWindsInWorker(layers.dir, points);
    const entry = { version, winds, pointOf, assetsAt };
    this.cache.delete(projectId);
    this.cache.set(projectId, entry);
    while (this.cache.size > this.cacheProjects) this.cache.delete(this.cache.keys().next().value!);
    return entry;
  }

  /** The scenario-year asked, defaulting to the project's default filter; 400 naming the field otherwise. */
  private scenarioYear(q: PortfolioTailQuery, filters: { analysis_type: AnalysisType; scenario: ScenarioCode; year: number }) {
    const at = q.analysis_type ?? filters.analysis_type;
    const scenario = q.scenario ?? (at === filters.analysis_type ? filters.scenario : '45');
    const year = q.year ?? (at === filters.analysis_type ? filters.year : 2050);
    if (year !== BASELINE_YEAR && !YEARS[at].includes(year))
      throw badRequest(`year: ${year} is not a year of the ${at.toUpperCase()} analysis (${[BASELINE_YEAR, ...YEARS[at]].join(', ')}).`, 'year');
    return { at, scenario, year };
  }

  /** The event loss table and the tail figures of a project at a scenario-year. `action` view (figures) or download (table). */
  async tail(
    caller: AuthUser,
    projectId: number,
    q: PortfolioTailQuery,
    action: 'view' | 'download',
  ): Promise<{ response: PortfolioTailResponse; rows: (EventLossRow & { source: string })[]; money: boolean }> {
    const { project, role } = await this.policy.access(caller, projectId);
    if (project.kind !== 'physical') throw badRequest(`project_id: ${projectId} is not a physical-risk project.`, 'project_id');
    assertCan(role, action, project.name);
    const { at, scenario, year } = this.scenarioYear(q, project.default_filters as { analysis_type: AnalysisType; scenario: ScenarioCode; year: number });
    const results = await loadProjectResults(this.db, project.id, this.decodeLimit);
    const version = project.results_version ?? 0;
    const layers = await defaultHazardLayers();
    const ev = await this.winds(project.id, version, results, layers);
    const ctx = layers.resolveScenario({ analysisType: at, scenario: year === BASELINE_YEAR ? '45' : scenario, year });
    const basin = layers.layer('typhoon_basin')!.data as Uint8Array;
    const factor = results.assets.map((a) => ctx.typhoonFactor[basin[gridCellIndex(GRID_025, Number(a.latitude), Number(a.longitude))]!] ?? 1);
    const rows: (EventLossRow & { source: string })[] = [];
    const w = ev.winds;
    let slice = performance.now();
    for (let e = 0; e < w.count; e++) {
      let loss = 0;
      for (let k = w.offsets[e]!; k < w.offsets[e + 1]!; k++)
        for (const i of ev.assetsAt[w.points[k]!]!) loss += windEventLoss(results.prepared[i]!, w.windMs[k]! * factor[i]!);
      if (loss > 0) {
        const src = w.sources[w.source[e]!]!;
        rows.push({ eventId: `${src.key}:${w.storm[e]}:${w.member[e]}`, basin: src.group, source: src.key, year: w.year[e]!, rate: w.rate[e]!, loss });
      }
      if ((e & 1023) === 1023 && performance.now() - slice > LOSS_SLICE_MS) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
    const t = portfolioTail(rows);
    // the assets' own figures (the engine's return-period integral) for comparison
    const syKey = syKeyOf(at, scenario, year);
    let engineEal = 0,
      sum100 = 0,
      sum250 = 0;
    results.assets.forEach((_, i) => {
      const { chunk, a } = results.locate(i);
      const m = cellMoney(results.prepared[i]!, chunk, a, 'typhoon', results.syIndex(syKey));
      if (Number.isFinite(m.eal)) engineEal += m.eal;
      if (Number.isFinite(m.loss100)) sum100 += m.loss100;
      if (Number.isFinite(m.loss250)) sum250 += m.loss250;
    });
    const money = this.tiers ? await this.tiers.moneyAllowed(caller.companyId) : true;
    const $ = (v: number) => (money ? Math.round(v * 100) / 100 : null);
    const at100 = (c: { returnPeriodYears: number; loss: number }[], T: number) => c.find((p) => p.returnPeriodYears === T)?.loss ?? 0;
    const response: PortfolioTailResponse = {
      project_id: project.id,
      analysis_type: at,
      scenario,
      year,
      peril: 'typhoon_wind',
      assets: results.assets.length,
      expected_annual_loss_usd: $(t.meanAnnualLoss),
      engine_expected_annual_loss_usd: $(engineEal),
      occurrence_loss_100_usd: $(at100(t.oep, 100)),
      occurrence_loss_250_usd: $(at100(t.oep, 250)),
      aggregate_loss_100_usd: $(at100(t.aep, 100)),
      aggregate_loss_250_usd: $(at100(t.aep, 250)),
      tvar_99_loss_usd: $(t.tvar99),
      sum_of_asset_loss_100_usd: $(sum100),
      sum_of_asset_loss_250_usd: $(sum250),
      oep: t.oep.map((p) => ({ return_period_years: p.returnPeriodYears, loss_usd: $(p.loss) })),
      aep: t.aep.map((p) => ({ return_period_years: p.returnPeriodYears, loss_usd: $(p.loss) })),
      event_set: {
        description: EVENT_SET_TEXT,
        catalogue_years: ev.winds.basinYears,
        events_with_loss: t.eventsWithLoss,
        events_reaching: ev.winds.count,
        members_generated: ev.winds.stats.membersGenerated,
        seconds: ev.winds.stats.seconds,
      },
      other_hazards: OTHER_HAZARDS_TAIL_NOTE,
      money_withheld: money ? null : MONEY_WITHHELD,
    };
    return { response, rows, money };
  }
}

/** The event loss table as CSV (the loss column empty when money is withheld). */
export function eventLossCsv(rows: readonly (EventLossRow & { source: string })[], money: boolean): string {
  const lines = ['event_id,basin,source,year,rate_per_year,loss_usd'];
  for (const r of [...rows].sort((a, b) => b.loss - a.loss))
    lines.push(`${r.eventId},${r.basin},${r.source},${r.year},${r.rate.toPrecision(6)},${money ? (Math.round(r.loss * 100) / 100).toFixed(2) : ''}`);
  return lines.join('\n') + '\n';
}
