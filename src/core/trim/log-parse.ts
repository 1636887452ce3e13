/**
 * Reading one log line, whatever its format: plain text (Spring, logback, Python logging, nginx), JSON lines
 * (pino and bunyan numeric levels, slog and winston string levels, OpenTelemetry severity) and logfmt. Regular
 * expressions only: no line is parsed as JSON, so a 50 MB log costs one scan.
 */

import { levelColumnEnd, severityOf } from './severity';

const STACK_LINE =
  /^(?:\s+at\s|\s*Caused by:|\s*Suppressed:|\s+\.\.\. \d+ (?:more|common frames omitted|frames excluded)|Traceback \(most recent call last\)|\s+File ".*", line \d+|\s{4,}\S|During handling of the above exception|The above exception was the direct cause|[a-zA-Z_$][\w$]*(?:\.[\w$]+)*(?:Exception|Error|Throwable|Exit|Interrupt)(?::|$)|goroutine \d+ \[|\s+\S+\.go:\d+)/;
/** Lines of a stack trace worth keeping past the cap: the root causes, and Python's closing exception line. */
const CAUSE_LINE = /^(?:\s*Caused by:|[a-zA-Z_$][\w$]*(?:\.[\w$]+)*(?:Exception|Error|Throwable|Exit|Interrupt)(?::|$))/;

const CORRELATION =
  /\b(?:corr(?:elation)?[_-]?id|corr|trace[_-]?id|traceid|request[_-]?id|req[_-]?id|x-request-id)["']?\s*[=:]\s*["']?([A-Za-z0-9._:/-]{6,})/i;
export const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?|\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?/;
/** Other common timestamps: syslog `Jun 14 15:16:01`, Apache `[Sun Dec 04 04:47:44 2005]`, access `10/Oct/2000:13:55:36 -0700`, HDFS `081109 203615`, Spark `17/06/09 20:10:40`, logcat `03-17 16:13:38.811`, klog `0102 15:04:05.999999`, HealthApp `20171223-22:15:29:606`, Proxifier `[10.30 16:49:06]`. */
export const OTHER_TIME =
  /(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?(?: \d{4})?|\d\d\/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\/\d{4}:\d\d:\d\d:\d\d(?: [+-]\d{4})?|^\d{6} \d{6}\b|^\d\d\/\d\d\/\d\d \d\d:\d\d:\d\d|^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}|^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}|^\d{8}-\d\d:\d\d:\d\d:\d{3}|^\[\d\d\.\d\d \d\d:\d\d:\d\d\]|\b\d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d{6}\b/;
const FIELD_TIME = /(?:"(?:time|timestamp|ts|@timestamp|Timestamp|timeUnixNano|time_unix_nano)"\s*:\s*"?|(?:^|\s)(?:ts|time|timestamp)=)"?([0-9][0-9.:TZ+-]*)/;
const JSON_MESSAGE = /"(?:msg|message|body|Body)"\s*:\s*"((?:[^"\\]|\\.)*)"/;
/** pino `err`, slog `error`, OpenTelemetry `exception.message`: the error's own message, next to the log message. */
const JSON_ERROR_MESSAGE = /"(?:err|error|exception)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|\{[^{}]*?"(?:message|msg)"\s*:\s*"((?:[^"\\]|\\.)*)")|"exception\.message"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const LOGFMT_LEVEL = /(?:^|\s)(?:level|lvl|severity)=/i;
const LOGFMT_MESSAGE = /(?:^|\s)msg=(?:"((?:[^"\\]|\\.)*)"|(\S+))/;
const LOGFMT_ERROR_FIELD = /(?:^|\s)(?:err|error)=(?:"((?:[^"\\]|\\.)*)"|(\S+))/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

export function isErrorLine(line: string): boolean {
  return severityOf(line) === 'error';
}

export { isUncaught } from './severity';

export function isStackLine(line: string): boolean {
  return STACK_LINE.test(line);
}

export function isCauseLine(line: string): boolean {
  return CAUSE_LINE.test(line);
}

export function correlationId(line: string): string | undefined {
  return CORRELATION.exec(line)?.[1];
}

