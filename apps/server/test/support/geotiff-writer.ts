/**
 * A small GeoTIFF writer for tests (TIFF 6.0 + GeoTIFF 1.0 tags, as GDAL writes them): one float32 band, EPSG:4326,
 * strips or tiles, no compression or DEFLATE (with or without the floating-point predictor), GDAL_NODATA, classic TIFF
 * or BigTIFF. `sparse` leaves every tile but the listed ones out (offset and byte count 0, GDAL's SPARSE_OK) and puts
 * the data at `dataAt` bytes (a sparse file on disk: a several-GB map that takes a few KB).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

export interface GeoTiffSpec {
  width: number;
  height: number;
  /** Top-left corner and pixel size, degrees. */
  west: number;
  north: number;
  res: number;
  /** Pixel value (row, col) → value; rows from the north. */
  value: (row: number, col: number) => number;
  nodata?: number | null;
  tile?: number | null;
  deflate?: boolean;
  predictor?: 1 | 3;
  bigTiff?: boolean;
  /** Tiles written (by index); the others are left out. Tiled files only. */
  only?: number[];
  /** Where the first block's bytes go (default right after the header). */
  dataAt?: number;
  /** EPSG of the geographic CRS, or a projected one (to test refusals). */
  epsg?: number;
  projected?: boolean;
}

function floatPredict(block: Uint8Array, width: number, rows: number): Uint8Array {
  const out = new Uint8Array(block.length);
  const rowBytes = width * 4;
  for (let r = 0; r < rows; r++) {
    const row = new Uint8Array(rowBytes);
    for (let c = 0; c < width; c++) for (let b = 0; b < 4; b++) row[(4 - b - 1) * width + c] = block[r * rowBytes + c * 4 + b]!;
    for (let i = rowBytes - 1; i > 0; i--) row[i] = (row[i]! - row[i - 1]!) & 0xff;
    out.set(row, r * rowBytes);
  }
  return out;
}

