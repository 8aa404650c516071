/**
 * Rendered hazard-layer COG files kept in memory (issue 36 item 4): GDAL reads a COG with several Range requests
 * (header and IFDs, then tiles), and each used to render the whole file again. A file is rendered once per layer and
 * parameters (concurrent requests for it share the rendering) and kept while the cache's byte budget allows, least
 * recently used first out.
 */
import { createHash } from 'node:crypto';

export interface CogFile {
  body: Buffer;
  /** Strong validator of the bytes (If-Range, If-None-Match). */
  etag: string;
  resDeg: number;
  fileStem: string;
}

export class CogFileCache {
  private readonly files = new Map<string, Promise<CogFile>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  /** Renderings done (not answered from the cache): for the tests and the performance page. */
  renders = 0;

  constructor(private readonly maxBytes: number) {}

  /** The file of `key`, rendered by `render` when not cached. */
  get(key: string, render: () => Promise<Omit<CogFile, 'etag'>>): Promise<CogFile> {
    const hit = this.files.get(key);
    if (hit) {
      // most recently used last
      this.files.delete(key);
      this.files.set(key, hit);
      return hit;
    }
    this.renders++;
    const p = render().then((f) => ({ ...f, etag: `"${createHash('sha256').update(f.body).digest('base64url').slice(0, 27)}"` }));
    this.files.set(key, p);
    p.then(
      (f) => this.admit(key, p, f.body.byteLength),
      () => this.files.get(key) === p && this.files.delete(key),
    );
    return p;
  }

  private admit(key: string, p: Promise<CogFile>, size: number) {
    if (this.files.get(key) !== p) return;
    if (size > this.maxBytes) {
      this.files.delete(key);
      return;
    }
    this.sizes.set(key, size);
    this.bytes += size;
    for (const k of this.files.keys()) {
      if (this.bytes <= this.maxBytes) break;
      const s = this.sizes.get(k);
      if (s === undefined) continue; // still rendering
      this.files.delete(k);
      this.sizes.delete(k);
      this.bytes -= s;
    }
  }
}
