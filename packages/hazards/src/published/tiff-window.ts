/**
 * A bounded, synchronous window reader for large single-band GeoTIFFs/COGs on a file system (issue 34 item 2): the
 * header (classic TIFF or BigTIFF) is read once; a point reads only the one tile or strip holding its pixel, decoded
 * with the bounded decoders of tiff-decoders.ts, through a process-wide cache bounded in bytes. Nothing else of the
 * file is read: a several-GB Aqueduct or JRC map costs its header plus the blocks the assets fall in.
 *
 * Synchronous on purpose: the analysis' hazard provider samples synchronously, and a block read is one pread of a
 * few hundred KB at most (blocks decoding to more than MAX_BLOCK_BYTES are refused at registration).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { deflateDecode, lzwDecode, packBitsDecode } from '../tiff-decoders.js';

export class TiffHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TiffHeaderError';
  }
}

/** The largest decoded tile or strip accepted (bytes): a block is read whole for one pixel. */
export const MAX_BLOCK_BYTES = 16 * 1_048_576;
/** Values read ahead and kept per file (pixel index → value): 8 bytes of number and a map entry each. */
const AHEAD_MAX = 200_000;

export interface TiffHeader {
  bigTiff: boolean;
  /** Byte order of the file (II); MM files are swapped to little-endian as each block is decoded. */
  littleEndian: boolean;
  fileBytes: number;
  width: number;
  height: number;
  tiled: boolean;
  blockWidth: number;
  blockHeight: number;
  blocksAcross: number;
  /** 'float32', 'int16', ... */
  dtype: string;
  bytesPerSample: number;
  compression: number;
  predictor: number;
  /** EPSG code of the geographic CRS (only 4326 is accepted). */
  epsg: number;
  /** Top-left corner (degrees) and pixel size (degrees, positive). */
  x0: number;
  y0: number;
  resX: number;
  resY: number;
  nodata: number | null;
  scale: number;
  offset: number;
  /** Tiles/strips present (offset and byte count non-zero) over all. */
  blocksPresent: number;
  blocks: number;
}

interface Parsed extends TiffHeader {
  offsets: number[];
  counts: number[];
}

const COMPRESSIONS: Record<number, string> = { 1: 'none', 5: 'LZW', 8: 'DEFLATE', 32946: 'DEFLATE', 32773: 'PackBits' };
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8, 17: 8, 18: 8 };

function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  if (got < len) throw new TiffHeaderError(`the file ends at ${pos + got} bytes, before the ${len} bytes expected at ${pos} (truncated?)`);
  return buf;
}

/** One IFD's tags: values of numeric tags (arrays), ASCII as string. */
function readIfd(fd: number, fileBytes: number, big: boolean, at: number, le: boolean): Map<number, number[] | string> {
  const E = endian(le);
  const head = readAt(fd, at, big ? 8 : 2);
  const n = big ? E.u64(head, 0) : E.u16(head, 0);
  if (n === 0 || n > 4096) throw new TiffHeaderError(`the first image directory has ${n} entries`);
  const size = big ? 20 : 12;
  const raw = readAt(fd, at + (big ? 8 : 2), n * size);
  const tags = new Map<number, number[] | string>();
  for (let i = 0; i < n; i++) {
    const p = i * size;
    const tag = E.u16(raw, p);
    const type = E.u16(raw, p + 2);
    const count = big ? E.u64(raw, p + 4) : E.u32(raw, p + 4);
    const ts = TYPE_SIZE[type];
    if (!ts) continue;
    const bytes = count * ts;
    const inline = bytes <= (big ? 8 : 4);
    const valueAt = p + (big ? 12 : 8);
    if (!inline) {
      const off = big ? E.u64(raw, valueAt) : E.u32(raw, valueAt);
      if (off + bytes > fileBytes) throw new TiffHeaderError(`tag ${tag} points past the end of the file`);
      if (bytes > 64 * 1_048_576) throw new TiffHeaderError(`tag ${tag} holds ${bytes} bytes`);
    }
    const src = inline ? raw.subarray(valueAt, valueAt + bytes) : readAt(fd, big ? E.u64(raw, valueAt) : E.u32(raw, valueAt), bytes);
    if (type === 2) {
      tags.set(tag, src.toString('latin1').replace(/\0+$/, ''));
      continue;
    }
    const vals: number[] = new Array(count);
    for (let k = 0; k < count; k++) vals[k] = E.value(src, k * ts, type);
    tags.set(tag, vals);
  }
  return tags;
}

