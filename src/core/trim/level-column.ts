/**
 * The leading level column: a level word that comes first on the line, after at most a timestamp-like prefix
 * (digits, ` :.,+-/`, the `T` and `Z` of ISO 8601) and bracketed lower-case fields (`[exec-0]`, `[main]`):
 * Spring Boot, logback, log4j, Python `%(asctime)s %(levelname)s`, `INFO:root:…`. When a line has one, it is the
 * line's own level, whatever the message quotes later (`[error]`, `level=error`).
 *
 * Read from bytes, so the log scanner (log-bytes.ts) can tell an info line from the others without decoding it;
 * the string form copies the line's head into the same scratch bytes, so both read the same rule. Only ASCII is
 * accepted before and right after the word: any other character means "no leading column". The words and the
 * delimiters are level-rule.ts's, the rule's one statement.
 */

import { ASCII_SPACE, COLUMN_AFTER, COLUMN_WORDS, LEADING_BEFORE, levelOfWord as ruleLevel, type StatedLevel } from './level-rule';
import { MAX_STRUCTURED, numericLevelAt, restHoldsNoKey, structuredInfoEnd } from './structured-level';

export const LEVEL_NONE = 0;
export const LEVEL_INFO = 1;
export const LEVEL_WARN = 2;
export const LEVEL_ERROR = 3;
export type LevelCode = 0 | 1 | 2 | 3;

/** The word must start within this many characters. */
const MAX_PREFIX = 64;
/** The longest column word (INFORMATION). */
const MAX_WORD = Math.max(...COLUMN_WORDS.map((w) => w.length));

const PREFIX = 1;
const OPEN = 2;
const CLOSE = 3;
const LOWER = 4;
const UPPER = 5;
const CLASS = new Uint8Array(256);
for (const c of '0123456789 \t:.,+-/') CLASS[c.charCodeAt(0)] = PREFIX;
CLASS[0x5b] = OPEN;
CLASS[0x5d] = CLOSE;
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER;
CLASS[0x5f] = LOWER;
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER;
/** What may stand before the word (LEADING_BEFORE) and after it (PLAIN_LEVEL's delimiters, ASCII only): level-rule.ts. */
const BEFORE = new Uint8Array(256);
for (const c of LEADING_BEFORE) BEFORE[c.charCodeAt(0)] = 1;
const AFTER = new Uint8Array(256);
for (const c of ASCII_SPACE + COLUMN_AFTER) AFTER[c.charCodeAt(0)] = 1;
/** The bytes allowed right after a level word: 1, else 0 (for the line kernel, line-kernel.ts). */
export const AFTER_WORD: Readonly<Uint8Array> = AFTER;

/** The level words of a plain-text column (level-rule.ts COLUMN_WORDS), by level. */
const CODES = { error: LEVEL_ERROR, warn: LEVEL_WARN, info: LEVEL_INFO } as const;
const WORDS = new Map<string, LevelCode>(COLUMN_WORDS.map((w) => [w, CODES[levelOfRule(w)]]));

function levelOfRule(word: string): StatedLevel {
  const level = ruleLevel(word);
  if (level === undefined) throw new Error(`level-rule.ts: the column word ${word} has no level in LEVEL_WORDS`);
  return level;
}
/** Words of up to PACKABLE letters, keyed by their letters packed into a small integer (5 bits each). */
const PACKABLE = 6;
const PACKED = new Map<number, LevelCode>();
for (const [w, level] of WORDS) if (w.length <= PACKABLE) PACKED.set(pack(Buffer.from(w, 'latin1'), 0, w.length), level);

function pack(b: Uint8Array, at: number, n: number): number {
  let key = 0;
  for (let k = 0; k < n; k++) key = (key << 5) | (b[at + k] - 0x40);
  return key;
}

function levelOfWord(b: Uint8Array, at: number, n: number): LevelCode | undefined {
  if (n <= PACKABLE) {
    return PACKED.get(pack(b, at, n));
  }
  return WORDS.get(String.fromCharCode(...b.subarray(at, at + n)));
}

/** The level of the line `b[start, end)` states in a leading column, or LEVEL_NONE. */
export function leadingLevelCode(b: Uint8Array, start: number, end: number): LevelCode {
  return (leadingWord(b, start, end) & 3) as LevelCode;
}

