/**
 * Raster tiles of the map module (spec 001 §7 "Raster tiles", §9 legends): 256 px Web Mercator PNG tiles, zoom 0-22,
 * coloured with the legend classes, rendered from the hazard layers at their native grid.
 *
 * How a tile is made: every pixel centre is projected back to longitude/latitude (inverse Web Mercator) and mapped to
 * its cell in the hazard's native grid (the finest grid among the layers the hazard model reads, e.g. 0.1° for
 * rainfall flood and wildfire, 5' for storm surge). Because that mapping is separable (columns depend only on x,
 * rows only on y), the hazard model is evaluated once per distinct cell of the tile (at the cell centre) and the
 * pixels take its legend class: a zoom-15 tile costs one or two model evaluations, a zoom-0 tile at most 65,536.
 * The PNG is palette-indexed (colour type 3, tRNS for "no colour") and deflated with node:zlib.
 * The model runs only for the hazards the dataset reads (HazardLayers.curveSamplerFor: the same numbers as sampleCurves).
 * World-view tiles (zooms 0-4) are kept whole per dataset in WorldTiles (world-tiles.ts: memory and pack files);
 * the server pre-renders them in a low-priority thread (world-prerender.ts); other zooms use the LRU cache.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, crc32 } from 'node:zlib';
import {
  HAZARD_KEYS,
  legendClassIndex,
  MAP_LEGENDS,
  MAP_RETURN_PERIODS,
  MAP_TILE_SIZE,
  returnPeriodKey,
  WILDFIRE_SCENARIO_YEARS,
  type MapHazardKey,
  type MapLegend,
  type WildfireScenarioYear,
} from '@crp/contracts';
import { HAZARD_META, newCurveSample, RETURN_PERIODS_YEARS, type CurveSample, type HazardLayers, type ScenarioContext } from '@crp/hazards';
import { fingerprint, WORLD_MAX_ZOOM, worldTile, type WorldTiles } from './world-tiles.js';

const N_RP = RETURN_PERIODS_YEARS.length;
const H_WF = HAZARD_KEYS.indexOf('wildfire');
/** Curve block of each flood-type hazard in CurveSample.curves (see @crp/hazards CURVE_HAZARDS). */
const CURVE_BLOCK = { storm_surge: 1, rainfall_flood: 3 } as const;

/** Which dataset of a hazard a tile or a statistic shows. */
export type MapDataset = { hazard: 'rainfall_flood' | 'storm_surge'; returnPeriod: number } | { hazard: 'wildfire'; scenarioYear: WildfireScenarioYear };

export function datasetKey(d: MapDataset): string {
  return d.hazard === 'wildfire' ? d.scenarioYear : returnPeriodKey(d.returnPeriod);
}

/** Every dataset the maps page offers (the flood hazards at MAP_RETURN_PERIODS, wildfire at its scenario-years), the page's defaults first. */
export function mapDatasets(): MapDataset[] {
  const first: MapDataset[] = [
    { hazard: 'rainfall_flood', returnPeriod: 100 },
    { hazard: 'storm_surge', returnPeriod: 100 },
    { hazard: 'wildfire', scenarioYear: '85_2050' },
  ];
  const rest = MAP_RETURN_PERIODS.filter((rp) => rp !== 100);
  return [
    ...first,
    ...rest.map((returnPeriod) => ({ hazard: 'rainfall_flood' as const, returnPeriod })),
    ...rest.map((returnPeriod) => ({ hazard: 'storm_surge' as const, returnPeriod })),
    ...WILDFIRE_SCENARIO_YEARS.filter((sy) => sy !== '85_2050').map((scenarioYear) => ({ hazard: 'wildfire' as const, scenarioYear })),
  ];
}

/**
 * The code that decides what a tile shows, as text: every source file of @crp/hazards (the models and the sampler) and
 * @crp/contracts (legends, class rules), this renderer and world-tiles.ts, in a fixed order. The server runs from these
 * sources (tsx), so a deployment with changed models never serves packs drawn by the old ones.
 */
