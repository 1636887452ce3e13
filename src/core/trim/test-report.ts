import { trimCommand } from './command';
import { jsonReportKind, readJsonReport } from './json-reports';
import { looksLikeJunit, readJunit } from './junit';
import { readNunit } from './nunit';
import { listFailures, renderCases, type CaseReport } from './test-cases';
import { readTrx } from './trx';
import { readXunitXml } from './xunit-xml';
import { xmlRoot } from './xml-walk';
import { clipLine, own } from './lines';
import {
  describeCounts, failureStart, isLocation, isNoise, PASS_LINE, PYTEST_SHORT, readCounts, SECTION_END, summaryDialect,
  type Dialect, type RunCounts,
} from './test-dialects';
import { fitsBudget, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * Test reports: the summary counts and every failure (name, message, location);
 * the passes go. Text reporters (jest, vitest, pytest, mocha, node:test spec/TAP, Maven surefire, cargo test) in one
 * streaming pass; structured reports (JUnit, NUnit 2/3, TRX, xUnit.net XML; mocha, jest and RSpec JSON; go test
 * -json, dart JSON) by their own readers, rendered by test-cases.ts. Only failures and summary lines are held,
 * each with a cap.
 */

/** The structured report the text is, read; undefined for text reports (and JSON too large or broken to read). */
export function readStructuredReport(lines: Lines): CaseReport | undefined {
  const json = jsonReportKind(lines);
  if (json) return readJsonReport(json, lines);
  const root = xmlRoot(lines);
  if (root === 'testsuites' || root === 'testsuite') return readJunit(lines);
  if (root === 'test-run' || root === 'test-results') return readNunit(lines, root);
  if (root === 'TestRun') return readTrx(lines);
  if (root === 'assemblies' || root === 'assembly') return readXunitXml(lines);
  if (looksLikeJunit(lines)) return readJunit(lines);
  return undefined;
}

const MAX_FAILURES = 500;
const MAX_FAILURE_LINES = 80;
const MAX_SUMMARY_LINES = 40;

interface Failure {
  dialect: Dialect;
  title: string;
  /** The enclosing node:test subtest (`# Subtest: Suite`), which names the suite. */
  parent?: string;
  /** The line that started it, then the lines that followed. */
  head: string;
  body: string[];
  /** mocha prints a failure's title over several lines (`1) suite`, then the test's title and a colon): read on. */
  titleOpen?: boolean;
}

export function trimTestReport(lines: Lines, options: TrimOptions): TrimOutput {
  const structured = readStructuredReport(lines);
  if (structured) return renderCases(structured, options);
  const summary: string[] = [];
  const shorts: string[] = [];
  const failures: Failure[] = [];
  const titles = new Set<string>();
  const dialects = new Set<Dialect>();
  const counts: RunCounts = {};
  let current: Failure | undefined;
  let inMochaFailures = false;
  let passes = 0;
  let total = 0;
  let uncounted = 0;
  /** node:test nesting: the `# Subtest:` line open at each indentation. */
  const subtests: string[] = [];
  for (const line of lines()) {
    total++;
    const subtest = /^(\s*)# Subtest: /.exec(line);
    if (subtest) {
      subtests.length = Math.floor(subtest[1].length / 4);
      subtests.push(own(line.trim()));
    }
    if (/^\s*\d+ failing\b/.test(line)) inMochaFailures = true;
    const sd = summaryDialect(line);
    if (sd) {
      dialects.add(sd);
      readCounts(line, sd, counts);
      if (!summary.includes(line) && summary.length < MAX_SUMMARY_LINES) summary.push(own(line.trimEnd()));
      current = undefined;
      continue;
    }
    if (PYTEST_SHORT.test(line)) {
      dialects.add('pytest');
      if (shorts.length < MAX_FAILURES) shorts.push(own(line));
      current = undefined;
      continue;
    }
    const start = failureStart(line, inMochaFailures);
    if (start) {
      dialects.add(start.dialect);
      current = undefined;
      // mocha's numbers tell its failures apart (`1) suite`, `2) suite`: the tests' own titles follow).
      const key = `${start.dialect}:${start.dialect === 'mocha' ? start.title : start.title.replace(/^\d+\) /, '')}`;
      if (titles.has(key)) continue;
      if (failures.length >= MAX_FAILURES) {
        uncounted++;
        continue;
      }
      titles.add(key);
      const depth = Math.floor((/^\s*/.exec(line)?.[0].length ?? 0) / 4);
      const parent = start.dialect === 'tap' && depth > 0 ? subtests[depth - 1] : undefined;
      current = { dialect: start.dialect, title: start.title, parent, head: own(line.trimEnd()), body: [], titleOpen: start.dialect === 'mocha' && !line.trimEnd().endsWith(':') };
      failures.push(current);
      continue;
    }
    if (current?.titleOpen) {
      if (line.trim() !== '' && /^\s{4,}\S/.test(line) && !/^\s+at /.test(line)) {
        current.head = own(`${current.head} ${line.trim()}`);
        current.title = `${current.title} ${line.trim()}`;
        // The title's last line ends with a colon; the message follows (at once, or after a blank line).
        if (line.trimEnd().endsWith(':')) current.titleOpen = false;
        continue;
      }
      current.titleOpen = false;
    }
    if (current && !SECTION_END.test(line)) {
      if (current.body.length < MAX_FAILURE_LINES) current.body.push(own(line.trimEnd()));
      continue;
    }
    current = undefined;
    if (PASS_LINE.test(line)) passes++;
  }
  if (dialects.size === 0) {
    const out = trimCommand(lines, options, 'test');
    return { ...out, note: `no test report found: ${out.note}` };
  }
  // node:test reports a failing suite as a failure of its own; its failing tests are already listed.
  // The spec reporter marks a failing suite `✖ suite` with nothing under it.
  const kept = failures.filter((f) => !f.body.some((l) => /failureType: '?subtestsFailed/.test(l)) && !(f.dialect === 'node-spec' && f.body.every((l) => l.trim() === '')));
  const cap = options.maxStackLines;
  const clip = options.maxLineChars;
  const candidate = (level: number) => (): string[] => {
    const out = [`test run (${[...dialects].join(', ') || 'unknown format'}): ${describeCounts(counts)}; passing tests dropped`];
    out.push(...summary.map((l) => clipLine(l, clip)));
    if (kept.length === 0) out.push(...shorts.map((l) => clipLine(l, clip)));
    if (kept.length > 0) out.push('', `failures (${kept.length}${uncounted ? ` listed, ${uncounted} more not listed` : ''}):`);
    for (const f of kept) out.push(...(f.parent ? [f.parent] : []), clipLine(f.head, clip), ...compress(f, level, cap).map((l) => clipLine(l, clip)));
    return out;
  };
  const level = [0, 1, 2, 3].find((l) => fitsBudget(candidate(l)().join('\n'), options));
  let chosen: string[];
  let keptNote = 'failures kept with their messages and locations';
  if (level !== undefined) chosen = candidate(level)();
  else {
    // More failures than fit with their messages: every one counted, named while names fit (test-cases.ts).
    const head = candidate(4)().slice(0, 1 + Math.min(summary.length, MAX_SUMMARY_LINES));
    const items = kept.length > 0
      ? kept.map((f) => ({ detail: [...(f.parent ? [clipLine(f.parent, clip)] : []), clipLine(f.head, clip), ...firstMessage(f, cap).map((l) => clipLine(l, clip))], name: f.title.replace(/^\d+\) /, '').replace(/:$/, '') }))
      : shorts.map((l) => ({ detail: [clipLine(l, clip)], name: /^\S+ (\S+)/.exec(l)?.[1] ?? l }));
    const listing = listFailures(head, items.map((i) => i.detail), items.map((i) => i.name), items.length + uncounted, options);
    chosen = listing.lines;
    keptNote = listing.note;
  }
  const synthetic = (l: string) => /^test run \(|^failures \(\d+/.test(l);
  const retained = chosen.filter((l) => l !== '' && !l.startsWith('… ') && !synthetic(l)).length;
  return {
    text: chosen.join('\n'),
    originalLines: total,
    retainedLines: retained,
    format: 'test',
    note: `${kept.length || shorts.length} ${keptNote}, summary kept (${describeCounts(counts)}); ${counts.passed ?? passes} passing tests dropped`,
  };
}

/** The first line of a failure's message (not its location), for the one-line-per-failure listing. */
function firstMessage(f: Failure, cap: number): string[] {
  const lines = compress(f, 3, cap);
  const message = lines.find((l) => !isLocation(l)) ?? lines[0];
  return message ? [message] : [];
}

/**
 * A failure's body at a level of detail: 0 whole (blank lines out, capped), 1 without code frames and framework
 * frames, 2 two message lines and the location, 3 the first message line and the location, 4 nothing.
 */
function compress(f: Failure, level: number, cap: number): string[] {
  const body = f.body.filter((l) => l.trim() !== '');
  if (level === 0) return body.slice(0, cap);
  if (level >= 4) return [];
  const useful = body.filter((l) => !isNoise(l, f.dialect));
  const location = body.find(isLocation);
  const messages = useful.filter((l) => l !== location);
  const take = level === 1 ? Math.max(1, Math.min(cap, 6) - 1) : level === 2 ? 2 : 1;
  const picked = new Set(messages.slice(0, take));
  if (location) picked.add(location);
  return body.filter((l) => picked.has(l));
}
