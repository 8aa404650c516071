/**
 * Bounded decoders for the TIFF compressions an own hazard layer may use (issue 32): no tile or strip may decode to
 * more bytes than its declared size (tile width × tile height × bytes per pixel), and a malformed code stream is an
 * error, never an endless loop or an unbounded allocation.
 *
 * geotiff.js's own LZW decoder grows a JavaScript array without bound when a code runs past its 4,093-entry table
 * (a 6 KB file aborted the whole process with a V8 fatal error), and its deflate and PackBits decoders inflate
 * whatever a block holds (a 1 MiB tile inflating to 1 GiB was accepted). These replace them in geotiff.js's decoder
 * registry for every reader in the process (`installBoundedTiffDecoders`, called by byo.ts on import):
 *  - LZW (5): TIFF's MSB-first, early-change variant (TIFF 6.0 §13), on typed arrays; output stops at the bound;
 *    a code beyond the next table entry, or a first code that is not a literal, is an error.
 *  - Deflate (8, 32946): node:zlib with `maxOutputLength` = the bound (zlib stops as soon as it is passed).
 *  - PackBits (32773): bounded copy.
 *  - None (1): as geotiff.js reads it (the file's own bytes, nothing to inflate).
 *  - JPEG, old JPEG, LERC, Zstandard, WebP: refused with a sentence naming the compressions accepted (their
 *    decoders allocate what a header declares; none is a usual choice for a single-band hazard layer).
 * The predictor (TIFF tag 317: horizontal differencing or floating point) is applied by geotiff.js's raw decoder
 * to the bounded output, as it would be for an uncompressed block.
 */
import { constants, inflateRawSync, unzipSync } from 'node:zlib';
import { addDecoder, getDecoder } from 'geotiff';

/** What geotiff.js hands a decoder: the block's geometry and sample layout. */
interface DecoderParameters {
  tileWidth: number;
  tileHeight: number;
  planarConfiguration: number;
  bitsPerSample: number | number[] | Uint16Array;
  predictor: number;
  samplesPerPixel?: number;
}

/** The TIFF directory as geotiff.js exposes it to a decoder-parameter function. */
interface FileDirectory {
  hasTag(tag: string): boolean;
  loadValue(tag: string): Promise<unknown>;
}

/** A block decoded to more than its declared size, or a malformed code stream. */
export class TiffDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TiffDecodeError';
  }
}

/** The most bytes one block (tile or strip) may decode to. */
export function blockByteBound(p: DecoderParameters): number {
  const bits = typeof p.bitsPerSample === 'number' ? [p.bitsPerSample] : Array.from(p.bitsPerSample);
  const samples = p.samplesPerPixel ?? bits.length;
  // chunky (1): one block holds every sample of a pixel; planar (2): one sample per block
  const bitsPerPixel = p.planarConfiguration === 2 ? Math.max(...bits) : bits.length >= samples ? bits.reduce((a, b) => a + b, 0) : bits[0]! * samples;
  return Math.ceil((p.tileWidth * bitsPerPixel) / 8) * p.tileHeight;
}

/**
 * geotiff.js's parameters plus the sample count, with a strip's height capped at the image height (RowsPerStrip
 * may be 2^32 - 1, "the whole image in one strip").
 */
async function boundedParameters(fd: FileDirectory): Promise<DecoderParameters> {
  const tiled = !fd.hasTag('StripOffsets');
  const imageWidth = Number(await fd.loadValue('ImageWidth'));
  const imageLength = Number(await fd.loadValue('ImageLength'));
  const rowsPerStrip = Number((await fd.loadValue('RowsPerStrip')) || imageLength);
  return {
    tileWidth: tiled ? Number(await fd.loadValue('TileWidth')) : imageWidth,
    tileHeight: tiled ? Number(await fd.loadValue('TileLength')) : Math.min(rowsPerStrip, imageLength),
    planarConfiguration: Number((await fd.loadValue('PlanarConfiguration')) || 1),
    bitsPerSample: ((await fd.loadValue('BitsPerSample')) as number | number[] | Uint16Array | undefined) ?? 1,
    predictor: Number((await fd.loadValue('Predictor')) || 1),
    samplesPerPixel: Number((await fd.loadValue('SamplesPerPixel')) || 1),
  };
}

const CLEAR = 256,
  EOI = 257,
  FIRST_FREE = 258,
  TABLE = 4096;

/**
 * TIFF LZW (MSB-first codes of 9 to 12 bits, the width growing one code early), decoding at most `bound` bytes.
 * A stream without an end-of-information code ends where its bits do (as libtiff reads it).
 */
