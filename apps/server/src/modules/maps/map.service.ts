/**
 * Map module (issue 11; spec 001 §2.6-2.7, §3.8-3.12, §7 "Map module"): dataset lookup, map projects (createMap),
 * the map response (generateMap), point values (MapValue) and the Excel download (downloadMap).
 * Every number comes from the hazard layers of @crp/hazards (sampled through tile-renderer.ts's DatasetSampler, the
 * same code the tiles use), GPW v4 population density and World Bank GDP (scripts/build-map-data.ts).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HAZARD_KEYS,
  MAP_BBOX_HALF_SIDE_M_PER_KM,
  MAP_DOWNLOAD_SCENARIO,
  MAP_DOWNLOAD_YEAR,
  MAP_LEGENDS,
  MAP_RETURN_PERIODS,
  MAP_VARIABLE_KEYS,
  WILDFIRE_DISTANCE_KM,
  WILDFIRE_SCENARIO_YEARS,
  WILDFIRE_SCENARIO_YEAR_LABELS,
  returnPeriodKey,
  returnPeriodLabel,
  safeCell,
  type CreateMapBody,
  type DatasetLookupResponse,
  type MapHazardKey,
  type MapResponse,
  type MapValueResponse,
  type MapVariable,
} from '@crp/contracts';
import { countryOf, detectCountry, reverseGeocode } from '@crp/geo';
import { defaultHazardLayers, type HazardLayers } from '@crp/hazards';
import * as XLSX from '@e965/xlsx';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../infra/db/database.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError, badRequest } from '../../lib/errors.js';
import type { MapRepository } from './map.repository.js';
import type { FileStore } from '../../infra/file-store.js';
import { assertCan, type ProjectAccessPolicy } from '../access/project-access.policy.js';
import { DatasetSampler, layersFingerprint, mapDatasets, nativeGrid, parseDataset, TileRenderer, type MapDataset } from './tile-renderer.js';
import { WorldTiles } from './world-tiles.js';
import { prerenderInThread, type PrerenderRun } from './world-prerender.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Metres per degree of latitude on the mean sphere (R = 6,371,008.8 m). */
export const M_PER_DEG_LAT = (6_371_008.8 * Math.PI) / 180;
const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
const here = dirname(fileURLToPath(import.meta.url));
const DATA_DIR = join(here, '../../../data/map');

// ---------------------------------------------------------------- context data (population density, GDP)

let popGrid: Float32Array | null = null;
let gdpTable: Record<string, { year: number; value: number }> | null = null;
/** GPW v4.11 2020 population density of the 1° cell at a point, people/km² (null where GPW has no data). */
export function populationDensity(lat: number, lng: number): number | null {
  if (!popGrid) {
    const b = gunzipSync(readFileSync(join(DATA_DIR, 'population_density_1deg.bin.gz')));
    const ab = new ArrayBuffer(b.byteLength);
    new Uint8Array(ab).set(b);
    popGrid = new Float32Array(ab);
  }
  const r = Math.min(179, Math.max(0, Math.floor(90 - lat)));
  let c = Math.floor(lng + 180) % 360;
  if (c < 0) c += 360;
  const v = popGrid[r * 360 + c]!;
  return Number.isNaN(v) ? null : Math.round(v * 100) / 100;
}
/** World Bank GDP (current US$) of a country by ISO3, latest year available. */
export function countryGdp(iso3: string | null): { value: number; year: number } | null {
  if (!iso3) return null;
  gdpTable ??= JSON.parse(readFileSync(join(DATA_DIR, 'gdp_latest.json'), 'utf8')) as Record<string, { year: number; value: number }>;
  return gdpTable[iso3] ?? null;
}

// ---------------------------------------------------------------- bounding box statistics

export interface BBox {
  west: number;
  south: number;
  east: number;
  north: number;
}
/** Box of half-side 500 m × distance around a point (spec 001 §9). */
export function boundingBox(lat: number, lng: number, distanceKm: number): BBox {
  const half = MAP_BBOX_HALF_SIDE_M_PER_KM * distanceKm;
  const dLat = half / M_PER_DEG_LAT;
  const dLng = half / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180));
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}

