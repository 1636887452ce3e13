import { RankTable } from './rank-table';

/**
 * An exact byte-pair token counter, written to give the reference tokenizer's (tiktoken, Rust) counts on every input
 * and to stay fast on long runs without white space.
 *
 * The reference splits the text on its special tokens, pre-tokenizes each stretch with the encoding's pattern, and
 * for each piece: one token when the piece's bytes are a token, else a byte-pair merge that repeatedly joins the
 * adjacent pair whose concatenation has the lowest rank (the leftmost such pair on a tie) until no pair is a token.
 * Its merge rescans every pair after each join: quadratic in the piece's length, as is js-tiktoken's. Here a piece up
 * to SCAN_BYTES bytes is merged the same way (fastest when short); a longer one keeps its parts in a linked list and
 * its pairs in a binary heap keyed by (rank, position), so each join costs O(log n) and picks the very pair the scan
 * would: the same merges in the same order, the same count. A 1 MB piece counts in a fraction of a second.
 *
 * Byte strings are held as JavaScript strings of one character per byte (latin1), so an ASCII piece is its own key.
 */

export interface BpeRanks {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

export interface BpeTable {
  /** Byte string (one character per byte) → rank, and the two-byte tokens by their bytes (rank-table.ts). */
  readonly ranks: RankTable;
  /** The encoding's pre-tokenizer, as the reference reads it (see `rustPattern`). */
  readonly pattern: RegExp;
  /** Any special token (each is one token: the reference is called with every special token allowed). */
  readonly special: RegExp | null;
}

/** Pieces up to this many bytes are merged by rescanning (no allocation); longer ones with the heap. */
export const SCAN_BYTES = 64;

/** The rank table of js-tiktoken's compressed format: lines of `! firstRank base64 base64 …`, ranks consecutive. */
export function loadBpe(source: BpeRanks): BpeTable {
  // Written as a rank file holds it (each rank's length in one byte, then its bytes), so both load the same way.
  const parts: Buffer[] = [];
  let rank = 0;
  for (const line of source.bpe_ranks.split('\n')) {
    if (!line) continue;
    const fields = line.split(' ');
    for (let first = Number.parseInt(fields[1], 10); rank < first; rank++) parts.push(Buffer.from([0]));
    for (let i = 2; i < fields.length; i++, rank++) {
      const bytes = Buffer.from(fields[i], 'base64');
      parts.push(Buffer.from([bytes.length]), bytes);
    }
  }
  const table = RankTable.fromRankFile(Buffer.concat(parts));
  if (!table) throw new Error('js-tiktoken rank table: a token longer than 255 bytes');
  return bpeTable({ table, pat_str: source.pat_str, special_tokens: source.special_tokens });
}

/** The table from ranks already read (a rank file, rank-file.ts, or js-tiktoken's format above). */
export function bpeTable(read: { table: RankTable; pat_str: string; special_tokens: Record<string, number> }): BpeTable {
  const names = Object.keys(read.special_tokens).map((s) => s.replace(/[\\^$*+?.()|[\]{}]/g, '\\$&'));
  return { ranks: read.table, pattern: new RegExp(rustPattern(read.pat_str), 'gu'), special: names.length ? new RegExp(names.join('|'), 'g') : null };
}

/**
 * The split pattern as the reference's regex engine reads it. Its `\s` is Unicode White_Space, where JavaScript's
 * `\s` also matches U+FEFF (a BOM) and misses U+0085: spelled as White_Space. Its contractions are case-insensitive
 * with Unicode case folding, so `'s` also matches `'ſ` (U+017F, long s, which folds to s): js-tiktoken spells the
 * cases out in ASCII only; ſ is added beside s and S.
 */
export function rustPattern(pat: string): string {
  return pat
    .replace(/\\s/g, '\\p{White_Space}')
    .replace(/\\S/g, '\\P{White_Space}')
    .replace(/'s\|'S/g, "'s|'S|'\u017f");
}

/** Tokens in `text`, exactly as the reference encodes it with every special token allowed. */
export function countBpe(table: BpeTable, text: string): number {
  if (!table.special) return countOrdinary(table, text, 0, text.length);
  let n = 0;
  let at = 0;
  table.special.lastIndex = 0;
  for (let m = table.special.exec(text); m; m = table.special.exec(text)) {
    n += countOrdinary(table, text, at, m.index) + 1;
    at = m.index + m[0].length;
  }
  return n + countOrdinary(table, text, at, text.length);
}

function countOrdinary(table: BpeTable, text: string, from: number, to: number): number {
  if (from >= to) return 0;
  const stretch = from === 0 && to === text.length ? text : text.slice(from, to);
  const { pattern, ranks } = table;
  let n = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(stretch); m; m = pattern.exec(stretch)) {
    const key = byteString(m[0]);
    n += key.length === 1 || ranks.get(key) >= 0 ? 1 : mergeCount(table, key);
  }
  return n;
}

/** A string's UTF-8 bytes, one character per byte (itself when ASCII). Lone surrogates become U+FFFD, as in the reference. */
export function byteString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return Buffer.from(s, 'utf8').toString('latin1');
  }
  return s;
}