function tileCode(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (/\.(ts|json)$/.test(e.name)) files.push(join(dir, e.name));
    }
  };
  walk(dirname(fileURLToPath(import.meta.resolve('@crp/hazards'))));
  walk(dirname(fileURLToPath(import.meta.resolve('@crp/contracts'))));
  files.push(fileURLToPath(import.meta.url), fileURLToPath(new URL('./world-tiles.ts', import.meta.url)));
  return files.map((f) => `${f.slice(f.lastIndexOf('/src/'))}\n${readFileSync(f, 'utf8')}`);
}

/**
 * What a tile shows depends on: the layers (manifest with each layer's checksum, build parameters), the installation's
 * own layers (catalogue entries and raster values), the legends and the code (tileCode). Their fingerprint names the
 * world tile packs.
 */
export function layersFingerprint(layers: HazardLayers): string {
  const parts: (string | ArrayBufferView)[] = [JSON.stringify(layers.manifest), JSON.stringify(layers.params), JSON.stringify(MAP_LEGENDS), ...tileCode()];
  for (const r of layers.byo.entries()) parts.push(JSON.stringify([r.entry, r.x0, r.y0, r.resX, r.resY, r.width, r.height, r.nodata, r.crs]), r.data);
  return fingerprint(parts);
}

/** Parses a dataset key ('100yr' or '85_2050') for a hazard; null when it is not one the layers have. */
export function parseDataset(hazard: MapHazardKey, key: string): MapDataset | null {
  if (hazard === 'wildfire') return (WILDFIRE_SCENARIO_YEARS as readonly string[]).includes(key) ? { hazard, scenarioYear: key as WildfireScenarioYear } : null;
  const m = /^(\d{1,4})yr$/.exec(key);
  if (!m) return null;
  const rp = Number(m[1]);
  return (RETURN_PERIODS_YEARS as readonly number[]).includes(rp) ? { hazard, returnPeriod: rp } : null;
}

/** Scenario and year a dataset is evaluated at: flood return periods at the 2020 baseline, wildfire as named. */
export function datasetScenario(d: MapDataset): { analysisType: 'ssp'; scenario: '26' | '45' | '85'; year: number } {
  if (d.hazard !== 'wildfire') return { analysisType: 'ssp', scenario: '85', year: 2020 };
  const [s, y] = d.scenarioYear.split('_');
  return { analysisType: 'ssp', scenario: s === '00' ? '85' : (s as '85'), year: Number(y) };
}

/** Native grid of a hazard: the finest cell size among its layers (degrees) and the resolution the layers report. */
export interface NativeGrid {
  resDeg: number;
  resolutionKm: number;
  layers: string[];
}

export function nativeGrid(layers: HazardLayers, hazard: MapHazardKey): NativeGrid {
  const names = HAZARD_META[hazard].layers;
  let resDeg = Infinity;
  for (const n of names) {
    const l = layers.layer(n);
    if (l && l.entry.grid.resDeg < resDeg) resDeg = l.entry.grid.resDeg;
  }
  return { resDeg, resolutionKm: HAZARD_META[hazard].resolutionKm, layers: [...names] };
}

/** Evaluates one dataset of a hazard at points: the value in legend units (m; wildfire % per year), NaN = no data. */
export class DatasetSampler {
  private readonly ctx: ScenarioContext;
  private readonly out: CurveSample = newCurveSample();
  private readonly rpIndex: number;
  /** Only the models the dataset reads (wildfire: with the rainfall flood's land mask), the same numbers as sampleCurves. */
  private readonly sample: (lat: number, lng: number, ctx: ScenarioContext, out: CurveSample) => CurveSample;
  /** `at` evaluates a flood-type dataset at another scenario-year than its 2020 baseline (e.g. the download's). */
  constructor(
    layers: HazardLayers,
    readonly dataset: MapDataset,
    at?: { scenario: '26' | '45' | '85'; year: number },
  ) {
    this.ctx = layers.resolveScenario(at && dataset.hazard !== 'wildfire' ? { analysisType: 'ssp', ...at } : datasetScenario(dataset));
    this.rpIndex = dataset.hazard === 'wildfire' ? -1 : (RETURN_PERIODS_YEARS as readonly number[]).indexOf(dataset.returnPeriod);
    this.sample = layers.curveSamplerFor(dataset.hazard === 'wildfire' ? ['wildfire', 'rainfall_flood'] : [dataset.hazard]);
  }
  valueAt(lat: number, lng: number): number {
    const s = this.sample(lat, lng, this.ctx, this.out);
    if (this.dataset.hazard === 'wildfire') {
      // no data off land: the model answers 0 there, the rainfall block (curve-number land mask) tells land from sea
      if (Number.isNaN(s.curves[3 * N_RP]!)) return NaN;
      return s.values[H_WF]! * 100;
    }
    return s.curves[CURVE_BLOCK[this.dataset.hazard] * N_RP + this.rpIndex]!;
  }
}

