/**
 * The stored result-chunk codec (modules/analysis/result-codec.ts): v3 round trips real engine chunks bit for bit
 * (NaN payloads, -0, subnormals, 255 = no-data scores, with and without adaptation), and blobs stored by v1 and v2
 * (test/fixtures, written by those encoders) still decode to the arrays they were made from.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { before, describe, test } from 'node:test';
import { decodeChunk, decodeChunkAsync, encodeChunk, type StoredChunk } from '../src/modules/analysis/result-codec.js';
import { realChunks } from '../bench/codec-chunks.js';

const FLOATS = ['ead', 'eadResidual', 'disruption', 'disruptionResidual', 'sd', 'maxDamage', 'intensity', 'tail100', 'tail250'] as const;
const BYTES = ['score', 'scoreResidual', 'climateScore', 'climateScoreResidual'] as const;
const FIELDS = [...FLOATS, ...BYTES];

const bytesOf = (a: Float32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const headerOf = (blob: Buffer) => JSON.parse(blob.subarray(0, blob.indexOf(10)).toString()) as { v: number; planes: number[] };

/** Every array equal bit for bit (and its own buffer, not a view shared with another field). */
function assertSameBits(back: StoredChunk, want: StoredChunk) {
  assert.equal(back.start, want.start);
  assert.equal(back.count, want.count);
  assert.deepEqual([...back.hazards], [...want.hazards]);
  assert.deepEqual([...back.scenarioYears], [...want.scenarioYears]);
  for (const k of FIELDS) {
    assert.equal(back[k].constructor, want[k].constructor, k);
    assert.ok(bytesOf(back[k]).equals(bytesOf(want[k])), `${k} differs`);
  }
  assert.equal(new Set(FIELDS.map((k) => back[k].buffer)).size, FIELDS.length, 'every array has its own buffer');
}

/** A deep copy of a chunk (the special-value test edits it). */
const copyOf = (c: StoredChunk): StoredChunk => ({ ...c, ...Object.fromEntries(FIELDS.map((k) => [k, c[k].slice()])) }) as StoredChunk;

/** The v2 encoding (raw arrays, gzip level 1) of a chunk: the size v3 must not exceed by more than 10 %. */
function v2Bytes(c: StoredChunk): number {
  const order = ['ead', 'eadResidual', 'disruption', 'disruptionResidual', 'sd', 'maxDamage', ...BYTES, 'intensity', 'tail100', 'tail250'] as const;
  return gzipSync(Buffer.concat([Buffer.from('{}\n'), ...order.map((k) => bytesOf(c[k]))]), { level: 1 }).length;
}

