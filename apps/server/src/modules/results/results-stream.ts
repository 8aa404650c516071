/**
 * The rows of a results API page, produced a stored chunk at a time (issue 36 item 4): a project's analysis is read
 * and decoded one chunk (500 assets, about 12 MB decoded) at a time, its rows generated and handed on in batches, so a
 * request's memory does not grow with the project, and the work yields to the event loop every few milliseconds.
 */
import type { AssetResult } from '@crp/contracts';
import { assetRows, type OwnLayerMarker, type ResultSelection, cellsOf } from '../analysis/result-rows.js';
import { decodeChunkAsync } from '../analysis/result-codec.js';
import { resultsOf, type ProjectResults, type ResultsAssetRow } from '../analysis/results-reader.js';
import type { AssetRow } from '../../infra/db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { ResultsRepository } from './results.repository.js';

/** Longest stretch of row work between two turns of the event loop (other requests wait at most about this). */
export const SLICE_MS = 8;
/** Rows handed on at once (the writers encode a batch, then check backpressure). */
const BATCH_ROWS = 1_000;

/** Which rows a page holds: the selected assets' ordinals and the page's rows over the request's numbering. */
export interface RowPlan {
  /** Ordinals of the selected assets, ascending; null = every asset 0..assets-1. */
  ordinals: readonly number[] | null;
  /** Selected assets. */
  assets: number;
  /** Rows per asset (hazards x scenarios x years). */
  perAsset: number;
  /** Rows of the whole request. */
  total: number;
  /** This page's rows: [from, to). */
  from: number;
  to: number;
}

/** A decoded stretch of a request's assets: results.assets[0] is the asset of ordinal `base`. */
export interface RowWindow {
  results: ProjectResults<AssetRow | ResultsAssetRow>;
  base: number;
}

/** Where the decoded results come from: a project's stored chunks, or posted assets analysed just now. */
export interface WindowSource {
  /** Windows covering ordinals [first, last] in order, each holding at least one ordinal of `wanted` (ascending). */
  windows(wanted: readonly number[], first: number, last: number): AsyncGenerator<RowWindow>;
  marker:
    (OwnLayerMarker & { prefetch?: (points: readonly { latitude?: unknown; longitude?: unknown }[], sys: ReturnType<typeof cellsOf>) => Promise<void> }) | null;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

/** Ordinal of the k-th selected asset. */
const ordinalOf = (plan: RowPlan, k: number) => (plan.ordinals ? plan.ordinals[k]! : k);

/** The page's rows, in batches, in answer order. */
export async function* pageRows(source: WindowSource, plan: RowPlan, sel: ResultSelection): AsyncGenerator<AssetResult[]> {
  if (plan.to <= plan.from) return;
  const firstK = Math.floor(plan.from / plan.perAsset);
  const lastK = Math.floor((plan.to - 1) / plan.perAsset);
  const wanted: number[] = [];
  for (let k = firstK; k <= lastK; k++) wanted.push(ordinalOf(plan, k));
  let k = firstK;
  let left = plan.to - plan.from;
  let batch: AssetResult[] = [];
  let sliceStart = performance.now();
  const cells = cellsOf(sel.analysisType, sel.scenarios, sel.years);
  for await (const w of source.windows(wanted, wanted[0]!, wanted[wanted.length - 1]!)) {
    await source.marker?.prefetch?.(w.results.assets, cells);
    const end = w.base + w.results.assets.length;
    while (k <= lastK && left > 0 && ordinalOf(plan, k) < end) {
      const ord = ordinalOf(plan, k);
      const skip = k === firstK ? plan.from % plan.perAsset : 0;
      for (const row of assetRows(w.results, ord - w.base, sel, source.marker, w.base, skip)) {
        batch.push(row);
        if (--left === 0) break;
      }
      k++;
      if (batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
      }
      if (performance.now() - sliceStart > SLICE_MS) {
        await turn();
        sliceStart = performance.now();
      }
    }
    if (left === 0) break;
  }
  if (batch.length) yield batch;
  if (left > 0) throw new AppError(409, 'The stored analysis does not match the assets (they changed since). A new analysis is queued or running.');
}

/** Posted assets: their results were computed for the request and are all in memory (at most 1,000 assets). */
export function postedSource(results: ProjectResults<ResultsAssetRow>, marker: WindowSource['marker']): WindowSource {
  return {
    marker,
    async *windows() {
      yield { results, base: 0 };
    },
  };
}

/** A project's stored analysis run `version`, read and decoded one stored chunk at a time. */
export function projectSource(repo: ResultsRepository, projectId: number, version: number, marker: WindowSource['marker']): WindowSource {
  return {
    marker,
    async *windows(wanted, first, last) {
      const chunks = await repo.chunkList(projectId, version);
      let w = 0;
      let lastRead: { end: number; position: number } | null = null;
      for (const c of chunks) {
        const end = c.chunk_start + c.chunk_count;
        if (end <= first) continue;
        if (c.chunk_start > last) break;
        while (w < wanted.length && wanted[w]! < c.chunk_start) w++;
        if (w >= wanted.length || wanted[w]! >= end) continue;
        const after: number | null = lastRead && lastRead.end === c.chunk_start ? lastRead.position : null;
        const [assets, blob]: [AssetRow[], Buffer | null] = await Promise.all([
          repo.assetsFrom(projectId, c.chunk_start, c.chunk_count, after),
          repo.chunkBlob(projectId, version, c.chunk_start),
        ]);
        if (!blob || assets.length !== c.chunk_count)
          throw new AppError(409, 'The stored analysis does not match the assets (they changed since). A new analysis is queued or running.');
        const chunk = await decodeChunkAsync(blob);
        lastRead = { end, position: assets[assets.length - 1]!.position };
        yield { results: resultsOf(assets, [{ ...chunk, start: 0 }]), base: c.chunk_start };
      }
    },
  };
}
