/**
 * Rebuilds only what issue 33 items 2 and 5 changed, leaving every other layer untouched (same code path as the full
 * build, build-layers.ts): the `landslide_probability` layer and params.json `landslideCalibration` (GLC completeness
 * against the Hong Kong register), and params.json `winterTas` (regional winter-mean warming of the AR6 Atlas CMIP6 data,
 * from packages/hazards/data/atlas-winter-tas.json).
 * Run: npm run build:landslide-winter -w @crp/hazards (raw data from HAZARD_RAW_DIR or ../shared/data).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GRID_5M } from '../src/layer-format.js';
import {
  LAYERS_DIR,
  LANDSLIDE_SCALE,
  buildLandslide,
  glcCompleteness,
  landslideCalibration,
  quantise,
  winterTasParams,
  writeLayer,
  type Out,
} from './build-layers.js';
import { rawDir, readRaw } from './lib/io.js';
import { loadTerrain, slopeTan } from './lib/terrain.js';
import { readParams, updateManifest, updateParams } from './lib/partial-rebuild.js';

export function buildLandslideWinter(dir = rawDir(), outDir = LAYERS_DIR) {
  const igbp = new Uint8Array(readRaw(dir, 'modis-landcover-igbp-0.1deg/mcd12c1_igbp_2011_uint8_3600x1800.bin.gz'));
  const t = loadTerrain(dir, igbp);
  const slope = slopeTan(t);
  const glcC = glcCompleteness(dir);
  const ls = buildLandslide(dir, t, slope, glcC.factor);
  const lsCal = landslideCalibration(dir, ls, glcC);
  console.log(`  landslide calibration: ${JSON.stringify(lsCal)}`);
  const out: Out = { entries: [], dir: outDir };
  writeLayer(
    out,
    {
      name: 'landslide_probability',
      dtype: 'uint16',
      grid: GRID_5M,
      bands: 1,
      scale: LANDSLIDE_SCALE,
      offset: 0,
      nodata: null,
      unit: '1/yr',
      description:
        'Annual probability of a landslide within 1 km at the completeness of the Hong Kong GEO register (catalogue density × GLC completeness factor × relative ETOPO5 slope)',
      resolutionKm: 9.3,
      datasets: ['nasa-global-landslide-catalog-points', 'hk-geo-landslide-incidents-1984-2020', 'etopo5-global-dem'],
    },
    quantise('uint16', ls, LANDSLIDE_SCALE, 0, null),
  );
  const e = out.entries[0]!;
  updateManifest(outDir, out.entries, { template: 'landslide_probability' });
  const regions = (readParams(outDir).regions as { abbrev: string }[]).map((r) => r.abbrev);
  updateParams(outDir, { landslideCalibration: lsCal, winterTas: winterTasParams(regions) }, { after: 'globalDeltas' });
  console.log(`[hazards] landslide layer and winter params rebuilt (${((e.bytesGz ?? 0) / 1e6).toFixed(2)} MB gz)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildLandslideWinter();
