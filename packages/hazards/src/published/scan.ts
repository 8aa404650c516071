/**
 * Checks a directory of published flood maps before it is registered: every `.tif` file's name (flood-names.ts) and
 * header (tiff-window.ts: GeoTIFF, EPSG:4326, tiling or strips, nodata, scale). Nothing is read beyond the headers.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FloodNameError, parseFloodFileName } from './flood-names.js';
import { readTiffHeader, TiffHeaderError } from './tiff-window.js';
import type { PublishedFile } from './dataset.js';

export interface ScanResult {
  directory: string;
  files: PublishedFile[];
  /** One sentence per refused file, naming it. */
  errors: string[];
}

/** Scans `dir` (absolute or relative to the working directory); `.tif`/`.tiff` files only, other files ignored. */
export function scanPublishedDirectory(dir: string): ScanResult {
  const directory = resolve(dir);
  let names: string[];
  try {
    if (!statSync(directory).isDirectory()) return { directory, files: [], errors: [`${dir} is not a directory`] };
    names = readdirSync(directory).sort();
  } catch (err) {
    return { directory, files: [], errors: [`${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`] };
  }
  const files: PublishedFile[] = [];
  const errors: string[] = [];
  const tifs = names.filter((n) => /\.tiff?$/i.test(n));
  if (tifs.length === 0) errors.push(`${dir} holds no .tif files`);
  const seen = new Map<string, string>();
  for (const name of tifs) {
    const path = join(directory, name);
    try {
      const key = parseFloodFileName(name);
      const header = readTiffHeader(path);
      if (header.blocksPresent === 0) throw new TiffHeaderError('no tile or strip holds data');
      const k = [key.hazard, key.scenario, key.model, key.year, key.returnPeriodYears, key.subsidence, key.slrPercentile, key.tile].join('|');
      const twin = seen.get(k);
      if (twin) throw new TiffHeaderError(`the same map as ${twin}`);
      seen.set(k, name);
      files.push({ path, key, header });
    } catch (err) {
      if (err instanceof FloodNameError) errors.push(err.message);
      else if (err instanceof TiffHeaderError) errors.push(`${name}: ${err.message}`);
      else errors.push(`${name}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  return { directory, files, errors };
}
