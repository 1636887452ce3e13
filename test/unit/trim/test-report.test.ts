import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trimTestReport } from '../../../src/core/trim/test-report';
import { FAILURES, jestRun, junitXml, lines, mochaRun, options, pytestRun, tapRun, vitestRun } from './fixtures';
import { counter } from '../helpers';

/** The payment incident's run in every reporter's format: 1 284 passed, 3 failed; the failures stay with their messages. */
const RUNS = [
  { name: 'jest', make: jestRun, header: 'test run (jest): 1284 passed, 3 failed, 1287 total; passing tests dropped', pass: /✓/ },
  { name: 'vitest', make: vitestRun, header: 'test run (vitest): 1284 passed, 3 failed, 1287 total; passing tests dropped', pass: /✓/ },
  { name: 'pytest', make: pytestRun, header: 'test run (pytest): 1284 passed, 3 failed; passing tests dropped', pass: /\.\.\.\.\./ },
  { name: 'mocha', make: mochaRun, header: 'test run (mocha): 1284 passed, 3 failed; passing tests dropped', pass: /✔/ },
  { name: 'node:test TAP', make: tapRun, header: 'test run (tap): 1284 passed, 3 failed, 0 skipped, 1287 total; passing tests dropped', pass: /^\s*ok \d+/m },
  { name: 'JUnit XML', make: junitXml, header: 'test run (junit xml): 1284 passed, 3 failed, 0 errors, 0 skipped, 1287 total; passing tests dropped', pass: /<testcase/ },
];

