import { arr, num, obj, splitMessage, str } from './json-fields';
import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';

/**
 * RSpec's json formatter (`rspec --format json`): each example with its status; a failed one is kept with its full
 * description, the exception's class and message, its file and line and the first lines of its backtrace.
 */
export function readRspecJson(d: Record<string, unknown>, lines: number): CaseReport {
  const failures: CaseFailure[] = [];
  let uncounted = 0;
  const examples = arr(d.examples);
  for (const e of examples) {
    if (str(e.status) !== 'failed') continue;
    if (failures.length >= MAX_CASE_FAILURES) {
      uncounted++;
      continue;
    }
    const ex = obj(e.exception);
    const { message, rest } = splitMessage(str(ex.message));
    const line = num(e.line_number);
    const f = newFailure(str(e.full_description) ?? str(e.description) ?? '(unnamed)', '', { type: str(ex.class), message, file: str(e.file_path), line: line !== undefined ? String(line) : undefined });
    addBody(f, rest);
    addBody(f, (Array.isArray(ex.backtrace) ? ex.backtrace : []).filter((l): l is string => typeof l === 'string').join('\n'));
    failures.push(f);
  }
  const summary = obj(d.summary);
  const outside = num(summary.errors_outside_of_examples_count) ?? 0;
  return {
    format: 'rspec json',
    counts: {
      passed: examples.filter((e) => str(e.status) === 'passed').length,
      failed: num(summary.failure_count) ?? failures.length + uncounted,
      ...(outside ? { errors: outside } : {}),
      skipped: num(summary.pending_count) ?? examples.filter((e) => str(e.status) === 'pending').length,
      total: num(summary.example_count) ?? examples.length,
    },
    failures,
    uncounted,
    lines,
  };
}