/** Readers of one byte order. */
function endian(le: boolean) {
  return {
    u16: (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o)),
    u32: (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o)),
    u64: (b: Buffer, o: number) => Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)),
    value(b: Buffer, o: number, type: number): number {
      switch (type) {
        case 1:
        case 7:
          return b[o]!;
        case 6:
          return b.readInt8(o);
        case 3:
          return this.u16(b, o);
        case 8:
          return le ? b.readInt16LE(o) : b.readInt16BE(o);
        case 4:
          return this.u32(b, o);
        case 9:
          return le ? b.readInt32LE(o) : b.readInt32BE(o);
        case 11:
          return le ? b.readFloatLE(o) : b.readFloatBE(o);
        case 12:
          return le ? b.readDoubleLE(o) : b.readDoubleBE(o);
        case 5:
          return this.u32(b, o) / this.u32(b, o + 4);
        case 10:
          return (le ? b.readInt32LE(o) : b.readInt32BE(o)) / (le ? b.readInt32LE(o + 4) : b.readInt32BE(o + 4));
        default:
          return this.u64(b, o);
      }
    },
  };
}

function dtypeOf(format: number, bits: number): string {
  if (format === 3 && (bits === 32 || bits === 64)) return `float${bits}`;
  if ((format === 1 || format === 2) && [8, 16, 32].includes(bits)) return `${format === 2 ? 'int' : 'uint'}${bits}`;
  throw new TiffHeaderError(`sample format ${format} with ${bits} bits is not supported (float32/64 or 8-32-bit integers)`);
}

/** GDAL's scale and offset from GDAL_METADATA (tag 42112), if any. */
function scaleOffset(xml: string | undefined): { scale: number; offset: number } {
  const item = (role: string) => {
    const m = xml ? new RegExp(`<Item[^>]*role="${role}"[^>]*>([^<]+)</Item>`).exec(xml) : null;
    return m ? Number(m[1]) : NaN;
  };
  const scale = item('scale'),
    offset = item('offset');
  return { scale: Number.isFinite(scale) && scale !== 0 ? scale : 1, offset: Number.isFinite(offset) ? offset : 0 };
}

/** Georeferencing from the GeoKeys and the pixel-scale / tie-point tags: EPSG:4326 only, north-up. */
function geoOf(tags: Map<number, number[] | string>, width: number, height: number) {
  const keys = tags.get(34735) as number[] | undefined;
  if (!keys || keys.length < 4) throw new TiffHeaderError('no GeoTIFF keys (GeoKeyDirectoryTag): not a GeoTIFF, or its CRS is unknown');
  const geo = new Map<number, number>();
  for (let i = 4; i + 3 < keys.length; i += 4) if (keys[i + 1] === 0) geo.set(keys[i]!, keys[i + 3]!);
  const model = geo.get(1024);
  const geog = geo.get(2048);
  const datum = geo.get(2050);
  if (model === 1 || geo.has(3072))
    throw new TiffHeaderError(`the CRS is projected (EPSG:${geo.get(3072) ?? 'user-defined'}); published maps must be EPSG:4326 (geographic WGS 84)`);
  if (!(geog === 4326 || (geog === 32767 && datum === 6326) || (geog === undefined && datum === 6326)))
    throw new TiffHeaderError(`the CRS is EPSG:${geog ?? 'unknown'}; published maps must be EPSG:4326 (geographic WGS 84)`);
  if (tags.has(34264)) throw new TiffHeaderError('a ModelTransformation (rotated or sheared grid) is not supported; north-up grids only');
  const scale = tags.get(33550) as number[] | undefined;
  const tie = tags.get(33922) as number[] | undefined;
  if (!scale || !tie || tie.length < 6) throw new TiffHeaderError('no pixel scale or tie point: the grid is not georeferenced');
  const resX = scale[0]!,
    resY = scale[1]!;
  if (!(resX > 0 && resY > 0)) throw new TiffHeaderError(`pixel size ${resX} × ${resY} is not positive`);
  const pointRaster = geo.get(1025) === 2; // PixelIsPoint: the tie point is a pixel centre
  const x0 = tie[3]! - tie[0]! * resX - (pointRaster ? resX / 2 : 0);
  const y0 = tie[4]! + tie[1]! * resY + (pointRaster ? resY / 2 : 0);
  const east = x0 + width * resX,
    south = y0 - height * resY;
  const eps = 1e-6;
  if (x0 < -180 - eps - resX || east > 180 + eps + resX || y0 > 90 + eps + resY || south < -90 - eps - resY)
    throw new TiffHeaderError(`the grid (${x0}..${east}°E, ${south}..${y0}°N) leaves the world: not degrees of EPSG:4326?`);
  return { epsg: 4326, x0, y0, resX, resY };
}

