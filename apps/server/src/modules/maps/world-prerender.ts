/**
 * Pre-render of the world-view tiles in a worker thread at the lowest priority (nice 19 for that thread), so the
 * server's event loop is not held up: each dataset's pack comes back whole and is served from then on. The thread
 * holds its own copy of the hazard layers (about 160 MB) while it runs and ends when done.
 */
import { startTsWorker } from '../../lib/ts-worker.js';
import { datasetKey, type MapDataset } from './tile-renderer.js';
import type { PrerenderJob, PrerenderMessage } from './world-prerender.worker.js';
import { decodePack, type WorldTiles } from './world-tiles.js';

export interface PrerenderRun {
  /** Resolves with the number of tiles rendered (packs read from the folder count 0). */
  done: Promise<number>;
  stop(): Promise<void>;
}

/** Renders (in a thread) the world tiles of the datasets not complete in `world`, adopting each pack as it comes. */
export function prerenderInThread(world: WorldTiles, dir: string | null, datasets: MapDataset[]): PrerenderRun {
  const todo = datasets.filter((d) => !world.complete(`${d.hazard}-${datasetKey(d)}`));
  if (todo.length === 0) return { done: Promise.resolve(0), stop: async () => {} };
  const job: PrerenderJob = { datasets: todo, fingerprint: world.fingerprint, dir };
  const w = startTsWorker(new URL('./world-prerender.worker.ts', import.meta.url), job);
  w.unref(); // never keeps the process alive
  let rendered = 0;
  const done = new Promise<number>((resolve, reject) => {
    w.on('message', (m: PrerenderMessage) => {
      if (m.type === 'fingerprint') {
        reject(new Error(`world tiles: the thread's layers have fingerprint ${m.fingerprint}, the server's ${world.fingerprint}`));
        return;
      }
      const tiles = decodePack(Buffer.from(m.pack.buffer, m.pack.byteOffset, m.pack.byteLength));
      if (tiles) world.adopt(m.key, tiles);
      rendered += m.rendered;
    });
    w.on('error', reject);
    w.on('exit', () => resolve(rendered));
  });
  return { done, stop: async () => void (await w.terminate()) };
}
