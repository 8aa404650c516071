import {
  HAZARD_INDICATORS,
  OWN_LAYER_RANGES,
  OWN_LAYER_UNITS,
  OwnLayerUploadFields,
  ownLayerNeedsReturnPeriod,
  safeFileName,
  type HazardKey,
  type OwnLayer,
  type OwnLayerList,
  type ScenarioCode,
} from '@crp/contracts';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { ByoRegistry, rasterFromDecoded, type ByoEntry, type ByoRaster } from '@crp/hazards';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { Lru } from '../../lib/lru.js';
import type { ParseSandbox } from '../../lib/parse-sandbox.js';
import { budgetError, type ReadOwnLayerInput, type StoredLayer } from './own-layer.parse.js';
import { presentOwnLayer } from './own-layer.presenter.js';
import type { OwnLayersRepository } from './own-layers.repository.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import type { UploadedFile } from '../projects/asset-import.js';
import type { JobQueue } from '../../infra/job-queue.js';
import { ANALYSE_PORTFOLIO_JOB } from '../projects/project.service.js';
import { assertCompanyAdmin } from '../access/project-access.policy.js';
import type { PublishedDatasetService } from '../published/published-datasets.service.js';

type UploadFields = ReturnType<typeof OwnLayerUploadFields.parse>;
type LayerKey = Pick<UploadFields, 'hazard' | 'scenario' | 'year' | 'return_period_years'>;

function isUploadedFile(v: unknown): v is UploadedFile {
  return !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).filename === 'string';
}

const MiB = 1_048_576;
/** The reader's task module, run in a parse child (lib/parse-sandbox.ts). */
const READ_TASK = new URL('./own-layer.parse.ts', import.meta.url);
/** zlib's inflate in its thread pool: a company's layers load without blocking other requests. */
const inflateRawAsync = promisify(inflateRaw);
/** A layer that failed to load is tried again after this long (never cached as a failure for good). */
const RETRY_FAILED_MS = 60_000;

interface Loaded {
  signature: string;
  registry: ByoRegistry;
  /** Upload time (ms) of each loaded layer by raster id (`own-<row id>`). */
  uploadedAt: Map<string, number>;
  loadedAt: number;
  failed: number;
}

type Row = NonNullable<Awaited<ReturnType<OwnLayersRepository['pixelsOf']>>>;

/**
 * Which of a project's values came from its company's own layers, for the marks in the dashboard, exports and reports.
 * Only layers uploaded before the analysis count (a newer layer is not in the numbers yet; its upload re-queued the
 * analysis).
 */
export interface OwnDataMarker {
  /** The hazards whose value at the point, scenario (null: the baseline) and year comes from an own layer. */
  hazardsAt(lat: number, lng: number, scenario: ScenarioCode | null, year: number): Set<HazardKey>;
  /** The label of the own layer (or layers, '; '-joined) giving the hazard's value there, or null. */
  layerAt(lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number): string | null;
  /** The layers' labels. */
  labels: string[];
  /** Published flood maps (issue 34 item 2) the analysis read: the map set giving the hazard's value at the point, or null. */
  publishedAt(lat: number, lng: number, hazard: HazardKey, scenario: ScenarioCode | null, year: number): string | null;
  /** The hazards whose value at the point comes from a published map (own data first: those are left out). */
  publishedHazardsAt(lat: number, lng: number, scenario: ScenarioCode | null, year: number): Set<HazardKey>;
  /** The published datasets' names, empty when none was used. */
  publishedLabels: string[];
  /** Reads ahead the published maps' pixels of these points at these (scenario, year) pairs (off the event loop). */
  prefetch(points: readonly { latitude?: unknown; longitude?: unknown }[], sys: readonly { scenario: ScenarioCode; year: number }[]): Promise<void>;
}

/**
 * A company's own hazard layers (issue 23 item 3): upload (checked: CRS, extent, units, nodata, range, size), list,
 * delete; kept in the database; loaded per company for its analyses, never shared with another company.
 */