/** The largest time a Date holds, in ms either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/** The line's timestamp as written, or as ISO 8601 when the log writes epoch numbers (pino, OpenTelemetry). */
export function timestampOf(line: string): string | undefined {
  const isoMay = mayHoldIsoTime(line);
  const iso = isoMay ? ISO_TIME.exec(line)?.[0] : undefined;
  if (iso) return iso;
  const other = mayHoldOtherTime(line, isoMay) ? OTHER_TIME.exec(line)?.[0] : undefined;
  if (other) return other.replace(/^[IWEF](?=\d{4} )|^\[(?=\d\d\.)|\]$/g, '');
  const raw = FIELD_TIME.exec(line)?.[1];
  if (!raw) return undefined;
  if (!/^\d+(?:\.\d+)?$/.test(raw)) return raw;
  const digits = raw.split('.')[0].length;
  const ms = digits >= 18 ? Number(raw) / 1e6 : digits >= 15 ? Number(raw) / 1e3 : digits >= 12 ? Number(raw) : Number(raw) * 1000;
  // A Date holds ±8.64e15 ms (ECMAScript): a number beyond is kept as written, not a RangeError that ends the scan.
  return Math.abs(ms) <= MAX_DATE_MS ? new Date(Math.round(ms)).toISOString() : raw;
}

/** Abbreviated month names, as OTHER_TIME's unanchored forms hold them. */
const MONTH = /Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/;

/**
 * False when OTHER_TIME cannot match: its anchored forms start with a digit, `[` or klog's I, W, E, F; its others hold
 * a month's name or four digits and a `-` (`isoMay` is false when the line holds no four digits before a `-` or `/`).
 */
export function mayHoldOtherTime(line: string, isoMay: boolean): boolean {
  const c = line.charCodeAt(0);
  if (isDigit(c) || c === 91 /* [ */ || c === 73 /* I */ || c === 87 /* W */ || c === 69 /* E */ || c === 70 /* F */) return true;
  return MONTH.test(line) || (isoMay && fourDigitsBefore(line, 45 /* - */));
}

/** The message: the JSON or logfmt `msg` field when there is one, else the line without its timestamp and ids. */
export function messageOf(line: string): string {
  const json = line.charCodeAt(0) === 123 ? JSON_MESSAGE.exec(line) : null;
  if (json) {
    const err = JSON_ERROR_MESSAGE.exec(line);
    const detail = err ? (err[1] ?? err[2] ?? err[3]) : undefined;
    return unescapeJson(json[1]) + (detail !== undefined ? `: ${unescapeJson(detail)}` : '');
  }
  const logfmt = LOGFMT_MESSAGE.exec(line);
  if (logfmt && LOGFMT_LEVEL.test(line)) {
    const err = LOGFMT_ERROR_FIELD.exec(line);
    const detail = err ? (err[1] !== undefined ? unescapeJson(err[1]) : err[2]) : undefined;
    return (logfmt[1] !== undefined ? unescapeJson(logfmt[1]) : logfmt[2]) + (detail !== undefined ? `: ${detail}` : '');
  }
  const isoMay = mayHoldIsoTime(line);
  const noIso = isoMay ? line.replace(ISO_TIME, '') : line;
  const otherMay = mayHoldOtherTime(noIso, noIso === line ? isoMay : mayHoldIsoTime(noIso));
  return collapseSpaces((otherMay ? noIso.replace(OTHER_TIME, '') : noIso).replace(CORRELATION_FIELD, ''));
}

const CORRELATION_FIELD = /\[?\b(?:corr(?:elation)?[_-]?id|corr|trace[_-]?id|traceid|request[_-]?id|req[_-]?id)[=:]\s*[A-Za-z0-9._:/-]{6,}\]?\s*/i;

/** White space other than a lone space: where `/\s+/g` → `' '` changes a text. */
const ODD_SPACE = /[^\S ]| {2}/;

/** `s.replace(/\s+/g, ' ').trim()`, without the replace when every white-space run is one space already. */
export function collapseSpaces(s: string): string {
  return (ODD_SPACE.test(s) ? s.replace(/\s+/g, ' ') : s).trim();
}

