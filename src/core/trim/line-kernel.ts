import { ANCHOR_COUNTS } from './anchor-counts';
import { AFTER_WORD } from './level-column';
import { KEY_FIRST_BYTES } from './structured-level';
import { LINE_KERNEL_FILTER, LINE_KERNEL_WASM } from './line-kernel-wasm';
import { LEVEL_NUMBER_FROM, LEVEL_NUMBER_KEY, LEVEL_NUMBER_SKIP, TRIGGER_STARTS, TRIGGER_WORDS } from './triggers';

/**
 * The line kernel of the log scan: a small WebAssembly module (line-kernel.wat) that runs over the lines of a chunk
 * repeating the shape of the last info line, 16 bytes at a time, and writes where each starts. Pass 1
 * (log-bytes.ts) reads the file straight into the kernel's memory, lets it take each run of such lines, and reads
 * every other line itself. The rule is InfoColumn's (level-column.ts), which learns the shapes and tells the kernel;
 * the kernel holds no level word, and its table of the bytes allowed after a word is level-rule.ts's (AFTER_WORD).
 * Where WebAssembly is not available, pass 1 runs without it, with the same result (test/unit/trim/level-rule.test.ts).
 * It is kept because it pays: on the bench's 512 MiB headline, preview CPU is about 12 % lower with it (9.6× against
 * 10.9× `rg -c ERROR`, scripts/bench/kernel.mjs), the difference between meeting the 10× target and missing it.
 */

/** Memory layout (line-kernel.wat). */
const SHAPE = 0;
const DIGITS = 256;
const ANY = 512;
const AFTER_AT = 768;
const LENGTH = 1024;
/** 1 when the shape has a numeric level: the rest of the line must then hold no `"` before KEYS's bytes (i32). */
const REST = 1028;
/** The first bytes of the string level keys, as `| 0x20` makes them (up to 4; 0: none). */
const KEYS = 1032;
/** quiet's filter of anchors, 16 bytes at a time (line-kernel.wat): two nibble tables for each of three bytes. */
const NIBBLES = 1088;
/** Room the shape has in each of its areas. */
const SHAPE_ROOM = 256;
const STARTS = 2048;
/** Lines a run takes at most: their starts fit between STARTS and the data. */
export const RUN_LINES = 16384;
/** The trigger tables of `quiet` (line-kernel.wat's layout), built once from triggers.ts. */
const PAIRS = STARTS + 4 * RUN_LINES;
const STARTS3 = PAIRS + 65536;
const THIRDS = STARTS3 + 65536;
const FOLD = THIRDS + 65536;
const GROUPS = FOLD + 256;
const WORDS = GROUPS + 1024;
const WORD_ROOM = 32;
const DATA = WORDS + 8192;
/** Bytes after the data that the kernel may read (its 16-byte loads of a line's head) but never takes as data. */
const SLACK = SHAPE_ROOM + 16;
const PAGE = 65536;

type Run = (p: number, end: number, starts: number, cap: number, base: number) => number;

/**
 * English letter frequencies (per mille, rounded): a word's anchor is its two adjacent bytes least likely together
 * in text (with the byte after them), so the kernel seldom has to compare a word around bytes that are no part of one.
 */
const LETTER_FREQ: Record<string, number> = { e: 127, t: 91, a: 82, o: 75, i: 70, n: 67, s: 63, h: 61, r: 60, d: 43, l: 40, c: 28, u: 28, m: 24, w: 24, f: 22, g: 20, y: 20, p: 19, b: 15, v: 10, k: 8, j: 2, x: 2, q: 1, z: 1, ' ': 150 };
const freq = (c: string) => LETTER_FREQ[c] ?? 5;

