// A query against the index's entries (index.ts match): the hits an entry's postings hold for the query's terms,
// and BM25+ over them.

/** BM25+ parameters (MiniSearch's defaults, which this index replaced). */
const K = 1.2;
const B = 0.7;
const D = 0.5;

const NO_KEYS: readonly number[] = [];

/**
 * An entry's hits for a query (`lookup`: termId → 1 + the term's place in the query, 0 for a term not asked): one key
 * per (query term, field) pair the entry holds, `(place × FIELDS.length + field) × 2^21 + count`, sorted. A count is
 * below 2^21 (a document is at most 2 MB). Sorted, they are summed in MiniSearch's order (each query term's fields in
 * FIELDS order, then the terms in query order), so two documents with the same figures for each term and field get
 * the very same score, whatever their other terms: ties stay ties, ordered by path, as with the index this one
 * replaced.
 */
export function keysOf(p: Uint32Array, lookup: Uint32Array, F: number): readonly number[] {
  let keys: number[] | undefined;
  let sorted = true;
  for (let i = 0; i < p.length; i += 2) {
    const q = lookup[p[i] >>> 3];
    if (q === 0) continue;
    const key = ((q - 1) * F + (p[i] & 7)) * 2 ** 21 + Math.min(p[i + 1], 2 ** 21 - 1);
    keys ??= [];
    if (keys.length > 0 && key < keys[keys.length - 1]) sorted = false;
    keys.push(key);
  }
  if (keys === undefined) return NO_KEYS;
  if (!sorted) keys.sort((a, b) => a - b);
  return keys;
}

/** Count the entry's (query term, field) pairs into `docCount` (keysOf's slots); whether it has any. */
export function countHits(p: Uint32Array, lookup: Uint32Array, F: number, docCount: Uint32Array): boolean {
  let found = false;
  for (let i = 0; i < p.length; i += 2) {
    const q = lookup[p[i] >>> 3];
    if (q === 0) continue;
    docCount[(q - 1) * F + (p[i] & 7)]++;
    found = true;
  }
  return found;
}

export function invDocFreq(matching: number, total: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

export function bm25(termFreq: number, idf: number, fieldLength: number, avgFieldLength: number): number {
  return idf * (D + (termFreq * (K + 1)) / (termFreq + K * (1 - B + (B * fieldLength) / avgFieldLength)));
}
