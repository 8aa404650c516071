import type { Feature, FeatureCollection } from 'geojson';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from 'pmtiles';

/**
 * A minimal PMTiles v3 archive writer for tests (spec: github.com/protomaps/PMTiles spec/v3/spec.md): one root
 * directory, no leaf directories, no compression, vector tiles (MVT) made from GeoJSON layers with geojson-vt and
 * vt-pbf (the encoders MapLibre itself uses). Enough for a few hundred tiles, which is all a test needs.
 */
export type Layers = Record<string, FeatureCollection>;

function varint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

const lonToX = (lon: number, z: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
const latToY = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};

/** The MVT tiles of `layers` at zooms minZoom..maxZoom over the box [west, south, east, north]. */
export function vectorTiles(
  layers: Layers,
  bbox: [number, number, number, number],
  minZoom: number,
  maxZoom: number,
): { z: number; x: number; y: number; data: Uint8Array }[] {
  const indexes = Object.entries(layers).map(
    ([name, fc]) => [name, new GeoJSONVT(fc, { maxZoom, indexMaxZoom: maxZoom, extent: 4096, buffer: 64, tolerance: 1 })] as const,
  );
  const tiles: { z: number; x: number; y: number; data: Uint8Array }[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    for (let x = lonToX(bbox[0], z); x <= lonToX(bbox[2], z); x++) {
      for (let y = latToY(bbox[3], z); y <= latToY(bbox[1], z); y++) {
        const present: Record<string, NonNullable<ReturnType<GeoJSONVT['getTile']>>> = {};
        for (const [name, index] of indexes) {
          const t = index.getTile(z, x, y);
          if (t && t.features.length) present[name] = t;
        }
        if (Object.keys(present).length) tiles.push({ z, x, y, data: fromGeojsonVt(present, { version: 2, extent: 4096 }) });
      }
    }
  }
  return tiles;
}

/** A PMTiles v3 archive of vector tiles (tile type MVT, compression none). */
export function pmtilesArchive(
  tiles: { z: number; x: number; y: number; data: Uint8Array }[],
  bbox: [number, number, number, number],
  metadata: object = {},
): Buffer {
  const entries = tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), data: t.data })).sort((a, b) => a.id - b.id);
  let offset = 0;
  const dirEntries = entries.map((e) => {
    const d = { id: e.id, offset, length: e.data.length };
    offset += e.data.length;
    return d;
  });
  const dir: number[] = [];
  varint(dir, dirEntries.length);
  let last = 0;
  for (const e of dirEntries) {
    varint(dir, e.id - last);
    last = e.id;
  }
  for (const _ of dirEntries) varint(dir, 1); // run length 1
  for (const e of dirEntries) varint(dir, e.length);
  dirEntries.forEach((e, i) => varint(dir, i > 0 && e.offset === dirEntries[i - 1]!.offset + dirEntries[i - 1]!.length ? 0 : e.offset + 1));
  const root = Buffer.from(dir);
  const meta = Buffer.from(JSON.stringify(metadata));
  const data = Buffer.concat(entries.map((e) => Buffer.from(e.data)));
  const h = Buffer.alloc(127);
  h.write('PMTiles', 0, 'ascii');
  h.writeUInt8(3, 7);
  const u64 = (pos: number, v: number) => h.writeBigUInt64LE(BigInt(v), pos);
  const rootOffset = 127;
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, rootOffset + root.length);
  u64(32, meta.length);
  u64(40, rootOffset + root.length + meta.length);
  u64(48, 0);
  u64(56, rootOffset + root.length + meta.length);
  u64(64, data.length);
  u64(72, entries.length);
  u64(80, entries.length);
  u64(88, entries.length);
  h.writeUInt8(1, 96); // clustered: entries in tile-id order, data in the same order
  h.writeUInt8(1, 97); // internal compression: none
  h.writeUInt8(1, 98); // tile compression: none
  h.writeUInt8(1, 99); // tile type: MVT
  const zooms = tiles.map((t) => t.z);
  h.writeUInt8(Math.min(...zooms), 100);
  h.writeUInt8(Math.max(...zooms), 101);
  const e7 = (v: number) => Math.round(v * 1e7);
  h.writeInt32LE(e7(bbox[0]), 102);
  h.writeInt32LE(e7(bbox[1]), 106);
  h.writeInt32LE(e7(bbox[2]), 110);
  h.writeInt32LE(e7(bbox[3]), 114);
  h.writeUInt8(Math.max(...zooms), 118);
  h.writeInt32LE(e7((bbox[0] + bbox[2]) / 2), 119);
  h.writeInt32LE(e7((bbox[1] + bbox[3]) / 2), 123);
  return Buffer.concat([h, root, meta, data]);
}

/**
 * A small street grid around a point: buildings (a block every ~200 m), roads between them and a pond, in the
 * Protomaps basemap layer names (`buildings`, `roads`, `water`).
 */
export function streetGrid(center: [number, number], halfSizeDeg: number): Layers {
  const [cx, cy] = center;
  const step = 0.002;
  const buildings: Feature[] = [];
  const roads: Feature[] = [];
  for (let x = cx - halfSizeDeg; x <= cx + halfSizeDeg; x += step) {
    roads.push({
      type: 'Feature',
      properties: { kind: 'major_road' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [x, cy - halfSizeDeg],
          [x, cy + halfSizeDeg],
        ],
      },
    });
    for (let y = cy - halfSizeDeg; y <= cy + halfSizeDeg; y += step) {
      const [a, b, c, d] = [x + step * 0.2, y + step * 0.2, x + step * 0.8, y + step * 0.8];
      buildings.push({
        type: 'Feature',
        properties: { kind: 'building' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [a, b],
              [c, b],
              [c, d],
              [a, d],
              [a, b],
            ],
          ],
        },
      });
    }
  }
  for (let y = cy - halfSizeDeg; y <= cy + halfSizeDeg; y += step) {
    roads.push({
      type: 'Feature',
      properties: { kind: 'minor_road' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [cx - halfSizeDeg, y],
          [cx + halfSizeDeg, y],
        ],
      },
    });
  }
  return {
    buildings: { type: 'FeatureCollection', features: buildings },
    roads: { type: 'FeatureCollection', features: roads },
    water: { type: 'FeatureCollection', features: [] },
  };
}
