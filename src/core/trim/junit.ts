import { addBody, MAX_CASE_FAILURES, newFailure, renderCases, type CaseFailure, type CaseReport } from './test-cases';
import type { RunCounts } from './test-dialects';
import type { Lines, TrimOptions, TrimOutput } from './types';
import { walkXml } from './xml-walk';

/**
 * JUnit XML (Surefire, Gradle, pytest --junitxml, jest-junit, vitest's junit reporter, node --test's junit
 * reporter, go-junit-report, ctest, PHPUnit, TestNG…): one streaming pass with a real XML parser (xml-walk.ts). The
 * counts come from the test cases themselves, each counted once however deep the suites nest; every <testcase>
 * holding a <failure> or <error> is kept with its message, type, location and the first lines of its text; passing
 * test cases are counted only.
 */

/** A JUnit report announces itself in its first lines. */
export function looksLikeJunit(lines: Lines): boolean {
  let seen = 0;
  for (const line of lines()) {
    if (/<testsuites?\b/.test(line)) return true;
    if (line.trim() !== '' && ++seen >= 20) return false;
  }
  return false;
}

export function readJunit(lines: Lines): CaseReport {
  const top: RunCounts = {};
  let sawTop = false;
  const failures: CaseFailure[] = [];
  let testcase: { name: string; classname: string; time?: string; file?: string; line?: string; skipped?: boolean } | undefined;
  let open: CaseFailure | undefined;
  // Counted from the test cases themselves: nested <testsuite>s repeat their children's figures, and a failure
  // inside an XML comment is no failure (the parser skips comments).
  let cases = 0;
  let failing = 0;
  let erroring = 0;
  let skipped = 0;
  let uncounted = 0;
  const { lines: total, bad } = walkXml(lines, {
    open(name, a) {
      if (name === 'testsuites' && !sawTop) {
        sawTop = true;
        Object.assign(top, counts(a));
      } else if (name === 'testcase') {
        cases++;
        testcase = { name: a.name ?? '(unnamed)', classname: a.classname ?? a.class ?? '', time: a.time, file: a.file, line: a.line };
      } else if (name === 'skipped' && testcase && !testcase.skipped) {
        testcase.skipped = true;
        skipped++;
      } else if ((name === 'failure' || name === 'error') && testcase) {
        if (name === 'failure') failing++;
        else erroring++;
        if (failures.length >= MAX_CASE_FAILURES) {
          uncounted++;
          return;
        }
        const f = newFailure(testcase.name, testcase.classname, { time: testcase.time, file: testcase.file, line: testcase.line, kind: name, type: a.type, message: a.message });
        failures.push(f);
        open = f;
      }
    },
    close(name) {
      if (name === 'testcase') {
        testcase = undefined;
        open = undefined;
      } else if (name === 'failure' || name === 'error') open = undefined;
    },
    text(t) {
      if (open) addBody(open, t);
    },
  });
  const sum: RunCounts = { total: cases, failed: failing, errors: erroring, skipped };
  // The test cases are the truth; the top-level attributes only when the cases could not be read.
  const c: RunCounts = cases > 0 ? sum : sawTop && top.total !== undefined ? top : sum;
  c.passed = (c.total ?? cases) - (c.failed ?? 0) - (c.errors ?? 0) - (c.skipped ?? 0);
  return { format: 'junit xml', counts: c, failures, uncounted, lines: total, caveat: bad ? `XML not well-formed (${bad}): read up to the error` : undefined };
}

export function trimJunit(lines: Lines, options: TrimOptions): TrimOutput {
  return renderCases(readJunit(lines), options);
}

function counts(a: Record<string, string>): RunCounts {
  const n = (k: string) => (a[k] !== undefined && /^\d+$/.test(a[k]) ? Number(a[k]) : undefined);
  return { total: n('tests'), failed: n('failures'), errors: n('errors'), skipped: n('skipped') ?? n('disabled') };
}
