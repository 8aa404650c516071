/**
 * Worker thread of the portfolio tail's event winds (portfolio-tail-winds.ts): loads the event set once per layers
 * directory, answers each request with eventWindsAt's events flattened into typed arrays (transferred).
 */
import { parentPort } from 'node:worker_threads';
import { eventWindsAt, loadEventSet, type EventSet } from '@crp/hazards';
import type { FlatWinds, WindsReply, WindsRequest } from './portfolio-tail-winds.js';

const port = parentPort;
if (!port) throw new Error('portfolio-tail.worker must run in a worker thread');
let loaded: { dir: string; set: EventSet } | null = null;

function flatWinds(req: WindsRequest): FlatWinds {
  if (!loaded || loaded.dir !== req.layersDir) loaded = { dir: req.layersDir, set: loadEventSet(req.layersDir) };
  const points = Array.from(req.lat, (lat, i) => ({ lat, lon: req.lon[i]! }));
  const w = eventWindsAt(loaded.set, points);
  const n = w.events.length;
  const offsets = new Int32Array(n + 1);
  w.events.forEach((e, k) => (offsets[k + 1] = offsets[k]! + e.points.length));
  const flat: FlatWinds = {
    count: n,
    offsets,
    points: new Int32Array(offsets[n]!),
    windMs: new Float32Array(offsets[n]!),
    source: new Uint16Array(n),
    storm: new Int32Array(n),
    member: new Int32Array(n),
    year: new Int32Array(n),
    rate: new Float64Array(n),
    sources: loaded.set.sources.map((s) => ({ key: s.key, group: s.group })),
    basinYears: w.basinYears,
    stats: w.stats,
  };
  const sourceOf = new Map(flat.sources.map((s, i) => [s.key, i]));
  w.events.forEach((e, k) => {
    flat.points.set(e.points, offsets[k]!);
    flat.windMs.set(e.windMs, offsets[k]!);
    flat.source[k] = sourceOf.get(e.source)!;
    // id = `<source key>:<storm>:<member>`
    const b = e.id.lastIndexOf(':'),
      a = e.id.lastIndexOf(':', b - 1);
    flat.storm[k] = Number(e.id.slice(a + 1, b));
    flat.member[k] = Number(e.id.slice(b + 1));
    flat.year[k] = e.year;
    flat.rate[k] = e.rate;
  });
  return flat;
}

port.on('message', (req: WindsRequest) => {
  try {
    const f = flatWinds(req);
    const transfer = [f.offsets, f.points, f.windMs, f.source, f.storm, f.member, f.year, f.rate].map((a) => a.buffer as ArrayBuffer);
    port.postMessage({ id: req.id, type: 'done', winds: f } satisfies WindsReply, transfer);
  } catch (e) {
    port.postMessage({ id: req.id, type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies WindsReply);
  }
});
