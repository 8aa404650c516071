/**
 * A Cloud-Optimised GeoTIFF writer for one Float32 band on a regular longitude/latitude grid (EPSG:4326).
 *
 * Layout (COG spec, https://docs.ogc.org/is/21-026/21-026.html, as GDAL's COG driver writes it): the 8-byte
 * little-endian TIFF header, then every IFD one after the other (full resolution first, then each overview, each
 * IFD followed by its out-of-line tag values), then the tile data, smallest overview first and full resolution last.
 * So a reader gets the whole structure with one range request at the start, and the coarse view before the detail.
 * Tiles are 256 x 256, deflate-compressed (Compression 8); overviews halve the size (mean of the valid cells) until
 * the image fits one tile. Georeferencing is in the first IFD: ModelPixelScale, ModelTiepoint and GeoKeys
 * (geographic model, pixel-is-area, EPSG:4326); GDAL_NODATA (42113) in every IFD.
 */
import { deflateSync } from 'node:zlib';

export interface CogInput {
  width: number;
  height: number;
  /** Row-major values, north row first; NaN = no data. */
  data: Float32Array;
  /** West edge of column 0 and north edge of row 0, degrees. */
  west: number;
  north: number;
  /** Cell size, degrees. */
  resDeg: number;
  /** Written where data is NaN, and as GDAL_NODATA. */
  nodata: number;
  description: string;
  tileSize?: number;
}

const SHORT = 3,
  LONG = 4,
  DOUBLE = 12,
  ASCII = 2;
const SIZE: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [DOUBLE]: 8, [ASCII]: 1 };
interface Entry {
  tag: number;
  type: number;
  values: number[] | string;
}

interface Level {
  width: number;
  height: number;
  data: Float32Array;
}

/** Halves a grid: each cell the mean of the valid cells of its 2 x 2 block (NaN when none is valid). */
export function halve(l: Level): Level {
  const w = Math.ceil(l.width / 2),
    h = Math.ceil(l.height / 2);
  const out = new Float32Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      let sum = 0,
        n = 0;
      for (let dr = 0; dr < 2; dr++) {
        const rr = 2 * r + dr;
        if (rr >= l.height) continue;
        for (let dc = 0; dc < 2; dc++) {
          const cc = 2 * c + dc;
          if (cc >= l.width) continue;
          const v = l.data[rr * l.width + cc]!;
          if (!Number.isNaN(v)) {
            sum += v;
            n++;
          }
        }
      }
      out[r * w + c] = n ? sum / n : NaN;
    }
  }
  return { width: w, height: h, data: out };
}

function tilesOf(l: Level, ts: number, nodata: number): Buffer[] {
  const across = Math.ceil(l.width / ts),
    down = Math.ceil(l.height / ts);
  const out: Buffer[] = [];
  const tile = new Float32Array(ts * ts);
  for (let tr = 0; tr < down; tr++) {
    for (let tc = 0; tc < across; tc++) {
      tile.fill(nodata);
      for (let r = 0; r < ts; r++) {
        const row = tr * ts + r;
        if (row >= l.height) break;
        for (let c = 0; c < ts; c++) {
          const col = tc * ts + c;
          if (col >= l.width) break;
          const v = l.data[row * l.width + col]!;
          tile[r * ts + c] = Number.isNaN(v) ? nodata : v;
        }
      }
      // Float32Array is little-endian on every platform Node runs on (x64, arm64), as the header says ("II").
      out.push(deflateSync(Buffer.from(tile.buffer.slice(0)), { level: 6 }));
    }
  }
  return out;
}

function entrySize(e: Entry): number {
  const n = typeof e.values === 'string' ? e.values.length + 1 : e.values.length;
  return n * SIZE[e.type]!;
}
function ifdSize(entries: Entry[]): number {
  let extra = 0;
  for (const e of entries) {
    const s = entrySize(e);
    if (s > 4) extra += s + (s % 2);
  }
  return 2 + entries.length * 12 + 4 + extra;
}

