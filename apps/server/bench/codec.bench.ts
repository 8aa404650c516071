/**
 * Result-chunk codec bench (npm run bench; docs/performance-history.md "Chunk encoding"): real 500-asset chunks computed by
 * the engine with the committed hazard layers on the bench portfolio, each encoded and decoded by the stored codec
 * (result-codec.ts v3) and by the candidates it was chosen from. Prints per chunk the CPU ms of this process
 * (process.cpuUsage: the compression runs synchronously in this thread) to encode and to decode, and the stored bytes
 * per asset; checks every candidate decodes bit for bit.
 *
 * BENCH_CODEC_CHUNKS (default 4) chunks of 500 assets, BENCH_CODEC_ROUNDS (default 5) encodes and decodes of each;
 * BENCH_CODEC_MITIGATED=1: assets with mitigation levels 0-3 (residual arrays differ from the unadapted ones).
 */
import { cpus, loadavg } from 'node:os';
import { HAZARD_KEYS } from '@crp/contracts';
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import { decodeChunk, encodeChunk, packChunk, unpackChunk, type HeaderV3, type StoredChunk } from '../src/modules/analysis/result-codec.js';
import { summaryShare } from '../src/modules/analysis/chunk-summary.js';
import { realChunks } from './codec-chunks.js';

const CHUNKS = Number(process.env.BENCH_CODEC_CHUNKS ?? 4);
const ROUNDS = Number(process.env.BENCH_CODEC_ROUNDS ?? 5);
const MITIGATED = process.env.BENCH_CODEC_MITIGATED === '1';

/** The v2 storage order (as written until v3): six float arrays, four score arrays, intensity, the two tails. */
const V2_ORDER = [
  'ead',
  'eadResidual',
  'disruption',
  'disruptionResidual',
  'sd',
  'maxDamage',
  'score',
  'scoreResidual',
  'climateScore',
  'climateScoreResidual',
  'intensity',
  'tail100',
  'tail250',
] as const;
const FLOATS = new Set<string>(['ead', 'eadResidual', 'disruption', 'disruptionResidual', 'sd', 'maxDamage', 'intensity', 'tail100', 'tail250']);

function v2Raw(c: StoredChunk): Buffer {
  const arrays = V2_ORDER.map((k) => c[k]);
  const { start, count, hazards, scenarioYears } = c;
  const header = JSON.stringify({ v: 2, start, count, hazards, scenarioYears, lengths: arrays.map((a) => a.byteLength) });
  return Buffer.concat([Buffer.from(header + '\n'), ...arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))]);
}

/** The v2 layout with every float array split into its four byte planes. */
function shuffledRaw(c: StoredChunk): Buffer {
  const raw = v2Raw(c);
  let at = raw.indexOf(10) + 1;
  for (const k of V2_ORDER) {
    const a = c[k];
    if (FLOATS.has(k)) {
      const src = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const n = a.length;
      for (let i = 0; i < n; i++) for (let b = 0; b < 4; b++) raw[at + b * n + i] = src[4 * i + b]!;
    }
    at += a.byteLength;
  }
  return raw;
}

/** Copies the arrays out of an inflated v2 layout (shuffled: float byte planes) as decodeChunk does. */
function arraysOf(raw: Buffer, like: StoredChunk, shuffled: boolean): StoredChunk {
  let at = raw.indexOf(10) + 1;
  const out: Record<string, unknown> = { start: like.start, count: like.count, hazards: like.hazards, scenarioYears: like.scenarioYears };
  for (const k of V2_ORDER) {
    const n = like[k].length;
    if (!FLOATS.has(k)) {
      out[k] = new Uint8Array(raw.subarray(at, at + n));
      at += n;
    } else if (!shuffled) {
      const a = new Float32Array(n);
      new Uint8Array(a.buffer).set(raw.subarray(at, at + 4 * n));
      out[k] = a;
      at += 4 * n;
    } else {
      const a = new Float32Array(n);
      const dst = new Uint8Array(a.buffer);
      for (let i = 0; i < n; i++) for (let b = 0; b < 4; b++) dst[4 * i + b] = raw[at + b * n + i]!;
      out[k] = a;
      at += 4 * n;
    }
  }
  return out as unknown as StoredChunk;
}

