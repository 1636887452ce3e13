/**
 * The leading level column: a level word that comes first on the line, after at most a timestamp-like prefix
 * (digits, ` :.,+-/`, the `T` and `Z` of ISO 8601) and bracketed lower-case fields (`[exec-0]`, `[main]`):
 * Spring Boot, logback, log4j, Python `%(asctime)s %(levelname)s`, `INFO:root:…`. When a line has one, it is the
 * line's own level, whatever the message quotes later (`[error]`, `level=error`).
 *
 * Read from bytes, so the log scanner (log-bytes.ts) can tell an info line from the others without decoding it;
 * the string form copies the line's head into the same scratch bytes, so both read the same rule. Only ASCII is
 * accepted before and right after the word: any other character means "no leading column".
 */

export const LEVEL_NONE = 0;
export const LEVEL_INFO = 1;
export const LEVEL_WARN = 2;
export const LEVEL_ERROR = 3;
export type LevelCode = 0 | 1 | 2 | 3;

/** The word must start within this many characters. */
const MAX_PREFIX = 64;
/** The longest level word (INFORMATION). */
const MAX_WORD = 11;

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
/** What may stand before the word and after it (the delimiters of severity.ts's PLAIN_LEVEL, ASCII only). */
const BEFORE = new Uint8Array(256);
for (const c of ' \t[:-') BEFORE[c.charCodeAt(0)] = 1;
const AFTER = new Uint8Array(256);
for (const c of ' \t\n\v\f\r]|:>)-') AFTER[c.charCodeAt(0)] = 1;

/** The level words of a plain-text column (severity.ts's PLAIN_LEVEL), by level. */
const WORDS = new Map<string, LevelCode>([
  ...['EMERG', 'EMERGENCY', 'ALERT', 'CRIT', 'CRITICAL', 'FATAL', 'PANIC', 'SEVERE', 'ERROR', 'ERR', 'FAILURE', 'EROR', 'FTL'].map((w) => [w, LEVEL_ERROR] as const),
  ...['WARN', 'WARNING', 'WRN'].map((w) => [w, LEVEL_WARN] as const),
  ...['INFO', 'INFORMATION', 'NOTICE', 'DEBUG', 'TRACE', 'VERBOSE', 'FINE', 'FINER', 'FINEST', 'INF', 'DBG'].map((w) => [w, LEVEL_INFO] as const),
]);
/** Words of up to PACKABLE letters, keyed by their letters packed into a small integer (5 bits each). */
const PACKABLE = 6;
const PACKED = new Map<number, LevelCode>();
for (const [w, level] of WORDS) if (w.length <= PACKABLE) PACKED.set(pack(Buffer.from(w, 'latin1'), 0, w.length), level);
const INFO_KEY = pack(Buffer.from('INFO', 'latin1'), 0, 4);

function pack(b: Uint8Array, at: number, n: number): number {
  let key = 0;
  for (let k = 0; k < n; k++) key = (key << 5) | (b[at + k] - 0x40);
  return key;
}

function levelOfWord(b: Uint8Array, at: number, n: number): LevelCode | undefined {
  if (n <= PACKABLE) {
    const key = pack(b, at, n);
    // Most lines of a large log say INFO: no lookup for them.
    return key === INFO_KEY ? LEVEL_INFO : PACKED.get(key);
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
  let j = i + 1;
  while (j < end && CLASS[b[j]] === UPPER) j++;
  if (j - i > MAX_WORD || (j < end && AFTER[b[j]] === 0)) return LEVEL_NONE;
  const level = levelOfWord(b, i, j - i);
  return level === undefined ? 0 : (j - start) * 4 + level;
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
