/**
 * Reading one log line, whatever its format: plain text (Spring, logback, Python logging, nginx), JSON lines
 * (pino and bunyan numeric levels, slog and winston string levels, OpenTelemetry severity) and logfmt. Regular
 * expressions only: no line is parsed as JSON, so a 50 MB log costs one scan.
 */

const PLAIN_ERROR = /(?:^|[\s[|(])(?:ERROR|FATAL|SEVERE|CRITICAL|PANIC|ERR|CRIT|EMERG|ALERT)(?=[\s\]|:)]|$)|\[(?:error|crit|alert|emerg|fatal)\]/;
const JSON_ERROR_TEXT =
  /"(?:level|lvl|severity|severity_?text|SeverityText|log\.level|loglevel|levelname)"\s*:\s*"(?:error|err|fatal|critical|crit|panic|emergency|emerg|alert|severe)"/i;
/** pino / bunyan: 50 error, 60 fatal. */
const JSON_ERROR_PINO = /"level"\s*:\s*(?:50|60)\s*[,}]/;
/** OpenTelemetry SeverityNumber 17–20 ERROR, 21–24 FATAL. */
const JSON_ERROR_OTEL = /"(?:severity_?number|SeverityNumber)"\s*:\s*(?:1[7-9]|2[0-4])\s*[,}]/i;
const LOGFMT_ERROR = /(?:^|\s)(?:level|lvl|severity)="?(?:error|err|fatal|critical|crit|panic|emerg|alert)\b/i;
/** Failures that carry no level: an uncaught Python traceback, a Java thread death, a Go panic. */
const UNCAUGHT = /^(?:Traceback \(most recent call last\):|Exception in thread "|panic: |fatal error: )/;

const STACK_LINE =
  /^(?:\s+at\s|\s*Caused by:|\s*Suppressed:|\s+\.\.\. \d+ (?:more|common frames omitted|frames excluded)|Traceback \(most recent call last\)|\s+File ".*", line \d+|\s{4,}\S|During handling of the above exception|The above exception was the direct cause|[a-zA-Z_$][\w$]*(?:\.[\w$]+)*(?:Exception|Error|Throwable|Exit|Interrupt)(?::|$)|goroutine \d+ \[|\s+\S+\.go:\d+)/;
/** Lines of a stack trace worth keeping past the cap: the root causes, and Python's closing exception line. */
const CAUSE_LINE = /^(?:\s*Caused by:|[a-zA-Z_$][\w$]*(?:\.[\w$]+)*(?:Exception|Error|Throwable|Exit|Interrupt)(?::|$))/;

const CORRELATION =
  /\b(?:corr(?:elation)?[_-]?id|corr|trace[_-]?id|traceid|request[_-]?id|req[_-]?id|x-request-id)["']?\s*[=:]\s*["']?([A-Za-z0-9._:/-]{6,})/i;
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?|\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?/;
const FIELD_TIME = /(?:"(?:time|timestamp|ts|@timestamp|Timestamp|timeUnixNano|time_unix_nano)"\s*:\s*"?|(?:^|\s)(?:ts|time|timestamp)=)"?([0-9][0-9.:TZ+-]*)/;
const JSON_MESSAGE = /"(?:msg|message|body|Body)"\s*:\s*"((?:[^"\\]|\\.)*)"/;
/** pino `err`, slog `error`, OpenTelemetry `exception.message`: the error's own message, next to the log message. */
const JSON_ERROR_MESSAGE = /"(?:err|error|exception)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|\{[^{}]*?"(?:message|msg)"\s*:\s*"((?:[^"\\]|\\.)*)")|"exception\.message"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const LOGFMT_MESSAGE = /(?:^|\s)msg=(?:"((?:[^"\\]|\\.)*)"|(\S+))/;
const LOGFMT_ERROR_FIELD = /(?:^|\s)(?:err|error)=(?:"((?:[^"\\]|\\.)*)"|(\S+))/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

export function isErrorLine(line: string): boolean {
  if (line.length === 0) return false;
  if (line.charCodeAt(0) === 123 /* { */) return JSON_ERROR_TEXT.test(line) || JSON_ERROR_PINO.test(line) || JSON_ERROR_OTEL.test(line);
  return PLAIN_ERROR.test(line) || LOGFMT_ERROR.test(line) || UNCAUGHT.test(line);
}

/** A failure printed without a level (uncaught traceback, thread death, panic): it starts an error of its own. */
export function isUncaught(line: string): boolean {
  return UNCAUGHT.test(line);
}

export function isStackLine(line: string): boolean {
  return STACK_LINE.test(line);
}

export function isCauseLine(line: string): boolean {
  return CAUSE_LINE.test(line);
}

export function correlationId(line: string): string | undefined {
  return CORRELATION.exec(line)?.[1];
}

/** The line's timestamp as written, or as ISO 8601 when the log writes epoch numbers (pino, OpenTelemetry). */
export function timestampOf(line: string): string | undefined {
  const iso = ISO_TIME.exec(line)?.[0];
  if (iso) return iso;
  const raw = FIELD_TIME.exec(line)?.[1];
  if (!raw) return undefined;
  if (!/^\d+(?:\.\d+)?$/.test(raw)) return raw;
  const digits = raw.split('.')[0].length;
  const ms = digits >= 18 ? Number(raw) / 1e6 : digits >= 15 ? Number(raw) / 1e3 : digits >= 12 ? Number(raw) : Number(raw) * 1000;
  return Number.isFinite(ms) ? new Date(Math.round(ms)).toISOString() : raw;
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
  if (logfmt && LOGFMT_ERROR.test(line)) {
    const err = LOGFMT_ERROR_FIELD.exec(line);
    const detail = err ? (err[1] !== undefined ? unescapeJson(err[1]) : err[2]) : undefined;
    return (logfmt[1] !== undefined ? unescapeJson(logfmt[1]) : logfmt[2]) + (detail !== undefined ? `: ${detail}` : '');
  }
  return line
    .replace(ISO_TIME, '')
    .replace(/\[?\b(?:corr(?:elation)?[_-]?id|corr|trace[_-]?id|traceid|request[_-]?id|req[_-]?id)[=:]\s*[A-Za-z0-9._:/-]{6,}\]?\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
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
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/** Level, process id, `---`, `[thread]` and `logger :` in front of a plain-text message (Spring, logback, log4j). */
const PLAIN_HEADER = /^(?:[A-Z]{3,8}\s+)?(?:\d+\s+)?(?:---\s+)?(?:\[[^\]]*\]\s*)*(?:[\w$.]+\s+[:-]\s+)?/;

/** The message alone, for the collapsed line of a repeated error. */
export function shortMessage(line: string): string {
  const message = messageOf(line);
  if (line.charCodeAt(0) === 123) return message;
  return message.replace(PLAIN_HEADER, '') || message;
}
