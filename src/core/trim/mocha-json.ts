import { arr, num, obj, splitMessage, str } from './json-fields';
import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';

/**
 * mocha's json reporter (`mocha --reporter json`): `stats` gives the counts, `failures` the failing tests (hooks
 * included: `"before each" hook for …`), each with its title, its fullTitle (the suites before it) and `err`.
 */
export function readMochaJson(d: Record<string, unknown>, lines: number): CaseReport {
  const stats = obj(d.stats);
  const failing = arr(d.failures);
  const failures: CaseFailure[] = [];
  for (const t of failing.slice(0, MAX_CASE_FAILURES)) {
    const title = str(t.title) ?? '(unnamed)';
    const full = str(t.fullTitle) ?? title;
    const suite = full.endsWith(title) ? full.slice(0, full.length - title.length).trim() : '';
    const err = obj(t.err);
    const { message, rest } = splitMessage(str(err.message));
    const f = newFailure(title, suite, { message, type: str(err.name) ?? str(err.code), file: str(t.file), time: num(t.duration) !== undefined ? String(num(t.duration)! / 1000) : undefined });
    addBody(f, rest);
    addBody(f, (str(err.stack) ?? '').split('\n').filter((l) => /^\s+at /.test(l)).join('\n'));
    failures.push(f);
  }
  const failed = num(stats.failures) ?? failing.length;
  return {
    format: 'mocha json',
    counts: { passed: num(stats.passes) ?? arr(d.passes).length, failed, skipped: num(stats.pending) ?? arr(d.pending).length, total: num(stats.tests) ?? arr(d.tests).length },
    failures,
    uncounted: Math.max(0, failing.length - MAX_CASE_FAILURES),
    lines,
  };
}
