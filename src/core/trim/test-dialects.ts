/**
 * What the text test reporters print, dialect by dialect: the lines that summarise a run, the lines that start one
 * failure, and how to tell a failure's message and location from its noise (code frames, framework frames).
 */

export type Dialect = 'jest' | 'vitest' | 'pytest' | 'mocha' | 'tap' | 'node-spec' | 'maven' | 'cargo';

/** Summary lines: kept whole, whatever else goes. */
const SUMMARY: [Dialect, RegExp][] = [
  ['jest', /^(?:Tests|Test Suites|Snapshots):\s+.*\d+ total/],
  ['vitest', /^\s*(?:Test Files|Tests)\s+(?:\d+ (?:failed|passed|skipped|todo)\s*\|?\s*)+\(\d+\)/],
  ['pytest', /^=+ .*\b\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed)\b.* in [\d.]+s.* =+$/],
  ['mocha', /^\s*\d+ (?:passing|failing|pending)\b/],
  ['tap', /^# (?:tests|suites|pass|fail|cancelled|skipped|todo) \d+$|^1\.\.\d+$/],
  ['node-spec', /^ℹ (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/],
  ['cargo', /^test result: (?:ok|FAILED)\. \d+ passed; \d+ failed;/],
  ['maven', /^(?:\[\w+\]\s+)?Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$|^\[(?:ERROR|INFO)\] BUILD (?:FAILURE|SUCCESS)$/],
];

/** A line that starts one failure; group 1 is its title. */
const FAILURE_START: [Dialect, RegExp][] = [
  ['jest', /^\s*● (?!Console\b)(.+)$/],
  ['vitest', /^\s*FAIL\s+(\S.*? > .+?)\s*$/],
  ['pytest', /^_{3,} (.+?) _{3,}$/],
  ['mocha', /^ {2}(\d+\) .+)$/],
  ['tap', /^\s*not ok \d+ - (.+)$/],
  ['node-spec', /^\s*✖ (?!failing tests:$)(.+?)(?: \([\d.]+m?s\))?$/],
  ['cargo', /^---- (\S+) stdout ----$/],
  ['maven', /^\[ERROR\] ((?!Tests run:)\S+).*<<< (?:FAILURE|ERROR)!$/],
];

/** pytest's one-line verdicts (`FAILED path::test - message`): summary when there is no FAILURES section. */
export const PYTEST_SHORT = /^(?:FAILED|ERROR) \S+::\S+/;

/** Lines that end the failure being read. */
export const SECTION_END =
  /^(?:PASS|FAIL) \S|^Summary of all failing tests|^={3,}|^⎯{3,}|^\s*Test Files\s|^\s*\d+ (?:passing|failing|pending)\b|^\s*ok \d+|^\s*1\.\.\d+$|^\s*# (?:Subtest|tests)\b|^\[INFO\] Running |^\[INFO\] Results:|^\[ERROR\] Failures:|^\[INFO\] -{10,}|^\s*[✔▶﹣] |^✖ failing tests:$|^test at \S+:\d+:\d+$|^failures:$|^test result: /;

/** The pass lines that get dropped, for the figures. */
export const PASS_LINE = /^\s*(?:✓|√|✔|ok \d+|PASS\s)|\bPASSED\b|Failures: 0, Errors: 0/;

