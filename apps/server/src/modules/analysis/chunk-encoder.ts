/**
 * Runs in the engine's worker threads (the pool's post module, see analysis-pool.ts): turns each computed chunk into
 * what the server stores, its encoded blob (result-codec.ts v3: about 10 CPU-ms and 0.85 MB per 500 assets, from
 * 12.2 MB of typed arrays) and its share of the project card's figures, so that encoding and summarising never run on
 * the server's event loop. Must not import the server.
 */
import type { HazardKey } from '@crp/contracts';
import type { PreparedAsset, ResultChunk } from '@crp/engine';
import type { DefaultFilters } from '../../infra/db/schema.js';
import { summaryShare, type SummaryShare } from './chunk-summary.js';
import { encodeChunk, type StoredChunk } from './result-codec.js';

export interface EncodeOptions {
  filters: DefaultFilters;
  hazards: HazardKey[];
}

export interface EncodedChunk {
  /** The encoded blob (result-codec.ts v3). */
  data: Uint8Array;
  share: SummaryShare;
  /** Worker-thread CPU time spent encoding and summarising (ms). */
  encodeMs: number;
  /** True: done in a worker thread (the test checks it). */
  inWorker: boolean;
}

export async function postProcessChunk(
  chunk: ResultChunk,
  prepared: readonly PreparedAsset[],
  options: unknown,
): Promise<{ value: EncodedChunk; transfer: ArrayBuffer[] }> {
  const { filters, hazards } = options as EncodeOptions;
  const t0 = performance.now();
  const stored = chunk as StoredChunk;
  const share = summaryShare(prepared, stored.start, stored, filters, hazards);
  const blob = encodeChunk(stored);
  // A Buffer may be a view into a shared pool: copy to its own ArrayBuffer so it can be transferred.
  const data = blob.byteOffset === 0 && blob.byteLength === blob.buffer.byteLength ? new Uint8Array(blob.buffer, 0, blob.byteLength) : new Uint8Array(blob);
  const { isMainThread } = await import('node:worker_threads');
  return { value: { data, share, encodeMs: performance.now() - t0, inWorker: !isMainThread }, transfer: [data.buffer as ArrayBuffer] };
}
