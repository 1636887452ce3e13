import { own } from './lines';
import { addBody, MAX_CASE_BODY_LINES, MAX_CASE_FAILURES, newFailure, type CaseFailure, type CaseReport } from './test-cases';
import type { Lines } from './types';

/**
 * `go test -json` (test2json): one event a line. Each test's output is held (capped) until its verdict; a `fail`
 * keeps the test with its package, the first line it printed (`x_test.go:16: want 2, got 3`, whose file and line
 * are its location) and the rest. A package that fails with no failing test (a build error, a panic in init) is an
 * error of its own, with what it printed. Lines that are not events (build output) are skipped.
 */
const NOISE = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- (?:FAIL|PASS|SKIP):|(?:FAIL|PASS|ok)\s*$|(?:FAIL|ok)\s+\S+\s+[\d.]+s$)/;

export function readGoJson(lines: Lines): CaseReport {
  const output = new Map<string, string[]>();
  const failures: CaseFailure[] = [];
  const failedPackages = new Set<string>();
  const packageFailed = new Map<string, string[]>();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let errors = 0;
  let uncounted = 0;
  let total = 0;
  for (const line of lines()) {
    total++;
    if (!line.startsWith('{')) continue;
    let e: { Action?: string; Package?: string; Test?: string; Output?: string; Elapsed?: number };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue;
    }
    const pkg = e.Package ?? '';
    const key = `${pkg}\u0000${e.Test ?? ''}`;
    if (e.Action === 'output' && typeof e.Output === 'string') {
      const held = output.get(key) ?? [];
      if (held.length < MAX_CASE_BODY_LINES && !NOISE.test(e.Output)) held.push(own(e.Output.replace(/\n$/, '')));
      output.set(key, held);
      continue;
    }
    if (!e.Test) {
      if (e.Action === 'fail') packageFailed.set(pkg, output.get(key) ?? []);
      output.delete(key);
      continue;
    }
    if (e.Action === 'pass') passed++;
    else if (e.Action === 'skip') skipped++;
    else if (e.Action === 'fail') {
      failed++;
      failedPackages.add(pkg);
      if (failures.length >= MAX_CASE_FAILURES) uncounted++;
      else failures.push(failure(e.Test, pkg, output.get(key) ?? [], e.Elapsed));
    }
    if (e.Action === 'pass' || e.Action === 'skip' || e.Action === 'fail') output.delete(key);
  }
  for (const [pkg, said] of packageFailed) {
    if (failedPackages.has(pkg)) continue;
    errors++;
    const f = failure(pkg || '(package)', '', said, undefined);
    f.kind = 'error';
    f.message ??= 'package failed (no test failed: a build error or a panic outside the tests)';
    if (failures.length >= MAX_CASE_FAILURES) uncounted++;
    else failures.push(f);
  }
  return { format: 'go test json', counts: { passed, failed, ...(errors ? { errors } : {}), skipped, total: passed + failed + skipped }, failures, uncounted, lines: total };
}

function failure(name: string, pkg: string, said: string[], elapsed: number | undefined): CaseFailure {
  const lines = said.map((l) => l.trim()).filter((l) => l !== '');
  const at = /^([\w./-]+\.go):(\d+): /.exec(lines[0] ?? '');
  const f = newFailure(name, pkg, { message: lines[0], ...(at ? { file: at[1], line: at[2] } : {}), ...(elapsed !== undefined ? { time: String(elapsed) } : {}) });
  addBody(f, lines.slice(1).join('\n'));
  return f;
}
