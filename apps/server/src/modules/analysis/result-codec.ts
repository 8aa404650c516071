import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzipSync } from 'node:zlib';

const gunzipAsync = promisify(gunzip);
import type { ResultChunk } from '@crp/engine';

/** The typed arrays of a ResultChunk in storage order, with their element types. */
const FIELDS = [
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

/** The arrays the dashboard's worker thread reads (the CVaR and loss maths), decoded into SharedArrayBuffers by the reader. */
const SHARED: ReadonlySet<string> = new Set(['ead', 'eadResidual', 'disruption', 'disruptionResidual', 'maxDamage']);

export interface StoredChunk extends ResultChunk {
  /** Headline hazard intensity per [asset][hazard][scenarioYear]. */
  intensity: Float32Array;
}

/** Serialises a result chunk (plus intensities) to one gzip blob: a JSON header line, then the raw arrays. */
export function encodeChunk(chunk: StoredChunk): Buffer {
  // v2 appends the tail-event damages after the v1 layout, so v1 blobs still decode (their tails are NaN: unknown
  // until the project is analysed again)
  const arrays = [...FIELDS.map(([k]) => chunk[k]), chunk.intensity, chunk.tail100, chunk.tail250];
  const header = JSON.stringify({
    v: 2,
    start: chunk.start,
    count: chunk.count,
    hazards: chunk.hazards,
    scenarioYears: chunk.scenarioYears,
    lengths: arrays.map((a) => a.byteLength),
  });
  const parts = [Buffer.from(header + '\n', 'utf8'), ...arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))];
  // Level 1: on result chunks it is about 3x faster than level 6 for 4 % more bytes (2,355 against 2,256 bytes per
  // asset; 0.63 against 1.70 s per 500-asset chunk on the loaded 2-core machine, docs/performance.md "Analysis at
  // scale"): compressing at level 6 cost more CPU than the analysis itself.
  return gzipSync(Buffer.concat(parts), { level: 1 });
}

export function decodeChunk(blob: Buffer | Uint8Array): StoredChunk {
  return parseChunk(gunzipSync(blob));
}

/**
 * decodeChunk with the inflation on libuv's thread pool instead of the event loop (tens of ms per 500-asset chunk);
 * only the header parse and the copies into aligned arrays (a few ms) run here. Used by the results reader. The arrays
 * the loss maths reads (SHARED and the tails) are on SharedArrayBuffers, so a worker thread reads them without a copy
 * (the dashboard's precomputation, dashboard/year-batches.ts).
 */
export async function decodeChunkAsync(blob: Buffer | Uint8Array): Promise<StoredChunk> {
  return parseChunk(await gunzipAsync(blob), true);
}

function parseChunk(raw: Buffer, shared = false): StoredChunk {
  const nl = raw.indexOf(10);
  const header = JSON.parse(raw.subarray(0, nl).toString('utf8')) as {
    start: number;
    count: number;
    hazards: string[];
    scenarioYears: string[];
    lengths: number[];
  };
  let off = nl + 1;
  const take = <T>(Ctor: new (b: ArrayBuffer) => T, len: number, share = false): T => {
    const copy = (share ? new SharedArrayBuffer(len) : new ArrayBuffer(len)) as ArrayBuffer;
    new Uint8Array(copy).set(raw.subarray(off, off + len));
    off += len;
    return new Ctor(copy);
  };
  const out: Record<string, unknown> = { start: header.start, count: header.count, hazards: header.hazards, scenarioYears: header.scenarioYears };
  FIELDS.forEach(([k, Ctor], i) => (out[k] = take(Ctor as unknown as new (b: ArrayBuffer) => unknown, header.lengths[i]!, shared && SHARED.has(k))));
  out.intensity = take(Float32Array, header.lengths[FIELDS.length]!);
  const cells = (out.maxDamage as Float32Array).length;
  for (const [i, k] of (['tail100', 'tail250'] as const).entries()) {
    const len = header.lengths[FIELDS.length + 1 + i];
    out[k] =
      len === undefined
        ? new Float32Array((shared ? new SharedArrayBuffer(cells * 4) : new ArrayBuffer(cells * 4)) as ArrayBuffer).fill(Number.NaN)
        : take(Float32Array, len, shared);
  }
  return out as unknown as StoredChunk;
}
