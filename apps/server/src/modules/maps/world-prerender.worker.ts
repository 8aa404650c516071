/**
 * The world-tile pre-render thread (world-prerender.ts): at the lowest CPU priority of this thread, loads the layers,
 * renders the world-view tiles of the datasets asked (or reads their packs), writes each dataset's pack and posts it to
 * the server thread, which serves it from then on.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { defaultHazardLayers } from '@crp/hazards';
import { datasetKey, layersFingerprint, TileRenderer, type MapDataset } from './tile-renderer.js';
import { encodePack, WorldTiles } from './world-tiles.js';

export interface PrerenderJob {
  datasets: MapDataset[];
  fingerprint: string;
  dir: string | null;
}
export type PrerenderMessage = { type: 'pack'; key: string; pack: Buffer; rendered: number } | { type: 'fingerprint'; fingerprint: string };

const job = workerData as PrerenderJob;
const post = (m: PrerenderMessage) => parentPort!.postMessage(m);
try {
  setPriority(19); // Linux: the nice value of this thread only; the server thread keeps its own
} catch {
  // not permitted here: the thread still runs, at the process's priority
}
const layers = await defaultHazardLayers();
const fingerprint = layersFingerprint(layers);
if (fingerprint !== job.fingerprint) post({ type: 'fingerprint', fingerprint });
else {
  const world = new WorldTiles(job.dir, fingerprint);
  const renderer = new TileRenderer(layers, 0, world);
  for (const d of job.datasets) {
    const rendered = await renderer.prerenderWorld([d]);
    const key = `${d.hazard}-${datasetKey(d)}`;
    post({ type: 'pack', key, pack: encodePack(world.tiles(key)!), rendered });
  }
}
