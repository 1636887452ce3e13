/**
 * The severity of one log line, whatever its format, by regular expressions only (no line is parsed as JSON, so a
 * 50 MB log costs one scan). A line that states its level is taken at its word: `INFO ... failed to ...` is not an
 * error. A line without a level (syslog, RAS logs, health apps, proxies) is judged by its vocabulary (failed,
 * exception, denied, refused, timeout, panic, unreachable …), by uncaught stack-trace openers and by exit codes.
 */

import { leadingLevelEnd, leadingLevelOf } from './level-column';
import { alternation, BRACKET_WORDS, classOf, COLUMN_AFTER, COLUMN_BEFORE, COLUMN_WORDS, HEAD_CHARS, JSON_LEVEL_KEYS, LEVEL_WORDS, letterLevel, levelOfWord, LOGFMT_LEVEL_KEYS, otelLevel, PINO_LEVEL_KEY, pinoLevel, syslogLevel } from './level-rule';

export type Severity = 'error' | 'warn' | 'info';

type Level = Severity;

const CODE_LEVEL: (Level | undefined)[] = [undefined, 'info', 'warn', 'error'];

/** Every level word with its level (level-rule.ts). */
export const WORD_LEVELS: Readonly<Record<string, Level>> = Object.fromEntries((['error', 'warn', 'info'] as const).flatMap((level) => LEVEL_WORDS[level].map((w) => [w, level])));

/**
 * A level word standing as a column (level-rule.ts COLUMN_WORDS, upper case), or bracketed (`[error]`,
 * `[core:warn]`, `[trace3]`); Windows CBS's capitalised `, Error` is CBS_LEVEL.
 */
const PLAIN_LEVEL = new RegExp(`(?:^|[\\s${classOf(COLUMN_BEFORE)}])(${alternation(COLUMN_WORDS)})(?=[\\s${classOf(COLUMN_AFTER)}]|$)`);
const BRACKET_LEVEL = new RegExp(`\\[(?:[\\w.-]+:)?(${alternation(BRACKET_WORDS)})(?:(?<=trace)\\d)?\\]`, 'i');
/** Windows CBS / DISM: `2016-09-28 04:30:30, Error                 CBS    …`. */
const CBS_LEVEL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, (Info|Warning|Error|Perf)\s/;
/** Android logcat threadtime `03-17 16:13:38.811  1702  2395 E Tag: …` and brief `E/Tag(  123): …`. */
const LOGCAT = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+\s+([VDIWEFA])\s|^([VDIWEFA])\/[^(:]+\(\s*\d+\):/;
/** klog (Kubernetes, glog): `E0102 15:04:05.999999    1234 file.go:42] …`. */
const KLOG = /^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ \S+:\d+\]/;
/** Syslog priority `<PRI>` (RFC 3164 / 5424) and journald export `PRIORITY=3`: severity = PRI mod 8. */
const SYSLOG_PRI = /^<(\d{1,3})>/;
const JOURNALD_PRI = /^PRIORITY=([0-7])$/;
/** JSON lines: string levels (slog, winston, zap, OTel SeverityText) and numeric ones (pino/bunyan 10–60, OTel 1–24). */
const JSON_LEVEL_TEXT = new RegExp(`"(?:${alternation(JSON_LEVEL_KEYS.map(escapeRe))})"\\s*:\\s*"(\\w+)"`, 'i');
const JSON_LEVEL_PINO = new RegExp(`"${PINO_LEVEL_KEY}"\\s*:\\s*(\\d{2})\\s*[,}]`);
const JSON_LEVEL_OTEL = /"(?:severity_?number|SeverityNumber)"\s*:\s*(\d{1,2})\s*[,}]/i;
const LOGFMT_LEVEL = new RegExp(`(?:^|\\s)(?:${alternation(LOGFMT_LEVEL_KEYS.map(escapeRe))})="?(\\w+)`, 'i');
/** GitHub Actions annotations and GitLab / generic CI markers. */
export const CI_MARK = /^(?:\S+Z )?##\[(error|warning)\]|^(?:\S+Z )?::(error|warning)\b/;

