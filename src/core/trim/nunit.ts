import { addBody, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';
import type { Lines } from './types';
import { walkXml } from './xml-walk';

/**
 * NUnit XML, version 3 (`<test-run>`, `nunit3-console`, `dotnet test --logger nunit`) and version 2
 * (`<test-results>`, NUnit 2.x and the tools that write its format). Each `<test-case>` is counted by its result;
 * a failing one is kept with its name, its `<message>` and the first lines of its `<stack-trace>` and output.
 * NUnit 3: result Failed (label Error: an error); NUnit 2: result Failure or Error (success="False").
 */
export function readNunit(lines: Lines, root: string): CaseReport {
  const failures: CaseFailure[] = [];
  let cases = 0;
  let failed = 0;
  let errors = 0;
  let skipped = 0;
  let uncounted = 0;
  let open: CaseFailure | undefined;
  let field: 'message' | 'stack' | 'output' | undefined;
  let message = '';
  const { lines: total, bad } = walkXml(lines, {
    open(name, a) {
      if (name === 'test-case') {
        cases++;
        open = undefined;
        const result = a.result ?? '';
        const failing = /^(?:Failed|Failure|Error)$/i.test(result) || (a.success === 'False' && a.executed !== 'False');
        if (!failing) {
          if (/^(?:Skipped|Ignored|NotRunnable|Inconclusive|Cancelled)$/i.test(result) || a.executed === 'False') skipped++;
          return;
        }
        const isError = /^Error$/i.test(result) || /^Error$/i.test(a.label ?? '');
        if (isError) errors++;
        else failed++;
        if (failures.length >= MAX_CASE_FAILURES) {
          uncounted++;
          return;
        }
        const full = a.fullname ?? a.name ?? '(unnamed)';
        const short = a.name ?? full;
        // NUnit 3 names a case by its method (and arguments) and its fullname; NUnit 2 by its full name only.
        const classname = a.fullname && full.endsWith(`.${short}`) ? full.slice(0, -short.length - 1) : a.classname ?? '';
        open = newFailure(classname ? short : full, classname, { kind: isError ? 'error' : 'failure', time: a.time ?? a.duration });
        message = '';
        failures.push(open);
      } else if (open && name === 'message') field = 'message';
      else if (open && name === 'stack-trace') field = 'stack';
      else if (open && name === 'output') field = 'output';
    },
    close(name) {
      if (name === 'test-case') open = undefined;
      else if (open && name === 'message') {
        const [first, ...rest] = message.trim().split('\n');
        if (first.trim() !== '') open.message ??= first.trim();
        addBody(open, rest.join('\n'));
        field = undefined;
      } else if (name === 'stack-trace' || name === 'output') field = undefined;
    },
    text(t) {
      if (!open || !field) return;
      if (field === 'message') message += t;
      else addBody(open, t);
    },
  });
  return {
    format: root === 'test-results' ? 'nunit 2 xml' : 'nunit 3 xml',
    counts: { passed: cases - failed - errors - skipped, failed, errors, skipped, total: cases },
    failures,
    uncounted,
    lines: total,
    caveat: bad ? `XML not well-formed (${bad}): read up to the error` : undefined,
  };
}
