/**
 * The installation's published flood datasets (issue 34 item 2): directories of Aqueduct Floods or JRC maps registered
 * by an operator, read lazily by window (tiff-window.ts), applied to every company's analyses where they cover an
 * asset (tier 'published dataset'; a company's own layer still comes first).
 *
 * Scenario and year: a request is mapped to the nearest registered map set, per hazard (docs/methodology.md,
 * "Published flood maps"):
 *  - the baseline and any year up to 2020 read the historical (present-climate) maps when registered;
 *  - later years read the scenario's maps (SSP5-8.5/RCP8.5 → rcp8p5; SSP2-4.5/RCP4.5 and SSP1-2.6/RCP2.6 → rcp4p5,
 *    Aqueduct having no RCP2.6), else the other RCP's, else the historical maps; within a scenario, the nearest year
 *    (ties: the later);
 *  - Aqueduct coastal variants: with subsidence before without, the 50th percentile of sea-level rise before the 95th
 *    (`_0`) before the 5th;
 *  - several climate models for one scenario, year and return period (Aqueduct riverine): their mean at the point.
 */
import { basename } from 'node:path';
import type { HazardKey, ScenarioCode } from '@crp/contracts';
import type { ByoEntry, ByoHit } from '../byo.js';
import type { FloodFileKey, PublishedHazard, PublishedScenario } from './flood-names.js';
import { BlockCache, TiffWindowReader, type TiffHeader } from './tiff-window.js';

/** One registered file: where it is (a path every server and worker can read), what its name says, its grid. */
export interface PublishedFile {
  path: string;
  key: FloodFileKey;
  header: TiffHeader & { offsets: number[]; counts: number[] };
}

export interface PublishedRegistration {
  id: number;
  name: string;
  directory: string;
  files: PublishedFile[];
  /** Registration time (ms): an analysis older than this did not use it. */
  registeredAt: number;
}

interface Target {
  scenario: PublishedScenario;
  year: number | null;
  subsidence: boolean | null;
  percentile: number | null;
  /** Readers by return period. */
  byRp: Map<number, TiffWindowReader[]>;
  label: string;
}

const SCEN_LABEL: Record<PublishedScenario, string> = { historical: 'historical', rcp4p5: 'RCP4.5', rcp8p5: 'RCP8.5' };

/** Scenario preference for a request: its own, then the other RCP, then historical. */
function scenarioOrder(scenario: ScenarioCode | null, year: number): PublishedScenario[] {
  if (scenario === null || year <= 2020) return ['historical', 'rcp4p5', 'rcp8p5'];
  return scenario === '85' ? ['rcp8p5', 'rcp4p5', 'historical'] : ['rcp4p5', 'rcp8p5', 'historical'];
}

/** A process-wide block cache: PUBLISHED_CACHE_MB (default 64) MiB of decoded tiles and strips. */
let sharedCache: BlockCache | null = null;
export function publishedBlockCache(): BlockCache {
  sharedCache ??= new BlockCache(Math.max(1, Number(process.env.PUBLISHED_CACHE_MB) || 64) * 1_048_576);
  return sharedCache;
}

class OneDataset {
  private readonly readers: { f: PublishedFile; r: TiffWindowReader }[];
  private readonly targets = new Map<string, Target | null>();
  readonly hazards: ReadonlySet<PublishedHazard>;
  constructor(
    readonly reg: PublishedRegistration,
    cache: BlockCache,
  ) {
    this.readers = reg.files.map((f) => ({ f, r: new TiffWindowReader(f.path, f.header, cache) }));
    this.hazards = new Set(reg.files.map((f) => f.key.hazard));
  }

  /** The map set a hazard reads at a scenario (null: the baseline) and year; null when the dataset has none. */
  target(hazard: PublishedHazard, scenario: ScenarioCode | null, year: number): Target | null {
    const k = `${hazard}|${scenario}|${year}`;
    if (this.targets.has(k)) return this.targets.get(k)!;
    const files = this.readers.filter((x) => x.f.key.hazard === hazard);
    let t: Target | null = null;
    for (const sc of scenarioOrder(scenario, year)) {
      const inSc = files.filter((x) => x.f.key.scenario === sc);
      if (inSc.length === 0) continue;
      const years = [...new Set(inSc.map((x) => x.f.key.year))];
      const y = years.reduce((best, cur) => {
        if (best === null || cur === null) return cur ?? best;
        const d = Math.abs(cur - year) - Math.abs(best - year);
        return d < 0 || (d === 0 && cur > best) ? cur : best;
      }, years[0]!);
      let set = inSc.filter((x) => x.f.key.year === y);
      const sub = set.some((x) => x.f.key.subsidence === true) ? true : set.some((x) => x.f.key.subsidence === false) ? false : null;
      set = set.filter((x) => x.f.key.subsidence === sub);
      const perc = [50, 95, 5].find((p) => set.some((x) => x.f.key.slrPercentile === p)) ?? null;
      set = set.filter((x) => x.f.key.slrPercentile === perc);
      const byRp = new Map<number, TiffWindowReader[]>();
      for (const x of set) (byRp.get(x.f.key.returnPeriodYears) ?? byRp.set(x.f.key.returnPeriodYears, []).get(x.f.key.returnPeriodYears)!).push(x.r);
      const models = new Set(set.map((x) => x.f.key.model).filter((m) => m));
      const parts = [
        hazard === 'river_flood' ? 'river' : 'coast',
        SCEN_LABEL[sc],
        y === null ? null : String(y),
        sub === null ? null : sub ? 'with subsidence' : 'no subsidence',
        perc === null ? null : `SLR p${perc}`,
        models.size > 1 ? `mean of ${models.size} models` : models.size === 1 ? [...models][0]! : null,
      ].filter(Boolean);
      t = { scenario: sc, year: y, subsidence: sub, percentile: perc, byRp, label: `${this.reg.name} (${parts.join(', ')})` };
      break;
    }
    this.targets.set(k, t);
    return t;
  }

