/**
 * Builds the full-resolution coastline and water of the offline basemap into apps/web/public/basemap/coast.pmtiles
 * (committed output; docs/maps.md "Offline coastline").
 *
 *   npm run build:coastline             # reads /usr/share/gmt-gshhg/binned_GSHHS_f.nc (Debian gmt-gshhg-full)
 *   GSHHG_FILE=/path/binned_GSHHS_f.nc npm run build:coastline
 *
 * Input: GSHHG 2.3.7 (Wessel & Smith; LGPL-3), full resolution, in GMT's binned netCDF-4 format: the shoreline
 * polygons are cut into 1° bins; each segment carries its polygon's id (`Id_of_GSHHS_ID`), its level (1 land,
 * 2 lake, 3 island in a lake, 4 pond in such an island) and its points as 1/65535° offsets from the bin's south-west
 * corner. The script joins each polygon's segments back into whole rings (a segment that leaves a bin ends on the
 * point where the next one begins), then cuts Mapbox vector tiles with geojson-vt (layer `coast`, one feature per
 * ring, property `l` = level) and writes a PMTiles v3 archive (gzip tiles, identical tiles stored once, leaf
 * directories). Zooms MIN_ZOOM..MAX_ZOOM; MapLibre over-zooms the MAX_ZOOM tiles beyond. The simplification and the
 * size budget are explained at COARSE below and in docs/decisions.md "Offline coastline: GSHHG full resolution, zooms 6-9, 30 MB".
 *
 * When the GSHHG file is absent (package not installed) the script says so and exits 0 without touching the
 * committed archive, so a fresh clone keeps working from the committed tiles.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Feature, FeatureCollection, Polygon } from 'geojson';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import h5wasm from 'h5wasm/node';
import { zxyToTileId } from 'pmtiles';

const FILE = process.env.GSHHG_FILE ?? '/usr/share/gmt-gshhg/binned_GSHHS_f.nc';
const OUT = process.env.COAST_OUT ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'basemap', 'coast.pmtiles');
/** Lowest zoom in the archive (the style draws Natural Earth below it). */
const MIN_ZOOM = Number(process.env.COAST_MIN_ZOOM ?? 6);
/** Highest zoom in the archive: MapLibre over-zooms these tiles (docs/maps.md gives the measured sizes). */
const MAX_ZOOM = Number(process.env.COAST_MAX_ZOOM ?? 9);
/** Blocks processed one at a time (memory): the tiles of zoom BLOCK_ZOOM. */
const BLOCK_ZOOM = 3;
const EXTENT = 4096;
const BUFFER = 64;
/**
 * geojson-vt simplification in tile units (4,096 across a tile, drawn 512 px wide: 8 units are one pixel) at zooms
 * below MAX_ZOOM, where one pixel loses nothing visible. geojson-vt does not simplify at its maxZoom, so the MAX_ZOOM
 * tiles, which MapLibre over-zooms to street zoom, keep every GSHHG point (to 1/4,096 of a tile: about 19 m at
 * zoom 9 at the equator). Sizes per zoom: docs/decisions.md "Offline coastline: GSHHG full resolution, zooms 6-9, 30 MB".
 */
const COARSE = Number(process.env.COAST_COARSE ?? 8);
/** Optional box [west, south, east, north] (tests and trials). */
const BBOX = process.env.COAST_BBOX ? (process.env.COAST_BBOX.split(',').map(Number) as [number, number, number, number]) : null;

if (!existsSync(FILE)) {
  console.log(`build-coastline: ${FILE} not found (Debian package gmt-gshhg-full not installed): skipped; the committed ${OUT} is kept.`);
  process.exit(0);
}

await h5wasm.ready;
const f = new h5wasm.File(FILE, 'r');
function arr<T>(name: string): T {
  const d = f.get(name) as { value: unknown } | null;
  if (!d) throw new Error(`${FILE}: variable ${name} missing (not a GMT binned GSHHG file?)`);
  return d.value as T;
}
const binSizeMin = (arr<Int32Array>('Bin_size_in_minutes') as Int32Array)[0]!;
const binNx = (arr<Int32Array>('N_bins_in_360_longitude_range') as Int32Array)[0]!;
const binDeg = binSizeMin / 60;
const firstSeg = arr<Int32Array>('Id_of_first_segment_in_a_bin');
const nSegBin = arr<Int16Array>('N_segments_in_a_bin');
const segInfo = arr<Int32Array>('Embedded_npts_levels_exit_entry_for_a_segment');
const segStart = arr<Int32Array>('Id_of_first_point_in_a_segment');
const segId = arr<Int32Array>('Id_of_GSHHS_ID');
const segAnt = arr<Int8Array>('Embedded_ANT_flag');
const dxAll = arr<Int16Array>('Relative_longitude_from_SW_corner_of_bin');
const dyAll = arr<Int16Array>('Relative_latitude_from_SW_corner_of_bin');
const version = String((f.attrs['version'] as { value: unknown } | undefined)?.value ?? '?');
f.close();
console.log(`GSHHG ${version}: ${nSegBin.length} bins of ${binDeg}°, ${segInfo.length} segments, ${dxAll.length} points`);