export interface BoxStats {
  average: number | null;
  max: number | null;
  min: number | null;
  cells: number;
}
/**
 * Area-weighted average, maximum and minimum of a dataset over the native-grid cells a box overlaps (cells without
 * data are left out; all null when none has data).
 */
export function boxStats(sampler: DatasetSampler, resDeg: number, box: BBox): BoxStats {
  const r0 = Math.floor((90 - box.north) / resDeg),
    r1 = Math.floor((90 - box.south) / resDeg);
  const c0 = Math.floor((box.west + 180) / resDeg),
    c1 = Math.floor((box.east + 180) / resDeg);
  let sw = 0,
    swv = 0,
    max = -Infinity,
    min = Infinity,
    cells = 0;
  for (let r = r0; r <= r1; r++) {
    const cellN = 90 - r * resDeg,
      cellS = cellN - resDeg;
    const dLat = Math.min(box.north, cellN) - Math.max(box.south, cellS);
    if (dLat <= 0) continue;
    const latC = cellN - resDeg / 2;
    for (let c = c0; c <= c1; c++) {
      const cellW = -180 + c * resDeg,
        cellE = cellW + resDeg;
      const dLng = Math.min(box.east, cellE) - Math.max(box.west, cellW);
      if (dLng <= 0) continue;
      const v = sampler.valueAt(latC, cellW + resDeg / 2);
      if (Number.isNaN(v)) continue;
      const w = dLat * dLng * Math.cos((latC * Math.PI) / 180);
      sw += w;
      swv += w * v;
      cells++;
      if (v > max) max = v;
      if (v < min) min = v;
    }
  }
  if (cells === 0) return { average: null, max: null, min: null, cells: 0 };
  return { average: round4(swv / sw), max: round4(max), min: round4(min), cells };
}

// ---------------------------------------------------------------- service

export class MapService {
  private layersP: Promise<HazardLayers> | null = null;
  private rendererP: Promise<TileRenderer> | null = null;
  private prerenderP: Promise<number> | null = null;
  private prerenderRun: PrerenderRun | null = null;
  private prerenderStopped = false;

  constructor(
    private readonly db: DB,
    private readonly repo: MapRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly files: FileStore,
    /** tileDir: folder of the world-view tile packs (null: memory only). */
    private readonly tiles: { tileDir: string | null; log?: Pick<FastifyBaseLogger, 'warn'> } = { tileDir: null },
  ) {}

  layers(): Promise<HazardLayers> {
    return (this.layersP ??= defaultHazardLayers());
  }
  renderer(): Promise<TileRenderer> {
    return (this.rendererP ??= this.layers().then((l) => {
      const warn = (msg: string, err?: unknown) => this.tiles.log?.warn({ err }, msg);
      return new TileRenderer(l, undefined, new WorldTiles(this.tiles.tileDir, layersFingerprint(l), warn));
    }));
  }

  /**
   * Renders the world-view tiles (zooms 0-4) of every dataset the maps page offers (or `datasets`) that are not stored
   * yet, in a worker thread at the lowest priority (server start; world-prerender.ts). Resolves with the number
   * rendered; once per service.
   */
  prerenderWorld(datasets: MapDataset[] = mapDatasets()): Promise<number> {
    return (this.prerenderP ??= this.renderer().then((r) => {
      if (this.prerenderStopped) return 0;
      this.prerenderRun = prerenderInThread(r.world!, this.tiles.tileDir, datasets);
      return this.prerenderRun.done;
    }));
  }
  /** Ends the pre-render thread (shutdown). */
  async stopPrerender(): Promise<void> {
    this.prerenderStopped = true;
    await this.prerenderRun?.stop();
  }

