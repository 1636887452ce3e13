import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pickTrimmer } from '../../../src/core/trim/pick';
import { listFailures, newFailure, renderCases, type CaseReport } from '../../../src/core/trim/test-cases';
import { readStructuredReport, trimTestReport } from '../../../src/core/trim/test-report';
import { measureEvidence } from '../../../src/core/trim/evidence';
import { counter, REPO } from '../helpers';
import { lines, options } from './fixtures';

/**
 * Every common test-report format, on real reports: dorny/test-reporter's fixtures (MIT) and the
 * outputs of runners run here (test/fixtures/test-reports/runners); NUnit 2 and xUnit.net v2 on reports written
 * after their schemas. Each: the exact failures (kind, class, name, message), the counts, and what the text keeps.
 */
const DIR = path.join(REPO, 'test/fixtures/test-reports');
const read = (p: string) => fs.readFileSync(path.join(DIR, p), 'utf8');
const real = (f: string) => read(`real-dorny-test-reporter/${f}`);
const runner = (f: string) => read(`runners/${f}`);

function failuresOf(text: string): [string, string, string, string | undefined][] {
  const r = readStructuredReport(lines(text));
  assert.ok(r, 'read as a structured report');
  return r.failures.map((f) => [f.kind, f.classname, f.name, f.message]);
}
const countsOf = (text: string) => readStructuredReport(lines(text))?.counts;
const formatOf = (text: string) => readStructuredReport(lines(text))?.format;