describe('result codec v3', () => {
  let plain: StoredChunk[];
  let mitigated: StoredChunk;
  before(() => {
    plain = realChunks(2).map((c) => c.chunk);
    mitigated = realChunks(1, { mitigated: true, seed: 9 })[0]!.chunk;
  });

  test('round trips real chunks bit for bit, sync and async, smaller than v2', async () => {
    for (const c of [...plain, mitigated]) {
      const blob = encodeChunk(c);
      assert.equal(headerOf(blob).v, 3);
      assertSameBits(decodeChunk(blob), c);
      const async = await decodeChunkAsync(blob);
      assertSameBits(async, c);
      // the planes the dashboard's worker reads are shared with it (SharedArrayBuffers), the others not
      for (const k of ['ead', 'tail250', 'intensity', 'score', 'scoreResidual'] as const) assert.ok(async[k].buffer instanceof SharedArrayBuffer, k);
      for (const k of ['sd', 'climateScore'] as const) assert.ok(!(async[k].buffer instanceof SharedArrayBuffer), k);
      assertSameBits(decodeChunk(new Uint8Array(blob)), c);
      assert.ok(blob.length <= 1.1 * v2Bytes(c), `${blob.length} bytes against ${v2Bytes(c)} for v2`);
    }
    // the chunks have hazards without data (NaN) and cells of value 0
    assert.ok(plain[0]!.ead.some(Number.isNaN) && plain[0]!.ead.includes(0));
    // without adaptation the residual planes are stored as their unadapted planes (-1); with it, on their own
    const SAME = -1;
    assert.deepEqual(
      [1, 3, 10, 12].map((i) => headerOf(encodeChunk(plain[0]!)).planes[i]),
      [SAME, SAME, SAME, SAME],
    );
    assert.ok([1, 3, 10, 12].every((i) => headerOf(encodeChunk(mitigated)).planes[i] !== SAME));
  });

  test('keeps NaN payloads, -0, subnormals, infinities and 255 scores, at the first and last cells', () => {
    const c = copyOf(plain[1]!);
    const n = c.ead.length;
    const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);
    c.ead[0] = -0;
    c.ead[n - 1] = -0;
    bits(c.intensity)[0] = 0x7fc00123; // a NaN with a payload
    bits(c.intensity)[n - 1] = 0xffc00000; // a negative NaN
    bits(c.tail250)[n - 1] = 0x7f800001; // a signalling NaN
    c.sd[1] = 1e-45;
    c.maxDamage[2] = Infinity;
    c.eadResidual[3] = -Infinity; // residual now differs from ead in one cell
    c.score.fill(255, 0, 100);
    c.climateScore[c.climateScore.length - 1] = 255;
    c.climateScoreResidual[0] = 0;
    const back = decodeChunk(encodeChunk(c));
    assertSameBits(back, c);
    assert.ok(Object.is(back.ead[0], -0) && Object.is(back.ead[n - 1], -0));
    assert.equal(bits(back.intensity)[0], 0x7fc00123);
    assert.equal(bits(back.tail250)[n - 1], 0x7f800001);
  });

  test('a chunk whose cell count is not a multiple of 8, and one asset', () => {
    const [small] = realChunks(1, { size: 3, seed: 5 });
    const [one] = realChunks(1, { size: 1, seed: 6 });
    for (const { chunk } of [small!, one!]) assertSameBits(decodeChunk(encodeChunk(chunk)), chunk);
  });

  test('the same chunk encodes to the same bytes whatever was encoded before (working buffers reused)', () => {
    const first = encodeChunk(plain[0]!);
    encodeChunk(mitigated);
    encodeChunk(realChunks(1, { size: 7 })[0]!.chunk);
    assert.ok(encodeChunk(plain[0]!).equals(first));
  });

  test('a truncated, altered or unknown blob is refused, not decoded to other numbers', () => {
    const blob = encodeChunk(plain[0]!);
    assert.throws(() => decodeChunk(blob.subarray(0, blob.length - 1)), /truncated|do not match|corrupt/);
    const nl = blob.indexOf(10);
    const header = JSON.parse(blob.subarray(0, nl).toString()) as Record<string, unknown> & { planes: number[] };
    const withHeader = (h: object) => Buffer.concat([Buffer.from(JSON.stringify(h) + '\n'), blob.subarray(nl + 1)]);
    assert.throws(() => decodeChunk(withHeader({ ...header, v: 4 })), /version 4 is not known/);
    assert.throws(() => decodeChunk(withHeader({ ...header, planes: header.planes.map((k, i) => (i === 0 ? k - 1 : k)) })), /corrupt|do not match/);
  });
});

describe('stored v1 and v2 blobs', () => {
  for (const v of [1, 2]) {
    test(`a v${v} blob decodes to the arrays it was made from`, () => {
      const fixture = JSON.parse(readFileSync(new URL(`./fixtures/result-chunk-v${v}.json`, import.meta.url), 'utf8')) as {
        start: number;
        count: number;
        sha256: Record<string, string>;
        blob: string;
      };
      const blob = Buffer.from(fixture.blob, 'base64');
      assert.equal(blob[0], 0x1f, 'a gzip stream');
      const c = decodeChunk(blob);
      assert.equal(c.start, fixture.start);
      assert.equal(c.count, fixture.count);
      for (const [k, sha] of Object.entries(fixture.sha256)) {
        assert.equal(
          createHash('sha256')
            .update(bytesOf(c[k as (typeof FIELDS)[number]]))
            .digest('hex'),
          sha,
          k,
        );
      }
      assert.equal(Object.keys(fixture.sha256).length, v === 1 ? 11 : 13);
      if (v === 1) assert.ok(c.tail100.every(Number.isNaN) && c.tail250.every(Number.isNaN), 'v1 has no tails: unknown');
      assert.ok(Object.is(c.ead[0], -0));
      assert.equal(new Uint32Array(c.intensity.buffer)[5], 0x7fc00123);
      assert.equal(c.score[3], 255);
      assert.equal(c.climateScore[0], 255);
      // and a v3 blob of it round trips
      assertSameBits(decodeChunk(encodeChunk(c)), c);
    });
  }
});
