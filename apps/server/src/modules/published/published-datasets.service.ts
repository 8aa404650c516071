/**
 * Published flood datasets (issue 34 item 2): directories of WRI Aqueduct Floods or JRC global flood maps registered
 * installation-wide by an operator (`npm run hazards:register -- DIR`, or the operator page), read lazily by window
 * (@crp/hazards PublishedDatasets) and applied to every company's analyses where they cover an asset, with the tier
 * 'published dataset' (a company's own layer still comes first).
 *
 * Only the registration is stored (migration 0026): directory, files, headers. The path is read by every process that
 * analyses (server, job workers): register a path they all see (a shared mount; README, "Published flood maps").
 */
import type { PublishedDataset } from '@crp/contracts';
import { PublishedDatasets, scanPublishedDirectory, type PublishedFile, type PublishedRegistration } from '@crp/hazards';
import { basename } from 'node:path';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, notFound } from '../../lib/errors.js';
import { ANALYSE_PORTFOLIO_JOB } from '../projects/project.service.js';
import { PublishedDatasetsRepository } from './published-datasets.repository.js';

/** Registrations are re-read from the database at most this often per process. */
const RELOAD_MS = 5_000;

/** A registration refused: one sentence per refused file (each naming it). */
export class RegistrationError extends Error {
  constructor(
    readonly problems: string[],
    readonly field = 'directory',
  ) {
    super(problems.join('\n'));
    this.name = 'RegistrationError';
  }
}

type Row = {
  id: number;
  name: string;
  directory: string;
  files: unknown;
  file_count: number;
  bytes: number | string;
  registered_at: Date | string;
  registered_by: string;
};

const NAME_RE = /^[\p{L}\p{N} ._()+-]{1,100}$/u;

export class PublishedDatasetService {
  private loaded: { at: number; signature: string; sets: PublishedDatasets | null } | null = null;

  private readonly repo: PublishedDatasetsRepository;
  constructor(db: DB) {
    this.repo = new PublishedDatasetsRepository(db, ANALYSE_PORTFOLIO_JOB);
  }

  /** Scans and checks `directory`, then stores (or replaces, by name) its registration and re-queues every analysis. */
  async register(directory: string, name: string | undefined, by: string): Promise<{ dataset: PublishedDataset; reanalysed: number; replaced: boolean }> {
    const scan = scanPublishedDirectory(directory);
    if (scan.errors.length > 0) throw new RegistrationError(scan.errors);
    const dsName = (name ?? basename(scan.directory)).trim();
    if (!NAME_RE.test(dsName)) throw new RegistrationError([`name '${dsName.slice(0, 40)}' must be 1-100 letters, digits, spaces or ._()+-`], 'name');
    const bytes = scan.files.reduce((a, f) => a + f.header.fileBytes, 0);
    const values = { name: dsName, directory: scan.directory, files: JSON.stringify(scan.files), file_count: scan.files.length, bytes, registered_by: by };
    const { replaced, reanalysed } = await this.repo.upsert(values, `published dataset '${dsName}' registered`);
    this.loaded = null;
    return { dataset: present((await this.repo.byName(dsName)) as Row), reanalysed, replaced };
  }

  async list(): Promise<PublishedDataset[]> {
    return (await this.repo.all()).map((r) => present(r as Row));
  }

  /** Removes a registration by name (the files stay where they are); re-queues every analysis. */
  async remove(name: string): Promise<{ reanalysed: number }> {
    const out = await this.repo.remove(name, `published dataset '${name.slice(0, 100)}' removed`);
    if (!out) throw notFound(`name: no published dataset named '${name.slice(0, 100)}'.`);
    this.loaded = null;
    return out;
  }

  /** 403 unless the caller is an operator of the installation (users.is_operator). */
  async assertOperator(caller: AuthUser): Promise<void> {
    if (!(await this.repo.isOperator(caller.id)))
      throw new AppError(403, 'Only an operator of this installation may manage published hazard datasets (npm run admin -- set-operator).');
  }

  /** The registered datasets, loaded for sampling (null when none); re-read when they change, at most every few seconds. */
  async current(): Promise<PublishedDatasets | null> {
    const now = Date.now();
    if (this.loaded && now - this.loaded.at < RELOAD_MS) return this.loaded.sets;
    const sig = await this.repo.signature();
    const signature = sig.map((s) => `${s.id}@${new Date(s.registered_at).getTime()}`).join(',');
    if (this.loaded && this.loaded.signature === signature) {
      this.loaded.at = now;
      return this.loaded.sets;
    }
    const rows = sig.length ? await this.repo.all() : [];
    const regs: PublishedRegistration[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      directory: r.directory,
      files: r.files as unknown as PublishedFile[],
      registeredAt: new Date(r.registered_at).getTime(),
    }));
    this.loaded = { at: now, signature, sets: regs.length ? new PublishedDatasets(regs) : null };
    return this.loaded.sets;
  }

  /** Cache key part: changes when a dataset is registered, replaced or removed. */
  async signature(): Promise<string> {
    await this.current();
    return this.loaded?.signature ?? '';
  }
}

/** A registration as the API and the command line show it: no file paths beyond the directory the operator gave. */
function present(r: Row): PublishedDataset {
  const files = r.files as PublishedFile[];
  const keys = files.map((f) => f.key);
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  return {
    id: r.id,
    name: r.name,
    directory: r.directory,
    file_count: r.file_count,
    bytes: Number(r.bytes),
    registered_at: new Date(r.registered_at).toISOString(),
    registered_by: r.registered_by,
    sources: uniq(keys.map((k) => k.source)),
    hazards: (['river_flood', 'storm_surge'] as const).filter((h) => keys.some((k) => k.hazard === h)),
    scenarios: uniq(keys.map((k) => (k.year === null ? k.scenario : `${k.scenario} ${k.year}`))).sort(),
    return_periods_years: uniq(keys.map((k) => k.returnPeriodYears)).sort((a, b) => a - b),
    files: files.map((f) => ({
      name: basename(f.path),
      hazard: f.key.hazard,
      scenario: f.key.scenario,
      model: f.key.model,
      year: f.key.year,
      return_period_years: f.key.returnPeriodYears,
      width: f.header.width,
      height: f.header.height,
      resolution_deg: f.header.resX,
      tiled: f.header.tiled,
      bytes: f.header.fileBytes,
    })),
  };
}