/**
 * A segment in integer units (1/65535 of a bin) on a grid continuous in longitude 0..360°: x = column * 65535 + dx,
 * y = row-from-south * 65535 + dy. Keys match a segment's end to the next one's start (longitude modulo 360°).
 */
type Seg = { id: number; level: number; xs: Int32Array; ys: Int32Array; used: boolean };
const U = 65535;
const WRAP = binNx * U;
const key = (x: number, y: number) => (((x % WRAP) + WRAP) % WRAP) + y * WRAP;
const binNy = nSegBin.length / binNx;
const byPolygon = new Map<number, Seg[]>();
for (let b = 0; b < nSegBin.length; b++) {
  const col = b % binNx;
  const rowFromSouth = binNy - 1 - Math.floor(b / binNx);
  for (let s = firstSeg[b]!; s < firstSeg[b]! + nSegBin[b]!; s++) {
    const info = segInfo[s]!;
    const n = info >>> 9;
    let level = (info >> 6) & 7;
    if (level > 4) level = 1;
    // Antarctica is stored twice (ice front and grounding line): keep the ice front, as GMT does by default.
    if (segAnt[s] && level === 1 && segId[s] !== undefined && isGroundingLine(segId[s]!)) continue;
    const xs = new Int32Array(n);
    const ys = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = col * U + (dxAll[segStart[s]! + i]! & 0xffff);
      ys[i] = rowFromSouth * U + (dyAll[segStart[s]! + i]! & 0xffff);
    }
    const list = byPolygon.get(segId[s]!) ?? [];
    list.push({ id: segId[s]!, level, xs, ys, used: false });
    byPolygon.set(segId[s]!, list);
  }
}
/** GSHHG 2.3.x ids 4 (Antarctica, ice front) and 5 (Antarctica, grounding line); we keep 4. */
function isGroundingLine(id: number): boolean {
  return id === 5;
}

/** Joins a polygon's segments into rings (lon/lat degrees, longitude continuous along the ring). */
function rings(segs: Seg[]): { ring: number[][]; closed: boolean }[] {
  const starts = new Map<number, Seg[]>();
  for (const s of segs) {
    const k = key(s.xs[0]!, s.ys[0]!);
    const l = starts.get(k) ?? [];
    l.push(s);
    starts.set(k, l);
  }
  const out: { ring: number[][]; closed: boolean }[] = [];
  for (const first of segs) {
    if (first.used) continue;
    first.used = true;
    const ring: number[][] = [];
    let shift = 0; // multiple of WRAP added so longitudes stay continuous
    let seg: Seg | undefined = first;
    let closed = false;
    while (seg) {
      for (let i = ring.length ? 1 : 0; i < seg.xs.length; i++) ring.push([((seg.xs[i]! + shift) / U) * binDeg, (seg.ys[i]! / U) * binDeg - 90]);
      const ex = seg.xs[seg.xs.length - 1]!;
      const ey = seg.ys[seg.ys.length - 1]!;
      if (key(ex, ey) === key(first.xs[0]!, first.ys[0]!) && ring.length > 3) {
        closed = true;
        break;
      }
      const next: Seg | undefined = (starts.get(key(ex, ey)) ?? []).find((c) => !c.used);
      if (!next) break;
      next.used = true;
      shift = ex + shift - next.xs[0]!; // the join point stays where it is (a multiple of 360° apart at most)
      seg = next;
    }
    out.push({ ring, closed });
  }
  return out;
}

const features: Feature<Polygon, { l: number }>[] = [];
let open = 0;
for (const segs of byPolygon.values()) {
  for (const { ring, closed } of rings(segs)) {
    if (ring.length < 3) continue;
    const lon0 = ring[0]![0]!;
    const lonN = ring[ring.length - 1]![0]!;
    if (!closed) {
      // A ring around the globe (Antarctica): close it along the map's southern edge.
      if (Math.abs(lonN - lon0) > 350) ring.push([lonN, -89.9], [lon0, -89.9]);
      else open++;
    }
    ring.push([...ring[0]!]);
    let min = Infinity;
    for (const p of ring) min = Math.min(min, p[0]!);
    const off = min >= 180 ? -360 : 0;
    if (off) for (const p of ring) p[0]! += off;
    features.push({ type: 'Feature', properties: { l: segs[0]!.level }, geometry: { type: 'Polygon', coordinates: [ring] } });
  }
}
console.log(`${features.length} rings (${open} left open and closed straight)`);

