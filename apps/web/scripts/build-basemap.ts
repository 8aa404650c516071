/**
 * Builds the offline basemap of the /location map into apps/web/public/basemap/ (committed output).
 *
 *   npx tsx apps/web/scripts/build-basemap.ts        # raw data from $BASEMAP_RAW_DIR, default /work/shared/data
 *
 * Inputs (see each folder's SOURCE.md):
 *  - country_boundaries_natural_earth/land-50m.json, countries-50m.json  (world-atlas 2.0.2 TopoJSON, Natural Earth 4.1.0)
 *  - natural-earth/ne_50m_lakes.geojson.gz, ne_50m_rivers_lake_centerlines.geojson.gz  (Natural Earth 1:50m)
 *  - world-basemap-rasters/nasa-topo_2048.jpg  (NASA colour-shaded topography/bathymetry, equirectangular)
 * Outputs:
 *  - land.geojson, lakes.geojson, rivers.geojson, borders.geojson: geometry only, coordinates rounded to 0.01°
 *  - relief.jpg: the relief raster reprojected to Web Mercator (±85.0511°) so a MapLibre image source can place it
 *    with its four corners; 2048 x 2048 px.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { feature, mesh } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';

const RAW = process.env.BASEMAP_RAW_DIR ?? '/work/shared/data';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'basemap');
const DECIMALS = 2;
const RELIEF_SIZE = 2048;
const MAX_LAT = 85.0511287798066;

type Position = number[];
type Geometry = { type: string; coordinates?: unknown; geometries?: Geometry[] };
type Feature = { type: 'Feature'; properties: Record<string, unknown> | null; geometry: Geometry | null };
type FeatureCollection = { type: 'FeatureCollection'; features: Feature[] };

const factor = 10 ** DECIMALS;
const round = (n: number) => Math.round(n * factor) / factor;

/** Rounds coordinates and drops consecutive duplicate points (and rings/lines that collapse). */
function simplifyCoords(c: unknown, depth: number, minPoints: number): unknown {
  if (depth === 0) {
    const out: Position[] = [];
    for (const p of c as Position[]) {
      const q = [round(p[0]!), round(p[1]!)];
      const last = out[out.length - 1];
      if (!last || last[0] !== q[0] || last[1] !== q[1]) out.push(q);
    }
    return out.length >= minPoints ? out : null;
  }
  const parts = (c as unknown[]).map((x) => simplifyCoords(x, depth - 1, minPoints)).filter((x) => x !== null);
  return parts.length ? parts : null;
}

const DEPTH: Record<string, [number, number]> = { LineString: [0, 2], MultiLineString: [1, 2], Polygon: [1, 4], MultiPolygon: [2, 4] };

function compact(fc: FeatureCollection, keep: (f: Feature) => boolean = () => true): FeatureCollection {
  const features: Feature[] = [];
  for (const f of fc.features) {
    if (!f.geometry || !keep(f)) continue;
    const geoms = f.geometry.type === 'GeometryCollection' ? (f.geometry.geometries ?? []) : [f.geometry];
    for (const g of geoms) {
      const d = DEPTH[g.type];
      if (!d) continue;
      const coordinates = simplifyCoords(g.coordinates, d[0], d[1]);
      if (coordinates) features.push({ type: 'Feature', properties: {}, geometry: { type: g.type, coordinates } });
    }
  }
  return { type: 'FeatureCollection', features };
}

function readJson<T>(path: string): T {
  const buf = readFileSync(path);
  return JSON.parse((path.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8')) as T;
}

function write(name: string, fc: FeatureCollection): void {
  const text = JSON.stringify(fc);
  writeFileSync(join(OUT, name), text);
  console.log(`${name}: ${fc.features.length} features, ${(text.length / 1024).toFixed(0)} KB`);
}

/** Equirectangular (lon -180..180, lat 90..-90) to Web Mercator, bilinear sampling. */
function reprojectToMercator(src: { width: number; height: number; data: Uint8Array }, size: number): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const sample = (x: number, y: number, c: number) => src.data[(y * src.width + x) * 4 + c]!;
  for (let j = 0; j < size; j++) {
    const yMerc = Math.PI * (1 - (2 * (j + 0.5)) / size);
    const lat = (Math.atan(Math.sinh(yMerc)) * 180) / Math.PI;
    const sy = Math.min(src.height - 1.001, Math.max(0, ((90 - lat) / 180) * src.height - 0.5));
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    for (let i = 0; i < size; i++) {
      const sx = Math.min(src.width - 1.001, Math.max(0, ((i + 0.5) / size) * src.width - 0.5));
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      for (let c = 0; c < 3; c++) {
        const v =
          sample(x0, y0, c) * (1 - fx) * (1 - fy) +
          sample(x0 + 1, y0, c) * fx * (1 - fy) +
          sample(x0, y0 + 1, c) * (1 - fx) * fy +
          sample(x0 + 1, y0 + 1, c) * fx * fy;
        out[(j * size + i) * 4 + c] = Math.round(v);
      }
      out[(j * size + i) * 4 + 3] = 255;
    }
  }
  return out;
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  const boundaries = join(RAW, 'country_boundaries_natural_earth');
  const ne = join(RAW, 'natural-earth');

  const landTopo = readJson<Topology>(join(boundaries, 'land-50m.json'));
  write('land.geojson', compact(feature(landTopo, landTopo.objects.land as GeometryCollection) as unknown as FeatureCollection));

  const countriesTopo = readJson<Topology>(join(boundaries, 'countries-50m.json'));
  const countries = countriesTopo.objects.countries as GeometryCollection;
  const borders = mesh(countriesTopo, countries, (a, b) => a !== b);
  write('borders.geojson', compact({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: borders as Geometry }] }));

  write('lakes.geojson', compact(readJson<FeatureCollection>(join(ne, 'ne_50m_lakes.geojson.gz'))));
  write(
    'rivers.geojson',
    compact(readJson<FeatureCollection>(join(ne, 'ne_50m_rivers_lake_centerlines.geojson.gz')), (f) => f.properties?.featurecla !== 'Lake Centerline'),
  );

  const raw = jpeg.decode(readFileSync(join(RAW, 'world-basemap-rasters', 'nasa-topo_2048.jpg')), { useTArray: true, formatAsRGBA: true });
  const merc = reprojectToMercator(raw, RELIEF_SIZE);
  const encoded = jpeg.encode({ data: merc, width: RELIEF_SIZE, height: RELIEF_SIZE }, 82);
  writeFileSync(join(OUT, 'relief.jpg'), encoded.data);
  console.log(`relief.jpg: ${RELIEF_SIZE}x${RELIEF_SIZE} Web Mercator to ±${MAX_LAT.toFixed(4)}°, ${(encoded.data.length / 1024).toFixed(0)} KB`);
}

main();