  /** Resolution statement of a hazard: the grid the values are read at and the coarsest real input behind them. */
  resolution(layers: HazardLayers, hazard: MapHazardKey): { text: string; km: number; resDeg: number } {
    const g = nativeGrid(layers, hazard);
    let coarse = { km: 0, name: '' };
    for (const n of g.layers) {
      const e = layers.layer(n)?.entry;
      if (!e || e.unit === 'index') continue; // region and tile indices carry no hazard information
      if (e.resolutionKm > coarse.km) coarse = { km: e.resolutionKm, name: n };
    }
    // Grids defined in arc-minutes read as minutes (5′, 1′); decimal-degree grids as degrees (0.1°, 0.25°).
    const minutes = g.resDeg * 60;
    const decimal = Math.abs(g.resDeg * 100 - Math.round(g.resDeg * 100)) < 1e-6;
    const cell = !decimal && Math.abs(minutes - Math.round(minutes)) < 1e-6 ? `${Math.round(minutes)}′` : `${+g.resDeg.toFixed(4)}°`;
    const gridKm = Math.round(g.resDeg * 111.32 * 10) / 10;
    // The grid the tiles are drawn at can be finer than what drives the values (surge: 1′ coastline distance, 5′ elevation).
    const effective = Math.abs(gridKm - g.resolutionKm) / g.resolutionKm > 0.25 ? `; effective resolution about ${g.resolutionKm} km` : '';
    return {
      text: `${cell} grid (about ${+gridKm.toFixed(gridKm < 10 ? 1 : 0)} km)${effective}; coarsest input about ${coarse.km} km (${coarse.name})`,
      km: g.resolutionKm,
      resDeg: g.resDeg,
    };
  }

  /** Dataset lookup (spec 001 §3.9): which datasets the layers have at a point. */
  async datasets(lat: number, lng: number): Promise<DatasetLookupResponse> {
    const layers = await this.layers();
    const land = !Number.isNaN(new DatasetSampler(layers, { hazard: 'rainfall_flood', returnPeriod: 100 }).valueAt(lat, lng));
    const s = layers.sampleCurves(lat, lng, layers.resolveScenario({ analysisType: 'ssp', scenario: '85', year: 2020 }));
    // storm surge exists on coastal land (within 50 km of the coast, where sea-level rise is defined) with typhoon data
    const coastal =
      land && !Number.isNaN(new DatasetSampler(layers, { hazard: 'storm_surge', returnPeriod: 100 }).valueAt(lat, lng)) && !Number.isNaN(s.values[HAZARD_SLR]!);
    const rp = MAP_RETURN_PERIODS.map((r) => ({ key: returnPeriodLabel(r), value: returnPeriodKey(r) }));
    return {
      rainfall_flood: land ? rp : [],
      storm_surge: coastal ? rp : [],
      wildfire: land ? WILDFIRE_SCENARIO_YEARS.map((k) => ({ key: WILDFIRE_SCENARIO_YEAR_LABELS[k], value: k })) : [],
    };
  }

  /** createMap (spec 000 §7 `POST api/v2/create_map_project/`, 001 §3.8). */
  async create(caller: AuthUser, body: CreateMapBody) {
    const variable = body.portfolio_variables[0]! as MapVariable;
    const hazard = MAP_VARIABLE_KEYS[variable];
    if (hazard === 'wildfire' && body.distance !== WILDFIRE_DISTANCE_KM)
      throw badRequest(`distance: Wildfire maps use ${WILDFIRE_DISTANCE_KM} km only.`, 'distance');
    const available = (await this.datasets(body.latitude, body.longitude))[hazard].map((d) => d.value);
    if (available.length === 0) throw badRequest(`portfolio_variables: No datasets available for ${variable} at this location.`, 'portfolio_variables');
    const unknown = body.duration_data.filter((d) => !available.includes(d));
    if (unknown.length)
      throw badRequest(
        `duration_data: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a dataset' : 'are not datasets'} of ${variable} here; choose from ${available.join(', ')}.`,
        'duration_data',
      );
    const duration = available.filter((d) => body.duration_data.includes(d));
    const geo = reverseGeocode(body.latitude, body.longitude);
    const country = geo.country_code
      ? { code: geo.country_code }
      : { code: countryOf(body.latitude, body.longitude, { nearestWithinKm: 50 })?.country_code ?? null };
    return this.db.transaction().execute(async (tx) => {
      if (await this.repo.nameTaken(caller.id, body.name, tx)) {
        const msg = `A map named '${body.name}' already exists. Choose another name.`;
        throw new AppError(400, msg, [{ field: 'name', message: msg }]);
      }
      const id = await this.repo.insert(
        caller,
        {
          name: body.name,
          address: body.address || geo.label,
          latitude: body.latitude,
          longitude: body.longitude,
          distance_km: body.distance,
          variable,
          duration_data: duration,
          country_code: country.code,
          subregion: geo.district ?? geo.region ?? null,
        },
        tx,
      );
      return { project_id: id, name: body.name };
    });
  }