describe('test-report trimming (1 284 passed, 3 failed)', () => {
  for (const run of RUNS) {
    it(`${run.name}: keeps the counts and the 3 failures with name, message and location; drops the passes`, () => {
      const text = run.make();
      assert.ok(text.length > 40000, `the raw run is large (${text.length} characters)`);
      const out = trimTestReport(lines(text), options(1500));
      assert.equal(out.text.split('\n')[0], run.header);
      assert.ok(counter.count(out.text) <= 1500);
      assert.equal(out.format, 'test');
      assert.equal(out.originalLines, text.split('\n').length - 1);
      assert.doesNotMatch(out.text, run.pass);
      for (const f of FAILURES) {
        assert.ok(out.text.includes(f.suite), `${f.suite} kept`);
        assert.ok(out.text.includes(f.message), `${f.message} kept`);
        assert.match(out.text, new RegExp(`${f.file.replace(/-/g, '[-_]')}[^\\n]*[.:(]?${f.line}\\b|${f.suite}\\.java:${f.line}`), `location of ${f.suite} kept`);
      }
      assert.match(out.note, /^3 failures kept with their messages and locations, summary kept \(1284 passed, 3 failed/);
      assert.match(out.note, /1284 passing tests dropped$/);
    });
  }

  it('jest: a small run is rendered exactly: header, summary, then each failure without code frames when tight', () => {
    const text = [
      'PASS src/refund.test.ts',
      '  ✓ refunds a captured payment (12 ms)',
      'FAIL test/contract/legacy.test.ts',
      '  ✕ accepts a POS firmware 4 payload (31 ms)',
      '',
      '  ● LegacyPaymentContractTest › accepts a POS firmware 4 payload',
      '',
      '    Error: paymentMethod is required',
      '',
      '    > 58 |       throw new Error(res.body.message);',
      '         |             ^',
      '',
      '      at Object.<anonymous> (test/contract/legacy.test.ts:58:13)',
      '      at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '',
      'Tests:       1 failed, 1 passed, 2 total',
    ].join('\n');
    const whole = trimTestReport(lines(text), options(1000));
    assert.equal(
      whole.text,
      [
        'test run (jest): 1 passed, 1 failed, 2 total; passing tests dropped',
        'Tests:       1 failed, 1 passed, 2 total',
        '',
        'failures (1):',
        '  ● LegacyPaymentContractTest › accepts a POS firmware 4 payload',
        '    Error: paymentMethod is required',
        '    > 58 |       throw new Error(res.body.message);',
        '         |             ^',
        '      at Object.<anonymous> (test/contract/legacy.test.ts:58:13)',
        '      at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ].join('\n'),
    );
    assert.equal(whole.retainedLines, 7);
    const tight = trimTestReport(lines(text), options(counter.count(whole.text) - 20));
    assert.equal(
      tight.text.split('\n').slice(4).join('\n'),
      ['  ● LegacyPaymentContractTest › accepts a POS firmware 4 payload', '    Error: paymentMethod is required', '      at Object.<anonymous> (test/contract/legacy.test.ts:58:13)'].join('\n'),
    );
  });

  it('Maven surefire output: failures from "<<< FAILURE!" blocks, the totals from the last "Tests run" line', () => {
    const text = [
      '[INFO] Running com.acme.payments.contract.LegacyPaymentContractTest',
      '[ERROR] Tests run: 7, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 4.812 s <<< FAILURE! -- in com.acme.payments.contract.LegacyPaymentContractTest',
      '[ERROR] com.acme.payments.contract.LegacyPaymentContractTest.posFirmware4PayloadIsAccepted -- Time elapsed: 0.412 s <<< FAILURE!',
      'java.lang.AssertionError: Status expected:<201> but was:<400>',
      '\tat org.springframework.test.util.AssertionErrors.fail(AssertionErrors.java:59)',
      '\tat com.acme.payments.contract.LegacyPaymentContractTest.posFirmware4PayloadIsAccepted(LegacyPaymentContractTest.java:58)',
      '[INFO] Running com.acme.payments.contract.RefundContractTest',
      '[INFO] Tests run: 10, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 3.021 s -- in com.acme.payments.contract.RefundContractTest',
      '[ERROR] Tests run: 1287, Failures: 1, Errors: 0, Skipped: 4',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    const out = trimTestReport(lines(text), options(300));
    assert.equal(out.text.split('\n')[0], 'test run (maven): 1282 passed, 1 failed, 0 errors, 4 skipped, 1287 total; passing tests dropped');
    assert.ok(out.text.includes('posFirmware4PayloadIsAccepted -- Time elapsed: 0.412 s <<< FAILURE!'));
    assert.ok(out.text.includes('java.lang.AssertionError: Status expected:<201> but was:<400>'));
    assert.ok(out.text.includes('(LegacyPaymentContractTest.java:58)'));
    assert.ok(!out.text.includes('RefundContractTest'));
  });

  it('output that is no test report falls back to head and tail, saying so', () => {
    const text = Array.from({ length: 200 }, (_, i) => `step ${i + 1}: compiled module ${i}`).join('\n');
    const out = trimTestReport(lines(text), options(200, { headLines: 3, tailLines: 2 }));
    assert.equal(out.text, ['step 1: compiled module 0', 'step 2: compiled module 1', 'step 3: compiled module 2', `… 195 lines (~${Math.ceil((text.split('\n').slice(3, 198).join('\n').length + 1) / 3.6)} tokens) removed …`, 'step 199: compiled module 198', 'step 200: compiled module 199'].join('\n'));
    assert.match(out.note, /^no test report found: head and tail kept, 195 lines in between removed$/);
  });
});

describe('JUnit XML read with a real XML parser', () => {
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites tests="90" failures="3">',
    '  <testsuite name="all" tests="30" failures="1">',
    '    <testsuite name="payments" tests="30" failures="1">',
    ...Array.from({ length: 29 }, (_, i) => `      <testcase classname="PaymentTest" name="passes ${i}" time="0.01"/>`),
    '      <!-- <testcase classname="Old" name="commented out"><failure message="not a failure"/></testcase> -->',
    '      <testcase classname="LegacyPaymentContractTest" name="accepts a POS firmware 4 payload">',
    '        <failure message="paymentMethod is required" type="AssertionError"><![CDATA[AssertionError: paymentMethod is required',
    '    at LegacyPaymentContractTest.accepts (legacy-payment.test.ts:58:13)]]></failure>',
    '      </testcase>',
    '    </testsuite>',
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');

  it('counts nested suites once and ignores a failure inside a comment', () => {
    const out = trimTestReport(lines(xml), options(800));
    assert.match(out.text, /^test run \(junit xml\): .*30 total/);
    assert.match(out.note, /^1 failures kept with their messages and locations, summary kept \(/);
    assert.match(out.note, /29 passing tests dropped/);
    assert.ok(out.text.includes('FAILED LegacyPaymentContractTest > accepts a POS firmware 4 payload'));
    assert.ok(out.text.includes('paymentMethod is required'));
    assert.ok(!out.text.includes('not a failure'));
  });

  it('says so when the XML is not well-formed, and keeps what it read before the error', () => {
    const out = trimTestReport(lines(xml.replace('</testsuites>', '</testsuite>')), options(800));
    assert.match(out.note, /^XML not well-formed \(/);
    assert.ok(out.text.includes('paymentMethod is required'));
  });
});
