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
import { ByoRegistry, OwnLayerError, readGeoTiffLayer, type ByoRaster } from '@crp/hazards';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { presentOwnLayer } from './own-layer.presenter.js';
import type { OwnLayersRepository } from './own-layers.repository.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import type { UploadedFile } from '../projects/asset-import.js';
import type { JobQueue } from '../../infra/job-queue.js';
import { ANALYSE_PORTFOLIO_JOB } from '../projects/project.service.js';
import { assertCompanyAdmin } from '../access/project-access.policy.js';

type UploadFields = ReturnType<typeof OwnLayerUploadFields.parse>;
type LayerKey = Pick<UploadFields, 'hazard' | 'scenario' | 'year' | 'return_period_years'>;

function isUploadedFile(v: unknown): v is UploadedFile {
  return !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data) && typeof (v as UploadedFile).filename === 'string';
}

/** Companies whose loaded layers are kept in memory at once (each is at most OWN_LAYERS_PER_COMPANY rasters). */
const CACHED_COMPANIES = 32;
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
}

/**
 * A company's own hazard layers (issue 23 item 3): upload (checked: CRS, extent, units, nodata, range, size), list,
 * delete; kept in the database; loaded per company for its analyses, never shared with another company.
 */
export class OwnLayerService {
  private cache = new Map<number, Loaded>();

