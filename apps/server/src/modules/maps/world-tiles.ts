/**
 * World-view tiles (zooms 0-4, issue 22 item 4): the 341 tiles of a dataset at zooms 0-4 are kept together, in memory
 * and, once all are rendered, as one pack file per dataset in the tile folder (DATA_DIR/tiles), so a restarted server
 * serves the world view without rendering it again. The bytes are those the renderer made: nothing is resampled.
 *
 * A pack is valid for one state of what a tile shows: its folder is named by a fingerprint of the layers (manifest
 * checksums, build parameters), the installation's own layers (catalogue entries and raster bytes), the legends, the
 * source of the models and the renderer (tile-renderer.ts layersFingerprint) and RENDER_VERSION. A new fingerprint starts an empty folder; folders of other fingerprints are deleted.
 *
 * Pack format: "CRPW" magic, uint32 tile count (341), 342 uint32 byte offsets into the data that follows, the PNGs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Highest zoom kept as a world view. */
export const WORLD_MAX_ZOOM = 4;
/** Tiles of zooms 0-4: 1 + 4 + 16 + 64 + 256. */
export const WORLD_TILES = ((4 ** (WORLD_MAX_ZOOM + 1) - 1) / 3) | 0;
/** Bump when the renderer draws differently (pixel mapping, palette, PNG encoding): stored packs are then not reused. */
export const RENDER_VERSION = 1;
const MAGIC = 0x43525057; // "CRPW"

/** Position of tile z/x/y in a pack: lower zooms first, then rows (y), then columns (x). */
export function worldIndex(z: number, x: number, y: number): number {
  return (4 ** z - 1) / 3 + y * 2 ** z + x;
}

/** z/x/y of the i-th tile of a pack (the inverse of worldIndex). */
export function worldTile(i: number): { z: number; x: number; y: number } {
  let z = 0;
  while (i >= (4 ** (z + 1) - 1) / 3) z++;
  const j = i - (4 ** z - 1) / 3;
  return { z, x: j % 2 ** z, y: Math.floor(j / 2 ** z) };
}

/** Fingerprint of what a tile shows: a SHA-256 over the parts, first 16 hex digits. */
export function fingerprint(parts: (string | ArrayBufferView)[]): string {
  const h = createHash('sha256').update(`render ${RENDER_VERSION}\n`);
  for (const p of parts) h.update(typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength)).update('\n');
  return h.digest('hex').slice(0, 16);
}

export function encodePack(tiles: readonly Buffer[]): Buffer {
  const head = Buffer.alloc(8 + 4 * (tiles.length + 1));
  head.writeUInt32BE(MAGIC, 0);
  head.writeUInt32BE(tiles.length, 4);
  let off = 0;
  tiles.forEach((t, i) => {
    head.writeUInt32BE(off, 8 + 4 * i);
    off += t.length;
  });
  head.writeUInt32BE(off, 8 + 4 * tiles.length);
  return Buffer.concat([head, ...tiles]);
}

/** The tiles of a pack, or null when the bytes are not a whole pack of WORLD_TILES tiles. */
export function decodePack(buf: Buffer): Buffer[] | null {
  if (buf.length < 8 || buf.readUInt32BE(0) !== MAGIC || buf.readUInt32BE(4) !== WORLD_TILES) return null;
  const base = 8 + 4 * (WORLD_TILES + 1);
  if (buf.length < base || buf.readUInt32BE(8 + 4 * WORLD_TILES) !== buf.length - base) return null;
  const out: Buffer[] = [];
  for (let i = 0; i < WORLD_TILES; i++) {
    const a = buf.readUInt32BE(8 + 4 * i),
      b = buf.readUInt32BE(12 + 4 * i);
    if (b < a || base + b > buf.length) return null;
    out.push(buf.subarray(base + a, base + b));
  }
  return out;
}