  /** Values at the point per return period of the hazard's target set; empty when no file covers the point. */
  hits(hazard: PublishedHazard, lat: number, lng: number, scenario: ScenarioCode | null, year: number): ByoHit[] {
    const t = this.target(hazard, scenario, year);
    if (!t) return [];
    const out: ByoHit[] = [];
    for (const [rp, readers] of t.byRp) {
      let sum = 0,
        n = 0,
        resKm = 0;
      for (const r of readers) {
        if (!r.covers(lat, lng)) continue;
        const v = r.valueAt(lat, lng);
        if (v !== v) continue;
        sum += v;
        n++;
        resKm = r.h.resY * 111.32;
      }
      if (n === 0) continue;
      const entry: ByoEntry = {
        id: `published-${this.reg.id}-${hazard}-${rp}`,
        hazard: hazard as HazardKey,
        returnPeriodYears: rp,
        label: t.label,
        publisher: this.reg.files[0]?.key.source === 'jrc' ? 'European Commission JRC' : 'World Resources Institute',
      };
      out.push({ entry, value: Math.max(0, sum / n), resolutionKm: Math.round(resKm * 100) / 100 });
    }
    return out;
  }
}

/**
 * Every registered dataset, newest first: for each hazard the first dataset with a value at the point gives the curve.
 * The same `lookup` shape as a ByoRegistry, so the own-layer overlay applies it (with its own tier).
 */
export class PublishedDatasets {
  private readonly sets: OneDataset[];
  constructor(
    regs: readonly PublishedRegistration[],
    readonly cache: BlockCache = publishedBlockCache(),
    sets?: OneDataset[],
  ) {
    this.sets = sets ?? [...regs].sort((a, b) => b.registeredAt - a.registeredAt || b.id - a.id).map((r) => new OneDataset(r, cache));
  }

  get size(): number {
    return this.sets.length;
  }

  registrations(): PublishedRegistration[] {
    return this.sets.map((s) => s.reg);
  }

  /** Only the datasets registered at or before `at` (ms): those an analysis run at `at` used. */
  asOf(at: number): PublishedDatasets {
    // the same readers (and their read-ahead values), fewer datasets
    return new PublishedDatasets(
      [],
      this.cache,
      this.sets.filter((s) => s.reg.registeredAt <= at),
    );
  }

  /**
   * Reads ahead, asynchronously, the pixels `points` need at the scenario-years `sys` (as the sampler will ask them:
   * scenario null for the baseline), one block at a time with a turn of the event loop every few ms, so that the
   * synchronous sampler (the engine's hazard provider, the point answer, the marks) touches no file for them.
   */
  async prefetch(
    points: readonly { latitude?: unknown; longitude?: unknown }[],
    sys: readonly { scenario: ScenarioCode | null; year: number }[],
  ): Promise<{ blocks: number }> {
    const pts = points.map((p) => ({ lat: Number(p.latitude), lng: Number(p.longitude) }));
    const readers = new Set<TiffWindowReader>();
    for (const s of this.sets)
      for (const hz of s.hazards)
        for (const sy of sys) {
          const t = s.target(hz, sy.scenario, sy.year);
          if (t) for (const rs of t.byRp.values()) for (const r of rs) readers.add(r);
        }
    let t0 = performance.now();
    let blocks = 0;
    for (const r of readers) {
      const byBlock = new Map<number, { lat: number; lng: number }[]>();
      for (const p of pts) {
        if (!r.covers(p.lat, p.lng)) continue;
        const i = r.blockOf(p.lat, p.lng);
        if (i >= 0) (byBlock.get(i) ?? byBlock.set(i, []).get(i)!).push(p);
      }
      for (const [i, ps] of byBlock) {
        await r.prefetchBlock(i, ps);
        blocks++;
        if (performance.now() - t0 > 8) {
          await new Promise((res) => setImmediate(res));
          t0 = performance.now();
        }
      }
    }
    return { blocks };
  }

  lookup(lat: number, lng: number, scenario: ScenarioCode | null, year: number): ByoHit[] {
    const out: ByoHit[] = [];
    for (const hazard of ['river_flood', 'storm_surge'] as const) {
      for (const s of this.sets) {
        if (!s.hazards.has(hazard)) continue;
        const h = s.hits(hazard, lat, lng, scenario, year);
        if (h.length > 0) {
          out.push(...h);
          break;
        }
      }
    }
    return out;
  }

  /** The dataset label giving a hazard's value at a point, or null. */
  labelAt(lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number): string | null {
    const hit = this.lookup(lat, lng, scenario, year).find((h) => h.entry.hazard === hazard);
    return hit ? (hit.entry.label ?? null) : null;
  }
}

/** A file's name for messages (never the server path). */
export const fileLabel = (f: PublishedFile) => basename(f.path);
