import { Worker } from 'node:worker_threads';

/** Node options for a worker thread: the parent's loader (tsx), without test-runner, profiler or watch flags. */
export function workerExecArgv(): string[] {
  return process.execArgv.filter((a) => !a.startsWith('--test') && !a.startsWith('--cpu-prof') && !a.startsWith('--watch'));
}

/** A worker thread running the TypeScript module `module` (a file URL) with `workerData`, through one boot file. */
export function startTsWorker(module: URL, workerData: unknown): Worker {
  return new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), { workerData, argv: [module.href], execArgv: workerExecArgv() });
}
