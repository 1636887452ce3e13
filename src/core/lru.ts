/**
 * A bounded least-recently-used cache. A hit only stamps its entry with the time of use: moving the key to the newest
 * end of a Map (delete, then set again) on every hit was most of the cost of a hit, and a warm re-assembly makes
 * thousands. Past its bound, the least recently used go, a quarter of the bound at a time: the oldest stamps are
 * found by one selection over them, in linear time (one at a time, walking a Map's oldest keys was quadratic for
 * 100 000 documents through a 16 384-entry memo).
 *
 * Not every memo is one: where a call looks up thousands of short keys whose misses are cheap to redo (the
 * manifest's short strings, report/redact-manifest.ts), a plain Map emptied when full costs less than stamping.
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
    const drop = this.map.size - keep;
    let cut = Infinity;
    if (keep > 0) {
      const stamps = new Float64Array(this.map.size);
      let i = 0;
      for (const e of this.map.values()) stamps[i++] = e.used;
      // Stamps are distinct: exactly the oldest `drop` are at or below the drop-th smallest.
      cut = nthSmallest(stamps, drop - 1);
    }
    let left = drop;
    for (const [k, e] of this.map) {
      if (e.used > cut) continue;
      this.map.delete(k);
      if (--left === 0) break;
    }
  }
}

/** The value that would be at index `k` if `xs` were sorted (xs is reordered): Hoare's selection, linear on average. */
function nthSmallest(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i] < pivot) i++;
      while (xs[j] > pivot) j--;
      if (i <= j) {
        const t = xs[i];
        xs[i++] = xs[j];
        xs[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return xs[k];
  }
  return xs[k];
}