// ---------------------------------------------------------------- Web Mercator

/** Longitude of a global pixel column centre (pixel units of zoom z, 256 px tiles). */
export function pixelLon(gx: number, z: number): number {
  return (gx / (MAP_TILE_SIZE * 2 ** z)) * 360 - 180;
}
/** Latitude of a global pixel row (inverse spherical Web Mercator, EPSG:3857). */
export function pixelLat(gy: number, z: number): number {
  const n = Math.PI * (1 - (2 * gy) / (MAP_TILE_SIZE * 2 ** z));
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

// ---------------------------------------------------------------- PNG

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function chunk(type: string, data: Buffer): Buffer {
  const b = Buffer.alloc(12 + data.length);
  b.writeUInt32BE(data.length, 0);
  b.write(type, 4, 'latin1');
  data.copy(b, 8);
  b.writeUInt32BE(crc32(b.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return b;
}

/** Palette PNG (8-bit indices, filter 0 on every row); index 0 is fully transparent. */
export function encodePalettePng(width: number, height: number, indices: Uint8Array, palette: [number, number, number][], level = 6): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // palette
  const plte = Buffer.alloc(palette.length * 3);
  palette.forEach(([r, g, b], i) => {
    plte[i * 3] = r;
    plte[i * 3 + 1] = g;
    plte[i * 3 + 2] = b;
  });
  const trns = Buffer.alloc(palette.length, 255);
  trns[0] = 0;
  const raw = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  return Buffer.concat([
    PNG_SIG,
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('tRNS', trns),
    chunk('IDAT', deflateSync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function hexRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
const paletteOf = (legend: MapLegend): [number, number, number][] => [[0, 0, 0], ...legend.classes.map((c) => hexRgb(c.color))];

// ---------------------------------------------------------------- renderer

export interface TileRequest {
  dataset: MapDataset;
  z: number;
  x: number;
  y: number;
}

/** Renders and caches tiles. One per process (the layers are shared). */
export class TileRenderer {
  private readonly cache = new Map<string, Buffer>();
  private cacheBytes = 0;
  private readonly samplers = new Map<string, DatasetSampler>();
  private readonly grids = new Map<MapHazardKey, NativeGrid>();
  private readonly empty = new Map<MapHazardKey, Buffer>();
  /** Counters for the bench and the tests. */
  readonly stats = { rendered: 0, cacheHits: 0, cellsEvaluated: 0, worldPrerendered: 0 };

  constructor(
    private readonly layers: HazardLayers,
    private readonly maxCacheBytes = 64 * 1024 * 1024,
    /** World-view tiles (zooms 0-4), kept whole per dataset; without it they go through the LRU cache like the others. */
    readonly world: WorldTiles | null = null,
  ) {}

  grid(h: MapHazardKey): NativeGrid {
    let g = this.grids.get(h);
    if (!g) this.grids.set(h, (g = nativeGrid(this.layers, h)));
    return g;
  }

  sampler(d: MapDataset): DatasetSampler {
    const k = `${d.hazard}|${datasetKey(d)}`;
    let s = this.samplers.get(k);
    if (!s) this.samplers.set(k, (s = new DatasetSampler(this.layers, d)));
    return s;
  }

  /** PNG bytes of a tile (from the cache when rendered before). */
  tile(req: TileRequest): Buffer {
    if (this.world && req.z <= WORLD_MAX_ZOOM) {
      const wk = `${req.dataset.hazard}-${datasetKey(req.dataset)}`;
      const stored = this.world.get(wk, req.z, req.x, req.y);
      if (stored) return stored;
      const png = this.render(req);
      this.world.put(wk, req.z, req.x, req.y, png);
      return png;
    }
    const key = `${req.dataset.hazard}|${datasetKey(req.dataset)}|${req.z}|${req.x}|${req.y}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.stats.cacheHits++;
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const png = this.render(req);
    this.cache.set(key, png);
    this.cacheBytes += png.length;
    while (this.cacheBytes > this.maxCacheBytes) {
      const [k, v] = this.cache.entries().next().value as [string, Buffer];
      this.cache.delete(k);
      this.cacheBytes -= v.length;
    }
    return png;
  }

  /** Legend class (0 = none) of every pixel of a tile, row-major 256 x 256. */
  classes(req: TileRequest): Uint8Array {
    const { z, x, y, dataset } = req;
    const S = MAP_TILE_SIZE;
    const legend = MAP_LEGENDS[dataset.hazard];
    const { resDeg } = this.grid(dataset.hazard);
    const sampler = this.sampler(dataset);
    // distinct native columns and rows of the tile
    const colOfPx = new Int32Array(S),
      rowOfPx = new Int32Array(S);
    const cols: number[] = [],
      rows: number[] = [];
    const nCols = Math.round(360 / resDeg),
      nRows = Math.round(180 / resDeg);
    for (let p = 0; p < S; p++) {
      let c = Math.floor((pixelLon(x * S + p + 0.5, z) + 180) / resDeg);
      c = Math.min(nCols - 1, Math.max(0, c));
      if (cols.length === 0 || cols[cols.length - 1] !== c) cols.push(c);
      colOfPx[p] = cols.length - 1;
      let r = Math.floor((90 - pixelLat(y * S + p + 0.5, z)) / resDeg);
      r = Math.min(nRows - 1, Math.max(0, r));
      if (rows.length === 0 || rows[rows.length - 1] !== r) rows.push(r);
      rowOfPx[p] = rows.length - 1;
    }
    const nc = cols.length;
    const cellClass = new Uint8Array(rows.length * nc);
    for (let i = 0; i < rows.length; i++) {
      const lat = 90 - (rows[i]! + 0.5) * resDeg;
      for (let j = 0; j < nc; j++) {
        const lng = (cols[j]! + 0.5) * resDeg - 180;
        cellClass[i * nc + j] = legendClassIndex(legend, sampler.valueAt(lat, lng));
      }
    }
    this.stats.cellsEvaluated += rows.length * nc;
    const px = new Uint8Array(S * S);
    for (let py = 0; py < S; py++) {
      const base = rowOfPx[py]! * nc;
      const o = py * S;
      for (let p = 0; p < S; p++) px[o + p] = cellClass[base + colOfPx[p]!]!;
    }
    return px;
  }

  render(req: TileRequest): Buffer {
    this.stats.rendered++;
    const px = this.classes(req);
    const h = req.dataset.hazard;
    if (!px.some((v) => v !== 0)) {
      let e = this.empty.get(h);
      if (!e) this.empty.set(h, (e = encodePalettePng(MAP_TILE_SIZE, MAP_TILE_SIZE, px, paletteOf(MAP_LEGENDS[h]))));
      return e;
    }
    return encodePalettePng(MAP_TILE_SIZE, MAP_TILE_SIZE, px, paletteOf(MAP_LEGENDS[h]));
  }

  clearCache() {
    this.cache.clear();
    this.cacheBytes = 0;
  }

  /**
   * Renders the world-view tiles (zooms 0-4) of `datasets` not stored yet, one tile per turn of the event loop
   * (setImmediate), so other work of the thread runs in between. The server runs it in the pre-render thread
   * (world-prerender.worker.ts). Returns the number of tiles rendered.
   */
  async prerenderWorld(datasets: MapDataset[] = mapDatasets()): Promise<number> {
    const world = this.world;
    if (!world) return 0;
    let n = 0;
    for (const dataset of datasets) {
      for (const i of world.missing(`${dataset.hazard}-${datasetKey(dataset)}`)) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const before = this.stats.rendered;
        this.tile({ dataset, ...worldTile(i) }); // a request may have rendered it meanwhile: then it is a lookup
        if (this.stats.rendered > before) n++;
      }
    }
    this.stats.worldPrerendered += n;
    return n;
  }
}
