/**
 * What a stage works out from a block's text alone, kept by the text itself: an unchanged document's text is the same
 * string from one assembly to the next (the redaction memo hands back the string it stored), and a Map finds the same
 * string by its cached hash and by identity, so a lookup costs next to nothing where working it out again reads the
 * whole text. Bounded by entries: the least recently used go first, a quarter of the bound at a time. (One at a
 * time, `keys().next()` walked over every entry deleted since the Map last compacted: with 100 000 documents through a
 * 16 384-entry memo that was quadratic, the largest self time of a warm 100 000-file preview.)
 */
export class ByText<V> {
  private readonly map = new Map<string, V>();

  constructor(readonly maxEntries: number) {}

  /** The value for `text`, made with `make(text)` when it is not known. */
  get(text: string, make: (text: string) => V): V {
    const known = this.map.get(text);
    if (known !== undefined) {
      this.map.delete(text);
      this.map.set(text, known);
      return known;
    }
    const value = make(text);
    this.map.set(text, value);
    if (this.map.size > this.maxEntries) this.evict(this.map.size - this.maxEntries + (this.maxEntries >> 2));
    return value;
  }

  /** Forget the `n` least recently used entries, in one walk. */
  private evict(n: number): void {
    for (const key of this.map.keys()) {
      if (n-- <= 0) break;
      this.map.delete(key);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