/** The bytes [PAIRS, DATA) of the kernel's memory: its trigger tables (triggers.ts). */
function triggerTables(): Uint8Array {
  const t = new Uint8Array(DATA - PAIRS);
  const cases = (c: string) => [...new Set([c.toLowerCase(), c.toUpperCase()])].map((x) => x.charCodeAt(0));
  for (const s of TRIGGER_STARTS) {
    for (const a of s.first) {
      const seconds = s.second === '' ? Array.from({ length: 256 }, (_, b) => b) : [...s.second].map((c) => c.charCodeAt(0));
      for (const b of seconds) t[STARTS3 - PAIRS + a.charCodeAt(0) + 256 * b] = s.third === '' ? 1 : s.third.charCodeAt(0);
    }
  }
  for (let c = 0; c < 256; c++) t[FOLD - PAIRS + c] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  // Each word's anchor; the words of one anchor form a group (numbered from 1).
  // The kernel's skip set and digits for pino's level key are its own code: check they are triggers.ts's.
  if (LEVEL_NUMBER_SKIP !== ' \t\n\v\f\r:' || LEVEL_NUMBER_FROM !== '4') throw new Error('triggers.ts: pino\'s level rule changed; change line-kernel.wat too');
  const byAnchor = new Map<string, { word: string; at: number; flag: number }[]>();
  for (const [word, flag] of [...TRIGGER_WORDS.map((w) => [w, 0] as const), [LEVEL_NUMBER_KEY, 0x80] as const]) {
    if (word.length < 3 || word.length > WORD_ROOM - 2 || /[^\x20-\x7e]/.test(word)) throw new Error(`triggers.ts: the word ${JSON.stringify(word)} cannot be a kernel's`);
    // Three bytes: the pair and the byte after it, the least common in real logs (ANCHOR_COUNTS), then by letters.
    const count = (k: number) => ANCHOR_COUNTS[word.slice(k, k + 3)] ?? 0;
    const score = (k: number) => freq(word[k]) * freq(word[k + 1]) * freq(word[k + 2]);
    let at = 0;
    for (let k = 1; k + 2 < word.length; k++) if (count(k) < count(at) || (count(k) === count(at) && score(k) < score(at))) at = k;
    const pair = word.slice(at, at + 2);
    const list = byAnchor.get(pair) ?? [];
    list.push({ word, at, flag });
    byAnchor.set(pair, list);
  }
  if (byAnchor.size > 255) throw new Error('triggers.ts: more anchors than the kernel numbers');
  let group = 0;
  let n = 0;
  for (const [pair, list] of byAnchor) {
    group++;
    for (const a of cases(pair[0])) for (const b of cases(pair[1])) t[a + 256 * b] = group;
    t[GROUPS - PAIRS + 4 * group] = n & 0xff;
    t[GROUPS - PAIRS + 4 * group + 1] = n >> 8;
    t[GROUPS - PAIRS + 4 * group + 2] = list.length;
    for (const { word, at, flag } of list) {
      for (const c of cases(word[at + 2])) t[THIRDS - PAIRS + 256 * group + c] = 1;
      const w = WORDS - PAIRS + WORD_ROOM * n++;
      t[w] = at;
      t[w + 1] = word.length | flag;
      for (let k = 0; k < word.length; k++) t[w + 2 + k] = word.charCodeAt(k);
    }
  }
  if (WORD_ROOM * n > DATA - WORDS) throw new Error('triggers.ts: more words than the kernel holds');
  return t;
}

/** The string level keys' first bytes for run's check of a numeric shape's line (level-column.ts), as the kernel compares them: `| 0x20`. */
function keyBytes(): Uint8Array {
  if (KEY_FIRST_BYTES.length > 4) throw new Error('level-rule.ts: string level keys start with more characters than the kernel compares');
  return Uint8Array.from(KEY_FIRST_BYTES);
}

/** Buckets of quiet's filter: one bit of each of its nibble tables. */
const BUCKETS = 8;

/** How often a byte is seen in a log, roughly (weights): to spread the anchors over the filter's buckets. */
function byteWeight(c: number): number {
  const ch = String.fromCharCode(c);
  if (c >= 0x61 && c <= 0x7a) return LETTER_FREQ[ch];
  if (c >= 0x41 && c <= 0x5a) return LETTER_FREQ[ch.toLowerCase()] / 4;
  if (c >= 0x30 && c <= 0x39) return 20;
  if (c === 0x20) return 150;
  return '.:-/=[]"_,()'.includes(ch) ? 15 : c < 0x80 ? 2 : 1;
}

/**
 * The bytes [NIBBLES, NIBBLES + 96) of the kernel's memory, from its tables (`t`, as triggerTables writes them): for
 * each of an anchor's three bytes (the pair, then the third), a table by low nibble and one by high nibble, of the
 * buckets (bits) that hold an anchor with such a byte there. Each anchor pair's group goes to one bucket (the one
 * its bytes, weighed by byteWeight, make least often matched); a byte that is part of an anchor is never filtered
 * out, so the filter only spares the exact look (PAIRS, THIRDS) where no bucket has all three bytes.
 */
