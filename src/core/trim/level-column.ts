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

import { ASCII_SPACE, COLUMN_AFTER, COLUMN_WORDS, JSON_LEVEL_KEYS, LEADING_BEFORE, LEVEL_WORDS, levelOfWord as ruleLevel, LOGFMT_LEVEL_KEYS, PINO_LEVEL_KEY, pinoLevel, type StatedLevel } from './level-rule';

export const LEVEL_NONE = 0;
export const LEVEL_INFO = 1;
export const LEVEL_WARN = 2;
export const LEVEL_ERROR = 3;
export type LevelCode = 0 | 1 | 2 | 3;

/** The word must start within this many characters. */
const MAX_PREFIX = 64;
/** The longest column word (INFORMATION). */
const MAX_WORD = Math.max(...COLUMN_WORDS.map((w) => w.length));
/** How far into a structured line (JSON, logfmt) its level key is looked for. */
const MAX_STRUCTURED = 256;

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

/** Level words that make a JSON or logfmt line an info line, and the keys that hold them (level-rule.ts). */
export const INFO_VALUES: ReadonlySet<string> = new Set(LEVEL_WORDS.info);
const JSON_KEYS: ReadonlySet<string> = new Set(JSON_LEVEL_KEYS);
const LOGFMT_KEYS: ReadonlySet<string> = new Set(LOGFMT_LEVEL_KEYS);

/**
 * True when a JSON or logfmt line states an info level the way severity.ts reads it first: the first level key of a
 * flat JSON object (`{"time":"…","level":"INFO",…}`: slog, zap, winston), or logfmt's `level=info` as its first or
 * second field (`time=… level=info …`: Go slog, logrus). A numeric level (pino, bunyan: `{"level":30,…}`) is read
 * second by severity.ts, after any string level anywhere in the line: it is an info line here only when the rest of
 * the line holds no `"` before a string level key's first character (restHoldsNoKey). Anything less plain (escapes,
 * nested values, a quoted first field) is left to the decoded line.
 */
export function structuredInfo(b: Uint8Array, start: number, end: number): boolean {
  return structuredInfoEnd(b, start, end) > 0;
}

/**
 * The same rule, as the bytes it read: 0 when the line is no structured info line, else how many bytes from
 * `start` decided it (the level value's closing quote, or the byte that ends an unquoted one). Every step before
 * treats digits alike (in keys, which are then never level keys, strings and scalars), so a line that repeats
 * those bytes, a digit for any digit, is an info line too (InfoColumn).
 */
export function structuredInfoEnd(b: Uint8Array, start: number, end: number): number {
  const limit = Math.min(end, start + MAX_STRUCTURED);
  const at = b[start] === 0x7b ? jsonInfo(b, start + 1, limit, end) : logfmtInfo(b, start, limit);
  return at < 0 ? 0 : at - start;
}

/**
 * Where the info level's value ends (after its closing quote; after the `,` or `}` that follows a numeric one), or
 * -1. The line ends at `end`.
 */
function jsonInfo(b: Uint8Array, i: number, limit: number, end: number): number {
  for (;;) {
    i = skipSpaces(b, i, limit);
    const key = quoted(b, i, limit);
    if (key < 0) return -1;
    const name = lower(b, i + 1, key);
    i = skipSpaces(b, key + 1, limit);
    if (b[i] !== 0x3a) return -1;
    i = skipSpaces(b, i + 1, limit);
    if (b[i] === 0x22) {
      const value = quoted(b, i, limit);
      if (value < 0) return -1;
      if (JSON_KEYS.has(name)) return isWord(b, i + 1, value) && INFO_VALUES.has(lower(b, i + 1, value)) ? value + 1 : -1;
      i = value + 1;
    } else {
      if (JSON_KEYS.has(name)) return isPinoKey(b, key) ? pinoInfo(b, i, limit, end) : -1;
      const from = i;
      while (i < limit && SCALAR[b[i]] === 1) i++;
      if (i === from) return -1;
    }
    i = skipSpaces(b, i, limit);
    if (b[i] !== 0x2c) return -1;
    i++;
  }
}

/** The key that ends with the quote at `close` is pino's level key, as written. */
function isPinoKey(b: Uint8Array, close: number): boolean {
  const from = close - PINO_KEY.length;
  if (from < 1 || b[from - 1] !== 0x22) return false;
  for (let k = 0; k < PINO_KEY.length; k++) if (b[from + k] !== PINO_KEY[k]) return false;
  return true;
}

/**
 * pino's level at `i` as severity.ts reads it (two digits, white space, then `,` or `}`), an info level, and no
 * string level key in the rest of the line: where the `,` or `}` ends, or -1.
 */
function pinoInfo(b: Uint8Array, i: number, limit: number, end: number): number {
  if (i + 2 > limit || !isDigit(b[i]) || !isDigit(b[i + 1])) return -1;
  const j = skipSpaces(b, i + 2, limit);
  if (j >= limit || (b[j] !== 0x2c && b[j] !== 0x7d)) return -1;
  if (pinoLevel((b[i] - 0x30) * 10 + (b[i + 1] - 0x30)) !== 'info') return -1;
  return restHoldsNoKey(b, j + 1, end) ? j + 1 : -1;
}