/** Writes the GeoTIFF to `path`. */
export function writeGeoTiff(path: string, s: GeoTiffSpec): void {
  const tiled = !!s.tile;
  const bw = tiled ? s.tile! : s.width;
  const bh = tiled ? s.tile! : Math.min(s.height, 4);
  const across = Math.ceil(s.width / bw),
    down = Math.ceil(s.height / bh);
  const blocks: (Buffer | null)[] = [];
  for (let by = 0; by < down; by++)
    for (let bx = 0; bx < across; bx++) {
      const i = by * across + bx;
      if (s.only && !s.only.includes(i)) {
        blocks.push(null);
        continue;
      }
      const rows = tiled ? bh : Math.min(bh, s.height - by * bh);
      const raw = Buffer.alloc(bw * rows * 4);
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < bw; c++) {
          const row = by * bh + r,
            col = bx * bw + c;
          raw.writeFloatLE(row < s.height && col < s.width ? s.value(row, col) : (s.nodata ?? 0), (r * bw + c) * 4);
        }
      let b: Uint8Array = raw;
      if (s.predictor === 3) b = floatPredict(b, bw, rows);
      blocks.push(s.deflate ? deflateSync(b) : Buffer.from(b));
    }
  const big = !!s.bigTiff;
  const geoKeys = s.projected
    ? [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, s.epsg ?? 32633]
    : [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, s.epsg ?? 4326];
  type Tag = [number, number, number[] | string];
  const nodataTag: Tag[] = s.nodata == null ? [] : [[42113, 2, String(s.nodata)]];
  const offType = big ? 16 : 4;
  // offsets are filled in once the layout is known
  const tags: Tag[] = [
    [256, 4, [s.width]],
    [257, 4, [s.height]],
    [258, 3, [32]],
    [259, 3, [s.deflate ? 8 : 1]],
    [262, 3, [1]],
    ...(tiled ? [] : ([[273, offType, blocks.map(() => 0)]] as Tag[])),
    [277, 3, [1]],
    ...(tiled ? [] : ([[278, 4, [bh]]] as Tag[])),
    ...(tiled ? [] : ([[279, 4, blocks.map((b) => b?.length ?? 0)]] as Tag[])),
    [284, 3, [1]],
    ...(s.predictor ? ([[317, 3, [s.predictor]]] as Tag[]) : []),
    ...(tiled
      ? ([
          [322, 3, [bw]],
          [323, 3, [bh]],
          [324, offType, blocks.map(() => 0)],
          [325, 4, blocks.map((b) => b?.length ?? 0)],
        ] as Tag[])
      : []),
    [339, 3, [3]],
    [33550, 12, [s.res, s.res, 0]],
    [33922, 12, [0, 0, 0, s.west, s.north, 0]],
    [34735, 3, geoKeys],
    ...nodataTag,
  ];
  const size = (t: number) => ({ 2: 1, 3: 2, 4: 4, 12: 8, 16: 8 })[t]!;
  const entry = big ? 20 : 12;
  const inlineMax = big ? 8 : 4;
  const ifdAt = big ? 16 : 8;
  const ifdBytes = (big ? 8 : 2) + tags.length * entry + (big ? 8 : 4);
  let extraAt = ifdAt + ifdBytes;
  const extras: { at: number; bytes: Buffer }[] = [];
  const valueBytes = (t: Tag): Buffer => {
    const [, type, v] = t;
    if (typeof v === 'string') return Buffer.from(v + '\0', 'latin1');
    const b = Buffer.alloc(v.length * size(type));
    v.forEach((x, k) => {
      if (type === 3) b.writeUInt16LE(x, k * 2);
      else if (type === 4) b.writeUInt32LE(x, k * 4);
      else if (type === 12) b.writeDoubleLE(x, k * 8);
      else b.writeBigUInt64LE(BigInt(x), k * 8);
    });
    return b;
  };
  // lay out the out-of-line values, then the blocks
  const outOfLine = new Map<number, number>();
  for (const t of tags) {
    const n = valueBytes(t).length;
    if (n > inlineMax) {
      outOfLine.set(t[0], extraAt);
      extraAt += n + (n % 2);
    }
  }
  let at = Math.max(extraAt, s.dataAt ?? 0);
  const offsets = blocks.map((b) => {
    if (!b) return 0;
    const o = at;
    at += b.length;
    return o;
  });
  for (const t of tags) if (t[0] === 324 || t[0] === 273) t[2] = offsets;
  const fd = openSync(path, 'w');
  try {
    const head = Buffer.alloc(big ? 16 : 8);
    head.write('II', 0, 'latin1');
    head.writeUInt16LE(big ? 43 : 42, 2);
    if (big) {
      head.writeUInt16LE(8, 4);
      head.writeBigUInt64LE(BigInt(ifdAt), 8);
    } else head.writeUInt32LE(ifdAt, 4);
    writeSync(fd, head, 0, head.length, 0);
    const ifd = Buffer.alloc(ifdBytes);
    let p = 0;
    if (big) ifd.writeBigUInt64LE(BigInt(tags.length), 0);
    else ifd.writeUInt16LE(tags.length, 0);
    p = big ? 8 : 2;
    for (const t of tags) {
      const vb = valueBytes(t);
      ifd.writeUInt16LE(t[0], p);
      ifd.writeUInt16LE(t[1], p + 2);
      const count = typeof t[2] === 'string' ? vb.length : t[2].length;
      if (big) ifd.writeBigUInt64LE(BigInt(count), p + 4);
      else ifd.writeUInt32LE(count, p + 4);
      const vAt = p + (big ? 12 : 8);
      if (vb.length <= inlineMax) vb.copy(ifd, vAt);
      else {
        const o = outOfLine.get(t[0])!;
        if (big) ifd.writeBigUInt64LE(BigInt(o), vAt);
        else ifd.writeUInt32LE(o, vAt);
        extras.push({ at: o, bytes: vb });
      }
      p += entry;
    }
    writeSync(fd, ifd, 0, ifd.length, ifdAt);
    for (const e of extras) writeSync(fd, e.bytes, 0, e.bytes.length, e.at);
    blocks.forEach((b, i) => b && writeSync(fd, b, 0, b.length, offsets[i]!));
    ftruncateSync(fd, Math.max(at, 8));
  } finally {
    closeSync(fd);
  }
}