/** Tiles/strips with data (offset and byte count non-zero); one lying past the end of the file is an error. */
function presentBlocks(offsets: number[], counts: number[], fileBytes: number, tiled: boolean): number {
  let present = 0;
  for (let i = 0; i < offsets.length; i++) {
    if (offsets[i]! > 0 && counts[i]! > 0) {
      if (offsets[i]! + counts[i]! > fileBytes) throw new TiffHeaderError(`${tiled ? 'tile' : 'strip'} ${i} lies past the end of the file (truncated?)`);
      present++;
    }
  }
  return present;
}

/** Reads and checks the header of a published map; TiffHeaderError names what is wrong. */
export function readTiffHeader(path: string): Parsed {
  const fd = openSync(path, 'r');
  try {
    const fileBytes = fstatSync(fd).size;
    if (fileBytes < 16) throw new TiffHeaderError('not a TIFF (too short)');
    const h = readAt(fd, 0, 16);
    const order = h.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') throw new TiffHeaderError('not a TIFF (no II/MM byte-order mark)');
    const le = order === 'II';
    const E = endian(le);
    const magic = E.u16(h, 2);
    if (magic !== 42 && magic !== 43) throw new TiffHeaderError('not a TIFF (bad magic number)');
    const big = magic === 43;
    const first = big ? E.u64(h, 8) : E.u32(h, 4);
    if (first < 8 || first >= fileBytes) throw new TiffHeaderError('the first image directory lies outside the file');
    const tags = readIfd(fd, fileBytes, big, first, le);
    const num = (t: number, dflt?: number) => {
      const v = tags.get(t);
      if (Array.isArray(v) && v.length) return v[0]!;
      if (dflt === undefined) throw new TiffHeaderError(`tag ${t} is missing`);
      return dflt;
    };
    const width = num(256),
      height = num(257);
    if ((num(277, 1) as number) !== 1) throw new TiffHeaderError(`${num(277)} bands; published maps have one`);
    const bits = num(258, 1);
    const dtype = dtypeOf(num(339, 1), bits);
    const compression = num(259, 1);
    if (!COMPRESSIONS[compression]) throw new TiffHeaderError(`compression ${compression} is not supported (none, LZW, DEFLATE or PackBits)`);
    const predictor = num(317, 1);
    if (![1, 2, 3].includes(predictor)) throw new TiffHeaderError(`predictor ${predictor} is not supported`);
    const tiled = tags.has(322);
    const blockWidth = tiled ? num(322) : width;
    const blockHeight = tiled ? num(323) : Math.min(num(278, height), height);
    const offsets = (tags.get(tiled ? 324 : 273) as number[] | undefined) ?? [];
    const counts = (tags.get(tiled ? 325 : 279) as number[] | undefined) ?? [];
    const blocksAcross = Math.ceil(width / blockWidth);
    const blocks = blocksAcross * Math.ceil(height / blockHeight);
    if (offsets.length !== blocks || counts.length !== blocks)
      throw new TiffHeaderError(`${offsets.length} ${tiled ? 'tile' : 'strip'} offsets for ${blocks} ${tiled ? 'tiles' : 'strips'}`);
    const bytesPerSample = bits / 8;
    if (blockWidth * blockHeight * bytesPerSample > MAX_BLOCK_BYTES)
      throw new TiffHeaderError(
        `one ${tiled ? 'tile' : 'strip'} decodes to ${blockWidth * blockHeight * bytesPerSample} bytes (over ${MAX_BLOCK_BYTES}); re-save it tiled (gdal_translate -co TILED=YES or -of COG)`,
      );
    const present = presentBlocks(offsets, counts, fileBytes, tiled);
    const nodataText = tags.get(42113);
    const nodata = typeof nodataText === 'string' && nodataText.trim() !== '' ? Number(nodataText.trim()) : null;
    if (nodata !== null && Number.isNaN(nodata) && nodataText !== undefined && !/^\s*nan\s*$/i.test(String(nodataText)))
      throw new TiffHeaderError(`nodata '${String(nodataText)}' is not a number`);
    const { scale, offset } = scaleOffset(typeof tags.get(42112) === 'string' ? (tags.get(42112) as string) : undefined);
    return {
      bigTiff: big,
      fileBytes,
      width,
      height,
      tiled,
      blockWidth,
      blockHeight,
      blocksAcross,
      dtype,
      bytesPerSample,
      compression,
      predictor,
      ...geoOf(tags, width, height),
      nodata,
      scale,
      offset,
      blocksPresent: present,
      blocks,
      offsets,
      counts,
      littleEndian: le,
    };
  } finally {
    closeSync(fd);
  }
}

