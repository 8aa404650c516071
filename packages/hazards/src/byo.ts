/**
 * Bring-your-own hazard layers: GeoTIFFs (geographic lat/lon, EPSG:4326) registered for a hazard, indicator,
 * scenario, year and return period. Where a registered raster covers a point (a valid, non-nodata pixel),
 * it replaces the built-in value and the answer's `source` says so.
 *
 * Catalogue file: JSON array of ByoEntry (default packages/hazards/byo/catalog.json, overridable with
 * HAZARD_BYO_CATALOG); `file` paths are relative to the catalogue file.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { fromArrayBuffer } from 'geotiff';
import { HAZARD_KEYS, type HazardKey, type ScenarioCode } from '@crp/contracts';

const here = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_BYO_CATALOG = resolve(here, '../byo/catalog.json');

export function byoCatalogPath(): string {
  return process.env.HAZARD_BYO_CATALOG ? resolve(process.env.HAZARD_BYO_CATALOG) : DEFAULT_BYO_CATALOG;
}

export interface ByoEntry {
  id: string;
  hazard: HazardKey;
  /** Indicator and unit of the raster values (default: the built-in indicator of the hazard). */
  indicator?: string;
  unit?: string;
  /** null/undefined = any scenario. */
  scenario?: ScenarioCode | null;
  /** null/undefined = any year; otherwise the entry of the nearest year is used. */
  year?: number | null;
  /** Return period (years) for curve hazards; null for a single value. */
  returnPeriodYears?: number | null;
  /** GeoTIFF path (absolute, or relative to the catalogue file). */
  file: string;
  label?: string;
  publisher?: string;
  license?: string;
  citation?: string;
  /** Real value = raw × scale + offset (default 1, 0). */
  scale?: number;
  offset?: number;
}

interface Raster {
  entry: ByoEntry;
  west: number; north: number; resX: number; resY: number; width: number; height: number;
  data: ArrayLike<number>;
  nodata: number | null;
  resolutionKm: number;
  grid: { lon0: number; lat0: number; resDeg: number; width: number; height: number };
  sha256: string;
}

export interface ByoHit { entry: ByoEntry; value: number; resolutionKm: number }

export function validateByoEntry(e: ByoEntry): void {
  if (!e || typeof e.id !== 'string' || !e.id) throw new Error('BYO entry needs an id');
  if (!HAZARD_KEYS.includes(e.hazard)) throw new Error(`BYO entry ${e.id}: unknown hazard ${String(e.hazard)}`);
  if (e.scenario != null && !['26', '45', '85'].includes(e.scenario)) throw new Error(`BYO entry ${e.id}: scenario must be 26, 45 or 85`);
  if (e.year != null && !(Number.isInteger(e.year) && e.year >= 1950 && e.year <= 2150)) throw new Error(`BYO entry ${e.id}: bad year`);
  if (e.returnPeriodYears != null && !(e.returnPeriodYears > 0)) throw new Error(`BYO entry ${e.id}: bad return period`);
  if (typeof e.file !== 'string' || !e.file) throw new Error(`BYO entry ${e.id}: file is required`);
}

export class ByoRegistry {
  private rasters: Raster[] = [];

  get size(): number { return this.rasters.length; }

  entries(): Raster[] { return [...this.rasters]; }

  memoryBytes(): number {
    return this.rasters.reduce((a, r) => a + ((r.data as unknown as { byteLength?: number }).byteLength ?? r.data.length * 8), 0);
  }

  clear(): void { this.rasters = []; }

  async register(entry: ByoEntry, baseDir = process.cwd()): Promise<void> {
    validateByoEntry(entry);
    const path = isAbsolute(entry.file) ? entry.file : resolve(baseDir, entry.file);
    const buf = readFileSync(path);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    const tiff = await fromArrayBuffer(ab);
    const img = await tiff.getImage();
    const geo = img.getGeoKeys() as Record<string, number> | null;
    if (geo && geo.ProjectedCSTypeGeoKey && geo.ProjectedCSTypeGeoKey !== 4326) {
      throw new Error(`BYO ${entry.id}: only geographic (EPSG:4326) GeoTIFFs are supported, got EPSG:${geo.ProjectedCSTypeGeoKey}`);
    }
    const [west, , , north] = img.getBoundingBox();
    const [resX, resY] = img.getResolution();
    const width = img.getWidth(), height = img.getHeight();
    const rasters = (await img.readRasters({ samples: [0] })) as unknown as ArrayLike<number>[];
    const data = rasters[0]!;
    const nd = img.getGDALNoData();
    this.rasters = this.rasters.filter((r) => r.entry.id !== entry.id);
    this.rasters.push({
      entry: { ...entry, file: path }, west: west!, north: north!, resX: Math.abs(resX!), resY: Math.abs(resY!), width, height, data,
      nodata: nd === null || nd === undefined ? null : Number(nd), resolutionKm: Math.abs(resY!) * 111.2,
      grid: { lon0: west!, lat0: north!, resDeg: Math.abs(resX!), width, height },
      sha256: createHash('sha256').update(buf).digest('hex'),
    });
  }

  async loadCatalog(path = byoCatalogPath()): Promise<number> {
    if (!existsSync(path)) return 0;
    const list = JSON.parse(readFileSync(path, 'utf8')) as ByoEntry[];
    for (const e of list) await this.register(e, dirname(path));
    return list.length;
  }

  /** Matching values at a point: per (hazard, return period), the scenario-compatible entry of the nearest year. */
  lookup(lat: number, lng: number, scenario: ScenarioCode, year: number): ByoHit[] {
    const best = new Map<string, { r: Raster; v: number; dy: number }>();
    for (const r of this.rasters) {
      const e = r.entry;
      if (e.scenario != null && e.scenario !== scenario) continue;
      const col = Math.floor((lng - r.west) / r.resX), row = Math.floor((r.north - lat) / r.resY);
      if (col < 0 || row < 0 || col >= r.width || row >= r.height) continue;
      const raw = r.data[row * r.width + col]!;
      if (!Number.isFinite(raw) || (r.nodata !== null && raw === r.nodata)) continue;
      const v = raw * (e.scale ?? 1) + (e.offset ?? 0);
      const key = `${e.hazard}|${e.returnPeriodYears ?? ''}`;
      const dy = e.year == null ? 0.5 : Math.abs(e.year - year);
      const cur = best.get(key);
      if (!cur || dy < cur.dy) best.set(key, { r, v, dy });
    }
    return [...best.values()].map(({ r, v }) => ({ entry: r.entry, value: v, resolutionKm: r.resolutionKm }));
  }
}

/** Add (or replace by id) an entry in a BYO catalogue file, creating it if needed. Returns the catalogue path. */
export function addToByoCatalog(entry: ByoEntry, path = byoCatalogPath()): string {
  validateByoEntry(entry);
  const list: ByoEntry[] = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ByoEntry[]) : [];
  const next = list.filter((e) => e.id !== entry.id);
  next.push(entry);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(next, null, 2) + '\n');
  return path;
}
