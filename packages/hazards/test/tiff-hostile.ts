/**
 * Test files for the bounded TIFF decoders (issue 32): a minimal single-strip GeoTIFF writer with any compression
 * code, a TIFF LZW encoder, and the hostile streams an attacker would send (an LZW code-table overrun, an LZW
 * zero-run bomb, a deflate bomb). Shared by the hazards package's tests and the server's upload tests.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/** TIFF field types used here. */
const SHORT = 3,
  LONG = 4,
  DOUBLE = 12,
  ASCII = 2;

interface Field {
  tag: number;
  type: number;
  values: number[] | string;
}

/**
 * A little-endian GeoTIFF (EPSG:4326, top-left `x0, y0`, pixel size `res` degrees) of one strip holding `strip`
 * (already compressed with `compression`), declared `width × height` of `bits`-bit samples (`sampleFormat` 1 uint,
 * 2 int, 3 float).
 */
export function singleStripTiff(o: {
  width: number;
  height: number;
  bits: number;
  sampleFormat: number;
  compression: number;
  strip: Uint8Array;
  predictor?: number;
  x0?: number;
  y0?: number;
  res?: number;
  nodata?: string;
}): Buffer {
  const fields: Field[] = [
    { tag: 256, type: LONG, values: [o.width] },
    { tag: 257, type: LONG, values: [o.height] },
    { tag: 258, type: SHORT, values: [o.bits] },
    { tag: 259, type: SHORT, values: [o.compression] },
    { tag: 262, type: SHORT, values: [1] },
    { tag: 273, type: LONG, values: [0] }, // StripOffsets, patched below
    { tag: 277, type: SHORT, values: [1] },
    { tag: 278, type: LONG, values: [o.height] },
    { tag: 279, type: LONG, values: [o.strip.length] },
    { tag: 284, type: SHORT, values: [1] },
    ...(o.predictor ? [{ tag: 317, type: SHORT, values: [o.predictor] }] : []),
    { tag: 339, type: SHORT, values: [o.sampleFormat] },
    { tag: 33550, type: DOUBLE, values: [o.res ?? 0.1, o.res ?? 0.1, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, o.x0 ?? 113.8, o.y0 ?? 22.6, 0] },
    // GeoKeyDirectory: version 1.1.0, 3 keys: GTModelType = 2 (geographic), GTRasterType = 1 (area), GeographicType = 4326
    { tag: 34735, type: SHORT, values: [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326] },
    ...(o.nodata !== undefined ? [{ tag: 42113, type: ASCII, values: o.nodata + '\0' }] : []),
  ];
  const size = (f: Field) => (typeof f.values === 'string' ? f.values.length : f.values.length * (f.type === SHORT ? 2 : f.type === LONG ? 4 : 8));
  const ifdSize = 2 + fields.length * 12 + 4;
  let extra = 8 + ifdSize;
  const extraAt = new Map<Field, number>();
  for (const f of fields) {
    if (size(f) > 4) {
      extraAt.set(f, extra);
      extra += size(f) + (size(f) & 1);
    }
  }
  const stripAt = extra;
  (fields.find((f) => f.tag === 273)!.values as number[])[0] = stripAt;
  const buf = Buffer.alloc(stripAt + o.strip.length);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(fields.length, 8);
  const put = (f: Field, at: number) => {
    if (typeof f.values === 'string') buf.write(f.values, at, 'latin1');
    else
      f.values.forEach((v, i) => {
        if (f.type === SHORT) buf.writeUInt16LE(v, at + i * 2);
        else if (f.type === LONG) buf.writeUInt32LE(v, at + i * 4);
        else buf.writeDoubleLE(v, at + i * 8);
      });
  };
  fields.forEach((f, i) => {
    const at = 10 + i * 12;
    buf.writeUInt16LE(f.tag, at);
    buf.writeUInt16LE(f.type, at + 2);
    buf.writeUInt32LE(typeof f.values === 'string' ? f.values.length : f.values.length, at + 4);
    const off = extraAt.get(f);
    if (off === undefined) put(f, at + 8);
    else {
      buf.writeUInt32LE(off, at + 8);
      put(f, off);
    }
  });
  buf.set(o.strip, stripAt);
  return buf;
}