describe('test reports: NUnit, TRX, xUnit.net XML', () => {
  it('NUnit 3 (dotnet test --logger nunit): five failing cases, two of them errors, with their messages', () => {
    const x = real('dotnet-nunit.xml');
    assert.equal(formatOf(x), 'nunit 3 xml');
    assert.deepEqual(countsOf(x), { passed: 3, failed: 3, errors: 2, skipped: 1, total: 9 });
    const cls = 'DotnetTests.XUnitTests.CalculatorTests';
    assert.deepEqual(failuresOf(x), [
      ['error', cls, 'Exception_In_TargetTest', 'System.DivideByZeroException : Attempted to divide by zero.'],
      ['error', cls, 'Exception_In_Test', 'System.Exception : Test'],
      ['failure', cls, 'Failing_Test', 'Expected: 3'],
      ['failure', cls, 'Is_Even_Number(3)', 'Expected: True'],
      ['failure', cls, 'Timeout_Test', undefined],
    ]);
    const out = trimTestReport(lines(x), options(1500));
    assert.match(out.text, /^test run \(nunit 3 xml\): 3 passed, 3 failed, 2 errors, 1 skipped, 9 total; passing tests dropped/);
    assert.match(out.text, /FAILED DotnetTests\.XUnitTests\.CalculatorTests > Failing_Test/);
    assert.match(out.text, /But was: {2}2/, 'the rest of the message follows');
    assert.match(out.note, /^5 failures kept with their messages and locations/);
  });

  it('NUnit 3 (mock-assembly): a failure and an error among skipped and ignored cases', () => {
    const x = real('nunit-sample.xml');
    assert.deepEqual(countsOf(x), { passed: 12, failed: 1, errors: 1, skipped: 4, total: 18 });
    assert.deepEqual(failuresOf(x), [
      ['failure', 'NUnit.Tests.Assemblies.MockTestFixture', 'FailingTest', 'Intentional failure'],
      ['error', 'NUnit.Tests.Assemblies.MockTestFixture', 'TestWithException', 'System.ApplicationException : Intentional Exception'],
    ]);
  });

  it('NUnit 2 (test-results): result Failure and Error, an ignored case skipped, the message and stack kept', () => {
    const x = read('written/nunit2.xml');
    assert.equal(formatOf(x), 'nunit 2 xml');
    assert.deepEqual(countsOf(x), { passed: 2, failed: 1, errors: 1, skipped: 1, total: 5 });
    assert.deepEqual(failuresOf(x), [
      ['failure', '', 'Billing.Tests.InvoiceTests.Rounds_Half_Up', 'Expected: 10.05m'],
      ['error', '', 'Billing.Tests.InvoiceTests.Rejects_Negative_Amount', 'System.NullReferenceException : Object reference not set to an instance of an object.'],
    ]);
    const out = trimTestReport(lines(x), options(1500));
    assert.match(out.text, /But was: {2}10\.04m/);
    assert.match(out.text, /InvoiceTests\.cs:line 42/);
  });

  it('TRX (MSTest/xUnit): five failed results; the class from the test definitions when the name lacks it', () => {
    const x = real('dotnet-trx.trx');
    assert.equal(formatOf(x), 'trx');
    assert.deepEqual(countsOf(x), { passed: 5, failed: 5, skipped: 1, total: 11 });
    const cls = 'DotnetTests.XUnitTests.CalculatorTests';
    assert.deepEqual(failuresOf(x), [
      ['failure', cls, 'Should be even number(i: 3)', 'Assert.True() Failure'],
      ['failure', '', `${cls}.Exception_In_TargetTest`, 'System.DivideByZeroException : Attempted to divide by zero.'],
      ['failure', '', `${cls}.Exception_In_Test`, 'System.Exception : Test'],
      ['failure', '', `${cls}.Failing_Test`, 'Assert.Equal() Failure'],
      ['failure', '', `${cls}.Is_Even_Number(i: 3)`, 'Assert.True() Failure'],
    ]);
  });

  it('TRX (xUnit v3): a failed test and two class-cleanup failures with no message', () => {
    const x = real('dotnet-xunitv3.trx');
    assert.deepEqual(countsOf(x), { passed: 1, failed: 3, skipped: 0, total: 4 });
    assert.deepEqual(failuresOf(x), [
      ['failure', '', 'DotnetTests.XUnitV3Tests.FixtureTests.Failing_Test', 'Assert.Null() Failure: Value is not null'],
      ['failure', '', '[Test Class Cleanup Failure (DotnetTests.XUnitV3Tests.FixtureTests.Passing_Test)]', undefined],
      ['failure', '', '[Test Class Cleanup Failure (DotnetTests.XUnitV3Tests.FixtureTests.Failing_Test)]', undefined],
    ]);
    assert.match(trimTestReport(lines(x), options(1500)).text, / {2}failure: \(no message\)/);
  });

  it('xUnit.net v2 XML: failing tests with their exception type, and an assembly-level error', () => {
    const x = read('written/xunit-v2.xml');
    assert.equal(formatOf(x), 'xunit.net xml');
    assert.deepEqual(countsOf(x), { passed: 1, failed: 2, errors: 1, skipped: 1, total: 4 });
    assert.deepEqual(failuresOf(x), [
      ['error', '', 'Billing.Tests.DatabaseFixture', 'System.InvalidOperationException : The connection was not closed.'],
      ['failure', '', 'Billing.Tests.InvoiceTests.Rounds_Half_Up(amount: 10.045)', 'Assert.Equal() Failure: Values differ'],
      ['failure', '', 'Billing.Tests.InvoiceTests.Rejects_Negative_Amount', 'System.NullReferenceException : Object reference not set to an instance of an object.'],
    ]);
    const out = trimTestReport(lines(x), options(1500));
    assert.match(out.text, /failure \(Xunit\.Sdk\.EqualException\): Assert\.Equal\(\) Failure: Values differ/);
    assert.match(out.text, /Actual: {3}10\.04/);
  });
});

