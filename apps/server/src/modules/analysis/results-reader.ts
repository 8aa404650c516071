import { HAZARD_INDICATORS, HAZARD_KEYS, type HazardKey } from '@crp/contracts';
import { N_HAZARDS, prepareAssets, SCENARIO_YEAR_INDEX, SCENARIO_YEARS, type AssetInput, type PreparedAsset } from '@crp/engine';
import type { DB } from '../../infra/db/database.js';
import { blobColumn, blobOf } from '../../infra/db/bytea.js';
import type { AssetRow } from '../../infra/db/schema.js';
import { AppError } from '../../lib/errors.js';
import { assetInputOf } from './analysis.jobs.js';
import { countAssets, readAssets } from './analysis.repository.js';
import { decodeChunkAsync, type StoredChunk } from './result-codec.js';
import type { LargeResults } from '../dashboard/large-store.js';

/** Stored chunks read per query (about 1 MB each): bounds the driver's buffers and lets requests interleave. */
const READ_CHUNKS = 16;

/** A stored analysis, decoded for reading: assets in position order with their result chunk and local index. */
/** A posted asset (results API): what the reader needs besides the engine input. */
export interface ResultsAssetRow {
  /** The caller's own id of a posted asset (results API `id`), null when none was sent. */
  id: string | number | null;
  name: string;
  latitude: number;
  longitude: number;
  property_type: string | null;
  input: AssetInput;
}

/**
 * What the dashboard reads of a stored asset: the decoded path hands it whole rows, a large analysis (large-store.ts)
 * these columns only (about 200 bytes an asset in the heap instead of 1.5 KB with the rest of the row and its engine input).
 */
export type DashboardAsset = Pick<
  AssetRow,
  | 'id'
  | 'name'
  | 'latitude'
  | 'longitude'
  | 'country_code'
  | 'property_type'
  | 'revenue'
  | 'construction_cost'
  | 'area'
  | 'valuation'
  | 'stories'
  | 'ownership'
  | 'building_age'
  | 'basement'
  | 'plinth_height'
  | 'flood_protection'
  | 'construction'
  | 'mitigation_risk'
  | 'content_value'
  | 'yearly_inventory_value'
>;

export interface ProjectResults<A extends DashboardAsset | ResultsAssetRow = AssetRow> {
  assets: A[];
  prepared: PreparedAsset[];
  chunks: StoredChunk[];
  /** Chunk and index within it of asset i. */
  locate(i: number): { chunk: StoredChunk; a: number };
  /** Headline hazard intensity of asset i at a scenario-year key (NaN = no data). */
  intensity(i: number, hazard: HazardKey, syKey: string): number;
  /** Severity score 0-100 (null = no data) of asset i for a hazard at a scenario-year key. */
  score(i: number, hazard: HazardKey, syKey: string, residual?: boolean): number | null;
  syIndex(syKey: string): number;
  /** Asset i's chunk (index into chunks) and index within it, as typed arrays for the dashboard's loops. */
  chunkOf: Int32Array;
  localOf: Int32Array;
  /** Bytes held by the decoded arrays (for the memory bound of the dashboard's cache). */
  bytes: number;
  /**
   * Set when the analysis is too large to decode and is read from its dashboard store instead (large-store.ts): then
   * `chunks` holds no result arrays, and only what the store holds may be asked (DashboardService checks the filters).
   */
  large?: LargeResults;
}

/**
 * Bytes of typed arrays one asset takes once its stored results are decoded (result-codec.ts): per asset x hazard x
 * scenario-year nine Float32 fields and two Uint8 scores, per asset x scenario-year two Uint8 climate scores. About
 * 24 KB at 11 hazards x 58 scenario-years, so 100,000 assets decode to 2.4 GB and 1,000,000 to 24 GB.
 */
export const DECODED_BYTES_PER_ASSET = N_HAZARDS * SCENARIO_YEARS.length * (9 * 4 + 2) + SCENARIO_YEARS.length * 2;

/** How much of a stored analysis this server may decode at once (config RESULTS_DECODE_MAX_MB). */
export interface DecodeLimit {
  maxDecodedBytes: number;
}

/**
 * Refuses, before reading anything, a project whose decoded analysis would not fit in the memory this server allows
 * for one (422, naming the size and the limit): decoding it would exhaust the machine's memory and stop the server for
 * every user (issue 22: a 1,000,000-asset analysis decodes to about 24 GB).
 */
export function assertDecodable(assets: number, limit: DecodeLimit): void {
  const need = assets * DECODED_BYTES_PER_ASSET;
  if (need <= limit.maxDecodedBytes) return;
  const gib = (b: number) => (b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(1)} GiB` : `${Math.ceil(b / 2 ** 20)} MiB`);
  const most = Math.floor(limit.maxDecodedBytes / DECODED_BYTES_PER_ASSET);
  const msg =
    `This project's analysis (${assets.toLocaleString('en-US')} assets) needs about ${gib(need)} of memory to be read in full; ` +
    `this server reads at most ${gib(limit.maxDecodedBytes)} at once (RESULTS_DECODE_MAX_MB), i.e. ${most.toLocaleString('en-US')} assets. ` +
    'Its project card shows the portfolio figures; for the dashboard and downloads, split the portfolio into projects of at most that many assets.';
  throw new AppError(422, msg, [{ field: 'project_id', message: 'analysis too large to read on this server' }], { code: 'results_too_large', error: msg });
}