  private async load(caller: AuthUser, name: string, field: string) {
    const { project, role } = await this.policy.findVisibleByName(caller, name, 'map', field);
    const m = await this.repo.byProjectId(project.id);
    if (!m) throw new AppError(404, `${field}: no map named '${name}'.`);
    return { project, role, m };
  }

  /** generateMap (spec 001 §3.10): statistics of the chosen datasets inside the bounding box. */
  async generate(caller: AuthUser, name: string): Promise<MapResponse> {
    const { project, role, m } = await this.load(caller, name, 'name');
    assertCan(role, 'view', project.name);
    const layers = await this.layers();
    const hazard = MAP_VARIABLE_KEYS[m.variable];
    const res = this.resolution(layers, hazard);
    const box = boundingBox(m.latitude, m.longitude, m.distance_km);
    const empty = () => ({ average: {} as Record<string, number | null>, max: {} as Record<string, number | null>, min: {} as Record<string, number | null> });
    const stats = { rainfall_flood: empty(), storm_surge: empty(), wildfire: empty() };
    const duration = m.duration_data as string[];
    let cells = 0;
    const labels = (await this.datasets(m.latitude, m.longitude))[hazard];
    for (const key of duration) {
      const d = parseDataset(hazard, key);
      if (!d) continue;
      const s = boxStats(new DatasetSampler(layers, d), res.resDeg, box);
      stats[hazard].average[key] = s.average;
      stats[hazard].max[key] = s.max;
      stats[hazard].min[key] = s.min;
      cells = Math.max(cells, s.cells);
    }
    const iso3 = countryOf(m.latitude, m.longitude, { nearestWithinKm: 50 })?.country_code3 ?? null;
    const gdp = countryGdp(iso3);
    return {
      name: project.name,
      address: m.address,
      country_code: m.country_code,
      resolution: res.text,
      resolution_km: res.km,
      distance: m.distance_km,
      coordinates: { latitude: m.latitude, longitude: m.longitude },
      subregion: m.subregion,
      portfolio_variables: [m.variable],
      duration_data: duration,
      duration_values: duration.map((k) => ({ key: labels.find((l) => l.value === k)?.key ?? k, value: k })),
      gdp: gdp?.value ?? null,
      gdp_year: gdp?.year ?? null,
      population: populationDensity(m.latitude, m.longitude),
      bounding_box: box,
      cells,
      ...stats,
      created_at: new Date(project.created_at).toISOString(),
      source:
        'Hazard layers of @crp/hazards (docs/methodology.md); population density GPW v4.11 2020 (CIESIN, CC BY 4.0); GDP World Bank WDI NY.GDP.MKTP.CD (CC BY 4.0).',
    };
  }