/** The world-view tiles of every dataset asked for: in memory, and in pack files under `dir` (none when null). */
export class WorldTiles {
  private readonly packs = new Map<string, (Buffer | undefined)[]>();
  private readonly filled = new Map<string, number>();
  private folder: string | null;
  readonly stats = { hits: 0, stored: 0, packsRead: 0, packsWritten: 0, bytes: 0 };

  constructor(
    dir: string | null,
    readonly fingerprint: string,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {
    this.folder = dir ? join(dir, fingerprint) : null;
    if (!dir || !this.folder) return;
    try {
      mkdirSync(this.folder, { recursive: true });
      // packs of another state of the layers or renderer are never served again
      for (const f of readdirSync(dir)) if (f !== fingerprint && /^[0-9a-f]{16}$/.test(f)) rmSync(join(dir, f), { recursive: true, force: true });
    } catch (err) {
      this.log('world tile folder not usable: world tiles are kept in memory only', err);
      this.folder = null;
    }
  }

  private pack(key: string): (Buffer | undefined)[] {
    let p = this.packs.get(key);
    if (p) return p;
    p = new Array<Buffer | undefined>(WORLD_TILES);
    this.packs.set(key, p);
    this.filled.set(key, 0);
    const file = this.file(key);
    if (file && existsSync(file)) {
      const tiles = decodePack(readFileSync(file));
      if (tiles) {
        tiles.forEach((t, i) => (p[i] = t));
        this.filled.set(key, WORLD_TILES);
        this.stats.packsRead++;
        this.stats.bytes += tiles.reduce((a, t) => a + t.length, 0);
      } else this.log(`world tile pack ${file} is damaged: rendered again`);
    }
    return p;
  }

  private file(key: string): string | null {
    return this.folder ? join(this.folder, `${key.replace(/[^\w.-]/g, '_')}.pack`) : null;
  }

  /** A stored world tile (zoom <= WORLD_MAX_ZOOM) of a dataset (`key`: hazard and dataset), or undefined. */
  get(key: string, z: number, x: number, y: number): Buffer | undefined {
    const t = this.pack(key)[worldIndex(z, x, y)];
    if (t) this.stats.hits++;
    return t;
  }

  /** Keeps a rendered world tile; the dataset's pack is written once its 341 tiles are all in. */
  put(key: string, z: number, x: number, y: number, png: Buffer): void {
    const p = this.pack(key);
    const i = worldIndex(z, x, y);
    if (p[i]) return;
    p[i] = png;
    this.stats.stored++;
    this.stats.bytes += png.length;
    const n = this.filled.get(key)! + 1;
    this.filled.set(key, n);
    if (n === WORLD_TILES) this.write(key, p as Buffer[]);
  }

  /** Whether every world tile of a dataset is in memory (after reading its pack when there is one). */
  complete(key: string): boolean {
    this.pack(key);
    return this.filled.get(key) === WORLD_TILES;
  }

  /** Every tile of a complete dataset, by pack position (for encodePack); null while some are missing. */
  tiles(key: string): Buffer[] | null {
    return this.complete(key) ? (this.pack(key) as Buffer[]) : null;
  }

  /** Takes a whole pack rendered elsewhere (the pre-render thread, which wrote its file); tiles already here are kept. */
  adopt(key: string, tiles: Buffer[]): void {
    const p = this.pack(key);
    let n = this.filled.get(key)!;
    tiles.forEach((t, i) => {
      if (p[i]) return;
      p[i] = t;
      n++;
      this.stats.bytes += t.length;
    });
    this.filled.set(key, n);
  }

  /** Tiles of a dataset not rendered yet, by pack position. */
  missing(key: string): number[] {
    const p = this.pack(key);
    const out: number[] = [];
    for (let i = 0; i < WORLD_TILES; i++) if (!p[i]) out.push(i);
    return out;
  }

  private write(key: string, tiles: Buffer[]) {
    const file = this.file(key);
    if (!file) return;
    try {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, encodePack(tiles));
      renameSync(tmp, file); // whole or not at all
      this.stats.packsWritten++;
    } catch (err) {
      this.log(`world tile pack ${file} not written`, err);
    }
  }
}
