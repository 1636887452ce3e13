/**
 * A bounded least-recently-used cache. A hit only stamps its entry with the time of use: moving the key to the newest
 * end of a Map (delete, then set again) on every hit was most of the cost of a hit, and a warm re-assembly makes
 * thousands. Past its bound, the least recently used go, a quarter of the bound at a time, found by sorting the
 * stamps once (one at a time, walking a Map's oldest keys was quadratic for 100 000 documents through a 16 384-entry
 * memo).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; used: number }>();
  private clock = 0;

  constructor(readonly bound: number) {}

  /** The value of `key`, made the most recently used; undefined when it is not there. */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    e.used = ++this.clock;
    return e.value;
  }

  /** Whether `key` is there, without making it recently used. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Set `key` (the most recently used); past the bound, forget the least recently used down to three quarters of it. */
  set(key: K, value: V): void {
    const e = this.map.get(key);
    if (e !== undefined) {
      e.value = value;
      e.used = ++this.clock;
      return;
    }
    this.map.set(key, { value, used: ++this.clock });
    if (this.map.size > this.bound) this.evict();
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  /** The keys, least recently used first (for tests and eviction). */
  keys(): K[] {
    return [...this.map].sort((a, b) => a[1].used - b[1].used).map(([k]) => k);
  }

  private evict(): void {
    const keep = this.bound - (this.bound >> 2);
    const stamps = Float64Array.from(this.map.values(), (e) => e.used).sort();
    // Stamps are distinct: exactly the oldest `size - keep` are at or below the cut.
    const cut = keep > 0 ? stamps[stamps.length - keep - 1] : Infinity;
    for (const [k, e] of this.map) if (e.used <= cut) this.map.delete(k);
  }
}