/** Failures that carry no level: an uncaught Python traceback, a Java thread death, a Go panic, a non-zero exit. */
const UNCAUGHT = /^(?:Traceback \(most recent call last\):|Exception in thread "|panic: |fatal error: |Segmentation fault|Killed$)/;
const EXIT_CODE = /\b(?:exit(?:ed)?(?: with)?(?: status| code)?|exit_code|returned|status code)[ =:]+(?!0\b)(-?\d{1,3})\b|\bProcess completed with exit code [1-9]|\bcommand failed\b/i;
/**
 * Whole words only: `invalidated`, `failover`, `retry_interval` and `errorHandler` say nothing failed (a failure
 * word inside an identifier is CAMEL_ERROR's, which needs the capital that starts it).
 */
const ERROR_WORDS =
  /\b(?:errors?|errored|fail(?:s|ed|ure|ures|ing)?|exceptions?|denied|refused|time[ds]? ?outs?|timeouts?|panic(?:ked|s)?|unreachable|fatal(?:ly)?|abort(?:s|ed|ing)?|crash(?:es|ed|ing)?|segfault(?:s|ed)?|corrupt(?:ed|ion)?|invalid|illegal|unable|cannot|can't|could not|couldn't|not permitted|rejected|unavailable|killed|break-in|broken pipe|reset by peer|no route to host|out of memory|oom|unauthori[sz]ed|forbidden|mismatch(?:es|ed)?|violations?|undeliverable|lost|not found|missing|bad|halt(?:ed)?|(?:link|node|interface|host|is|went) down|deny|user unknown|unknown user|is full|no space|ANR in)(?![A-Za-z_])/i;
/** Failure words inside identifiers: `sendSyncFailedBroadcast`, `onConnectionError`, `SocketTimeoutException`. */
const CAMEL_ERROR = /[a-z](?:Fail(?:ed|ure)?|Error|Exception|Timeout|Refused|Denied)(?=[A-Z_\W]|$)/;
/**
 * `high` and `low` alone are no warning (`Using tsc for high-res timesource`, `HIGHMEM available`, `zapping low
 * mappings` are kernel boot lines): only as `too high`, `high latency`, `load is high`, `threshold exceeded`.
 */
const WARN_WORDS = /\b(?:warn(?:ing)?s?|deprecat(?:ed|ion)|retry(?:ing)?|retries|slow(?:ly)?|degraded|throttl(?:ed|ing)|backoff|dropp(?:ed|ing)|skipp(?:ed|ing)|overload(?:ed)?|exceed(?:ed|s)?|(?:too|very) (?:high|low)|(?:high|low) (?:latency|load|memory|disk|cpu|usage|water ?mark)|(?:latency|load|usage|temperature|pressure) (?:is )?(?:too )?high|threshold (?:exceeded|reached|crossed)|above (?:the )?threshold|unexpected(?:ly)?|not responding|reconnect(?:ing|s|ed)?|did not|didn't|frequent|flapping)(?![A-Za-z_])/i;
/** A line that reports a success is not evidence, whatever else it says (`cupsd shutdown succeeded`, `0 errors`). */
const SUCCESS = /\bsucce(?:ed|eded|ss|ssful|ssfully)\b|\b(?:0|no) (?:errors?|failures?|warnings?)\b/i;
/** npm and pnpm write their own level words. */
export const NPM_LEVEL = /^(?:\S+Z )?(?:npm|pnpm) (ERR!|error|WARN|warn)(?=\s|$)/;

function wordLevel(w: string): Level | undefined {
  return levelOfWord(w);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether CI_MARK or NPM_LEVEL can match: each starts with `##[`, `::`, `npm ` or `pnpm `, at the line's start or
 * after its first run of non-space characters when that run ends in `Z ` (so the first `Z ` of the line).
 */
export function mayMarkCi(line: string, c: number): boolean {
  if (c === 35 /* # */ || c === 58 /* : */ || c === 110 /* n */ || c === 112 /* p */) return true;
  const z = line.indexOf('Z ');
  if (z < 1) return false;
  const after = line.charCodeAt(z + 2);
  return after === 35 || after === 58 || after === 110 || after === 112;
}

/** The level the line states, if it states one. */
export function statedLevel(line: string): Level | undefined {
  const c = line.charCodeAt(0);
  if (c === 123 /* { */) {
    const text = JSON_LEVEL_TEXT.exec(line);
    if (text) return wordLevel(text[1]);
    const pino = JSON_LEVEL_PINO.exec(line);
    if (pino) return pinoLevel(Number(pino[1]));
    const otel = JSON_LEVEL_OTEL.exec(line);
    if (otel) return otelLevel(Number(otel[1]));
    return undefined;
  }
  // Each anchored format is tried only when the line starts as it must (what its expression needs first), the
  // same answers without running seven expressions on every line.
  let m: RegExpExecArray | null;
  if (mayMarkCi(line, c)) {
    m = CI_MARK.exec(line);
    if (m) return (m[1] ?? m[2]) === 'error' ? 'error' : 'warn';
    m = NPM_LEVEL.exec(line);
    if (m) return /^(?:ERR!|error)$/.test(m[1]) ? 'error' : 'warn';
  }
  const digit = c >= 48 && c <= 57; /* 0-9 */
  if (digit) {
    m = CBS_LEVEL.exec(line);
    if (m) return m[1] === 'Error' ? 'error' : m[1] === 'Warning' ? 'warn' : 'info';
  }
  if (digit || line.charCodeAt(1) === 47 /* / */) {
    m = LOGCAT.exec(line);
    if (m) return letterLevel(m[1] ?? m[2]);
  }
  if (c === 73 || c === 87 || c === 69 || c === 70 /* I W E F */) {
    m = KLOG.exec(line);
    if (m) return letterLevel(m[1]);
  }
  if (c === 60 /* < */) {
    m = SYSLOG_PRI.exec(line);
    if (m) return syslogLevel(Number(m[1]));
  }
  if (c === 80 /* P */) {
    m = JOURNALD_PRI.exec(line);
    if (m) return syslogLevel(Number(m[1]));
  }
  // A level column at the start is the line's own: `… INFO … upstream said [error]` is an info line.
  const leading = CODE_LEVEL[leadingLevelOf(line)];
  if (leading) return leading;
  m = LOGFMT_LEVEL.exec(line);
  if (m && wordLevel(m[1])) return wordLevel(m[1]);
  m = BRACKET_LEVEL.exec(line);
  if (m) return wordLevel(m[1]);
  // Only the head holds a level column; a level word deep in a message is vocabulary.
  m = PLAIN_LEVEL.exec(line.length > HEAD_CHARS ? line.slice(0, HEAD_CHARS) : line);
  if (m) return wordLevel(m[1]);
  return undefined;
}

/**
 * Where the level column ends in a plain-text line (after `ERROR`, `[error]`, `, Error`, logcat's ` E `, klog's
 * header), so the message can be read after it; undefined when the line states no level in a column.
 */
export function levelColumnEnd(line: string): number | undefined {
  const leading = leadingLevelEnd(line);
  if (leading !== undefined) return leading;
  const head = line.length > HEAD_CHARS ? line.slice(0, HEAD_CHARS) : line;
  for (const re of [CBS_LEVEL, LOGCAT, KLOG, BRACKET_LEVEL, PLAIN_LEVEL]) {
    const m = re.exec(head);
    if (m) return m.index + m[0].length;
  }
  return undefined;
}

/** Judged by vocabulary: for lines that state no level. */
export function vocabularyLevel(line: string): Level {
  if (UNCAUGHT.test(line) || EXIT_CODE.test(line)) return 'error';
  if (SUCCESS.test(line)) return 'info';
  if (ERROR_WORDS.test(line) || CAMEL_ERROR.test(line)) return 'error';
  if (WARN_WORDS.test(line)) return 'warn';
  return 'info';
}

/** The line's severity: stated level first, vocabulary when it states none. Uncaught failures are errors whatever precedes them. */
export function severityOf(line: string): Severity {
  if (line.length === 0) return 'info';
  if (UNCAUGHT.test(line)) return 'error';
  return statedLevel(line) ?? vocabularyLevel(line);
}

export function isUncaught(line: string): boolean {
  return UNCAUGHT.test(line);
}
