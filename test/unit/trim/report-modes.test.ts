import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { defaultPolicy } from '../../../src/core/policy';
import { diskReader } from '../../../src/core/sources/reader';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { REPO } from '../helpers';

/**
 * A test report reaches the model with its failures, named and with their messages, whichever way it comes
 * in: a report file in the workspace, a `--tool-result`, and offloaded (the notice's evidence
 * digest). The real chain: loadSnapshot + assemble, what `ctxctl preview` runs.
 */
const DIR = path.join(REPO, 'test/fixtures/test-reports');
type Mode = 'file' | 'tool' | 'offload';

function sent(report: string, mode: Mode): { text: string; offloaded: number; notes: string[]; whole: boolean } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-report-modes-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-report-result-'));
  try {
    fs.writeFileSync(path.join(ws, 'README.md'), '# widgets\n');
    const policy = defaultPolicy();
    const name = path.basename(report);
    let toolResults: { name: string; file: string }[] = [];
    if (mode === 'file') {
      fs.mkdirSync(path.join(ws, 'test-results'));
      fs.copyFileSync(path.join(DIR, report), path.join(ws, 'test-results', name));
    } else {
      fs.copyFileSync(path.join(DIR, report), path.join(outside, name));
      toolResults = [{ name: 'run_tests', file: path.join(outside, name) }];
      if (mode === 'offload') policy.offload = { ...policy.offload, per_result_tokens: 1, aggregate_tokens: 1 };
    }
    const result = assemble(loadSnapshot({ root: ws, reader: diskReader(ws), task: 'Fix the failing tests.', policy, changes: false, toolResults }), {});
    const text = result.blocks.filter((b) => b.kind === 'tool_result').map((b) => b.text).join('\n');
    const notes = [...result.manifest.trimmed.map((d) => String(d.reason)), ...result.manifest.offloaded.map((d) => String(d.preview ?? ''))];
    // Sent whole: the evidence zone grew into the room the fill left, so the report needed no trimming.
    const whole = result.manifest.trimmed.length === 0 && result.manifest.offloaded.length === 0 && text.includes(fs.readFileSync(path.join(DIR, report), 'utf8').replace(/\r\n?/g, '\n').trim());
    return { text, offloaded: result.manifest.offloaded.length, notes, whole };
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
}

const REPORTS: { report: string; failures: [string, string][] }[] = [
  {
    report: 'real-dorny-test-reporter/dotnet-trx.trx',
    failures: [
      ['Should be even number(i: 3)', 'Assert.True() Failure'],
      ['DotnetTests.XUnitTests.CalculatorTests.Exception_In_TargetTest', 'System.DivideByZeroException : Attempted to divide by zero.'],
      ['DotnetTests.XUnitTests.CalculatorTests.Failing_Test', 'Assert.Equal() Failure'],
    ],
  },
  {
    report: 'real-dorny-test-reporter/dotnet-nunit.xml',
    failures: [
      ['Exception_In_Test', 'System.Exception : Test'],
      ['Is_Even_Number(3)', 'Expected: True'],
    ],
  },
  { report: 'real-dorny-test-reporter/golang-json.json', failures: [['TestFailing', 'expected 1+1 = 3, got 2'], ['TestCases/1_/_2_=_1', 'expected 1 / 2 = 1, got 0']] },
  { report: 'real-dorny-test-reporter/dart-json.json', failures: [['Test 1 Test 1.1 Failing test', 'Expected: <2>'], ['Test 2 Exception in test', 'Exception: Some error']] },
  { report: 'runners/mocha-spec.txt', failures: [['case 003 handles widget-3', 'widget-3 total was 22, expected 21'], ['case 229 handles widget-229', 'widget-229 total was 1604, expected 1603']] },
  { report: 'runners/mocha.json', failures: [['case 229 handles widget-229', 'widget-229 total was 1604, expected 1603']] },
];

describe('test reports in three modes (workspace file, --tool-result, offloaded)', () => {
  for (const { report, failures } of REPORTS) {
    for (const mode of ['file', 'tool', 'offload'] as Mode[]) {
      it(`${report} as ${mode === 'file' ? 'a workspace file' : mode === 'tool' ? 'a tool result' : 'an offloaded result'}: every failure named with its message`, () => {
        const out = sent(report, mode);
        if (mode === 'offload') {
          assert.equal(out.offloaded, 1);
          assert.match(out.text, /evidence digest \(test: /);
        }
        for (const [name, message] of failures) {
          assert.ok(out.text.includes(name), `${name} sent`);
          assert.ok(out.text.includes(message), `${message} sent`);
        }
        // Trimmed, the note says the failures were kept; otherwise the report went whole.
        assert.ok(out.whole || out.notes.some((n) => /failures kept with their messages/.test(n)), out.notes.join(' | '));
      });
    }
  }

  it('offloaded with 107 failures: the digest counts them all and names as many as its budget holds', () => {
    const out = sent('runners/many-node-junit.xml', 'offload');
    const m = /failures \(107\): (\d+) named \(the first with its message\), the other (\d+) counted only/.exec(out.text);
    assert.ok(m, out.text.slice(0, 600));
    assert.equal(Number(m[1]) + Number(m[2]), 107);
    assert.ok(Number(m[1]) >= 40, `${m[1]} named`);
    assert.ok(out.notes.some((n) => n.includes(`107 failures counted, ${m[1]} of them named`)), out.notes.join(' | '));
  });
});