interface Candidate {
  name: string;
  encode: (c: StoredChunk) => Buffer;
  decode: (blob: Buffer, like: StoredChunk) => StoredChunk;
}

type Compress = (b: Uint8Array) => Buffer;
type Inflate = (b: Buffer) => Uint8Array;
const brotli =
  (quality: number): Compress =>
  (b) =>
    brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } });
const none: Compress = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * The v3 planes (change masks, changed cells in byte planes) with `compress` on the deflated section only (as stored)
 * or, `all`, on both sections.
 */
function planes(name: string, compress: Compress, inflate: Inflate, all = false): Candidate {
  return {
    name,
    encode: (c) => {
      const { header, deflate, stored } = packChunk(c);
      const body = compress(all ? Buffer.concat([deflate, stored]) : deflate);
      return Buffer.concat([Buffer.from(JSON.stringify({ ...header, deflated: body.length }) + '\n'), body, ...(all ? [] : [stored])]);
    },
    decode: (blob) => {
      const nl = blob.indexOf(10);
      const header = JSON.parse(blob.subarray(0, nl).toString()) as HeaderV3;
      const from = nl + 1;
      if (!all) return unpackChunk(header, inflate(blob.subarray(from, from + header.deflated)), blob.subarray(from + header.deflated));
      const raw = inflate(blob.subarray(from));
      return unpackChunk(header, raw.subarray(0, header.inflated), raw.subarray(header.inflated));
    },
  };
}

const CANDIDATES: Candidate[] = [
  { name: 'v2: raw arrays, gzip level 1 (stored until now)', encode: (c) => gzipSync(v2Raw(c), { level: 1 }), decode: (b) => decodeChunk(b) },
  {
    name: 'raw arrays, deflateRaw level 1',
    encode: (c) => deflateRawSync(v2Raw(c), { level: 1 }),
    decode: (b, like) => arraysOf(inflateRawSync(b), like, false),
  },
  {
    name: 'floats byte-shuffled, deflateRaw level 1',
    encode: (c) => deflateRawSync(shuffledRaw(c), { level: 1 }),
    decode: (b, like) => arraysOf(inflateRawSync(b), like, true),
  },
  planes('change masks, every byte deflateRaw level 1', (b) => deflateRawSync(b, { level: 1 }), inflateRawSync, true),
  planes('change masks, every byte gzip level 1', (b) => gzipSync(b, { level: 1 }), gunzipSync, true),
  planes('change masks, every byte Brotli quality 1', brotli(1), brotliDecompressSync, true),
  planes('change masks, nothing compressed', none, (b) => b, true),
  { name: 'v3: change masks, low bytes stored, rest deflateRaw level 1 (stored now)', encode: encodeChunk, decode: (b) => decodeChunk(b) },
  planes('change masks, low bytes stored, rest deflateRaw level 1 Z_RLE', (b) => deflateRawSync(b, { level: 1, strategy: constants.Z_RLE }), inflateRawSync),
  planes('change masks, low bytes stored, rest Brotli quality 0', brotli(0), brotliDecompressSync),
  planes('change masks, low bytes stored, rest Brotli quality 1', brotli(1), brotliDecompressSync),
];

