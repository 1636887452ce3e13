/**
 * The correlated-line search of pass 1 (log-bytes.ts) in one pass over a chunk for every watched id: the
 * per-id search (one Buffer#indexOf per id per chunk) reads the same bytes once per id, which a log with hundreds of
 * errors near each other pays hundreds of times over.
 *
 * Every four bytes of every id are one 32-bit word in a table (a bit per hash, 128 Ki bits, then the ids and
 * offsets where the word stands). The pass reads the word ending every few bytes (fewer than the shortest id
 * holds) and, only on a hit, compares the ids that hold that word at the place it would stand.
 * A correlation id is at least 6 ASCII characters without a line end (log-parse.ts's CORRELATION), so a match lies
 * within one line and its bytes are the id's latin1 bytes, as the per-id search looks for them.
 */

/** For each id, the line ranges to search (inclusive pairs `lo, hi`, in line indices of the file). */
export type Wanted = Map<string, number[]>;

/** Where a chunk's lines start: `starts[k]` is the offset of line `firstLine + k`; `end` is where the last one ends. */
export interface ChunkLines {
  buf: Uint8Array;
  starts: Int32Array;
  firstLine: number;
  lines: number;
  end: number;
}

const TABLE_BITS = 17;
const MIX = 0x9e3779b1;

/** The 32-bit word of the four bytes ending at `p`. */
function wordAt(b: ArrayLike<number>, p: number): number {
  return (b[p - 3] << 24) | (b[p - 2] << 16) | (b[p - 1] << 8) | b[p];
}

/**
 * Bytes the per-id search would read for these ranges (`each`), bytes one pass reads (`once`, their union) and the
 * stride of that pass (`step`, from the shortest id).
 */
export function searchCost(chunk: ChunkLines, wanted: Wanted): { each: number; once: number; step: number } {
  let each = 0;
  let shortest = Infinity;
  const all: number[][] = [];
  for (const [id, ranges] of wanted) {
    shortest = Math.min(shortest, id.length);
    for (let k = 0; k < ranges.length; k += 2) {
      const [s, e] = byteSpan(chunk, ranges[k], ranges[k + 1]);
      each += e - s;
      all.push([s, e]);
    }
  }
  let once = 0;
  for (const [s, e] of merged(all)) once += e - s;
  return { each, once, step: Math.max(1, shortest - 3) };
}

/** Bytes [start of line lo, end of line hi) of the chunk (the end includes hi's line end, which no id matches). */
function byteSpan(chunk: ChunkLines, lo: number, hi: number): [number, number] {
  const a = lo - chunk.firstLine;
  const b = hi + 1 - chunk.firstLine;
  return [chunk.starts[a], b < chunk.lines ? chunk.starts[b] : chunk.end];
}

function merged(spans: number[][]): number[][] {
  spans.sort((x, y) => x[0] - y[0]);
  const out: number[][] = [];
  for (const [s, e] of spans) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * The lines of the chunk, each within a range of an id it holds, in one pass over the union of the ranges.
 * Returns them sorted, each once.
 */
export function searchIds(chunk: ChunkLines, wanted: Wanted): number[] {
  const ids: string[] = [];
  const bytes: Uint8Array[] = [];
  const bits = new Uint8Array(1 << TABLE_BITS);
  /** For each word, the (id, offset) pairs where it stands in an id, flattened. */
  const byWord = new Map<number, number[]>();
  const spans: number[][] = [];
  let shortest = Infinity;
  for (const [id, ranges] of wanted) {
    if (ranges.length === 0 || id.length < 4) continue;
    const k = ids.length;
    ids.push(id);
    const b = Buffer.from(id, 'latin1');
    bytes.push(b);
    shortest = Math.min(shortest, b.length);
    for (let off = 0; off + 4 <= b.length; off++) {
      const w = wordAt(b, off + 3);
      bits[Math.imul(w, MIX) >>> (32 - TABLE_BITS)] = 1;
      const list = byWord.get(w);
      if (list) list.push(k, off);
      else byWord.set(w, [k, off]);
    }
    for (let r = 0; r < ranges.length; r += 2) spans.push(byteSpan(chunk, ranges[r], ranges[r + 1]));
  }
  const found = new Set<number>();
  const buf = chunk.buf;
  // An id shorter than a word (none is: CORRELATION takes 6 characters or more) is looked for on its own.
  for (const [id, ranges] of wanted) if (id.length < 4) for (const line of eachIn(chunk, id, ranges)) found.add(line);
  // Any occurrence of an id spans `shortest` bytes, so one of the words ending every `step` bytes lies inside it:
  // only those words are looked up (a 36-character UUID: one position in 33).
  const step = Math.max(1, shortest - 3);
  const hits: number[] = [];
  for (const [s, e] of merged(spans)) probeSpan(buf, s, e, step, bits, byWord, bytes, hits);
  for (let h = 0; h < hits.length; h += 2) {
    const line = lineAt(chunk, hits[h + 1]);
    if (inRanges(wanted.get(ids[hits[h]])!, line)) found.add(line);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The pass over one span, alone in a small function: V8 optimizes it within the first chunk (about 1 ms a 4 MiB
 * chunk then), where the whole of searchIds took 15–40 ms to compile and was deoptimized once, so that most of a
 * preview's 13 chunks ran unoptimized (9–30 ms each). Pushes the id's number and start of each whole occurrence.
 */
function probeSpan(buf: Uint8Array, s: number, e: number, step: number, bits: Uint8Array, byWord: Map<number, number[]>, bytes: Uint8Array[], hits: number[]): void {
  for (let p = s + 3; p < e; p += step) {
    const w = (buf[p - 3] << 24) | (buf[p - 2] << 16) | (buf[p - 1] << 8) | buf[p];
    if (bits[Math.imul(w, MIX) >>> (32 - TABLE_BITS)] === 0) continue;
    const list = byWord.get(w);
    if (list === undefined) continue;
    for (let c = 0; c < list.length; c += 2) {
      const id = bytes[list[c]];
      const start = p - 3 - list[c + 1];
      if (start < s || start + id.length > e || !same(buf, start, id)) continue;
      hits.push(list[c], start);
    }
  }
}

function same(buf: Uint8Array, at: number, id: Uint8Array): boolean {
  for (let i = 0; i < id.length; i++) if (buf[at + i] !== id[i]) return false;
  return true;
}

/** The file line holding chunk byte `h`. */
function lineAt(chunk: ChunkLines, h: number): number {
  const starts = chunk.starts;
  let lo = 0;
  let hi = chunk.lines - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (starts[mid] <= h) lo = mid;
    else hi = mid - 1;
  }
  return chunk.firstLine + lo;
}

function inRanges(ranges: number[], line: number): boolean {
  for (let r = 0; r < ranges.length; r += 2) if (ranges[r] <= line && line <= ranges[r + 1]) return true;
  return false;
}

/** The per-id search (Buffer#indexOf) of one id's ranges. */
export function eachIn(chunk: ChunkLines, id: string, ranges: number[]): number[] {
  const out: number[] = [];
  const buf = Buffer.from(chunk.buf.buffer, chunk.buf.byteOffset, chunk.buf.byteLength);
  for (let r = 0; r < ranges.length; r += 2) {
    const [s, e] = byteSpan(chunk, ranges[r], ranges[r + 1]);
    const view = buf.subarray(0, e);
    for (let h = view.indexOf(id, s, 'latin1'); h !== -1; h = view.indexOf(id, h + 1, 'latin1')) out.push(lineAt(chunk, h));
  }
  return out;
}
