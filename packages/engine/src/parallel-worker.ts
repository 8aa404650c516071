/**
 * Worker side of parallel.ts: imports the provider module (and the optional post module), computes each task and
 * sends the result back: the chunk's typed arrays (transferred), or, with a post module, only what its function made
 * of the chunk (e.g. the compressed blob and summary a server stores), so the calling thread never holds the arrays.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { ResultChunk } from './compute.js';
import { computeChunk, prepareAssets, type HazardProvider } from './portfolio.js';
import { SCENARIO_YEARS } from './scenarios.js';
import type { ChunkPostProcessor, WorkerTask } from './parallel.js';

const data = workerData as {
  providerModule: string;
  providerExport: string;
  providerOptions: unknown;
  scenarioYearKeys: string[];
  measures: object;
  postModule?: string;
  postExport?: string;
};
const sys = SCENARIO_YEARS.filter((s) => data.scenarioYearKeys.includes(s.key));
const specOf = (m: string) => (/^[a-z]+:/i.test(m) ? m : pathToFileURL(m).href);
const mod = (await import(specOf(data.providerModule))) as Record<string, (o: unknown) => HazardProvider>;
const factory = mod[data.providerExport];
if (typeof factory !== 'function') throw new Error(`${data.providerModule} does not export ${data.providerExport}`);
const provider = factory(data.providerOptions);
let post: ChunkPostProcessor | undefined;
if (data.postModule) {
  const pm = (await import(specOf(data.postModule))) as Record<string, ChunkPostProcessor>;
  post = pm[data.postExport ?? 'postProcessChunk'];
  if (typeof post !== 'function') throw new Error(`${data.postModule} does not export ${data.postExport ?? 'postProcessChunk'}`);
}
const port = parentPort;
if (!port) throw new Error('parallel-worker must run in a worker thread');

port.on('message', async (task: WorkerTask) => {
  try {
    const prepared = prepareAssets(task.assets, data.measures, task.start);
    const chunk = computeChunk(prepared, task.assets, 0, task.assets.length, sys, provider);
    const out: ResultChunk = { ...chunk, start: task.start };
    if (post) {
      const { value, transfer } = await post(out, prepared, task.post);
      const head = { start: out.start, count: out.count, hazards: out.hazards, scenarioYears: out.scenarioYears };
      port.postMessage({ type: 'chunk', id: task.id, chunk: head, post: value }, transfer ?? []);
      return;
    }
    const transfer = [
      out.ead,
      out.eadResidual,
      out.disruption,
      out.disruptionResidual,
      out.sd,
      out.maxDamage,
      out.tail100,
      out.tail250,
      out.score,
      out.scoreResidual,
      out.climateScore,
      out.climateScoreResidual,
      ...(out.intensity ? [out.intensity] : []),
    ].map((a) => a.buffer as ArrayBuffer);
    port.postMessage({ type: 'chunk', id: task.id, chunk: out }, transfer);
  } catch (e) {
    port.postMessage({ type: 'error', id: task.id, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ type: 'ready' });
