/**
 * The stored form of an analysed chunk (one blob per chunk of assets in analysis_chunks) and back, bit for bit.
 *
 * v3 (written now): a JSON header line, then two sections. Every float plane (ead, ..., tail250: [asset][hazard][58
 * scenario-years]) is stored as a change mask, one bit per cell set where the cell differs from the cell before it
 * (a hazard without data is NaN in all 58, and most rows are one value throughout: about 8 % of cells change, 37 % of
 * the intensities), and the changed cells split into their four bytes. The masks, the top bytes (sign and exponent,
 * which compress about 10x) and the score planes are deflated (raw deflate, level 1); the three low bytes of the
 * changed cells (mantissa: deflate saves 15-25 % of them at most of the encoding's CPU) are stored as they are. A
 * residual plane equal to its unadapted plane (no adaptation) is stored as nothing. The choice was measured on real
 * chunks: docs/performance-history.md "Chunk encoding" (apps/server/bench/codec.bench.ts).
 *
 * v1 and v2 (still decoded): one gzip blob of a JSON header line and the raw arrays; v2 appended the tails.
 */
import { promisify } from 'node:util';
import { deflateRawSync, gunzip, gunzipSync, inflateRaw, inflateRawSync } from 'node:zlib';
import type { ResultChunk } from '@crp/engine';

const gunzipAsync = promisify(gunzip);
const inflateRawAsync = promisify(inflateRaw);

export interface StoredChunk extends ResultChunk {
  /** Headline hazard intensity per [asset][hazard][scenarioYear]. */
  intensity: Float32Array;
}

type FloatKey = 'ead' | 'eadResidual' | 'disruption' | 'disruptionResidual' | 'sd' | 'maxDamage' | 'intensity' | 'tail100' | 'tail250';
type ByteKey = 'score' | 'scoreResidual' | 'climateScore' | 'climateScoreResidual';

/** v3 planes in storage order, and the plane a residual plane may be equal to. */
const FLOAT_PLANES: readonly { key: FloatKey; base?: FloatKey }[] = [
  { key: 'ead' },
  { key: 'eadResidual', base: 'ead' },
  { key: 'disruption' },
  { key: 'disruptionResidual', base: 'disruption' },
  { key: 'sd' },
  { key: 'maxDamage' },
  { key: 'intensity' },
  { key: 'tail100' },
  { key: 'tail250' },
];
const BYTE_PLANES: readonly { key: ByteKey; base?: ByteKey }[] = [
  { key: 'score' },
  { key: 'scoreResidual', base: 'score' },
  { key: 'climateScore' },
  { key: 'climateScoreResidual', base: 'climateScore' },
];
/** Header value of a plane stored as nothing because it equals its base plane. */
const SAME = -1;

export interface HeaderV3 {
  v: 3;
  start: number;
  count: number;
  hazards: string[];
  scenarioYears: string[];
  /** Per float plane: its changed cells, or SAME; per byte plane: 0 (stored), or SAME. */
  planes: number[];
  /** Bytes of the deflated section, of it inflated, and of the stored section after it. */
  deflated: number;
  inflated: number;
  stored: number;
}

/** The uncompressed sections of a v3 chunk: what encodeChunk deflates and what it stores as it is. */
export interface PackedChunk {
  header: Omit<HeaderV3, 'deflated'>;
  deflate: Uint8Array;
  stored: Uint8Array;
}