export class OwnLayerService {
  /** Loaded layers by company, bounded in bytes across companies (OWN_LAYER_CACHE_MB). */
  private readonly cache: Lru<Loaded>;
  /** Loads under way by company: concurrent analyses of one company share one load. */
  private readonly loading = new Map<number, Promise<Loaded>>();

  constructor(
    private readonly db: DB,
    private readonly repo: OwnLayersRepository,
    private readonly users: UsersRepository,
    private readonly jobs: JobQueue,
    private readonly config: Pick<
      Config,
      'OWN_LAYER_MAX_BYTES' | 'OWN_LAYER_MAX_PIXELS' | 'OWN_LAYERS_PER_COMPANY' | 'UPLOAD_LIMIT_BYTES' | 'OWN_LAYER_COMPANY_MB' | 'OWN_LAYER_CACHE_MB'
    >,
    private readonly log: FastifyBaseLogger,
    private readonly parser: ParseSandbox,
    /** The installation's published flood maps, marked with the own layers (own data first). */
    private readonly published?: Pick<PublishedDatasetService, 'current' | 'signature'>,
  ) {
    this.cache = new Lru<Loaded>(Infinity, config.OWN_LAYER_CACHE_MB * MiB);
  }

  private get budgetBytes() {
    return this.config.OWN_LAYER_COMPANY_MB * MiB;
  }

  private get maxBytes() {
    return Math.min(this.config.OWN_LAYER_MAX_BYTES, this.config.UPLOAD_LIMIT_BYTES);
  }

  /** The company's layers (any member may see them: their marks are in every answer). */
  async list(caller: AuthUser): Promise<OwnLayerList> {
    const rows = await this.repo.list(caller.companyId);
    const layers = rows.map(presentOwnLayer);
    return {
      layers,
      limits: {
        max_bytes: this.maxBytes,
        max_pixels: this.config.OWN_LAYER_MAX_PIXELS,
        max_layers: this.config.OWN_LAYERS_PER_COMPANY,
        company_budget_bytes: this.budgetBytes,
        company_used_bytes: layers.reduce((a, l) => a + l.decoded_bytes, 0),
      },
      units: Object.fromEntries(
        Object.entries(OWN_LAYER_UNITS).map(([h, u]) => [
          h,
          [HAZARD_INDICATORS[h as HazardKey].unit, ...Object.keys(u).filter((k) => k !== HAZARD_INDICATORS[h as HazardKey].unit)],
        ]),
      ),
      ranges: Object.fromEntries(Object.entries(OWN_LAYER_RANGES).map(([h, r]) => [h, [r[0], r[1]] as [number, number]])),
    };
  }

  /**
   * Checks and stores an uploaded layer, then re-queues the analyses of the company's portfolios. Bad input answers
   * 400 naming the field (nothing is stored); the same hazard, scenario, year and return period twice answers 409.
   */
  async upload(caller: AuthUser, body: Record<string, unknown>): Promise<{ detail: string; layer: OwnLayer; reanalysed: number }> {
    assertCompanyAdmin(caller, 'Only a company administrator can upload own hazard layers.');
    const { f, file, unit } = this.uploadFields(body);
    const key: LayerKey = { hazard: f.hazard, scenario: f.scenario, year: f.year, return_period_years: f.return_period_years };
    await this.assertRoomFor(caller, key);
    const filename = safeFileName(file.filename || 'layer.tif');
    const raster = await this.readRaster(file, filename, f, unit, await this.repo.decodedBytes(caller.companyId));
    const label = f.label || `${filename} (${describeKey(key)})`;
    const { id, reanalysed } = await this.storeLayer(caller, { f, file, unit, key, filename, label, raster });
    this.cache.delete(String(caller.companyId));
    const row = (await this.repo.list(caller.companyId)).find((r) => r.id === id)!;
    this.log.info(
      { companyId: caller.companyId, layerId: id, hazard: f.hazard, crs: raster.crs, pixels: raster.width * raster.height, reanalysed },
      'own hazard layer uploaded',
    );
    const note = raster.crsNote ? ` ${raster.crsNote}` : '';
    return { detail: `Layer '${label}' added; ${reanalysed} portfolio(s) are being re-analysed with it.${note}`, layer: presentOwnLayer(row), reanalysed };
  }

