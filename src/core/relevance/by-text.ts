import { Lru } from '../lru';

/**
 * The bound of a memo with one entry per document text (collect's redacted bodies, the relevance stage's headings,
 * digests and links): it holds a 10 000-document workspace. Above that a re-assembly works each text out again: at
 * 100 000 notes, holding them all saved about 1 s of 4.7 in a re-assembly in one process, but held 100 MB more heap
 * (collect's bodies 39 MB, the digests 42, the headings 20) and raised every CLI run's peak memory by 60 MB, though
 * its single assembly gains nothing from them.
 */
export const TEXT_MEMO_ENTRIES = 16384;

/**
 * What a stage works out from a block's text alone, kept by the text itself: an unchanged document's text is the same
 * string from one assembly to the next (the redaction memo hands back the string it stored), and a Map finds the same
 * string by its cached hash and by identity, so a lookup costs next to nothing where working it out again reads the
 * whole text. Bounded by entries: the least recently used go first, a quarter of the bound at a time (lru.ts; one
 * at a time was the largest self time of a warm 100 000-file preview).
 */
export class ByText<V> {
  private readonly map: Lru<string, V>;

  constructor(readonly maxEntries: number) {
    this.map = new Lru(maxEntries);
  }

  /** The value for `text`, made with `make(text)` when it is not known. */
  get(text: string, make: (text: string) => V): V {
    const known = this.map.get(text);
    if (known !== undefined) return known;
    const value = make(text);
    this.map.set(text, value);
    return value;
  }

  get size(): number {
    return this.map.size;
  }
}
