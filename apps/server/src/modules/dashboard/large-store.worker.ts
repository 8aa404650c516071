/**
 * Worker thread of the dashboard store (large-store.ts): summarises each batch of assets it is sent
 * (large-store-compute.ts) and posts the result back, the slices' and sums' buffers transferred.
 */
import { parentPort } from 'node:worker_threads';
import { computeStoreBatch, type StoreBatchInput } from './large-store-compute.js';

const port = parentPort;
if (!port) throw new Error('large-store.worker must run in a worker thread');
port.on('message', (input: StoreBatchInput) => {
  try {
    const out = computeStoreBatch(input);
    const transfer = [...out.slices, ...out.bars, ...out.sums, out.means].map((a) => a.buffer as ArrayBuffer);
    port.postMessage({ ok: true, out }, transfer);
  } catch (e) {
    port.postMessage({ ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