/**
 * Seconds a caller should wait before asking again for an analysis still queued or running (`Retry-After` and
 * `retry_after_seconds` of the 409): a small project is analysed within seconds, a large one over minutes, and a
 * request every 5 s costs the server one small query.
 */
export const ANALYSIS_RETRY_AFTER_SECONDS = 5;
const notFinished = (message: string) => new AppError(409, message, undefined, { retry_after_seconds: ANALYSIS_RETRY_AFTER_SECONDS });

/**
 * Reads the stored analysis of a project; 409 when there is none yet (still queued or running; with Retry-After), 422
 * when too large (`assetCount`: the project's asset count when the caller has it, else counted here).
 */

export async function loadProjectResults(db: DB, projectId: number, limit?: DecodeLimit, assetCount?: number): Promise<ProjectResults> {
  const project = await db.selectFrom('projects').select(['status', 'status_message', 'results_version']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const version = project.results_version;
  if (version === null) {
    // a failed analysis is not retried by waiting: no Retry-After
    if (project.status === 'failed') throw new AppError(409, `The analysis of this project failed: ${project.status_message ?? ''}`);
    throw notFinished('The analysis of this project is not finished yet. Try again when it is done.');
  }
  if (limit) assertDecodable(assetCount ?? (await countAssets(db, projectId)), limit);
  const assets = await readAssets(db, projectId);
  // Page by page, each page's blobs inflated on the thread pool (off the event loop), so a large analysis does not
  // stall other requests while it is read (issue 22). Every page from the same run (the current one when read began).
  const chunks: StoredChunk[] = [];
  for (let after = -1; ;) {
    const page = await db
      .selectFrom('analysis_chunks')
      .select(['chunk_start', blobColumn('data').as('data')])
      .where('project_id', '=', projectId)
      .where('version', '=', version)
      .where('chunk_start', '>', after)
      .orderBy('chunk_start')
      .limit(READ_CHUNKS)
      .execute();
    for (const c of await Promise.all(page.map((b) => decodeChunkAsync(blobOf(b.data))))) chunks.push(c);
    if (page.length < READ_CHUNKS) break;
    after = page[page.length - 1]!.chunk_start;
  }
  if (chunks.length === 0) throw notFinished('The analysis of this project is not finished yet. Try again when it is done.');
  return resultsOf(assets, chunks);
}

/** Stored index of a scenario-year key (400 when there is none): the readers' syIndex. */
export function syIndexOf(key: string): number {
  const i = SCENARIO_YEAR_INDEX.get(key);
  if (i === undefined) throw new AppError(400, `No scenario-year ${key}.`);
  return i;
}

/** The reader over decoded chunks of `assets` (stored, or computed just now for posted assets). */
export function resultsOf<A extends AssetRow | ResultsAssetRow>(assets: A[], chunks: StoredChunk[]): ProjectResults<A> {
  const prepared = prepareAssets(
    assets.map((a: AssetRow | ResultsAssetRow) => ('input' in a ? a.input : assetInputOf(a))),
    undefined,
  );
  const S = chunks[0]!.scenarioYears.length;
  const H = HAZARD_KEYS.length;
  const owner: { chunk: StoredChunk; a: number }[] = [];
  const chunkOf = new Int32Array(assets.length);
  const localOf = new Int32Array(assets.length);
  let bytes = 0;
  chunks.forEach((c, ci) => {
    for (let a = 0; a < c.count; a++) {
      owner[c.start + a] = { chunk: c, a };
      if (c.start + a < assets.length) {
        chunkOf[c.start + a] = ci;
        localOf[c.start + a] = a;
      }
    }
    for (const v of Object.values(c)) if (ArrayBuffer.isView(v)) bytes += v.byteLength;
  });
  if (owner.length !== assets.length)
    throw notFinished('The stored analysis does not match the assets (they changed since). A new analysis is queued or running.');
  const syIndex = syIndexOf;
  return {
    assets,
    prepared,
    chunks,
    chunkOf,
    localOf,
    bytes,
    locate: (i) => owner[i]!,
    syIndex,
    intensity(i, hazard, key) {
      const { chunk, a } = owner[i]!;
      return chunk.intensity[(a * H + HAZARD_KEYS.indexOf(hazard)) * S + syIndex(key)]!;
    },
    score(i, hazard, key, residual = false) {
      const { chunk, a } = owner[i]!;
      const v = (residual ? chunk.scoreResidual : chunk.score)[(a * H + HAZARD_KEYS.indexOf(hazard)) * S + syIndex(key)]!;
      return v === 255 ? null : v;
    },
  };
}

export const unitOf = (hazard: HazardKey) => HAZARD_INDICATORS[hazard].unit;
