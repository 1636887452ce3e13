/**
 * The JSON and logfmt level rule, read from bytes: whether a structured line states an info level the way
 * severity.ts reads it first, and the bytes that decided it (the shape InfoColumn, level-column.ts, keeps). The keys
 * and words are level-rule.ts's.
 */

import { JSON_LEVEL_KEYS, LEVEL_WORDS, LOGFMT_LEVEL_KEYS, PINO_LEVEL_KEY, pinoLevel } from './level-rule';

/** How far into a structured line (JSON, logfmt) its level key is looked for. */
export const MAX_STRUCTURED = 256;

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
