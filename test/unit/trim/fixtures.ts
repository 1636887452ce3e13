/**
 * Realistic tool outputs, generated from a seeded PRNG (nothing committed, byte-identical on every run): test runs
 * in each reporter's format with the payment incident's run (1 284 passed, 3 failed), and helpers shared by the log tests.
 */
import { counter } from '../helpers';
import { defaultPolicy } from '../../../src/core/policy';
import { linesOf } from '../../../src/core/sources/scan';
import type { Lines, TrimOptions } from '../../../src/core/trim/types';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function uuid(rand: () => number): string {
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

export const lines = (text: string): Lines => () => linesOf(text);

/**
 * `n` log lines in runs of one shape (as a log's lines come from one formatter; a new shape with chance `switchAt`),
 * each with other digits, then changed by `vary` (a mutation of its head, a tail): the shape rule's test data.
 */
export function shapeRuns(rand: () => number, shapes: string[], n: number, switchAt: number, vary: (line: string) => string): string[] {
  const out: string[] = [];
  let shape = shapes[0];
  for (let k = 0; k < n; k++) {
    if (rand() < switchAt) shape = shapes[Math.floor(rand() * shapes.length)];
    out.push(vary(shape.replace(/[0-9]/g, () => String(Math.floor(rand() * 10)))));
  }
  return out;
}

/** Trim options as the chain builds them from the default policy, with the exact o200k counter. */
export function options(maxTokens: number, overrides: Partial<TrimOptions> = {}): TrimOptions {
  const t = defaultPolicy().trim;
  return {
    maxTokens,
    count: (s) => counter.count(s),
    windowLines: t.log_window_lines,
    maxStackLines: t.max_stack_lines,
    headLines: t.command_head_lines,
    tailLines: t.command_tail_lines,
    maxLineChars: t.max_line_chars,
    jsonRecords: t.json_records,
    ...overrides,
  };
}

/** The payment incident's three failures. */
export const FAILURES = [
  { suite: 'LegacyPaymentContractTest', test: 'accepts a POS firmware 4 payload', message: 'paymentMethod is required', file: 'legacy-payment', line: 58 },
  { suite: 'MobileClientCompatibilityTest', test: 'accepts the recorded mobile 1.9 payload', message: 'HTTP 400 instead of HTTP 201', file: 'mobile-client', line: 73 },
  { suite: 'MissingPaymentMethodTest', test: 'processes an absent payment method as card', message: 'legacy payload rejected', file: 'missing-payment-method', line: 41 },
];

const VERBS = ['creates', 'refunds', 'captures', 'voids', 'lists', 'rejects', 'retries', 'settles', 'exports', 'validates'];
const THINGS = ['a card payment', 'a SEPA debit', 'a wallet payment', 'a partial refund', 'an idempotent retry', 'a settlement batch', 'a gift card', 'a currency mismatch'];

/** 100 suites; the three failing tests sit in suites 81, 86 and 91; 1 284 other tests pass. */
export function suites(rand: () => number): { name: string; file: string; tests: { name: string; failure?: (typeof FAILURES)[number] }[] }[] {
  const out = [];
  let passing = 0;
  for (let s = 0; s < 100; s++) {
    const failing = [80, 85, 90].indexOf(s);
    const f = failing >= 0 ? FAILURES[failing] : undefined;
    const count = s === 99 ? 1284 - passing : 11 + Math.floor(rand() * 2);
    const tests: { name: string; failure?: (typeof FAILURES)[number] }[] = [];
    for (let t = 0; t < count; t++) tests.push({ name: `${VERBS[Math.floor(rand() * VERBS.length)]} ${THINGS[Math.floor(rand() * THINGS.length)]} #${t + 1}` });
    passing += count;
    if (f) tests.splice(3, 0, { name: f.test, failure: f });
    out.push({ name: f ? f.suite : `PaymentSuite${s}Test`, file: f ? `test/contract/${f.file}.test.ts` : `src/payments/suite-${s}.test.ts`, tests });
  }
  return out;
}

export function jestRun(seed = 1): string {
  const rand = prng(seed);
  const out: string[] = [];
  const details: string[] = [];
  for (const s of suites(rand)) {
    const failed = s.tests.some((t) => t.failure);
    out.push(`${failed ? 'FAIL' : 'PASS'} ${s.file} (${(1 + rand() * 3).toFixed(3)} s)`, `  ${s.name}`);
    for (const t of s.tests) out.push(`    ${t.failure ? '✕' : '✓'} ${t.name} (${Math.floor(rand() * 40) + 2} ms)`);
    for (const t of s.tests.filter((x) => x.failure)) {
      const f = t.failure!;
      details.push(
        `  ● ${s.name} › ${t.name}`, '', `    Error: ${f.message}`, '',
        `      ${f.line - 2} |     const res = await client.post('/v1/payments', payload);`,
        `      ${f.line - 1} |     if (res.status !== 201) {`,
        `    > ${f.line} |       throw new Error(res.body.message);`,
        '         |             ^',
        `      ${f.line + 1} |     }`, '',
        `      at Object.<anonymous> (${s.file}:${f.line}:13)`,
        '      at processTicksAndRejections (node:internal/process/task_queues:95:5)', '',
      );
    }
    if (failed) out.push('', ...details.splice(0));
  }
  out.push('', 'Test Suites: 3 failed, 97 passed, 100 total', 'Tests:       3 failed, 1284 passed, 1287 total', 'Snapshots:   0 total', 'Time:        48.21 s', 'Ran all test suites.');
  return out.join('\n') + '\n';
}

export function vitestRun(seed = 2): string {
  const rand = prng(seed);
  const out = [' RUN  v1.6.0 /work/payments', ''];
  const failed: string[] = [];
  let k = 0;
  for (const s of suites(rand)) {
    const f = s.tests.find((t) => t.failure);
    if (!f) out.push(` ✓ ${s.file}  (${s.tests.length} tests) ${Math.floor(rand() * 90) + 10}ms`, ...s.tests.map((t) => `   ✓ ${s.name} > ${t.name} ${Math.floor(rand() * 9) + 1}ms`));
    else {
      k++;
      out.push(` ❯ ${s.file}  (${s.tests.length} tests | 1 failed) 63ms`, `   × ${s.name} > ${f.name}`, `     → ${f.failure!.message}`);
      failed.push(
        ` FAIL  ${s.file} > ${s.name} > ${f.name}`, `Error: ${f.failure!.message}`, ` ❯ ${s.file}:${f.failure!.line}:13`,
        `     ${f.failure!.line - 1}|     if (res.status !== 201) {`, `     ${f.failure!.line}|       throw new Error(res.body.message);`,
        '       |             ^', '', `⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[${k}/3]⎯`, '',
      );
    }
  }
  out.push('', '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 3 ⎯⎯⎯⎯⎯⎯⎯', '', ...failed);
  out.push(' Test Files  3 failed | 97 passed (100)', '      Tests  3 failed | 1284 passed (1287)', '   Start at  10:07:31', '   Duration  48.21s');
  return out.join('\n') + '\n';
}

export function pytestRun(seed = 3): string {
  const rand = prng(seed);
  const out = ['============================= test session starts ==============================', 'platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0', 'collected 1287 items', ''];
  const blocks: string[] = [];
  const shorts: string[] = [];
  for (const s of suites(rand)) {
    const file = s.file.replace(/^(src|test)\/(.*)\.test\.ts$/, 'tests/$2.py').replace(/-/g, '_');
    for (const t of s.tests) out.push(`${file}::${s.name}::test_${t.name.replace(/\W+/g, '_')} ${t.failure ? 'FAILED' : 'PASSED'}`.padEnd(100) + ` [${String(Math.floor(rand() * 100)).padStart(3)}%]`);
    for (const t of s.tests.filter((x) => x.failure)) {
      const f = t.failure!;
      const fn = `test_${t.name.replace(/\W+/g, '_')}`;
      blocks.push(
        `______________ ${s.name}.${fn} ______________`, '',
        `    def ${fn}(client, legacy_payload):`, '        resp = client.post("/v1/payments", json=legacy_payload)',
        '>       assert resp.status_code == 201, resp.json()["message"]', `E       AssertionError: ${f.message}`, 'E       assert 400 == 201', '',
        `${file}:${f.line}: AssertionError`,
      );
      shorts.push(`FAILED ${file}::${s.name}::${fn} - AssertionError: ${f.message}`);
    }
  }
  out.push('', '=================================== FAILURES ===================================', ...blocks);
  out.push('=========================== short test summary info ============================', ...shorts);
  out.push('======================= 3 failed, 1284 passed in 48.21s ========================');
  return out.join('\n') + '\n';
}

export function mochaRun(seed = 4): string {
  const rand = prng(seed);
  const out = [''];
  const details: string[] = [];
  let n = 0;
  for (const s of suites(rand)) {
    out.push(`  ${s.name}`);
    for (const t of s.tests) {
      if (!t.failure) out.push(`    ✔ ${t.name}${rand() < 0.2 ? ` (${Math.floor(rand() * 90) + 40}ms)` : ''}`);
      else {
        n++;
        out.push(`    ${n}) ${t.name}`);
        details.push(`  ${n}) ${s.name}`, `       ${t.name}:`, `     Error: ${t.failure.message}`, `      at Context.<anonymous> (${s.file.replace('.ts', '.js')}:${t.failure.line}:13)`, '      at process.processImmediate (node:internal/timers:478:21)', '');
      }
    }
    out.push('');
  }
  out.push('', '  1284 passing (48s)', '  3 failing', '', ...details);
  return out.join('\n') + '\n';
}

export function tapRun(seed = 5): string {
  const rand = prng(seed);
  const out = ['TAP version 13'];
  suites(rand).forEach((s, i) => {
    out.push(`# Subtest: ${s.name}`);
    s.tests.forEach((t, j) => {
      out.push(`    # Subtest: ${t.name}`);
      if (!t.failure) out.push(`    ok ${j + 1} - ${t.name}`, '      ---', `      duration_ms: ${(rand() * 30).toFixed(4)}`, '      ...');
      else {
        out.push(
          `    not ok ${j + 1} - ${t.name}`, '      ---', '      duration_ms: 31.2051', `      location: '/work/payments/${s.file.replace('.ts', '.mjs')}:${t.failure.line}:3'`,
          "      failureType: 'testCodeFailure'", `      error: '${t.failure.message}'`, "      code: 'ERR_TEST_FAILURE'", '      ...',
        );
      }
    });
    out.push(`    1..${s.tests.length}`);
    const failed = s.tests.some((t) => t.failure);
    out.push(`${failed ? 'not ok' : 'ok'} ${i + 1} - ${s.name}`, '  ---', "  type: 'suite'", ...(failed ? ["  failureType: 'subtestsFailed'", "  error: '1 subtest failed'"] : []), '  ...');
  });
  out.push('1..100', '# tests 1287', '# suites 100', '# pass 1284', '# fail 3', '# cancelled 0', '# skipped 0', '# todo 0', '# duration_ms 48210.512');
  return out.join('\n') + '\n';
}

export function junitXml(seed = 6): string {
  const rand = prng(seed);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="payment-service" tests="1287" failures="3" errors="0" skipped="0" time="48.210">'];
  for (const s of suites(rand)) {
    const cls = `com.acme.payments.${s.name}`;
    const failures = s.tests.filter((t) => t.failure).length;
    out.push(`  <testsuite name="${cls}" tests="${s.tests.length}" failures="${failures}" errors="0" skipped="0" time="${(rand() * 3).toFixed(3)}">`);
    for (const t of s.tests) {
      const name = t.name.replace(/\W+/g, '_');
      if (!t.failure) {
        out.push(`    <testcase name="${name}" classname="${cls}" time="${(rand() * 0.1).toFixed(3)}"/>`);
        continue;
      }
      out.push(
        `    <testcase name="${name}" classname="${cls}" time="0.412">`,
        `      <failure message="${t.failure.message}" type="java.lang.AssertionError">java.lang.AssertionError: ${t.failure.message}`,
        '\tat org.springframework.test.util.AssertionErrors.fail(AssertionErrors.java:59)',
        `\tat ${cls}.${name}(${s.name}.java:${t.failure.line})`,
        '\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
        '</failure>',
        '      <system-out><![CDATA[2026-11-12 10:07:31 INFO  request &lt;POST /v1/payments&gt;]]></system-out>',
        '    </testcase>',
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