function sameBits(a: StoredChunk, b: StoredChunk): boolean {
  for (const k of V2_ORDER) {
    const x = Buffer.from(a[k].buffer, a[k].byteOffset, a[k].byteLength);
    const y = Buffer.from(b[k].buffer, b[k].byteOffset, b[k].byteLength);
    if (!x.equals(y)) return false;
  }
  return a.start === b.start && a.count === b.count;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

console.log(
  `codec bench: ${CHUNKS} chunks of 500 assets${MITIGATED ? ' (mitigation levels 0-3)' : ''}, ${ROUNDS} rounds; ${cpus().length} cores, Node ${process.version}`,
);
const t0 = performance.now();
const computed = realChunks(CHUNKS, { mitigated: MITIGATED });
const chunks = computed.map((c) => c.chunk);
const assets = chunks.reduce((n, c) => n + c.count, 0);
console.log(`computed ${assets} assets in ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${load()}`);

// Every round runs every candidate on every chunk (so a change of the machine's load meets them all); the table gives
// each candidate's median round.
const encodeMs = CANDIDATES.map((): number[] => []);
const decodeMs = CANDIDATES.map((): number[] => []);
const bytes = CANDIDATES.map(() => 0);
const exact = CANDIDATES.map(() => true);
for (let round = 0; round < ROUNDS; round++) {
  CANDIDATES.forEach((cand, i) => {
    let enc = 0;
    let dec = 0;
    for (const c of chunks) {
      const e0 = cpuMs();
      const blob = cand.encode(c);
      const e1 = cpuMs();
      const back = cand.decode(blob, c);
      dec += cpuMs() - e1;
      enc += e1 - e0;
      if (round === 0) {
        bytes[i] = bytes[i]! + blob.length;
        exact[i] &&= sameBits(c, back);
      }
    }
    encodeMs[i]!.push(enc / chunks.length);
    decodeMs[i]!.push(dec / chunks.length);
  });
}
console.log('| candidate | encode CPU ms per chunk | decode CPU ms per chunk | bytes per asset | exact |');
console.log('|---|---|---|---|---|');
CANDIDATES.forEach((cand, i) => {
  const row = [cand.name, median(encodeMs[i]!).toFixed(1), median(decodeMs[i]!).toFixed(1), Math.round(bytes[i]! / assets), exact[i] ? 'yes' : 'NO'];
  console.log(`| ${row.join(' | ')} |`);
});

// The results reader (decodeChunkAsync) inflates on libuv's thread pool; the rest of a decode runs in the event loop.
const v2Blobs = chunks.map((c) => gzipSync(v2Raw(c), { level: 1 }));
const v3Blobs = chunks.map(encodeChunk);
const inflateOnly = (b: Buffer) => {
  if (b[0] !== 0x7b) return gunzipSync(b);
  const nl = b.indexOf(10);
  const header = JSON.parse(b.subarray(0, nl).toString()) as HeaderV3;
  return inflateRawSync(b.subarray(nl + 1, nl + 1 + header.deflated));
};
for (const [name, blobs] of [
  ['v2', v2Blobs],
  ['v3', v3Blobs],
] as const) {
  const loopMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let inflate = 0;
    let all = 0;
    for (const b of blobs) {
      const t = cpuMs();
      inflateOnly(b);
      const u = cpuMs();
      decodeChunk(b);
      all += cpuMs() - u;
      inflate += u - t;
    }
    loopMs.push((all - inflate) / blobs.length);
  }
  console.log(`${name} decode in the event loop (all but the inflation): ${median(loopMs).toFixed(1)} CPU ms per chunk`);
}

// For comparison: the other half of the engine workers' `encodeMs` (chunk-encoder.ts), the chunk's summary share.
const filters = { analysis_type: 'ssp', scenario: '45', year: 2050 };
const summaryMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const s0 = cpuMs();
  for (const c of computed) summaryShare(c.prepared, c.chunk.start, c.chunk, filters, [...HAZARD_KEYS]);
  summaryMs.push((cpuMs() - s0) / computed.length);
}
console.log(`summaryShare (also in the workers' encodeMs): ${median(summaryMs).toFixed(1)} CPU ms per chunk; load average at the end ${load()}`);
if (exact.includes(false)) process.exitCode = 1;
