/** Worker side of parallel.ts: imports the provider module, computes each task, transfers the typed arrays back. */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { ResultChunk } from './compute.js';
import { computeChunk, prepareAssets, type HazardProvider } from './portfolio.js';
import { SCENARIO_YEARS } from './scenarios.js';
import type { WorkerTask } from './parallel.js';

const data = workerData as { providerModule: string; providerExport: string; providerOptions: unknown; scenarioYearKeys: string[]; measures: object };
const sys = SCENARIO_YEARS.filter((s) => data.scenarioYearKeys.includes(s.key));
const spec = /^[a-z]+:/i.test(data.providerModule) ? data.providerModule : pathToFileURL(data.providerModule).href;
const mod = (await import(spec)) as Record<string, (o: unknown) => HazardProvider>;
const factory = mod[data.providerExport];
if (typeof factory !== 'function') throw new Error(`${data.providerModule} does not export ${data.providerExport}`);
const provider = factory(data.providerOptions);
const port = parentPort;
if (!port) throw new Error('parallel-worker must run in a worker thread');

port.on('message', (task: WorkerTask) => {
  try {
    const prepared = prepareAssets(task.assets, data.measures, task.start);
    const chunk = computeChunk(prepared, task.assets, 0, task.assets.length, sys, provider);
    const out: ResultChunk = { ...chunk, start: task.start };
    const transfer = [out.ead, out.eadResidual, out.disruption, out.disruptionResidual, out.sd, out.maxDamage, out.tail100, out.tail250, out.score, out.scoreResidual, out.climateScore, out.climateScoreResidual,
      ...(out.intensity ? [out.intensity] : [])].map((a) => a.buffer as ArrayBuffer);
    port.postMessage({ type: 'chunk', chunk: out }, transfer);
  } catch (e) {
    port.postMessage({ type: 'error', message: e instanceof Error ? e.stack ?? e.message : String(e) });
  }
});
port.postMessage({ type: 'ready' });
