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

/** From the most detailed to the shortest (5, a line per failure with its message, is shorter than 3, longer than 4). */
const LEVELS = [0, 1, 2, 3, 5, 4, 6];

export function renderCases(r: CaseReport, options: TrimOptions): TrimOutput {
  const { counts: c, failures } = r;
  const cap = options.maxStackLines;
  const clip = options.maxLineChars;
  const listed = (n: number) => `${n}${r.uncounted ? ` listed, ${r.uncounted} more not listed` : ''}`;
  const candidate = (level: number) => (): string[] => {
    const out = [`test run (${r.format}): ${describeCounts(c)}; passing tests dropped`];
    if (failures.length === 0) return out;
    if (level === 6) {
      // The last resort: the count, then the names alone, several to a line.
      out.push('', `failures (${listed(failures.length)}), names only:`);
      let line = '';
      for (const f of failures) {
        const name = clipLine(f.name, 80);
        if (line && line.length + name.length + 2 > 160) {
          out.push(line);
          line = '';
        }
        line = line ? `${line}; ${name}` : name;
      }
      if (line) out.push(line);
      return out;
    }
    out.push('', `failures (${listed(failures.length)}):`);
    for (const f of failures) out.push(...renderCase(f, level, cap).map((l) => clipLine(l, level === 5 ? Math.min(clip, 160) : clip)));
    return out;
  };
  let level = LEVELS.find((l) => fitsBudget(candidate(l)().join('\n'), options));
  const chosen = level !== undefined ? candidate(level)() : firstThatFits([candidate(6)], options);
  level ??= 7;
  const retained = chosen.filter((l) => l !== '' && !l.startsWith('… ') && !/^test run \(|^failures \(\d+/.test(l)).length;
  const failed = (c.failed ?? 0) + (c.errors ?? 0);
  return {
    text: chosen.join('\n'),
    originalLines: r.lines,
    retainedLines: retained,
    format: 'test',
    note: `${r.caveat ? `${r.caveat}; ` : ''}${failed} ${KEPT[level]}, summary kept (${describeCounts(c)}); ${c.passed ?? 0} passing tests dropped${c.skipped ? ` (and ${c.skipped} skipped)` : ''}`,
  };
}

/** What the note says of the failures, by the level sent (7: the names cut to fit the budget). */
const KEPT = [
  'failures kept with their messages and locations',
  'failures kept with their messages and locations',
  'failures kept with their messages and locations',
  'failures kept with their messages',
  'failures named (messages left out to fit the budget)',
  'failures kept, each with the first line of its message',
  'failures counted and named (names only, to fit the budget)',
  'failures counted (not all named: over the budget even by name)',
];

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