describe('test reports: JSON documents and event streams', () => {
  it('mocha JSON (dorny): four failures with their suites, a timeout among them', () => {
    const x = real('mocha-json.json');
    assert.equal(formatOf(x), 'mocha json');
    assert.deepEqual(countsOf(x), { passed: 1, failed: 4, skipped: 1, total: 6 });
    assert.deepEqual(failuresOf(x).map(([k, c, n]) => [k, c, n]), [
      ['failure', '', 'Timeout test'],
      ['failure', 'Test 1 Test 1.1', 'Failing test'],
      ['failure', 'Test 1 Test 1.1', 'Exception in target unit'],
      ['failure', 'Test 2', 'Exception in test'],
    ]);
    assert.match(failuresOf(x)[0][3] ?? '', /^Timeout of 1ms exceeded\./);
  });

  it('mocha JSON (a run of 230 tests here): all seven failures, the last test of the run included', () => {
    const x = runner('mocha.json');
    assert.deepEqual(countsOf(x), { passed: 223, failed: 7, skipped: 0, total: 230 });
    const names = failuresOf(x).map((f) => `${f[1]} > ${f[2]}: ${f[3]}`);
    assert.equal(names.length, 7);
    assert.equal(names[6], 'billing > case 229 handles widget-229: widget-229 total was 1604, expected 1603');
  });

  it('jest --json: seven failures with their ancestors, messages and files', () => {
    const x = runner('jest.json');
    assert.equal(formatOf(x), 'jest json');
    assert.deepEqual(countsOf(x), { passed: 223, failed: 7, skipped: 0, total: 230 });
    assert.deepEqual(failuresOf(x)[0], ['failure', 'parser', 'case 003 handles widget-3', 'Error: widget-3 total was 22, expected 21']);
    assert.deepEqual(failuresOf(x)[6], ['failure', 'billing', 'case 229 handles widget-229', 'Error: widget-229 total was 1604, expected 1603']);
    assert.equal(pickTrimmer('jest.json', undefined, lines(x)).format, 'test', 'sniffed as a test report, not JSON');
  });

  it('jest --json: a test file that failed to run is an error of its own', () => {
    const doc = { numFailedTests: 0, numPassedTests: 0, numTotalTests: 0, numPendingTests: 0, testResults: [{ name: '/src/a.test.ts', status: 'failed', message: '  ● Test suite failed to run\n\n    Cannot find module ./payments', assertionResults: [] }] };
    const r = readStructuredReport(lines(JSON.stringify(doc)));
    assert.deepEqual(r?.failures.map((f) => [f.kind, f.name, f.message]), [['error', '/src/a.test.ts', '● Test suite failed to run']]);
    assert.deepEqual(r?.failures[0].body, ['    Cannot find module ./payments']);
    assert.equal(r?.counts.errors, 1);
  });

  it('go test -json: six failing tests (subtests and their parent), the message and its file:line', () => {
    const x = real('golang-json.json');
    assert.equal(formatOf(x), 'go test json');
    assert.deepEqual(countsOf(x), { passed: 5, failed: 6, skipped: 1, total: 12 });
    const pkg = '_/home/james_t/git/test-reporter/reports/go';
    assert.deepEqual(failuresOf(x), [
      ['failure', pkg, 'TestFailing', 'calculator_test.go:19: expected 1+1 = 3, got 2'],
      ['failure', pkg, 'TestPanicInsideFunction', 'calculator_test.go:76: caught panic: runtime error: integer divide by zero'],
      ['failure', pkg, 'TestPanicInsideTest', 'calculator_test.go:76: caught panic: bad stuff'],
      ['failure', pkg, 'TestCases/2_+_3_=_4', 'calculator_test.go:67: expected 2 + 3 = 4, got 5'],
      ['failure', pkg, 'TestCases/1_/_2_=_1', 'calculator_test.go:67: expected 1 / 2 = 1, got 0'],
      ['failure', pkg, 'TestCases', undefined],
    ]);
    const f = readStructuredReport(lines(x))?.failures[0];
    assert.deepEqual([f?.file, f?.line], ['calculator_test.go', '19']);
  });

  it('go test -json: a package that fails to build is an error with what it printed', () => {
    const events = [
      { Action: 'start', Package: 'example.com/pay' },
      { Action: 'output', Package: 'example.com/pay', Output: '# example.com/pay\n' },
      { Action: 'output', Package: 'example.com/pay', Output: 'pay/refund.go:12:2: undefined: ledger\n' },
      { Action: 'output', Package: 'example.com/pay', Output: 'FAIL\texample.com/pay [build failed]\n' },
      { Action: 'fail', Package: 'example.com/pay', Elapsed: 0 },
    ];
    const r = readStructuredReport(lines(events.map((e) => JSON.stringify({ Time: '2026-12-01T20:00:00Z', ...e })).join('\n')));
    assert.deepEqual(r?.failures.map((f) => [f.kind, f.name, f.message]), [['error', 'example.com/pay', '# example.com/pay']]);
    assert.ok(r?.failures[0].body.includes('pay/refund.go:12:2: undefined: ledger'));
    assert.deepEqual(r?.counts, { passed: 0, failed: 0, errors: 1, skipped: 0, total: 0 });
  });

  it('dart JSON (dart test --reporter json): failures and errors named by their groups, with the first error', () => {
    const x = real('dart-json.json');
    assert.equal(formatOf(x), 'dart json');
    assert.deepEqual(countsOf(x), { passed: 1, failed: 1, errors: 3, skipped: 1, total: 6 });
    assert.deepEqual(failuresOf(x), [
      ['error', 'test\\second_test.dart', 'Timeout test', 'TimeoutException after 0:00:00.000001: Test timed out after 0 seconds.'],
      ['failure', 'test\\main_test.dart', 'Test 1 Test 1.1 Failing test', 'Expected: <2>'],
      ['error', 'test\\main_test.dart', 'Test 1 Test 1.1 Exception in target unit', 'Exception: Some error'],
      ['error', 'test\\main_test.dart', 'Test 2 Exception in test', 'Exception: Some error'],
    ]);
  });

  it('RSpec JSON: the failed example with its full description, exception class, message and location', () => {
    const x = real('rspec-json.json');
    assert.equal(formatOf(x), 'rspec json');
    assert.deepEqual(countsOf(x), { passed: 1, failed: 1, skipped: 1, total: 3 });
    const f = readStructuredReport(lines(x))?.failures[0];
    assert.equal(f?.name, 'CheckEnvVars#call when all env vars are defined behaves like success load fails in assertion');
    assert.equal(f?.type, 'RSpec::Mocks::MockExpectationError');
    assert.match(f?.message ?? '', /^\(#ActiveSupport::BroadcastLogger:0x[0-9a-f]+\)\.debug\("All config env vars exist"\)$/);
    assert.match(trimTestReport(lines(x), options(1500)).text, /at \.\/spec\/config\/check_env_vars_spec\.rb:\d+/);
  });

  it('a JSON document that is not a test report stays JSON', () => {
    assert.equal(readStructuredReport(lines('{"examples": 3, "stats": 4}')), undefined);
    assert.equal(pickTrimmer('data.json', undefined, lines('{"stats": {"count": 3}, "rows": []}')).format, 'json');
  });
});

describe('test reports: text reporters run here', () => {
  const names = (text: string) => trimTestReport(lines(text), options(1500)).text;

  it('mocha spec: every failure of a long run (230 tests) with its title and message, the last test of the run included', () => {
    const out = trimTestReport(lines(runner('mocha-spec.txt')), options(1500));
    assert.match(out.note, /^7 failures kept/);
    for (const i of [3, 57, 120, 199, 224, 227, 229]) {
      assert.ok(out.text.includes(`handles widget-${i}:`), `failure ${i} named`);
      assert.ok(out.text.includes(`widget-${i} total was ${i * 7 + 1}, expected ${i * 7}`), `failure ${i} with its message`);
    }
    assert.match(out.text, /^ {2}7\) billing case 229 handles widget-229:$/m, 'the title read over its two lines');
  });

  it('mocha spec: a nested title over three lines and a hook title on one line, each message right under it', () => {
    const text = [
      '  2 passing',
      '  2 failing',
      '',
      '  1) payments',
      '       refunds',
      '         rejects a refund over the captured amount:',
      '     Error: refund 120 exceeds captured 100',
      '      at Context.<anonymous> (test/refund.spec.js:14:11)',
      '',
      '  2) "before all" hook in "{root}":',
      '     Error: connect ECONNREFUSED 127.0.0.1:5432',
      '      at TCPConnectWrap.afterConnect (node:net:1595:16)',
      '',
    ].join('\n');
    const out = trimTestReport(lines(text), options(1000));
    assert.match(out.text, /^ {2}1\) payments refunds rejects a refund over the captured amount:\n {5}Error: refund 120 exceeds captured 100$/m);
    assert.match(out.text, /^ {2}2\) "before all" hook in "\{root\}":\n {5}Error: connect ECONNREFUSED 127\.0\.0\.1:5432$/m);
    assert.match(out.note, /^2 failures kept/);
  });

  it('node --test spec: seven failures once each (the list at the end repeats them), no suite lines', () => {
    const out = trimTestReport(lines(runner('node-spec.txt')), options(1500));
    assert.match(out.text, /^test run \(node-spec\): 223 passed, 7 failed, 0 skipped, 230 total; passing tests dropped/);
    assert.equal((out.text.match(/✖ case \d+/g) ?? []).length, 7);
    assert.doesNotMatch(out.text, /✖ (?:parser|renderer|billing)\b/);
    assert.match(out.text, /AssertionError \[ERR_ASSERTION\]: widget-229 total was 1604, expected 1603/);
  });

  it('node --test TAP: the message under `error:`, not the YAML keys around it, when the budget is tight', () => {
    const out = trimTestReport(lines(runner('node-tap.tap')), options(600));
    for (const i of [3, 229]) assert.ok(out.text.includes(`widget-${i} total was ${i * 7 + 1}, expected ${i * 7}`), `failure ${i} with its message`);
    assert.doesNotMatch(out.text, /failureType: 'testCodeFailure'/);
  });

  it('cargo test: each panic with its test name and assertion message; the counts of every test binary', () => {
    const x = runner('cargo-test.txt');
    assert.equal(pickTrimmer('run.txt', undefined, lines(x)).format, 'test');
    const out = trimTestReport(lines(x), options(1500));
    assert.match(out.text, /^test run \(cargo\): 223 passed, 8 failed, 0 skipped; passing tests dropped/);
    assert.match(out.text, /---- tests::billing_panics_on_overflow stdout ----/);
    assert.match(out.text, /index out of bounds: the len is 0 but the index is 3/);
    assert.match(out.text, /assertion `left == right` failed: widget-229 total was 1604, expected 1603/);
    assert.match(out.note, /^8 failures kept/);
  });

  it('pytest text and JUnit, jest text, node --test JUnit: every failure with its message', () => {
    assert.match(names(runner('pytest-text.txt')), /test_parser_rejects_empty_header[\s\S]*empty header was accepted/);
    assert.match(names(runner('jest-text.txt')), /● billing › case 229 handles widget-229\n\s+widget-229 total was 1604, expected 1603/);
    assert.deepEqual(countsOf(runner('pytest-junit.xml')), { total: 231, failed: 8, errors: 0, skipped: 0, passed: 223 });
    assert.equal(failuresOf(runner('node-junit.xml')).length, 7);
  });
});

