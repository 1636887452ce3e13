/**
 * The rule that says what level a log line states, as data: the one place it is written. severity.ts builds its
 * regular expressions from it, level-column.ts its byte tables (the leading column, JSON and logfmt info lines), and
 * the line kernel (line-kernel.ts) gets its table of the bytes allowed after a level word from level-column.ts.
 * test/unit/trim/level-rule.test.ts generates lines from this data and checks that every fast path gives the
 * answer severity.ts gives, so a word added here reaches all of them and is tested in all of them. triggers.ts takes
 * the error and warning words for the line kernel's quiet run (lines that cannot be evidence, never decoded), and
 * test/unit/trim/triggers.test.ts checks that every line severity.ts calls an error or a warning holds one.
 */

export type StatedLevel = 'error' | 'warn' | 'info';

/**
 * Level words, any case, as a JSON or logfmt level value (`"level":"warning"`, `level=dbg`) and, upper case, as a
 * plain-text column (COLUMN_WORDS).
 */
export const LEVEL_WORDS: Readonly<Record<StatedLevel, readonly string[]>> = {
  error: ['emerg', 'emergency', 'alert', 'crit', 'critical', 'fatal', 'panic', 'severe', 'error', 'err', 'failure', 'eror', 'ftl', 'crt'],
  warn: ['warn', 'warning', 'wrn'],
  info: ['info', 'information', 'informational', 'notice', 'debug', 'trace', 'verbose', 'fine', 'finer', 'finest', 'config', 'dbg', 'inf', 'success'],
};

/**
 * The words that stand as a column of their own in plain text, upper case only (log4j, Python, Spark, HDFS,
 * OpenStack, BGL `FATAL`): a lower-case `error` in a message is vocabulary, not a level. (`config`, `success`,
 * `informational` and `crt` are level values only.)
 */
export const COLUMN_WORDS: readonly string[] = [
  ...['emerg', 'emergency', 'alert', 'crit', 'critical', 'fatal', 'panic', 'severe', 'error', 'err', 'failure', 'eror', 'ftl'],
  ...['warn', 'warning', 'wrn'],
  ...['info', 'information', 'notice', 'debug', 'trace', 'verbose', 'fine', 'finer', 'finest', 'inf', 'dbg'],
].map((w) => w.toUpperCase());

/** Words in brackets, any case, optionally after a module (Apache `[error]`, `[core:warn]`, `[trace3]`). */
export const BRACKET_WORDS: readonly string[] = ['emerg', 'alert', 'crit', 'error', 'warn', 'warning', 'notice', 'info', 'debug', 'trace', 'fatal'];

/** What may stand right before a column word (or the line starts), and right after it (or the line ends), besides white space. */
export const COLUMN_BEFORE = '[|(<:-';
export const COLUMN_AFTER = ']|:>)-';
/** The ASCII white space `\s` holds (a byte path reads ASCII only). */
export const ASCII_SPACE = ' \t\n\v\f\r';
/** Before a leading column's word (level-column.ts): white space, `[`, `:`, `-` (a timestamp or a bracketed field ends so). */
export const LEADING_BEFORE = ' \t[:-';

/** Only this many first characters of a line hold a level column; a level word deeper in a message is vocabulary. */
export const HEAD_CHARS = 160;

/** Keys whose string value is a JSON line's level (slog, winston, zap, OTel SeverityText), compared in lower case. */
export const JSON_LEVEL_KEYS: readonly string[] = ['level', 'lvl', 'severity', 'severity_text', 'severitytext', 'log.level', 'loglevel', 'levelname', '@l'];
/** Keys of a logfmt level (`level=info`), compared in lower case. */
export const LOGFMT_LEVEL_KEYS: readonly string[] = ['level', 'lvl', 'severity'];

/** The key of pino's and bunyan's numeric level (`"level":30`), compared as written (severity.ts, level-column.ts). */
export const PINO_LEVEL_KEY = 'level';

/** Numeric levels: pino and bunyan (10–60), OpenTelemetry SeverityNumber (1–24), syslog priority (PRI mod 8). */
export function pinoLevel(n: number): StatedLevel {
  return n >= 50 ? 'error' : n >= 40 ? 'warn' : 'info';
}
export function otelLevel(n: number): StatedLevel {
  return n >= 17 ? 'error' : n >= 13 ? 'warn' : 'info';
}
export function syslogLevel(pri: number): StatedLevel {
  const s = pri % 8;
  return s <= 3 ? 'error' : s === 4 ? 'warn' : 'info';
}
/** One-letter levels (logcat, klog): E, F and A are errors, W a warning, the others info. */
export function letterLevel(c: string): StatedLevel {
  return c === 'E' || c === 'F' || c === 'A' ? 'error' : c === 'W' ? 'warn' : 'info';
}

const BY_WORD = new Map<string, StatedLevel>();
for (const level of ['error', 'warn', 'info'] as const) for (const w of LEVEL_WORDS[level]) BY_WORD.set(w, level);

/** The level a word names, any case; undefined for any other word. */
export function levelOfWord(word: string): StatedLevel | undefined {
  return BY_WORD.get(word.toLowerCase());
}

/** A string's characters for a regular expression's character class. */
export function classOf(chars: string): string {
  return chars.replace(/[\]\\^-]/g, '\\$&');
}

/** Alternatives, longest first (so a word is never cut short by a shorter one it starts with). */
export function alternation(words: readonly string[]): string {
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).join('|');
}