export function nibbleTables(t: Uint8Array): Uint8Array {
  const groups: { bytes: [number[], number[], number[]]; weight: number }[] = [];
  for (let a = 0; a < 256; a++) {
    for (let b = 0; b < 256; b++) {
      const g = t[a + 256 * b];
      if (g === 0) continue;
      if (a >= 0x80 || b >= 0x80) throw new Error('triggers.ts: an anchor byte past ASCII');
      const entry = (groups[g] ??= { bytes: [[], [], []], weight: 0 });
      if (!entry.bytes[0].includes(a)) entry.bytes[0].push(a);
      if (!entry.bytes[1].includes(b)) entry.bytes[1].push(b);
    }
  }
  for (let g = 1; g < groups.length; g++) {
    const entry = groups[g];
    if (!entry) continue;
    for (let c = 0; c < 256; c++) {
      if (t[THIRDS - PAIRS + 256 * g + c] !== 1) continue;
      if (c >= 0x80) throw new Error('triggers.ts: an anchor byte past ASCII');
      entry.bytes[2].push(c);
    }
    entry.weight = entry.bytes.reduce((w, xs) => w * xs.reduce((s, x) => s + byteWeight(x), 0), 1);
  }
  // Per bucket and per byte of the three: the low nibbles and the high nibbles it holds (bits).
  const lows = new Int32Array(3 * BUCKETS);
  const highs = new Int32Array(3 * BUCKETS);
  // A byte's weight by its low nibble and by its high nibble (a bucket's bytes are counted as if the two were apart).
  const byLow = new Float64Array(16);
  const byHigh = new Float64Array(8);
  for (let c = 0; c < 0x80; c++) {
    byLow[c & 15] += byteWeight(c);
    byHigh[c >> 4] += byteWeight(c);
  }
  const sum = (bits: number, of: Float64Array) => {
    let s = 0;
    for (let m = bits; m !== 0; m &= m - 1) s += of[31 - Math.clz32(m & -m)];
    return s;
  };
  // How often bucket k's three bytes all match, as weighed.
  const matched = (lo: readonly number[], hi: readonly number[]) => sum(lo[0], byLow) * sum(hi[0], byHigh) * sum(lo[1], byLow) * sum(hi[1], byHigh) * sum(lo[2], byLow) * sum(hi[2], byHigh);
  const masks = (bytes: number[], shift: number, width: number) => bytes.reduce((m, c) => m | (1 << ((c >> shift) & width)), 0);
  const current = new Float64Array(BUCKETS);
  // The most often matched anchors first, each to the bucket it adds least to.
  const order = groups.filter((g) => g !== undefined).sort((x, y) => y.weight - x.weight);
  for (const entry of order) {
    const lo = entry.bytes.map((bytes) => masks(bytes, 0, 15));
    const hi = entry.bytes.map((bytes) => masks(bytes, 4, 15));
    let best = 0;
    let least = Infinity;
    let bestWeight = 0;
    for (let k = 0; k < BUCKETS; k++) {
      const w = matched(
        lo.map((m, j) => m | lows[3 * k + j]),
        hi.map((m, j) => m | highs[3 * k + j]),
      );
      if (w - current[k] < least) {
        least = w - current[k];
        best = k;
        bestWeight = w;
      }
    }
    for (let j = 0; j < 3; j++) {
      lows[3 * best + j] |= lo[j];
      highs[3 * best + j] |= hi[j];
    }
    current[best] = bestWeight;
  }
  const out = new Uint8Array(96);
  for (let k = 0; k < BUCKETS; k++) {
    for (let j = 0; j < 3; j++) {
      for (let l = 0; l < 16; l++) if (lows[3 * k + j] & (1 << l)) out[32 * j + l] |= 1 << k;
      for (let h = 0; h < 16; h++) if (highs[3 * k + j] & (1 << h)) out[32 * j + 16 + h] |= 1 << k;
    }
  }
  return out;
}

/**
 * quiet's filter, computed from triggers.ts: scripts/gen-line-kernel.mjs writes it into line-kernel-wasm.ts beside
 * the kernel's bytes (LINE_KERNEL_FILTER), so no process spends the milliseconds its bucket choice takes, and the test
 * of the generated file (gen-line-kernel.mjs --check) fails when triggers.ts changes and the filter was not written
 * again.
 */
