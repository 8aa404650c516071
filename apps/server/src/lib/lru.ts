/** A least-recently-used map bounded by entry count and by the sum of the entries' sizes. */
export class Lru<V> {
  private readonly map = new Map<string, { v: V; bytes: number }>();
  private total = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes = Infinity,
  ) {}
  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.v;
  }
  set(key: string, v: V, bytes = 0): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, { v, bytes });
    this.total += bytes;
    while (this.map.size > 1 && (this.map.size > this.maxEntries || this.total > this.maxBytes)) {
      const [k, e] = this.map.entries().next().value!;
      this.map.delete(k);
      this.total -= e.bytes;
    }
  }
  /** The value under `key`, made and kept when missing; with a null key it is made and not kept. */
  getOrMake(key: string | null, make: () => V, bytesOf: (v: V) => number = () => 0): V {
    let v = key === null ? undefined : this.get(key);
    if (v === undefined) {
      v = make();
      if (key !== null) this.set(key, v, bytesOf(v));
    }
    return v;
  }
  delete(key: string): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.bytes;
      this.map.delete(key);
    }
  }
}