describe('test reports: real JUnit dialects', () => {
  const cases: [string, number][] = [
    ['junit4-complete.xml', 2],
    ['TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml', 1],
    ['jest-junit.xml', 4],
    ['jest-suite-errors.xml', 2],
    ['junit-with-message.xml', 1],
    ['phpunit.xml', 2],
    ['phpunit-paths.xml', 6],
    ['phpcheckstyle-phpunit.xml', 2],
    ['tester-v1.7-report.xml', 1],
    ['python-xunit-pytest.xml', 2],
    ['python-xunit-unittest.xml', 2],
    ['swift-xunit.xml', 1],
    ['empty_failures.xml', 1],
  ];
  for (const [file, n] of cases) {
    it(`${file}: ${n} failing test cases, each named in the text`, () => {
      const x = real(file);
      assert.equal(formatOf(x), 'junit xml');
      const fs_ = readStructuredReport(lines(x))?.failures ?? [];
      assert.equal(fs_.length, n);
      const out = trimTestReport(lines(x), options(1500));
      for (const f of fs_) assert.ok(out.text.includes(f.name), `${f.name} in the text`);
    });
  }
});

describe('test reports: more failures than the budget holds', () => {
  const many = (n: number): CaseReport => ({
    format: 'junit xml',
    counts: { passed: 10, failed: n, total: n + 10 },
    failures: Array.from({ length: n }, (_, i) => newFailure(`case ${i} handles widget-${i}`, 'Billing', { message: `widget-${i} total was ${i * 7 + 1}, expected ${i * 7}`, body: ['at Billing.test (billing.test.js:4:1)', 'x'.repeat(200)] })),
    uncounted: 0,
    lines: 1000,
  });

  it('every failure counted and named; the first ones with their messages, as many as fit', () => {
    const out = renderCases(many(40), options(600));
    assert.ok(counter.count(out.text) <= 600);
    assert.match(out.text, /^failures \(40\): the first \d+ with their messages, the other \d+ by name only \(to fit the budget\):$/m);
    for (let i = 0; i < 40; i++) assert.ok(out.text.includes(`case ${i} handles widget-${i}`), `failure ${i} named`);
    const withMessage = Array.from({ length: 40 }, (_, i) => i).filter((i) => out.text.includes(`expected ${i * 7}\n`) || out.text.includes(`expected ${i * 7}`));
    const k = Number(/the first (\d+) with/.exec(out.text)?.[1]);
    assert.ok(k >= 5, `some messages kept (${k})`);
    assert.ok(withMessage.length >= k);
    assert.match(out.note, new RegExp(`^40 failures counted and named, the first ${k} with their messages \\(the others by name only, to fit the budget\\)`));
  });

  it('when not even the names fit: the count, the first failure with its message, then names while they fit', () => {
    const out = renderCases(many(300), options(600));
    assert.ok(counter.count(out.text) <= 600);
    const m = /^failures \(300\): (\d+) named \(the first with its message\), the other (\d+) counted only/m.exec(out.text);
    assert.ok(m, out.text.slice(0, 400));
    assert.equal(Number(m[1]) + Number(m[2]), 300);
    assert.match(out.text, /FAILED case 0 handles widget-0 — widget-0 total was 1, expected 0/);
    for (let i = 0; i < Number(m[1]); i++) assert.ok(out.text.includes(`case ${i} handles widget-${i}`), `failure ${i} named`);
    assert.ok(!out.text.includes(`case ${Number(m[1])} handles widget-${Number(m[1])};`), 'the next one is not claimed');
    assert.match(out.note, new RegExp(`^300 failures counted, ${m[1]} of them named, the first with its message`));
  });

  it('listFailures: everything fits in detail when there is room', () => {
    const l = listFailures(['head'], [['a1', 'a2'], ['b1']], ['a', 'b'], 2, options(1000));
    assert.deepEqual(l.lines, ['head', '', 'failures (2): all with their messages:', 'a1', 'a2', 'b1']);
  });

  it('text reports too: 107 jest failures in 600 tokens are counted and named as far as names fit, the first with its message', () => {
    const out = trimTestReport(lines(runner('many-jest-text.txt')), options(600));
    assert.ok(counter.count(out.text) <= 600);
    assert.match(out.text, /^test run \(jest\): 193 passed, 107 failed, 300 total/);
    assert.match(out.text, /^failures \(107\): \d+ named \(the first with its message\)/m);
    assert.match(out.text, /widget-1 total was 8, expected 7/);
  });

  it('a structured report is evidence by its failures, whatever words its messages use', () => {
    const e = measureEvidence(lines(runner('jest.json')));
    assert.equal(e.errorLines, 7);
    assert.equal(e.errorTemplates, 7);
  });
});