export function lzwDecode(input: Uint8Array, bound: number): Uint8Array {
  const out = new Uint8Array(bound);
  const prefix = new Uint16Array(TABLE),
    suffix = new Uint8Array(TABLE),
    first = new Uint8Array(TABLE),
    length = new Uint16Array(TABLE);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  const totalBits = input.length * 8;
  let bitPos = 0,
    width = 9,
    next = FIRST_FREE,
    old = -1,
    n = 0;
  /** Writes the string of `code` at the output's end; false once the bound is reached. */
  const emit = (code: number): boolean => {
    const len = length[code]!;
    const room = bound - n;
    let c = code;
    // the string is walked from its last byte back; bytes past the bound are skipped
    for (let k = len - 1; k >= 0; k--) {
      if (k < room) out[n + k] = suffix[c]!;
      c = prefix[c]!;
    }
    n += Math.min(len, room);
    return len < room;
  };
  while (bitPos + width <= totalBits) {
    const byte = bitPos >>> 3;
    const word = ((input[byte]! << 16) | ((input[byte + 1] ?? 0) << 8) | (input[byte + 2] ?? 0)) >>> 0;
    const code = (word >>> (24 - (bitPos & 7) - width)) & ((1 << width) - 1);
    bitPos += width;
    if (code === EOI) break;
    if (code === CLEAR) {
      next = FIRST_FREE;
      width = 9;
      old = -1;
      continue;
    }
    if (old === -1) {
      if (code > 255) throw new TiffDecodeError(`LZW stream is corrupt: code ${code} where a literal was expected`);
      if (!emit(code)) break;
      old = code;
      continue;
    }
    if (code > next || (code === next && next >= TABLE)) throw new TiffDecodeError(`LZW stream is corrupt: code ${code} is beyond the table (${next} entries)`);
    if (next < TABLE) {
      prefix[next] = old;
      suffix[next] = code === next ? first[old]! : first[code]!;
      first[next] = first[old]!;
      length[next] = length[old]! + 1;
      next++;
      if (next + 1 >= 1 << width && width < 12) width++;
    }
    if (!emit(code)) break;
    old = code;
  }
  return n === bound ? out : out.subarray(0, n);
}

/** zlib or raw deflate, stopping with an error as soon as the output passes `bound`. */
export function deflateDecode(input: Uint8Array, bound: number): Uint8Array {
  const opts = { maxOutputLength: Math.max(1, bound), finishFlush: constants.Z_SYNC_FLUSH };
  try {
    return unzipSync(input, opts);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw beyondBound(bound);
    try {
      return inflateRawSync(input, opts);
    } catch (raw) {
      if ((raw as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw beyondBound(bound);
      throw new TiffDecodeError(`deflate stream is corrupt (${(err as Error).message})`);
    }
  }
}

/** PackBits (Apple run-length), at most `bound` bytes. */
export function packBitsDecode(input: Uint8Array, bound: number): Uint8Array {
  const out = new Uint8Array(bound);
  let n = 0;
  for (let i = 0; i < input.length && n < bound;) {
    const h = (input[i++]! << 24) >> 24;
    if (h >= 0) {
      const count = Math.min(h + 1, input.length - i, bound - n);
      out.set(input.subarray(i, i + count), n);
      n += count;
      i += h + 1;
    } else if (h !== -128) {
      const count = Math.min(1 - h, bound - n);
      out.fill(input[i++] ?? 0, n, n + count);
      n += count;
    }
  }
  return n === bound ? out : out.subarray(0, n);
}

const beyondBound = (bound: number) => new TiffDecodeError(`a tile or strip inflates beyond its declared size (${bound.toLocaleString('en-US')} bytes)`);

type BlockDecoder = (input: Uint8Array, bound: number) => Uint8Array;

/** A geotiff.js decoder class over a bounded block decoder; the predictor is applied by geotiff.js's raw decoder. */
function boundedDecoderClass(decode: BlockDecoder) {
  return class BoundedDecoder {
    constructor(readonly parameters: DecoderParameters) {}
    async decode(buffer: ArrayBuffer): Promise<ArrayBuffer> {
      const bytes = decode(new Uint8Array(buffer), blockByteBound(this.parameters));
      const raw = (await getDecoder(1, this.parameters)) as unknown as { decode(b: ArrayBuffer): Promise<ArrayBuffer> };
      return raw.decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    }
  };
}

/** Compression codes accepted for own layers, for messages. */
export const ACCEPTED_TIFF_COMPRESSIONS = 'none, LZW, DEFLATE or PackBits';

const REFUSED: [number, string][] = [
  [6, 'old-style JPEG'],
  [7, 'JPEG'],
  [34887, 'LERC'],
  [50000, 'Zstandard'],
  [50001, 'WebP'],
];

let installed = false;

/** Replaces geotiff.js's decoders in its (process-wide) registry; idempotent. */
export function installBoundedTiffDecoders(): void {
  if (installed) return;
  installed = true;
  const params = boundedParameters as unknown as Parameters<typeof addDecoder>[2];
  const add = (cases: number | number[], decode: BlockDecoder) => addDecoder(cases, () => Promise.resolve(boundedDecoderClass(decode) as never), params, false);
  add(5, lzwDecode);
  add([8, 32946], deflateDecode);
  add(32773, packBitsDecode);
  for (const [code, name] of REFUSED) {
    addDecoder(
      code,
      () => Promise.reject(new TiffDecodeError(`${name} compression is not accepted; save the layer with ${ACCEPTED_TIFF_COMPRESSIONS} compression`)),
      params,
      false,
    );
  }
}
