import { clipLine, own } from './lines';
import { describeCounts, isLocation, isNoise, type RunCounts } from './test-dialects';
import { firstThatFits, fitsBudget, type TrimOptions, type TrimOutput } from './types';

/**
 * Structured test reports (JUnit, NUnit, TRX, xUnit.net XML; mocha, jest and RSpec JSON; `go test -json` and the dart
 * event stream): each reader turns its report into failing test cases, and this renders them the same way. Every
 * failure is named whatever the budget: when the messages do not all fit, the listing falls back to one short
 * line per failure, then to a count and the names alone.
 */

export const MAX_CASE_FAILURES = 500;
export const MAX_CASE_BODY_LINES = 60;

export interface CaseFailure {
  name: string;
  /** The class, suite or package the test belongs to (`''` when the name says it all). */
  classname: string;
  time?: string;
  kind: 'failure' | 'error';
  type?: string;
  message?: string;
  file?: string;
  line?: string;
  /** The failure's text (stack trace, output), line by line, capped. */
  body: string[];
}

export interface CaseReport {
  /** The format named in the header: `junit xml`, `nunit 3 xml`, `trx`, `mocha json` … */
  format: string;
  counts: RunCounts;
  failures: CaseFailure[];
  /** Failures past MAX_CASE_FAILURES: counted, not listed. */
  uncounted: number;
  /** Lines of the input. */
  lines: number;
  /** Said first in the note (a report read up to an XML error, …). */
  caveat?: string;
}

export function newFailure(name: string, classname: string, extra: Partial<CaseFailure> = {}): CaseFailure {
  return { name, classname, kind: 'failure', body: [], ...extra };
}

/** Add a failure's text, line by line (blank lines out), up to the cap. */
export function addBody(f: CaseFailure, text: string): void {
  for (const piece of text.split('\n')) {
    const line = piece.trimEnd();
    if (line.trim() !== '' && f.body.length < MAX_CASE_BODY_LINES) f.body.push(own(line));
  }
}

/** The first non-blank line of a text. */
export function firstLineOf(text: string | undefined): string | undefined {
  return text?.split('\n').map((l) => l.trim()).find((l) => l !== '');
}

/** From the most detailed to one line per failure with its message; then the mixed listing (listFailures). */
const LEVELS = [0, 1, 2, 3, 5];

