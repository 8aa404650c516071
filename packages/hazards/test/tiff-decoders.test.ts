import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readGeoTiffLayer, OwnLayerError } from '../src/index.js';
import { deflateDecode, lzwDecode, packBitsDecode, TiffDecodeError } from '../src/tiff-decoders.js';
import { deflateBomb, deflateBytes, lzwEncode, lzwTableOverrun, lzwZeroRunBomb, packBitsEncode, singleStripTiff } from './tiff-hostile.js';

const entry = { id: 'upload', hazard: 'river_flood' as const, returnPeriodYears: 100 };

/** geotiff.js's own LZW decoder, read straight from its files (the package does not export it). */
async function stockLzw(): Promise<(b: ArrayBuffer) => ArrayBuffer> {
  const dir = dirname(createRequire(import.meta.url).resolve('geotiff'));
  const mod = (await import(pathToFileURL(join(dir, '../dist-module/compression/lzw.js')).href)) as {
    default: new (p: object) => { decodeBlock(b: ArrayBuffer): ArrayBuffer };
  };
  const d = new mod.default({});
  return (b) => d.decodeBlock(b);
}

test('LZW: what the encoder writes decodes to the same bytes as geotiff.js decodes it (text, random, runs, > 4,094 codes)', async () => {
  const stock = await stockLzw();
  const cases = [
    Buffer.from('TOBEORNOTTOBEORTOBEORNOT#'),
    randomBytes(50_000),
    Buffer.alloc(70_000, 7),
    Buffer.from(Array.from({ length: 120_000 }, (_, i) => ((i * 7919) % 251) & (i % 3 ? 0xff : 0x0f))),
  ];
  for (const data of cases) {
    const enc = lzwEncode(data);
    const mine = lzwDecode(enc, data.length);
    assert.deepEqual(Buffer.from(mine), data);
    assert.deepEqual(Buffer.from(stock(enc.buffer.slice(0) as ArrayBuffer)), data, 'the test encoder agrees with geotiff.js');
  }
});

test('LZW: output stops at the declared size; a code beyond the table is an error, not a hang', () => {
  const t0 = Date.now();
  const bomb = lzwZeroRunBomb(60_000); // 95 KB declaring about 230 MB
  assert.ok(bomb.length < 100_000);
  const out = lzwDecode(bomb, 256 * 256 * 4);
  assert.equal(out.length, 256 * 256 * 4);
  assert.ok(out.every((b) => b === 0));
  const overrun = lzwDecode(lzwTableOverrun(), 1 << 20);
  assert.ok(overrun.length > 0 && overrun.every((b) => b === 1));
  // 9-bit code 300 right after the clear code: no such entry
  assert.throws(() => lzwDecode(Uint8Array.from([0x80, 0x4b, 0x00, 0x00]), 100), TiffDecodeError);
  assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
});

test('deflate and PackBits: round trips, and a bomb stops at the bound', () => {
  const data = randomBytes(10_000);
  assert.deepEqual(Buffer.from(deflateDecode(deflateBytes(data), data.length)), data);
  assert.deepEqual(Buffer.from(packBitsDecode(packBitsEncode(data), data.length)), data);
  assert.deepEqual(Buffer.from(packBitsDecode(Uint8Array.from([0x81, 9]), 1000)), Buffer.alloc(128, 9));
  assert.equal(packBitsDecode(Uint8Array.from([0x81, 9, 0x81, 9]), 200).length, 200);
  const t0 = process.hrtime.bigint();
  const before = process.memoryUsage().rss;
  const bomb = deflateBomb(1024); // about 1 MiB inflating to 1 GiB
  assert.ok(bomb.length < 1.2 * 2 ** 20, `${bomb.length} bytes`);
  assert.throws(() => deflateDecode(bomb, 256 * 256 * 4), /inflates beyond its declared size/);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.ok(ms < 1500, `refused in ${ms} ms`);
  assert.ok(process.memoryUsage().rss - before < 200 * 2 ** 20, 'no gigabyte was inflated');
});

/** A 16 × 8 float32 river-flood layer (metres) over Hong Kong. */
function floodValues(): Float32Array {
  return Float32Array.from({ length: 16 * 8 }, (_, i) => (i % 17) / 4);
}

test('own layers compressed with LZW, deflate and PackBits read the same values as uncompressed', async () => {
  const values = floodValues();
  const bytes = new Uint8Array(values.buffer);
  for (const [compression, strip] of [
    [1, bytes],
    [5, lzwEncode(bytes)],
    [8, deflateBytes(bytes)],
    [32946, deflateBytes(bytes)],
    [32773, packBitsEncode(bytes)],
  ] as const) {
    const r = await readGeoTiffLayer(singleStripTiff({ width: 16, height: 8, bits: 32, sampleFormat: 3, compression, strip }), entry);
    assert.deepEqual(Array.from(r.data), Array.from(values), `compression ${compression}`);
  }
});

test('hostile own layers are refused or read within their declared size, in well under a second', async () => {
  const cases: [string, Buffer][] = [
    ['LZW table overrun', singleStripTiff({ width: 256, height: 256, bits: 8, sampleFormat: 1, compression: 5, strip: lzwTableOverrun() })],
    ['LZW zero-run bomb', singleStripTiff({ width: 256, height: 256, bits: 32, sampleFormat: 3, compression: 5, strip: lzwZeroRunBomb(60_000) })],
    ['deflate bomb', singleStripTiff({ width: 256, height: 256, bits: 32, sampleFormat: 3, compression: 8, strip: deflateBomb(1024) })],
    ['JPEG', singleStripTiff({ width: 16, height: 8, bits: 8, sampleFormat: 1, compression: 7, strip: randomBytes(100) })],
    ['Zstandard', singleStripTiff({ width: 16, height: 8, bits: 8, sampleFormat: 1, compression: 50000, strip: randomBytes(100) })],
  ];
  for (const [name, file] of cases) {
    const t0 = Date.now();
    try {
      const r = await readGeoTiffLayer(file, entry);
      assert.ok(r.data.length === r.width * r.height, name);
    } catch (err) {
      assert.ok(err instanceof OwnLayerError, `${name}: ${String(err)}`);
      assert.equal(err.field, 'file');
      if (name === 'deflate bomb') assert.match(err.message, /inflates beyond its declared size/);
      if (name === 'JPEG' || name === 'Zstandard') assert.match(err.message, /compression is not accepted; save the layer with none, LZW, DEFLATE or PackBits/);
    }
    assert.ok(Date.now() - t0 < 1500, `${name}: ${Date.now() - t0} ms`);
  }
});