/** MSB-first writer of variable-width codes. */
class CodeWriter {
  private bytes: number[] = [];
  private acc = 0;
  private nbits = 0;
  write(code: number, width: number): void {
    this.acc = (this.acc << width) | code;
    this.nbits += width;
    while (this.nbits >= 8) {
      this.bytes.push((this.acc >>> (this.nbits - 8)) & 0xff);
      this.nbits -= 8;
    }
    this.acc &= (1 << this.nbits) - 1;
  }
  finish(): Uint8Array {
    if (this.nbits > 0) this.bytes.push((this.acc << (8 - this.nbits)) & 0xff);
    return Uint8Array.from(this.bytes);
  }
}

/** TIFF LZW (as libtiff writes it: a clear code first, the code width growing one code early, a clear at 4094). */
export function lzwEncode(data: Uint8Array): Uint8Array {
  const w = new CodeWriter();
  let width = 9,
    next = 258;
  const dict = new Map<number, number>();
  w.write(256, width);
  if (data.length === 0) {
    w.write(257, width);
    return w.finish();
  }
  let cur = data[0]!;
  for (let i = 1; i < data.length; i++) {
    const c = data[i]!;
    const key = cur * 256 + c;
    const hit = dict.get(key);
    if (hit !== undefined) {
      cur = hit;
      continue;
    }
    w.write(cur, width);
    dict.set(key, next++);
    if (next + 1 > 1 << width && width < 12) width++;
    if (next >= 4094) {
      w.write(256, width);
      dict.clear();
      next = 258;
      width = 9;
    }
    cur = c;
  }
  w.write(cur, width);
  next++;
  if (next + 1 > 1 << width && width < 12) width++;
  w.write(257, width);
  return w.finish();
}

/**
 * The LZW zero-run bomb: the codes of a growing run of zero bytes fill the table (code 258 = two zeros, 259 = three,
 * ... 4095 = 3,839 zeros), then the longest is repeated `repeats` times with no clear code: each 12 bits decode to
 * 3,839 bytes, so a few kilobytes declare hundreds of megabytes for one small tile.
 */
export function lzwZeroRunBomb(repeats: number): Uint8Array {
  const w = new CodeWriter();
  let width = 9;
  w.write(256, width);
  w.write(0, width);
  // code k (258..4095) decodes to k - 256 zeros: sending 258, 259, ... in turn is the KwKwK case every time
  for (let code = 258; code < 4096; code++) {
    w.write(code, width);
    if (code + 2 >= 1 << width && width < 12) width++;
  }
  for (let i = 0; i < repeats; i++) w.write(4095, 12);
  w.write(257, 12);
  return w.finish();
}

/**
 * The code-table overrun that stopped the server: the table is filled past 4,093 entries with no clear code, then
 * codes of the last entries (which geotiff.js's 4,093-entry table never stored) are sent.
 */
export function lzwTableOverrun(): Uint8Array {
  const w = new CodeWriter();
  let width = 9;
  w.write(256, width);
  w.write(1, width);
  for (let code = 258; code < 4096; code++) {
    w.write(1, width); // literal 1 each time: adds an entry (1,1), (1,1)... (table entries of "1 1")
    if (code + 2 >= 1 << width && width < 12) width++;
  }
  for (const code of [4093, 4094, 4095, 4094]) w.write(code, 12);
  w.write(257, 12);
  return w.finish();
}

/**
 * A zlib stream that inflates to `mib` MiB of zeros, made without holding them: one MiB of zeros deflated once with a
 * full flush (byte-aligned, no back-references across it) repeated, then an empty final block.
 */
export function deflateBomb(mib: number): Uint8Array {
  const chunk = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  const out = Buffer.alloc(2 + chunk.length * mib + end.length);
  out[0] = 0x78;
  out[1] = 0xda;
  for (let i = 0; i < mib; i++) chunk.copy(out, 2 + i * chunk.length);
  end.copy(out, 2 + chunk.length * mib);
  return out;
}

/** zlib-deflated bytes (TIFF compression 8). */
export const deflateBytes = (data: Uint8Array) => deflateSync(data);

/** PackBits of `data` (literal runs only, up to 128 bytes each). */
export function packBitsEncode(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i += 128) {
    const n = Math.min(128, data.length - i);
    out.push(n - 1, ...data.subarray(i, i + n));
  }
  return Uint8Array.from(out);
}