/**
 * True when the bytes [from, end) hold no `"` followed by the first character of a string level key
 * (JSON_LEVEL_KEYS, any case: KEY_FIRST_BYTES): severity.ts's string level can match nowhere there, so it cannot
 * come before a numeric level read earlier in the line.
 */
export function restHoldsNoKey(b: Uint8Array, from: number, end: number): boolean {
  for (let k = from; k + 1 < end; k++) if (b[k] === 0x22 && KEY_FIRST[b[k + 1]] === 1) return false;
  return true;
}

/**
 * Where the digits of the numeric level of a structured info shape start (the shape `b[start, start + n)` that
 * structuredInfoEnd measured), or -1 when its level is a word: those two digits decide the level, so a line that
 * repeats the shape repeats them exactly.
 */
export function numericLevelAt(b: Uint8Array, start: number, n: number): number {
  const last = b[start + n - 1];
  if (b[start] !== 0x7b || (last !== 0x2c && last !== 0x7d)) return -1;
  let j = start + n - 2;
  while (j > start && (b[j] === 0x20 || b[j] === 0x09)) j--;
  return j - 1;
}

/**
 * The first characters of the string level keys, as `| 0x20` makes them (which folds ASCII case): restHoldsNoKey and
 * the line kernel's run take a byte for one when it folds to one of them (`@` and `` ` `` alike: a line more is read
 * whole, none less).
 */
export const KEY_FIRST_BYTES: readonly number[] = [...new Set(JSON_LEVEL_KEYS.map((k) => k.charCodeAt(0) | 0x20))];
const KEY_FIRST = new Uint8Array(256);
for (let c = 0; c < 256; c++) if (KEY_FIRST_BYTES.includes(c | 0x20)) KEY_FIRST[c] = 1;
const PINO_KEY = Buffer.from(PINO_LEVEL_KEY, 'latin1');

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where the info level's value ends (after the byte that ends it), or -1. */
function logfmtInfo(b: Uint8Array, start: number, limit: number): number {
  // The first field: `key=value` with a plain key and an unquoted value.
  let i = start;
  while (i < limit && KEY[b[i]] === 1) i++;
  if (i === start || b[i] !== 0x3d || b[start] < 0x61 || b[start] > 0x7a) return -1;
  if (levelField(b, start, i, limit)) return levelValueEnd(b, i + 1, limit);
  // Its value: printable ASCII without quotes (any other white space could start a field the reader would see).
  for (i++; i < limit && b[i] !== 0x20 && b[i] !== 0x09; i++) if (b[i] < 0x21 || b[i] > 0x7e || b[i] === 0x22) return -1;
  if (i >= limit) return -1;
  const second = i + 1;
  let j = second;
  while (j < limit && KEY[b[j]] === 1) j++;
  return b[j] === 0x3d && levelField(b, second, j, limit) ? levelValueEnd(b, j + 1, limit) : -1;
}

function levelField(b: Uint8Array, from: number, eq: number, limit: number): boolean {
  return eq < limit && LOGFMT_KEYS.has(lower(b, from, eq));
}

/** `"?(\w+)` after the `=`, an info word, and then not a word character: where that character ends, or -1. */
function levelValueEnd(b: Uint8Array, i: number, limit: number): number {
  if (b[i] === 0x22) i++;
  const from = i;
  while (i < limit && WORD[b[i]] === 1) i++;
  return i > from && i < limit && WORD[b[i]] !== 1 && INFO_VALUES.has(lower(b, from, i)) ? i + 1 : -1;
}

/** The index of the closing quote of a string starting at `i` (no escapes, ASCII only), or -1. */
function quoted(b: Uint8Array, i: number, limit: number): number {
  if (b[i] !== 0x22) return -1;
  for (let j = i + 1; j < limit; j++) {
    const c = b[j];
    if (c === 0x22) return j;
    if (c === 0x5c || c >= 0x80 || c < 0x20) return -1;
  }
  return -1;
}

function skipSpaces(b: Uint8Array, i: number, limit: number): number {
  while (i < limit && (b[i] === 0x20 || b[i] === 0x09)) i++;
  return i;
}

function isWord(b: Uint8Array, from: number, to: number): boolean {
  if (from === to) return false;
  for (let k = from; k < to; k++) if (WORD[b[k]] !== 1) return false;
  return true;
}

function lower(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let k = from; k < to; k++) s += String.fromCharCode(b[k] >= 0x41 && b[k] <= 0x5a ? b[k] | 0x20 : b[k]);
  return s;
}

const WORD = new Uint8Array(256);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_') WORD[c.charCodeAt(0)] = 1;
const KEY = new Uint8Array(256);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@-') KEY[c.charCodeAt(0)] = 1;
/** Characters of a JSON number, true, false or null. */
const SCALAR = new Uint8Array(256);
for (const c of '0123456789+-.eEtrufalsn') SCALAR[c.charCodeAt(0)] = 1;
