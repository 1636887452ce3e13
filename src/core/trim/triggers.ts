/**
 * What every line that severity.ts calls an error or a warning holds: one of the trigger words (any ASCII case,
 * anywhere in the line), or a start that states a level without a word (TRIGGER_STARTS). A line with neither is an
 * info line whatever else it says, so the log scan (log-bytes.ts, through the line kernel) counts it from its bytes,
 * never decoded. The words are the level words of level-rule.ts (error and warning ones) and the vocabulary of
 * severity.ts, each cut to a part that every match of its regular expression holds (`err` for `errors?|errored`,
 * `fail` for `fail(?:s|ed|ure)?`). They need not be whole words: a trigger only sends the line to the full rule.
 * test/unit/trim/triggers.test.ts checks, on generated lines and the log fixtures, that no line severity.ts calls an
 * error or a warning lacks a trigger, and that the scan is the same with and without this filter.
 *
 * It pays: on the bench's 512 MiB logs without a level column, preview CPU went from 9.0 s to 1.0 s (nginx access
 * log) and from 10.9 s to 2.3 s (syslog), and pino's numeric levels from 3.3 s to 1.95 s (scripts/bench/log-shapes.mjs).
 *
 * Bytes and text agree: a non-ASCII byte never decodes to an ASCII letter, and severity.ts's case-insensitive
 * expressions (without the `u` flag) never fold a non-ASCII character to an ASCII one.
 */

import { LEVEL_WORDS } from './level-rule';

/** severity.ts's vocabulary, cut to what each alternative's every match holds (lower case). */
const VOCABULARY: readonly string[] = [
  // UNCAUGHT
  'traceback', 'exception', 'panic', 'fatal', 'segmentation', 'killed',
  // EXIT_CODE
  'exit', 'returned', 'status code', 'fail',
  // ERROR_WORDS (and CAMEL_ERROR: fail, error, exception, timeout, refused, denied)
  'err', 'denied', 'refused', 'timeout', 'time out', 'timedout', 'timed out', 'timesout', 'times out', 'unreachable', 'abort', 'crash', 'segfault', 'corrupt',
  'invalid', 'illegal', 'unable', 'cannot', "can't", 'could not', "couldn't", 'not permitted', 'rejected', 'unavailable', 'break-in', 'broken pipe',
  'reset by peer', 'no route to host', 'out of memory', 'oom', 'unauthorised', 'unauthorized', 'forbidden', 'mismatch', 'violation', 'undeliverable',
  'lost', 'not found', 'missing', 'bad', 'halt', 'link down', 'node down', 'interface down', 'host down', 'is down', 'went down', 'deny', 'user unknown',
  'unknown user', 'is full', 'no space', 'anr in',
  // WARN_WORDS
  'warn', 'deprecat', 'retry', 'retries', 'slow', 'degraded', 'throttl', 'backoff', 'dropp', 'skipp', 'overload', 'exceed', 'high', 'too low', 'very low',
  ...['latency', 'load', 'memory', 'disk', 'cpu', 'usage', 'watermark', 'water mark'].map((w) => `low ${w}`),
  'threshold', 'unexpected', 'not responding', 'reconnect', 'did not', "didn't", 'frequent', 'flapping',
  // NPM_LEVEL, CI_MARK, CBS_LEVEL: err, warn
];

/** JSON_LEVEL_OTEL's keys: an OpenTelemetry severity number states a level without a word. */
const JSON_NUMBER_KEYS: readonly string[] = ['severity_number', 'severitynumber'];

/**
 * The trigger words, lower case, none holding another (a line holding `error` holds `err`). Level words of any
 * error or warning level (a column, a bracket, a JSON or logfmt value), the vocabulary, and the OpenTelemetry keys.
 */
export const TRIGGER_WORDS: readonly string[] = minimal([...LEVEL_WORDS.error, ...LEVEL_WORDS.warn, ...VOCABULARY, ...JSON_NUMBER_KEYS]);

/**
 * pino's numeric level (JSON_LEVEL_PINO, `"level":50`): a trigger only when the value that follows it (after white
 * space and `:`, or any non-ASCII byte, which `\s` may be) starts with a digit from 4 up: 40 and 50 are a warning and
 * an error, a level from 00 to 39 is info.
 */
export const LEVEL_NUMBER_KEY = '"level"';
export const LEVEL_NUMBER_SKIP = ' \t\n\v\f\r:';
export const LEVEL_NUMBER_FROM = '4';

function minimal(words: readonly string[]): string[] {
  const set = [...new Set(words.map((w) => w.toLowerCase()))];
  return set.filter((w) => !set.some((o) => o !== w && w.includes(o)));
}

/**
 * Line starts that may state an error or a warning without a word: `<` (a syslog priority), logcat (`03-17 …`
 * threadtime, `E/Tag` brief), klog (`E0102 …`) and journald's `PRIORITY=`. Each: the first byte, the second (any
 * when empty), and a third one that must follow (none when empty). (A JSON line's numbers are LEVEL_NUMBER_KEY's
 * and JSON_NUMBER_KEYS'.)
 */
export const TRIGGER_STARTS: readonly { first: string; second: string; third: string }[] = [
  { first: '<', second: '', third: '' },
  { first: '0123456789', second: '0123456789', third: '-' },
  { first: 'EFAW', second: '/', third: '' },
  { first: 'WEF', second: '0123456789', third: '' },
  { first: 'P', second: 'R', third: '' },
];

/** True when the line may be an error or a warning: it starts as TRIGGER_STARTS says, or holds a trigger word. */
export function mayBeEvidence(line: string): boolean {
  for (const s of TRIGGER_STARTS) {
    if (line.length === 0 || !s.first.includes(line[0])) continue;
    if (s.second === '') return true;
    if (line.length > 1 && s.second.includes(line[1]) && (s.third === '' || line[2] === s.third)) return true;
  }
  const lower = line.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  if (TRIGGER_WORDS.some((w) => lower.includes(w))) return true;
  for (let at = lower.indexOf(LEVEL_NUMBER_KEY); at !== -1; at = lower.indexOf(LEVEL_NUMBER_KEY, at + 1)) {
    let k = at + LEVEL_NUMBER_KEY.length;
    while (k < lower.length && (LEVEL_NUMBER_SKIP.includes(lower[k]) || lower.charCodeAt(k) >= 0x80)) k++;
    if (k < lower.length && lower[k] >= LEVEL_NUMBER_FROM && lower[k] <= '9') return true;
  }
  return false;
}