  /** The upload's form fields and file, checked in the order their 400s name them. */
  private uploadFields(body: Record<string, unknown>): { f: UploadFields; file: UploadedFile; unit: string } {
    const parsed = OwnLayerUploadFields.safeParse(body ?? {});
    if (!parsed.success) {
      const errors = parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? 'body'), message: i.message }));
      throw new AppError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    }
    const f = parsed.data;
    const file = body.file;
    if (!isUploadedFile(file))
      throw new AppError(400, 'file: send the GeoTIFF or NetCDF file as a file part named "file" (multipart/form-data).', [
        { field: 'file', message: 'not a file' },
      ]);
    const needsRp = ownLayerNeedsReturnPeriod(f.hazard);
    if (needsRp && f.return_period_years === null) {
      throw new AppError(400, `return_period_years: ${f.hazard} is read as a return-period curve; give the return period (years) of this layer, e.g. 100.`, [
        { field: 'return_period_years', message: 'required for this hazard' },
      ]);
    }
    if (!needsRp && f.return_period_years !== null) {
      throw new AppError(400, `return_period_years: ${f.hazard} is one value per year, not a return-period curve; leave the return period empty.`, [
        { field: 'return_period_years', message: 'not used for this hazard' },
      ]);
    }
    const unit = f.unit || HAZARD_INDICATORS[f.hazard].unit;
    if (!OWN_LAYER_UNITS[f.hazard][unit]) {
      const msg = `unit "${unit.slice(0, 20)}" is not accepted for ${f.hazard}; use ${Object.keys(OWN_LAYER_UNITS[f.hazard]).join(', ')}.`;
      throw new AppError(400, `unit: ${msg}`, [{ field: 'unit', message: msg }]);
    }
    return { f, file, unit };
  }

  /** 400 when the company already has its most layers; 409 when one of its layers has this key. */
  private async assertRoomFor(caller: AuthUser, key: LayerKey): Promise<void> {
    if ((await this.repo.count(caller.companyId)) >= this.config.OWN_LAYERS_PER_COMPANY) {
      throw new AppError(400, `file: your company has ${this.config.OWN_LAYERS_PER_COMPANY} own layers, the most allowed; delete one first.`, [
        { field: 'file', message: 'too many layers' },
      ]);
    }
    const clash = await this.repo.sameKey(caller.companyId, key);
    if (clash) throw conflict(`Your company already has a layer for ${describeKey(key)} ('${clash.label}'); delete it first to replace it.`, 'hazard');
  }

  /**
   * The GeoTIFF read and checked in a parse child (memory and time limits; issue 32); a refusal is a 400 naming the
   * field and the file, a file past the limits a 413.
   */
  private async readRaster(file: UploadedFile, filename: string, f: UploadFields, unit: string, usedBytes: number): Promise<StoredLayer> {
    const input: ReadOwnLayerInput = {
      entry: {
        id: 'upload',
        hazard: f.hazard,
        scenario: f.scenario,
        year: f.year,
        returnPeriodYears: f.return_period_years,
        unit,
        band: f.band,
        ...(f.variable ? { variable: f.variable } : {}),
      },
      limits: { maxBytes: this.maxBytes, maxPixels: this.config.OWN_LAYER_MAX_PIXELS },
      filename,
      budget: { budgetBytes: this.budgetBytes, usedBytes },
    };
    return this.parser.run<StoredLayer>(READ_TASK, 'readOwnLayer', input, { field: 'file', filename }, { file: file.data });
  }

  /** 413 when the layer, decoded, would take the company past its budget (OWN_LAYER_COMPANY_MB). */
  private assertBudget(filename: string, raster: Pick<StoredLayer, 'width' | 'height'>, usedBytes: number): void {
    const over = budgetError(filename, raster.width, raster.height, { budgetBytes: this.budgetBytes, usedBytes });
    if (over) throw over;
  }

  /** The layer stored and the company's portfolios queued for re-analysis, in one transaction with its audit line. */
  private async storeLayer(
    caller: AuthUser,
    u: { f: UploadFields; file: UploadedFile; unit: string; key: LayerKey; filename: string; label: string; raster: StoredLayer },
  ): Promise<{ id: number; reanalysed: number }> {
    const { f, file, unit, key, filename, label, raster } = u;
    return this.db.transaction().execute(async (tx) => {
      // checked again under the company's lock: two uploads at once cannot both spend the same budget
      await this.repo.lockCompany(caller.companyId, tx);
      this.assertBudget(filename, raster, await this.repo.decodedBytes(caller.companyId, tx));
      let id: number;
      try {
        id = await this.repo.insert(
          {
            company_id: caller.companyId,
            hazard: f.hazard,
            scenario: f.scenario,
            year: f.year,
            return_period_years: f.return_period_years,
            unit,
            label,
            source: f.source ?? '',
            filename,
            bytes: file.data.length,
            sha256: raster.sha256,
            crs: raster.crs,
            width: raster.width,
            height: raster.height,
            ...raster.bounds,
            resolution_km: raster.resolutionKm,
            valid_pixels: raster.validPixels,
            value_min: raster.min,
            value_max: raster.max,
            data: null,
            pixels: raster.pixels,
            x0: raster.x0,
            y0: raster.y0,
            res_x: raster.resX,
            res_y: raster.resY,
            uploaded_by: caller.id,
          },
          tx,
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23505')
          throw conflict(`Your company already has a layer for ${describeKey(key)}; delete it first to replace it.`, 'hazard');
        throw err;
      }
      const reanalysed = await this.reanalyse(caller.companyId, tx);
      await this.users.audit(
        { company_id: caller.companyId, user_id: caller.id, action: 'own_layer.uploaded', detail: { layer_id: id, hazard: f.hazard, label, reanalysed } },
        tx,
      );
      return { id, reanalysed };
    });
  }

  async remove(caller: AuthUser, id: number): Promise<{ detail: string; reanalysed: number }> {
    assertCompanyAdmin(caller, 'Only a company administrator can delete own hazard layers.');
    const out = await this.db.transaction().execute(async (tx) => {
      const gone = await this.repo.delete(caller.companyId, id, tx);
      if (!gone) return null;
      const reanalysed = await this.reanalyse(caller.companyId, tx);
      await this.users.audit(
        {
          company_id: caller.companyId,
          user_id: caller.id,
          action: 'own_layer.deleted',
          detail: { layer_id: id, hazard: gone.hazard, label: gone.label, reanalysed },
        },
        tx,
      );
      return { label: gone.label, reanalysed };
    });
    if (!out) throw notFound(`id: your company has no own layer ${id}.`);
    this.cache.delete(String(caller.companyId));
    return { detail: `Layer '${out.label}' deleted; ${out.reanalysed} portfolio(s) are being re-analysed without it.`, reanalysed: out.reanalysed };
  }

  /** Queues a fresh analysis of each of the company's physical portfolios (a new version supersedes a running one). */
  private async reanalyse(companyId: number, tx: Parameters<OwnLayersRepository['physicalProjects']>[1]): Promise<number> {
    const projects = await this.repo.physicalProjects(companyId, tx);
    for (const p of projects) {
      const version = p.version + 1;
      await this.repo.queueProject(p.id, version, 'Waiting for analysis (own hazard layers changed)', tx);
      await this.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: p.id, version }, tx);
    }
    return projects.length;
  }

  /**
   * The company's own layers, loaded (from the database: decoded pixels, nothing parsed) and cached until they change.
   * A layer that cannot be loaded is skipped with a logged reason, the others still apply, and it is tried again a
   * minute later.
   */
  async registryFor(companyId: number): Promise<{ registry: ByoRegistry; uploadedAt: Map<string, number> }> {
    const sig = await this.repo.signature(companyId);
    const signature = sig.map((s) => s.id).join(',');
    const hit = this.cache.get(String(companyId));
    if (hit && hit.signature === signature && (hit.failed === 0 || Date.now() - hit.loadedAt < RETRY_FAILED_MS)) return hit;
    const under = this.loading.get(companyId);
    if (under) {
      const loaded = await under;
      if (loaded.signature === signature) return loaded;
    }
    const load = this.load(
      companyId,
      signature,
      sig.map((s) => s.id),
    ).finally(() => this.loading.get(companyId) === load && this.loading.delete(companyId));
    this.loading.set(companyId, load);
    return load;
  }

  private async load(companyId: number, signature: string, ids: number[]): Promise<Loaded> {
    const registry = new ByoRegistry();
    const uploadedAt = new Map<string, number>();
    let failed = 0;
    // one layer per query: the event loop turns between them, and a company's layers are never all read twice at once
    for (const id of ids) {
      const row = await this.repo.pixelsOf(companyId, id);
      if (!row) continue;
      try {
        registry.add(await this.rasterOf(row));
        uploadedAt.set(`own-${row.id}`, new Date(row.created_at).getTime());
      } catch (err) {
        failed++;
        this.log.warn(
          { companyId, layerId: row.id, reason: err instanceof Error ? err.message : String(err) },
          'own hazard layer skipped: it could not be loaded',
        );
      }
    }
    const loaded: Loaded = { signature, registry, uploadedAt, loadedAt: Date.now(), failed };
    this.cache.set(String(companyId), loaded, registry.memoryBytes());
    return loaded;
  }

  /** A stored layer as a raster: its decoded pixels, or (a row from before migration 0023) its file decoded once in a parse child and rewritten. */
  private async rasterOf(row: Row): Promise<ByoRaster> {
    const entry: ByoEntry = {
      id: `own-${row.id}`,
      hazard: row.hazard as HazardKey,
      scenario: row.scenario,
      year: row.year,
      returnPeriodYears: row.return_period_years,
      unit: row.unit,
      label: row.label,
      publisher: row.source || 'your company',
      license: "your company's own data",
    };
    if (row.pixels && row.x0 !== null && row.y0 !== null && row.res_x !== null && row.res_y !== null) {
      const size = row.width * row.height * 4;
      // our own deflate of a size the row states: inflated off the main thread, never past that size
      const bytes = await inflateRawAsync(row.pixels, { maxOutputLength: size });
      if (bytes.byteLength !== size) throw new Error(`${bytes.byteLength} bytes stored for ${row.width} × ${row.height} pixels`);
      const data = new Float32Array(row.width * row.height);
      new Uint8Array(data.buffer).set(bytes); // a copy: zlib's buffer may not be 4-byte aligned
      return rasterFromDecoded({
        entry,
        x0: row.x0,
        y0: row.y0,
        resX: row.res_x,
        resY: row.res_y,
        width: row.width,
        height: row.height,
        data,
        nodata: null,
        crs: row.crs,
        bounds: { west: row.west, south: row.south, east: row.east, north: row.north },
        resolutionKm: row.resolution_km,
        sha256: row.sha256,
        validPixels: row.valid_pixels,
        min: row.value_min,
        max: row.value_max,
      });
    }
    if (!row.data) throw new Error('the layer has neither pixels nor a file');
    const input: ReadOwnLayerInput = { entry, limits: { maxBytes: Number.MAX_SAFE_INTEGER, maxPixels: Number.MAX_SAFE_INTEGER }, filename: row.filename };
    const d = await this.parser.run<StoredLayer>(READ_TASK, 'readOwnLayer', input, { field: 'file', filename: row.filename }, { file: row.data });
    await this.repo.storeDecoded(row.id, { pixels: d.pixels, x0: d.x0, y0: d.y0, res_x: d.resX, res_y: d.resY });
    this.log.info({ companyId: row.company_id, layerId: row.id }, 'own hazard layer decoded and stored decoded (migration 0023)');
    const pixels = Buffer.from(d.pixels.buffer, d.pixels.byteOffset, d.pixels.byteLength);
    return this.rasterOf({ ...row, pixels, x0: d.x0, y0: d.y0, res_x: d.resX, res_y: d.resY, data: null });
  }

  /** The own layers an analysis of the project applies: its company's (null when it has none). */
  async registryForProject(projectId: number): Promise<ByoRegistry | null> {
    const companyId = await this.repo.companyOfProject(projectId);
    if (companyId === undefined) return null;
    const { registry } = await this.registryFor(companyId);
    return registry.size > 0 ? registry : null;
  }

  /**
   * Marks for a project's stored analysis; null when neither one of its company's layers nor a published dataset
   * predates the analysis.
   */
  async markerFor(project: { company_id: number; analysed_at: Date | string | null }): Promise<OwnDataMarker | null> {
    if (!project.analysed_at) return null;
    const at = new Date(project.analysed_at).getTime();
    const { registry, uploadedAt } = await this.registryFor(project.company_id);
    const used = new ByoRegistry();
    for (const r of registry.entries()) if ((uploadedAt.get(r.entry.id) ?? Infinity) <= at) used.add(r);
    const all = (await this.published?.current()) ?? null;
    const pub = all ? all.asOf(at) : null;
    if (used.size === 0 && (!pub || pub.size === 0)) return null;
    // the baseline is sampled as SSP2-4.5 (analysis/hazard-provider.ts)
    const ownHits = (lat: number, lng: number, scenario: ScenarioCode | null, year: number) => (used.size ? used.lookup(lat, lng, scenario ?? '45', year) : []);
    const ownHazards = (lat: number, lng: number, scenario: ScenarioCode | null, year: number) =>
      new Set(ownHits(lat, lng, scenario, year).map((h) => h.entry.hazard));
    return {
      labels: used.entries().map((r) => r.entry.label ?? r.entry.id),
      hazardsAt: ownHazards,
      layerAt: (lat, lng, hazard, scenario, year) => {
        const hits = ownHits(lat, lng, scenario, year).filter((h) => h.entry.hazard === hazard);
        return hits.length ? [...new Set(hits.map((h) => h.entry.label ?? h.entry.id))].join('; ') : null;
      },
      publishedLabels: pub ? pub.registrations().map((r) => r.name) : [],
      prefetch: async (points, sys) => {
        if (pub && pub.size > 0) await pub.prefetch(points, sys);
      },
      publishedAt: (lat, lng, hazard, scenario, year) =>
        pub && pub.size && !ownHazards(lat, lng, scenario, year).has(hazard) ? pub.labelAt(lat, lng, hazard, scenario ?? '45', year) : null,
      publishedHazardsAt: (lat, lng, scenario, year) => {
        if (!pub || pub.size === 0) return new Set();
        const own = ownHazards(lat, lng, scenario, year);
        return new Set(
          pub
            .lookup(lat, lng, scenario ?? '45', year)
            .map((h) => h.entry.hazard)
            .filter((h) => !own.has(h)),
        );
      },
    };
  }

  /** Cache key part: changes when the company's layers change. */
  async signatureOf(companyId: number): Promise<string> {
    const own = (await this.repo.signature(companyId)).map((s) => s.id).join(',');
    return this.published ? `${own}|${await this.published.signature()}` : own;
  }
}

function describeKey(k: { hazard: string; scenario: string | null; year: number | null; return_period_years: number | null }): string {
  return `${k.hazard}, scenario ${k.scenario ?? 'any'}, year ${k.year ?? 'any'}${k.return_period_years ? `, ${k.return_period_years}-year return period` : ''}`;
}
