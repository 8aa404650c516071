/**
 * The event winds of a portfolio (@crp/hazards eventWindsAt: 5-50 CPU-s for a portfolio, 154 s for 1,000 assets over
 * 40 cyclone coasts) computed in a worker thread (portfolio-tail.worker.ts), so the server's event loop keeps
 * answering other requests meanwhile. One worker at a time in the process: it is started on the first request, keeps
 * the event set it loaded (1.6 s to read) for the next requests and ends after WORKER_IDLE_MS without one; requests
 * queue on its port and are computed one after another, so many users cannot start many computations at once. The
 * events come back as flat typed arrays (transferred, not copied); the caller keeps one computation per project and
 * version (PortfolioTailService).
 */
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from '../../lib/ts-worker.js';

/** An idle worker (and the event set it holds) ends after this long without a request. */
export const WORKER_IDLE_MS = 60_000;

/** What the worker is asked: the layers directory and the points (lat, lon) where the wind of every event is evaluated. */
export interface WindsRequest {
  id: number;
  layersDir: string;
  lat: Float64Array;
  lon: Float64Array;
}

/** Every event reaching a point, flat: event e's points and winds are points/windMs[offsets[e] .. offsets[e + 1]). */
export interface FlatWinds {
  count: number;
  offsets: Int32Array;
  points: Int32Array;
  windMs: Float32Array;
  /** Index into `sources`, storm index and member of each event (its id is `<source key>:<storm>:<member>`). */
  source: Uint16Array;
  storm: Int32Array;
  member: Int32Array;
  /** Catalogue year within the basin (1-based) and annual rate of each event. */
  year: Int32Array;
  rate: Float64Array;
  sources: { key: string; group: string }[];
  basinYears: Record<string, number>;
  stats: { membersGenerated: number; stormsFollowed: number; stormsSkipped: number; seconds: number; perturbSeconds: number };
}

export type WindsReply = { id: number; type: 'done'; winds: FlatWinds } | { id: number; type: 'error'; message: string };

let worker: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (w: FlatWinds) => void; reject: (e: Error) => void }>();

function failAll(e: Error): void {
  for (const p of pending.values()) p.reject(e);
  pending.clear();
}

function theWorker(): Worker {
  if (worker) return worker;
  // workerData not null: a dependency of @crp/hazards (web-worker) reads its fields when loaded in a worker thread
  const w = startTsWorker(new URL('./portfolio-tail.worker.ts', import.meta.url), {});
  w.unref();
  w.on('message', (m: WindsReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.type === 'done') p.resolve(m.winds);
    else p.reject(new Error(`event winds: ${m.message}`));
    if (pending.size === 0) armIdle();
  });
  w.on('error', (e) => {
    if (worker === w) worker = null;
    failAll(e);
  });
  w.on('exit', (code) => {
    if (worker === w) worker = null;
    failAll(new Error(`event winds: the worker exited (code ${code})`));
  });
  return (worker = w);
}

function armIdle(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    if (pending.size === 0 && worker) {
      const w = worker;
      worker = null;
      void w.terminate();
    }
  }, WORKER_IDLE_MS);
  idle.unref();
}

/** The event winds at the points, computed in the worker thread (queued behind the requests before it). */
export function eventWindsInWorker(layersDir: string, points: readonly { lat: number; lon: number }[]): Promise<FlatWinds> {
  if (idle) {
    clearTimeout(idle);
    idle = null;
  }
  const w = theWorker();
  const id = nextId++;
  const lat = Float64Array.from(points, (p) => p.lat);
  const lon = Float64Array.from(points, (p) => p.lon);
  return new Promise<FlatWinds>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, layersDir, lat, lon } satisfies WindsRequest, [lat.buffer, lon.buffer]);
  });
}
