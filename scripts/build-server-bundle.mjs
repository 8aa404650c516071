#!/usr/bin/env node
// The server as plain JavaScript for the test suites' processes (scripts/test.mjs builds it once per run and names its
// folder in CRP_SERVER_BUNDLE; it bundles each server test process's files the same way). Through tsx, every process
// and worker thread compiles and loads several hundred TypeScript files before it does anything: a server process
// (`node --import tsx apps/server/src/main.ts`) spent about 3 CPU-seconds more starting than its bundle, a test
// process about 2, and each engine worker of an analysis pool compiled the engine and hazards again in its thread.
//
// The bundle behaves as the sources do:
// - the workspace packages (@crp/*) are bundled, every npm package stays an import from node_modules (there is one,
//   hoisted node_modules at the root, so a package resolves from the bundle's folder as from the sources);
// - every module's `import.meta.url` is replaced by the URL of its source file, so what the code finds relative to
//   itself (the hazard layers, migrations, fonts, geo data, REPO_ROOT, the parse children's entry and task modules,
//   which still run through tsx) is found where it was;
// - the worker threads' modules (WORKER_BUNDLE_ENTRIES) are bundle entries too: the code that starts a worker names
//   the bundled module instead of the source;
// - names are kept (keepNames), so class and function names (error names, plugin names) are those of the sources.
//
// Usage: node scripts/build-server-bundle.mjs [outdir]   (default test-output/server-bundle; prints the folder)
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The entries, by the name of their output file (`<name>.mjs`). */
export const SERVER_BUNDLE_ENTRIES = {
  main: 'apps/server/src/main.ts',
  worker: 'apps/server/src/worker.ts',
  admin: 'apps/server/src/admin.ts',
  'hazards-register': 'apps/server/src/hazards-register.ts',
  'smtp-sink': 'apps/server/src/dev/smtp-sink.ts',
};

/**
 * The modules that worker threads and the parse children load by URL (`new URL('./x.ts', import.meta.url)`), by the
 * name of their bundle file: [source, and the file the code names where that is not the source]. Through tsx, every engine worker of a
 * process's analysis pool (one per core) and every dashboard-store and world-tile worker compiles the engine's and
 * hazards' sources again in its thread; bundled, it loads them as JavaScript. The engine pool's boot file (which
 * registers tsx in the thread) gives way to the worker module itself, which then needs no loader.
 */
export const WORKER_BUNDLE_ENTRIES = {
  'parallel-worker': ['packages/engine/src/parallel-worker.ts', 'packages/engine/src/parallel-worker-boot.mjs'],
  'hazard-provider': ['apps/server/src/modules/analysis/hazard-provider.ts'],
  'chunk-encoder': ['apps/server/src/modules/analysis/chunk-encoder.ts'],
  'large-store.worker': ['apps/server/src/modules/dashboard/large-store.worker.ts'],
  'year-batches.worker': ['apps/server/src/modules/dashboard/year-batches.worker.ts'],
  'world-prerender.worker': ['apps/server/src/modules/maps/world-prerender.worker.ts'],
  // the parse children (lib/parse-sandbox.ts) and their task modules: through tsx each child's cold start cost 1.5-5 s
  // of a core, in every server process of the tests that reads an upload
  'parse-child': ['apps/server/src/lib/parse-child.ts'],
  'asset-import.parse': ['apps/server/src/modules/projects/asset-import.parse.ts'],
  'own-layer.parse': ['apps/server/src/modules/own-layers/own-layer.parse.ts'],
};

/** Source path (absolute) → file URL of its worker bundle in `outdir` (for sourceLocations). */
export function workerFiles(outdir) {
  return new Map(
    Object.entries(WORKER_BUNDLE_ENTRIES).map(([name, [entry, named = entry]]) => [join(root, named), pathToFileURL(join(outdir, `${name}.mjs`)).href]),
  );
}

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };
const WORKER_URL = /new URL\(\s*(['"])(\.\.?\/[^'"]+)\1,\s*import\.meta\.url\s*\)/g;

/**
 * npm packages external (the workspace packages, @crp/*, are TypeScript sources: bundled); every `import.meta.url`
 * its source file's URL; a worker module named relative to it (`new URL('./x.worker.ts', import.meta.url)`) replaced
 * by its bundle's URL where `workers` (workerFiles) has one.
 * @returns {import('esbuild').Plugin}
 */
const sourceLocations = (workers = new Map()) => ({
  name: 'source-locations',
  setup(b) {
    // a file URL (scripts/test.mjs's group files import their test files so) is that file, bundled
    b.onResolve({ filter: /^file:/ }, (args) => ({ path: fileURLToPath(args.path) }));
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@crp/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.(m|c)?[jt]sx?$/ }, async (args) => {
      if (args.path.split(sep).includes('node_modules')) return undefined;
      const source = await readFile(args.path, 'utf8');
      const text = source.replace(WORKER_URL, (all, _q, rel) => {
        const bundled = workers.get(resolve(dirname(args.path), rel));
        return bundled ? `new URL(${JSON.stringify(bundled)})` : all;
      });
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: LOADERS[extname(args.path)] ?? 'ts' };
    });
  },
});

/**
 * Bundles `entryPoints` (`{ out, in }`: output name without `.mjs`, source path from the repository root) into
 * `outdir` as ES modules: the workspace's own code bundled, npm packages imported from node_modules, every
 * `import.meta.url` its source file's, worker modules those of `workers` (sourceLocations above). `splitting`: code
 * the entries share in chunk files (one copy of a module per process, whichever entry loads it).
 */
export async function bundleForNode({ entryPoints, outdir, splitting = false, workers = new Map() }) {
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    logLevel: 'warning',
    plugins: [sourceLocations(workers)],
  });
}

/** Builds the server's entries and worker modules into `outdir` (emptied first); answers the folder. */
export async function buildServerBundle(outdir = join(root, 'test-output', 'server-bundle')) {
  await rm(outdir, { recursive: true, force: true });
  const entryPoints = [
    ...Object.entries(SERVER_BUNDLE_ENTRIES).map(([out, entry]) => ({ out, in: entry })),
    ...Object.entries(WORKER_BUNDLE_ENTRIES).map(([out, [entry]]) => ({ out, in: entry })),
  ];
  await bundleForNode({ entryPoints, outdir, splitting: true, workers: workerFiles(outdir) });
  return outdir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildServerBundle(process.argv[2] ? resolve(process.argv[2]) : undefined));
}