  /** MapValue (spec 001 §3.11): the values at a clicked point. */
  async pointValue(q: { latitude: number; longitude: number; variable: MapVariable; duration_data?: string }): Promise<MapValueResponse> {
    const layers = await this.layers();
    const hazard = MAP_VARIABLE_KEYS[q.variable];
    const key = q.duration_data || (hazard === 'wildfire' ? '85_2050' : '100yr');
    const d = parseDataset(hazard, key);
    if (!d) throw badRequest(`duration_data: '${key}' is not a dataset of ${q.variable}.`, 'duration_data');
    const at = (ds: MapDataset) => {
      const v = new DatasetSampler(layers, ds).valueAt(q.latitude, q.longitude);
      return Number.isNaN(v) ? null : round4(v);
    };
    const value = at(d);
    const variants = (sy: '00_2020' | '85_2030' | '85_2050'): number | null => {
      if (d.hazard === 'wildfire') return at({ hazard: 'wildfire', scenarioYear: sy });
      // flood-type: the chosen return period at that scenario-year (the layers apply the CMIP6 change at query time)
      const v = new DatasetSampler(layers, d, { scenario: '85', year: Number(sy.slice(3)) }).valueAt(q.latitude, q.longitude);
      return Number.isNaN(v) ? null : round4(v);
    };
    const terrain = terrainAt(layers, q.latitude, q.longitude);
    return {
      hand: terrain.hand,
      elevation: terrain.elevation,
      no_of_days: null,
      slope: terrain.slope,
      flood: hazard === 'wildfire' ? null : value,
      value,
      value_00_2020: variants('00_2020'),
      value_85_2030: variants('85_2030'),
      value_85_2050: variants('85_2050'),
      unit: MAP_LEGENDS[hazard].unit,
      resolution_km: this.resolution(layers, hazard).km,
    };
  }

  /** The country a search text names ("Vietnam", "Viet Nam", "UK"), with its representative point, or null. */
  detectCountry(q: string) {
    const c = detectCountry(q);
    return { country: c ? { country_code: c.country_code, name: c.name, latitude: c.lat, longitude: c.lng } : null };
  }

  list(caller: AuthUser) {
    return this.repo.list(caller);
  }

  /** downloadMap: an Excel file of the map's numbers; future rows at scenario 85, year 2050 by default. */
  async download(caller: AuthUser, projectName: string, scenario: '26' | '45' | '85' = MAP_DOWNLOAD_SCENARIO, year = MAP_DOWNLOAD_YEAR) {
    const { project, role, m } = await this.load(caller, projectName, 'project_name');
    assertCan(role, 'download', project.name);
    const r = await this.generate(caller, project.name);
    const layers = await this.layers();
    const hazard = MAP_VARIABLE_KEYS[m.variable];
    const res = this.resolution(layers, hazard);
    const box = boundingBox(m.latitude, m.longitude, m.distance_km);
    const rows: Record<string, unknown>[] = [];
    for (const key of r.duration_data) {
      const d = parseDataset(hazard, key);
      if (!d) continue;
      const label = r.duration_values.find((v) => v.value === key)?.key ?? key;
      if (d.hazard === 'wildfire') {
        const [s, y] = d.scenarioYear.split('_');
        rows.push({
          Dataset: label,
          Scenario: s === '00' ? 'Baseline' : `SSP ${s![0]}.${s![1]}`,
          Year: Number(y),
          Unit: '% per year',
          Average: r.wildfire.average[key],
          Max: r.wildfire.max[key],
          Min: r.wildfire.min[key],
        });
        continue;
      }
      rows.push({
        Dataset: label,
        Scenario: 'Baseline',
        Year: 2020,
        Unit: 'm',
        Average: r[hazard].average[key],
        Max: r[hazard].max[key],
        Min: r[hazard].min[key],
      });
      const futSampler = new DatasetSampler(layers, d, { scenario, year });
      const s = boxStats(futSampler, res.resDeg, box);
      rows.push({ Dataset: label, Scenario: `SSP ${scenario[0]}.${scenario[1]}`, Year: year, Unit: 'm', Average: s.average, Max: s.max, Min: s.min });
    }
    const about = [
      ['Map', r.name],
      ['Address', r.address],
      ['Latitude', r.coordinates.latitude],
      ['Longitude', r.coordinates.longitude],
      ['Country code', r.country_code ?? ''],
      ['Subregion', r.subregion ?? ''],
      ['Variable', m.variable],
      ['Distance', `${r.distance} km x ${r.distance} km`],
      ['Bounding box (W, S, E, N)', [box.west, box.south, box.east, box.north].map((v) => v.toFixed(5)).join(', ')],
      ['Resolution', r.resolution],
      ['Population density (people/sqkm)', r.population ?? ''],
      [`GDP (current US$, ${r.gdp_year ?? 'n/a'})`, r.gdp ?? ''],
      ['Sources', r.source],
      ['Generated', new Date().toISOString()],
    ];
    const wb = XLSX.utils.book_new();
    const header = ['Dataset', 'Scenario', 'Year', 'Unit', 'Average', 'Max', 'Min'];
    const ws = XLSX.utils.json_to_sheet(
      rows.map((row) => Object.fromEntries(header.map((h) => [h, safeCell(row[h])]))),
      { header },
    );
    ws['!cols'] = header.map((h) => ({ wch: h === 'Dataset' ? 26 : 12 }));
    XLSX.utils.book_append_sheet(wb, ws, 'Map results');
    const wa = XLSX.utils.aoa_to_sheet(about.map(([k, v]) => [k, safeCell(v)]));
    wa['!cols'] = [{ wch: 32 }, { wch: 80 }];
    XLSX.utils.book_append_sheet(wb, wa, 'About');
    const data = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return this.files.save(caller.id, `${project.name}_map_${stamp}.xlsx`, XLSX_TYPE, data);
  }
}