// ---- tiles ----
const lonToX = (lon: number, z: number) => ((lon + 180) / 360) * 2 ** z;
const latToY = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z;
};
const xToLon = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const yToLat = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

function bboxOf(ft: Feature<Polygon>): [number, number, number, number] {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (const [x, y] of ft.geometry.coordinates[0]!) {
    if (x! < w) w = x!;
    if (x! > e) e = x!;
    if (y! < s) s = y!;
    if (y! > n) n = y!;
  }
  return [w, s, e, n];
}
const boxes = features.map(bboxOf);

const tileData = new Map<string, { data: Buffer }>();
const entries: { id: number; hash: string }[] = [];
function store(z: number, x: number, y: number, raw: Uint8Array): string {
  const hash = createHash('sha1').update(raw).digest('hex');
  if (!tileData.has(hash)) tileData.set(hash, { data: gzipSync(raw, { level: 9 }) });
  entries.push({ id: zxyToTileId(z, x, y), hash });
  return hash;
}
/** A tile that is one land square (no coast inside): every tile below it is the same square. */
function isSolid(t: { features: { type: number; geometry: unknown; tags: Record<string, unknown> }[] }): number | null {
  if (t.features.length !== 1) return null;
  const ft = t.features[0]!;
  const g = ft.geometry as number[][][];
  if (ft.type !== 3 || g.length !== 1) return null;
  const ring = g[0]!;
  for (const p of ring) {
    const [x, y] = Array.isArray(p) ? (p as number[]) : [0, 0];
    if (!((x === -BUFFER || x === EXTENT + BUFFER) && (y === -BUFFER || y === EXTENT + BUFFER))) return null;
  }
  return Number(ft.tags['l']);
}

const bn = 2 ** BLOCK_ZOOM;
let tilesWritten = 0;
for (let bx = 0; bx < bn; bx++) {
  for (let by = 0; by < bn; by++) {
    const w = xToLon(bx, BLOCK_ZOOM),
      e = xToLon(bx + 1, BLOCK_ZOOM),
      n = yToLat(by, BLOCK_ZOOM),
      s = yToLat(by + 1, BLOCK_ZOOM);
    if (BBOX && (BBOX[0] > e || BBOX[2] < w || BBOX[1] > n || BBOX[3] < s)) continue;
    const pad = (e - w) * 0.05;
    const inBlock = features.filter((_, i) => {
      const [fw, fs, fe, fn] = boxes[i]!;
      const hit = (o: number) => fw + o <= e + pad && fe + o >= w - pad && fs <= n + pad && fn >= s - pad;
      return hit(0) || hit(360) || hit(-360);
    });
    if (!inBlock.length) continue;
    const fc: FeatureCollection = { type: 'FeatureCollection', features: inBlock };
    const options = { maxZoom: MAX_ZOOM, indexMaxZoom: BLOCK_ZOOM, indexMaxPoints: 0, extent: EXTENT, buffer: BUFFER };
    const index = new GeoJSONVT(fc, { ...options, tolerance: COARSE });
    const visit = (z: number, x: number, y: number): void => {
      if (BBOX) {
        const tw = xToLon(x, z),
          te = xToLon(x + 1, z),
          tn = yToLat(y, z),
          ts = yToLat(y + 1, z);
        if (BBOX[0] > te || BBOX[2] < tw || BBOX[1] > tn || BBOX[3] < ts) return;
      }
      const t = index.getTile(z, x, y);
      if (!t || !t.features.length) return; // open water: the style's background
      if (z >= MIN_ZOOM) {
        const raw = fromGeojsonVt({ coast: t }, { version: 2, extent: EXTENT });
        const hash = store(z, x, y, raw);
        tilesWritten++;
        if (isSolid(t as never) !== null) {
          // Same bytes for every tile below (the square is in tile coordinates): no need to cut them.
          for (let zz = z + 1; zz <= MAX_ZOOM; zz++) {
            const k = 2 ** (zz - z);
            for (let xx = x * k; xx < (x + 1) * k; xx++) for (let yy = y * k; yy < (y + 1) * k; yy++) entries.push({ id: zxyToTileId(zz, xx, yy), hash });
          }
          return;
        }
      }
      if (z < MAX_ZOOM)
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ] as const)
          visit(z + 1, 2 * x + dx, 2 * y + dy);
    };
    visit(BLOCK_ZOOM, bx, by);
    process.stdout.write(
      `${new Date().toISOString().slice(11, 19)} block ${bx},${by}: ${inBlock.length} rings, ${entries.length} tiles so far, ${tileData.size} distinct\n`,
    );
  }
}
console.log(`${tilesWritten} tiles cut, ${entries.length} tile entries, ${tileData.size} distinct`);