/** Decoded blocks of every published file, bounded in bytes (least recently used out first). */
export class BlockCache {
  private readonly map = new Map<string, Uint8Array | null>();
  private total = 0;
  reads = 0;
  bytesRead = 0;
  constructor(readonly maxBytes: number) {}
  get(key: string): Uint8Array | null | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }
  set(key: string, v: Uint8Array | null): void {
    this.map.set(key, v);
    this.total += v ? v.byteLength : 16;
    for (const [k, e] of this.map) {
      if (this.total <= this.maxBytes || this.map.size <= 1) break;
      this.map.delete(k);
      this.total -= e ? e.byteLength : 16;
    }
  }
  get bytes(): number {
    return this.total;
  }
}

/** Reverses the bytes of every `bps`-byte sample in place. */
function swapBytes(b: Uint8Array, bps: number): void {
  for (let i = 0; i + bps <= b.length; i += bps) b.subarray(i, i + bps).reverse();
}

/** Undoes TIFF predictor 2 (horizontal differencing) or 3 (floating point) on one decoded block, in place. */
function unpredict(block: Uint8Array, width: number, rows: number, bps: number, predictor: number): Uint8Array {
  if (predictor === 2) {
    const view =
      bps === 1
        ? block
        : bps === 2
          ? new Uint16Array(block.buffer, block.byteOffset, block.byteLength / 2)
          : new Uint32Array(block.buffer, block.byteOffset, block.byteLength / 4);
    for (let r = 0; r < rows; r++) for (let c = 1; c < width; c++) view[r * width + c] = (view[r * width + c]! + view[r * width + c - 1]!) | 0;
    return block;
  }
  if (predictor === 3) {
    const rowBytes = width * bps;
    const out = new Uint8Array(block.byteLength);
    for (let r = 0; r < rows; r++) {
      const row = block.subarray(r * rowBytes, (r + 1) * rowBytes);
      for (let i = 1; i < rowBytes; i++) row[i] = (row[i]! + row[i - 1]!) & 0xff;
      for (let c = 0; c < width; c++) for (let b = 0; b < bps; b++) out[r * rowBytes + c * bps + b] = row[(bps - b - 1) * width + c]!;
    }
    return out;
  }
  return block;
}

/** Pixel values of one registered file, read block by block through `cache`. */
export class TiffWindowReader {
  readonly name: string;
  constructor(
    readonly path: string,
    readonly h: Pick<Parsed, keyof TiffHeader | 'offsets' | 'counts'>,
    private readonly cache: BlockCache,
  ) {
    this.name = basename(path);
  }

  /** Whether (lng, lat) falls inside the grid. */
  covers(lat: number, lng: number): boolean {
    const h = this.h;
    return lng >= h.x0 && lng < h.x0 + h.width * h.resX && lat <= h.y0 && lat > h.y0 - h.height * h.resY;
  }

  /** Pixel values read ahead by `prefetch` (pixel index → value), so the synchronous path reads no file for them. */
  private readonly ahead = new Map<number, number>();

  /** The pixel (column, row) of a point and its block, or null outside the grid. */
  private locate(lat: number, lng: number): { pixel: number; col: number; row: number; index: number; by: number; bx: number } | null {
    const h = this.h;
    const col = Math.floor((lng - h.x0) / h.resX);
    const row = Math.floor((h.y0 - lat) / h.resY);
    if (!(col >= 0 && row >= 0 && col < h.width && row < h.height)) return null;
    const bx = Math.floor(col / h.blockWidth),
      by = Math.floor(row / h.blockHeight);
    return { pixel: row * h.width + col, col, row, index: by * h.blocksAcross + bx, by, bx };
  }

  /** The value at (lat, lng) after scale and offset; NaN outside the grid, at nodata or in a missing block. */
  valueAt(lat: number, lng: number): number {
    const at = this.locate(lat, lng);
    if (!at) return NaN;
    const known = this.ahead.get(at.pixel);
    if (known !== undefined) return known;
    return this.pixelOf(this.block(at.index, at.by), at);
  }

  /** The block index of each point inside the grid (for prefetch to group points by block). */
  blockOf(lat: number, lng: number): number {
    return this.locate(lat, lng)?.index ?? -1;
  }

