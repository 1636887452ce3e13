/** Where each rank's token sits in a table's slots: what `RankTable#index` gives and `RankTable.fromIndex` takes. */
export interface RankIndex {
  /** The slot of rank r's token, -1 when no token has rank r. */
  slotOf: Int32Array;
  /** The table's slot count (a power of two, the one `fromRankFile` makes for as many ranks). */
  slotCount: number;
}

/**
 * An encoding's ranks, held in place: the rank file's bytes as they were read (each token's length, then its bytes,
 * in rank order) and an open-addressing hash table of ranks over them. Loading it builds no string and no Map entry per token
 * (o200k_base has 200 000): a few milliseconds where a Map took 40 to 60 and left a garbage collection behind.
 * A lookup hashes the characters of a byte string (one character per byte) in place, without slicing it.
 */
export class RankTable {
  /** Tokens in the table. */
  readonly size: number;
  /** Ranks it spans (the highest rank + 1; a rank may have no token). */
  readonly rankCount: number;
  /** The longest token, in bytes: a longer byte string has no rank. */
  readonly maxTokenBytes: number;
  /** Ranks of two-byte strings by first byte × 256 + second (-1: not a token): most lookups, without hashing. */
  readonly pairs: Int32Array;
  /** Rank + 1 of the token in each slot (0: empty); the slot count is a power of two. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  private constructor(
    /** A rank file's bytes: each rank's length in one byte, then its bytes. */
    private readonly file: Uint8Array,
    /** Where rank r's bytes start in the file; its length is the byte before. */
    private readonly starts: Int32Array,
    slots: Int32Array,
    pairs: Int32Array,
    size: number,
    longest: number,
  ) {
    this.rankCount = starts.length;
    this.slots = slots;
    this.mask = slots.length - 1;
    this.pairs = pairs;
    this.size = size;
    this.maxTokenBytes = longest;
  }

  /**
   * The table from a rank file's bytes (kept, not copied): for each rank in order, its length in one byte (0: no
   * token has that rank) and its bytes. Undefined when the bytes end inside a token.
   */
  static fromRankFile(file: Uint8Array): RankTable | undefined {
    let ranks = 0;
    let at = 0;
    while (at < file.length) {
      at += 1 + file[at];
      ranks++;
    }
    if (at !== file.length) return undefined;
    const starts = new Int32Array(ranks);
    at = 0;
    for (let r = 0; r < ranks; r++) {
      starts[r] = at + 1;
      at += 1 + file[at];
    }
    const slots = new Int32Array(slotCountFor(ranks));
    const pairs = new Int32Array(PAIRS).fill(-1);
    const built = fill(file, starts, slots, pairs);
    return new RankTable(file, starts, slots, pairs, built.size, built.longest);
  }

  /**
   * The table from a rank file's bytes and the slot of each rank as `index()` gives them (scripts/build.mjs writes
   * them beside the rank file, and rank-file.ts checks them against their digest first): a run then places each rank
   * in its slot without hashing 200 000 tokens, in a loop of plain reads and writes. Undefined when the slots cannot
   * be this file's: a slot count other than the one `fromRankFile` makes for as many ranks (lookups probe from the
   * hash masked by it), a slot out of range or taken twice, a token without a slot or a slot for a rank without a
   * token, or bytes that end inside a token.
   */
  static fromIndex(file: Uint8Array, index: RankIndex): RankTable | undefined {
    const { slotOf, slotCount } = index;
    const ranks = slotOf.length;
    if (slotCount !== slotCountFor(ranks)) return undefined;
    const starts = new Int32Array(ranks);
    const slots = new Int32Array(slotCount);
    const pairs = new Int32Array(PAIRS).fill(-1);
    let size = 0;
    let longest = 1;
    let at = 0;
    for (let r = 0; r < ranks; r++) {
      if (at >= file.length) return undefined;
      const n = file[at];
      const s = at + 1;
      starts[r] = s;
      at = s + n;
      const slot = slotOf[r];
      if (n === 0) {
        if (slot !== -1) return undefined;
        continue;
      }
      if (slot < 0 || slot >= slotCount || slots[slot] !== 0) return undefined;
      slots[slot] = r + 1;
      size++;
      if (n > longest) longest = n;
      if (n === 2) pairs[file[s] * 256 + file[s + 1]] = r;
    }
    if (at !== file.length) return undefined;
    return new RankTable(file, starts, slots, pairs, size, longest);
  }

  /** The slot of each rank (-1: a rank without a token) and the slot count: what `fromIndex` takes to make this very table again. */
  index(): RankIndex {
    const slotOf = new Int32Array(this.rankCount).fill(-1);
    for (let slot = 0; slot < this.slots.length; slot++) if (this.slots[slot] !== 0) slotOf[this.slots[slot] - 1] = slot;
    return { slotOf, slotCount: this.slots.length };
  }

  /** The rank of the byte string `key[from, to)` (one character per byte), or -1 when it is no token. */
  get(key: string, from = 0, to = key.length): number {
    const n = to - from;
    if (n > this.maxTokenBytes) return -1;
    let h = FNV_BASIS;
    for (let i = from; i < to; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
    const { slots, starts, file, mask } = this;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const r = slots[slot] - 1;
      if (r < 0) return -1;
      const s = starts[r];
      if (file[s - 1] !== n) continue;
      let i = 0;
      while (i < n && file[s + i] === key.charCodeAt(from + i)) i++;
      if (i === n) return r;
    }
  }

  /** Every token as a byte string (one character per byte) and its rank, in rank order: for tests and tools. */
  *entries(): IterableIterator<[string, number]> {
    for (let r = 0; r < this.starts.length; r++) {
      const s = this.starts[r];
      const n = this.file[s - 1];
      if (n > 0) yield [String.fromCharCode(...this.file.subarray(s, s + n)), r];
    }
  }
}

/** Put every rank in its slot (linear probing from its hash) and the two-byte tokens in `pairs`; a function of plain locals, quick even before it is optimized. */
function fill(file: Uint8Array, starts: Int32Array, slots: Int32Array, pairs: Int32Array): { size: number; longest: number } {
  const mask = slots.length - 1;
  let size = 0;
  let longest = 1;
  for (let r = 0; r < starts.length; r++) {
    const s = starts[r];
    const n = file[s - 1];
    if (n === 0) continue;
    size++;
    if (n > longest) longest = n;
    if (n === 2) pairs[file[s] * 256 + file[s + 1]] = r;
    let h = FNV_BASIS;
    for (let i = s; i < s + n; i++) h = Math.imul(h ^ file[i], FNV_PRIME);
    let slot = h & mask;
    // No encoding has a byte string at two ranks (the rank-file test checks every token's rank).
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = r + 1;
  }
  return { size, longest };
}

/** The table's slot count for `ranks` ranks: the least power of two, at least 1024, that is twice as many or more. */
function slotCountFor(ranks: number): number {
  let count = 1024;
  while (count < 2 * ranks) count *= 2;
  return count;
}

/** Two-byte strings: 256 × 256. */
const PAIRS = 65536;
const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