const HAZARD_SLR = HAZARD_KEYS.indexOf('sea_level_rise');

/**
 * Terrain at a point from the hazard layers (adapter over @crp/hazards `layer()`; nothing is edited there):
 * HAND from `river_hand` (5', m above the bankfull level of the governing river; null outside every river's 1,000-yr stage),
 * elevation from the ETOPO5 cells of `coast_elevation` (stored only in coastal 1° tiles, so null inland) and the slope
 * (degrees) of those 5' cells by central differences inside the tile. Screening-grade: 5' cells are about 9 km wide.
 */
export function terrainAt(layers: HazardLayers, lat: number, lng: number): { hand: number | null; elevation: number | null; slope: number | null } {
  const r5 = Math.min(2159, Math.max(0, Math.floor((90 - lat) * 12)));
  let c5 = Math.floor((lng + 180) * 12) % 4320;
  if (c5 < 0) c5 += 4320;
  const handL = layers.layer('river_hand');
  let hand: number | null = null;
  if (handL) {
    const raw = handL.data[r5 * handL.entry.grid.width + c5]!;
    hand = raw === handL.entry.nodata ? null : raw * handL.entry.scale + handL.entry.offset;
  }
  const idxL = layers.layer('coast_tile_index'),
    elevL = layers.layer('coast_elevation');
  if (!idxL || !elevL) return { hand, elevation: null, slope: null };
  const tr = Math.floor(r5 / 12),
    tc = Math.floor(c5 / 12);
  const ti = idxL.data[tr * 360 + tc]!;
  if (ti < 0) return { hand, elevation: null, slope: null };
  const a = r5 - tr * 12,
    b = c5 - tc * 12;
  const base = ti * 144;
  const z = (aa: number, bb: number) => elevL.data[base + aa * 12 + bb]! * elevL.entry.scale + elevL.entry.offset;
  const elevation = z(a, b);
  const cellM = M_PER_DEG_LAT / 12;
  const a0 = Math.max(0, a - 1),
    a1 = Math.min(11, a + 1),
    b0 = Math.max(0, b - 1),
    b1 = Math.min(11, b + 1);
  const dzdy = (z(a0, b) - z(a1, b)) / ((a1 - a0) * cellM);
  const dzdx = (z(a, b1) - z(a, b0)) / ((b1 - b0) * cellM * Math.cos((lat * Math.PI) / 180));
  const slope = Math.round(((Math.atan(Math.hypot(dzdx, dzdy)) * 180) / Math.PI) * 100) / 100;
  return { hand, elevation, slope };
}