  /**
   * Reads one block asynchronously (the file read off the event loop; the decode, a few ms, on it) and keeps the values
   * of the given points, so the synchronous sampler finds them without touching the file. At most AHEAD_MAX values are
   * kept per file (the oldest dropped first).
   */
  async prefetchBlock(index: number, points: readonly { lat: number; lng: number }[]): Promise<void> {
    const h = this.h;
    const by = Math.floor(index / h.blocksAcross);
    let block = this.cache.get(`${this.path}\0${index}`);
    if (block === undefined) {
      const off = h.offsets[index]!,
        count = h.counts[index]!;
      let raw: Buffer | null = null;
      if (off > 0 && count > 0) {
        const fh = await open(this.path, 'r');
        try {
          const len = Math.min(count, this.bound(by) * 2 + 1024);
          raw = Buffer.alloc(len);
          const { bytesRead } = await fh.read(raw, 0, len, off);
          if (bytesRead < len) throw new TiffHeaderError(`${this.name}: block ${index} is cut short (truncated file?)`);
        } finally {
          await fh.close();
        }
      }
      block = this.decoded(index, by, raw);
    }
    for (const p of points) {
      const at = this.locate(p.lat, p.lng);
      if (!at || at.index !== index) continue;
      this.ahead.delete(at.pixel);
      this.ahead.set(at.pixel, this.pixelOf(block, at));
    }
    while (this.ahead.size > AHEAD_MAX) this.ahead.delete(this.ahead.keys().next().value!);
  }

  private bound(by: number): number {
    const h = this.h;
    const rows = h.tiled ? h.blockHeight : Math.min(h.blockHeight, h.height - by * h.blockHeight);
    return h.blockWidth * rows * h.bytesPerSample;
  }

  private pixelOf(block: Uint8Array | null, at: { row: number; col: number; by: number; bx: number }): number {
    if (!block) return NaN;
    const h = this.h;
    const o = ((at.row - at.by * h.blockHeight) * h.blockWidth + (at.col - at.bx * h.blockWidth)) * h.bytesPerSample;
    if (o + h.bytesPerSample > block.byteLength) return NaN;
    const dv = new DataView(block.buffer, block.byteOffset, block.byteLength);
    const raw =
      h.dtype === 'float32'
        ? dv.getFloat32(o, true)
        : h.dtype === 'float64'
          ? dv.getFloat64(o, true)
          : h.dtype === 'uint8'
            ? dv.getUint8(o)
            : h.dtype === 'int8'
              ? dv.getInt8(o)
              : h.dtype === 'uint16'
                ? dv.getUint16(o, true)
                : h.dtype === 'int16'
                  ? dv.getInt16(o, true)
                  : h.dtype === 'uint32'
                    ? dv.getUint32(o, true)
                    : dv.getInt32(o, true);
    if (raw !== raw || (h.nodata !== null && (raw === h.nodata || (h.dtype === 'float32' && Math.fround(h.nodata) === raw)))) return NaN;
    return raw * h.scale + h.offset;
  }

  /** The decoded block, from the cache or read (one pread of its bytes only); null when the file leaves it out. */
  private block(index: number, by: number): Uint8Array | null {
    const hit = this.cache.get(`${this.path}\0${index}`);
    if (hit !== undefined) return hit;
    const h = this.h;
    const off = h.offsets[index]!,
      count = h.counts[index]!;
    let raw: Buffer | null = null;
    if (off > 0 && count > 0) {
      const fd = openSync(this.path, 'r');
      try {
        raw = readAt(fd, off, Math.min(count, this.bound(by) * 2 + 1024));
      } finally {
        closeSync(fd);
      }
    }
    return this.decoded(index, by, raw);
  }

  /** Decodes a block's bytes (null: the file leaves it out) and caches the result. */
  private decoded(index: number, by: number, raw: Buffer | null): Uint8Array | null {
    const h = this.h;
    let out: Uint8Array | null = null;
    if (raw) {
      const rows = h.tiled ? h.blockHeight : Math.min(h.blockHeight, h.height - by * h.blockHeight);
      const bound = this.bound(by);
      this.cache.reads++;
      this.cache.bytesRead += raw.byteLength;
      const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      const dec =
        h.compression === 1
          ? bytes.slice(0, bound)
          : h.compression === 5
            ? lzwDecode(bytes, bound)
            : h.compression === 32773
              ? packBitsDecode(bytes, bound)
              : deflateDecode(bytes, bound);
      // an aligned copy (typed-array views need it), then the predictor
      const aligned = new Uint8Array(bound);
      aligned.set(dec.subarray(0, bound));
      // big-endian samples to little-endian (the floating-point predictor's output is in host order already)
      if (h.littleEndian === false && h.bytesPerSample > 1 && h.predictor !== 3) swapBytes(aligned, h.bytesPerSample);
      out = unpredict(aligned, h.blockWidth, rows, h.bytesPerSample, h.predictor);
    }
    this.cache.set(`${this.path}\0${index}`, out);
    return out;
  }
}
