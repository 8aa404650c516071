/**
 * Parse-child tasks for hostile-files.test.ts: what a runaway parser does, run through the real ParseSandbox. The
 * stock geotiff.js reader (without the bounded decoders, which this module does not load) on the LZW table overrun
 * is the V8 fatal error of issue 32; the others exhaust the heap, native memory or time.
 */
import { fromArrayBuffer } from 'geotiff';

/** Reads a GeoTIFF's pixels with geotiff.js's own decoders. */
export async function stockGeoTiff(_input: unknown, file: Buffer | null): Promise<number> {
  const ab = file!.buffer.slice(file!.byteOffset, file!.byteOffset + file!.byteLength) as ArrayBuffer;
  const img = await (await fromArrayBuffer(ab)).getImage();
  const r = (await img.readRasters({ samples: [0] })) as unknown as ArrayLike<number>[];
  return r[0]!.length;
}

/** Grows the V8 heap until it cannot. */
export async function heapHog(): Promise<number> {
  const keep: number[][] = [];
  for (;;) keep.push(Array.from({ length: 100_000 }, (_, i) => i + keep.length));
}

/** Takes native memory (Buffers, outside the V8 heap) until stopped. */
export async function bufferHog(): Promise<number> {
  const keep: Buffer[] = [];
  for (;;) {
    keep.push(Buffer.alloc(16 * 1_048_576, 1));
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Never ends. */
export async function spin(): Promise<number> {
  for (;;);
}

/** Answers at once (the start-up and round trip of a warm child). */
export async function echo(input: unknown): Promise<unknown> {
  return input;
}
