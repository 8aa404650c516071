/**
 * Point-query benchmark: all eleven hazards for one scenario-year at random land/sea points.
 * Prints queries per second for the fast path (sampleCurves, flat typed arrays) and for samplePoint (objects),
 * plus the memory of the loaded layers. Run: npm run bench -w @crp/hazards
 */
import os from 'node:os';
import { loadHazardLayers, newCurveSample } from '../src/index.js';

const t0 = performance.now();
const heapBefore = process.memoryUsage();
const l = loadHazardLayers();
const loadMs = performance.now() - t0;
const mem = process.memoryUsage();
const N = 200_000;
const lat = new Float64Array(N),
  lng = new Float64Array(N);
let seed = 42;
const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296;
for (let i = 0; i < N; i++) {
  lat[i] = -60 + 130 * rnd();
  lng[i] = -180 + 360 * rnd();
}
const ctx = l.resolveScenario({ analysisType: 'ssp', scenario: '85', year: 2050 });
const out = newCurveSample();

function run(label: string, n: number, fn: (i: number) => void) {
  for (let i = 0; i < Math.min(n, 20_000); i++) fn(i); // warm-up
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  const s = (performance.now() - t) / 1000;
  console.log(
    `${label.padEnd(44)} ${Math.round(n / s)
      .toLocaleString('en-US')
      .padStart(12)} queries/s`,
  );
  return n / s;
}
let sink = 0;
const fast = run('sampleCurves (11 hazards, 4 curves, typed)', N, (i) => {
  l.sampleCurves(lat[i]!, lng[i]!, ctx, out);
  sink += out.values[0]!;
});
const obj = run('samplePoint (11 HazardPointValue objects)', N / 2, (i) => {
  const r = l.samplePoint(lat[i]!, lng[i]!, { analysisType: 'ssp', scenario: '85', year: 2050 });
  sink += r.typhoon.score;
});
console.log(
  `layers in memory: ${(l.memoryBytes() / 1e6).toFixed(1)} MB typed arrays; process RSS ${(mem.rss / 1e6).toFixed(0)} MB (before load ${(heapBefore.rss / 1e6).toFixed(0)} MB); load ${loadMs.toFixed(0)} ms`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(
      ' ',
    )}; machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  JSON.stringify({
    bench: '@crp/hazards',
    fastQps: Math.round(fast),
    objectQps: Math.round(obj),
    layersMB: +(l.memoryBytes() / 1e6).toFixed(1),
    sink: Number.isFinite(sink),
  }),
);
