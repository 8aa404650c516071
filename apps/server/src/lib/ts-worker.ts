import { Worker } from 'node:worker_threads';
import { workerExecArgv } from '@crp/engine';

export { workerExecArgv };

/** A worker thread running the TypeScript module `module` (a file URL) with `workerData`, through one boot file. */
export function startTsWorker(module: URL, workerData: unknown): Worker {
  return new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), { workerData, argv: [module.href], execArgv: workerExecArgv() });
}