/**
 * False when ISO_TIME cannot match: each of its forms starts with four digits and a `-` or `/`. Most evidence lines
 * of logs without an ISO time (syslog, pino's epoch numbers) are told so by two `indexOf` loops instead of the regex
 * failing at every position.
 */
export function mayHoldIsoTime(line: string): boolean {
  return fourDigitsBefore(line, 45 /* - */) || fourDigitsBefore(line, 47 /* / */);
}

function fourDigitsBefore(line: string, sep: number): boolean {
  const ch = String.fromCharCode(sep);
  for (let i = line.indexOf(ch, 4); i !== -1; i = line.indexOf(ch, i + 1)) {
    if (isDigit(line.charCodeAt(i - 1)) && isDigit(line.charCodeAt(i - 2)) && isDigit(line.charCodeAt(i - 3)) && isDigit(line.charCodeAt(i - 4))) return true;
  }
  return false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The error's message with its ids, numbers and thread stripped: equal signatures are "the same error". */
export function errorSignature(line: string): string {
  return messageOf(line)
    .replace(UUID, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:0x)?[0-9a-f]{12,}\b/gi, '')
    .replace(/\b\d+(?:\.\d+)?(?:ms|s)?\b/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

function unescapeJson(s: string): string {
  // Without a backslash the string is its own value (or JSON.parse throws on a control character: the same answer).
  if (s.indexOf('\\') === -1) return s;
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/**
 * Level, process id, `---`, `[thread]` and `logger :` in front of a plain-text message (Spring, logback, log4j). A
 * bracket glued to the word after it (`[BluetoothHIDDeviceController]ERROR: …`) names the component: it stays.
 */
const PLAIN_HEADER = /^(?:[A-Z]{3,8}\s+)?(?:\d+\s+)?(?:---\s+)?(?:\[[^\]]*\](?=[\s[]|$)\s*)*(?:[\w$.]+\s+[:-]\s+)?/;

/** After the level column: the bracket that closes it, a separator, a logger followed by one bracketed context, a thread, a `logger:` prefix. */
const AFTER_LEVEL = /^\]?\s*(?:[-:|]\s+)?(?:\d+\s+---\s+)?(?:[\w$.]+\s+(?=\[))?(?:\[(?:[^[\]]|\[[^\]]*\])*\]\s*)?(?:-\s+)?(?:[\w$]+[.$][\w$.]*\s*:\s+)?/;

/** The message alone, for a template's row: the line after its timestamp, level, thread and logger. */
export function shortMessage(line: string): string {
  if (line.charCodeAt(0) === 123) return messageOf(line);
  const end = levelColumnEnd(line);
  if (end !== undefined) {
    // A level glued to what precedes it (Chromium's `[24019:0701/114930.458:WARNING:dns_config_service_posix.cc(306)]`,
    // `[BluetoothHIDDeviceController]ERROR:`) is part of that token: the message keeps the whole of it, which names
    // the component, the file and the line.
    let start = end;
    while (start > 0 && !/\s/.test(line[start - 1])) start--;
    const glued = /^(.*?)[A-Za-z]+\W*$/.exec(line.slice(start, end))?.[1] ?? '';
    if ((glued.match(/[A-Za-z0-9]/g) ?? []).length >= 3) {
      const whole = messageOf(line.slice(start));
      if (whole) return whole;
    }
    const rest = messageOf(line.slice(end)).replace(AFTER_LEVEL, '');
    if (rest) return rest;
  }
  const message = messageOf(line);
  return message.replace(EPOCH_HEADER, '').replace(SYSLOG_HEADER, '').replace(PLAIN_HEADER, '') || message;
}

/** Columns up to an epoch-seconds time and a flag (HPC, RAS exports): `134681 node-246 unix.hw state_change.unavailable 1077804742 1 `. */
const EPOCH_HEADER = /^.{0,100}?\b1\d{9}\b(?: \d{1,3})? /;

/** Syslog's `host process[pid]:` after the timestamp (RFC 3164, macOS, sshd). */
const SYSLOG_HEADER = /^[\w.-]+ [^\s:[]+(?:\[\d+\])?(?: \([^)]*\))?:\s+/;
