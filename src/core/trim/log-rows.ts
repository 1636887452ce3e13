import { clipLogLine } from './lines';
import type { ErrorGroup } from './log-scan';

/** The rows a log trim writes for its templates, and the line that says how to get what was left out. */

export const TEMPLATES_HEADING = 'Errors (E) and warnings (W) by template, most important first: count, first and last time, first message:';

const ROW = /^ {2}[EW] ×\d+(?: \(|: )/;

export function isTemplateRow(line: string): boolean {
  return ROW.test(line);
}

/**
 * `  E ×8 (first T1, last T2): message` (or `(at T)`, or line numbers when the log has no timestamps). `tight`: the
 * times to the second and a bare `…` where the message is clipped, for rows that must share little room.
 */
export function templateRow(g: ErrorGroup, clip: number, compact = false, tight = false): string {
  const letter = g.severity === 'error' ? 'E' : 'W';
  if (compact) return `  ${letter} ×${g.count}: ${clipHead(g.signature, clip)}`;
  let when: string;
  const first = g.firstTs && tight ? toSecond(g.firstTs) : g.firstTs;
  const last = g.lastTs && tight ? sameDay(first ?? '', toSecond(g.lastTs)) : g.lastTs;
  if (first) when = g.count === 1 || first === last ? `at ${first}` : `first ${first}, last ${last}`;
  else when = g.count === 1 || g.firstIndex === g.lastIndex ? `line ${g.firstIndex + 1}` : `first line ${g.firstIndex + 1}, last line ${g.lastIndex + 1}`;
  return `  ${letter} ×${g.count} (${when}): ${clipLogLine(g.sample, clip, tight)}`;
}

/** A timestamp without its fraction of a second (`2005-06-04-00.24.32.432192` → `2005-06-04-00.24.32`), zone kept. */
export function toSecond(ts: string): string {
  return ts.replace(/(\d\d[:.]\d\d[:.]\d\d)[.,:]\d{3,9}(?=Z|[+-]\d\d:?\d\d|$)/, '$1');
}

/** The last time without the date it shares with the first (`first 2015-07-29 19:03:35, last 19:21:26`). */
function sameDay(first: string, last: string): string {
  const a = TIME_OF_DAY.exec(first);
  const b = TIME_OF_DAY.exec(last);
  return a && b && a.index > 0 && first.slice(0, a.index) === last.slice(0, b.index) ? last.slice(b.index) : last;
}

const TIME_OF_DAY = /\d\d[:.]\d\d[:.]\d\d\S*$/;

/** The start of a message, cut at a token boundary, with `…` when something went. */
export function clipHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  while (end > max / 2 && !/\s/.test(text[end])) end--;
  if (end <= max / 2) end = max;
  return `${text.slice(0, end).trimEnd()} …`;
}

/**
 * How to get the templates left out: `ctxctl inspect REF --grep RE` (also inspect_offloaded with op grep), RE made
 * of a distinctive literal word of each of the first few left-out templates.
 */
export function inspectHint(reference: string | undefined, left: ErrorGroup[]): string {
  const where = reference ?? 'the full output';
  const re = grepFor(left);
  return `inspect with \`ctxctl inspect ${where} --grep '${re}'\` or inspect_offloaded({path: "${where}", op: "grep", pattern: "${re}"})`;
}

/** A grep pattern for templates: a distinctive literal word of each of the first few. */
export function grepFor(left: ErrorGroup[], max = 4): string {
  const words: string[] = [];
  for (const g of left) {
    const word = g.signature
      .split(/\s+/)
      .filter((t) => !t.includes('<*>') && /^[A-Za-z][\w.-]{3,}$/.test(t))
      .sort((a, b) => b.length - a.length)[0];
    const escaped = word?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (escaped && !words.includes(escaped)) words.push(escaped);
    if (words.length >= max) break;
  }
  return words.length > 0 ? words.join('|') : 'error|warn|fail';
}
