import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

// The bundled library cannot find its worker next to itself; hand it the emitted worker file. Every MapLibre map of
// the app imports this module once (`import '.../lib/maplibreWorker'`) before it creates a map.
setWorkerUrl(workerUrl);
