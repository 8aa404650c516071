/**
 * Engine benchmark (`npm run bench -w @crp/engine`). Each workload runs in its own child process so its peak memory
 * (max RSS) is its own. Workloads:
 *  - jrc-beta:  the physrisk peer workload: JRC river flood (Asia, industrial) with Beta vulnerability uncertainty,
 *               9 RPs -> 8 bins x 11 impact bins (edges 0, .01, .1 .. 1), per asset its own curve, one core, one hazard, one scenario-year.
 *  - tc:        Emanuel (2011) TC wind, v_thresh 25.7, v_half 74.7, 19 RPs -> 18 bins, deterministic, one core.
 *  - e2e-100k:  100,000 flood assets end to end (curves built, distributions computed, results kept), wall + peak RSS.
 *  - grid-10k / grid-100k: full grid, 11 hazards x 58 scenario-years, worker_threads (2 workers), results streamed.
 *  - layers-20k / layers-100k: the same with the real hazard layers (apps/server/src/modules/analysis/hazard-provider.ts).
 * Usage: node --import tsx bench/bench.ts [workload ...]   (no argument: all)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg, totalmem } from 'node:os';
import {
  impactDistributionBeta,
  jrcCurveWithStd,
  PHYSRISK_IMPACT_EDGES,
  eadFromCurve,
  emanuelDamage,
  integrateExceedance,
  analysePortfolioParallel,
  SCENARIO_YEARS,
  type ResultChunk,
} from '../src/index.js';
import { syntheticAssets } from './synthetic-provider.js';

const here = fileURLToPath(import.meta.url);
const RP9 = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
const RP19 = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];

function rand(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Per-asset flood depth curves (m) at 9 RPs: random points between +-60 deg, each with its own curve. */
function floodCurves(n: number): Float64Array {
  const r = rand(42);
  const out = new Float64Array(n * 9);
  for (let i = 0; i < n; i++) {
    const scale = r() * 4;
    const onset = r() * 0.5;
    for (let k = 0; k < 9; k++) out[i * 9 + k] = Math.max(0, scale * (Math.log(RP9[k]!) / Math.log(1000) - onset * 0.5));
  }
  return out;
}
function windCurves(n: number): Float64Array {
  const r = rand(7);
  const out = new Float64Array(n * 19);
  for (let i = 0; i < n; i++) {
    const v = 20 + r() * 50;
    for (let k = 0; k < 19; k++) out[i * 19 + k] = v * (0.55 + (0.45 * Math.log(RP19[k]!)) / Math.log(1000));
  }
  return out;
}

function jrcBeta(n: number, keep: boolean) {
  const c = jrcCurveWithStd('industrial', 'asia')!;
  const curve = { intensity: c.depthsM, mean: c.mean, std: c.std };
  const t0 = performance.now();
  const depths = floodCurves(n);
  const tIn = performance.now();
  const ne = PHYSRISK_IMPACT_EDGES.length - 1;
  const probs = keep ? new Float64Array(n * ne) : new Float64Array(ne);
  const means = new Float64Array(n);
  const matrix = new Float64Array(8 * ne);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const p = keep ? probs.subarray(i * ne, i * ne + ne) : probs;
    means[i] = impactDistributionBeta(RP9, depths.subarray(i * 9, i * 9 + 9), curve, PHYSRISK_IMPACT_EDGES, p, matrix);
  }
  const t1 = performance.now();
  const cu = process.cpuUsage(c0);
  const cpuSec = (cu.user + cu.system) / 1e6;
  let s = 0;
  for (let i = 0; i < n; i++) s += means[i]!;
  return { assets: n, computeMs: t1 - tIn, totalMs: t1 - t0, assetsPerSec: n / ((t1 - tIn) / 1000), assetsPerCpuSec: n / cpuSec, checksum: s / n };
}

function tc(n: number) {
  const winds = windCurves(n);
  const p = Float64Array.from(RP19, (rp) => 1 / rp);
  const d = new Float64Array(19);
  const out = new Float64Array(2);
  const means = new Float64Array(n);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const o = i * 19;
    for (let k = 0; k < 19; k++) d[k] = emanuelDamage(winds[o + k]!, 74.7, 25.7);
    integrateExceedance(p, d, 19, 'none', Infinity, out); // 18 bins, bin mean = (D_i + D_i+1)/2, tails dropped
    means[i] = out[0]!;
  }
  const t1 = performance.now();
  const cu = process.cpuUsage(c0);
  const cpuSec = (cu.user + cu.system) / 1e6;
  // cross-check one asset with the generic path
  const check = eadFromCurve(RP19, Array.from(winds.subarray(0, 19)), (v) => emanuelDamage(v), { tail: 'none' }).mean;
  if (Math.abs(check - means[0]!) > 1e-12) throw new Error('tc mismatch');
  let s = 0;
  for (let i = 0; i < n; i++) s += means[i]!;
  return { assets: n, computeMs: t1 - t0, assetsPerSec: n / ((t1 - t0) / 1000), assetsPerCpuSec: n / cpuSec, checksum: s / n };
}