/** The leading column as one number: where its word ends (from `start`) × 4 + its level code; 0 when there is none. */
function leadingWord(b: Uint8Array, start: number, end: number): number {
  if (start >= end) return LEVEL_NONE;
  const first = CLASS[b[start]];
  if ((first !== PREFIX && first !== OPEN && first !== UPPER) || b[start] === 0x20 || b[start] === 0x09) return LEVEL_NONE;
  const limit = end - start > MAX_PREFIX ? start + MAX_PREFIX : end;
  let inBracket = false;
  let i = start;
  for (; i < limit; i++) {
    const k = CLASS[b[i]];
    if (k === PREFIX) continue;
    if (k === UPPER) {
      // T and Z of a timestamp are part of the prefix; any other capital (or a run of them) starts the word.
      const c = b[i];
      if ((c === 0x54 || c === 0x5a) && (inBracket || i + 1 >= end || CLASS[b[i + 1]] !== UPPER)) continue;
      break;
    }
    if (k === OPEN && !inBracket) inBracket = true;
    else if (k === CLOSE && inBracket) inBracket = false;
    else if (k !== LOWER || !inBracket) return LEVEL_NONE;
  }
  if (i >= limit || (i > start && BEFORE[b[i - 1]] === 0)) return LEVEL_NONE;
  // Most lines of a large log say INFO: read it without measuring the word.
  if (b[i] === 0x49 && b[i + 1] === 0x4e && b[i + 2] === 0x46 && b[i + 3] === 0x4f && (i + 4 >= end || AFTER[b[i + 4]] === 1)) return (i + 4 - start) * 4 + LEVEL_INFO;
  let j = i + 1;
  while (j < end && CLASS[b[j]] === UPPER) j++;
  if (j - i > MAX_WORD || (j < end && AFTER[b[j]] === 0)) return LEVEL_NONE;
  const level = levelOfWord(b, i, j - i);
  return level === undefined ? 0 : (j - start) * 4 + level;
}

/** The longest shape: what decided a structured line (a leading column is shorter: MAX_PREFIX + MAX_WORD). */
export const MAX_SHAPE = MAX_STRUCTURED;
/** Most 4-byte words a shape spans, at any alignment. */
const SHAPE_WORDS = Math.ceil((MAX_SHAPE + 3) / 4);

/**
 * Info lines of one buffer, with a memory of the last one's shape: the bytes that decided it. For a leading level
 * column, its bytes up to the end of the level word; a line that repeats them, except that digits may stand for
 * other digits (the timestamp), and then ends or goes on with a character allowed after a word, has the same
 * leading column: every step of `leadingWord` sees the same classes there (a digit is a prefix character in and out
 * of brackets, and no capital). For a JSON or logfmt line, the bytes up to the end of its level value
 * (structuredInfoEnd); the parse treats digits alike, and reads nothing after, but for a numeric level (pino): its
 * two digits must repeat exactly, and the rest of the line hold no string level key (restHoldsNoKey). The shape is compared four aligned
 * bytes at a time, against a copy of it made for each of the four alignments a line can start at; any other line
 * takes the full rules, and an info line that does not repeat the shape becomes the new one.
 */
export class InfoColumn {
  /** The buffer as 32-bit words (native order), when it is aligned to 4 bytes. */
  private readonly words: Int32Array | undefined;
  /** For alignment a, from a × SHAPE_WORDS: the shape's bytes in words, which of their bytes are the shape's, which are digits. */
  private readonly shape = new Int32Array(4 * SHAPE_WORDS);
  private readonly mask = new Int32Array(4 * SHAPE_WORDS);
  private readonly digits = new Int32Array(4 * SHAPE_WORDS);
  private readonly count = new Int32Array(4);
  /** The shape's length; 0 while there is none. */
  private end = 0;
  /** Whether the byte after the shape must be one allowed after a level word (a leading column's shape). */
  private after = true;
  /** Where a numeric level's two digits are in the shape (they must repeat exactly), or -1 (restHoldsNoKey then holds for the rest of the line). */
  private numeric = -1;

  constructor(
    private readonly b: Buffer,
    /**
     * Told each new shape: its first byte in `b`, its length, whether the byte after it is checked, and where in it a
     * numeric level's two digits are (-1: none; else they repeat exactly, and the rest of the line holds no string
     * level key).
     */
    private readonly onShape?: (start: number, n: number, after: boolean, numeric: number) => void,
  ) {
    this.words = b.byteOffset % 4 === 0 ? new Int32Array(b.buffer, b.byteOffset, b.length >> 2) : undefined;
  }

  /** True when the line `b[start, end)` repeats the shape, or is an info line by its leading column (`leadingLevelCode(…) === LEVEL_INFO`). */
  isInfo(start: number, end: number): boolean {
    if (this.repeated(start, end)) return true;
    const word = leadingWord(this.b, start, end);
    if ((word & 3) !== LEVEL_INFO) return false;
    this.learn(start, word >> 2, true);
    return true;
  }