const bitsOf = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
const bytesOf = (a: Uint8Array | Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const bufferOf = (a: Uint8Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const equalBits = (a: Uint8Array | Float32Array, b: Uint8Array | Float32Array) => bufferOf(a).equals(bufferOf(b));

/**
 * Writes the change mask of `u` at `mask[m]` (bit i set when cell i differs from cell i - 1; the cell before the
 * first is 0) and the changed cells to `changed`. Returns their number.
 */
function maskPlane(u: Uint32Array, mask: Uint8Array, m: number, changed: Uint32Array): number {
  const n = u.length;
  mask.fill(0, m, m + ((n + 7) >> 3));
  let k = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const v = u[i]!;
    if (v !== prev) {
      mask[m + (i >> 3)]! |= 1 << (i & 7);
      changed[k++] = v;
      prev = v;
    }
  }
  return k;
}

/** Splits `k` cells into byte planes: byte 3 (sign, exponent) to `top[t]`, bytes 0-2 to `low[l]` (all byte 0s, then 1s, 2s). */
function splitBytes(cells: Uint32Array, k: number, top: Uint8Array, t: number, low: Uint8Array, l: number): void {
  for (let i = 0; i < k; i++) {
    const v = cells[i]!;
    low[l + i] = v;
    low[l + k + i] = v >>> 8;
    low[l + 2 * k + i] = v >>> 16;
    top[t + i] = v >>> 24;
  }
}

/**
 * Working buffers of packChunk, kept for the next chunk of this thread (13 MB at 500 assets: allocating them for every
 * chunk cost more in garbage collection than the packing itself). Sized for every cell changed.
 */
let scratch: { cells: number; scores: number; deflate: Buffer; stored: Buffer; changed: Uint32Array } | null = null;

function scratchFor(cells: number, scores: number) {
  if (!scratch || scratch.cells < cells || scratch.scores < scores) {
    scratch = {
      cells,
      scores,
      deflate: Buffer.allocUnsafe(FLOAT_PLANES.length * (((cells + 7) >> 3) + cells) + 2 * (cells + scores)),
      stored: Buffer.allocUnsafe(FLOAT_PLANES.length * 3 * cells),
      changed: new Uint32Array(cells),
    };
  }
  return scratch;
}

/**
 * The v3 header (less the deflated length) and the two uncompressed sections of a chunk. The sections are views of
 * this thread's working buffers: valid until the next call.
 */
export function packChunk(chunk: StoredChunk): PackedChunk {
  const scores = chunk.count * chunk.scenarioYears.length;
  const cells = scores * chunk.hazards.length;
  const { deflate, stored, changed } = scratchFor(cells, scores);
  const planes: number[] = [];
  let d = 0;
  let s = 0;
  for (const p of [...FLOAT_PLANES, ...BYTE_PLANES]) {
    const want = p.key === 'climateScore' || p.key === 'climateScoreResidual' ? scores : cells;
    if (chunk[p.key]?.length !== want) throw new Error(`result chunk ${p.key} has ${chunk[p.key]?.length} cells, not ${want}`);
  }
  for (const p of FLOAT_PLANES) {
    const a = chunk[p.key];
    if (p.base && equalBits(a, chunk[p.base])) {
      planes.push(SAME);
      continue;
    }
    const k = maskPlane(bitsOf(a), deflate, d, changed);
    d += (cells + 7) >> 3;
    splitBytes(changed, k, deflate, d, stored, s);
    d += k;
    s += 3 * k;
    planes.push(k);
  }
  for (const p of BYTE_PLANES) {
    const a = chunk[p.key];
    if (p.base && equalBits(a, chunk[p.base])) {
      planes.push(SAME);
      continue;
    }
    deflate.set(bytesOf(a), d);
    d += a.length;
    planes.push(0);
  }
  const { start, count, hazards, scenarioYears } = chunk;
  const header = { v: 3 as const, start, count, hazards: [...hazards], scenarioYears: [...scenarioYears], planes, inflated: d, stored: s };
  return { header, deflate: deflate.subarray(0, d), stored: stored.subarray(0, s) };
}

/** Serialises a result chunk (plus intensities) to one blob (v3): a JSON header line, the deflated and the stored section. */
export function encodeChunk(chunk: StoredChunk): Buffer {
  const { header, deflate, stored } = packChunk(chunk);
  const deflated = deflateRawSync(deflate, { level: 1 });
  const head = Buffer.from(JSON.stringify({ ...header, deflated: deflated.length }) + '\n', 'utf8');
  return Buffer.concat([head, deflated, stored]);
}

/**
 * Rebuilds a plane (`u`, all 0) from its change mask at `src[m]`, the top bytes of its `k` changed cells at `src[t]`
 * and their low bytes at `low[l]`.
 */
function unmaskPlane(u: Uint32Array, src: Uint8Array, m: number, t: number, low: Uint8Array, l: number, k: number): void {
  const n = u.length;
  const bytes = (n + 7) >> 3;
  let c = 0;
  let prev = 0;
  let from = 0;
  for (let b = 0; b < bytes; b++) {
    for (let bits = src[m + b]!; bits !== 0; bits &= bits - 1) {
      const i = (b << 3) | (31 - Math.clz32(bits & -bits));
      if (prev !== 0) for (let j = from; j < i; j++) u[j] = prev;
      if (c === k || i >= n) throw new Error('result chunk is corrupt (more changed cells than its header says)');
      prev = low[l + c]! | (low[l + k + c]! << 8) | (low[l + 2 * k + c]! << 16) | (src[t + c]! << 24);
      u[i] = prev;
      c++;
      from = i + 1;
    }
  }
  if (prev !== 0) for (let j = from; j < n; j++) u[j] = prev;
  if (c !== k) throw new Error(`result chunk is corrupt (${c} of ${k} changed cells)`);
}

/** The arrays the dashboard's worker thread reads (the CVaR and loss maths), decoded into SharedArrayBuffers by the reader. */
const SHARED: ReadonlySet<string> = new Set([
  'ead',
  'eadResidual',
  'disruption',
  'disruptionResidual',
  'maxDamage',
  'tail100',
  'tail250',
  // the means of the heat map and hazard values (dashboard/year-money.ts)
  'intensity',
  'score',
  'scoreResidual',
]);

/** A copy of `src` as plane `key`: on a SharedArrayBuffer when `shared` and the plane is one the worker reads. */
function bytePlane(key: string, src: Uint8Array, shared: boolean): Uint8Array {
  if (!(shared && SHARED.has(key))) return new Uint8Array(src); // a copy (src may be a Buffer, whose slice is a view)
  const a = new Uint8Array(new SharedArrayBuffer(src.length) as unknown as ArrayBuffer);
  a.set(src);
  return a;
}

/** A Float32Array of `n` cells of plane `key`: on a SharedArrayBuffer when `shared` and the plane is one the worker reads. */
const floatPlane = (key: string, n: number, shared: boolean) =>
  new Float32Array((shared && SHARED.has(key) ? new SharedArrayBuffer(n * 4) : new ArrayBuffer(n * 4)) as ArrayBuffer);

/**
 * The arrays of a v3 chunk from its header, inflated section and stored section. With `shared`, the planes the loss
 * maths reads (SHARED) are on SharedArrayBuffers, so a worker thread reads them without a copy (the dashboard's
 * precomputation, dashboard/year-batches.ts).
 */
export function unpackChunk(header: Omit<HeaderV3, 'deflated'>, inflated: Uint8Array, stored: Uint8Array, shared = false): StoredChunk {
  if (inflated.length !== header.inflated || stored.length !== header.stored) throw new Error('result chunk is truncated');
  const cells = header.count * header.hazards.length * header.scenarioYears.length;
  const out: Record<string, unknown> = { start: header.start, count: header.count, hazards: header.hazards, scenarioYears: header.scenarioYears };
  let d = 0;
  let s = 0;
  FLOAT_PLANES.forEach((p, i) => {
    const k = header.planes[i]!;
    if (k === SAME) {
      const copy = floatPlane(p.key, cells, shared);
      copy.set(out[p.base!] as Float32Array);
      out[p.key] = copy;
      return;
    }
    const a = floatPlane(p.key, cells, shared);
    unmaskPlane(bitsOf(a), inflated, d, d + ((cells + 7) >> 3), stored, s, k);
    d += ((cells + 7) >> 3) + k;
    s += 3 * k;
    out[p.key] = a;
  });
  BYTE_PLANES.forEach((p, i) => {
    const n = p.key === 'climateScore' || p.key === 'climateScoreResidual' ? header.count * header.scenarioYears.length : cells;
    if (header.planes[FLOAT_PLANES.length + i] === SAME) out[p.key] = bytePlane(p.key, out[p.base!] as Uint8Array, shared);
    else {
      out[p.key] = bytePlane(p.key, inflated.subarray(d, d + n), shared);
      d += n;
    }
  });
  if (d !== inflated.length || s !== stored.length) throw new Error('result chunk sections do not match its header');
  return out as unknown as StoredChunk;
}

/** A v3 blob begins with its JSON header line ('{'); v1 and v2 blobs are gzip streams (0x1f 0x8b). */
function splitV3(blob: Uint8Array): { header: HeaderV3; deflated: Uint8Array; stored: Uint8Array } | null {
  if (blob[0] !== 0x7b) return null;
  const nl = blob.indexOf(10);
  if (nl < 0) throw new Error('result chunk has no header line');
  const header = JSON.parse(Buffer.from(blob.buffer, blob.byteOffset, nl).toString('utf8')) as HeaderV3;
  if (header.v !== 3) throw new Error(`result chunk version ${String(header.v)} is not known`);
  const from = nl + 1;
  return { header, deflated: blob.subarray(from, from + header.deflated), stored: blob.subarray(from + header.deflated) };
}

export function decodeChunk(blob: Buffer | Uint8Array): StoredChunk {
  const v3 = splitV3(blob);
  return v3 ? unpackChunk(v3.header, inflateRawSync(v3.deflated), v3.stored) : parseGzipped(gunzipSync(blob));
}

/**
 * decodeChunk with the inflation on libuv's thread pool instead of the event loop; only the header parse and the
 * rebuilding of the arrays (a few ms per 500-asset chunk) run here. Used by the results reader: the planes the loss
 * maths reads are on SharedArrayBuffers (SHARED).
 */
export async function decodeChunkAsync(blob: Buffer | Uint8Array): Promise<StoredChunk> {
  const v3 = splitV3(blob);
  return v3 ? unpackChunk(v3.header, await inflateRawAsync(v3.deflated), v3.stored, true) : parseGzipped(await gunzipAsync(blob), true);
}

/** The typed arrays of a v1/v2 chunk in storage order, with their element types. */
const GZIPPED_FIELDS = [
  ['ead', Float32Array],
  ['eadResidual', Float32Array],
  ['disruption', Float32Array],
  ['disruptionResidual', Float32Array],
  ['sd', Float32Array],
  ['maxDamage', Float32Array],
  ['score', Uint8Array],
  ['scoreResidual', Uint8Array],
  ['climateScore', Uint8Array],
  ['climateScoreResidual', Uint8Array],
] as const;

/** A gunzipped v1/v2 chunk: the header line, the arrays in GZIPPED_FIELDS order, intensity, then (v2) the tails. */
function parseGzipped(raw: Buffer, shared = false): StoredChunk {
  const nl = raw.indexOf(10);
  const header = JSON.parse(raw.subarray(0, nl).toString('utf8')) as {
    start: number;
    count: number;
    hazards: string[];
    scenarioYears: string[];
    lengths: number[];
  };
  let off = nl + 1;
  const take = <T>(Ctor: new (b: ArrayBuffer) => T, len: number, key = ''): T => {
    const copy = (shared && SHARED.has(key) ? new SharedArrayBuffer(len) : new ArrayBuffer(len)) as ArrayBuffer;
    new Uint8Array(copy).set(raw.subarray(off, off + len));
    off += len;
    return new Ctor(copy);
  };
  const out: Record<string, unknown> = { start: header.start, count: header.count, hazards: header.hazards, scenarioYears: header.scenarioYears };
  GZIPPED_FIELDS.forEach(([k, Ctor], i) => (out[k] = take(Ctor as unknown as new (b: ArrayBuffer) => unknown, header.lengths[i]!, k)));
  out.intensity = take(Float32Array, header.lengths[GZIPPED_FIELDS.length]!, 'intensity');
  const cells = (out.maxDamage as Float32Array).length;
  // v1 blobs have no tails: NaN, unknown until the project is analysed again
  for (const [i, k] of (['tail100', 'tail250'] as const).entries()) {
    const len = header.lengths[GZIPPED_FIELDS.length + 1 + i];
    out[k] = len === undefined ? floatPlane(k, cells, shared).fill(Number.NaN) : take(Float32Array, len, k);
  }
  return out as unknown as StoredChunk;
}