export function filterTables(): Uint8Array {
  return nibbleTables(triggerTables());
}

let tables: Uint8Array | undefined;

// The WebAssembly API this file uses (the project's TypeScript libraries, ES and Node's, do not declare it).
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: { run: Run; quiet: Run; pos: { readonly value: number } };
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: WasmModule, imports: { env: { memory: WasmMemory } }) => WasmInstance;
};

let compiled: WasmModule | null | undefined;

function kernelModule(): WasmModule | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(LINE_KERNEL_WASM, 'base64'));
    } catch {
      // No WebAssembly (node --jitless) or no SIMD: pass 1 reads every line itself.
      compiled = null;
    }
  }
  return compiled;
}

export class LineKernel {
  /** The chunk buffer: `size` bytes of the kernel's memory, where pass 1 reads the file. */
  readonly buf: Buffer;
  /** The starts of the lines the last run took (offsets in `buf`). */
  readonly starts: Int32Array;
  private readonly memory: Uint8Array;
  private readonly runLines: Run;
  private readonly quietLines: Run;
  private readonly stop: { readonly value: number };
  /** True once a shape is set. */
  ready = false;

  private constructor(instance: WasmInstance, memory: WasmMemory, size: number) {
    this.memory = new Uint8Array(memory.buffer);
    this.buf = Buffer.from(memory.buffer, DATA, size);
    this.starts = new Int32Array(memory.buffer, STARTS, RUN_LINES);
    this.runLines = instance.exports.run;
    this.quietLines = instance.exports.quiet;
    this.memory.set((tables ??= triggerTables()), PAIRS);
    this.memory.set(Buffer.from(LINE_KERNEL_FILTER, 'base64'), NIBBLES);
    this.memory.set(keyBytes(), KEYS);
    this.stop = instance.exports.pos;
  }

  /** A kernel whose buffer holds `size` bytes; undefined where WebAssembly is not available. */
  static create(size: number): LineKernel | undefined {
    const module = kernelModule();
    if (!module) return undefined;
    try {
      const memory = new WebAssembly.Memory({ initial: Math.ceil((DATA + size + SLACK) / PAGE) });
      return new LineKernel(new WebAssembly.Instance(module, { env: { memory } }), memory, size);
    } catch {
      return undefined;
    }
  }

  /**
   * The shape is now the bytes `buf[start, start + n)`: an info line's head up to the end of its level word (then
   * `after`: the next byte must be one allowed after a word, or the line's end), or a JSON or logfmt line's up to the
   * end of its level value (any byte may follow). `numeric`: where in it a numeric level's two digits are (they must
   * repeat exactly, and the rest of the line hold no quote before a string level key's first byte), or -1.
   */
  shape(start: number, n: number, after: boolean, numeric = -1): void {
    const m = this.memory;
    const length = n > SHAPE_ROOM ? 0 : n;
    for (let k = 0; k < SHAPE_ROOM; k++) {
      const c = k < length ? this.buf[start + k] : 0;
      m[SHAPE + k] = c;
      m[DIGITS + k] = k < length && c >= 0x30 && c <= 0x39 && (numeric < 0 || (k !== numeric && k !== numeric + 1)) ? 0xff : 0;
      m[ANY + k] = k < length ? 0 : 0xff;
    }
    if (after) m.set(AFTER_WORD, AFTER_AT);
    else m.fill(1, AFTER_AT, AFTER_AT + 256);
    const view = new DataView(m.buffer);
    view.setInt32(LENGTH, length, true);
    view.setInt32(REST, numeric >= 0 ? 1 : 0, true);
    this.ready = length > 0;
  }

  /**
   * Take the lines from `p` (a line start) that repeat the shape and end before `end`: returns how many (their
   * starts are in `starts`); `at` is then the start of the first line not taken.
   */
  take(p: number, end: number): number {
    return this.runLines(DATA + p, DATA + end, STARTS, RUN_LINES, DATA);
  }

  /**
   * Take the lines from `p` that hold no trigger word and do not start as a level may (triggers.ts): info lines,
   * whatever shape they have. Returns how many, as `take` does.
   */
  quiet(p: number, end: number): number {
    return this.quietLines(DATA + p, DATA + end, STARTS, RUN_LINES, DATA);
  }

  get at(): number {
    return this.stop.value - DATA;
  }
}