// ---- PMTiles v3 (spec: github.com/protomaps/PMTiles spec/v3/spec.md) ----
entries.sort((a, b) => a.id - b.id);
const offsets = new Map<string, { offset: number; length: number }>();
const chunks: Buffer[] = [];
let dataLen = 0;
for (const e of entries) {
  if (offsets.has(e.hash)) continue;
  const d = tileData.get(e.hash)!.data;
  offsets.set(e.hash, { offset: dataLen, length: d.length });
  chunks.push(d);
  dataLen += d.length;
}
type DirEntry = { id: number; offset: number; length: number; run: number };
const runs: DirEntry[] = [];
for (const e of entries) {
  const o = offsets.get(e.hash)!;
  const last = runs[runs.length - 1];
  if (last && last.run > 0 && last.offset === o.offset && last.id + last.run === e.id) last.run++;
  else runs.push({ id: e.id, offset: o.offset, length: o.length, run: 1 });
}
function varint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}
function serialize(dir: DirEntry[]): Buffer {
  const b: number[] = [];
  varint(b, dir.length);
  let last = 0;
  for (const e of dir) {
    varint(b, e.id - last);
    last = e.id;
  }
  for (const e of dir) varint(b, e.run);
  for (const e of dir) varint(b, e.length);
  dir.forEach((e, i) => varint(b, i > 0 && e.offset === dir[i - 1]!.offset + dir[i - 1]!.length ? 0 : e.offset + 1));
  return gzipSync(Buffer.from(b), { level: 9 });
}
let root = serialize(runs);
let leaves = Buffer.alloc(0);
if (root.length > 16384 - 127) {
  const leafSize = 4096;
  const rootDir: DirEntry[] = [];
  const leafBufs: Buffer[] = [];
  let off = 0;
  for (let i = 0; i < runs.length; i += leafSize) {
    const leaf = serialize(runs.slice(i, i + leafSize));
    rootDir.push({ id: runs[i]!.id, offset: off, length: leaf.length, run: 0 });
    leafBufs.push(leaf);
    off += leaf.length;
  }
  root = serialize(rootDir);
  leaves = Buffer.concat(leafBufs);
}
const [bw, bs, be, bnn] = BBOX ?? [-180, -85.0511, 180, 85.0511];
const meta = Buffer.from(
  JSON.stringify({
    name: 'GSHHG full-resolution shorelines',
    attribution: 'Coastline: GSHHG 2.3.7 (Wessel & Smith, LGPL)',
    description: `GSHHG ${version} full resolution, layer coast: one polygon per shoreline ring, l = 1 land, 2 lake, 3 island in lake, 4 pond`,
    vector_layers: [{ id: 'coast', fields: { l: 'Number' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM }],
  }),
);
const metaGz = gzipSync(meta);
const h = Buffer.alloc(127);
h.write('PMTiles', 0, 'ascii');
h.writeUInt8(3, 7);
const u64 = (pos: number, v: number) => h.writeBigUInt64LE(BigInt(v), pos);
const rootOff = 127;
const metaOff = rootOff + root.length;
const leafOff = metaOff + metaGz.length;
const dataOff = leafOff + leaves.length;
u64(8, rootOff);
u64(16, root.length);
u64(24, metaOff);
u64(32, metaGz.length);
u64(40, leafOff);
u64(48, leaves.length);
u64(56, dataOff);
u64(64, dataLen);
u64(72, entries.length);
u64(80, runs.length);
u64(88, offsets.size);
h.writeUInt8(0, 96); // not clustered (identical tiles share one offset)
h.writeUInt8(2, 97); // internal compression: gzip
h.writeUInt8(2, 98); // tile compression: gzip
h.writeUInt8(1, 99); // tile type: MVT
h.writeUInt8(MIN_ZOOM, 100);
h.writeUInt8(MAX_ZOOM, 101);
const e7 = (v: number) => Math.round(v * 1e7);
h.writeInt32LE(e7(bw), 102);
h.writeInt32LE(e7(bs), 106);
h.writeInt32LE(e7(be), 110);
h.writeInt32LE(e7(bnn), 114);
h.writeUInt8(MIN_ZOOM, 118);
h.writeInt32LE(e7(114.17), 119);
h.writeInt32LE(e7(22.29), 123);
const out = Buffer.concat([h, root, metaGz, leaves, ...chunks]);
writeFileSync(OUT, out);
console.log(
  `wrote ${OUT}: ${(out.length / 1e6).toFixed(2)} MB (${entries.length} tiles, ${runs.length} directory runs, ${offsets.size} distinct tiles, ${(dataLen / 1e6).toFixed(2)} MB tile data)`,
);
void latToY;
void lonToX;
