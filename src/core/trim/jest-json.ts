import { arr, num, obj, plain, splitMessage, str } from './json-fields';
import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';

/**
 * `jest --json` (and vitest's json reporter, which writes the same shape): the run's counts, then per test file
 * its assertion results; a failing one is kept with its title, its ancestors and its first failure message. A test
 * file that failed to run (a syntax error, a missing module) has no results: it is an error of its own.
 */
export function readJestJson(d: Record<string, unknown>, lines: number): CaseReport {
  const failures: CaseFailure[] = [];
  let uncounted = 0;
  let suiteErrors = 0;
  const push = (f: CaseFailure) => {
    if (failures.length >= MAX_CASE_FAILURES) uncounted++;
    else failures.push(f);
  };
  for (const file of arr(d.testResults)) {
    const path = str(file.name) ?? str(file.testFilePath) ?? '';
    const results = arr(file.assertionResults ?? file.testResults);
    for (const a of results) {
      if (str(a.status) !== 'failed') continue;
      const messages = (Array.isArray(a.failureMessages) ? a.failureMessages : []).filter((m): m is string => typeof m === 'string');
      const { message, rest } = splitMessage(messages[0]);
      const ancestors = (Array.isArray(a.ancestorTitles) ? a.ancestorTitles : []).filter((t): t is string => typeof t === 'string');
      const loc = obj(a.location);
      const f = newFailure(str(a.title) ?? str(a.fullName) ?? '(unnamed)', ancestors.join(' › '), { message, file: path || undefined, line: num(loc.line) !== undefined ? String(num(loc.line)) : undefined });
      addBody(f, rest);
      push(f);
    }
    const failedToRun = results.length === 0 && (str(file.status) === 'failed' || (str(file.message) ?? '').trim() !== '');
    if (failedToRun) {
      suiteErrors++;
      const { message, rest } = splitMessage(plain(str(file.message) ?? str(obj(file.testExecError).message) ?? ''));
      const f = newFailure(path || '(test file)', '', { kind: 'error', message: message ?? 'test file failed to run' });
      addBody(f, rest);
      push(f);
    }
  }
  const total = num(d.numTotalTests);
  return {
    format: 'jest json',
    counts: { passed: num(d.numPassedTests), failed: num(d.numFailedTests), ...(suiteErrors ? { errors: suiteErrors } : {}), skipped: (num(d.numPendingTests) ?? 0) + (num(d.numTodoTests) ?? 0), total },
    failures,
    uncounted,
    lines,
  };
}