/** A source location (file:line[:col]) outside installed dependencies. */
const LOCATION = /(?:^|[\s(])((?:[\w.@-]+[/\\])*[\w.-]+\.(?:[cm]?[jt]sx?|py|java|kt|go|rb|cs|rs|php|scala|swift)):(\d+)(?::\d+)?/;
const VENDOR = /node_modules|\(node:|\(internal\/|^\s+at (?:node:|internal\/|process\.|new Promise|Promise\.)|^\s+at (?:java\.|javax\.|jdk\.|sun\.|org\.junit\.|org\.apache\.maven\.|org\.springframework\.test\.)|site-packages|\/_pytest\//;
/** Jest and vitest code frames (`  56 |   expect(...)`), pytest's echo of the test's source, and decoration. */
const NOISE = /^\s*>?\s*\d*\s*\|/;
const PYTEST_NOISE = /^(?!E\s|>\s|\S+\.py:\d+)/;

export function summaryDialect(line: string): Dialect | undefined {
  for (const [dialect, re] of SUMMARY) if (re.test(line)) return dialect;
  return undefined;
}

export function failureStart(line: string, inMochaFailures: boolean): { dialect: Dialect; title: string } | undefined {
  for (const [dialect, re] of FAILURE_START) {
    if (dialect === 'mocha' && !inMochaFailures) continue;
    const m = re.exec(line);
    if (m) return { dialect, title: m[1] };
  }
  return undefined;
}

export function isLocation(line: string): boolean {
  return LOCATION.test(line) && !VENDOR.test(line);
}

/** Lines of a failure that carry no evidence once its message and location are kept. */
export function isNoise(line: string, dialect: Dialect): boolean {
  if (line.trim() === '' || NOISE.test(line) || VENDOR.test(line)) return true;
  if (dialect === 'pytest') return PYTEST_NOISE.test(line) || /^-{3,} Captured/.test(line);
  // node:test's YAML diagnostics: the keys that carry no message (the message is `error:`, or the block under it).
  if (dialect === 'tap') return /^\s*(?:duration_ms|type|\.\.\.|---)\b|^\s*(?:location|failureType|code|name|operator|generatedMessage|stack):|^\s*(?:---|\.\.\.)\s*$|^\s*error: \|-?\s*$/.test(line);
  return false;
}

export interface RunCounts {
  passed?: number;
  failed?: number;
  skipped?: number;
  errors?: number;
  total?: number;
}

const WORD: Record<string, keyof RunCounts> = {
  passed: 'passed', passing: 'passed', pass: 'passed',
  failed: 'failed', failing: 'failed', fail: 'failed', failures: 'failed',
  skipped: 'skipped', pending: 'skipped', todo: 'skipped',
  error: 'errors', errors: 'errors',
  total: 'total', tests: 'total',
};

/** Read the counts a summary line states, into `into` (later lines win: reporters print the totals last). */
export function readCounts(line: string, dialect: Dialect, into: RunCounts): void {
  if (dialect === 'maven') {
    const m = /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)/.exec(line);
    if (m) Object.assign(into, { total: +m[1], failed: +m[2], errors: +m[3], skipped: +m[4], passed: +m[1] - +m[2] - +m[3] - +m[4] });
    return;
  }
  if (dialect === 'jest' && !/^Tests:/.test(line)) return;
  if (dialect === 'vitest' && !/^\s*Tests\s/.test(line)) return;
  if (dialect === 'cargo') {
    // One summary per test binary (unit, integration, doc tests): they add up.
    const m = /(\d+) passed; (\d+) failed; (\d+) ignored/.exec(line);
    if (m) {
      into.passed = (into.passed ?? 0) + Number(m[1]);
      into.failed = (into.failed ?? 0) + Number(m[2]);
      into.skipped = (into.skipped ?? 0) + Number(m[3]);
    }
    return;
  }
  if (dialect === 'tap' || dialect === 'node-spec') {
    const m = /^(?:#|ℹ) (tests|pass|fail|skipped|todo) (\d+)$/.exec(line);
    if (m) into[WORD[m[1]]] = (m[1] === 'todo' ? (into.skipped ?? 0) : 0) + Number(m[2]);
    return;
  }
  for (const m of line.matchAll(/(\d+) (passed|passing|failed|failing|skipped|pending|errors?|total)\b/g)) into[WORD[m[2]]] = Number(m[1]);
  const total = /\((\d+)\)\s*$/.exec(line);
  if (dialect === 'vitest' && total) into.total = Number(total[1]);
}

export function describeCounts(c: RunCounts): string {
  const parts = (['passed', 'failed', 'errors', 'skipped', 'total'] as const).filter((k) => c[k] !== undefined).map((k) => `${c[k]} ${k}`);
  return parts.length ? parts.join(', ') : 'no summary found';
}