function writeIfd(buf: Buffer, at: number, entries: Entry[], next: number) {
  entries.sort((a, b) => a.tag - b.tag);
  buf.writeUInt16LE(entries.length, at);
  let extra = at + 2 + entries.length * 12 + 4;
  entries.forEach((e, i) => {
    const p = at + 2 + i * 12;
    const count = typeof e.values === 'string' ? e.values.length + 1 : e.values.length;
    buf.writeUInt16LE(e.tag, p);
    buf.writeUInt16LE(e.type, p + 2);
    buf.writeUInt32LE(count, p + 4);
    const size = entrySize(e);
    const target = size > 4 ? extra : p + 8;
    if (size > 4) {
      buf.writeUInt32LE(extra, p + 8);
      extra += size + (size % 2);
    }
    if (typeof e.values === 'string') {
      buf.write(e.values, target, 'latin1');
      buf[target + e.values.length] = 0;
      return;
    }
    e.values.forEach((v, k) => {
      if (e.type === SHORT) buf.writeUInt16LE(v, target + 2 * k);
      else if (e.type === LONG) buf.writeUInt32LE(v, target + 4 * k);
      else buf.writeDoubleLE(v, target + 8 * k);
    });
  });
  buf.writeUInt32LE(next, at + 2 + entries.length * 12);
}

/** The bytes of the COG. */
export function writeCog(input: CogInput): Buffer {
  const ts = input.tileSize ?? 256;
  const levels: Level[] = [{ width: input.width, height: input.height, data: input.data }];
  while (Math.max(levels.at(-1)!.width, levels.at(-1)!.height) > ts) levels.push(halve(levels.at(-1)!));
  const tiles = levels.map((l) => tilesOf(l, ts, input.nodata));
  const nodata = String(input.nodata);
  const entriesOf = (i: number, offsets: number[]): Entry[] => {
    const l = levels[i]!;
    const e: Entry[] = [
      { tag: 254, type: LONG, values: [i === 0 ? 0 : 1] }, // NewSubfileType: 1 = reduced-resolution image
      { tag: 256, type: LONG, values: [l.width] },
      { tag: 257, type: LONG, values: [l.height] },
      { tag: 258, type: SHORT, values: [32] },
      { tag: 259, type: SHORT, values: [8] }, // Deflate
      { tag: 262, type: SHORT, values: [1] }, // BlackIsZero
      { tag: 277, type: SHORT, values: [1] },
      { tag: 284, type: SHORT, values: [1] },
      { tag: 322, type: LONG, values: [ts] },
      { tag: 323, type: LONG, values: [ts] },
      { tag: 324, type: LONG, values: offsets },
      { tag: 325, type: LONG, values: tiles[i]!.map((t) => t.length) },
      { tag: 339, type: SHORT, values: [3] }, // IEEE float
      { tag: 42113, type: ASCII, values: nodata },
    ];
    if (i === 0) {
      e.push(
        { tag: 270, type: ASCII, values: input.description.replace(/[^\x20-\x7e]/g, '?') },
        { tag: 33550, type: DOUBLE, values: [input.resDeg, input.resDeg, 0] },
        { tag: 33922, type: DOUBLE, values: [0, 0, 0, input.west, input.north, 0] },
        // GeoKeyDirectory: version 1.1.0, 3 keys: GTModelType = 2 (geographic), GTRasterType = 1 (pixel is area),
        // GeographicType = 4326 (WGS 84)
        { tag: 34735, type: SHORT, values: [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326] },
      );
    }
    return e;
  };
  // Pass 1: sizes (offsets are placeholders of the right count).
  const sizes = levels.map((_, i) =>
    ifdSize(
      entriesOf(
        i,
        tiles[i]!.map(() => 0),
      ),
    ),
  );
  const ifdAt: number[] = [];
  let pos = 8;
  for (const s of sizes) {
    ifdAt.push(pos);
    pos += s + (s % 2);
  }
  // Tile data: smallest overview first, full resolution last.
  const offsets: number[][] = levels.map(() => []);
  for (let i = levels.length - 1; i >= 0; i--)
    for (const t of tiles[i]!) {
      offsets[i]!.push(pos);
      pos += t.length;
    }
  const buf = Buffer.alloc(pos);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  levels.forEach((_, i) => writeIfd(buf, ifdAt[i]!, entriesOf(i, offsets[i]!), i + 1 < levels.length ? ifdAt[i + 1]! : 0));
  for (let i = levels.length - 1; i >= 0; i--) tiles[i]!.forEach((t, k) => t.copy(buf, offsets[i]![k]!));
  return buf;
}
