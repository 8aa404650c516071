/**
 * Worker thread of the dashboard's precomputation (year-batches.ts): computes what year-batches-compute.ts describes
 * from the decoded analysis it is given (its arrays shared, not copied) and posts each piece as it is done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { computeYearBatches, type YearInput, type YearMessage } from './year-batches-compute.js';

const port = parentPort;
if (!port) throw new Error('year-batches.worker must run in a worker thread');
try {
  computeYearBatches(workerData as YearInput, (m, transfer) => port.postMessage(m, transfer));
} catch (e) {
  port.postMessage({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies YearMessage);
}