export function renderCases(r: CaseReport, options: TrimOptions): TrimOutput {
  const { counts: c, failures } = r;
  const cap = options.maxStackLines;
  const clip = options.maxLineChars;
  const head = [`test run (${r.format}): ${describeCounts(c)}; passing tests dropped`];
  const total = failures.length + r.uncounted;
  const candidate = (level: number) => (): string[] => {
    const out = [...head];
    if (failures.length === 0) return out;
    out.push('', `failures (${failures.length}${r.uncounted ? ` listed, ${r.uncounted} more not listed` : ''}):`);
    for (const f of failures) out.push(...renderCase(f, level, cap).map((l) => clipLine(l, level === 5 ? Math.min(clip, 160) : clip)));
    return out;
  };
  const level = LEVELS.find((l) => fitsBudget(candidate(l)().join('\n'), options));
  let chosen: string[];
  let kept: string;
  if (level !== undefined) {
    chosen = candidate(level)();
    kept = level <= 2 ? 'failures kept with their messages and locations' : level === 3 ? 'failures kept with their messages' : 'failures kept, each with the first line of its message';
  } else {
    const listing = listFailures(head, failures.map((f) => renderCase(f, 5, cap).map((l) => clipLine(l, Math.min(clip, 160)))), failures.map((f) => f.name), total, options);
    chosen = listing.lines;
    kept = listing.note;
  }
  const retained = chosen.filter((l) => l !== '' && !l.startsWith('… ') && !/^test run \(|^failures \(\d+/.test(l)).length;
  const failed = (c.failed ?? 0) + (c.errors ?? 0);
  return {
    text: chosen.join('\n'),
    originalLines: r.lines,
    retainedLines: retained,
    format: 'test',
    note: `${r.caveat ? `${r.caveat}; ` : ''}${failed} ${kept}, summary kept (${describeCounts(c)}); ${c.passed ?? 0} passing tests dropped${c.skipped ? ` (and ${c.skipped} skipped)` : ''}`,
  };
}

/**
 * More failures than the budget holds with their messages: every failure is still counted, and named while names
 * fit. The first failures keep their detail (`detailed[i]`, a line or two each), as many as leave room for the
 * others' names, packed several to a line; when not even the names all fit, as many as fit are named and the
 * rest counted. `total` counts failures past the readers' cap too. Binary searches: each candidate is counted
 * only up to the budget.
 */
export function listFailures(head: string[], detailed: string[][], names: string[], total: number, options: TrimOptions): { lines: string[]; note: string } {
  const n = names.length;
  const withDetail = (k: number): string[] => {
    const out = [...head, '', `failures (${total}): ${k === n ? 'all' : `the first ${k}`} with their messages${k < n ? `, the other ${total - k} by name only (to fit the budget)` : ''}:`];
    for (const d of detailed.slice(0, k)) out.push(...d);
    if (k < n) out.push(...pack(names.slice(k), 'named only: '));
    if (total > n) out.push(`… and ${total - n} more failures, not listed`);
    return out;
  };
  const fits = (lines: string[]) => fitsBudget(lines.join('\n'), options);
  if (fits(withDetail(0))) {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(withDetail(mid))) lo = mid;
      else hi = mid - 1;
    }
    return { lines: withDetail(lo), note: lo === 0 ? 'failures counted and named (messages left out to fit the budget)' : `failures counted and named, the first ${lo} with their messages (the others by name only, to fit the budget)` };
  }
  // Not even the names all fit: the first failure keeps its message (something to act on), then names while they fit.
  const first = n > 0 && fits([...head, '', 'failures (0):', ...detailed[0]]) ? detailed[0] : [];
  const named = (j: number): string[] => [
    ...head,
    '',
    `failures (${total}): ${j} named${first.length ? ' (the first with its message)' : ''}, the other ${total - j} counted only (over the budget even by name; inspect the full report):`,
    ...first,
    ...pack(names.slice(first.length ? 1 : 0, j), first.length ? 'named only: ' : ''),
  ];
  let lo = first.length ? 1 : 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(named(mid))) lo = mid;
    else hi = mid - 1;
  }
  const lines = named(lo);
  return { lines: fits(lines) ? lines : firstThatFits([() => lines], options), note: `failures counted, ${lo} of them named${first.length ? ', the first with its message' : ''} (over the budget even by name)` };
}

/** Names several to a line (`a; b; c`), each clipped, lines up to 160 characters. */
function pack(names: string[], prefix: string): string[] {
  const out: string[] = [];
  let line = prefix;
  for (const raw of names) {
    const name = clipLine(raw, 100);
    if (line !== prefix && line.length + name.length + 2 > 160) {
      out.push(line);
      line = '';
    }
    line = line === prefix || line === '' ? `${line}${name}` : `${line}; ${name}`;
  }
  if (line !== '' && line !== prefix) out.push(line);
  return out;
}

/**
 * Levels: 0 message and text (capped), 1 without framework frames, 2 message and location, 3 message, 4 name,
 * 5 the name and the message on one line, both short.
 */
export function renderCase(f: CaseFailure, level: number, cap: number): string[] {
  const name = `${f.kind === 'error' ? 'ERROR' : 'FAILED'} ${f.classname ? `${f.classname} > ` : ''}${f.name}${f.time ? ` (${f.time} s)` : ''}`;
  const message = f.message ?? f.body[0];
  if (level === 5) return [`${f.kind === 'error' ? 'ERROR' : 'FAILED'} ${f.name}${message ? ` — ${message.split('\n')[0]}` : ''}`];
  if (level >= 4) return [name];
  const out = [name];
  out.push(`  ${f.kind}${f.type ? ` (${f.type})` : ''}: ${message ?? '(no message)'}`);
  if (level === 3) return out;
  const body = f.body.filter((l) => l !== message && !(f.message && l.includes(f.message) && l.startsWith(f.type ?? '\0')));
  const location = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : body.find((l) => isLocation(l) && (!f.classname || l.includes(f.classname.split('.').pop() ?? '')));
  if (level <= 1) {
    const lines = level === 0 ? body : body.filter((l) => !isNoise(l, 'maven'));
    const kept = lines.slice(0, level === 0 ? cap : Math.min(cap, 5));
    if (location && !kept.includes(location) && !f.file) kept.push(location);
    out.push(...kept.map((l) => `  ${l.trim()}`));
    if (f.file) out.push(`  at ${location}`);
    return out;
  }
  if (location) out.push(`  at ${location.trim().replace(/^at /, '')}`);
  return out;
}
