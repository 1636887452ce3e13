import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';
import type { Lines } from './types';
import { walkXml } from './xml-walk';

/**
 * TRX (Visual Studio test results: `dotnet test --logger trx`, MSTest, xUnit and xUnit v3, NUnit's trx adapter).
 * Each `<UnitTestResult>` is counted by its outcome; a failed one is kept with its testName, its
 * `<ErrorInfo><Message>` and the first lines of its `<StackTrace>`. The class comes from the `<TestMethod>` of its
 * test definition (written after the results), when the test's name does not already carry it.
 */
export function readTrx(lines: Lines): CaseReport {
  const failures: { f: CaseFailure; testId?: string }[] = [];
  const classOf = new Map<string, string>();
  let results = 0;
  let failed = 0;
  let skipped = 0;
  let uncounted = 0;
  let open: CaseFailure | undefined;
  let definition: string | undefined;
  let field: 'message' | 'stack' | undefined;
  let message = '';
  const { lines: total, bad } = walkXml(lines, {
    open(name, a) {
      if (name === 'UnitTestResult') {
        // A data-driven test's rows are results of their own, inside their parent's <InnerResults>.
        results++;
        open = undefined;
        const outcome = a.outcome ?? '';
        if (/^(?:NotExecuted|Inconclusive|Pending|Skipped|NotRunnable)$/i.test(outcome)) skipped++;
        if (!/^(?:Failed|Error|Timeout|Aborted)$/i.test(outcome)) return;
        failed++;
        if (failures.length >= MAX_CASE_FAILURES) {
          uncounted++;
          return;
        }
        open = newFailure(a.testName ?? '(unnamed)', '', { time: a.duration, ...(/^(?:Error|Aborted)$/i.test(outcome) ? { kind: 'error' as const } : {}), ...(/^Timeout$/i.test(outcome) ? { message: 'timed out' } : {}) });
        message = '';
        failures.push({ f: open, testId: a.testId });
      } else if (open && name === 'Message') field = 'message';
      else if (open && name === 'StackTrace') field = 'stack';
      else if (name === 'UnitTest') definition = a.id;
      else if (name === 'TestMethod' && definition && a.className) classOf.set(definition, a.className.split(',')[0].trim());
    },
    close(name) {
      if (name === 'UnitTestResult') open = undefined;
      else if (name === 'UnitTest') definition = undefined;
      else if (open && name === 'Message') {
        const [first, ...rest] = message.trim().split('\n');
        if (first.trim() !== '') open.message = first.trim();
        addBody(open, rest.join('\n'));
        field = undefined;
      } else if (name === 'StackTrace') field = undefined;
    },
    text(t) {
      if (!open || !field) return;
      if (field === 'message') message += t;
      else addBody(open, t);
    },
  });
  for (const { f, testId } of failures) {
    const cls = testId ? classOf.get(testId) : undefined;
    if (cls && !f.name.startsWith(`${cls}.`)) f.classname = cls;
  }
  return {
    format: 'trx',
    counts: { passed: results - failed - skipped, failed, skipped, total: results },
    failures: failures.map(({ f }) => f),
    uncounted,
    lines: total,
    caveat: bad ? `XML not well-formed (${bad}): read up to the error` : undefined,
  };
}