  /** True when the line is a JSON or logfmt info line (`structuredInfo`); call it after `isInfo` said no. */
  isStructuredInfo(start: number, end: number): boolean {
    const n = structuredInfoEnd(this.b, start, end);
    if (n === 0) return false;
    const digits = numericLevelAt(this.b, start, n);
    this.learn(start, n, false, digits < 0 ? -1 : digits - start);
    return true;
  }

  private repeated(start: number, end: number): boolean {
    const n = this.end;
    return n !== 0 && end - start >= n && (start + n === end || !this.after || AFTER[this.b[start + n]] === 1) && this.repeats(start) && (this.numeric < 0 || restHoldsNoKey(this.b, start + n, end));
  }

  private repeats(start: number): boolean {
    const words = this.words as Int32Array;
    const a = start & 3;
    const base = (start - a) >> 2;
    const from = a * SHAPE_WORDS;
    const to = from + this.count[a];
    for (let k = from; k < to; k++) {
      const x = words[base + k - from] & this.mask[k];
      const y = this.shape[k];
      if (x === y) continue;
      if ((x & 0x80808080) !== 0) return false;
      const z = x ^ y;
      // The bytes that differ must be digits in both.
      const differ = (((z & 0x7f7f7f7f) + 0x7f7f7f7f) | z) & 0x80808080;
      if ((differ & ~(digitBits(x) & this.digits[k])) !== 0) return false;
    }
    return true;
  }

  private learn(start: number, n: number, after: boolean, numeric = -1): void {
    // A shape with a byte past ASCII (the byte that ends a logfmt value may be one) is not kept: the digit test
    // reads ASCII words.
    let ascii = n <= MAX_SHAPE;
    for (let k = 0; ascii && k < n; k++) if (this.b[start + k] >= 0x80) ascii = false;
    if (this.words === undefined || !ascii) {
      this.end = 0;
      return;
    }
    this.onShape?.(start, n, after, numeric);
    this.end = n;
    this.after = after;
    this.numeric = numeric;
    const little = LITTLE_ENDIAN;
    for (let a = 0; a < 4; a++) {
      const count = (n + a + 3) >> 2;
      this.count[a] = count;
      for (let k = 0; k < count; k++) {
        let word = 0;
        let mask = 0;
        // A numeric level's digits are no digit that may stand for another.
        let exact = 0;
        for (let j = 0; j < 4; j++) {
          const at = 4 * k - a + j;
          if (at < 0 || at >= n) continue;
          const shift = little ? 8 * j : 24 - 8 * j;
          word |= this.b[start + at] << shift;
          mask |= 0xff << shift;
          if (numeric >= 0 && (at === numeric || at === numeric + 1)) exact |= 0x80 << shift;
        }
        this.shape[a * SHAPE_WORDS + k] = word;
        this.mask[a * SHAPE_WORDS + k] = mask;
        this.digits[a * SHAPE_WORDS + k] = digitBits(word) & ~exact;
      }
    }
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The high bit of each byte of an ASCII word that is a digit: b + 0x50 reaches 0x80 from '0', b + 0x46 from ':'. */
function digitBits(x: number): number {
  return (x + 0x50505050) & ~(x + 0x46464646) & 0x80808080;
}

// A Buffer like the ones pass 1 reads into, so the byte rule sees one kind of array (and stays fast).
const scratch = Buffer.alloc(MAX_PREFIX + MAX_WORD + 2);

/**
 * The same rule on a decoded line: its head is copied into scratch bytes, any non-ASCII character as 0xFF (which
 * no rule accepts, as no rule accepts a byte of a multi-byte character). The head is long enough for any word
 * that can match: one starts within MAX_PREFIX and a longer run than MAX_WORD is refused before the cut.
 */
export function leadingLevelOf(line: string): LevelCode {
  return (leadingOf(line) & 3) as LevelCode;
}

/** Where the leading column's word ends in the line, or undefined when it has none. */
export function leadingLevelEnd(line: string): number | undefined {
  const word = leadingOf(line);
  return word === 0 ? undefined : word >> 2;
}

function leadingOf(line: string): number {
  const n = Math.min(line.length, scratch.length);
  for (let k = 0; k < n; k++) {
    const c = line.charCodeAt(k);
    scratch[k] = c < 0x80 ? c : 0xff;
  }
  return leadingWord(scratch, 0, n);
}