  constructor(
    private readonly db: DB,
    private readonly repo: OwnLayersRepository,
    private readonly users: UsersRepository,
    private readonly jobs: JobQueue,
    private readonly config: Pick<Config, 'OWN_LAYER_MAX_BYTES' | 'OWN_LAYER_MAX_PIXELS' | 'OWN_LAYERS_PER_COMPANY' | 'UPLOAD_LIMIT_BYTES'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get maxBytes() {
    return Math.min(this.config.OWN_LAYER_MAX_BYTES, this.config.UPLOAD_LIMIT_BYTES);
  }

  /** The company's layers (any member may see them: their marks are in every answer). */
  async list(caller: AuthUser): Promise<OwnLayerList> {
    const rows = await this.repo.list(caller.companyId);
    return {
      layers: rows.map(presentOwnLayer),
      limits: { max_bytes: this.maxBytes, max_pixels: this.config.OWN_LAYER_MAX_PIXELS, max_layers: this.config.OWN_LAYERS_PER_COMPANY },
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
    const raster = await this.readRaster(file, f, unit);
    const filename = safeFileName(file.filename || 'layer.tif');
    const label = f.label || `${filename} (${describeKey(key)})`;
    const { id, reanalysed } = await this.storeLayer(caller, { f, file, unit, key, filename, label, raster });
    this.cache.delete(caller.companyId);
    const row = (await this.repo.list(caller.companyId)).find((r) => r.id === id)!;
    this.log.info(
      { companyId: caller.companyId, layerId: id, hazard: f.hazard, crs: raster.crs, pixels: raster.width * raster.height, reanalysed },
      'own hazard layer uploaded',
    );
    return { detail: `Layer '${label}' added; ${reanalysed} portfolio(s) are being re-analysed with it.`, layer: presentOwnLayer(row), reanalysed };
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
      throw new AppError(400, 'file: send the GeoTIFF as a file part named "file" (multipart/form-data).', [{ field: 'file', message: 'not a file' }]);
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

  /** The GeoTIFF read and checked; a refusal is a 400 naming the field and the file. */
  private async readRaster(file: UploadedFile, f: UploadFields, unit: string): Promise<ByoRaster> {
    try {
      return await readGeoTiffLayer(
        file.data,
        { id: 'upload', hazard: f.hazard, scenario: f.scenario, year: f.year, returnPeriodYears: f.return_period_years, unit },
        { maxBytes: this.maxBytes, maxPixels: this.config.OWN_LAYER_MAX_PIXELS },
      );
    } catch (err) {
      if (err instanceof OwnLayerError) {
        const name = safeFileName(file.filename || 'upload.tif');
        throw new AppError(400, `${err.field}: '${name}' was refused: ${err.message}`, [{ field: err.field, message: err.message }]);
      }
      throw err;
    }
  }

  /** The layer stored and the company's portfolios queued for re-analysis, in one transaction with its audit line. */
  private async storeLayer(
    caller: AuthUser,
    u: { f: UploadFields; file: UploadedFile; unit: string; key: LayerKey; filename: string; label: string; raster: ByoRaster },
  ): Promise<{ id: number; reanalysed: number }> {
    const { f, file, unit, key, filename, label, raster } = u;
    return this.db.transaction().execute(async (tx) => {
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
            data: file.data,
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
    this.cache.delete(caller.companyId);
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
   * The company's own layers, loaded (from the database) and cached until they change. A layer that cannot be read
   * any more is skipped with a logged reason, the others still apply, and it is tried again a minute later.
   */
  async registryFor(companyId: number): Promise<{ registry: ByoRegistry; uploadedAt: Map<string, number> }> {
    const sig = await this.repo.signature(companyId);
    const signature = sig.map((s) => s.id).join(',');
    const hit = this.cache.get(companyId);
    if (hit && hit.signature === signature && (hit.failed === 0 || Date.now() - hit.loadedAt < RETRY_FAILED_MS)) return hit;
    const registry = new ByoRegistry();
    const uploadedAt = new Map<string, number>();
    let failed = 0;
    for (const row of await this.repo.withData(
      companyId,
      sig.map((s) => s.id),
    )) {
      const entry = {
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
      try {
        registry.add(await readGeoTiffLayer(row.data, entry, { maxBytes: Number.MAX_SAFE_INTEGER, maxPixels: Number.MAX_SAFE_INTEGER }));
        uploadedAt.set(entry.id, new Date(row.created_at).getTime());
      } catch (err) {
        failed++;
        this.log.warn(
          { companyId, layerId: row.id, reason: err instanceof Error ? err.message : String(err) },
          'own hazard layer skipped: it could not be loaded',
        );
      }
    }
    const loaded: Loaded = { signature, registry, uploadedAt, loadedAt: Date.now(), failed };
    this.cache.delete(companyId);
    this.cache.set(companyId, loaded);
    while (this.cache.size > CACHED_COMPANIES) this.cache.delete(this.cache.keys().next().value!);
    return loaded;
  }

  /** The own layers an analysis of the project applies: its company's (null when it has none). */
  async registryForProject(projectId: number): Promise<ByoRegistry | null> {
    const companyId = await this.repo.companyOfProject(projectId);
    if (companyId === undefined) return null;
    const { registry } = await this.registryFor(companyId);
    return registry.size > 0 ? registry : null;
  }

  /** Marks for a project's stored analysis; null when none of its company's layers predates the analysis. */
  async markerFor(project: { company_id: number; analysed_at: Date | string | null }): Promise<OwnDataMarker | null> {
    if (!project.analysed_at) return null;
    const at = new Date(project.analysed_at).getTime();
    const { registry, uploadedAt } = await this.registryFor(project.company_id);
    const used = new ByoRegistry();
    for (const r of registry.entries()) if ((uploadedAt.get(r.entry.id) ?? Infinity) <= at) used.add(r);
    if (used.size === 0) return null;
    return {
      labels: used.entries().map((r) => r.entry.label ?? r.entry.id),
      // the baseline is sampled as SSP2-4.5 (analysis/hazard-provider.ts)
      hazardsAt: (lat, lng, scenario, year) => new Set(used.lookup(lat, lng, scenario ?? '45', year).map((h) => h.entry.hazard)),
      layerAt: (lat, lng, hazard, scenario, year) => {
        const hits = used.lookup(lat, lng, scenario ?? '45', year).filter((h) => h.entry.hazard === hazard);
        return hits.length ? [...new Set(hits.map((h) => h.entry.label ?? h.entry.id))].join('; ') : null;
      },
    };
  }

  /** Cache key part: changes when the company's layers change. */
  async signatureOf(companyId: number): Promise<string> {
    return (await this.repo.signature(companyId)).map((s) => s.id).join(',');
  }
}

function describeKey(k: { hazard: string; scenario: string | null; year: number | null; return_period_years: number | null }): string {
  return `${k.hazard}, scenario ${k.scenario ?? 'any'}, year ${k.year ?? 'any'}${k.return_period_years ? `, ${k.return_period_years}-year return period` : ''}`;
}
