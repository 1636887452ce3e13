import { plain, splitMessage } from './json-fields';
import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';
import type { Lines } from './types';

/**
 * The dart test runner's JSON protocol (`dart test --reporter json`, `flutter test --machine`): one event a line.
 * A test is named by its `testStart`; its first `error` gives the message (the rest and the stack trace follow);
 * its `testDone` says whether it failed. Hidden tests (the runner's "loading …" steps) count only when they fail: a
 * file that does not load is an error.
 */
interface Event {
  type?: string;
  test?: { id?: number; name?: string; suiteID?: number; line?: number; url?: string; root_url?: string; metadata?: { skip?: boolean } };
  suite?: { id?: number; path?: string };
  testID?: number;
  error?: string;
  stackTrace?: string;
  isFailure?: boolean;
  result?: string;
  hidden?: boolean;
  skipped?: boolean;
}

export function readDartJson(lines: Lines): CaseReport {
  const tests = new Map<number, { name: string; suite?: number; line?: number }>();
  const suites = new Map<number, string>();
  const errors = new Map<number, { error: string; stack?: string; isFailure?: boolean }>();
  const failures: CaseFailure[] = [];
  let passed = 0;
  let failed = 0;
  let erred = 0;
  let skipped = 0;
  let uncounted = 0;
  let total = 0;
  for (const line of lines()) {
    total++;
    if (!line.startsWith('{')) continue;
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      continue;
    }
    if (e.type === 'suite' && e.suite?.id !== undefined) suites.set(e.suite.id, e.suite.path ?? '');
    else if (e.type === 'testStart' && e.test?.id !== undefined) tests.set(e.test.id, { name: e.test.name ?? '(unnamed)', suite: e.test.suiteID, line: e.test.line });
    else if (e.type === 'error' && e.testID !== undefined && !errors.has(e.testID)) errors.set(e.testID, { error: e.error ?? '', stack: e.stackTrace, isFailure: e.isFailure });
    else if (e.type === 'testDone' && e.testID !== undefined) {
      const t = tests.get(e.testID);
      const bad = e.result === 'failure' || e.result === 'error';
      if (e.hidden && !bad) continue;
      if (e.skipped) {
        skipped++;
        continue;
      }
      if (!bad) {
        passed++;
        continue;
      }
      const err = errors.get(e.testID);
      const isError = e.result === 'error' && err?.isFailure !== true;
      if (isError) erred++;
      else failed++;
      if (failures.length >= MAX_CASE_FAILURES) {
        uncounted++;
        continue;
      }
      const { message, rest } = splitMessage(err?.error);
      const suite = t?.suite !== undefined ? suites.get(t.suite) : undefined;
      const f = newFailure(t?.name ?? `test ${e.testID}`, suite ?? '', { kind: isError ? 'error' : 'failure', message: message ?? `test ${e.result}` });
      addBody(f, rest);
      addBody(f, plain(err?.stack ?? ''));
      failures.push(f);
    }
  }
  return { format: 'dart json', counts: { passed, failed, errors: erred, skipped, total: passed + failed + erred + skipped }, failures, uncounted, lines: total };
}
