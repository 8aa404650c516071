import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { BasemapConfig, BasemapSettingsAnswer, BasemapSettingsInput } from '@crp/contracts';
import { REPO_ROOT, type Config } from '../../config.js';
import { BasemapRepository } from './basemap.repository.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/auth-context.js';

/** Where the web app finds the served PMTiles archive (a configured local file). */
export const PMTILES_PATH = '/api/basemap/tiles.pmtiles';

type Effective = { style_url: string | null; pmtiles: string | null; labels: boolean; source: BasemapSettingsAnswer['source'] };

/**
 * The street basemap of every map of the installation (docs/maps.md "Basemap"): what an operator set in the app
 * (table basemap_settings, migration 0037) or else the server environment (BASEMAP_STYLE_URL, BASEMAP_PMTILES). The
 * setting in force is kept in memory (read at start and after each change) because the Content-Security-Policy of
 * every answer depends on it. Several server processes on one database see another's change when they next start or
 * within RELOAD_MS.
 */
export class BasemapService {
  private current: Effective;
  private loadedAt = 0;
  private static readonly RELOAD_MS = 10_000;

  private readonly repo: BasemapRepository;

  constructor(
    db: ConstructorParameters<typeof BasemapRepository>[0],
    private readonly config: Config,
  ) {
    this.repo = new BasemapRepository(db);
    this.current = this.fromEnvironment();
  }

  private fromEnvironment(): Effective {
    const style = this.config.BASEMAP_STYLE_URL ?? null;
    const pm = this.config.BASEMAP_PMTILES ?? null;
    return { style_url: style, pmtiles: pm, labels: true, source: style || pm ? 'environment' : 'offline' };
  }

  /** Reads the stored setting (at start, after a change, and every RELOAD_MS when asked). */
  async load(): Promise<void> {
    const row = await this.repo.get();
    this.current = row ? { style_url: row.style_url, pmtiles: row.pmtiles, labels: row.labels, source: 'settings' } : this.fromEnvironment();
    this.loadedAt = Date.now();
  }

  private async fresh(): Promise<Effective> {
    if (Date.now() - this.loadedAt > BasemapService.RELOAD_MS) await this.load();
    return this.current;
  }

  /** The basemap the web app draws (GET /api/config/). */
  async clientConfig(): Promise<BasemapConfig> {
    return this.toClient(await this.fresh());
  }

  private toClient(e: Effective): BasemapConfig {
    const pm = e.pmtiles ? (/^https?:/.test(e.pmtiles) ? e.pmtiles : PMTILES_PATH) : null;
    return { style_url: e.style_url, pmtiles_url: pm, labels: Boolean(pm && !e.style_url && e.labels) };
  }

  /** The local archive file to serve at PMTILES_PATH, or null (none, or a URL). */
  async localArchive(): Promise<string | null> {
    const pm = (await this.fresh()).pmtiles;
    return pm && !/^https?:/.test(pm) ? pm : null;
  }

  /** Origins outside this server that the browser may fetch the basemap from (for the Content-Security-Policy). */
  origins(): string[] {
    const out = [...this.config.BASEMAP_ORIGINS];
    for (const u of [this.current.style_url, this.current.pmtiles, this.config.BASEMAP_STYLE_URL, this.config.BASEMAP_PMTILES])
      if (u && /^https?:\/\//.test(u)) out.push(new URL(u).origin);
    return [...new Set(out)];
  }

  async assertOperator(caller: AuthUser): Promise<void> {
    if (!(await this.repo.isOperator(caller.id)))
      throw new AppError(403, 'Only an operator of this installation may set the street basemap (npm run admin -- set-operator).');
  }

  async answer(): Promise<BasemapSettingsAnswer> {
    await this.load();
    const row = await this.repo.get();
    return {
      source: this.current.source,
      settings: row
        ? { style_url: row.style_url, pmtiles: row.pmtiles, labels: row.labels, updated_at: new Date(row.updated_at).toISOString(), updated_by: row.updated_by }
        : null,
      environment: { style_url: this.config.BASEMAP_STYLE_URL ?? null, pmtiles: this.config.BASEMAP_PMTILES ?? null },
      basemap: this.toClient(this.current),
    };
  }

  /** Stores the operator's street basemap (checked first: a local archive must exist and be a PMTiles v3 file). */
  async set(input: BasemapSettingsInput, by: string): Promise<BasemapSettingsAnswer> {
    const style = input.style_url?.trim() || null;
    let pm = input.pmtiles?.trim() || null;
    if (!style && !pm)
      throw new AppError(400, 'style_url: give a style URL or a PMTiles archive (pmtiles); to go back to the default, remove the setting instead.', [
        { field: 'style_url', message: 'style_url or pmtiles is required' },
      ]);
    if (pm && !/^https?:/.test(pm)) pm = checkArchive(pm);
    const values = { style_url: style, pmtiles: pm, labels: input.labels ?? true, updated_at: new Date(), updated_by: by };
    await this.repo.put(values);
    return this.answer();
  }

  /** Removes the operator's setting: the environment applies again. */
  async clear(): Promise<BasemapSettingsAnswer> {
    await this.repo.remove();
    return this.answer();
  }
}

/** A .pmtiles file on the server: resolved from the repository root, must exist and start with the PMTiles v3 magic. */
function checkArchive(path: string): string {
  const file = isAbsolute(path) ? path : resolve(REPO_ROOT, path);
  const bad = (message: string) => new AppError(400, `pmtiles: ${message}`, [{ field: 'pmtiles', message }]);
  if (!existsSync(file) || !statSync(file).isFile()) throw bad(`no file at ${file}`);
  const head = Buffer.alloc(8);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 8, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, 7).toString('latin1') !== 'PMTiles' || head[7] !== 3) throw bad(`${file} is not a PMTiles version 3 archive`);
  return file;
}