/** Tokens a byte-pair merge leaves of `bytes` (one character per byte). */
export function mergeCount(table: BpeTable, bytes: string): number {
  return bytes.length <= SCAN_BYTES ? scanMerge(table, bytes) : heapMerge(table, bytes);
}

/** The rank of a byte string that is no token. */
const NONE = 0x7fffffff;

function rankOf(table: BpeTable, bytes: string, from: number, to: number): number {
  if (to - from === 2) {
    const rank = table.ranks.pairs[bytes.charCodeAt(from) * 256 + bytes.charCodeAt(from + 1)];
    return rank < 0 ? NONE : rank;
  }
  const rank = table.ranks.get(bytes, from, to);
  return rank < 0 ? NONE : rank;
}

let starts = new Int32Array(SCAN_BYTES + 1);
let pairRanks = new Int32Array(SCAN_BYTES);

/** The reference's merge: rescan all pairs, join the lowest-ranked (leftmost on a tie). Quadratic; exported for tests. */
export function scanMerge(table: BpeTable, bytes: string): number {
  const n = bytes.length;
  if (starts.length < n + 1) {
    starts = new Int32Array(n + 1);
    pairRanks = new Int32Array(n);
  }
  for (let i = 0; i <= n; i++) starts[i] = i;
  for (let i = 0; i + 1 < n; i++) pairRanks[i] = rankOf(table, bytes, i, i + 2);
  let parts = n;
  while (parts > 1) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i + 1 < parts; i++) {
      if (pairRanks[i] < best) {
        best = pairRanks[i];
        at = i;
      }
    }
    if (at < 0) break;
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    pairRanks[at] = at + 1 < parts ? rankOf(table, bytes, starts[at], starts[at + 2]) : NONE;
    if (at > 0) pairRanks[at - 1] = rankOf(table, bytes, starts[at - 1], starts[at + 1]);
  }
  return parts;
}

/**
 * The same merge with a 4-ary heap. Part i spans [i, next[i]); `pair[i]` is the rank of part i joined with the next one
 * (NONE: there is none; DEAD: part i was absorbed). The heap holds (rank, position) entries, lowest rank first and
 * the leftmost position on a tie: the scan's choice. A join re-ranks the two pairs it changed and pushes them; the
 * entries they replace are skipped when they surface (their rank no longer matches `pair`). O(n log n).
 */
export function heapMerge(table: BpeTable, bytes: string): number {
  const n = bytes.length;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pair = new Int32Array(n);
  // Entries are (rank, position) pairs, side by side; at most n - 1 at first and two per join: 3n.
  const heap = new Int32Array(6 * n);
  let size = 0;
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    const r = i + 1 < n ? rankOf(table, bytes, i, i + 2) : NONE;
    pair[i] = r;
    if (r !== NONE) size = siftUp(heap, size, r, i);
  }
  let parts = n;
  while (size > 0) {
    const rank = heap[0];
    const i = heap[1];
    size--;
    siftDown(heap, size, heap[2 * size], heap[2 * size + 1]);
    if (pair[i] !== rank) continue;
    const j = next[i];
    const k = next[j];
    next[i] = k;
    if (k < n) prev[k] = i;
    pair[j] = DEAD;
    parts--;
    const right = k < n ? rankOf(table, bytes, i, next[k]) : NONE;
    pair[i] = right;
    if (right !== NONE) size = siftUp(heap, size, right, i);
    const p = prev[i];
    if (p >= 0) {
      const left = rankOf(table, bytes, p, k);
      pair[p] = left;
      if (left !== NONE) size = siftUp(heap, size, left, p);
    }
  }
  return parts;
}

const DEAD = -1;

/** Push (rank, at) onto the 4-ary heap of `size` entries; the new size. */
function siftUp(heap: Int32Array, size: number, rank: number, at: number): number {
  let i = size;
  while (i > 0) {
    const up = (i - 1) >> 2;
    const ur = heap[2 * up];
    if (ur < rank || (ur === rank && heap[2 * up + 1] < at)) break;
    heap[2 * i] = ur;
    heap[2 * i + 1] = heap[2 * up + 1];
    i = up;
  }
  heap[2 * i] = rank;
  heap[2 * i + 1] = at;
  return size + 1;
}

/** Put (rank, at) at the root of the heap of `size` entries (its old root removed) and sift it down. */
function siftDown(heap: Int32Array, size: number, rank: number, at: number): void {
  let i = 0;
  for (;;) {
    const first = 4 * i + 1;
    if (first >= size) break;
    let c = first;
    let cr = heap[2 * c];
    let ca = heap[2 * c + 1];
    const last = Math.min(first + 4, size);
    for (let d = first + 1; d < last; d++) {
      const dr = heap[2 * d];
      if (dr < cr || (dr === cr && heap[2 * d + 1] < ca)) {
        c = d;
        cr = dr;
        ca = heap[2 * d + 1];
      }
    }
    if (rank < cr || (rank === cr && at < ca)) break;
    heap[2 * i] = cr;
    heap[2 * i + 1] = ca;
    i = c;
  }
  heap[2 * i] = rank;
  heap[2 * i + 1] = at;
}
