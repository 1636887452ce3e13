import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';
import type { Lines } from './types';
import { walkXml } from './xml-walk';

/**
 * xUnit.net's own XML (v2 and v3 `--xml`: `<assemblies><assembly><collection><test result="Fail">`). Each `<test>`
 * is counted by its result; a failing one is kept with its name, its `<failure exception-type>`, `<message>` and
 * the first lines of its `<stack-trace>`. An assembly-level `<error>` (a fixture that failed to run) is an error.
 */
export function readXunitXml(lines: Lines): CaseReport {
  const failures: CaseFailure[] = [];
  let tests = 0;
  let failed = 0;
  let errors = 0;
  let skipped = 0;
  let uncounted = 0;
  let open: CaseFailure | undefined;
  let inErrors = false;
  let field: 'message' | 'stack' | undefined;
  let message = '';
  const start = (f: CaseFailure) => {
    if (failures.length >= MAX_CASE_FAILURES) {
      uncounted++;
      return;
    }
    open = f;
    message = '';
    failures.push(f);
  };
  const { lines: total, bad } = walkXml(lines, {
    open(name, a) {
      if (name === 'test') {
        tests++;
        open = undefined;
        if (/^Skip/i.test(a.result ?? '')) skipped++;
        if (!/^Fail/i.test(a.result ?? '')) return;
        failed++;
        start(newFailure(a.name ?? '(unnamed)', '', { time: a.time }));
      } else if (name === 'errors') inErrors = true;
      else if (inErrors && name === 'error') {
        errors++;
        start(newFailure(a.name ?? a.type ?? '(unnamed)', '', { kind: 'error', type: a.type }));
      } else if (open && name === 'failure' && a['exception-type']) open.type = a['exception-type'];
      else if (open && name === 'message') field = 'message';
      else if (open && name === 'stack-trace') field = 'stack';
    },
    close(name) {
      if (name === 'test' || (inErrors && name === 'error')) open = undefined;
      else if (name === 'errors') inErrors = false;
      else if (open && name === 'message') {
        const [first, ...rest] = message.trim().split('\n');
        if (first.trim() !== '') open.message = first.trim();
        addBody(open, rest.join('\n'));
        field = undefined;
      } else if (name === 'stack-trace') field = undefined;
    },
    text(t) {
      if (!open || !field) return;
      if (field === 'message') message += t;
      else addBody(open, t);
    },
  });
  return {
    format: 'xunit.net xml',
    counts: { passed: tests - failed - skipped, failed, errors, skipped, total: tests },
    failures,
    uncounted,
    lines: total,
    caveat: bad ? `XML not well-formed (${bad}): read up to the error` : undefined,
  };
}