/** The server's adapter to the real hazard layers (@crp/hazards), loaded by each worker. */
const LAYERS_PROVIDER = fileURLToPath(new URL('../../../apps/server/src/modules/analysis/hazard-provider.ts', import.meta.url));

async function grid(n: number, workers: number, providerPath?: string) {
  const assets = syntheticAssets(n);
  const provider = providerPath ?? fileURLToPath(new URL('./synthetic-provider.ts', import.meta.url));
  let cells = 0;
  let sumEad = 0;
  const cpu0 = process.cpuUsage();
  const r = await analysePortfolioParallel(assets, {
    providerModule: provider,
    workers,
    chunkSize: 1000,
    onChunk: (c: ResultChunk) => {
      cells += c.ead.length;
      for (let i = 0; i < c.ead.length; i += 97) {
        const v = c.ead[i]!;
        if (v === v) sumEad += v;
      }
    },
  });
  const cpu = process.cpuUsage(cpu0);
  return {
    assets: n,
    workers: r.workers,
    scenarioYears: SCENARIO_YEARS.length,
    hazards: 11,
    cells,
    wallMs: r.wallMs,
    assetsPerSec: n / (r.wallMs / 1000),
    cellsPerSec: cells / (r.wallMs / 1000),
    cpuSec: (cpu.user + cpu.system) / 1e6,
    checksum: sumEad,
  };
}

async function runOne(name: string): Promise<Record<string, unknown>> {
  switch (name) {
    case 'jrc-beta':
      jrcBeta(20_000, false);
      return jrcBeta(200_000, false);
    case 'tc':
      tc(200_000);
      return tc(2_000_000);
    case 'e2e-100k':
      return jrcBeta(100_000, true);
    case 'grid-10k':
      return grid(10_000, 2);
    case 'grid-100k':
      return grid(100_000, 2);
    case 'layers-20k':
      return grid(20_000, 2, LAYERS_PROVIDER);
    case 'layers-100k':
      return grid(100_000, 2, LAYERS_PROVIDER);
    default:
      throw new Error(`unknown workload ${name}`);
  }
}

const ALL = ['jrc-beta', 'tc', 'e2e-100k', 'grid-10k', 'grid-100k', 'layers-100k'];
const args = process.argv.slice(2);
if (args[0] === '--child') {
  const c0 = process.cpuUsage();
  const res = await runOne(args[1]!);
  const c = process.cpuUsage(c0);
  const ru = process.resourceUsage();
  console.log(JSON.stringify({ cpuSecTotal: (c.user + c.system) / 1e6, ...res, peakRssMb: Math.round(ru.maxRSS / 1024), load1: loadavg()[0] }));
} else {
  const list = args.length ? args : ALL;
  console.log(
    `# @crp/engine bench — ${new Date().toISOString()} — ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  );
  for (const w of list) {
    const r = spawnSync(process.execPath, [...process.execArgv, here, '--child', w], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) {
      console.error(`${w}: failed\n${r.stderr}`);
      process.exitCode = 1;
      continue;
    }
    const line = r.stdout.trim().split('\n').pop()!;
    const o = JSON.parse(line) as Record<string, number>;
    const fmt = (v: number) => Math.round(v).toLocaleString('en-US');
    const load = ` [load avg ${o.load1!.toFixed(1)} on ${cpus().length} cores]`;
    if (w === 'jrc-beta' || w === 'tc')
      console.log(
        `${w}: ${fmt(o.assetsPerSec!)} assets/s/core wall, ${fmt(o.assetsPerCpuSec!)} assets per CPU-second (${fmt(o.assets!)} assets in ${o.computeMs!.toFixed(0)} ms), peak ${o.peakRssMb} MB${load}`,
      );
    else if (w === 'e2e-100k')
      console.log(
        `${w}: ${(o.totalMs! / 1000).toFixed(2)} s end to end (${fmt(o.assetsPerSec!)} assets/s compute), CPU ${o.cpuSecTotal!.toFixed(2)} s, peak ${o.peakRssMb} MB${load}`,
      );
    else
      console.log(
        `${w}: ${fmt(o.assets!)} assets x 11 hazards x ${o.scenarioYears} scenario-years = ${fmt(o.cells!)} cells in ${(o.wallMs! / 1000).toFixed(2)} s on ${o.workers} workers: ${fmt(o.assetsPerSec!)} full-grid assets/s, ${fmt(o.cellsPerSec!)} cells/s, CPU ${o.cpuSec!.toFixed(1)} s (projected wall on ${o.workers} idle cores ${(o.cpuSec! / o.workers!).toFixed(1)} s), peak ${o.peakRssMb} MB${load}`,
      );
  }
}
